//! The sensor stage of a step ([`run`]), after the integration: every pair
//! of a sensor and a body that can have reached it within the step,
//! classified by [`super::touch::classify`], in both modes.
//!
//! # Method
//! 1. Every sensor that collides gets its [`Track`] (its moving shape from
//!    the continuous step's shape cache, its path, its swept box); the
//!    sensors are indexed by their boxes.
//! 2. Every other body that collides is first screened without its track:
//!    one that kept still while every sensor did is skipped (two bodies
//!    that did not move were inside each other at the start exactly when
//!    at the end: no event); one the continuous step did not strike, whose
//!    shape is not a mesh, is skipped when its [`reach_box`] (its mass
//!    centre's segment through the step grown by its shape's reach, a few
//!    operations) meets no sensor it interacts with. The box contains
//!    everything the body covers grown by the candidates' growth, so no
//!    pair within the arbiter's tolerance of touching is lost; a skipped
//!    body is never asked of, nor refused for, a shape the arbiter cannot
//!    move.
//! 3. The remaining bodies get their tracks. A pair is a candidate when
//!    the two interact (collisions on, collision groups, exclusions:
//!    `crate::filters`), their swept boxes overlap and at least one of
//!    them moved.
//! 4. Each candidate is classified (in parallel when there are many; the
//!    results are taken in pair order), and its event, if any, is kept
//!    with its time as a fraction of the step, rounded down for entering
//!    and crossing (never later) and up for leaving (never earlier).
//! 5. Events are sorted by (sensor, body) in insertion order, then time,
//!    then kind; an arbiter refusal refuses the step, naming the body and
//!    the sensor.
//!
//! # Source
//! docs/continuous-collision.md, "Filters and sensors".
//!
//! # Precision domain
//! The arbiter's.

use parapet_geometry::Aabbd;
use parapet_narrow::moving::{Motion, Refusal};

use super::touch::{classify, PairQuery};
use super::track::{reach_box, StartPoses, Track};
use super::{SensorEvent, SensorEventKind};
use crate::ccd::candidates::BoxIndex;
use crate::ccd::error::{CcdError, Other};
use crate::ccd::tolerances::pair_lengths;
use crate::step::check::{positions, refusal_of, Refusal as StepRefusal};
use crate::PhysicsWorld;

/// Candidate pairs from which the sensor stage classifies in parallel
/// (count): 64. A pair costs a few microseconds, a hand-over to rayon's
/// workers tens on a loaded machine. Results never depend on it.
pub(crate) const PARALLEL_SENSOR_PAIRS: usize = 64;

/// The step's error for an arbiter refusal of the pair (`body`, `sensor`),
/// by slot, with the query budget `limit`.
fn refused(body: usize, sensor: usize, refusal: Refusal, limit: u32) -> CcdError {
    match refusal {
        Refusal::WorkBudget { iterations, .. } => CcdError::SubstepLimit {
            body,
            substeps: iterations,
            limit,
        },
        refusal => CcdError::TimeOfImpact {
            body,
            other: Other::Body(sensor),
            refusal,
        },
    }
}

/// `t / dt` as an `f32` in `[0, 1]`, rounded down (`up == false`) or up.
fn fraction(t: f64, dt: f64, up: bool) -> f32 {
    let f = (t / dt).clamp(0.0, 1.0);
    let r = f as f32;
    let r = if up && (r as f64) < f {
        r.next_up()
    } else if !up && (r as f64) > f {
        r.next_down()
    } else {
        r
    };
    r.clamp(0.0, 1.0)
}

/// The step's bodies as the stage sees them: the tracks it built, the
/// sensors among them and the candidate pairs, with the refusals of the
/// bodies whose shapes the arbiter cannot move.
struct Gathered<'a> {
    tracks: Vec<Track<'a>>,
    /// Indices into `tracks` of the sensors, in insertion order.
    sensors: Vec<usize>,
    /// (sensor's index in `sensors`, body's index in `tracks`).
    pairs: Vec<(usize, usize)>,
    errors: Vec<CcdError>,
}

/// Every track the stage needs and the candidate pairs: the sensors' tracks
/// first; then each other body that collides, skipped when it cannot
/// have met a sensor (it and every sensor kept still; or, not struck by
/// the continuous step and not a mesh, its [`reach_box`] meets no sensor
/// it interacts with) before its track is built.
fn gather<'a>(
    world: &mut PhysicsWorld,
    starts: &StartPoses,
    paths: &'a [(usize, Vec<(f64, Motion)>)],
    dt: f64,
) -> Gathered<'a> {
    let mut shapes = std::mem::take(&mut world.ccd_shapes);
    let mut struck: Vec<Option<&'a [(f64, Motion)]>> = vec![None; world.slots.len()];
    for (slot, path) in paths {
        if let Some(s) = struck.get_mut(*slot) {
            *s = Some(path.as_slice());
        }
    }
    let mut out = Gathered {
        tracks: Vec::new(),
        sensors: Vec::new(),
        pairs: Vec::new(),
        errors: Vec::new(),
    };
    let mut track = |e: &crate::entry::Entry, order: usize, out: &mut Gathered<'a>| {
        let slot = e.id.index() as usize;
        let start = starts.get(slot)?;
        match shapes.get(e) {
            Ok(swept) => {
                let t = Track::new((slot, e.id, order), &e.body, swept, start, struck[slot], dt);
                out.tracks.push(t);
                Some(out.tracks.len() - 1)
            }
            Err(refusal) => {
                out.errors.push(CcdError::TimeOfImpact {
                    body: slot,
                    other: Other::None,
                    refusal,
                });
                None
            }
        }
    };
    for (order, e) in world.entries().enumerate() {
        if e.body.is_sensor() && e.body.collides() {
            if let Some(k) = track(e, order, &mut out) {
                out.sensors.push(k);
            }
        }
    }
    let sensor_moves = out.sensors.iter().any(|&k| out.tracks[k].moves);
    let boxes: Vec<Aabbd> = out.sensors.iter().map(|&k| out.tracks[k].bounds).collect();
    let index = BoxIndex::new(&boxes, |_| false);
    let sensor_body = |out: &Gathered<'_>, k: usize| {
        let t = &out.tracks[out.sensors[k]];
        (
            t.id,
            &world.slots[t.slot].as_ref().expect("a live slot").body,
        )
    };
    let mut found = Vec::new();
    for (order, e) in world.entries().enumerate() {
        let slot = e.id.index() as usize;
        let body = &e.body;
        let Some(start) = starts.get(slot) else {
            continue;
        };
        if body.is_sensor() || !body.collides() {
            continue;
        }
        let interacts = |out: &Gathered<'_>, k: usize| {
            let (sid, sensor) = sensor_body(out, k);
            world.pair_interacts(sid, sensor, e.id, body)
        };
        if struck[slot].is_none() {
            if !sensor_moves && start.is_at(body) {
                continue;
            }
            if let Some(reach) = reach_box(body, start) {
                index.query(&boxes, &reach, &mut found);
                if !found.iter().any(|&k| interacts(&out, k)) {
                    continue;
                }
            }
        }
        let Some(b) = track(e, order, &mut out) else {
            continue;
        };
        index.query(&boxes, &out.tracks[b].bounds, &mut found);
        for &k in &found {
            if (out.tracks[b].moves || out.tracks[out.sensors[k]].moves) && interacts(&out, k) {
                out.pairs.push((k, b));
            }
        }
    }
    shapes.truncate(world.slots.len());
    world.ccd_shapes = shapes;
    out.pairs.sort_by_key(|&(k, b)| (k, out.tracks[b].order));
    out
}

/// The sensor events of a step of `dt` seconds whose bodies started at
/// `starts` (`None`: no sensor, no work) and whose struck bodies took
/// `paths` (`CcdOutcome::paths`); the world is at the end of the step.
///
/// # Errors
/// Every refusal of the stage, in insertion order of the bodies they name.
pub(crate) fn run(
    world: &mut PhysicsWorld,
    dt: f32,
    starts: Option<&StartPoses>,
    paths: &[(usize, Vec<(f64, Motion)>)],
) -> Result<Vec<SensorEvent>, Vec<StepRefusal>> {
    let Some(starts) = starts else {
        return Ok(Vec::new());
    };
    let h = dt as f64;
    let Gathered {
        tracks,
        sensors,
        pairs,
        mut errors,
    } = gather(world, starts, paths, h);
    let world: &PhysicsWorld = world;
    let budget = world.ccd_max_substeps;
    let ask = |&(k, b): &(usize, usize)| {
        let (body, sensor) = (&tracks[b], &tracks[sensors[k]]);
        let pair = PairQuery {
            body,
            sensor,
            tolerance: pair_lengths(body.inner, sensor.inner).tolerance,
            budget,
            dt: h,
        };
        classify(&pair).map_err(|r| refused(body.slot, sensor.slot, r, budget))
    };
    let answers: Vec<_> =
        if pairs.len() >= PARALLEL_SENSOR_PAIRS && rayon::current_num_threads() > 1 {
            use rayon::prelude::*;
            pairs.par_iter().map(ask).collect()
        } else {
            pairs.iter().map(ask).collect()
        };
    let mut events = Vec::new();
    for (&(k, b), answer) in pairs.iter().zip(answers) {
        match answer {
            Ok(Some((kind, t))) => events.push(SensorEvent {
                sensor: tracks[sensors[k]].id,
                body: tracks[b].id,
                kind,
                time: fraction(t, h, kind == SensorEventKind::Left),
            }),
            Ok(None) => {}
            Err(e) => errors.push(e),
        }
    }
    if !errors.is_empty() {
        let at = positions(world);
        let mut list: Vec<StepRefusal> = errors.into_iter().map(|e| refusal_of(e, world)).collect();
        list.sort_by_key(|r| at[r.slot]);
        return Err(list);
    }
    Ok(events)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Fractions are rounded towards the side the event promises, and stay
    /// in `[0, 1]`.
    #[test]
    fn fractions_round_down_for_entering_and_up_for_leaving() {
        let dt = 1.0 / 60.0;
        let t = dt / 3.0;
        let (down, up) = (fraction(t, dt, false), fraction(t, dt, true));
        assert!((down as f64) <= t / dt && (up as f64) >= t / dt);
        assert_eq!(up, down.next_up());
        assert_eq!(fraction(2.0 * dt, dt, true), 1.0);
        assert_eq!(fraction(-1.0, dt, false), 0.0);
    }
}
