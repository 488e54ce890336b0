//! The answer of an inclusion CCD query: status, conservative time of impact,
//! precision reached and work done.

/// How an inclusion CCD query ended. Every variant is conservative: a contact
/// in `[0, 1]` is never reported as [`InclusionStatus::Separated`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub enum InclusionStatus {
    /// A box reached the tolerance (a corner of it, at its earliest possible
    /// time, is within delta + d of contact, or its parameter widths are below
    /// the per-dimension tolerances): the primitives come within
    /// `min_separation + precision` of each other at about time `toi` (up to
    /// the rounding of that report), and no contact happens before `toi`.
    Converged,
    /// The iteration cap `max_iterations` was reached first. `toi` is the
    /// smallest time still possible (the least lower time bound among the
    /// boxes not yet refuted), so it is still a lower bound of the first
    /// contact; `precision` is the image width of the box it came from, often
    /// much larger than the tolerance.
    IterationLimit,
    /// No contact within `min_separation` for any `t` in `[0, 1]`: every box
    /// was refuted by the sound inclusion test.
    Separated,
}

/// The result of one vertex-face or edge-edge inclusion CCD query.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct InclusionToi {
    /// How the query ended.
    pub status: InclusionStatus,
    /// Conservative time of impact in `[0, 1]` (fraction of the motion),
    /// never later than the true first time the primitives come within
    /// `min_separation`; `None` when [`InclusionStatus::Separated`].
    pub toi: Option<f64>,
    /// The precision actually reached (length, the query's units): how far
    /// beyond `min_separation` the primitives may still be (L-infinity) at
    /// time `toi`: the witness corner's gap, or the width of the sound
    /// enclosure of F over the accepted box (rounding error included), or at
    /// the cap the enclosure width of the parent of the earliest open box.
    /// Zero when separated.
    pub precision: f64,
    /// Number of parameter boxes evaluated (corner hull computed).
    pub iterations: u64,
}

impl InclusionToi {
    /// True when a contact (or a possible contact at the iteration cap) was
    /// reported, i.e. the status is not [`InclusionStatus::Separated`].
    #[inline]
    pub fn is_hit(&self) -> bool {
        self.toi.is_some()
    }
}
