//! Sleeping, the world's part: the wake pass at the start of a step and
//! the sleep pass at its end (the body's part, the timer and the edits that
//! wake, is `parapet_solver`'s `body/sleep.rs`).
//!
//! # Method
//! Islands are the connected groups of the *touch graph*: dynamic bodies
//! and moving kinematic bodies that collide, joined when their world bounds
//! grown by [`CONTACT_MARGIN`] overlap and the collision filters let them
//! interact (static bodies and meshes join nothing: a floor does not make
//! one island of everything on it). The graph is a superset of the contact
//! graph, built by the broad phase the contact stage uses, so that:
//!
//! - **Wake pass** ([`wake_touched`], after the snapshot, before the
//!   forces): every sleeping body in the island of an awake body wakes. An
//!   awake body's bounds are first swept over the step by its motion bound
//!   (`policy::motion` plus what gravity and its pending force add in one
//!   step), so that a body about to reach a sleeping one this step wakes it
//!   now and the two meet in the contact stage as two awake bodies. After
//!   this pass no awake body's grown bounds overlap a sleeping body's,
//!   which is why the contact stage can leave sleeping bodies out entirely
//!   (no pair, no mesh query) without missing a contact. With sleeping
//!   turned off (`PhysicsWorld::sleeping == false`) every sleeping body
//!   wakes here.
//! - **Continuous step**: a sleeping body is a fixed target
//!   (`ccd::policy::role`): a mover's sweep against it is exact and never
//!   crosses it. When a mover strikes it anyway (a mover whose velocity the
//!   contact solve turned towards it after the wake pass), the strike wakes
//!   it at the end of the step (`step/ccd.rs`) and the mover rebounds as
//!   from a fixed body for that one step: waking it inside the loop would
//!   need its forces and contacts of a step it did not take part in.
//! - **Sleep pass** ([`fall_asleep`], the last stage of a successful step):
//!   every awake dynamic body advances its time at rest
//!   ([`RigidBody::advance_sleep_timer`]); an island of the end poses falls
//!   asleep, all at once, when every member has rested for
//!   `time_to_sleep` and no member is a moving kinematic body.
//!
//! Determinism: both passes run on one thread in insertion order, after
//! the parallel stages, from the step's results alone; the thread count
//! changes nothing.
//!
//! # Source
//! Box2D's islands and sleep (Catto, `b2Island`, `b2_timeToSleep`, a touch
//! of an awake body wakes an island) and rapier's activation thresholds.
//!
//! # Precision domain
//! Bounds are the contact stage's (`shape_bounds`, `f64`, widened by
//! 1e-12 relative); the swept growth is rounded up
//! ([`parapet_math::rounding`]).

use parapet_geometry::Aabbd;
use parapet_math::promote;
use parapet_math::rounding::{add_up, mul_up};
use parapet_solver::contact::CONTACT_MARGIN;
use parapet_solver::{BodyKind, RigidBody};

use crate::broad_phase::{overlapping_pairs_where, BroadBox};
use crate::ccd::policy;
use crate::shape_pose::{shape_bounds, shape_pose};
use crate::PhysicsWorld;

/// The default `sleep_linear_threshold` (m/s): 0.05. A body resting on a
/// floor under gravity keeps a residual speed of about `g dt / iterations`
/// from the solver (under 0.02 m/s at 60 Hz); 0.05 m/s is above that and
/// below any motion a viewer sees (3 mm per 60 Hz frame). Box2D uses
/// 0.01 m/s, rapier 0.4 (scaled by its length unit, per unit mass).
pub const DEFAULT_SLEEP_LINEAR_THRESHOLD: f32 = 0.05;

/// The default `sleep_angular_threshold` (rad/s): 0.05, about 2.9 degrees
/// per second (Box2D: 2 degrees per second): a 1 m box turning this fast
/// moves its corners by 0.04 mm per 60 Hz frame.
pub const DEFAULT_SLEEP_ANGULAR_THRESHOLD: f32 = 0.05;

/// The default `time_to_sleep` (s): 0.5, Box2D's `b2_timeToSleep`: long
/// enough that a body at the top of a bounce or turning over an edge (slow
/// for a few steps only) does not fall asleep there, short enough that a
/// pile comes to rest within a second of settling.
pub const DEFAULT_TIME_TO_SLEEP: f32 = 0.5;

/// One node of the touch graph: a slot, its grown bounds, and whether it
/// is awake and moving (an awake dynamic body or a moving kinematic one).
struct Node {
    slot: u32,
    bounds: Aabbd,
    awake: bool,
}

/// Whether a kinematic body moves (any nonzero velocity: it pushes what it
/// touches, however slowly).
fn kinematic_moving(body: &RigidBody) -> bool {
    body.linear_velocity() != parapet_math::Vec3::zeros()
        || body.angular_velocity() != parapet_math::Vec3::zeros()
}

/// The touch-graph node of `body`, or `None` for a body that joins no
/// island (static, a resting kinematic body, collisions off, a sensor, a
/// mesh). `sweep` (s) grows an awake body's bounds by its motion bound
/// over that time.
fn node(world: &PhysicsWorld, slot: u32, body: &RigidBody, sweep: Option<f32>) -> Option<Node> {
    if !body.collides() || body.is_sensor() || !body.shape().is_solid() {
        return None;
    }
    let awake = match body.kind() {
        BodyKind::Static => return None,
        BodyKind::Kinematic if !kinematic_moving(body) => return None,
        BodyKind::Kinematic => true,
        BodyKind::Dynamic => !body.is_sleeping(),
    };
    let pose = shape_pose(body)?;
    let mut grow = CONTACT_MARGIN as f64;
    if let (true, Some(dt)) = (awake, sweep) {
        // What gravity and the pending force add to the speed in one step,
        // travelled for one step: (|g| + |F|/m) dt².
        let h = dt as f64;
        let pull = add_up(
            promote(world.gravity).norm(),
            mul_up(promote(body.force()).norm(), body.inverse_mass() as f64),
        );
        grow = add_up(grow, add_up(policy::motion(body, dt), mul_up(pull, h * h)));
    }
    let bounds = shape_bounds(body.shape(), &pose, grow)?;
    Some(Node {
        slot,
        bounds,
        awake,
    })
}

/// The touch graph of the live bodies: its nodes (insertion order) and,
/// per node, the index of its island's root (the lowest node index).
fn islands(world: &PhysicsWorld, sweep: Option<f32>) -> (Vec<Node>, Vec<usize>) {
    let nodes: Vec<Node> = world
        .entries()
        .filter_map(|e| node(world, e.id.index(), &e.body, sweep))
        .collect();
    let boxes: Vec<BroadBox> = nodes
        .iter()
        .map(|n| BroadBox {
            bounds: n.bounds,
            movable: true,
        })
        .collect();
    let entry = |i: usize| {
        world.slots[nodes[i].slot as usize]
            .as_ref()
            .expect("touch-graph slots are live")
    };
    let pairs = overlapping_pairs_where(&boxes, |i, j| {
        let (a, b) = (entry(i), entry(j));
        world.pair_interacts(a.id, &a.body, b.id, &b.body)
    });
    let mut parent: Vec<usize> = (0..nodes.len()).collect();
    fn find(parent: &mut [usize], mut x: usize) -> usize {
        while parent[x] != x {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        x
    }
    for (i, j) in pairs {
        let (a, b) = (find(&mut parent, i), find(&mut parent, j));
        if a != b {
            parent[a.max(b)] = a.min(b);
        }
    }
    let roots = (0..nodes.len()).map(|i| find(&mut parent, i)).collect();
    (nodes, roots)
}

/// The wake pass (module docs): wakes every sleeping body whose island
/// holds an awake body, bounds swept over `sweep` seconds (`None`: the
/// bounds at rest, for a wake between steps). With sleeping turned off,
/// wakes every body.
pub(crate) fn wake_touched(world: &mut PhysicsWorld, sweep: Option<f32>) {
    let sleeping = |w: &PhysicsWorld| w.entries().any(|e| e.body.is_sleeping());
    if !sleeping(world) {
        return;
    }
    if !world.sleeping {
        for &slot in &world.order {
            if let Some(e) = world.slots[slot as usize].as_mut() {
                if e.body.is_sleeping() {
                    e.body.wake();
                }
            }
        }
        return;
    }
    let (nodes, roots) = islands(world, sweep);
    let mut awake_root = vec![false; nodes.len()];
    for (n, &r) in nodes.iter().zip(&roots) {
        awake_root[r] |= n.awake;
    }
    for (n, &r) in nodes.iter().zip(&roots) {
        if !n.awake && awake_root[r] {
            if let Some(e) = world.slots[n.slot as usize].as_mut() {
                e.body.wake();
            }
        }
    }
}

/// Wakes every sleeping body whose grown bounds overlap `bounds` (m,
/// world): the neighbours of a body being removed. Their islands wake with
/// them at the next wake pass.
pub(crate) fn wake_around(world: &mut PhysicsWorld, bounds: &Aabbd) {
    for &slot in &world.order {
        let Some(e) = world.slots[slot as usize].as_mut() else {
            continue;
        };
        if !e.body.is_sleeping() {
            continue;
        }
        let touches = shape_pose(&e.body)
            .and_then(|pose| shape_bounds(e.body.shape(), &pose, CONTACT_MARGIN as f64))
            .is_none_or(|b| b.intersects(bounds));
        if touches {
            e.body.wake();
        }
    }
}

/// The world bounds of body `slot` as the wake passes see it: a solid's
/// grown shape bounds, a mesh's captured triangles grown by the margin
/// (`None` for a moving mesh or a pose beyond `f32`: then every sleeping
/// body is woken, the conservative answer).
pub(crate) fn body_bounds(world: &PhysicsWorld, slot: u32) -> Option<Aabbd> {
    let e = world.slots.get(slot as usize)?.as_ref()?;
    if let Some(mesh) = &e.mesh {
        let corners: Vec<parapet_math::Vec3d> =
            mesh.iter().flatten().map(|v| promote(*v)).collect();
        return Some(Aabbd::from_points(corners.iter()).grown(CONTACT_MARGIN as f64));
    }
    let pose = shape_pose(&e.body)?;
    shape_bounds(e.body.shape(), &pose, CONTACT_MARGIN as f64)
}

/// The sleep pass (module docs), after a successful step of `dt` seconds.
pub(crate) fn fall_asleep(world: &mut PhysicsWorld, dt: f32) {
    if !world.sleeping {
        return;
    }
    let (linear, angular) = (world.sleep_linear_threshold, world.sleep_angular_threshold);
    let mut rested = false;
    for &slot in &world.order {
        if let Some(e) = world.slots[slot as usize].as_mut() {
            let t = e.body.advance_sleep_timer(dt, linear, angular);
            rested |= !e.body.is_sleeping()
                && e.body.kind() == BodyKind::Dynamic
                && t >= world.time_to_sleep;
        }
    }
    // No body has rested long enough: no island can fall asleep.
    if !rested {
        return;
    }
    let (nodes, roots) = islands(world, None);
    let mut ready = vec![true; nodes.len()];
    for (n, &r) in nodes.iter().zip(&roots) {
        let body = &world.slots[n.slot as usize]
            .as_ref()
            .expect("touch-graph slots are live")
            .body;
        let rests = body.kind() == BodyKind::Dynamic
            && (body.is_sleeping() || body.sleep_timer() >= world.time_to_sleep);
        ready[r] &= rests;
    }
    for (n, &r) in nodes.iter().zip(&roots) {
        if ready[r] {
            if let Some(e) = world.slots[n.slot as usize].as_mut() {
                e.body.sleep();
            }
        }
    }
}
