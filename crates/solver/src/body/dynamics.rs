//! Derived dynamic quantities of one body: world mass centre, world inverse
//! tensor `R A Rᵀ`, momenta and kinetic energy.
//!
//! Source: Baraff, "Physically Based Modeling: Rigid Body Simulation"
//! (SIGGRAPH 2001 course notes), the world tensor `R A Rᵀ` and the momenta.
//!
//! Precision domain: computed in `f64` from the stored `f32` state, with the
//! stored rotation renormalized in `f64` (as the integrators do), so that
//! these reads agree with what the next step will use.

use parapet_math::{promote, Mat3, Mat3d, Vec3, Vec3d};

use super::{BodyKind, RigidBody};
use crate::integrate::rotation_split::{widen_rotation, InverseInertiaSplit};

impl RigidBody {
    /// The world mass centre `p + R c` in `f64` (m).
    pub fn world_center_of_mass_f64(&self) -> Vec3d {
        let r = widen_rotation(&self.rotation);
        promote(self.position) + r.transform_vector(&promote(self.center_of_mass))
    }

    /// The world mass centre `p + R c` (m), rounded to `f32`.
    pub fn world_center_of_mass(&self) -> Vec3 {
        self.world_center_of_mass_f64().cast::<f32>()
    }

    /// The effective world inverse tensor `R A Rᵀ` in `f64` (1/(kg m²)).
    pub fn world_inverse_inertia_f64(&self) -> Mat3d {
        let r = widen_rotation(&self.rotation)
            .to_rotation_matrix()
            .into_inner();
        r * self.inverse_inertia.cast::<f64>() * r.transpose()
    }

    /// The effective world inverse tensor `R A Rᵀ` (1/(kg m²)), rounded to `f32`.
    pub fn world_inverse_inertia(&self) -> Mat3 {
        self.world_inverse_inertia_f64().cast::<f32>()
    }

    /// The world velocity (m/s, `f64`) of the body point at `point` (world,
    /// m): `v + ω × (point − c)` with `c` the world mass centre.
    pub fn point_velocity(&self, point: Vec3) -> Vec3d {
        let arm = promote(point) - self.world_center_of_mass_f64();
        promote(self.linear_velocity) + promote(self.angular_velocity).cross(&arm)
    }

    /// The linear momentum `m v` (kg m/s, `f64`); zero unless dynamic.
    pub fn linear_momentum(&self) -> Vec3d {
        promote(self.linear_velocity) * self.mass as f64
    }

    /// The angular momentum about the mass centre, `R A⁻¹ Rᵀ ω` (kg m²/s,
    /// world, `f64`): zero unless dynamic, and `None` for a dynamic body whose
    /// tensor is not symmetric positive definite (a custom tensor with locked
    /// axes or negative entries has no finite inertia).
    pub fn angular_momentum(&self) -> Option<Vec3d> {
        if self.kind != BodyKind::Dynamic {
            return Some(Vec3d::zeros());
        }
        let split = InverseInertiaSplit::factor(&self.inverse_inertia)?;
        Some(crate::integrate::rotation_split::world_momentum(
            &split,
            &self.rotation,
            &self.angular_velocity,
        ))
    }

    /// The kinetic energy `½ m |v|² + ½ ω · L` (J, `f64`): zero unless
    /// dynamic, `None` when [`RigidBody::angular_momentum`] is `None`.
    pub fn kinetic_energy(&self) -> Option<f64> {
        let l = self.angular_momentum()?;
        let v = promote(self.linear_velocity);
        let w = promote(self.angular_velocity);
        Some(0.5 * self.mass as f64 * v.norm_squared() + 0.5 * w.dot(&l))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use parapet_geometry::Shape;

    #[test]
    fn point_velocity_adds_the_spin_about_the_mass_center() {
        let mut b = RigidBody::new_dynamic(Shape::sphere(1.0).unwrap(), 1.0)
            .unwrap()
            .with_position(Vec3::new(1.0, 0.0, 0.0))
            .with_linear_velocity(Vec3::new(0.0, 0.0, 1.0))
            .with_angular_velocity(Vec3::new(0.0, 0.0, 2.0));
        b.set_center_of_mass(Vec3::new(0.5, 0.0, 0.0)).unwrap();
        // Arm from the mass centre (1.5, 0, 0) to (1.5, 1, 0): ω × (0, 1, 0) = (-2, 0, 0).
        let v = b.point_velocity(Vec3::new(1.5, 1.0, 0.0));
        assert_eq!(v, Vec3d::new(-2.0, 0.0, 1.0));
    }

    #[test]
    fn disabled_bodies_have_no_momentum_or_energy() {
        let mut b = RigidBody::new_dynamic(Shape::sphere(1.0).unwrap(), 2.0)
            .unwrap()
            .with_linear_velocity(Vec3::new(3.0, 0.0, 0.0));
        assert_eq!(b.kinetic_energy(), Some(9.0));
        b.set_kind(BodyKind::Kinematic).unwrap();
        assert_eq!(b.linear_momentum(), Vec3d::zeros());
        assert_eq!(b.kinetic_energy(), Some(0.0));
    }
}
