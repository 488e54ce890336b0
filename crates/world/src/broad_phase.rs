//! The primitive broad phase: sort and sweep over world bounds grown by the
//! contact margin (Baraff 1992, "Dynamic simulation of non-penetrating rigid
//! bodies", ch. 7; the single-axis variant of Bullet's `btAxisSweep3`).
//!
//! Bodies with `collides == false` never enter the list, so parked bodies
//! cost no pair scans (see docs/physics.md, "Disabled collisions"). Bounds are sorted by
//! their lower x bound (ties by list position); a sweep keeps the boxes whose
//! x interval is still open and tests y and z against each of them. Pairs in
//! which neither box can move are dropped (static and kinematic bodies do not
//! interact with each other), and so are the pairs a caller's filter refuses
//! ([`overlapping_pairs_where`]: the collision filters). Cost O(n log n + n k)
//! for k boxes open at a time. The output is sorted, so it does not depend on
//! the sort's tie order.

use parapet_geometry::Aabbd;

/// One box of the broad phase: its bounds and whether its body can take
/// impulses (dynamic).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct BroadBox {
    pub bounds: Aabbd,
    pub movable: bool,
}

/// Every pair `(i, j)`, `i < j`, of boxes whose closed bounds overlap and of
/// which at least one is movable, sorted ascending.
pub(crate) fn overlapping_pairs(boxes: &[BroadBox]) -> Vec<(usize, usize)> {
    overlapping_pairs_where(boxes, |_, _| true)
}

/// [`overlapping_pairs`] less the pairs `keep(i, j)` (`i < j`) refuses,
/// asked during the sweep: a pair the collision filters rule out is never
/// stored nor sorted, so it costs what a pair apart costs, one test more.
pub(crate) fn overlapping_pairs_where(
    boxes: &[BroadBox],
    keep: impl Fn(usize, usize) -> bool,
) -> Vec<(usize, usize)> {
    let mut sorted: Vec<usize> = (0..boxes.len()).collect();
    sorted.sort_by(|&i, &j| {
        boxes[i]
            .bounds
            .min
            .x
            .total_cmp(&boxes[j].bounds.min.x)
            .then(i.cmp(&j))
    });
    let mut open: Vec<usize> = Vec::new();
    let mut pairs = Vec::new();
    for &i in &sorted {
        let b = &boxes[i];
        open.retain(|&j| boxes[j].bounds.max.x >= b.bounds.min.x);
        for &j in &open {
            let o = &boxes[j];
            let overlap = (1..3)
                .all(|k| o.bounds.min[k] <= b.bounds.max[k] && b.bounds.min[k] <= o.bounds.max[k]);
            if overlap && (b.movable || o.movable) && keep(i.min(j), i.max(j)) {
                pairs.push((i.min(j), i.max(j)));
            }
        }
        open.push(i);
    }
    pairs.sort_unstable();
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;
    use parapet_math::Vec3d;

    fn cube(x: f64, y: f64, movable: bool) -> BroadBox {
        BroadBox {
            bounds: Aabbd::new(Vec3d::new(x, y, 0.0), Vec3d::new(x + 1.0, y + 1.0, 1.0)),
            movable,
        }
    }

    #[test]
    fn sweep_matches_brute_force() {
        // A deterministic scatter of 60 unit boxes, some immovable.
        let mut boxes = Vec::new();
        let mut s = 12345u64;
        for i in 0..60 {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let x = ((s >> 33) % 1000) as f64 / 100.0;
            let y = ((s >> 13) % 1000) as f64 / 100.0;
            boxes.push(cube(x, y, i % 3 != 0));
        }
        let mut brute = Vec::new();
        for i in 0..boxes.len() {
            for j in i + 1..boxes.len() {
                let (a, b) = (&boxes[i], &boxes[j]);
                if a.bounds.intersects(&b.bounds) && (a.movable || b.movable) {
                    brute.push((i, j));
                }
            }
        }
        assert!(!brute.is_empty());
        assert_eq!(overlapping_pairs(&boxes), brute);
        // A filter asked during the sweep removes exactly the pairs it
        // refuses, in the same order.
        let keep = |i: usize, j: usize| !(i + 2 * j).is_multiple_of(3);
        let kept: Vec<(usize, usize)> =
            brute.iter().copied().filter(|&(i, j)| keep(i, j)).collect();
        assert!(kept.len() < brute.len() && !kept.is_empty());
        assert_eq!(overlapping_pairs_where(&boxes, keep), kept);
    }

    #[test]
    fn touching_boxes_pair_and_immovable_pairs_do_not() {
        let boxes = [
            cube(0.0, 0.0, true),
            cube(1.0, 0.0, false),
            cube(2.0, 0.0, false),
        ];
        assert_eq!(overlapping_pairs(&boxes), vec![(0, 1)]);
    }
}
