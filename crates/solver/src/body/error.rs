//! Errors of body construction, mass-property setters, mode changes,
//! impulses, validation and single-body integration. Each message names the
//! quantity, its value and the limit it breaks.

use parapet_geometry::{MaterialError, ShapeError};

use super::BodyKind;

/// Why a body operation was refused. A refused operation leaves the body
/// exactly (bit for bit) as it was.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum BodyError {
    /// The shape could not give mass properties (for example a mesh, which is
    /// not a solid, or a non-finite or non-positive mass).
    #[error(
        "the shape has no mass properties: {0} (limit: a solid shape and a finite positive mass)"
    )]
    Shape(#[from] ShapeError),
    /// A material coefficient out of its range.
    #[error("{0} (limit: the ranges of Material::validate)")]
    Material(#[from] MaterialError),
    /// A mass that is not finite and positive.
    #[error("mass {value} kg is not finite and positive (limit: 0 < mass <= {limit} kg)", limit = f32::MAX)]
    InvalidMass {
        /// The refused mass (kg).
        value: f32,
    },
    /// A mass whose `f32` reciprocal is infinite or zero.
    #[error("inverse mass 1/{mass} = {inverse} 1/kg is not a finite positive f32 (limit: 0 < 1/mass <= {limit} 1/kg)", limit = f32::MAX)]
    InverseMassNotRepresentable {
        /// The mass (kg).
        mass: f32,
        /// Its reciprocal as computed in `f32` (1/kg).
        inverse: f32,
    },
    /// A tensor entry that is not finite.
    #[error("{quantity} entry ({row}, {col}) is {value}, not finite (limit: |entry| <= {limit})", limit = f32::MAX)]
    TensorNotFinite {
        /// Which tensor ("inertia", "inverse inertia", ...).
        quantity: &'static str,
        /// Row of the entry.
        row: usize,
        /// Column of the entry.
        col: usize,
        /// The entry.
        value: f32,
    },
    /// A solid inertia tensor that is not exactly symmetric.
    #[error("{quantity} entry ({row}, {col}) = {value} differs from its transposed entry {transposed} (limit: exact symmetry)")]
    TensorNotSymmetric {
        /// Which tensor.
        quantity: &'static str,
        /// Row of the entry.
        row: usize,
        /// Column of the entry.
        col: usize,
        /// The entry at (row, col).
        value: f32,
        /// The entry at (col, row).
        transposed: f32,
    },
    /// A solid tensor whose exact leading principal minor of some order is not
    /// positive.
    #[error("{quantity} is not positive definite: its leading principal minor of order {order} has sign {sign} (limit: sign +1, exact)")]
    TensorNotPositiveDefinite {
        /// Which tensor ("inertia", "inverse inertia", "scaled inverse inertia").
        quantity: &'static str,
        /// Order of the first non-positive leading minor (1, 2 or 3).
        order: usize,
        /// Its exact sign (0 or -1).
        sign: i8,
    },
    /// A computed `f64` quantity that has no finite `f32` value.
    #[error("{quantity} = {value} is not representable as a finite f32 (limit: |value| <= {limit})", limit = f32::MAX)]
    NotRepresentable {
        /// What was computed ("inverse inertia", "position", "angular velocity", ...).
        quantity: &'static str,
        /// The offending `f64` component.
        value: f64,
    },
    /// A scaled custom inverse tensor entry that underflowed to zero, which
    /// would lock an axis that was free.
    #[error("{quantity} entry ({row}, {col}) = {value} rounds to 0 in f32, which would lock a free axis (limit: |entry| >= {limit})", limit = f32::from_bits(1))]
    TensorEntryUnderflow {
        /// Which tensor.
        quantity: &'static str,
        /// Row of the entry.
        row: usize,
        /// Column of the entry.
        col: usize,
        /// The unrounded `f64` value.
        value: f64,
    },
    /// A vector or scalar input or state component that is not finite.
    #[error("{quantity} component {value} is not finite (limit: |value| <= {limit})", limit = f32::MAX)]
    NotFinite {
        /// What it is ("position", "linear velocity", "impulse", ...).
        quantity: &'static str,
        /// The offending component.
        value: f32,
    },
    /// A quaternion that is not a unit quaternion within the tolerance.
    #[error("{quantity} has squared norm {squared_norm} (limit: |q|^2 within {limit} of 1)")]
    NotUnitQuaternion {
        /// Which quaternion ("rotation", "shape rotation").
        quantity: &'static str,
        /// Its squared norm.
        squared_norm: f32,
        /// The tolerance, [`crate::tolerances::UNIT_QUATERNION_SQUARED_NORM_TOLERANCE`].
        limit: f32,
    },
    /// A quaternion with a zero or non-finite norm that cannot be normalized.
    #[error("{quantity} with norm {norm} cannot be normalized (limit: finite and > 0)")]
    NotNormalizable {
        /// Which quaternion.
        quantity: &'static str,
        /// Its norm (computed in `f64`).
        norm: f64,
    },
    /// An edit of the dynamic configuration while the body is not dynamic.
    #[error("cannot edit the {quantity} of a disabled dynamic body (kind {kind:?}); restore BodyKind::Dynamic first (limit: kind Dynamic)")]
    DisabledDynamicConfiguration {
        /// What the edit would change.
        quantity: &'static str,
        /// The current kind.
        kind: BodyKind,
    },
    /// An operation that needs a dynamic mass on a body created kinematic or
    /// static.
    #[error("the body was created {kind:?} and has no dynamic mass, which its {quantity} needs; create it with RigidBody::new_dynamic (limit: a saved dynamic configuration)")]
    NoDynamicConfiguration {
        /// What the operation needs ("kind Dynamic", "mass", ...).
        quantity: &'static str,
        /// The current kind.
        kind: BodyKind,
    },
    /// A dynamic mesh body: a mesh is a one-sided surface with no volume and
    /// no mass, so it is static or kinematic (moved by its set velocities).
    #[error("a mesh body is {kind:?}: a mesh has no volume and no mass (limit: kind Static or Kinematic)")]
    MeshNotStatic {
        /// The refused kind.
        kind: BodyKind,
    },
    /// A stored inverse mass that is not the `f32` reciprocal of the stored mass.
    #[error("inverse mass {inverse_mass} 1/kg is not the f32 reciprocal {expected} of mass {mass} kg (limit: exact)")]
    NotReciprocal {
        /// Stored mass (kg).
        mass: f32,
        /// Stored inverse mass (1/kg).
        inverse_mass: f32,
        /// `1 / mass` in `f32`.
        expected: f32,
    },
    /// An effective property that disagrees with the body's kind or its saved
    /// dynamic configuration.
    #[error("effective {quantity} of a {kind:?} body is {value} (limit: {expected})")]
    EffectivePropertyMismatch {
        /// Which property.
        quantity: &'static str,
        /// The body's kind.
        kind: BodyKind,
        /// The stored value (the first mismatching entry for a tensor).
        value: f32,
        /// What it must be (0 when disabled, the configured value when dynamic).
        expected: f32,
    },
    /// A damping coefficient that is negative or not finite.
    #[error("{quantity} {value} 1/s is negative or not finite (limit: 0 <= damping <= {limit} 1/s)", limit = f32::MAX)]
    InvalidDamping {
        /// "linear damping" or "angular damping".
        quantity: &'static str,
        /// The refused coefficient (1/s).
        value: f32,
    },
    /// A time step that is not finite and positive.
    #[error("time step {value} s is not finite and positive (limit: 0 < dt <= {limit} s)", limit = f32::MAX)]
    InvalidTimeStep {
        /// The refused step (s).
        value: f32,
    },
}
