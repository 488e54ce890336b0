//! Why a contact query was refused.

use parapet_math::Vec3;

/// Why a contact query was refused: [`super::shapes`],
/// [`super::shape_triangle`], [`super::shape_mesh`], [`super::PlacedShape::new`]
/// or a pair function (`contact_sphere_sphere` and the others), which take
/// raw sizes and coordinates and refuse them outside the precision domain.
#[derive(Clone, Copy, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ContactError {
    /// No contact test exists for this pair of shape kinds.
    #[error("contact between a {shape_a} and a {shape_b} is not supported ({hint})")]
    Unsupported {
        /// Kind of shape A ("sphere", "triangle mesh", ...).
        shape_a: &'static str,
        /// Kind of shape B.
        shape_b: &'static str,
        /// What to use instead, or why there is nothing.
        hint: &'static str,
    },
    /// The speculative margin is negative, NaN or infinite.
    #[error("contact margin {margin} m is invalid (limit: finite and >= 0)")]
    InvalidMargin {
        /// The offending margin (m).
        margin: f32,
    },
    /// A pose has a NaN or infinite translation or rotation component.
    #[error("pose of shape {which} is not finite: translation {translation:?}, rotation {rotation:?} (limit: finite)")]
    NonFinitePose {
        /// "A" or "B".
        which: &'static str,
        /// The translation (m).
        translation: Vec3,
        /// The rotation quaternion as `[i, j, k, w]`.
        rotation: [f32; 4],
    },
    /// A coordinate or a shape size lies outside the contact tests'
    /// precision domain ([`super::MAX_CONTACT_COORDINATE`]), where their
    /// `f64` products could overflow or lose the contact; an infinite or
    /// NaN coordinate is outside it too.
    #[error("{quantity} = {value} m is outside the contact precision domain (limit: {limit} m)")]
    OutsidePrecisionDomain {
        /// What was checked ("translation of A", "triangle vertex",
        /// "bounding radius of B", ...).
        quantity: &'static str,
        /// Its magnitude (m).
        value: f64,
        /// The limit (m).
        limit: f64,
    },
    /// A size given to a pair function (a radius or a half extent) is
    /// negative or NaN.
    #[error("{quantity} = {value} m is invalid (limit: a non-negative size)")]
    InvalidSize {
        /// What was checked ("radius of A", "half extents of B", ...).
        quantity: &'static str,
        /// The offending value (m).
        value: f32,
    },
}
