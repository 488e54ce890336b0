//! [`MassProperties`]: mass, center of mass and inertia tensor about the
//! center, in `f32` storage, with the checks of docs/physics.md ("Mass
//! properties"), the parallel-axis theorem and frame conversion.
//!
//! Every result is computed in `f64` and rounded once to `f32`. The stored
//! tensor is exactly symmetric (its lower triangle mirrors the upper one) and
//! must be positive definite by the exact leading-principal-minor signs of
//! [`parapet_math::is_symmetric_positive_definite`]: overflow, underflow to a
//! singular tensor and lost definiteness are refused with no tolerance.

use crate::error::ShapeError;
use parapet_math::{
    demote_scalar, is_symmetric_positive_definite, mirror_upper, promote_quat, Mat3, Mat3d,
    OrthogonalBasis, Quat, Vec3, Vec3d,
};

/// Mass (kg), center of mass (m, local frame) and inertia tensor about the
/// center (kg m^2, local frame axes) of a rigid solid.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct MassProperties {
    /// Mass (kg), finite and positive.
    pub mass: f32,
    /// Center of mass (m), in the shape's local frame.
    pub center: Vec3,
    /// Inertia tensor about `center` (kg m^2), symmetric positive definite.
    pub inertia: Mat3,
}

const ENTRY_NAMES: [[&str; 3]; 3] = [
    [
        "inertia entry (0, 0)",
        "inertia entry (0, 1)",
        "inertia entry (0, 2)",
    ],
    [
        "inertia entry (1, 0)",
        "inertia entry (1, 1)",
        "inertia entry (1, 2)",
    ],
    [
        "inertia entry (2, 0)",
        "inertia entry (2, 1)",
        "inertia entry (2, 2)",
    ],
];

pub(crate) fn check_mass(mass: f32) -> Result<(), ShapeError> {
    if mass.is_finite() && mass > 0.0 {
        Ok(())
    } else {
        Err(ShapeError::InvalidMass { value: mass })
    }
}

fn demote_named(quantity: &'static str, value: f64) -> Result<f32, ShapeError> {
    demote_scalar(value).map_err(|_| ShapeError::NotRepresentable { quantity, value })
}

/// Rounds an `f64` center to `f32`, naming the failing component.
pub(crate) fn demote_center(c: &Vec3d) -> Result<Vec3, ShapeError> {
    Ok(Vec3::new(
        demote_named("center x", c.x)?,
        demote_named("center y", c.y)?,
        demote_named("center z", c.z)?,
    ))
}

/// Rounds an `f64` tensor to an exactly symmetric `f32` tensor (upper
/// triangle rounded, mirrored) and checks exact positive definiteness.
pub(crate) fn demote_inertia(i: &Mat3d) -> Result<Mat3, ShapeError> {
    let sym = mirror_upper(i);
    let mut out = Mat3::zeros();
    for r in 0..3 {
        for c in r..3 {
            let v = demote_named(ENTRY_NAMES[r][c], sym[(r, c)])?;
            out[(r, c)] = v;
            out[(c, r)] = v;
        }
    }
    if is_symmetric_positive_definite(&out) {
        Ok(out)
    } else {
        Err(ShapeError::NotPositiveDefinite {
            inertia: out.transpose().into(),
        })
    }
}

const INVERSE_ENTRY_NAMES: [[&str; 3]; 3] = [
    [
        "inverse inertia entry (0, 0)",
        "inverse inertia entry (0, 1)",
        "inverse inertia entry (0, 2)",
    ],
    [
        "inverse inertia entry (1, 0)",
        "inverse inertia entry (1, 1)",
        "inverse inertia entry (1, 2)",
    ],
    [
        "inverse inertia entry (2, 0)",
        "inverse inertia entry (2, 1)",
        "inverse inertia entry (2, 2)",
    ],
];

/// The inverse of a symmetric positive definite `f32` inertia tensor
/// (1 / (kg m^2)), computed in `f64` by the adjugate over the determinant,
/// rounded once to `f32` and mirrored so it is exactly symmetric.
///
/// The input must pass [`is_symmetric_positive_definite`]; the result must
/// be finite and, after rounding to `f32`, still exactly positive definite
/// (a body's inverse tensor is stored in `f32` and the solver relies on its
/// definiteness, docs/physics.md "Mass properties").
///
/// # Errors
/// [`ShapeError::NotPositiveDefinite`] for an input or rounded result that is
/// not symmetric positive definite; [`ShapeError::NotRepresentable`] for an
/// inverse entry beyond the `f32` range.
pub fn inverse_inertia(inertia: &Mat3) -> Result<Mat3, ShapeError> {
    if !is_symmetric_positive_definite(inertia) {
        return Err(ShapeError::NotPositiveDefinite {
            inertia: inertia.transpose().into(),
        });
    }
    let m = inertia.cast::<f64>();
    let cof = |r0: usize, r1: usize, c0: usize, c1: usize| {
        m[(r0, c0)] * m[(r1, c1)] - m[(r0, c1)] * m[(r1, c0)]
    };
    // Adjugate (transpose of the cofactor matrix); symmetric for symmetric m.
    let adj = Mat3d::new(
        cof(1, 2, 1, 2),
        -cof(0, 2, 1, 2),
        cof(0, 1, 1, 2),
        -cof(1, 2, 0, 2),
        cof(0, 2, 0, 2),
        -cof(0, 1, 0, 2),
        cof(1, 2, 0, 1),
        -cof(0, 2, 0, 1),
        cof(0, 1, 0, 1),
    );
    let det = m[(0, 0)] * adj[(0, 0)] + m[(0, 1)] * adj[(1, 0)] + m[(0, 2)] * adj[(2, 0)];
    let mut out = Mat3::zeros();
    for r in 0..3 {
        for c in r..3 {
            let value = adj[(r, c)] / det;
            let v = demote_scalar(value).map_err(|_| ShapeError::NotRepresentable {
                quantity: INVERSE_ENTRY_NAMES[r][c],
                value,
            })?;
            out[(r, c)] = v;
            out[(c, r)] = v;
        }
    }
    if is_symmetric_positive_definite(&out) {
        Ok(out)
    } else {
        Err(ShapeError::NotPositiveDefinite {
            inertia: out.transpose().into(),
        })
    }
}

impl MassProperties {
    /// The inverse of [`MassProperties::inertia`] (1 / (kg m^2)); see
    /// [`inverse_inertia`].
    ///
    /// # Errors
    /// As [`inverse_inertia`].
    pub fn inverse_inertia(&self) -> Result<Mat3, ShapeError> {
        inverse_inertia(&self.inertia)
    }

    /// Checked mass properties.
    ///
    /// # Errors
    /// [`ShapeError::InvalidMass`], [`ShapeError::NotFiniteVector`] for the
    /// center, or [`ShapeError::NotPositiveDefinite`] unless the inertia is
    /// finite, exactly symmetric and positive definite.
    pub fn new(mass: f32, center: Vec3, inertia: Mat3) -> Result<Self, ShapeError> {
        let m = Self {
            mass,
            center,
            inertia,
        };
        m.validate()?;
        Ok(m)
    }

    /// Checks the invariants documented on the fields.
    ///
    /// # Errors
    /// As [`MassProperties::new`].
    pub fn validate(&self) -> Result<(), ShapeError> {
        check_mass(self.mass)?;
        if self.center.iter().any(|x| !x.is_finite()) {
            return Err(ShapeError::NotFiniteVector {
                quantity: "center of mass",
                value: [self.center.x, self.center.y, self.center.z],
            });
        }
        if is_symmetric_positive_definite(&self.inertia) {
            Ok(())
        } else {
            Err(ShapeError::NotPositiveDefinite {
                inertia: self.inertia.transpose().into(),
            })
        }
    }

    /// The same solid with mass `mass` (kg): the tensor scales by
    /// `mass / self.mass` (uniform density change), the center is unchanged.
    ///
    /// # Errors
    /// [`ShapeError::InvalidMass`], or a tensor that no longer fits `f32` or
    /// underflows to a singular one.
    pub fn with_mass(&self, mass: f32) -> Result<Self, ShapeError> {
        check_mass(mass)?;
        let ratio = f64::from(mass) / f64::from(self.mass);
        let inertia = demote_inertia(&(self.inertia.cast::<f64>() * ratio))?;
        Ok(Self {
            mass,
            center: self.center,
            inertia,
        })
    }

    /// The inertia tensor about `point` (m, same frame) by the parallel-axis
    /// theorem: `I + m (|d|^2 E - d d^T)` with `d = center - point` (kg m^2).
    ///
    /// # Errors
    /// [`ShapeError::NotFiniteVector`] for a non-finite point, or a tensor
    /// that does not fit `f32`.
    pub fn inertia_about(&self, point: &Vec3) -> Result<Mat3, ShapeError> {
        if point.iter().any(|x| !x.is_finite()) {
            return Err(ShapeError::NotFiniteVector {
                quantity: "reference point",
                value: [point.x, point.y, point.z],
            });
        }
        let d = self.center.cast::<f64>() - point.cast::<f64>();
        let shift =
            (Mat3d::identity() * d.norm_squared() - d * d.transpose()) * f64::from(self.mass);
        demote_inertia(&(self.inertia.cast::<f64>() + shift))
    }

    /// The mass properties seen in another frame related by the orthogonal
    /// basis `basis` (rotation or reflection) and then the offset
    /// `translation` (m): center `R c + t`, tensor `R I R^T` (about the moved
    /// center; a tensor is unchanged by translation and by `det(R)`).
    ///
    /// # Errors
    /// [`ShapeError::NotFiniteVector`] for a non-finite translation, or a
    /// result that does not fit `f32` storage.
    pub fn transformed_by_basis(
        &self,
        basis: &OrthogonalBasis,
        translation: &Vec3,
    ) -> Result<Self, ShapeError> {
        if translation.iter().any(|x| !x.is_finite()) {
            return Err(ShapeError::NotFiniteVector {
                quantity: "translation",
                value: [translation.x, translation.y, translation.z],
            });
        }
        let center = basis.point(&self.center.cast()) + translation.cast::<f64>();
        let inertia = basis.tensor(&self.inertia.cast());
        Ok(Self {
            mass: self.mass,
            center: demote_center(&center)?,
            inertia: demote_inertia(&inertia)?,
        })
    }

    /// The mass properties of the solid placed at `translation` (m) with
    /// orientation `rotation` (the quaternion is renormalized in `f64`):
    /// center `R c + t`, tensor `R I R^T`.
    ///
    /// # Errors
    /// As [`MassProperties::transformed_by_basis`].
    pub fn transformed(&self, rotation: &Quat, translation: &Vec3) -> Result<Self, ShapeError> {
        if promote_quat(*rotation)
            .coords
            .iter()
            .any(|x| !x.is_finite())
        {
            let q = rotation.coords;
            return Err(ShapeError::NotFiniteVector {
                quantity: "rotation quaternion vector part",
                value: [q.x, q.y, q.z],
            });
        }
        self.transformed_by_basis(&OrthogonalBasis::from_rotation(*rotation), translation)
    }
}

/// A solid sphere of radius `r`: `I = 2/5 m r^2` on the diagonal.
pub(crate) fn sphere_mass_properties(radius: f32, mass: f32) -> Result<MassProperties, ShapeError> {
    check_mass(mass)?;
    let r = f64::from(radius);
    let i = 0.4 * f64::from(mass) * r * r;
    Ok(MassProperties {
        mass,
        center: Vec3::zeros(),
        inertia: demote_inertia(&Mat3d::from_diagonal_element(i))?,
    })
}

/// A solid capsule along local Z, radius `r`, cylinder half length `h`.
///
/// The cylinder and the two caps (together a sphere) share the mass in the
/// ratio of their volumes `2 pi r^2 h : 4/3 pi r^3 = 3h : 2r`, so the mass
/// fractions `3h / (3h + 2r)` and `2r / (3h + 2r)` are formed without volumes
/// (no `pi r^3` to overflow or underflow). About the center:
/// - `Izz = m_cyl r^2 / 2 + m_caps 2 r^2 / 5`;
/// - `Ixx = Iyy = m_cyl (r^2 / 4 + h^2 / 3) + m_caps (2 r^2 / 5 + h^2 + 3 h r / 4)`,
///   the caps' term being the hemispheres' own inertia moved by the parallel-axis
///   theorem from their centroids at `h + 3r/8`.
pub(crate) fn capsule_mass_properties(
    radius: f32,
    half_height: f32,
    mass: f32,
) -> Result<MassProperties, ShapeError> {
    check_mass(mass)?;
    let (r, h, m) = (f64::from(radius), f64::from(half_height), f64::from(mass));
    let denominator = 3.0 * h + 2.0 * r;
    let m_cyl = m * (3.0 * h / denominator);
    let m_caps = m * (2.0 * r / denominator);
    let r2 = r * r;
    let izz = m_cyl * r2 / 2.0 + m_caps * 0.4 * r2;
    let ixx = m_cyl * (r2 / 4.0 + h * h / 3.0) + m_caps * (0.4 * r2 + h * h + 0.75 * h * r);
    Ok(MassProperties {
        mass,
        center: Vec3::zeros(),
        inertia: demote_inertia(&Mat3d::from_diagonal(&Vec3d::new(ixx, ixx, izz)))?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_inverse_of_a_full_tensor_is_its_inverse() {
        let i = Mat3::new(3.0, 0.5, -0.25, 0.5, 4.0, 0.125, -0.25, 0.125, 5.0);
        let inv = inverse_inertia(&i).unwrap();
        assert_eq!(inv, inv.transpose());
        // One f32 rounding per entry of a well-conditioned inverse: 1e-6.
        let prod = i.cast::<f64>() * inv.cast::<f64>();
        assert!((prod - Mat3d::identity()).abs().max() < 1e-6, "{prod}");
    }

    #[test]
    fn inverses_that_leave_f32_are_refused() {
        // 1 / 1e-40 = 1e40 > f32::MAX.
        let tiny = Mat3::from_diagonal_element(1.0e-40);
        assert!(matches!(
            inverse_inertia(&tiny),
            Err(ShapeError::NotRepresentable {
                quantity: "inverse inertia entry (0, 0)",
                ..
            })
        ));
        let singular = Mat3::new(1.0, 1.0, 0.0, 1.0, 1.0, 0.0, 0.0, 0.0, 1.0);
        assert!(matches!(
            inverse_inertia(&singular),
            Err(ShapeError::NotPositiveDefinite { .. })
        ));
    }
}
