//! The group sweep's data ([`super`]): its input and report types
//! ([`GroupInput`], [`GroupMember`], [`MemberShape`], [`GroupImpact`],
//! [`Struck`], [`GroupOutcome`]), each member's working state during the
//! sweep, the static triangles the members sweep against, and the events a
//! pass compares.
//!
//! # Method
//! A member-triangle sweep is narrow's dispatcher
//! ([`SweptShape::sweep_triangle`], the member's radius possibly grown); it
//! goes through `Statics::sweep`, which admits the
//! seams of meshes with active edges as face contacts
//! ([`parapet_narrow::contact::active_edges::admit_impact`]), as the sweeps
//! of bodies alone do. An event is a hit, or an initial contact that closes
//! beyond the `f32` residue bound ([`RESIDUE_F32_FACTOR`]); events are
//! ordered by time, then an initial contact before a hit, then the one
//! offered first (`offer`, `beats`).
//!
//! # Source
//! docs/continuous-collision.md, "Moving groups" (the sweep, its
//! ordering of equal times).
//!
//! # Precision domain
//! The sweeps' own; the residue and touching factors are stated on
//! [`RESIDUE_F32_FACTOR`] and [`TOUCH_F32_FACTOR`].

use parapet_geometry::{ActiveEdges, Material};
use parapet_math::{promote, Quat, Vec3, Vec3d};
use parapet_narrow::contact::active_edges::admit_impact;
use parapet_narrow::sweep::{Impact, MovingSegment, Placement, SweepOutcome, SweptShape};
use parapet_solver::RigidBody;

use crate::ccd::error::CcdError;
use crate::ccd::motion::SweptMotion;
use crate::ccd::reach::Reach;
use parapet_solver::impact::ImpactMass;
use parapet_solver::impact::PairSide;

/// How many `f32` epsilons of the velocity scale (`Σ_k |v_k|` of both
/// members' velocities, m/s) an initial contact must close by to be an
/// impact (dimensionless). Rounding a velocity to `f32` moves each
/// component by at most half an ulp, so the residue of a settled or plastic
/// contact along any unit normal is below one epsilon of that scale; four
/// leaves room for the products. A contact ignored under this bound closes
/// by at most `4 ε_f32 |v|₁ dt` in the step (about 5e-7 of the step's
/// travel), which the next step's contact stage sees as an overlap.
pub(crate) const RESIDUE_F32_FACTOR: f64 = 4.0;

/// How many `f32` epsilons of the coordinate scale (largest centre
/// coordinate plus summed radius, m) two shapes may stand apart and still
/// touch at a settled instant (dimensionless). Each member's position is
/// rounded to `f32` at the instant (half an ulp per coordinate, at most
/// `√3/2` epsilon of the scale per member); eight covers both members and
/// the sweep's `f64` contact time.
pub(crate) const TOUCH_F32_FACTOR: f64 = 8.0;

/// The shape of a group member.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum MemberShape {
    /// A dynamic centred sphere.
    Sphere {
        /// Radius (m).
        radius: f32,
    },
    /// A dynamic centred capsule that cannot turn.
    Capsule {
        /// Radius (m).
        radius: f32,
        /// Half height (m).
        half_height: f32,
    },
    /// A kinematic sphere.
    Kinematic {
        /// Radius (m).
        radius: f32,
    },
}

/// One member of a group.
#[derive(Debug, Clone, Copy)]
pub(crate) struct GroupMember<'a> {
    /// The body's index (slot).
    pub(crate) index: usize,
    /// The body (start pose, post-solver velocity and split velocity).
    pub(crate) body: &'a RigidBody,
    /// Its shape.
    pub(crate) shape: MemberShape,
    /// Its reach in the group.
    pub(crate) reach: Reach,
}

/// What a member struck.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Struck {
    /// A static triangle (snapshot index).
    Triangle(usize),
    /// Another member (body index).
    Member(usize),
}

/// One impulse of the group's sweep.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct GroupImpact {
    /// The member that took `impulse` (body index).
    pub(crate) body: usize,
    /// What it struck (which took the opposite impulse if it is a member).
    pub(crate) other: Struck,
    /// Fraction of the step in `[0, 1]`.
    pub(crate) time: f64,
    /// Contact point (world, m).
    pub(crate) point: Vec3d,
    /// Unit normal from `other` towards `body`.
    pub(crate) normal: Vec3d,
    /// Impulse on `body` (N s, world).
    pub(crate) impulse: Vec3d,
}

/// What a group's sweep produced.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct GroupOutcome {
    /// End states of the dynamic members that took an impulse (body index).
    pub(crate) motions: Vec<(usize, SweptMotion)>,
    /// Impulses in pass order.
    pub(crate) impacts: Vec<GroupImpact>,
    /// What the sweep did (passes, sweeps run).
    pub(crate) work: SweepWork,
    /// The sweep's passes, settled instants and triangle candidates (the
    /// step's report).
    pub(crate) counts: crate::ccd::report::SweepCounts,
}

/// The group's input.
pub(crate) struct GroupInput<'a> {
    /// Members in body insertion order.
    pub(crate) members: Vec<GroupMember<'a>>,
    /// Step length (s).
    pub(crate) dt: f32,
    /// `ccd_max_impacts`.
    pub(crate) max_impacts: u32,
}

pub(super) struct State {
    pub(super) index: usize,
    pub(super) kinematic: bool,
    pub(super) radius: f32,
    pub(super) start: Vec3,
    pub(super) p: Vec3,
    pub(super) v: Vec3,
    pub(super) w: Vec3,
    pub(super) sweep_v: Vec3,
    /// A capsule's `f32` world half axis
    /// ([`parapet_narrow::sweep::capsule_half_axis`]); zero for a sphere.
    pub(super) half_axis: Vec3d,
    pub(super) capsule: bool,
    /// A capsule's half height (m); zero for a sphere.
    pub(super) half_height: f32,
    /// The body's rotation and its shape's, fixed over the step (a member
    /// does not turn; a capsule is placed by them).
    pub(super) body_rotation: Quat,
    pub(super) shape_rotation: Quat,
    pub(super) candidates: Vec<(usize, Material)>,
    pub(super) response: ImpactMass,
    pub(super) material: Material,
    pub(super) impacts: u32,
    pub(super) touched: bool,
    pub(super) segments: Vec<(Vec3, f64)>,
}

impl State {
    pub(super) fn segment(&self, radius_extra: f64) -> MovingSegment {
        let r = if radius_extra > 0.0 {
            ((self.radius as f64) + radius_extra) as f32
        } else {
            self.radius
        };
        if self.capsule {
            let c = promote(self.p);
            let p0 = (c - self.half_axis).map(|x| x as f32);
            let p1 = (c + self.half_axis).map(|x| x as f32);
            MovingSegment::capsule(p0, p1, r.max(self.radius), self.sweep_v)
        } else {
            MovingSegment::sphere(self.p, r.max(self.radius), self.sweep_v)
        }
    }

    /// The member at its position, with radius `r` (its own or grown),
    /// moving at `v` over `tau` against triangle `tri`: narrow's
    /// dispatcher on the member's shape (a member is centred on its body
    /// origin), feature dropped.
    pub(super) fn sweep_triangle(
        &self,
        v: Vec3,
        tau: f32,
        tri: &[Vec3; 3],
        r: f32,
    ) -> SweepOutcome<()> {
        let shape = if self.capsule {
            SweptShape::Capsule {
                radius: r,
                half_height: self.half_height,
            }
        } else {
            SweptShape::Sphere { radius: r }
        };
        let placement = Placement {
            body_position: self.p,
            body_rotation: self.body_rotation,
            shape_offset: Vec3::zeros(),
            shape_rotation: self.shape_rotation,
        };
        shape
            .sweep_triangle(&placement, v, tau, tri)
            .map_feature(drop)
    }

    /// Lever arm from the centre to a contact point with normal `n` (pointing
    /// away from the contact towards this member).
    pub(super) fn arm(&self, point: &Vec3d, n: &Vec3d) -> Vec3d {
        if self.capsule {
            point - promote(self.p)
        } else {
            -n * self.radius as f64
        }
    }

    pub(super) fn side(&self, point: &Vec3d, n: &Vec3d) -> PairSide {
        PairSide {
            body: self.response,
            velocity: self.v,
            spin: self.w,
            arm: self.arm(point, n),
        }
    }
}

/// A pair outcome with its feature dropped.
pub(super) fn map_pair(o: SweepOutcome<parapet_narrow::sweep::PairFeature>) -> SweepOutcome<()> {
    match o {
        SweepOutcome::Hit(i) => SweepOutcome::Hit(map_impact(i)),
        SweepOutcome::InitiallyTouching(i) => SweepOutcome::InitiallyTouching(map_impact(i)),
        SweepOutcome::Miss => SweepOutcome::Miss,
        SweepOutcome::Refused(r) => SweepOutcome::Refused(r),
    }
}

pub(super) fn map_impact<F>(i: Impact<F>) -> Impact<()> {
    Impact {
        time: i.time,
        point: i.point,
        normal: i.normal,
        feature: (),
    }
}

/// Whether `n . (va - vb)` closes beyond the `f32` residue bound.
pub(super) fn closes(n: &Vec3d, va: Vec3, vb: Vec3) -> bool {
    let (a, b) = (promote(va), promote(vb));
    let u = n.dot(&(a - b));
    let scale: f64 = (0..3).map(|k| a[k].abs() + b[k].abs()).sum();
    u < -RESIDUE_F32_FACTOR * f32::EPSILON as f64 * scale
}

#[derive(Debug, Clone, Copy)]
pub(super) struct Event {
    pub(super) member: usize,
    pub(super) other: Option<usize>,
    pub(super) triangle: usize,
    pub(super) initial: bool,
    pub(super) impact: Impact<()>,
}

pub(super) fn not_representable(index: usize, quantity: &'static str, x: &Vec3d) -> CcdError {
    CcdError::NotRepresentable {
        body: index,
        quantity,
        value: x.amax(),
    }
}

/// The static triangles a group sweeps against: the mesh snapshot and each
/// triangle's active edges. Every member-triangle sweep goes through
/// [`Statics::sweep`], which admits the seams of meshes with active edges
/// as face contacts ([`admit_impact`]), as the sweeps of bodies alone do.
#[derive(Clone, Copy)]
pub(super) struct Statics<'a> {
    pub(super) triangles: &'a [[Vec3; 3]],
    pub(super) edges: &'a (dyn Fn(usize) -> ActiveEdges + Sync),
}

impl Statics<'_> {
    /// Member `a` moving at `v` over `tau` against triangle `t`, with radius
    /// `r` (see `State::sweep_triangle`), seams admitted.
    pub(super) fn sweep(&self, a: &State, v: Vec3, tau: f32, t: usize, r: f32) -> SweepOutcome<()> {
        let tri = &self.triangles[t];
        admit_impact(a.sweep_triangle(v, tau, tri, r), v, tri, (self.edges)(t))
    }
}

/// Every edge active: the edges of a group sweep without a mesh.
pub(super) fn every_edge(_: usize) -> ActiveEdges {
    ActiveEdges::ALL
}

/// The event of members `i` (`a`) and `j` (`b`) from their pair sweep
/// outcome `o`: a hit, or an initial contact that closes (time 0); `None`
/// for a miss or an initial contact that does not close.
///
/// # Errors
/// [`CcdError::PairSweepRefused`] naming both members.
pub(super) fn pair_event<F>(
    (i, a): (usize, &State),
    (j, b): (usize, &State),
    o: SweepOutcome<F>,
) -> Result<Option<Event>, CcdError> {
    let (initial, impact) = match o {
        SweepOutcome::Refused(refusal) => {
            return Err(CcdError::PairSweepRefused {
                body: a.index,
                other: b.index,
                refusal,
            })
        }
        SweepOutcome::Miss => return Ok(None),
        SweepOutcome::Hit(impact) => (false, map_impact(impact)),
        SweepOutcome::InitiallyTouching(impact) => {
            if !closes(&impact.normal, a.sweep_v, b.sweep_v) {
                return Ok(None);
            }
            (
                true,
                Impact {
                    time: 0.0,
                    ..map_impact(impact)
                },
            )
        }
    };
    Ok(Some(Event {
        member: i,
        other: Some(j),
        triangle: 0,
        initial,
        impact,
    }))
}

/// The event of member `i` (`a`) against triangle `t` from its sweep
/// outcome `o`: a hit, or an initial contact that closes (time 0); `None`
/// for a miss or an initial contact that does not close.
///
/// # Errors
/// [`CcdError::SweepRefused`] naming the member and the triangle.
pub(super) fn triangle_event(
    i: usize,
    a: &State,
    t: usize,
    o: SweepOutcome<()>,
) -> Result<Option<Event>, CcdError> {
    let (initial, impact) = match o {
        SweepOutcome::Refused(refusal) => {
            return Err(CcdError::SweepRefused {
                body: a.index,
                triangle: t,
                refusal,
            })
        }
        SweepOutcome::Miss => return Ok(None),
        SweepOutcome::Hit(impact) => (false, impact),
        SweepOutcome::InitiallyTouching(impact) => {
            if !closes(&impact.normal, a.sweep_v, Vec3::zeros()) {
                return Ok(None);
            }
            (
                true,
                Impact {
                    time: 0.0,
                    ..impact
                },
            )
        }
    };
    Ok(Some(Event {
        member: i,
        other: None,
        triangle: t,
        initial,
        impact,
    }))
}

/// Keeps the better of two events (ordering in the module docs: the
/// earlier, then an initial contact, then the one offered first).
pub(super) fn offer(e: Event, best: &mut Option<Event>) {
    let better = match best {
        None => true,
        Some(b) => {
            e.impact.time < b.impact.time
                || (e.impact.time == b.impact.time && e.initial && !b.initial)
        }
    };
    if better {
        *best = Some(e);
    }
}

/// Whether event `e` is offered before `b` wins (`offer`'s rule: earlier,
/// or as early and an initial contact against a hit).
#[inline]
pub(super) fn beats(e: &Event, b: &Event) -> bool {
    e.impact.time < b.impact.time || (e.impact.time == b.impact.time && e.initial && !b.initial)
}

/// Charges one impact to every dynamic member it moves.
pub(super) fn charge(
    states: &mut [State],
    a: usize,
    b: Option<usize>,
    limit: u32,
) -> Result<(), CcdError> {
    for pos in std::iter::once(a).chain(b) {
        let st = &mut states[pos];
        if st.kinematic {
            continue;
        }
        st.impacts += 1;
        st.touched = true;
        if st.impacts > limit {
            return Err(CcdError::ImpactLimit {
                body: st.index,
                impacts: st.impacts,
                limit,
            });
        }
    }
    Ok(())
}

/// What a group's sweep did, counted: its passes and the exact sweeps it
/// ran (pair sweeps and member-triangle sweeps, in the passes and at the
/// settled instants' culled search alike).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct SweepWork {
    /// Passes of the event loop.
    pub(crate) passes: u64,
    /// Pair sweeps run.
    pub(crate) pair_sweeps: u64,
    /// Member-triangle sweeps run.
    pub(crate) triangle_sweeps: u64,
    /// Pair windows decided and due pairs looked at (`schedule.rs`):
    /// the pair bookkeeping of the passes beyond the exact sweeps.
    pub(crate) pair_decisions: u64,
}
