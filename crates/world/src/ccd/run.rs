//! The event loop of one island: take the earliest event over all its
//! pairs, move the two bodies to it, strike them (one impulse routine in
//! the solver), re-sweep what the strike touched, and go on to the end of
//! the step.
//!
//! # Method
//! 1. Every candidate pair of the island's movers is asked for its first
//!    time of impact over the step (`parapet_narrow::moving::time_of_impact`,
//!    target: the pair's impact gap, [`super::tolerances`]); each hit is an
//!    event in the island's queue ([`super::queue`]).
//! 2. The earliest event is taken. A pair that is not closing fast (it
//!    would sink less than its held depth by the end of the step at its
//!    present closing speed: a resting, scraping or separating contact,
//!    the discrete solver's, or a pair just struck) is *held* instead:
//!    queried again with its target lowered to its *floor*, one held depth
//!    below touching (or one tolerance below a pair deeper than that), so
//!    that resting boxes and stacks make no event. A pair at its floor
//!    that hardly closes is held a quarter tolerance deeper.
//!    Any other event is an impact: the contact points at that
//!    instant ([`super::contact`]) go to
//!    `parapet_solver::impact::respond_contacts` with both bodies' masses.
//!    A second impact of a body at the same instant is a *cascade* (a body
//!    landing on a resting stack): every contact touching at that instant
//!    among the bodies it reaches is solved in the same call, so that the
//!    impulse crosses the stack at once.
//! 3. A struck mover leaves its path there with its new velocities; its
//!    pairs are queried again from that instant (their held targets
//!    cleared), and its new swept box is searched for new candidates. A
//!    new candidate that is a mover of another island stops this island
//!    ([`IslandFailure::Escape`]): the islands are merged and run again
//!    from the start (`super::islands`).
//!
//! Every event either strikes (and charges an impact to every mover it
//! moves: `ccd_max_impacts`) or holds a pair deeper by its held depth; the
//! loop's events are bounded by a budget besides ([`event_budget`]).
//!
//! # Source
//! docs/continuous-collision.md, "How a step works"; the loop after Box2D's
//! `b2SolveContinuous` and rapier's `CCDSolver` (one routine for every body,
//! what differs is data), with parapet's rules: events in time order, no
//! time lost, several impacts per body and step, rollback on refusal.
//!
//! # Precision domain
//! The arbiter's; times `f64` seconds from the step's start.

use std::collections::HashMap;

use parapet_geometry::Aabbd;
use parapet_math::Vec3d;
use parapet_narrow::moving::{time_of_impact, Hit, Motion, MovingShape, Refusal, Toi, ToiRequest};
use parapet_solver::RigidBody;

use super::bodies::StepBody;
use super::candidates::{overlap, swept_box, BoxIndex};
use super::contact::MANIFOLD_MARGIN;
use super::error::{CcdError, Other};
use super::pressed::leaving_speed;
use super::queue::{Event, EventQueue};
use super::report::Counts;
use super::tolerances::{pair_lengths, PairLengths};

/// What every island reads: the step's bodies at the start, their initial
/// boxes, the pair filter and the limits.
pub(crate) struct Context<'a> {
    /// The step's bodies at the start of the step.
    pub bodies: &'a [StepBody],
    /// Each step body's own state (shape, offset, mesh edges).
    pub rigid: &'a [&'a RigidBody],
    /// The initial swept boxes over the whole step.
    pub boxes: &'a [Aabbd],
    /// The initial boxes, indexed.
    pub index: &'a BoxIndex,
    /// Each step body's island (`usize::MAX`: not a mover).
    pub island_of: &'a [usize],
    /// Each step body's initial candidate partners.
    pub partners: &'a [Vec<usize>],
    /// Whether two step bodies interact (groups, exclusions).
    pub interacts: &'a (dyn Fn(usize, usize) -> bool + Sync),
    /// The step (s).
    pub dt: f64,
    /// `ccd_max_impacts`.
    pub max_impacts: u32,
    /// The arbiter's iteration budget per query (`ccd_max_substeps`).
    pub budget: u32,
}

/// One swept impact between two step bodies.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Impact {
    /// Step time (s).
    pub time: f64,
    /// Body A (step index, a mover).
    pub a: usize,
    /// Body B (step index).
    pub b: usize,
    /// The point (m, world).
    pub point: Vec3d,
    /// Unit normal from B towards A.
    pub normal: Vec3d,
    /// The total impulse on A (N s, world).
    pub impulse: Vec3d,
}

/// What an island did.
#[derive(Debug, Clone, Default)]
pub(crate) struct IslandOutcome {
    /// The struck movers' final states (step index, state).
    pub struck: Vec<(usize, StepBody)>,
    /// The impacts, in the order they happened.
    pub impacts: Vec<Impact>,
    /// The work, counted.
    pub counts: Counts,
    /// The swept boxes the struck movers took after their impacts.
    pub reach: Vec<(usize, Aabbd)>,
    /// Every mover's arbiter iterations (step index, count).
    pub iterations: Vec<(usize, u64)>,
}

/// Why an island stopped.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum IslandFailure {
    /// A mover's new box met movers of these other islands.
    Escape(Vec<usize>),
    /// A refusal.
    Refused(CcdError),
}

impl From<CcdError> for IslandFailure {
    fn from(e: CcdError) -> Self {
        IslandFailure::Refused(e)
    }
}

/// A candidate pair of the island: body `a` (a mover) and body `b`.
#[derive(Debug, Clone)]
pub(crate) struct Pair {
    /// Local index of A.
    pub a: usize,
    /// Local index of B.
    pub b: usize,
    /// Bumped at every query (stale events are skipped).
    pub version: u32,
    /// The held floor (m) of a pair found closing slowly in this step: its
    /// distance then (at most 0) less its held depth. Kept for the step.
    pub floor: Option<f64>,
    /// The target (m) of its queries.
    pub target: f64,
    /// The arbiter's tolerance (m) of its queries: its contact tolerance,
    /// finer after a hold one step of [`PROGRESS_FRACTION`] deeper.
    pub tolerance: f64,
    /// Its lengths.
    pub lengths: PairLengths,
    /// Strikes it took in this step.
    pub strikes: u32,
    /// The step time (s) of its last strike.
    pub last_strike: Option<f64>,
    /// Its strikes at that instant (count).
    pub instant_strikes: u32,
    /// Whether its floor was lowered by its reserve in this step.
    pub reserve_used: bool,
    /// Whether it was found *pressed* in this step: struck again at its
    /// floor, closing no faster than its leaving speed or moved by another
    /// strike since its last (its bodies' motions or its neighbours turn it
    /// back into contact, not a bounce). Its touching points then leave at
    /// a leaving speed in every strike that takes them, its own or one
    /// that gathers it (a walker pressed between a turning car and a bus).
    pub pressed: bool,
    /// The least speed (m/s) its touching points leave at for the rest of
    /// the step once it was found sinking at its promised depth with no
    /// contact point closing (0 before): twice that sinking speed.
    pub promise_leave: f64,
    /// Its bodies' impacts (count, A's and B's) just after its last
    /// strike: more now means another strike moved them since.
    pub impacts_mark: u32,
    /// The step time (s) and gap (m) of its last hit taken: its sinking
    /// rate by the arbiter's measure is read from the next one.
    pub taken: Option<(f64, f64)>,
    /// The hit of its last query.
    pub hit: Option<Hit>,
    /// The step time (s) of that hit (infinite: none).
    pub hit_at: f64,
}

/// How many times a query that spends its budget is asked again over half
/// its window (count): 8, down to 1/256 of the window. Each retry costs at
/// most a budget's iterations, so a query costs at most nine budgets; a
/// query that spends its budget over 1/256 of its window is refused
/// (`StepError::SubstepLimit`).
pub const WINDOW_HALVINGS: u32 = 8;

/// The step of a hold that does not lower a pair to its floor, as a
/// fraction of its contact tolerance (dimensionless): 1/4. Small, so that
/// a pair struck again and again at its floor (a micro-collision each
/// time) sinks by a quarter of a tolerance per strike; not smaller, since
/// the query of each step takes a tolerance of half the step (finer
/// tolerances cost iterations).
pub const PROGRESS_FRACTION: f64 = 1.0 / 4.0;

/// The contact tolerances (count) by which a pair that reached its held
/// floor and hardly closes there is let sink further once per step: 8,
/// half of [`super::tolerances::DEPTH_TOLERANCES`]. A box sliding and
/// turning on a surface at its floor is then carried through the rest of
/// the step by one query with a margin the arbiter crosses in a few
/// iterations, instead of by holds a fraction of a tolerance apart.
pub const RESERVE_TOLERANCES: f64 = 8.0;

/// The deepest (m, below touching) a hold takes a pair: one tolerance short
/// of its promised depth, which leaves the arbiter's tolerance band and one
/// last hold of a pair struck there with nothing closing.
fn hold_limit(lengths: &PairLengths) -> f64 {
    lengths.promised - lengths.tolerance
}

/// The deepest floor (m) a pair's reserve may lower it to: its held depth
/// and [`RESERVE_TOLERANCES`] tolerances below touching.
fn deepest_floor(lengths: &PairLengths) -> f64 {
    -lengths.held - RESERVE_TOLERANCES * lengths.tolerance
}

/// The held floor (m) of a pair at distance `gap` (m), and whether its
/// reserve is spent by it: its held depth below touching; for a pair
/// already deeper (from an earlier step, before the discrete solver's
/// correction), its reserve below where it is but never below the deepest
/// floor ([`deepest_floor`]), or, a pair at that depth already, one
/// tolerance below where it is; never below the promised depth (a pair
/// there already is at its floor).
fn floor_below(gap: f64, lengths: &PairLengths) -> (f64, bool) {
    let reserve = RESERVE_TOLERANCES * lengths.tolerance;
    if gap - reserve >= -lengths.held {
        return (-lengths.held, false);
    }
    let floor = (gap - reserve).max(deepest_floor(lengths));
    let floor = floor.min(gap - lengths.tolerance).max(-hold_limit(lengths));
    (floor.min(gap), true)
}

/// The island's working state.
pub(crate) struct Island<'c, 'a> {
    pub(crate) ctx: &'c Context<'a>,
    /// The island's bodies (its movers first, then the others it met).
    pub(crate) bodies: Vec<StepBody>,
    /// Step index of each local body.
    pub(crate) global: Vec<usize>,
    local: HashMap<usize, usize>,
    pub(crate) pairs: Vec<Pair>,
    /// Pair indices of each local body.
    pub(crate) pairs_of: Vec<Vec<usize>>,
    pair_at: HashMap<(usize, usize), usize>,
    /// Each local mover's current box.
    boxes: Vec<Aabbd>,
    queue: EventQueue,
    pub(crate) outcome: IslandOutcome,
    struck: Vec<bool>,
    /// The kinetic energy (J, `>= 0`) the island's strikes took so far in
    /// this step, less what pressed pairs' leaving speeds gave back: what
    /// a pressed strike may still add, so that the step's strikes never
    /// add energy in total.
    pub(crate) energy_credit: f64,
}

/// The most events one island may take (count): a generous multiple of its
/// pairs and impacts (holds are events too: a body resting on a rough
/// terrain takes a few per pair and step), so that the loop ends even if a
/// pair kept coming back at one instant; beyond it the step is refused
/// (`StepError::EventLimit`).
pub(crate) fn event_budget(pairs: usize, movers: usize, max_impacts: u32) -> u64 {
    256 * (pairs as u64 + 1) + 16 * movers as u64 * (max_impacts as u64 + 1)
}

impl<'c, 'a> Island<'c, 'a> {
    /// The island of the movers `movers` (step indices, ascending) with
    /// their initial candidate pairs.
    pub(crate) fn new(ctx: &'c Context<'a>, movers: &[usize]) -> Self {
        let mut island = Island {
            ctx,
            bodies: Vec::new(),
            global: Vec::new(),
            local: HashMap::new(),
            pairs: Vec::new(),
            pairs_of: Vec::new(),
            pair_at: HashMap::new(),
            boxes: Vec::new(),
            queue: EventQueue::default(),
            outcome: IslandOutcome::default(),
            struck: Vec::new(),
            energy_credit: 0.0,
        };
        for &m in movers {
            island.add_body(m);
        }
        for &m in movers {
            let a = island.local[&m];
            for &p in &ctx.partners[m] {
                let b = island.add_body(p);
                island.add_pair(a, b);
            }
        }
        island
    }

    /// The local index of step body `g`, added if new.
    fn add_body(&mut self, g: usize) -> usize {
        if let Some(&l) = self.local.get(&g) {
            return l;
        }
        let l = self.bodies.len();
        self.bodies.push(self.ctx.bodies[g].clone());
        self.global.push(g);
        self.local.insert(g, l);
        self.pairs_of.push(Vec::new());
        self.boxes.push(self.ctx.boxes[g]);
        self.struck.push(false);
        l
    }

    /// The pair of local bodies `x` and `y` (A the mover, the lower in
    /// insertion order when both are), added if new; `None` when the pair
    /// does not interact or neither is a mover.
    fn add_pair(&mut self, x: usize, y: usize) -> Option<usize> {
        let (bx, by) = (&self.bodies[x], &self.bodies[y]);
        let (a, b) = match (bx.role.is_mover(), by.role.is_mover()) {
            (true, true) if bx.order <= by.order => (x, y),
            (true, true) | (false, true) => (y, x),
            (true, false) => (x, y),
            (false, false) => return None,
        };
        if let Some(&p) = self.pair_at.get(&(a, b)) {
            return Some(p);
        }
        if a == b || !(self.ctx.interacts)(self.global[a], self.global[b]) {
            return None;
        }
        let lengths = pair_lengths(self.bodies[a].swept.inner, self.bodies[b].swept.inner);
        let p = self.pairs.len();
        self.pairs.push(Pair {
            a,
            b,
            version: 0,
            floor: None,
            target: lengths.gap,
            tolerance: lengths.tolerance,
            lengths,
            strikes: 0,
            last_strike: None,
            instant_strikes: 0,
            reserve_used: false,
            pressed: false,
            impacts_mark: 0,
            promise_leave: 0.0,
            taken: None,
            hit: None,
            hit_at: f64::INFINITY,
        });
        self.pair_at.insert((a, b), p);
        self.pairs_of[a].push(p);
        self.pairs_of[b].push(p);
        Some(p)
    }

    /// The motions of pair `p`'s bodies from step time `t`.
    fn motions(&self, p: usize, t: f64) -> (Motion, Motion) {
        let pair = &self.pairs[p];
        (
            self.bodies[pair.a].motion_from(t),
            self.bodies[pair.b].motion_from(t),
        )
    }

    /// Queries pair `p` from step time `t` and queues its hit.
    ///
    /// # Errors
    /// The arbiter's refusal, naming mover A and the other side.
    pub(crate) fn query(&mut self, p: usize, t: f64) -> Result<(), CcdError> {
        let dt = self.ctx.dt;
        let (ma, mb) = self.motions(p, t);
        let pair = &self.pairs[p];
        let target = pair.target;
        let (a, b) = (&self.bodies[pair.a], &self.bodies[pair.b]);
        // The window from `t` to the step's end; a query that spends its
        // budget is asked again over the first half of its window, down to
        // WINDOW_HALVINGS times: a clear answer over a shortened window is
        // certified as far as it goes, and the pair is asked again from
        // there (a resume event), so that a grinding contact the arbiter
        // certifies only in short steps costs events, not a refusal.
        let mut window = (dt - t).max(0.0);
        let mut spent = 0u64;
        let mut halvings = 0;
        let toi = loop {
            let request =
                ToiRequest::new(0.0, window, target, pair.tolerance).with_budget(self.ctx.budget);
            match time_of_impact(&a.swept.shape, &ma, &b.swept.shape, &mb, &request) {
                Err(Refusal::WorkBudget { iterations, .. }) if halvings < WINDOW_HALVINGS => {
                    spent += u64::from(iterations);
                    halvings += 1;
                    window *= 0.5;
                }
                answer => {
                    break answer.map_err(|refusal| {
                        CcdError::from_refusal(
                            a.slot,
                            Other::Body(b.slot),
                            refusal,
                            self.ctx.budget,
                        )
                    })?
                }
            }
        };
        let mesh = matches!(b.swept.shape.as_ref(), MovingShape::Mesh(_));
        let iterations = spent + toi.iterations() as u64;
        self.outcome.counts.queries += 1;
        self.outcome.counts.iterations += iterations;
        self.outcome.counts.mesh_queries += u64::from(mesh);
        let a = self.pairs[p].a;
        self.bodies[a].iterations += iterations;
        let pair = &mut self.pairs[p];
        pair.version = pair.version.wrapping_add(1);
        pair.hit = toi.hit().copied();
        pair.hit_at = toi.hit().map_or(f64::INFINITY, |h| t + h.time);
        // The pair's next event: its hit, or the end of a shortened window
        // (no hit: a resume, asked again from there).
        let event = match toi {
            Toi::Hit(h) => Some((t + h.time, h.feature_b.triangle)),
            Toi::Clear { .. } if halvings > 0 => Some((t + window, None)),
            Toi::Clear { .. } => None,
        };
        if let Some((time, triangle)) = event {
            let (a, b) = (&self.bodies[pair.a], &self.bodies[pair.b]);
            let (lower, other) = if b.role.is_mover() {
                (a.order.min(b.order), a.order.max(b.order))
            } else {
                (a.order, b.order)
            };
            self.queue.push(Event {
                time: time.min(dt),
                lower,
                kind: if triangle.is_some() { 0 } else { 1 },
                other,
                triangle: triangle.unwrap_or(0),
                pair: p,
                version: pair.version,
            });
        }
        Ok(())
    }

    /// Holds pair `p`, at distance at most `gap` (m) at step time `t`, and
    /// queries it again: down to its held floor (set now, one held depth
    /// below touching or one tolerance below a deeper distance, when it
    /// has none), or, a pair at its floor, a fraction of a tolerance below
    /// its distance.
    fn hold(&mut self, p: usize, t: f64, gap: f64) -> Result<(), CcdError> {
        let pair = &mut self.pairs[p];
        let tol = pair.lengths.tolerance;
        if pair.floor.is_none() {
            let (floor, spent) = floor_below(gap, &pair.lengths);
            pair.floor = Some(floor);
            pair.reserve_used = spent;
        }
        match pair.floor {
            Some(f) if gap > f + tol => (pair.target, pair.tolerance) = (f, tol),
            Some(f) if !pair.reserve_used => {
                pair.reserve_used = true;
                let lowered = (f.min(gap) - RESERVE_TOLERANCES * tol)
                    .max(deepest_floor(&pair.lengths))
                    .min(gap - tol)
                    .max(-hold_limit(&pair.lengths))
                    .min(gap - tol * PROGRESS_FRACTION);
                pair.floor = Some(lowered);
                (pair.target, pair.tolerance) = (lowered, tol);
            }
            _ => {
                // One small step deeper, with a tolerance finer still, so
                // that a pair that does not close is not hit again at once
                // and one pressed at its floor sinks by hardly anything
                // per strike.
                // At the hold limit, the step shrinks to an eighth: the
                // pair is struck whenever it closes there, and a pair struck
                // with nothing closing sinks by hardly anything per hold.
                let from = gap.min(pair.target);
                let mut step = tol * PROGRESS_FRACTION;
                if from - step < -hold_limit(&pair.lengths) {
                    step *= 1.0 / 8.0;
                }
                (pair.target, pair.tolerance) = (from - step, 0.5 * step);
            }
        }
        self.query(p, t)
    }

    /// The closing speed (m/s) of pair `p`'s hit at step time `t`: how fast
    /// A's surface point of the hit approaches B along the normal (A's
    /// point: A is the mover whose deepest or nearest point the arbiter
    /// names, whatever B's side is).
    fn closing(&self, p: usize, t: f64, hit: &Hit) -> f64 {
        let pair = &self.pairs[p];
        let (a, b) = (&self.bodies[pair.a], &self.bodies[pair.b]);
        let at = hit.point_a;
        let va = a.motion.velocity_at(t - a.since, &at);
        let vb = if b.swept.world_frame {
            Vec3d::zeros()
        } else {
            b.motion.velocity_at(t - b.since, &at)
        };
        -hit.normal.dot(&(va - vb))
    }

    /// A bound (m/s) of how fast any point of pair `p`'s bodies moves
    /// relative to the other: `|v_a − v_b| + |ω_a| r_a + |ω_b| r_b`.
    pub(crate) fn relative_speed(&self, p: usize) -> f64 {
        let pair = &self.pairs[p];
        let (a, b) = (&self.bodies[pair.a], &self.bodies[pair.b]);
        let spin = |x: &StepBody| {
            let w = x.motion.spin.norm();
            if w == 0.0 {
                0.0
            } else {
                w * x.reach
            }
        };
        let v = (a.motion.velocity - b.motion.velocity).norm();
        v + spin(a) + spin(b)
    }

    /// Re-sweeps local mover `m` struck at step time `t`: its new box, new
    /// candidates, and every pair of it queried again.
    ///
    /// # Errors
    /// [`IslandFailure::Escape`] when its box meets another island's mover;
    /// an arbiter refusal.
    pub(crate) fn resweep(&mut self, m: usize, t: f64) -> Result<(), IslandFailure> {
        let dt = self.ctx.dt;
        let b = swept_box(&self.bodies[m], t, dt);
        self.boxes[m] = b;
        self.outcome.reach.push((self.global[m], b));
        let mut found = Vec::new();
        self.ctx.index.query(self.ctx.boxes, &b, &mut found);
        let own = self.ctx.island_of[self.global[m]];
        let mut escaped: Vec<usize> = Vec::new();
        for &g in &found {
            if g == self.global[m] {
                continue;
            }
            let island = self.ctx.island_of[g];
            if island != usize::MAX && island != own {
                if (self.ctx.interacts)(self.global[m], g) {
                    escaped.push(island);
                }
                continue;
            }
            if island == own {
                continue; // a mover of this island: its current box below
            }
            let l = self.add_body(g);
            self.add_pair(m, l);
        }
        if !escaped.is_empty() {
            escaped.sort_unstable();
            escaped.dedup();
            return Err(IslandFailure::Escape(escaped));
        }
        for other in 0..self.bodies.len() {
            if other != m && self.bodies[other].role.is_mover() && overlap(&self.boxes[other], &b) {
                self.add_pair(m, other);
            }
        }
        for k in 0..self.pairs_of[m].len() {
            let p = self.pairs_of[m][k];
            let pair = &mut self.pairs[p];
            pair.target = pair.lengths.gap;
            pair.tolerance = pair.lengths.tolerance;
            self.query(p, t)?;
        }
        Ok(())
    }

    /// Runs the island to the end of the step.
    pub(crate) fn run(mut self) -> Result<IslandOutcome, IslandFailure> {
        for p in 0..self.pairs.len() {
            self.query(p, 0.0)?;
        }
        let budget = event_budget(self.pairs.len(), self.bodies.len(), self.ctx.max_impacts);
        let mut taken = 0u64;
        loop {
            let versions: Vec<u32> = self.pairs.iter().map(|p| p.version).collect();
            let Some(event) = self.queue.pop(|p| versions[p]) else {
                break;
            };
            taken += 1;
            self.outcome.counts.events += 1;
            if taken > budget {
                let a = &self.bodies[self.pairs[event.pair].a];
                return Err(IslandFailure::Refused(CcdError::EventLimit {
                    body: a.slot,
                    events: taken.min(u32::MAX as u64) as u32,
                    limit: budget.min(u32::MAX as u64) as u32,
                }));
            }
            self.take(event)?;
        }
        let mut outcome = std::mem::take(&mut self.outcome);
        for (l, b) in self.bodies.iter().enumerate() {
            if b.role.is_mover() {
                outcome.iterations.push((self.global[l], b.iterations));
            }
        }
        for (l, struck) in self.struck.iter().enumerate() {
            if *struck {
                outcome
                    .struck
                    .push((self.global[l], self.bodies[l].clone()));
            }
        }
        Ok(outcome)
    }

    /// Takes one event (module docs, step 2).
    fn take(&mut self, event: Event) -> Result<(), IslandFailure> {
        let p = event.pair;
        let t = event.time;
        let Some(hit) = self.pairs[p].hit else {
            // A current event without a hit is a resume: the pair's last
            // window was shortened; it is asked again from its end.
            self.outcome.counts.holds += 1;
            return Ok(self.query(p, t)?);
        };
        let closing = self.closing(p, t, &hit);
        let lengths = self.pairs[p].lengths;
        // How far the pair would sink by the end of the step at its present
        // closing speed decides: less than its held depth and not at its
        // held floor yet, held down to that floor (a resting, scraping or
        // separating contact: the discrete solver's); at its floor and
        // hardly closing, held a small step deeper; anything more, struck.
        let sink = closing * (self.ctx.dt - t);
        // How fast the arbiter's measure of the pair sank since its last
        // hit taken (m/s, 0 without one): a turning body brings new points
        // deeper although the hit's own point may be leaving.
        let sinking = match self.pairs[p].taken {
            Some((t0, g0)) if t > t0 => ((g0 - hit.gap) / (t - t0)).max(0.0),
            _ => 0.0,
        };
        self.pairs[p].taken = Some((t, hit.gap));
        let at_floor = self.pairs[p]
            .floor
            .is_some_and(|f| hit.gap <= f + lengths.tolerance);
        // At the promised depth, a pair at its floor is struck however
        // slowly it closes: no hold takes it deeper.
        let at_promise = hit.gap - lengths.tolerance * PROGRESS_FRACTION < -hold_limit(&lengths);
        let hardly = !(sink > lengths.tolerance) && !at_promise;
        if (!at_floor && !(sink > lengths.held)) || (at_floor && hardly) {
            self.outcome.counts.holds += 1;
            return Ok(self.hold(p, t, hit.gap)?);
        }
        if at_floor && self.pairs[p].last_strike.is_some() {
            // Struck again at its floor, closing no faster than it would
            // leave (its own motions turn it back into contact), or moved
            // by another strike since its last (its neighbours press it
            // back: a walker between a car and a bus): pressed (module docs
            // of `super::impact`). A pair that closes faster with nothing
            // else struck came back from a bounce: an impact.
            let pair = &self.pairs[p];
            let moved =
                self.bodies[pair.a].impacts + self.bodies[pair.b].impacts > pair.impacts_mark;
            let a = self.hit_acceleration(p, t, &hit);
            let leave = leaving_speed(pair.lengths.held, a, self.ctx.dt - t);
            if moved || closing <= leave {
                self.pairs[p].pressed = true;
            }
        }
        let rate = closing.max(sinking);
        if at_promise && rate > 0.0 {
            // At its promised depth and still sinking by the arbiter's
            // measure (the hit's point closing, or the measure itself
            // falling since the last hit: a spinning hull's next corner):
            // its touching points leave at twice the sinking speed
            // (`Pair::promise_leave`), so that no hold takes it deeper. A
            // strike that only stopped them (a sphere against a box
            // spinning at 22 rad/s) let the spin bring them back at once,
            // and each hold then went a fraction of a tolerance deeper:
            // 10.6 µm beyond the promise within one step.
            let pair = &mut self.pairs[p];
            pair.promise_leave = pair.promise_leave.max(2.0 * rate);
        }
        let struck = self.strike(p, t, &hit, MANIFOLD_MARGIN)?;
        let (a, b) = (self.pairs[p].a, self.pairs[p].b);
        let own = struck.contains(&a) || struck.contains(&b);
        // Closing at its floor along the bodies' paths, with nothing the
        // impulse routine counts as closing between the pair's own bodies:
        // what closes is a mover's split (pose-only) part, the discrete
        // solver's motion that its velocities do not carry (a walker the
        // substeps accelerated up to a bus's speed moves slower on average
        // than it ends; a body placed inside another, pushed out into a
        // wall). No impulse can stop it, and each hold would go a fraction
        // of a tolerance deeper, past the promise. The split is spent
        // instead: from `t` the mover moves at its velocities, which do not
        // close here.
        let split: Vec<usize> = if !own && at_floor && closing > 0.0 {
            [a, b]
                .into_iter()
                .filter(|&m| self.bodies[m].has_split())
                .collect()
        } else {
            Vec::new()
        };
        if struck.is_empty() && split.is_empty() {
            self.outcome.counts.holds += 1;
            return Ok(self.hold(p, t, hit.gap)?);
        }
        let pair = &mut self.pairs[p];
        if pair.floor.is_none() && !(sink > 2.0 * lengths.held) {
            // Struck slowly: a scraping or pressing contact; it may sink
            // to a floor before its next strike (a micro-collision then
            // meets it at the speed it left with).
            let (floor, spent) = floor_below(hit.gap, &lengths);
            pair.floor = Some(floor);
            pair.reserve_used = spent;
        }
        for m in struck {
            self.struck[m] = true;
            self.resweep(m, t)?;
        }
        if !split.is_empty() {
            // The spent movers' re-sweeps query this pair again.
            self.outcome.counts.holds += 1;
            for m in split {
                let (v, w) = self.bodies[m].velocities;
                self.bodies[m].strike(t, v, w);
                self.struck[m] = true;
                self.resweep(m, t)?;
            }
        } else if !own {
            // The strike changed only bodies it gathered (a cascade whose
            // impulses leave this pair's own mover as it was): no re-sweep
            // queried this pair again, and its event is taken, so it is
            // held as when nothing was struck; otherwise its later hits
            // (the next wall) would never be found.
            self.outcome.counts.holds += 1;
            self.hold(p, t, hit.gap)?;
        }
        Ok(())
    }
}
