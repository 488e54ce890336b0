//! Why a contact query was refused.

use parapet_math::Vec3;

/// Why [`super::shapes`], [`super::shape_triangle`] or [`super::shape_mesh`]
/// refused a query. Pair functions themselves never fail.
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
    /// `f64` products could overflow or lose the contact.
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
}
