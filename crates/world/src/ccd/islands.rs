//! Independent islands in parallel, and the merging of islands whose bodies
//! turned out to meet: the same result on any number of threads.
//!
//! # Method
//! Each island runs its event loop on its own copy of its bodies
//! ([`super::run::Island`]), reading only the step's start state, so
//! islands can run in any order and in parallel; results are taken in
//! island order. An island whose struck mover's new box meets a mover of
//! another island stops (`Escape`); and after a round, the boxes the
//! struck movers of different islands took are compared (two islands'
//! new paths could meet where neither met the other's start). Islands that
//! meet are merged (the lowest island number names the union) and run
//! again from the start of the step, the others keep their results; the
//! rounds end when no island meets another. Since islands only grow, the
//! rounds end; since every round depends only on the step's start state
//! and the island partition, the result does not depend on the threads.
//!
//! # Source
//! docs/continuous-collision.md, "How a step works" (islands).
//!
//! # Precision domain
//! None beyond the loop's.

use parapet_geometry::Aabbd;

use super::candidates::overlap;
use super::error::CcdError;
use super::run::{Context, Island, IslandFailure, IslandOutcome};

/// Movers from which the islands of a round run in parallel (count): 64.
/// An island of a few movers costs microseconds, a hand-over to rayon's
/// workers tens on a loaded machine. Results never depend on it.
pub const PARALLEL_MOVERS: usize = 64;

/// The outcome of every island: each one's result in island order (the
/// islands as finally merged).
pub(crate) struct Rounds {
    /// Each island's movers (step indices, ascending).
    pub islands: Vec<Vec<usize>>,
    /// Each island's result.
    pub results: Vec<Result<IslandOutcome, CcdError>>,
    /// Rounds after the first (islands merged and run again).
    pub reruns: u32,
}

/// A union-find over island numbers.
fn find(parent: &mut [usize], mut x: usize) -> usize {
    while parent[x] != x {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    x
}

/// Runs the islands `islands` (movers by step index) of `ctx` until no two
/// meet (module docs). `ctx.island_of` is replaced by each round's.
pub(crate) fn run_islands(ctx: &Context<'_>, mut islands: Vec<Vec<usize>>) -> Rounds {
    let mut island_of: Vec<usize> = ctx.island_of.to_vec();
    let mut results: Vec<Option<Result<IslandOutcome, IslandFailure>>> =
        islands.iter().map(|_| None).collect();
    let mut reruns = 0u32;
    loop {
        let round = Context {
            island_of: &island_of,
            ..*ctx
        };
        let pending: Vec<usize> = (0..islands.len())
            .filter(|&i| results[i].is_none())
            .collect();
        let movers: usize = pending.iter().map(|&i| islands[i].len()).sum();
        let run = |&i: &usize| Island::new(&round, &islands[i]).run();
        let done: Vec<Result<IslandOutcome, IslandFailure>> = if pending.len() >= 2
            && movers >= PARALLEL_MOVERS
            && rayon::current_num_threads() > 1
        {
            use rayon::prelude::*;
            pending.par_iter().map(run).collect()
        } else {
            pending.iter().map(run).collect()
        };
        for (i, r) in pending.into_iter().zip(done) {
            results[i] = Some(r);
        }
        // Which islands meet: escapes, and struck boxes of two islands.
        let n = islands.len();
        let mut parent: Vec<usize> = (0..n).collect();
        let mut merged = false;
        let mut join = |parent: &mut Vec<usize>, a: usize, b: usize| {
            let (ra, rb) = (find(parent, a), find(parent, b));
            if ra != rb {
                parent[ra.max(rb)] = ra.min(rb);
                merged = true;
            }
        };
        let mut reach: Vec<(usize, usize, Aabbd)> = Vec::new();
        for (i, r) in results.iter().enumerate() {
            match r {
                Some(Err(IslandFailure::Escape(others))) => {
                    for &o in others {
                        join(&mut parent, i, o);
                    }
                }
                Some(Ok(out)) => reach.extend(out.reach.iter().map(|&(g, b)| (i, g, b))),
                _ => {}
            }
        }
        reach.sort_by(|x, y| x.2.min.x.total_cmp(&y.2.min.x).then(x.1.cmp(&y.1)));
        for k in 0..reach.len() {
            for l in k + 1..reach.len() {
                if reach[l].2.min.x > reach[k].2.max.x {
                    break;
                }
                let ((i, gi, bi), (j, gj, bj)) = (reach[k], reach[l]);
                if i != j && overlap(&bi, &bj) && (ctx.interacts)(gi, gj) {
                    join(&mut parent, i, j);
                }
            }
        }
        if !merged {
            break;
        }
        reruns += 1;
        // Merge: the root island keeps its number's place; merged islands
        // are run again, the others keep their results.
        let mut next: Vec<Vec<usize>> = Vec::new();
        let mut next_results = Vec::new();
        let mut number = vec![usize::MAX; n];
        for i in 0..n {
            let r = find(&mut parent, i);
            if number[r] == usize::MAX {
                number[r] = next.len();
                next.push(Vec::new());
                next_results.push(None);
            }
            let k = number[r];
            next[k].extend(islands[i].iter().copied());
            let alone = (0..n).filter(|&j| find(&mut parent, j) == r).count() == 1;
            if alone {
                next_results[k] = results[i].take();
            }
        }
        for (k, members) in next.iter_mut().enumerate() {
            members.sort_unstable();
            for &m in members.iter() {
                island_of[m] = k;
            }
        }
        islands = next;
        results = next_results;
    }
    let results = results
        .into_iter()
        .map(|r| match r {
            Some(Ok(out)) => Ok(out),
            Some(Err(IslandFailure::Refused(e))) => Err(e),
            // Unreachable after the last round (no escape is left), kept
            // total: an island that did not run has nothing to report.
            Some(Err(IslandFailure::Escape(_))) | None => Ok(IslandOutcome::default()),
        })
        .collect();
    Rounds {
        islands,
        results,
        reruns,
    }
}
