//! What one body did to one sensor in a step ([`classify`]): inside at the
//! start, inside at the end, touching in between, and when, each answered
//! by the one time-of-impact arbiter ([`time_of_impact`]).
//!
//! # Method
//! - **Inside** at an instant: the arbiter on the two shapes fixed at
//!   their poses then, over an empty window, with target `−tol`: a hit
//!   whose gap is at most 0 means the shapes overlap. The end of one step
//!   and the start of the next ask this of the same poses, so a body is
//!   never inside at one and outside at the other.
//! - **First touch**: the arbiter over the step, target 0 (touching),
//!   piece by piece of the two paths (each window runs from one change of
//!   motion of either body to the next): the first hit's time, never later
//!   than the first time the gap reaches 0.
//! - **Last touch**: the same on the reversed motions, from the end of the
//!   step backwards (each motion started at its window's end pose, its
//!   velocity and spin negated): the first hit backwards is the last touch
//!   forwards, never earlier than it.
//! - Outside at the start: `Entered` when inside at the end, `Crossed` when
//!   outside at the end but touched, at the first touch. Inside at the
//!   start and outside at the end: `Left`, at the last touch. Inside at
//!   both: nothing, whatever happened between.
//!
//! A hit is a gap within the pair's tolerance (`tol`, the continuous
//! step's, [`crate::ccd::tolerances::CONTACT_TOLERANCE`] scaled down for
//! small shapes): a body passing that close to a sensor counts as touching
//! it. Mesh triangles are one-sided, as everywhere in the arbiter.
//!
//! # Source
//! docs/continuous-collision.md, "Filters and sensors".
//!
//! # Precision domain
//! The arbiter's ([`parapet_narrow::moving::domain`]): outside it the
//! query is refused, and so is the step.

use parapet_narrow::moving::{time_of_impact, Motion, Refusal, Toi, ToiRequest};

use super::track::{rebased, Track};
use super::SensorEventKind;

/// One (body, sensor) pair of a step and how it is asked.
#[derive(Debug, Clone, Copy)]
pub(crate) struct PairQuery<'t, 'a> {
    /// The body (side A of every query).
    pub body: &'t Track<'a>,
    /// The sensor (side B).
    pub sensor: &'t Track<'a>,
    /// The pair's tolerance (m).
    pub tolerance: f64,
    /// Advancement iterations one query may take.
    pub budget: u32,
    /// The step's length (s).
    pub dt: f64,
}

impl PairQuery<'_, '_> {
    fn query(&self, mb: &Motion, ms: &Motion, window: f64, target: f64) -> Result<Toi, Refusal> {
        let request = ToiRequest::new(0.0, window, target, self.tolerance).with_budget(self.budget);
        time_of_impact(&self.body.shape, mb, &self.sensor.shape, ms, &request)
    }

    /// Whether the two overlap at the step's start (or end).
    fn inside(&self, at_end: bool) -> Result<bool, Refusal> {
        let (b, s) = if at_end {
            (&self.body.end, &self.sensor.end)
        } else {
            (&self.body.start, &self.sensor.start)
        };
        Ok(match self.query(b, s, 0.0, -self.tolerance)? {
            Toi::Hit(h) => h.gap <= 0.0,
            Toi::Clear { .. } => false,
        })
    }

    /// The step times at which either body's motion changes, with 0 and
    /// the step's end, ascending and distinct.
    fn breaks(&self) -> Vec<f64> {
        let mut at: Vec<f64> = self
            .body
            .pieces()
            .iter()
            .chain(self.sensor.pieces())
            .map(|p| p.0.clamp(0.0, self.dt))
            .chain([0.0, self.dt])
            .collect();
        at.sort_by(f64::total_cmp);
        at.dedup();
        at
    }

    /// The first step time at which the two touch, if they do.
    fn first_touch(&self) -> Result<Option<f64>, Refusal> {
        for w in self.breaks().windows(2) {
            let (a, b) = (w[0], w[1]);
            let mb = self.body.motion_from(a);
            let ms = self.sensor.motion_from(a);
            if let Toi::Hit(h) = self.query(&mb, &ms, b - a, 0.0)? {
                return Ok(Some(a + h.time));
            }
        }
        Ok(None)
    }

    /// The last step time at which the two touch, if they do.
    fn last_touch(&self) -> Result<Option<f64>, Refusal> {
        for w in self.breaks().windows(2).rev() {
            let (a, b) = (w[0], w[1]);
            let mb = reversed(&self.body.motion_from(a), b - a);
            let ms = reversed(&self.sensor.motion_from(a), b - a);
            if let Toi::Hit(h) = self.query(&mb, &ms, b - a, 0.0)? {
                return Ok(Some(b - h.time));
            }
        }
        Ok(None)
    }
}

/// The motion `m` run backwards from its time `length`: at time `τ` it is
/// where `m` was at `length − τ`.
fn reversed(m: &Motion, length: f64) -> Motion {
    Motion {
        velocity: -m.velocity,
        spin: -m.spin,
        ..rebased(m, length)
    }
}

/// What the pair's body did to its sensor in the step, with the step time
/// (s) the event reports; `None` for no event (module docs).
///
/// # Errors
/// The arbiter's [`Refusal`] of any query.
pub(crate) fn classify(
    pair: &PairQuery<'_, '_>,
) -> Result<Option<(SensorEventKind, f64)>, Refusal> {
    let was_inside = pair.inside(false)?;
    let is_inside = pair.inside(true)?;
    Ok(match (was_inside, is_inside) {
        (true, true) => None,
        (false, inside) => {
            let kind = if inside {
                SensorEventKind::Entered
            } else {
                SensorEventKind::Crossed
            };
            match pair.first_touch()? {
                Some(t) => Some((kind, t)),
                // Inside at the end without a hit on the way (an overlap
                // within the arbiter's rounding at the end): entered by
                // the end.
                None if inside => Some((kind, pair.dt)),
                None => None,
            }
        }
        (true, false) => Some((
            SensorEventKind::Left,
            // Outside at the end without a hit backwards (an overlap
            // within the arbiter's rounding at the start): left at once.
            pair.last_touch()?.unwrap_or(0.0),
        )),
    })
}
