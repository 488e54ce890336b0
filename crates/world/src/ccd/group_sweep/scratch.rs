//! The group sweep's buffers ([`super`]): the members' states with their
//! candidate and rotation lists, the bounds tree query's output, the event
//! memo and the settled instants' buffers, one set per thread.
//!
//! # Method
//! One set per thread (a thread-local), borrowed by one group sweep at a
//! time and reused by every group the thread sweeps, so that sweeping many
//! groups allocates nothing once warm. A sweep reads nothing of them that
//! it did not write first, so its outcome does not depend on which thread
//! swept which group.
//!
//! # Source
//! docs/continuous-collision.md, "Performance".
//!
//! # Precision domain
//! None: storage only.

use parapet_geometry::Material;
use parapet_math::{Quat, Vec3, Vec3d};

use super::memo::PassMemo;
use super::settle::SettleScratch;
use super::state::State;
use parapet_solver::impact::ImpactMass;

/// Buffers of a group's sweep kept between groups (one set per thread, see
/// [`SCRATCH`]): the members' states with their candidate and rotation
/// segment lists, the tree query's output and the pass memo. A group's
/// sweep reads nothing of them that it did not write first.
#[derive(Default)]
pub(super) struct Scratch {
    /// Member states; the first `members` entries are the group's.
    pub(super) states: Vec<State>,
    /// The bounds tree's candidates of one member.
    pub(super) query: Vec<u32>,
    /// The pass memo of the culled passes.
    pub(super) memo: PassMemo,
    /// Members whose sweep input may have changed since the previous pass.
    pub(super) moved: Vec<usize>,
    /// Members with a coordinate `-0.0` (see [`find_negative_zero`]).
    pub(super) negative_zero: Vec<usize>,
    /// The settled instants' buffers.
    pub(super) settle: SettleScratch,
}

/// The members with a position coordinate `-0.0` into `out`: the only ones
/// that a move without travel can change (`-0.0 + (+0.0) == +0.0`).
pub(super) fn find_negative_zero(states: &[State], out: &mut Vec<usize>) {
    out.clear();
    let negative_zero = |x: f32| x.to_bits() == (-0.0f32).to_bits();
    out.extend((0..states.len()).filter(|&k| states[k].p.iter().any(|&x| negative_zero(x))));
}

thread_local! {
    /// The buffers of the group sweeps that run on this thread, borrowed by
    /// one sweep at a time, so that sweeping many groups allocates nothing
    /// once warm.
    pub(super) static SCRATCH: std::cell::RefCell<Scratch> = std::cell::RefCell::new(Scratch::default());
}

/// A member state with empty lists (filled by [`sweep_group_in`]).
pub(super) fn blank_state() -> State {
    State {
        index: 0,
        kinematic: false,
        radius: 0.0,
        start: Vec3::zeros(),
        p: Vec3::zeros(),
        v: Vec3::zeros(),
        w: Vec3::zeros(),
        sweep_v: Vec3::zeros(),
        half_axis: Vec3d::zeros(),
        capsule: false,
        half_height: 0.0,
        body_rotation: Quat::identity(),
        shape_rotation: Quat::identity(),
        candidates: Vec::new(),
        response: ImpactMass {
            inverse_mass: 0.0,
            inverse_inertia: parapet_math::Mat3d::zeros(),
        },
        material: Material::default(),
        impacts: 0,
        touched: false,
        segments: Vec::new(),
    }
}
