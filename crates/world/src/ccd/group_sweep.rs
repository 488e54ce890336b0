//! The sweep and impact loop of a group of moving bodies (seed 000 "Moving
//! sphere pairs", "Supported worlds" for kinematic spheres, "Ordering,
//! limits and rollback").
//!
//! # Method
//! The members (centred spheres, centred capsules that cannot turn and
//! kinematic spheres, in body insertion order) move together in time order.
//! Each pass sweeps every dynamic member against its triangle candidates
//! (the bounds tree queried once with the member's group reach) and every
//! pair of members with at least one dynamic one
//! ([`parapet_narrow::sweep::sweep_segment_pair`]) over the remaining time,
//! and takes the earliest event: a hit, or an initial contact that closes.
//! Equal times keep the lower member first, then a triangle before another
//! member (triangles in insertion order), then the lower other member. Every
//! member moves to that time (dynamic positions rounded to `f32`; a
//! kinematic sphere's position is recomputed from its start as its velocity
//! gives it), the one impulse is applied, and the remaining time is swept
//! again.
//!
//! * Triangle impacts use [`super::response::respond`] after the
//!   pre-response lookup of the solo sweep.
//! * Pair impacts use [`super::group_response::respond_pair`] with the
//!   normal between the two closest points.
//! * **Pair cull**: a pass checks each member's precision domain once
//!   ([`CheckedSegment`]), sweeps only the pairs whose widened swept bounds
//!   meet ([`swept_bounds`], [`meeting_pairs`]; conservative, see
//!   [`swept_bounds`]) and reuses the outcomes of members whose input did
//!   not change since the previous pass; the events and their order are
//!   those of sweeping every pair ([`CULL_MIN_MEMBERS`]).
//! * **Event memo**: each member's best event (its triangles, then its
//!   pairs with higher members) is kept until its input or one of those
//!   pairs changes, and a pass offers the members' best events in member
//!   order, which keeps the flat order's choice. A pass without travel
//!   looks only at the members the previous impulse moved (and at members
//!   holding a `-0.0` coordinate, which `p + v 0` can turn to `+0.0`).
//! * **Triangle cull**: a candidate triangle that passed its own checks in
//!   a sphere member's sweep (any member's: they do not depend on the
//!   sphere) and whose bounds miss a sphere member's widened path bounds
//!   is a miss for that member and is not swept (`TriangleCull`,
//!   conservative as the pair cull is).
//! * **Touching memo**: a settled instant keeps the touching outcomes of
//!   the spheres unchanged at rest since the previous one (they do not
//!   depend on the remaining time, see `at_rest_key`).
//! * **Buffers**: the states, candidate lists, memo and settling buffers
//!   live in one per-thread scratch reused by every group the thread sweeps.
//! * **Cascades**: a second impact at the same instant settles the cascade
//!   ([`super::cascade`]): every contact that touches at that instant
//!   (within [`TOUCH_F32_FACTOR`] of `f32` roundoff), pairs and member
//!   triangles, is solved as one plastic frictionless problem. A bouncing
//!   impact (closing faster than the mixed bounce threshold with nonzero
//!   restitution) stays sequential until the instant holds twice as many
//!   impacts as the group has members; the rest then settles plastically.
//!   The contacts split into connected components (contacts that share a
//!   dynamic member; triangles and kinematic spheres pass no impulse on),
//!   each settled as its own problem. A component of more than ten
//!   contacts, or one that no impulse opens (a dynamic sphere driven into a
//!   static mesh by a kinematic sphere), raises [`CcdError::Unresolvable`]
//!   naming that component's first member and its contact count; so does a
//!   component whose settled impulses would add kinetic energy.
//! * **Accounting**: each impact counts against `max_impacts` for every
//!   dynamic body it moves; a settled contact with a positive impulse counts
//!   the same way. The group makes at most `G I + 1` passes for `G` dynamic
//!   members.
//!
//! Initial contacts that close by less than [`RESIDUE_F32_FACTOR`] `f32`
//! roundoff of the velocities are not impacts: after a settle or a pair
//! impact the `f32` velocities can leave such a residue, and treating it as
//! an impact would repeat zero-time impacts until the limit.
//!
//! Orientation and end state follow the solo sweep ([`super::solo`]):
//! members with an impulse end the step here; the others are left to the
//! integrator along the same straight path. Kinematic spheres are never
//! moved here.
//!
//! # Precision domain
//! The sweeps' (seed 000); coordinates within 65536 radii at start and end.

use parapet_geometry::bvh::Ball;
use parapet_geometry::{ActiveEdges, Material};
use parapet_math::{demote, promote, Vec3, Vec3d};
use parapet_narrow::contact::active_edges::admit_impact;
use parapet_narrow::sweep::segment_pair::{sweep_checked_pair, CheckedSegment};
use parapet_narrow::sweep::{
    sweep_capsule_triangle, sweep_segment_pair, sweep_sphere_triangle, Impact, MovingSegment,
    SweepOutcome, MAX_RADIUS, MAX_TRIANGLE_DISTANCE_RADII,
};
use parapet_solver::integrate::quaternion_update::quaternion_update;
use parapet_solver::RigidBody;

use super::cascade::{settle, SettleBody, SettleContact, SettleFailure, MAX_SETTLED_CONTACTS};
use super::error::CcdError;
use super::group_response::{respond_pair, PairSide};
use super::motion::{capsule_half_axis, check_coordinates, MeshView, SweptMotion};
use super::reach::Reach;
use super::response::{respond, ResponseBody};

/// How many `f32` epsilons of the velocity scale (`Σ_k |v_k|` of both
/// members' velocities, m/s) an initial contact must close by to be an
/// impact (dimensionless). Rounding a velocity to `f32` moves each
/// component by at most half an ulp, so the residue of a settled or plastic
/// contact along any unit normal is below one epsilon of that scale; four
/// leaves room for the products. A contact ignored under this bound closes
/// by at most `4 ε_f32 |v|₁ dt` in the step (about 5e-7 of the step's
/// travel), which the next step's contact stage sees as an overlap.
pub const RESIDUE_F32_FACTOR: f64 = 4.0;

/// How many `f32` epsilons of the coordinate scale (largest centre
/// coordinate plus summed radius, m) two shapes may stand apart and still
/// touch at a settled instant (dimensionless). Each member's position is
/// rounded to `f32` at the instant (half an ulp per coordinate, at most
/// `√3/2` epsilon of the scale per member); eight covers both members and
/// the sweep's `f64` contact time.
pub const TOUCH_F32_FACTOR: f64 = 8.0;

/// The shape of a group member.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum MemberShape {
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
pub struct GroupMember<'a> {
    /// The body's index (slot).
    pub index: usize,
    /// The body (start pose, post-solver velocity and split velocity).
    pub body: &'a RigidBody,
    /// Its shape.
    pub shape: MemberShape,
    /// Its reach in the group.
    pub reach: Reach,
}

/// What a member struck.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Struck {
    /// A static triangle (snapshot index).
    Triangle(usize),
    /// Another member (body index).
    Member(usize),
}

/// One impulse of the group's sweep.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GroupImpact {
    /// The member that took `impulse` (body index).
    pub body: usize,
    /// What it struck (which took the opposite impulse if it is a member).
    pub other: Struck,
    /// Fraction of the step in `[0, 1]`.
    pub time: f64,
    /// Contact point (world, m).
    pub point: Vec3d,
    /// Unit normal from `other` towards `body`.
    pub normal: Vec3d,
    /// Impulse on `body` (N s, world).
    pub impulse: Vec3d,
}

/// What a group's sweep produced.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct GroupOutcome {
    /// End states of the dynamic members that took an impulse (body index).
    pub motions: Vec<(usize, SweptMotion)>,
    /// Impulses in pass order.
    pub impacts: Vec<GroupImpact>,
}

struct State {
    index: usize,
    kinematic: bool,
    radius: f32,
    start: Vec3,
    p: Vec3,
    v: Vec3,
    w: Vec3,
    sweep_v: Vec3,
    half_axis: Vec3d,
    capsule: bool,
    candidates: Vec<(usize, Material)>,
    response: ResponseBody,
    material: Material,
    impacts: u32,
    touched: bool,
    segments: Vec<(Vec3, f64)>,
}

impl State {
    fn segment(&self, radius_extra: f64) -> MovingSegment {
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

    fn sweep_triangle(&self, v: Vec3, tau: f32, tri: &[Vec3; 3], r: f32) -> SweepOutcome<()> {
        let plain = |o: SweepOutcome<()>| o;
        if self.capsule {
            let s = self.segment(0.0);
            plain(map_outcome(sweep_capsule_triangle(
                s.p0, s.p1, r, v, tau, tri,
            )))
        } else {
            plain(map_outcome(sweep_sphere_triangle(self.p, r, v, tau, tri)))
        }
    }

    /// Lever arm from the centre to a contact point with normal `n` (pointing
    /// away from the contact towards this member).
    fn arm(&self, point: &Vec3d, n: &Vec3d) -> Vec3d {
        if self.capsule {
            point - promote(self.p)
        } else {
            -n * self.radius as f64
        }
    }

    fn side(&self, point: &Vec3d, n: &Vec3d) -> PairSide {
        PairSide {
            body: self.response,
            velocity: self.v,
            spin: self.w,
            arm: self.arm(point, n),
        }
    }
}

fn map_outcome<F: Copy>(o: SweepOutcome<F>) -> SweepOutcome<()> {
    let f = |i: Impact<F>| Impact {
        time: i.time,
        point: i.point,
        normal: i.normal,
        feature: (),
    };
    match o {
        SweepOutcome::Hit(i) => SweepOutcome::Hit(f(i)),
        SweepOutcome::InitiallyTouching(i) => SweepOutcome::InitiallyTouching(f(i)),
        SweepOutcome::Miss => SweepOutcome::Miss,
        SweepOutcome::Refused(r) => SweepOutcome::Refused(r),
    }
}

/// Whether `n . (va - vb)` closes beyond the `f32` residue bound.
fn closes(n: &Vec3d, va: Vec3, vb: Vec3) -> bool {
    let (a, b) = (promote(va), promote(vb));
    let u = n.dot(&(a - b));
    let scale: f64 = (0..3).map(|k| a[k].abs() + b[k].abs()).sum();
    u < -RESIDUE_F32_FACTOR * f32::EPSILON as f64 * scale
}

#[derive(Debug, Clone, Copy)]
struct Event {
    member: usize,
    other: Option<usize>,
    triangle: usize,
    initial: bool,
    impact: Impact<()>,
}

fn not_representable(index: usize, quantity: &'static str, x: &Vec3d) -> CcdError {
    CcdError::NotRepresentable {
        body: index,
        quantity,
        value: x.amax(),
    }
}

/// The group's input.
pub struct GroupInput<'a> {
    /// Members in body insertion order.
    pub members: Vec<GroupMember<'a>>,
    /// Step length (s).
    pub dt: f32,
    /// `ccd_max_impacts`.
    pub max_impacts: u32,
}

/// The static triangles a group sweeps against: the mesh snapshot and each
/// triangle's active edges. Every member-triangle sweep goes through
/// [`Statics::sweep`], which admits the seams of meshes with active edges
/// as face contacts ([`admit_impact`]), as the sweeps of bodies alone do.
#[derive(Clone, Copy)]
struct Statics<'a> {
    triangles: &'a [[Vec3; 3]],
    edges: &'a (dyn Fn(usize) -> ActiveEdges + Sync),
}

impl Statics<'_> {
    /// Member `a` moving at `v` over `tau` against triangle `t`, with radius
    /// `r` (see `State::sweep_triangle`), seams admitted.
    fn sweep(&self, a: &State, v: Vec3, tau: f32, t: usize, r: f32) -> SweepOutcome<()> {
        let tri = &self.triangles[t];
        admit_impact(a.sweep_triangle(v, tau, tri, r), v, tri, (self.edges)(t))
    }
}

/// A sphere member's triangle cull: the member's checked segment (its
/// sphere at its sweep radius and velocity) and its widened swept bounds
/// over the sweep's time ([`swept_bounds`]). See [`TriangleCull::misses`].
#[derive(Debug, Clone, Copy)]
struct TriangleCull {
    /// The sphere's centre (world, m) and radius (m) as the sweep takes them.
    center: Vec3d,
    radius: f64,
    /// The widened bounds of its path over the sweep's time.
    bounds: SweptBounds,
}

impl TriangleCull {
    /// The cull of a sphere at `center` with radius `radius` moving at
    /// `velocity` over `tau` seconds, when the sphere passes the member
    /// checks of the sphere-triangle sweep: its checks are those of
    /// [`CheckedSegment::new`] on the sphere as a segment (same finiteness,
    /// step, radius, start and end coordinate and reach limits; a sphere's
    /// half length adds `0.0` to the reach exactly). `None` when it does not
    /// (its sweeps refuse, and are all swept) or its bounds are not finite.
    fn new(center: Vec3, radius: f32, velocity: Vec3, tau: f32) -> Option<Self> {
        let segment = MovingSegment::sphere(center, radius, velocity);
        CheckedSegment::new(&segment, tau).ok()?;
        Some(TriangleCull {
            center: promote(center),
            radius: radius as f64,
            bounds: swept_bounds(&segment, tau, 0.0)?,
        })
    }

    /// Whether the sphere's sweep against `tri` is certainly a miss, for a
    /// triangle whose own checks (finite coordinates within the limit, not
    /// degenerate, not thin) passed in an earlier sweep: the triangle's
    /// bounds miss the sphere's widened swept bounds, and no vertex lies
    /// farther than [`MAX_TRIANGLE_DISTANCE_RADII`] radii from the centre
    /// (the one triangle check that depends on the sphere, written as the
    /// sweep's domain writes it, so that a sweep that would refuse is
    /// swept).
    ///
    /// # Why a culled sweep is a miss
    /// The sweep reports a contact (initial or a hit) only where its `f64`
    /// arithmetic puts a point of the centre's path within the radius of
    /// the triangle (face slab, edge cylinders, vertex spheres). Relative to
    /// the centre every vertex lies within `2^20` radii and the path within
    /// `2^20` radii (the reach limit), so the roundoff in those distances
    /// is a few `f64` epsilons of `2^21 r` (below `1e-9 r`) and, for the
    /// near-tangent roots of the edge and vertex quadratics, at most about
    /// `ε |m|² / r` with `|m|` the distance travelled to the contact, below
    /// `1e-5` of the path's extent. Bounds that miss on one axis put every
    /// point of the path farther than `r + 2^-16 (extent + r)` from every
    /// point of the triangle ([`swept_bounds`]), beyond both. The unit test
    /// `a_culled_triangle_sweep_is_a_miss` checks it on grazing spheres.
    #[inline]
    fn misses(&self, tri: &[Vec3; 3]) -> bool {
        let b = &self.bounds;
        let [p, q, r] = tri;
        // The triangle's coordinates are finite (its checks passed): the
        // f32 minimum and maximum are exact.
        let apart = (0..3).any(|k| {
            let lo = p[k].min(q[k]).min(r[k]) as f64;
            let hi = p[k].max(q[k]).max(r[k]) as f64;
            hi < b.lo[k] || b.hi[k] < lo
        });
        apart
            && tri.iter().all(|x| {
                (promote(*x) - self.center).amax() / self.radius <= MAX_TRIANGLE_DISTANCE_RADII
            })
    }
}

/// Every edge active: the edges of a group sweep without a mesh.
fn every_edge(_: usize) -> ActiveEdges {
    ActiveEdges::ALL
}

/// Sweeps a group (see the module docs). `mesh` is `None` when the world
/// holds no static triangles.
///
/// # Errors
/// [`CcdError::SweepRefused`], [`CcdError::PairSweepRefused`],
/// [`CcdError::ImpactLimit`], [`CcdError::Unresolvable`],
/// [`CcdError::Precision`] or [`CcdError::NotRepresentable`].
pub fn sweep_group(
    input: &GroupInput<'_>,
    mesh: Option<&MeshView<'_>>,
) -> Result<GroupOutcome, CcdError> {
    let cull = input.members.len() >= CULL_MIN_MEMBERS;
    sweep_group_with(input, mesh, cull)
}

/// The smallest group whose passes cull pairs and reuse unchanged outcomes
/// (members). A smaller group sweeps its few pairs every pass: the
/// bookkeeping would cost more than it saves. Either way the outcome is
/// the same, bit for bit.
pub const CULL_MIN_MEMBERS: usize = 4;

/// [`sweep_group`], with the pair cull on or off (`cull == false` sweeps
/// every pair every pass and at every settled instant: the reference the
/// tests compare the cull with).
fn sweep_group_with(
    input: &GroupInput<'_>,
    mesh: Option<&MeshView<'_>>,
    cull: bool,
) -> Result<GroupOutcome, CcdError> {
    SCRATCH.with(|cell| match cell.try_borrow_mut() {
        Ok(mut scratch) => sweep_group_in(input, mesh, cull, &mut scratch),
        // Not reached (a group's sweep starts no other on its thread), but
        // a sweep never depends on the buffers it starts with.
        Err(_) => sweep_group_in(input, mesh, cull, &mut Scratch::default()),
    })
}

/// Buffers of a group's sweep kept between groups (one set per thread, see
/// [`SCRATCH`]): the members' states with their candidate and rotation
/// segment lists, the tree query's output and the pass memo. A group's
/// sweep reads nothing of them that it did not write first.
#[derive(Default)]
struct Scratch {
    /// Member states; the first `members` entries are the group's.
    states: Vec<State>,
    /// The bounds tree's candidates of one member.
    query: Vec<u32>,
    /// The pass memo of the culled passes.
    memo: PassMemo,
    /// Members whose sweep input may have changed since the previous pass.
    moved: Vec<usize>,
    /// Members with a coordinate `-0.0` (see [`find_negative_zero`]).
    negative_zero: Vec<usize>,
    /// The settled instants' buffers.
    settle: SettleScratch,
}

/// The members with a position coordinate `-0.0` into `out`: the only ones
/// that a move without travel can change (`-0.0 + (+0.0) == +0.0`).
fn find_negative_zero(states: &[State], out: &mut Vec<usize>) {
    out.clear();
    let negative_zero = |x: f32| x.to_bits() == (-0.0f32).to_bits();
    out.extend((0..states.len()).filter(|&k| states[k].p.iter().any(|&x| negative_zero(x))));
}

thread_local! {
    /// The buffers of the group sweeps that run on this thread, borrowed by
    /// one sweep at a time, so that sweeping many groups allocates nothing
    /// once warm.
    static SCRATCH: std::cell::RefCell<Scratch> = std::cell::RefCell::new(Scratch::default());
}

/// A member state with empty lists (filled by [`sweep_group_in`]).
fn blank_state() -> State {
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
        candidates: Vec::new(),
        response: ResponseBody {
            inverse_mass: 0.0,
            inverse_inertia: parapet_math::Mat3d::zeros(),
        },
        material: Material::default(),
        impacts: 0,
        touched: false,
        segments: Vec::new(),
    }
}

/// [`sweep_group_with`] in the buffers of `scratch`.
fn sweep_group_in(
    input: &GroupInput<'_>,
    mesh: Option<&MeshView<'_>>,
    cull: bool,
    scratch: &mut Scratch,
) -> Result<GroupOutcome, CcdError> {
    let dt = input.dt;
    let members = input.members.len();
    while scratch.states.len() < members {
        scratch.states.push(blank_state());
    }
    let Scratch {
        states,
        query,
        memo,
        moved,
        negative_zero,
        settle,
    } = scratch;
    let states = &mut states[..members];
    for (m, st) in input.members.iter().zip(states.iter_mut()) {
        let body = m.body;
        let (kinematic, radius, capsule, half_axis) = match m.shape {
            MemberShape::Sphere { radius } => (false, radius, false, Vec3d::zeros()),
            MemberShape::Capsule {
                radius,
                half_height,
            } => (
                false,
                radius,
                true,
                promote(capsule_half_axis(body, half_height)),
            ),
            MemberShape::Kinematic { radius } => (true, radius, false, Vec3d::zeros()),
        };
        let limit = radius as f64;
        check_coordinates(m.index, &promote(body.position()), limit)?;
        st.candidates.clear();
        if let (false, Some(mesh)) = (kinematic, mesh) {
            let ball = Ball::new(m.reach.center, m.reach.radius).map_err(|_| {
                CcdError::NotRepresentable {
                    body: m.index,
                    quantity: "reach radius",
                    value: m.reach.radius,
                }
            })?;
            mesh.tree.query(&ball, query);
            query.sort_unstable();
            st.candidates.extend(query.iter().filter_map(|&t| {
                let t = t as usize;
                (mesh.material)(t).map(|mat| (t, body.material().mix(&mat)))
            }));
        }
        let split = if kinematic {
            Vec3::zeros()
        } else {
            body.split_linear_velocity()
        };
        let sweep_v = if split == Vec3::zeros() {
            body.linear_velocity()
        } else {
            let s = promote(body.linear_velocity()) + promote(split);
            demote(s).map_err(|_| not_representable(m.index, "swept velocity", &s))?
        };
        let response = if kinematic {
            ResponseBody {
                inverse_mass: 0.0,
                inverse_inertia: parapet_math::Mat3d::zeros(),
            }
        } else {
            ResponseBody {
                inverse_mass: body.inverse_mass() as f64,
                inverse_inertia: body.world_inverse_inertia_f64(),
            }
        };
        st.index = m.index;
        st.kinematic = kinematic;
        st.radius = radius;
        st.start = body.position();
        st.p = body.position();
        st.v = body.linear_velocity();
        st.w = if kinematic {
            Vec3::zeros()
        } else {
            body.angular_velocity()
        };
        st.sweep_v = sweep_v;
        st.half_axis = half_axis;
        st.capsule = capsule;
        st.response = response;
        st.material = body.material();
        st.impacts = 0;
        st.touched = false;
        st.segments.clear();
    }
    let statics = Statics {
        triangles: mesh.map_or(&[], |m| m.triangles),
        edges: mesh.map_or(&every_edge, |m| m.edges),
    };
    let dynamic_members = states.iter().filter(|s| !s.kinematic).count() as u64;
    let pass_limit = dynamic_members * input.max_impacts as u64 + 1;
    let first_dynamic = states.iter().find(|s| !s.kinematic).map_or(0, |s| s.index);

    let mut tau = dt;
    let mut elapsed = 0.0f64;
    let mut passes = 0u64;
    let mut at_instant = 0usize;
    let mut impacts: Vec<GroupImpact> = Vec::with_capacity(2 * members);
    // Every member is new to the memo (which only the culled passes use).
    moved.clear();
    settle.forget(members);
    if cull {
        memo.reset(states);
        find_negative_zero(states, negative_zero);
        moved.extend(0..members);
    }

    loop {
        if !(tau > 0.0) {
            break;
        }
        let found = if cull {
            earliest(states, statics, tau, memo, moved)?
        } else {
            earliest_exhaustive(states, statics, tau)?
        };
        moved.clear();
        let Some(ev) = found else {
            break;
        };
        passes += 1;
        if passes > pass_limit {
            return Err(CcdError::ImpactLimit {
                body: first_dynamic,
                impacts: input.max_impacts + 1,
                limit: input.max_impacts,
            });
        }
        let s = ev.impact.time.clamp(0.0, 1.0);
        let travel = tau as f64 * s;
        if travel > 0.0 {
            at_instant = 0;
        }
        elapsed += travel;
        // The reference (`cull == false`) moves every member every pass.
        if travel != 0.0 || !cull {
            for (k, st) in states.iter_mut().enumerate() {
                if st.kinematic {
                    let x = promote(st.start) + promote(st.v) * elapsed;
                    st.p = demote(x).map_err(|_| not_representable(st.index, "position", &x))?;
                } else {
                    let x = promote(st.p) + promote(st.sweep_v) * travel;
                    st.p = demote(x).map_err(|_| not_representable(st.index, "position", &x))?;
                    // A segment without travel turns nothing (the rotation
                    // update below skips it): not stored.
                    if travel > 0.0 {
                        st.segments.push((st.w, travel));
                    }
                }
                moved.push(k);
            }
        } else {
            // No travel: the move of every member gives its position again
            // (`p + v 0 == p` for finite velocities, and a kinematic
            // sphere's `start + v elapsed` with `elapsed` unchanged is the
            // position it already holds, or its start when it never moved),
            // except that a coordinate `-0.0` can take the sign `+0.0` of
            // `-0.0 + v 0` (a `+0.0` stays): the members holding one
            // (`negative_zero`, kept since their last move) are moved as
            // the formulas say, the others keep their bits.
            for &k in negative_zero.iter() {
                let st = &mut states[k];
                let x = if st.kinematic {
                    promote(st.start) + promote(st.v) * elapsed
                } else {
                    promote(st.p) + promote(st.sweep_v) * travel
                };
                let p = demote(x).map_err(|_| not_representable(st.index, "position", &x))?;
                if p.map(f32::to_bits) != st.p.map(f32::to_bits) {
                    st.p = p;
                    moved.push(k);
                }
            }
        }
        if travel != 0.0 && cull {
            find_negative_zero(states, negative_zero);
        }
        tau = ((tau as f64 - travel).max(0.0)) as f32;
        let time = (elapsed / dt as f64).clamp(0.0, 1.0);

        let bouncing = is_bouncing(states, &ev);
        if at_instant >= 1 && (!bouncing || at_instant >= 2 * members) {
            let validated: &[bool] = if cull { &memo.validated } else { &[] };
            let settled = settle_instant(
                states,
                statics,
                tau,
                time,
                input.max_impacts,
                cull,
                validated,
                moved,
                settle,
            )?;
            if !settled.is_empty() {
                at_instant += settled.len();
                impacts.extend(settled);
                continue;
            }
            // Nothing touching took an impulse (the event's contact lies
            // outside the touching tolerance): it is applied on its own.
        }
        if let Some(impact) = sequential(states, statics, tau, &ev, time, moved)? {
            charge(states, ev.member, ev.other, input.max_impacts)?;
            impacts.push(impact);
        }
        at_instant += 1;
    }

    let mut motions = Vec::with_capacity(members);
    for (st, m) in states.iter_mut().zip(&input.members) {
        if st.kinematic || !st.touched {
            if !st.kinematic {
                let end = promote(st.p) + promote(st.sweep_v) * tau as f64;
                check_coordinates(st.index, &end, st.radius as f64)?;
            }
            continue;
        }
        let x = promote(st.p) + promote(st.sweep_v) * tau as f64;
        let p = demote(x).map_err(|_| not_representable(st.index, "position", &x))?;
        st.segments.push((st.w, tau as f64));
        check_coordinates(st.index, &promote(p), st.radius as f64)?;
        let body = m.body;
        let mut q = body.rotation();
        let turn = |q: &parapet_math::Quat, w: &Vec3, h: f64| {
            quaternion_update(q, w, h).ok_or(CcdError::NotRepresentable {
                body: st.index,
                quantity: "rotation",
                value: f64::NAN,
            })
        };
        if body.split_angular_velocity() != Vec3::zeros() {
            q = turn(&q, &body.split_angular_velocity(), dt as f64)?;
        }
        for (ws, h) in &st.segments {
            if *ws != Vec3::zeros() && *h > 0.0 {
                q = turn(&q, ws, *h)?;
            }
        }
        motions.push((
            st.index,
            SweptMotion {
                position: p,
                rotation: q,
                linear_velocity: st.v,
                angular_velocity: st.w,
            },
        ));
    }
    Ok(GroupOutcome { motions, impacts })
}

/// The event of members `i` (`a`) and `j` (`b`) from their pair sweep
/// outcome `o`: a hit, or an initial contact that closes (time 0); `None`
/// for a miss or an initial contact that does not close.
///
/// # Errors
/// [`CcdError::PairSweepRefused`] naming both members.
fn pair_event<F>(
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
fn triangle_event(
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

/// Charges one impact to every dynamic member it moves.
fn charge(states: &mut [State], a: usize, b: Option<usize>, limit: u32) -> Result<(), CcdError> {
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

/// Relative widening of a member's swept bounds for the pair cull
/// (dimensionless, `2^-16` of the member's local scale: the extent of its
/// swept bounds plus its radius). See [`swept_bounds`].
pub const PAIR_CULL_MARGIN: f64 = 1.0 / 65536.0;

/// Widening of a member's swept bounds per metre of its largest world
/// coordinate (dimensionless, `2^-30`): covers the `f64` rounding of the
/// bounds themselves and of the pair sweep's re-centring (a few `f64`
/// epsilons of the world coordinates) many times over.
pub const PAIR_CULL_WORLD_MARGIN: f64 = 1.0 / 1_073_741_824.0;

/// Axis-aligned bounds (world, m) of a member's path over the remaining
/// time, widened for the pair cull; `None` when not finite.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SweptBounds {
    /// Lower corner.
    pub lo: [f64; 3],
    /// Upper corner.
    pub hi: [f64; 3],
}

/// The bounds of `segment` (its radius grown by `grow` metres) over `tau`
/// seconds: the box of its two ends at the start and at the end of the
/// motion, grown by the radius and by the cull margin
/// `PAIR_CULL_MARGIN (extent + radius) + PAIR_CULL_WORLD_MARGIN |world|`.
/// `None` when a bound is not finite (such a member is never culled).
///
/// # Why the cull is conservative
/// Two members whose widened bounds miss each other on some axis are apart
/// on that axis by more than `G > 2^-16 (L_A + L_B)` at every instant of
/// the remaining time (`L` the local scales). The pair sweep
/// ([`sweep_segment_pair`]) reports a contact (a hit or an initial
/// contact) only at an instant where two points of the members' axes (the
/// ends, or clamped closest points, or points on the two lines) lie within
/// the summed radius by its own `f64` arithmetic; its error in that
/// distance is at most `κ S` with `S` the scale of its relative
/// coordinates (`S <= 2 G + 4 (L_A + L_B)` for such a pair) and
/// `κ < 1e-6`: a few `√ε` from its parallel-axis guard (`|e_A x e_B|² >
/// ε |e_A|² |e_B|²`, which bounds the plane distance's relative error by
/// about `2 √ε = 3e-8`) and `ε S / R` from the cancellation in its
/// discriminants (`S / R < 2^21` in the precision domain, so below
/// `5e-10`). So a contact needs `G <= κ S < 4e-6 (G + 2 L_A + 2 L_B)`,
/// i.e. `G < 1e-5 (L_A + L_B)`, which the cull's `2^-16 = 1.5e-5` excludes:
/// a culled pair's sweep is a miss. `sweep_group`'s unit tests check it
/// on grazing pairs and against the uncut pass.
pub fn swept_bounds(segment: &MovingSegment, tau: f32, grow: f64) -> Option<SweptBounds> {
    // Components written out and compared directly (nalgebra's indexing
    // and `f64::min`'s NaN handling cost more than the arithmetic). For
    // finite inputs the corners are those of `min`/`max`, up to the sign of
    // a zero, which the widening below removes; bounds that are not finite
    // give `None` either way.
    let tau = tau as f64;
    let (p0, p1, v) = (segment.p0, segment.p1, segment.velocity);
    let axes = [(p0.x, p1.x, v.x), (p0.y, p1.y, v.y), (p0.z, p1.z, v.z)];
    let mut lo = [0.0f64; 3];
    let mut hi = [0.0f64; 3];
    let mut extent = 0.0f64;
    let mut world = 0.0f64;
    for (k, &(a, b, v)) in axes.iter().enumerate() {
        let (a, b) = (a as f64, b as f64);
        let t = v as f64 * tau;
        let (c, d) = (a + t, b + t);
        let (l1, h1) = if a <= b { (a, b) } else { (b, a) };
        let (l2, h2) = if c <= d { (c, d) } else { (d, c) };
        let (l, h) = (if l2 < l1 { l2 } else { l1 }, if h2 > h1 { h2 } else { h1 });
        lo[k] = l;
        hi[k] = h;
        extent = extent.max(h - l);
        world = world.max(l.abs()).max(h.abs());
    }
    let r = segment.radius as f64 + grow;
    let m = r + PAIR_CULL_MARGIN * (extent + r) + PAIR_CULL_WORLD_MARGIN * world;
    for k in 0..3 {
        lo[k] -= m;
        hi[k] += m;
    }
    let finite = lo.iter().chain(hi.iter()).all(|x| x.is_finite());
    finite.then_some(SweptBounds { lo, hi })
}

/// The extent of `bounds` along `axis` (infinite without bounds).
fn axis_extent(bounds: &Option<SweptBounds>, axis: usize) -> (f64, f64) {
    bounds.map_or((f64::NEG_INFINITY, f64::INFINITY), |b| {
        (b.lo[axis], b.hi[axis])
    })
}

/// Whether two members' bounds meet (always, for a member without bounds).
fn bounds_meet(a: &Option<SweptBounds>, b: &Option<SweptBounds>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => (0..3).all(|k| a.lo[k] <= b.hi[k] && b.lo[k] <= a.hi[k]),
        _ => true,
    }
}

/// The pairs `(i, j)`, `i < j`, lexicographic, whose bounds meet, except
/// pairs of two `skip` members; a member without bounds (`None`) meets
/// every other. Sort along the axis where the bounds spread most and sweep:
/// `O(B log B)` plus the pairs found.
pub fn meeting_pairs(bounds: &[Option<SweptBounds>], skip: &[bool]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    meeting_pairs_into(bounds, skip, &mut Vec::new(), &mut out);
    out
}

/// The most members for which [`meeting_pairs_into`] tests every pair
/// instead of sorting: below this the sort and its final ordering cost more
/// than the `n (n - 1) / 2` bounds tests. Either way the pairs are the same.
const SMALL_MEETING_PAIRS: usize = 12;

/// [`meeting_pairs`] into `out` (cleared first), with `sorted` as scratch.
fn meeting_pairs_into(
    bounds: &[Option<SweptBounds>],
    skip: &[bool],
    sorted: &mut Vec<(SweptBounds, usize)>,
    out: &mut Vec<(usize, usize)>,
) {
    let n = bounds.len();
    out.clear();
    sorted.clear();
    if n <= SMALL_MEETING_PAIRS {
        // Few members: every pair in lexicographic order, no sort.
        for i in 0..n {
            for j in i + 1..n {
                if !(skip[i] && skip[j]) && bounds_meet(&bounds[i], &bounds[j]) {
                    out.push((i, j));
                }
            }
        }
        return;
    }
    let mut wild = false;
    let (mut lo, mut hi) = ([f64::INFINITY; 3], [f64::NEG_INFINITY; 3]);
    for (i, b) in bounds.iter().enumerate() {
        match b {
            Some(b) => {
                for k in 0..3 {
                    lo[k] = lo[k].min(b.lo[k]);
                    hi[k] = hi[k].max(b.hi[k]);
                }
                sorted.push((*b, i));
            }
            None => wild = true,
        }
    }
    let axis = (0..3)
        .max_by(|&a, &b| (hi[a] - lo[a]).total_cmp(&(hi[b] - lo[b])))
        .unwrap_or(0);
    sorted.sort_unstable_by(|a, b| a.0.lo[axis].total_cmp(&b.0.lo[axis]).then(a.1.cmp(&b.1)));
    for (x, (a, i)) in sorted.iter().enumerate() {
        for (b, j) in &sorted[x + 1..] {
            if !(b.lo[axis] <= a.hi[axis]) {
                break;
            }
            if skip[*i] && skip[*j] {
                continue;
            }
            if bounds_meet(&Some(*a), &Some(*b)) {
                out.push(((*i).min(*j), (*i).max(*j)));
            }
        }
    }
    if wild {
        for w in (0..n).filter(|&w| bounds[w].is_none()) {
            for j in 0..n {
                let counted = bounds[j].is_none() && j < w;
                if j != w && !counted && !(skip[w] && skip[j]) {
                    out.push((w.min(j), w.max(j)));
                }
            }
        }
    }
    out.sort_unstable();
}

/// The earliest event of the pass (ordering in the module docs), every
/// triangle candidate and every pair swept in order: the reference pass,
/// and the pass when a member fails the pair sweep's precision domain (the
/// first refusal in this order is the error).
fn earliest_exhaustive(
    states: &[State],
    statics: Statics<'_>,
    tau: f32,
) -> Result<Option<Event>, CcdError> {
    let mut best: Option<Event> = None;
    for (i, a) in states.iter().enumerate() {
        let segment = a.segment(0.0);
        if !a.kinematic {
            for &(t, _) in &a.candidates {
                let o = statics.sweep(a, a.sweep_v, tau, t, a.radius);
                if let Some(found) = triangle_event(i, a, t, o)? {
                    offer(found, &mut best);
                }
            }
        }
        let others = (i + 1..states.len()).filter(|&j| !(a.kinematic && states[j].kinematic));
        for j in others {
            let b = &states[j];
            let outcome = sweep_segment_pair(&segment, &b.segment(0.0), tau);
            if let Some(found) = pair_event((i, a), (j, b), outcome)? {
                offer(found, &mut best);
            }
        }
    }
    Ok(best)
}

/// Keeps the better of two events (ordering in the module docs: the
/// earlier, then an initial contact, then the one offered first).
fn offer(e: Event, best: &mut Option<Event>) {
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

/// A member's sweep input as bits: its segment and the remaining time. Two
/// passes with the same bits give the same outcomes (the sweeps are pure
/// functions of them).
///
/// # Spheres at rest
/// A sphere whose velocity is zero (either sign) takes [`AT_REST_KEY_TIME`]
/// for the remaining time: its displacement `v tau` is a zero of the same
/// signs for every positive `tau`, so its pair member check and bounds,
/// its sphere-triangle sweeps (no hit without motion; an initial contact
/// carries no time) and its pair sweeps with other members at rest
/// (relative motion zero; the contact point adds `0 · v_B tau`, a zero
/// whose sign does not depend on `tau`) are the same for every remaining
/// time. Its pairs with moving members are swept again when those move,
/// with its check moved to the pass's step length
/// ([`CheckedSegment::at_rest_for`]).
type MemberKey = ([u32; 10], u32);

/// The remaining time in the key of a sphere at rest (never a pass's
/// remaining time, which is positive).
const AT_REST_KEY_TIME: f32 = 0.0;

fn member_key(m: &MovingSegment, tau: f32) -> MemberKey {
    let v = [
        m.p0.x,
        m.p0.y,
        m.p0.z,
        m.p1.x,
        m.p1.y,
        m.p1.z,
        m.radius,
        m.velocity.x,
        m.velocity.y,
        m.velocity.z,
    ];
    (v.map(f32::to_bits), tau.to_bits())
}

/// What the previous passes computed, reused for members whose sweep input
/// has not changed (a pass at the same instant after one impact changes
/// only the members it moved).
#[derive(Default)]
struct PassMemo {
    /// Per member: the key of the stored entries (`None`: nothing stored).
    keys: Vec<Option<MemberKey>>,
    /// Per member: its checked pair member.
    checked: Vec<Option<CheckedSegment>>,
    /// Per member: its widened swept bounds.
    bounds: Vec<Option<SweptBounds>>,
    /// The quick axis (set at each full pass) and per member the extent
    /// of its bounds along it (infinite without bounds): a quick first test
    /// of `bounds_meet`.
    axis: usize,
    extent: Vec<(f64, f64)>,
    /// Per member: its extent before this pass changed it (changed members
    /// only): a stored pair of it met on the axis then.
    old_extent: Vec<(f64, f64)>,
    /// How many members have no checked pair member (`checked` is `None`).
    unchecked: usize,
    /// Per member: its triangle outcomes other than misses, in candidate
    /// order, ending at the first refusal.
    triangle: Vec<Vec<(usize, SweepOutcome<()>)>>,
    /// Per member `i`: the meeting pairs `(i, j)`, `j > i` ascending, with
    /// their outcomes (valid when `complete`).
    pairs: Vec<Vec<(usize, SweepOutcome<()>)>>,
    /// Per member `i`: its best event (its triangles, then its pairs with
    /// higher members, in offer order), `None` when it must be found again.
    best: Vec<Option<Option<Event>>>,
    /// The members whose best event was forgotten since the last pass.
    stale: Vec<usize>,
    /// The tournament of the members' best events.
    tournament: Tournament,
    /// Whether `pairs` holds every meeting pair of the current inputs.
    complete: bool,
    /// Per member: whether it is a kinematic sphere.
    kinematic: Vec<bool>,
    /// Per member: whether every one of its triangle candidates passed the
    /// triangle's own checks in a sweep without refusal (so that
    /// [`TriangleCull`] may skip them).
    validated: Vec<bool>,
    /// The triangles (ascending) that passed their own checks in a sphere
    /// member's sweep without refusal: the checks that do not depend on
    /// the sphere (finite coordinates within the limit, not degenerate, not
    /// thin) hold for every member, so any sphere member may cull them
    /// ([`TriangleCull::misses`] checks the one that does).
    checked_triangles: Vec<usize>,
    /// Per member: whether its input changed in this pass.
    dirty: Vec<bool>,
    /// The members whose input changed in this pass, ascending.
    dirty_list: Vec<usize>,
    /// Scratch: the meeting pairs, the sweep's sorted bounds, an old list.
    next_pairs: Vec<(usize, usize)>,
    sorted: Vec<(SweptBounds, usize)>,
    old: Vec<(usize, SweepOutcome<()>)>,
}

impl PassMemo {
    /// Forgets everything stored and sizes the memo for `states`, keeping
    /// the buffers.
    fn reset(&mut self, states: &[State]) {
        let n = states.len();
        self.keys.clear();
        self.keys.resize(n, None);
        self.checked.clear();
        self.checked.resize(n, None);
        self.bounds.clear();
        self.bounds.resize(n, None);
        self.axis = 0;
        self.extent.clear();
        self.extent.resize(n, (f64::NEG_INFINITY, f64::INFINITY));
        self.old_extent.clear();
        self.old_extent
            .resize(n, (f64::NEG_INFINITY, f64::INFINITY));
        self.unchecked = n;
        for list in [&mut self.triangle, &mut self.pairs] {
            if list.len() < n {
                list.resize_with(n, Vec::new);
            }
            for l in list.iter_mut().take(n) {
                l.clear();
            }
        }
        self.best.clear();
        self.best.resize(n, None);
        self.stale.clear();
        self.stale.extend(0..n);
        // Built anew at the first pass.
        self.tournament.members = usize::MAX;
        self.complete = false;
        self.kinematic.clear();
        self.kinematic.extend(states.iter().map(|s| s.kinematic));
        self.validated.clear();
        self.validated.resize(n, false);
        self.checked_triangles.clear();
        self.dirty.clear();
        self.dirty.resize(n, false);
        self.dirty_list.clear();
    }
}

/// The event of member `i` alone: its triangle events, then its pairs with
/// higher members, offered in that order (the order of the flat pass).
///
/// # Errors
/// The first refusal in that order.
fn member_best(
    states: &[State],
    i: usize,
    triangle: &[(usize, SweepOutcome<()>)],
    pairs: &[(usize, SweepOutcome<()>)],
) -> Result<Option<Event>, CcdError> {
    let a = &states[i];
    let mut best: Option<Event> = None;
    for (t, o) in triangle {
        if let Some(found) = triangle_event(i, a, *t, o.clone())? {
            offer(found, &mut best);
        }
    }
    for (j, o) in pairs {
        if let Some(found) = pair_event((i, a), (*j, &states[*j]), o.clone())? {
            offer(found, &mut best);
        }
    }
    Ok(best)
}

/// The earliest event of the pass (ordering in the module docs). Each
/// member is checked once for the pass ([`CheckedSegment`]), pairs whose
/// swept bounds miss are culled ([`swept_bounds`], [`meeting_pairs`]), and
/// outcomes of members whose input did not change since the previous pass
/// are reused ([`PassMemo`]): the events are those of
/// [`earliest_exhaustive`], offered in the same order. When a member fails
/// its check the pass is [`earliest_exhaustive`], which refuses exactly as
/// without the cull.
///
/// Only the members listed in `moved` (any order, repeats allowed) may
/// have a sweep input other than at the previous call; the others are
/// not looked at. Each member's best event is kept between passes
/// ([`member_best`]) until its input or a pair of it changes, and the pass
/// offers the members' best events in member order: the earliest of a
/// member's events is offered first among its equals in the flat order,
/// so the pass keeps the same event as offering every event (`offer`
/// keeps the first of equal events).
fn earliest(
    states: &[State],
    statics: Statics<'_>,
    tau: f32,
    memo: &mut PassMemo,
    moved: &mut Vec<usize>,
) -> Result<Option<Event>, CcdError> {
    moved.sort_unstable();
    moved.dedup();
    memo.dirty_list.clear();
    for &i in moved.iter() {
        let st = &states[i];
        let seg = st.segment(0.0);
        // A sphere at rest sweeps the same whatever the remaining time (its
        // travel is zero: its check, bounds, triangle outcomes and pair
        // outcomes with other members at rest do not depend on it, see
        // `member_key`); only its checked step length follows the pass.
        let at_rest = !st.capsule && seg.velocity == Vec3::zeros();
        let key = member_key(&seg, if at_rest { AT_REST_KEY_TIME } else { tau });
        if memo.keys[i] == Some(key) {
            if at_rest {
                if let Some(c) = memo.checked[i] {
                    if c.dt().to_bits() != tau.to_bits() {
                        // Some: `c` is at rest and `tau` is positive and finite.
                        memo.checked[i] = c.at_rest_for(tau);
                    }
                }
            }
            continue;
        }
        memo.dirty[i] = true;
        memo.dirty_list.push(i);
        memo.best[i] = None;
        memo.stale.push(i);
        memo.keys[i] = Some(key);
        let was_checked = memo.checked[i].is_some();
        memo.checked[i] = CheckedSegment::new(&seg, tau).ok();
        match (was_checked, memo.checked[i].is_some()) {
            (true, false) => memo.unchecked += 1,
            (false, true) => memo.unchecked -= 1,
            _ => {}
        }
        memo.bounds[i] = swept_bounds(&seg, tau, 0.0);
        memo.old_extent[i] = memo.extent[i];
        memo.extent[i] = axis_extent(&memo.bounds[i], memo.axis);
        memo.triangle[i].clear();
        if !st.kinematic {
            // A candidate that passed its own checks in a sphere's sweep
            // (this member's or another's: `checked_triangles`) and that
            // this sphere's path bounds miss is a miss (`TriangleCull`).
            // (A sphere's pair member is the sphere the triangle sweep
            // takes: its check and bounds are the cull's.)
            let cull = match (st.capsule, &memo.checked[i], memo.bounds[i]) {
                (false, Some(_), Some(bounds)) => Some(TriangleCull {
                    center: promote(st.p),
                    radius: st.radius as f64,
                    bounds,
                }),
                _ => None,
            };
            let mut refused = false;
            for &(t, _) in &st.candidates {
                let checked_triangle = memo.checked_triangles.binary_search(&t);
                if cull.is_some_and(|c| checked_triangle.is_ok() && c.misses(&statics.triangles[t]))
                {
                    continue;
                }
                let o = statics.sweep(st, st.sweep_v, tau, t, st.radius);
                refused = matches!(o, SweepOutcome::Refused(_));
                if let (false, false, Err(at)) = (refused, st.capsule, checked_triangle) {
                    // The sphere sweep ran the triangle's checks and they
                    // passed (a refusal is passed through by the seam
                    // admission).
                    memo.checked_triangles.insert(at, t);
                }
                if !matches!(o, SweepOutcome::Miss) {
                    memo.triangle[i].push((t, o));
                }
                if refused {
                    break;
                }
            }
            if !refused {
                memo.validated[i] = true;
            }
        }
    }
    let changed = memo.dirty_list.len();
    let result = earliest_memo(states, statics, tau, memo, changed);
    for &i in &memo.dirty_list {
        memo.dirty[i] = false;
    }
    result
}

/// The pass of [`earliest`] once the changed members' entries are fresh.
fn earliest_memo(
    states: &[State],
    statics: Statics<'_>,
    tau: f32,
    memo: &mut PassMemo,
    changed: usize,
) -> Result<Option<Event>, CcdError> {
    let n = states.len();
    if memo.unchecked > 0 {
        memo.complete = false;
        return earliest_exhaustive(states, statics, tau);
    }
    if !memo.complete || changed > 0 {
        let PassMemo {
            bounds,
            axis,
            extent,
            old_extent,
            pairs,
            best,
            complete,
            kinematic,
            dirty,
            dirty_list,
            next_pairs,
            sorted,
            checked,
            old,
            stale,
            ..
        } = memo;
        let sweep = |i: usize, j: usize| match (&checked[i], &checked[j]) {
            (Some(a), Some(b)) => map_pair(sweep_checked_pair(a, b)),
            _ => SweepOutcome::Miss,
        };
        let meets = |i: usize, j: usize| {
            !(kinematic[i] && kinematic[j]) && bounds_meet(&bounds[i], &bounds[j])
        };
        if *complete && changed * 2 <= n {
            // At most half the members changed: each changed member's pairs
            // (its bounds against every other's) are swept anew, in the
            // list of the lower member; the lists of unchanged pairs stay.
            // (More changed members are cheaper to pair afresh below; both
            // ways give the same lists.)
            for &j in dirty_list.iter() {
                // A lower unchanged member needs work only when its extent
                // on the quick axis meets `j`'s new one (a pair to sweep)
                // or its old one (a stored pair: it met then, as the full
                // bounds of a stored pair did when it was swept).
                let (new, old) = (extent[j], old_extent[j]);
                // First against the hull of both extents (never NaN: bounds
                // are finite, a member without them spans every value):
                // apart from it is apart from both.
                let (u0, u1) = (new.0.min(old.0), new.1.max(old.1));
                for (i, &(lo, hi)) in extent[..j].iter().enumerate() {
                    if hi < u0 || u1 < lo {
                        continue;
                    }
                    let apart = hi < new.0 || new.1 < lo;
                    if (apart && (hi < old.0 || old.1 < lo)) || dirty[i] {
                        continue;
                    }
                    let list = &mut pairs[i];
                    let slot = list.binary_search_by_key(&j, |e| e.0);
                    match (slot, !apart && meets(i, j)) {
                        (Ok(k), true) => list[k].1 = sweep(i, j),
                        (Ok(k), false) => {
                            list.remove(k);
                        }
                        (Err(k), true) => list.insert(k, (j, sweep(i, j))),
                        (Err(_), false) => continue,
                    }
                    best[i] = None;
                    stale.push(i);
                }
                let list = &mut pairs[j];
                list.clear();
                for (k, &(lo, hi)) in extent.iter().enumerate().skip(j + 1) {
                    let apart = hi < new.0 || new.1 < lo;
                    if !apart && meets(j, k) {
                        list.push((k, sweep(j, k)));
                    }
                }
            }
        } else {
            // The quick axis: where the members' bounds spread most.
            let (mut lo, mut hi) = ([f64::INFINITY; 3], [f64::NEG_INFINITY; 3]);
            for b in bounds.iter().flatten() {
                for k in 0..3 {
                    lo[k] = lo[k].min(b.lo[k]);
                    hi[k] = hi[k].max(b.hi[k]);
                }
            }
            *axis = (0..3)
                .max_by(|&a, &b| (hi[a] - lo[a]).total_cmp(&(hi[b] - lo[b])))
                .unwrap_or(0);
            for (e, b) in extent.iter_mut().zip(bounds.iter()) {
                *e = axis_extent(b, *axis);
            }
            meeting_pairs_into(bounds, kinematic, sorted, next_pairs);
            let mut at = 0usize;
            for i in 0..n {
                std::mem::swap(old, &mut pairs[i]);
                let list = &mut pairs[i];
                list.clear();
                // Whether every pair of `i` is a kept one (then, with as
                // many pairs as before, the list is the old one and the
                // member's best event stands).
                let mut all_kept = *complete && !dirty[i];
                while at < next_pairs.len() && next_pairs[at].0 == i {
                    let j = next_pairs[at].1;
                    at += 1;
                    let kept = if *complete && !dirty[i] && !dirty[j] {
                        old.binary_search_by_key(&j, |e| e.0).ok()
                    } else {
                        None
                    };
                    let o = match kept {
                        Some(k) => old[k].1.clone(),
                        None => {
                            all_kept = false;
                            sweep(i, j)
                        }
                    };
                    list.push((j, o));
                }
                if !(all_kept && list.len() == old.len()) {
                    best[i] = None;
                    stale.push(i);
                }
            }
        }
        *complete = true;
    }
    for &i in &memo.stale {
        if memo.best[i].is_none() {
            memo.best[i] = Some(member_best(states, i, &memo.triangle[i], &memo.pairs[i])?);
        }
    }
    if n < TOURNAMENT_MIN_MEMBERS {
        // Few members: a scan (`offer` on references) costs less than the
        // tournament's upkeep, and chooses the same event.
        memo.stale.clear();
        let mut found: Option<&Event> = None;
        for e in memo.best.iter().take(n).flatten().flatten() {
            if found.is_none_or(|b| beats(e, b)) {
                found = Some(e);
            }
        }
        return Ok(found.copied());
    }
    memo.tournament.update(&memo.best, &memo.stale);
    memo.stale.clear();
    Ok(memo.tournament.winner(&memo.best).copied())
}

/// The smallest group whose passes find the earliest event by the
/// [`Tournament`] (members); smaller groups scan their members' events.
const TOURNAMENT_MIN_MEMBERS: usize = 16;

/// Whether event `e` is offered before `b` wins (`offer`'s rule: earlier,
/// or as early and an initial contact against a hit).
#[inline]
fn beats(e: &Event, b: &Event) -> bool {
    e.impact.time < b.impact.time || (e.impact.time == b.impact.time && e.initial && !b.initial)
}

/// A tournament over the members' best events: each node holds the winner
/// of its two halves, the lower half keeping ties. Offering the members'
/// events in member order keeps the first of the earliest (`offer`); so
/// does the tournament, whose lower half comes first and wins ties (event
/// times are never NaN: every sweep time passed `t <= 1` or is `0`), and
/// after a pass it replays only the paths of the members whose best event
/// changed: `O(k log n)` instead of a scan of all `n` members.
#[derive(Default)]
struct Tournament {
    /// Leaves from `width` on (member `i` at `width + i`), node `k`'s
    /// children at `2k` and `2k + 1`; `NO_MEMBER` for none.
    nodes: Vec<usize>,
    width: usize,
    /// Members in the tree (the group's size when built).
    members: usize,
}

/// No member (an empty leaf, or no event below a node).
const NO_MEMBER: usize = usize::MAX;

impl Tournament {
    /// The event of member `k` (`None` for no member or no event).
    fn event(best: &[Option<Option<Event>>], k: usize) -> Option<&Event> {
        best.get(k)
            .and_then(|e| e.as_ref())
            .and_then(|e| e.as_ref())
    }

    /// The winner of `a` (lower members) and `b` (higher members).
    fn play(best: &[Option<Option<Event>>], a: usize, b: usize) -> usize {
        match (Self::event(best, a), Self::event(best, b)) {
            (_, None) => a,
            (None, Some(_)) => b,
            (Some(x), Some(y)) => {
                if beats(y, x) {
                    b
                } else {
                    a
                }
            }
        }
    }

    /// Replays the members in `changed` (any order, repeats allowed), or
    /// builds the whole tree when it was built for another group size or
    /// many members changed.
    fn update(&mut self, best: &[Option<Option<Event>>], changed: &[usize]) {
        let n = best.len();
        if self.members != n || self.nodes.is_empty() || changed.len() * 4 > n {
            self.members = n;
            self.width = n.next_power_of_two().max(1);
            self.nodes.clear();
            self.nodes.resize(2 * self.width, NO_MEMBER);
            for i in 0..n {
                self.nodes[self.width + i] = i;
            }
            for k in (1..self.width).rev() {
                self.nodes[k] = Self::play(best, self.nodes[2 * k], self.nodes[2 * k + 1]);
            }
            return;
        }
        for &i in changed {
            let mut k = (self.width + i) / 2;
            while k >= 1 {
                self.nodes[k] = Self::play(best, self.nodes[2 * k], self.nodes[2 * k + 1]);
                k /= 2;
            }
        }
    }

    /// The winning event.
    fn winner<'b>(&self, best: &'b [Option<Option<Event>>]) -> Option<&'b Event> {
        // The root (node 1; the only leaf when the tree has one).
        Self::event(best, self.nodes.get(1).copied().unwrap_or(NO_MEMBER))
    }
}

/// A pair outcome with its feature dropped.
fn map_pair(o: SweepOutcome<parapet_narrow::sweep::PairFeature>) -> SweepOutcome<()> {
    match o {
        SweepOutcome::Hit(i) => SweepOutcome::Hit(map_impact(i)),
        SweepOutcome::InitiallyTouching(i) => SweepOutcome::InitiallyTouching(map_impact(i)),
        SweepOutcome::Miss => SweepOutcome::Miss,
        SweepOutcome::Refused(r) => SweepOutcome::Refused(r),
    }
}

fn map_impact<F>(i: Impact<F>) -> Impact<()> {
    Impact {
        time: i.time,
        point: i.point,
        normal: i.normal,
        feature: (),
    }
}

/// The mixed material of the event.
fn event_material(states: &[State], ev: &Event) -> Material {
    let a = &states[ev.member];
    match ev.other {
        None => a
            .candidates
            .iter()
            .find(|(t, _)| *t == ev.triangle)
            .map(|(_, m)| *m)
            .unwrap_or_default(),
        Some(j) => a.material.mix(&states[j].material),
    }
}

/// Whether the event's impact would bounce (restitution above zero and a
/// closing speed above the mixed bounce threshold).
fn is_bouncing(states: &[State], ev: &Event) -> bool {
    let m = event_material(states, ev);
    if !(m.restitution > 0.0) {
        return false;
    }
    let a = &states[ev.member];
    let vb = ev.other.map_or(Vec3::zeros(), |j| states[j].v);
    let closing = -ev.impact.normal.dot(&(promote(a.v) - promote(vb)));
    closing > m.bounce_threshold as f64
}

/// Applies one impact in sequence; returns its report (`None`: it did not close).
fn sequential(
    states: &mut [State],
    statics: Statics<'_>,
    tau: f32,
    ev: &Event,
    time: f64,
    moved: &mut Vec<usize>,
) -> Result<Option<GroupImpact>, CcdError> {
    let material = event_material(states, ev);
    match ev.other {
        None => {
            let a = &states[ev.member];
            let mut contact = ev.impact;
            if !ev.initial {
                let probe = statics.sweep(a, a.sweep_v, tau, ev.triangle, a.radius);
                if let SweepOutcome::InitiallyTouching(i) = probe {
                    contact = i;
                }
            }
            let mut r = respond(
                a.index,
                &a.response,
                a.v,
                a.w,
                a.arm(&contact.point, &contact.normal),
                contact.normal,
                &material,
            )?;
            if r.is_none() && contact != ev.impact {
                contact = ev.impact;
                r = respond(
                    a.index,
                    &a.response,
                    a.v,
                    a.w,
                    a.arm(&contact.point, &contact.normal),
                    contact.normal,
                    &material,
                )?;
            }
            let Some(r) = r else { return Ok(None) };
            let a = &mut states[ev.member];
            a.v = r.linear_velocity;
            a.w = r.angular_velocity;
            a.sweep_v = a.v;
            moved.push(ev.member);
            Ok(Some(GroupImpact {
                body: a.index,
                other: Struck::Triangle(ev.triangle),
                time,
                point: contact.point,
                normal: contact.normal,
                impulse: r.impulse,
            }))
        }
        Some(j) => {
            let n = ev.impact.normal;
            let point = ev.impact.point;
            let sa = states[ev.member].side(&point, &n);
            let sb = states[j].side(&point, &-n);
            let Some(r) = respond_pair(states[ev.member].index, &sa, &sb, n, &material)? else {
                return Ok(None);
            };
            for (pos, (v, w)) in [(ev.member, r.a), (j, r.b)] {
                let st = &mut states[pos];
                if !st.kinematic {
                    st.v = v;
                    st.w = w;
                    st.sweep_v = v;
                    moved.push(pos);
                }
            }
            let (a, b) = (&states[ev.member], &states[j]);
            let report = if a.kinematic {
                GroupImpact {
                    body: b.index,
                    other: Struck::Member(a.index),
                    time,
                    point,
                    normal: -n,
                    impulse: -r.impulse,
                }
            } else {
                GroupImpact {
                    body: a.index,
                    other: Struck::Member(b.index),
                    time,
                    point,
                    normal: n,
                    impulse: r.impulse,
                }
            };
            Ok(Some(report))
        }
    }
}

/// The touching tolerance (m) of two shapes around centres `a` and `b`
/// with summed radius `r` ([`TOUCH_F32_FACTOR`]).
fn touch_tolerance(a: Vec3, b: Vec3, r: f64) -> f64 {
    let scale = promote(a).amax().max(promote(b).amax()) + r;
    TOUCH_F32_FACTOR * f32::EPSILON as f64 * scale
}

/// Puts into `scratch.pairs` the member pairs (lexicographic, never two
/// kinematic spheres) whose touching test at a settled instant may find a
/// contact and returns `true`, or returns `false` when every pair must be
/// tested: when a member at rest fails the pair sweep's
/// precision domain (the pair test then refuses exactly as it would
/// without the cull) or has a radius above half [`MAX_RADIUS`] (the
/// touching tolerance could carry it past the limit). Each member's bounds
/// are its segment at rest grown by the largest touching tolerance of the
/// group ([`touch_tolerance`] at the group's largest coordinate and twice
/// its largest radius) and widened as in [`swept_bounds`].
fn touching_pairs(states: &[State], step: f32, scratch: &mut SettleScratch) -> bool {
    let SettleScratch {
        segments,
        checked,
        bounds,
        kinematic,
        pairs,
        sorted,
        keys,
        fresh,
        ..
    } = scratch;
    let mut scale = 0.0f64;
    let mut widest = 0.0f64;
    segments.clear();
    fresh.clear();
    let n = states.len();
    if checked.len() != n {
        keys.clear();
        keys.resize(n, None);
        checked.clear();
    }
    for (k, st) in states.iter().enumerate() {
        let mut seg = st.segment(0.0);
        seg.velocity = Vec3::zeros();
        let key = at_rest_key(&seg);
        // The member at rest as at the last settled instant: its check
        // moved to this step ([`CheckedSegment::at_rest_for`], equal to
        // checking it anew), and its touching outcomes stand.
        let kept = match (keys[k] == Some(key), checked.get(k)) {
            (true, Some(c)) => c.at_rest_for(step),
            _ => None,
        };
        fresh.push(kept.is_some());
        let c = match kept {
            Some(c) => c,
            None => match CheckedSegment::new(&seg, step) {
                Ok(c) => c,
                Err(_) => {
                    // Every member is tested anew (uncut) and forgotten.
                    keys.clear();
                    checked.clear();
                    return false;
                }
            },
        };
        if !(st.radius as f64 <= 0.5 * MAX_RADIUS) {
            keys.clear();
            checked.clear();
            return false;
        }
        keys[k] = Some(key);
        if k < checked.len() {
            checked[k] = c;
        } else {
            checked.push(c);
        }
        scale = scale.max(promote(st.p).amax());
        widest = widest.max(st.radius as f64);
        segments.push(seg);
    }
    let origin = Vec3::zeros();
    let tol = touch_tolerance(origin, origin, scale + 2.0 * widest);
    bounds.clear();
    bounds.extend(segments.iter().map(|m| swept_bounds(m, step, tol)));
    kinematic.clear();
    kinematic.extend(states.iter().map(|s| s.kinematic));
    meeting_pairs_into(bounds, kinematic, sorted, pairs);
    true
}

/// Buffers of the settled instants of a group's sweep (see [`Scratch`]).
#[derive(Default)]
struct SettleScratch {
    /// The contacts found touching: contact, point, triangle.
    contacts: Vec<(SettleContact, Vec3d, Option<usize>)>,
    /// [`touching_pairs`]'s members at rest, checked, their bounds, the
    /// kinematic flags, the pairs and the sort's scratch.
    segments: Vec<MovingSegment>,
    checked: Vec<CheckedSegment>,
    bounds: Vec<Option<SweptBounds>>,
    kinematic: Vec<bool>,
    pairs: Vec<(usize, usize)>,
    sorted: Vec<(SweptBounds, usize)>,
    /// The touching memo of the group's settled instants (see
    /// [`at_rest_key`]): per member the key of its segment at rest at the
    /// last settled instant (`None`: nothing stored), whether it is
    /// unchanged at this one (`fresh`), its triangle contacts, and its pairs
    /// with higher members tested then with their contacts (`j`
    /// ascending); `old` is scratch.
    keys: Vec<Option<AtRestKey>>,
    fresh: Vec<bool>,
    triangle_contacts: Vec<Vec<(SettleContact, Vec3d, Option<usize>)>>,
    pair_contacts: Vec<Vec<PairTouch>>,
    old: Vec<PairTouch>,
    /// How many members kept their touching outcomes (tests only).
    #[cfg(test)]
    kept_members: usize,
    /// The settling's bodies, contacts, components, impulses, one
    /// component's contacts, velocities (after, before, with one
    /// component's impulses), rest frames and moved members.
    bodies: Vec<SettleBody>,
    list: Vec<SettleContact>,
    components: Components,
    lambda: Vec<f64>,
    part: Vec<SettleContact>,
    velocities: Vec<Vec3d>,
    before: Vec<Vec3d>,
    after: Vec<Vec3d>,
    frames: Vec<Vec3d>,
    moved: Vec<bool>,
}

impl SettleScratch {
    /// Forgets the touching memo (a new group of `members` members).
    fn forget(&mut self, members: usize) {
        self.keys.clear();
        self.keys.resize(members, None);
        self.checked.clear();
        self.fresh.clear();
        for list in [&mut self.triangle_contacts] {
            if list.len() < members {
                list.resize_with(members, Vec::new);
            }
        }
        if self.pair_contacts.len() < members {
            self.pair_contacts.resize_with(members, Vec::new);
        }
    }
}

/// A pair's touching outcome at a settled instant: the higher member and
/// the contact with its point, if the pair touched.
type PairTouch = (usize, Option<(SettleContact, Vec3d)>);

/// A member's segment at rest as bits (ends and radius; its velocity is
/// zero). At a settled instant every touching test of a sphere or kinematic
/// sphere at rest (its triangles, at the tolerance-grown radius, and its
/// pairs) is a function of these bits and of the other member's, and not
/// of the step: without motion there is no hit, an initial contact
/// carries no time, the contact point adds `0 · 0` to the world
/// coordinates and every check but the step length's (which
/// [`CheckedSegment::at_rest_for`] makes) reads no travel. So a member
/// whose key did not change since the last settled instant keeps its
/// outcomes there, and so does a pair of two such members.
type AtRestKey = [u32; 7];

fn at_rest_key(m: &MovingSegment) -> AtRestKey {
    [m.p0.x, m.p0.y, m.p0.z, m.p1.x, m.p1.y, m.p1.z, m.radius].map(f32::to_bits)
}

/// The connected components of the contacts (positions in `list`) into
/// `out`: two contacts are in one component when they share a dynamic
/// member (triangles and kinematic spheres, of infinite mass, pass no
/// impulse on). Components come in the order of their first contact,
/// contacts in list order.
fn contact_components(states: &[State], list: &[SettleContact], out: &mut Components) {
    let Components {
        parent,
        label_of,
        slot,
        items,
        ranges,
    } = out;
    parent.clear();
    parent.extend(0..states.len());
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    // The dynamic member of each contact that labels it (every contact has
    // one: triangle contacts belong to dynamic members, and two kinematic
    // spheres are never a contact).
    let dynamic = |k: usize| !states[k].kinematic;
    for c in list {
        if let Some(b) = c.b {
            if dynamic(c.a) && dynamic(b) {
                let (ra, rb) = (root(parent, c.a), root(parent, b));
                parent[ra.max(rb)] = ra.min(rb);
            }
        }
    }
    // Each contact's component, numbered in the order of first contacts;
    // then the contacts grouped by component in list order (`ranges[k]`
    // is component `k`'s span of `items`).
    label_of.clear();
    label_of.resize(states.len(), None);
    slot.clear();
    ranges.clear();
    for c in list {
        let member = match c.b {
            Some(b) if !dynamic(c.a) => b,
            _ => c.a,
        };
        let r = root(parent, member);
        let k = *label_of[r].get_or_insert_with(|| {
            ranges.push((0, 0));
            ranges.len() - 1
        });
        slot.push(k);
        ranges[k].1 += 1;
    }
    let mut start = 0;
    for r in ranges.iter_mut() {
        let count = r.1;
        *r = (start, start);
        start += count;
    }
    items.clear();
    items.resize(list.len(), 0);
    for (i, &k) in slot.iter().enumerate() {
        items[ranges[k].1] = i;
        ranges[k].1 += 1;
    }
}

/// The connected components of a settled instant's contacts
/// ([`contact_components`]), flat: component `k` is
/// `items[ranges[k].0..ranges[k].1]`; the rest is scratch.
#[derive(Default)]
struct Components {
    parent: Vec<usize>,
    label_of: Vec<Option<usize>>,
    slot: Vec<usize>,
    items: Vec<usize>,
    ranges: Vec<(usize, usize)>,
}

/// Settles every contact touching at this instant (see the module docs).
fn settle_instant(
    states: &mut [State],
    statics: Statics<'_>,
    tau: f32,
    time: f64,
    limit: u32,
    cull: bool,
    validated: &[bool],
    moved: &mut Vec<usize>,
    scratch: &mut SettleScratch,
) -> Result<Vec<GroupImpact>, CcdError> {
    let step = tau.max(f32::MIN_POSITIVE);
    let culled = cull && touching_pairs(states, step, scratch);
    if !culled {
        scratch.keys.clear();
        scratch.checked.clear();
    }
    #[cfg(test)]
    if culled {
        scratch.kept_members += scratch.fresh.iter().filter(|&&f| f).count();
    }
    let SettleScratch {
        contacts,
        pairs,
        checked,
        fresh,
        triangle_contacts,
        pair_contacts,
        old,
        bodies,
        list,
        components,
        lambda,
        part,
        velocities: v,
        before,
        after,
        frames,
        moved: moved_by,
        ..
    } = &mut *scratch;
    let pairs = culled.then_some(&*pairs);
    let checked = culled.then_some(&checked[..]);
    // Whether member `k`'s touching outcomes at the last settled instant
    // stand (a sphere or kinematic sphere unchanged at rest, see
    // `at_rest_key`).
    let kept = |k: usize| culled && fresh[k] && !states[k].capsule;
    // The contacts, in member order: triangles, then higher members.
    contacts.clear();
    let mut next_pair = 0usize;
    for (i, a) in states.iter().enumerate() {
        if !a.kinematic && kept(i) {
            contacts.extend_from_slice(&triangle_contacts[i]);
        } else if !a.kinematic {
            let from = contacts.len();
            let tol = touch_tolerance(a.p, a.p, a.radius as f64);
            let r = ((a.radius as f64) + tol) as f32;
            let cull = match (a.capsule, validated.get(i), a.candidates.is_empty()) {
                (false, Some(true), false) => {
                    TriangleCull::new(a.p, r.max(a.radius), Vec3::zeros(), step)
                }
                _ => None,
            };
            for &(t, _) in &a.candidates {
                if cull.is_some_and(|c| c.misses(&statics.triangles[t])) {
                    continue;
                }
                if let SweepOutcome::InitiallyTouching(c) =
                    statics.sweep(a, Vec3::zeros(), step, t, r.max(a.radius))
                {
                    contacts.push((
                        SettleContact {
                            a: i,
                            b: None,
                            normal: c.normal,
                        },
                        c.point,
                        Some(t),
                    ));
                }
            }
            if culled {
                triangle_contacts[i].clear();
                triangle_contacts[i].extend_from_slice(&contacts[from..]);
            }
        }
        match &pairs {
            Some(pairs) => {
                std::mem::swap(old, &mut pair_contacts[i]);
                pair_contacts[i].clear();
                while next_pair < pairs.len() && pairs[next_pair].0 == i {
                    let j = pairs[next_pair].1;
                    next_pair += 1;
                    let stored = if kept(i) && kept(j) {
                        old.binary_search_by_key(&j, |e| e.0).ok().map(|k| old[k].1)
                    } else {
                        None
                    };
                    let found = match stored {
                        Some(found) => {
                            if let Some((c, point)) = found {
                                contacts.push((c, point, None));
                            }
                            found
                        }
                        None => {
                            let from = contacts.len();
                            touching_pair(states, checked, i, j, step, contacts)?;
                            contacts.get(from).map(|c| (c.0, c.1))
                        }
                    };
                    pair_contacts[i].push((j, found));
                }
            }
            None => {
                for j in (i + 1..states.len()).filter(|&j| !(a.kinematic && states[j].kinematic)) {
                    touching_pair(states, None, i, j, step, contacts)?;
                }
            }
        }
    }
    let contacts = &*contacts;
    bodies.clear();
    bodies.extend(states.iter().map(|s| SettleBody {
        inverse_mass: s.response.inverse_mass,
        velocity: promote(s.v),
    }));
    list.clear();
    list.extend(contacts.iter().map(|c| c.0));
    contact_components(states, list, components);
    let list = &*list;
    let unresolvable = |component: &[usize], reason: &'static str| CcdError::Unresolvable {
        body: component
            .first()
            .map_or(states.first().map_or(0, |s| s.index), |&c| {
                states[list[c].a].index
            }),
        contacts: component.len(),
        reason,
        limit: MAX_SETTLED_CONTACTS,
    };
    // Each component is its own problem (no impulse of one moves a body of
    // another); the limit of ten contacts holds per component.
    lambda.clear();
    lambda.resize(list.len(), 0.0);
    for &(from, to) in &components.ranges {
        let component = &components.items[from..to];
        part.clear();
        part.extend(component.iter().map(|&c| list[c]));
        let solved = settle(bodies, part).map_err(|f| match f {
            SettleFailure::TooMany => unresolvable(
                component,
                "more simultaneous contacts than the settling solves",
            ),
            SettleFailure::NoOpening => unresolvable(
                component,
                "no set of non-negative impulses opens every contact",
            ),
        })?;
        for (&c, l) in component.iter().zip(solved) {
            lambda[c] = l;
        }
    }
    v.clear();
    v.extend(bodies.iter().map(|b| b.velocity));
    for (c, l) in list.iter().zip(lambda.iter()) {
        v[c.a] += c.normal * (l * bodies[c.a].inverse_mass);
        if let Some(b) = c.b {
            v[b] -= c.normal * (l * bodies[b].inverse_mass);
        }
    }
    // Energy check per component, in the frame where the component's
    // non-dynamic bodies rest: the static world's, or a kinematic sphere's
    // (static triangles and kinematic spheres of different velocities share
    // no rest frame; such a component is solved but not checked).
    before.clear();
    before.extend(bodies.iter().map(|b| b.velocity));
    for &(from, to) in &components.ranges {
        let component = &components.items[from..to];
        frames.clear();
        moved_by.clear();
        moved_by.resize(states.len(), false);
        for c in component.iter().map(|&c| &list[c]) {
            for k in std::iter::once(Some(c.a)).chain(std::iter::once(c.b)) {
                let u = match k {
                    None => Vec3d::zeros(),
                    Some(k) if states[k].kinematic => promote(states[k].v),
                    Some(k) => {
                        moved_by[k] = true;
                        continue;
                    }
                };
                if !frames.contains(&u) {
                    frames.push(u);
                }
            }
        }
        if frames.len() > 1 {
            continue;
        }
        let frame = frames.first().copied().unwrap_or_else(Vec3d::zeros);
        let energy = |vs: &[Vec3d]| -> f64 {
            states
                .iter()
                .zip(vs)
                .filter(|(s, _)| !s.kinematic)
                .map(|(s, v)| 0.5 * (v - frame).norm_squared() / s.response.inverse_mass)
                .sum()
        };
        // The velocities with this component's impulses only.
        after.clear();
        after.extend((0..states.len()).map(|k| if moved_by[k] { v[k] } else { before[k] }));
        let (e0, e1) = (energy(before), energy(after));
        // The exact plastic solution removes ½ λᵀ A λ >= 0; 1e-12 of the
        // energy covers the f64 elimination.
        if e1 > e0 * (1.0 + 1.0e-12) + f64::MIN_POSITIVE {
            return Err(unresolvable(
                component,
                "the settled impulses would add kinetic energy",
            ));
        }
    }
    let mut report = Vec::new();
    for ((c, point, tri), l) in contacts.iter().zip(lambda.iter()) {
        if !(*l > 0.0) {
            continue;
        }
        charge(states, c.a, c.b, limit)?;
        let a_kin = states[c.a].kinematic;
        let (body, other, normal, impulse) = match (c.b, a_kin) {
            (Some(b), true) => (
                b,
                Struck::Member(states[c.a].index),
                -c.normal,
                -c.normal * *l,
            ),
            (Some(b), false) => (
                c.a,
                Struck::Member(states[b].index),
                c.normal,
                c.normal * *l,
            ),
            (None, _) => (
                c.a,
                Struck::Triangle(tri.unwrap_or(0)),
                c.normal,
                c.normal * *l,
            ),
        };
        report.push(GroupImpact {
            body: states[body].index,
            other,
            time,
            point: *point,
            normal,
            impulse,
        });
    }
    for (st, nv) in states.iter_mut().zip(v.iter()) {
        if st.kinematic || *nv == promote(st.v) {
            continue;
        }
        let v32 = demote(*nv).map_err(|_| not_representable(st.index, "linear velocity", nv))?;
        st.v = v32;
        st.sweep_v = v32;
        st.touched = true;
    }
    // Every member whose velocity may have changed (a cheap superset: the
    // memo compares each one's sweep input anyway).
    moved.extend((0..states.len()).filter(|&k| !states[k].kinematic));
    Ok(report)
}

/// The touching test at a settled instant of members `i` and `j`: pushes
/// their contact, if they touch within the touching tolerance. `checked`:
/// every member at rest checked for `step` ([`touching_pairs`]), so that
/// the pair is swept without checking its members again (the first grown
/// by the tolerance, [`CheckedSegment::grown`]; the same outcome).
///
/// # Errors
/// [`CcdError::PairSweepRefused`] naming both members.
fn touching_pair(
    states: &[State],
    checked: Option<&[CheckedSegment]>,
    i: usize,
    j: usize,
    step: f32,
    contacts: &mut Vec<(SettleContact, Vec3d, Option<usize>)>,
) -> Result<(), CcdError> {
    let (a, b) = (&states[i], &states[j]);
    let tol = touch_tolerance(a.p, b.p, (a.radius + b.radius) as f64);
    let mut sa = a.segment(tol);
    let mut sb = b.segment(0.0);
    sa.velocity = Vec3::zeros();
    sb.velocity = Vec3::zeros();
    let grown = checked.and_then(|c| Some((c[i].grown(sa.radius)?, &c[j])));
    let outcome = match grown {
        Some((ca, cb)) => sweep_checked_pair(&ca, cb),
        None => sweep_segment_pair(&sa, &sb, step),
    };
    match outcome {
        SweepOutcome::InitiallyTouching(c) => contacts.push((
            SettleContact {
                a: i,
                b: Some(j),
                normal: c.normal,
            },
            c.point,
            None,
        )),
        SweepOutcome::Refused(refusal) => {
            return Err(CcdError::PairSweepRefused {
                body: a.index,
                other: b.index,
                refusal,
            })
        }
        _ => {}
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use parapet_geometry::Shape;
    use parapet_math::Quat;
    use proptest::prelude::*;

    /// Bounds meeting, written out independently of `bounds_meet`.
    fn meet(a: &Option<SweptBounds>, b: &Option<SweptBounds>) -> bool {
        let (Some(a), Some(b)) = (a, b) else {
            return true;
        };
        !(0..3).any(|k| a.hi[k] < b.lo[k] || b.hi[k] < a.lo[k])
    }

    /// A member: a sphere or a capsule (axis up to 3 m, any direction,
    /// nearly parallel axes included), radius 0.02..1 m.
    fn segment(center: [f32; 3]) -> impl Strategy<Value = MovingSegment> {
        (
            prop::array::uniform3(-1.0f32..1.0),
            prop_oneof![Just(0.0f32), 0.0f32..1.5],
            0.02f32..1.0,
            prop::array::uniform3(-50.0f32..50.0),
        )
            .prop_map(move |(axis, len, radius, v)| {
                let c = Vec3::from(center);
                let h = Vec3::from(axis) * len;
                MovingSegment::capsule(c - h, c + h, radius, Vec3::from(v))
            })
    }

    /// The bounds of a member's path grown by its radius only (no margin).
    fn raw_bounds(m: &MovingSegment, tau: f32) -> ([f64; 3], [f64; 3]) {
        let t = promote(m.velocity) * tau as f64;
        let pts = [
            promote(m.p0),
            promote(m.p1),
            promote(m.p0) + t,
            promote(m.p1) + t,
        ];
        let r = m.radius as f64;
        let lo = [0, 1, 2].map(|k| pts.iter().map(|p| p[k]).fold(f64::INFINITY, f64::min) - r);
        let hi = [0, 1, 2].map(|k| pts.iter().map(|p| p[k]).fold(f64::NEG_INFINITY, f64::max) + r);
        (lo, hi)
    }

    /// Two members, the second moved along one axis so that the gap
    /// between their radius-grown paths is `frac` times three cull margins
    /// (`frac` from -0.2 to 1, often right at the cull threshold of one
    /// third), anywhere across or facing the first: the grazing cases
    /// where the cull is tightest. `far` moves both up to 1,000 m from the origin (within the
    /// sweeps' 65,536 radii for radii above 0.02 m).
    fn grazing_pair() -> impl Strategy<Value = (MovingSegment, MovingSegment, f32)> {
        (
            prop::array::uniform3(-1000.0f32..1000.0),
            prop::bool::ANY,
            0.001f32..0.05,
        )
            .prop_flat_map(|(far, use_far, tau)| {
                let c = if use_far { far } else { [0.0; 3] };
                (
                    segment(c),
                    segment(c),
                    0usize..3,
                    prop::bool::ANY,
                    prop_oneof![-0.2f64..1.0, (1.0f64 / 3.0 - 1.0e-3)..(1.0 / 3.0 + 1.0e-3)],
                    Just(tau),
                    prop::bool::ANY,
                )
            })
            .prop_map(|(a, b, axis, above, frac, tau, align)| {
                // Aligned: b's path starts across from a's first end, so the
                // two face each other over the gap.
                let b = if align {
                    let mut d = a.p0 - b.p0;
                    d[axis] = 0.0;
                    MovingSegment {
                        p0: b.p0 + d,
                        p1: b.p1 + d,
                        ..b
                    }
                } else {
                    b
                };
                let (la, ha) = raw_bounds(&a, tau);
                let (lb, hb) = raw_bounds(&b, tau);
                let (wa, wb) = (
                    swept_bounds(&a, tau, 0.0).unwrap(),
                    swept_bounds(&b, tau, 0.0).unwrap(),
                );
                let margins = (wa.hi[axis] - ha[axis]) + (wb.hi[axis] - hb[axis]);
                let gap = frac * 3.0 * margins;
                let shift = if above {
                    ha[axis] - lb[axis] + gap
                } else {
                    la[axis] - hb[axis] - gap
                };
                let mut d = Vec3::zeros();
                d[axis] = shift as f32;
                let b = MovingSegment {
                    p0: b.p0 + d,
                    p1: b.p1 + d,
                    ..b
                };
                (a, b, tau)
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(20000))]

        /// Whenever the cull drops a pair, the exact pair sweep (either
        /// role order) finds no hit and no initial contact.
        #[test]
        fn the_cull_never_drops_a_contact_the_pair_sweep_finds((a, b, tau) in grazing_pair()) {
            let (ba, bb) = (swept_bounds(&a, tau, 0.0), swept_bounds(&b, tau, 0.0));
            if !meet(&ba, &bb) {
                for o in [sweep_segment_pair(&a, &b, tau), sweep_segment_pair(&b, &a, tau)] {
                    prop_assert!(
                        matches!(o, SweepOutcome::Miss | SweepOutcome::Refused(_)),
                        "culled pair {:?} {:?} over {} s: {:?}", a, b, tau, o
                    );
                }
            }
        }
    }

    /// A sphere (radius 0.02..1 m, up to 60 m/s, anywhere within 1,000 m of
    /// the origin) and a triangle (edges up to 50 m) moved along one axis
    /// so that the gap between the triangle's bounds and the sphere's
    /// radius-grown path is `frac` times three cull margins (often right at
    /// the cull threshold of one third), with its nearest vertex straight
    /// across from the path's nearest end or lying flat across the axis
    /// under the sphere, facing it: the grazing cases where the triangle
    /// cull is tightest.
    fn grazing_triangle() -> impl Strategy<Value = (Vec3, f32, Vec3, f32, [Vec3; 3])> {
        (
            (
                prop::array::uniform3(-1000.0f32..1000.0),
                prop::bool::ANY,
                0.02f32..1.0,
                prop::array::uniform3(-60.0f32..60.0),
                0.001f32..0.05,
            ),
            prop::array::uniform3(prop::array::uniform3(-1.0f32..1.0)),
            prop_oneof![0.05f32..2.0, 2.0f32..50.0],
            0usize..3,
            prop::bool::ANY,
            prop_oneof![-0.2f64..1.0, (1.0f64 / 3.0 - 1.0e-3)..(1.0 / 3.0 + 1.0e-3)],
            0u8..3,
        )
            .prop_map(
                |((far, use_far, r, v, tau), shape, size, axis, above, frac, how)| {
                    let c = if use_far {
                        Vec3::from(far)
                    } else {
                        Vec3::zeros()
                    };
                    let v = Vec3::from(v);
                    let mut tri = shape.map(|p| c + Vec3::from(p) * size);
                    let seg = MovingSegment::sphere(c, r, v);
                    let b = swept_bounds(&seg, tau, 0.0).unwrap();
                    let t = promote(v) * tau as f64;
                    let end = |hi: bool| {
                        let moved = c[axis] as f64 + t[axis];
                        let (lo, top) = ((c[axis] as f64).min(moved), (c[axis] as f64).max(moved));
                        // The path's end nearest the triangle.
                        let at_end = (moved > c[axis] as f64) == hi;
                        (
                            if hi { top } else { lo },
                            if at_end { promote(c) + t } else { promote(c) },
                        )
                    };
                    let (edge, near) = end(above);
                    let edge = edge + if above { r as f64 } else { -(r as f64) };
                    // The widening beyond the radius-grown path on `axis`.
                    let margin = if above {
                        b.hi[axis] - edge
                    } else {
                        edge - b.lo[axis]
                    };
                    let gap = frac * 3.0 * margin;
                    let (u, w) = ((axis + 1) % 3, (axis + 2) % 3);
                    match how {
                        // Flat across the axis, centred under the near end,
                        // its front towards the sphere.
                        0 => {
                            let mut p = [Vec3::zeros(); 3];
                            for (k, q) in p.iter_mut().enumerate() {
                                let a = k as f32 * 2.0944;
                                q[u] = near[u] as f32 + size * a.cos();
                                q[w] = near[w] as f32 + size * a.sin();
                            }
                            // Counter-clockwise about +axis faces +axis.
                            if above {
                                p.swap(1, 2);
                            }
                            tri = p;
                        }
                        // Nearest vertex straight across from the near end.
                        1 => {
                            let k = (0..3)
                                .min_by(|&i, &j| {
                                    let (a, b) = (tri[i][axis], tri[j][axis]);
                                    if above {
                                        a.total_cmp(&b)
                                    } else {
                                        b.total_cmp(&a)
                                    }
                                })
                                .unwrap_or(0);
                            let mut d = Vec3::zeros();
                            d[u] = (near[u] - tri[k][u] as f64) as f32;
                            d[w] = (near[w] - tri[k][w] as f64) as f32;
                            tri = tri.map(|p| p + d);
                        }
                        _ => {}
                    }
                    let lo = tri
                        .iter()
                        .map(|p| p[axis] as f64)
                        .fold(f64::INFINITY, f64::min);
                    let hi = tri
                        .iter()
                        .map(|p| p[axis] as f64)
                        .fold(f64::NEG_INFINITY, f64::max);
                    let shift = if above {
                        edge + gap - lo
                    } else {
                        edge - gap - hi
                    };
                    let mut d = Vec3::zeros();
                    d[axis] = shift as f32;
                    (c, r, v, tau, tri.map(|p| p + d))
                },
            )
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(20000))]

        /// Whenever the triangle cull skips a triangle, the sphere's sweep
        /// against it finds no hit and no initial contact (a refusal of a
        /// triangle too thin for the sweep is not the cull's concern: the
        /// cull only skips triangles that passed their checks before).
        #[test]
        fn a_culled_triangle_sweep_is_a_miss((c, r, v, tau, tri) in grazing_triangle()) {
            let Some(cull) = TriangleCull::new(c, r, v, tau) else {
                return Ok(());
            };
            let outcome = sweep_sphere_triangle(c, r, v, tau, &tri);
            if cull.misses(&tri) {
                prop_assert!(
                    matches!(outcome, SweepOutcome::Miss | SweepOutcome::Refused(_)),
                    "culled sphere {:?} r {} v {:?} over {} s vs {:?}: {:?}", c, r, v, tau, tri, outcome
                );
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        /// The flat components are those of a label propagation written
        /// independently: contacts sharing a dynamic member repeatedly take
        /// the lower label until nothing changes; components in the order
        /// of their first contact, contacts in list order.
        #[test]
        fn contact_components_are_the_classes_of_shared_dynamic_members(
            kinematic in prop::collection::vec(prop::bool::weighted(0.25), 1..12),
            raw in prop::collection::vec((0usize..12, prop::option::of(0usize..12)), 0..16),
        ) {
            let n = kinematic.len();
            let mut states: Vec<State> = (0..n).map(|_| blank_state()).collect();
            for (st, &k) in states.iter_mut().zip(&kinematic) {
                st.kinematic = k;
            }
            // Valid contacts only: `a` dynamic unless `b` is a dynamic member.
            let list: Vec<SettleContact> = raw
                .into_iter()
                .filter_map(|(a, b)| {
                    let (a, b) = (a % n, b.map(|b| b % n));
                    match b {
                        Some(b) if b == a || (kinematic[a] && kinematic[b]) => None,
                        None if kinematic[a] => None,
                        _ => Some(SettleContact { a, b, normal: Vec3d::z() }),
                    }
                })
                .collect();
            let dynamic_of = |c: &SettleContact| -> Vec<usize> {
                std::iter::once(c.a).chain(c.b).filter(|&k| !kinematic[k]).collect()
            };
            let mut label: Vec<usize> = (0..list.len()).collect();
            loop {
                let mut changed = false;
                for i in 0..list.len() {
                    for j in 0..list.len() {
                        let shared = dynamic_of(&list[i])
                            .iter()
                            .any(|k| dynamic_of(&list[j]).contains(k));
                        if shared && label[j] < label[i] {
                            label[i] = label[j];
                            changed = true;
                        }
                    }
                }
                if !changed {
                    break;
                }
            }
            let mut expected: Vec<Vec<usize>> = Vec::new();
            let mut seen: Vec<usize> = Vec::new();
            for (i, &l) in label.iter().enumerate() {
                match seen.iter().position(|&s| s == l) {
                    Some(k) => expected[k].push(i),
                    None => {
                        seen.push(l);
                        expected.push(vec![i]);
                    }
                }
            }
            let mut out = Components::default();
            contact_components(&states, &list, &mut out);
            let got: Vec<Vec<usize>> =
                out.ranges.iter().map(|&(a, b)| out.items[a..b].to_vec()).collect();
            prop_assert_eq!(got, expected);
        }
    }

    /// An event of member `i` at `time` (a hit, or an initial contact).
    fn event_at(i: usize, time: f64, initial: bool) -> Event {
        Event {
            member: i,
            other: None,
            triangle: 0,
            initial,
            impact: Impact {
                time,
                point: Vec3d::zeros(),
                normal: Vec3d::z(),
                feature: (),
            },
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        /// After any sequence of changed members' events, the tournament's
        /// winner is the event that offering every member's event in member
        /// order keeps (ties in time and kind are frequent: times from a
        /// few values, signed zeros included).
        #[test]
        fn the_tournament_keeps_the_event_offered_first(
            n in 1usize..70,
            rounds in prop::collection::vec(
                prop::collection::vec(
                    (0usize..70, prop::option::of((0u8..5, prop::bool::ANY))),
                    0..12,
                ),
                1..8,
            ),
        ) {
            let times = [0.0, -0.0, 0.25, 0.5, 1.0];
            let mut best: Vec<Option<Option<Event>>> = vec![Some(None); n];
            let mut tournament = Tournament::default();
            tournament.update(&best, &(0..n).collect::<Vec<_>>());
            for round in rounds {
                let mut changed = Vec::new();
                for (i, e) in round {
                    let i = i % n;
                    best[i] = Some(e.map(|(t, initial)| event_at(i, times[t as usize], initial)));
                    changed.push(i);
                }
                tournament.update(&best, &changed);
                let mut offered: Option<Event> = None;
                for e in best.iter().flatten().flatten() {
                    offer(*e, &mut offered);
                }
                prop_assert_eq!(
                    format!("{:?}", tournament.winner(&best)),
                    format!("{:?}", offered.as_ref())
                );
            }
        }
    }

    #[test]
    fn meeting_pairs_are_those_whose_bounds_meet_except_skipped_pairs() {
        // Brute force over random boxes on a line and in a cube.
        let mut seed = 0x5EEDu64;
        let mut next = || {
            seed = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = seed;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64
        };
        for round in 0..200 {
            let n = 1 + round % 40;
            let bounds: Vec<Option<SweptBounds>> = (0..n)
                .map(|_| {
                    if next() < 0.05 {
                        return None;
                    }
                    let c = [next() * 10.0, next() * 10.0 * (round % 2) as f64, next()];
                    let h = [next(), next(), next()];
                    Some(SweptBounds {
                        lo: [0, 1, 2].map(|k| c[k] - h[k]),
                        hi: [0, 1, 2].map(|k| c[k] + h[k]),
                    })
                })
                .collect();
            let skip: Vec<bool> = (0..n).map(|_| next() < 0.3).collect();
            let mut expected = Vec::new();
            for i in 0..n {
                for j in i + 1..n {
                    if !(skip[i] && skip[j]) && meet(&bounds[i], &bounds[j]) {
                        expected.push((i, j));
                    }
                }
            }
            assert_eq!(meeting_pairs(&bounds, &skip), expected, "round {round}");
        }
    }

    /// The members of `bodies`, each reaching a ball of `reach_radius`
    /// metres around its position.
    fn members_of(bodies: &[(RigidBody, MemberShape)], reach_radius: f64) -> Vec<GroupMember<'_>> {
        bodies
            .iter()
            .enumerate()
            .map(|(i, (body, shape))| GroupMember {
                index: i,
                body,
                shape: *shape,
                reach: Reach {
                    center: promote(body.position()),
                    radius: reach_radius,
                },
            })
            .collect()
    }

    /// A random group of spheres, locked capsules and kinematic spheres in
    /// a box of `side` metres (close enough to collide often, including
    /// several contacts at one instant), with restitution 0 or 0.5.
    fn group_bodies(n: usize, side: f32) -> impl Strategy<Value = Vec<(RigidBody, MemberShape)>> {
        prop::collection::vec(
            (
                prop::array::uniform3(0.0f32..side),
                prop::array::uniform3(-40.0f32..40.0),
                0..10u8,
                0.05f32..0.3,
                prop_oneof![Just(0.0f32), Just(0.5)],
                prop::array::uniform3(-1.0f32..1.0),
            ),
            n,
        )
        .prop_map(|v| {
            v.into_iter()
                .map(|(p, vel, kind, r, e, q)| {
                    let material = Material::new(0.3, e, 0.5).unwrap();
                    let (p, vel) = (Vec3::from(p), Vec3::from(vel));
                    match kind {
                        0 => (
                            RigidBody::new_kinematic(Shape::sphere(r).unwrap())
                                .with_position(p)
                                .with_linear_velocity(vel * 0.25)
                                .with_material(material),
                            MemberShape::Kinematic { radius: r },
                        ),
                        1..=3 => {
                            let q = Quat::from_euler_angles(3.0 * q[0], 3.0 * q[1], 3.0 * q[2]);
                            let mut b =
                                RigidBody::new_dynamic(Shape::capsule(r, 2.0 * r).unwrap(), 1.0)
                                    .unwrap()
                                    .with_position(p)
                                    .with_rotation(q)
                                    .with_linear_velocity(vel)
                                    .with_material(material);
                            b.set_inverse_inertia(parapet_math::Mat3::zeros()).unwrap();
                            (
                                b,
                                MemberShape::Capsule {
                                    radius: r,
                                    half_height: 2.0 * r,
                                },
                            )
                        }
                        _ => (
                            RigidBody::new_dynamic(Shape::sphere(r).unwrap(), 0.5 + r)
                                .unwrap()
                                .with_position(p)
                                .with_linear_velocity(vel)
                                .with_material(material),
                            MemberShape::Sphere { radius: r },
                        ),
                    }
                })
                .collect()
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]

        /// The culled sweep of a whole group is the uncut one bit for bit:
        /// the same impacts in the same order, the same end states, or the
        /// same error (Debug prints every f64 exactly).
        #[test]
        fn a_culled_group_sweep_is_the_uncut_sweep_bit_for_bit(
            bodies in (2usize..24, prop_oneof![Just(1.0f32), Just(3.0), Just(12.0)])
                .prop_flat_map(|(n, side)| group_bodies(n, side)),
            impacts in prop_oneof![Just(4u32), Just(16)],
        ) {
            let members = members_of(&bodies, 1.0);
            let input = GroupInput { members, dt: 1.0 / 60.0, max_impacts: impacts };
            let culled = sweep_group_with(&input, None, true);
            let uncut = sweep_group_with(&input, None, false);
            prop_assert_eq!(format!("{culled:?}"), format!("{uncut:?}"));
        }

        /// The same on a floor of triangles, for groups large enough that
        /// a pass at one instant re-sweeps only the few members it moved
        /// (up to 40), with coordinates snapped to `+0.0` or `-0.0` (the
        /// members that a pass without travel moves again), members at rest
        /// (kept across passes with travel) and members resting on the
        /// floor, so that passes at one instant, settled cascades and floor
        /// contacts mix.
        #[test]
        fn a_culled_group_sweep_on_a_floor_is_the_uncut_sweep_bit_for_bit(
            bodies in (2usize..40, prop_oneof![Just(1.0f32), Just(3.0), Just(6.0)])
                .prop_flat_map(|(n, side)| group_bodies(n, side)),
            snaps in prop::collection::vec((0usize..40, 0usize..3, 0u8..6), 0..30),
            impacts in prop_oneof![Just(4u32), Just(16)],
        ) {
            let mut bodies = bodies;
            for (k, axis, how) in snaps {
                let Some((body, shape)) = bodies.get_mut(k) else { continue };
                let mut p = body.position();
                let r = match *shape {
                    MemberShape::Sphere { radius } | MemberShape::Kinematic { radius } => radius,
                    MemberShape::Capsule { radius, .. } => radius,
                };
                match how {
                    0 => p[axis] = 0.0,
                    1 => p[axis] = -0.0,
                    // On the floor (z = 0) at rest or sliding.
                    2 if axis == 2 && !matches!(shape, MemberShape::Capsule { .. }) => p.z = r,
                    // At rest (zeros of either sign).
                    4 => body.set_linear_velocity(Vec3::zeros()),
                    5 => body.set_linear_velocity(Vec3::new(-0.0, 0.0, -0.0)),
                    _ => {
                        let v = body.linear_velocity();
                        body.set_linear_velocity(Vec3::new(v.x, v.y, 0.0));
                    }
                }
                *body = body.clone().with_position(p);
            }
            let floor: Vec<[Vec3; 3]> = vec![
                [Vec3::new(-20.0, -20.0, 0.0), Vec3::new(20.0, -20.0, 0.0), Vec3::new(20.0, 20.0, 0.0)],
                [Vec3::new(-20.0, -20.0, 0.0), Vec3::new(20.0, 20.0, 0.0), Vec3::new(-20.0, 20.0, 0.0)],
                // A wall at x = 4 facing -x.
                [Vec3::new(4.0, -20.0, -20.0), Vec3::new(4.0, 20.0, 20.0), Vec3::new(4.0, 20.0, -20.0)],
            ];
            let tree = parapet_geometry::bvh::TriangleBoundsTree::build(&floor).unwrap();
            let material = |_: usize| Some(Material::new(0.3, 0.0, 0.5).unwrap());
            let edges = |_: usize| ActiveEdges::ALL;
            let mesh = MeshView { triangles: &floor, tree: &tree, material: &material, edges: &edges };
            let members = members_of(&bodies, 2.0);
            let input = GroupInput { members, dt: 1.0 / 60.0, max_impacts: impacts };
            let culled = sweep_group_with(&input, Some(&mesh), true);
            let uncut = sweep_group_with(&input, Some(&mesh), false);
            prop_assert_eq!(format!("{culled:?}"), format!("{uncut:?}"));
        }
    }

    /// A stack of `n` spheres (radius `r`, touching, lowest on the floor
    /// `z = 0`) sinking as gravity left them, struck from above at
    /// `speed`, with `others` spheres resting on the floor beside it: the
    /// bench scene `struck_stacks` generalised.
    fn struck_stack_bodies(
        n: usize,
        r: f32,
        speed: f32,
        restitution: f32,
        offset: [f32; 2],
        others: usize,
    ) -> Vec<(RigidBody, MemberShape)> {
        let material = Material::new(0.3, restitution, 0.5).unwrap();
        let sphere = |p: Vec3, v: Vec3| {
            (
                RigidBody::new_dynamic(Shape::sphere(r).unwrap(), 1.0)
                    .unwrap()
                    .with_position(p)
                    .with_linear_velocity(v)
                    .with_material(material),
                MemberShape::Sphere { radius: r },
            )
        };
        let mut bodies: Vec<_> = (0..n)
            .map(|k| {
                let z = r * (1 + 2 * k) as f32;
                sphere(
                    Vec3::new(0.0, 0.0, z),
                    Vec3::new(0.0, 0.0, -0.01 * (k + 1) as f32),
                )
            })
            .collect();
        for k in 0..others {
            bodies.push(sphere(
                Vec3::new(3.0 * r * (k + 1) as f32, 0.0, r),
                Vec3::new(0.0, 0.0, -0.01),
            ));
        }
        let top = Vec3::new(offset[0], offset[1], r * (2 * n + 4) as f32);
        bodies.push(sphere(top, Vec3::new(0.0, 0.0, -speed)));
        bodies
    }

    /// The culled sweep of `bodies` on a floor and the uncut one, and how
    /// many members kept their touching outcomes between settled instants
    /// in the culled one.
    fn culled_and_uncut_on_floor(
        bodies: &[(RigidBody, MemberShape)],
        sliver: Option<f32>,
    ) -> (String, String, usize) {
        let mut floor: Vec<[Vec3; 3]> = vec![
            [
                Vec3::new(-2.0, -2.0, 0.0),
                Vec3::new(2.0, -2.0, 0.0),
                Vec3::new(2.0, 2.0, 0.0),
            ],
            [
                Vec3::new(-2.0, -2.0, 0.0),
                Vec3::new(2.0, 2.0, 0.0),
                Vec3::new(-2.0, 2.0, 0.0),
            ],
        ];
        // A degenerate triangle (collinear vertices) at height `z`: every
        // sweep against it refuses.
        if let Some(z) = sliver {
            floor.push([
                Vec3::new(-1.0, 0.5, z),
                Vec3::new(0.0, 0.5, z),
                Vec3::new(1.0, 0.5, z),
            ]);
        }
        let tree = parapet_geometry::bvh::TriangleBoundsTree::build(&floor).unwrap();
        let material = |_: usize| Some(Material::new(0.3, 0.0, 0.5).unwrap());
        let edges = |_: usize| ActiveEdges::ALL;
        let mesh = MeshView {
            triangles: &floor,
            tree: &tree,
            material: &material,
            edges: &edges,
        };
        let members = members_of(bodies, 1.0);
        let input = GroupInput {
            members,
            dt: 1.0 / 60.0,
            max_impacts: 16,
        };
        let mut scratch = Scratch::default();
        let culled = sweep_group_in(&input, Some(&mesh), true, &mut scratch);
        let uncut = sweep_group_in(&input, Some(&mesh), false, &mut Scratch::default());
        (
            format!("{culled:?}"),
            format!("{uncut:?}"),
            scratch.settle.kept_members,
        )
    }

    /// The bench's struck stack (four spheres on a floor struck at 30 m/s)
    /// settles twice, the lower spheres unchanged at rest in between: they
    /// keep their touching outcomes, and the sweep is the uncut one bit for
    /// bit.
    #[test]
    fn a_struck_stack_keeps_its_resting_members_touching_outcomes() {
        let bodies = struck_stack_bodies(4, 0.1, 30.0, 0.0, [0.0, 0.0], 0);
        let (culled, uncut, kept) = culled_and_uncut_on_floor(&bodies, None);
        assert_eq!(culled, uncut);
        assert!(kept > 0, "no member kept its outcomes: {culled}");
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        /// Struck stacks of any height, struck off centre at any speed,
        /// elastic or plastic, with resting spheres beside them, and maybe a
        /// degenerate triangle among the candidates: the culled sweep
        /// (which keeps the touching outcomes of members unchanged at rest
        /// between settled instants, and culls triangles checked in another
        /// member's sweep) is the uncut one bit for bit, refusals
        /// included.
        #[test]
        fn a_struck_stack_sweep_is_the_uncut_sweep_bit_for_bit(
            n in 1usize..6,
            r in 0.05f32..0.3,
            speed in 1.0f32..60.0,
            restitution in prop_oneof![Just(0.0f32), Just(0.5)],
            offset in prop::array::uniform2(-0.1f32..0.1),
            others in 0usize..3,
            sliver in prop_oneof![Just(None), (-1.0f32..3.0).prop_map(Some)],
        ) {
            let bodies = struck_stack_bodies(n, r, speed, restitution, offset, others);
            let (culled, uncut, _) = culled_and_uncut_on_floor(&bodies, sliver);
            prop_assert_eq!(culled, uncut);
        }
    }
}
