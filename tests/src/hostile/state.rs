//! The complete observable state of a world as bits (so that NaN states
//! compare too), and the finiteness checks of a successful step.

use parapet_math::Vec3;
use parapet_world::{BodyId, ContactEvent, ContactKind, PhysicsWorld};

use crate::state::body_bits;

/// Every observable field of a world: configuration, each body (id, field
/// bits, shape, mesh snapshot, sub-steps of the last step), events,
/// contact count and the answers of a few rays (which read the mesh index
/// and its dirty state).
#[derive(Debug, Clone, PartialEq)]
pub struct WorldDump {
    config: Vec<u64>,
    bodies: Vec<BodyDump>,
    events: Vec<Vec<u64>>,
    contact_count: usize,
    rays: Vec<Option<(BodyId, Vec<u32>)>>,
}

/// One body of a [`WorldDump`]: id, field bits, shape, mesh snapshot bits
/// and sub-steps of the last step.
type BodyDump = (BodyId, Vec<u64>, String, Option<Vec<u32>>, Option<u32>);

fn bits(v: Vec3) -> [u32; 3] {
    [v.x.to_bits(), v.y.to_bits(), v.z.to_bits()]
}

fn event_bits(e: &ContactEvent) -> Vec<u64> {
    let mut out = vec![
        e.body_a.index() as u64,
        e.body_a.generation(),
        e.body_b.index() as u64,
        e.body_b.generation(),
        (e.kind == ContactKind::Swept) as u64,
        e.time.to_bits() as u64,
    ];
    for v in [e.point, e.normal, e.normal_impulse] {
        out.extend(bits(v).map(u64::from));
    }
    out
}

/// The dump of `w`.
pub fn dump(w: &PhysicsWorld) -> WorldDump {
    let mut config = bits(w.gravity).map(u64::from).to_vec();
    config.extend([
        w.collision_detection.code() as u64,
        w.ccd_max_impacts as u64,
        w.ccd_max_substeps as u64,
    ]);
    let bodies = w
        .bodies()
        .map(|(id, b)| {
            let snapshot = w.mesh_snapshot(id).map(|s| {
                s.iter()
                    .flat_map(|t| t.iter().flat_map(|v| bits(*v)))
                    .collect()
            });
            (
                id,
                body_bits(b),
                format!("{:?}", b.shape()),
                snapshot,
                w.ccd_stats(id).map(|s| s.substeps),
            )
        })
        .collect();
    let rays = [
        (Vec3::new(0.0, 0.0, 50.0), Vec3::new(0.0, 0.0, -1.0)),
        (Vec3::new(0.3, -0.2, 0.5), Vec3::new(1.0, 0.5, -0.2)),
        (Vec3::new(-4.0, 1.0, 0.0), Vec3::new(1.0, 0.0, 0.0)),
    ]
    .iter()
    .map(|(o, d)| {
        w.cast_ray(*o, *d, 100.0).map(|h| {
            let mut out = vec![h.distance.to_bits()];
            out.extend(bits(h.point));
            out.extend(bits(h.normal));
            (h.body, out)
        })
    })
    .collect();
    WorldDump {
        config,
        bodies,
        events: w.events().iter().map(event_bits).collect(),
        contact_count: w.contact_count(),
        rays,
    }
}

/// Why a successful step's state is not finite, if it is not: the first
/// body with a non-finite pose or velocity, or the first event with a
/// non-finite or out-of-range field, or a contact count that disagrees
/// with the events.
pub fn not_finite(w: &PhysicsWorld) -> Option<String> {
    let fin = |v: Vec3| v.iter().all(|c| c.is_finite());
    for (id, b) in w.bodies() {
        let q = b.rotation().coords;
        if !(fin(b.position())
            && q.iter().all(|c| c.is_finite())
            && fin(b.linear_velocity())
            && fin(b.angular_velocity()))
        {
            return Some(format!("{id}: not finite after an Ok step: {b:?}"));
        }
    }
    let ids: Vec<BodyId> = w.bodies().map(|(id, _)| id).collect();
    for e in w.events() {
        let unit = (e.normal.norm() - 1.0).abs() <= 1e-3;
        if !(fin(e.point) && fin(e.normal) && fin(e.normal_impulse) && unit) {
            return Some(format!(
                "an event is not finite or its normal not unit: {e:?}"
            ));
        }
        if !(0.0..=1.0).contains(&e.time) {
            return Some(format!("an event's time is outside [0, 1]: {e:?}"));
        }
        if !(e.body_a < e.body_b && ids.contains(&e.body_a) && ids.contains(&e.body_b)) {
            return Some(format!(
                "an event names bodies out of order or unknown: {e:?}"
            ));
        }
    }
    if w.contact_count() != w.events().len() {
        return Some(format!(
            "contact_count {} but {} events",
            w.contact_count(),
            w.events().len()
        ));
    }
    None
}
