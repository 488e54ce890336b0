//! The triangle bounds tree: an exact, stackless bounding-volume hierarchy
//! over an immutable triangle snapshot, the index behind every mesh query
//! (CCD candidates, discrete contacts, rays).
//!
//! Method: a binary tree of closed axis-aligned boxes built by median splits
//! (`build.rs`: longest axis of the box centres, `select_nth_unstable`,
//! O(T log T)), 2T - 1 nodes stored as one array in depth-first preorder.
//! A node is 32 bytes, aligned to half a cache line (`Node` gives the lanes):
//! its `f32` bounds, its *escape link* (the index after its subtree: where a
//! query goes when it skips or finishes the node; an internal node's first
//! child is the next index, a leaf's escape is its own index + 1) and, for a
//! leaf, its triangle's index (for an internal node, its right child's
//! index, which lets an accepted node start loading that child early). A
//! query walks the array from the root (passed untested: its children's
//! boxes lie inside it, so a query it would reject is rejected by them): a
//! node whose box passes goes to the next index, one that fails jumps to its
//! escape; no stack, no visited array, each node visited at most once, so at
//! most 2T - 1 visits and at most T results. Results are sorted ascending
//! (triangle insertion order), so equal-time ties keep insertion order
//! whatever the tree order. The box test is eight lane comparisons that
//! compile to two 4-lane vector compares and one mask test (no subtraction
//! or reduction chain, so a mispredicted accept/reject resolves early), and
//! an accepted internal node starts the load of its right child while the
//! left subtree is tested.
//! A leaf's next index is its index + 1 whether it passes or not, so its
//! triangle is written always and kept by the test's result (no branch waits
//! on a leaf's comparison), and the f32 roundings of the query box are
//! integer steps on the bits, masked by a comparison (no branch on a
//! rounding direction, which is a coin toss).
//!
//! Meshes of at most [`LINEAR_SCAN_MAX`] triangles are not split: their
//! leaves are stored in insertion order and scanned linearly by the same loop.
//!
//! Exactness: every stored bound is an `f32` taken from the snapshot's own
//! coordinates, so the leaf box is exactly the triangle's bounds and every
//! node box exactly the union of its children. Query boxes are `f64`; the
//! traversal compares `f32` node bounds with the query box's `f32` inward
//! roundings, which is exactly the `f64` comparison (see [`Bounds`]). So the
//! result is exactly `{ i : query.touches(bounds of triangle i) }` for the
//! query predicates of [`BoundsQuery`], with no candidate limit.
//!
//! The contract the continuous mode relies on is docs/continuous-collision.md,
//! "Performance"; escape-link (threaded) traversal after Smits, "Efficiency issues for ray tracing" (1998).
//!
//! Precision domain: finite `f32` triangle coordinates (others are refused
//! with [`BvhError::NonFiniteVertex`]), at most [`MAX_TRIANGLES`] triangles.

mod bounds;
mod build;
mod error;
mod query;
mod validate;

pub use bounds::Bounds;
pub use error::BvhError;
pub use query::{Ball, BoundsQuery, Ray, SweptBall, LONG_SWEEP_RADII, SLAB_ROUNDINGS};

use parapet_math::Vec3;

/// Meshes with at most this many triangles are scanned linearly instead of
/// split into a tree: for so few triangles a scan visits no more bounds than
/// a tree would. Unit: triangles.
pub const LINEAR_SCAN_MAX: usize = 8;

/// The most triangles one tree indexes: escape links and child indices
/// (below 2T <= 2^30) and triangle indices keep bit 30 clear, so that, read
/// as `f32` bit patterns, they are finite numbers (see `Node`).
/// Unit: triangles.
pub const MAX_TRIANGLES: usize = 1 << 29;

/// The flag of an internal node's link word (lane 7), whose other bits hold
/// its right child's index: `INTERNAL | right` is, read as an `f32`, a finite
/// negative number (bit 30 is clear, as for every index below 2^30).
pub(crate) const INTERNAL: u32 = 0x8000_0000;

/// One stored node: 32 bytes aligned to 32 (half a cache line), as eight
/// `f32` lanes `[min.x, min.y, min.z, -max.x, -max.y, -max.z, escape, triangle]`.
///
/// Lanes 6 and 7 hold the bit patterns of the escape link and the link word:
/// a leaf's triangle index, or [`INTERNAL`] with an internal node's right
/// child (its left child is the next index). Escapes and indices are below
/// 2^30, so every such pattern has bit 30 clear: a finite `f32`, never NaN
/// (the link word of an internal node is negative). Negation is exact,
/// so `-max` stores the maximum exactly. The box test compares all eight
/// lanes with the query lanes `[hi.x, hi.y, hi.z, -lo.x, -lo.y, -lo.z, +inf,
/// +inf]` ([`Node::meets`]): two 4-lane vector compares.
#[derive(Debug, Clone, Copy, PartialEq)]
#[repr(C, align(32))]
pub(crate) struct Node {
    lanes: [f32; 8],
}

impl Node {
    /// A node from its exact bounds, escape link and triangle.
    #[inline]
    pub(crate) fn new(min: [f32; 3], max: [f32; 3], escape: u32, triangle: u32) -> Self {
        Self {
            lanes: [
                min[0],
                min[1],
                min[2],
                -max[0],
                -max[1],
                -max[2],
                f32::from_bits(escape),
                f32::from_bits(triangle),
            ],
        }
    }

    /// The lower bound on axis `k`.
    #[inline]
    pub(crate) fn lo(&self, k: usize) -> f32 {
        self.lanes[k]
    }

    /// The upper bound on axis `k`.
    #[inline]
    pub(crate) fn hi(&self, k: usize) -> f32 {
        -self.lanes[3 + k]
    }

    /// The lower corner.
    #[inline]
    pub(crate) fn min(&self) -> [f32; 3] {
        [self.lo(0), self.lo(1), self.lo(2)]
    }

    /// The upper corner.
    #[inline]
    pub(crate) fn max(&self) -> [f32; 3] {
        [self.hi(0), self.hi(1), self.hi(2)]
    }

    /// The index after this node's subtree.
    #[inline]
    pub(crate) fn escape(&self) -> u32 {
        self.lanes[6].to_bits()
    }

    #[inline]
    pub(crate) fn set_escape(&mut self, escape: u32) {
        self.lanes[6] = f32::from_bits(escape);
    }

    /// The link word: the leaf's triangle, or [`INTERNAL`] | right child.
    #[inline]
    pub(crate) fn triangle(&self) -> u32 {
        self.lanes[7].to_bits()
    }

    #[inline]
    pub(crate) fn is_leaf(&self) -> bool {
        self.triangle() & INTERNAL == 0
    }

    /// An internal node's right child (its first child is the next index).
    #[inline]
    pub(crate) fn right_child(&self) -> usize {
        (self.triangle() & !INTERNAL) as usize
    }

    /// This node with the bounds of the union of `a` and `b` (exact).
    #[inline]
    pub(crate) fn with_union_of(mut self, a: &Node, b: &Node) -> Self {
        for k in 0..6 {
            // The minimum of minima, and the minimum of negated maxima.
            self.lanes[k] = a.lanes[k].min(b.lanes[k]);
        }
        self
    }

    /// Whether the node's box meets the query box given as
    /// `[hi.x, hi.y, hi.z, -lo.x, -lo.y, -lo.z, +inf, +inf]`: every lane at
    /// most its query lane (lanes 6 and 7, finite, always are).
    ///
    /// Exact: `min <= hi` and `-max <= -lo` (negation is exact) are the two
    /// closed-interval overlap conditions per axis. No NaN can arise: stored
    /// lanes are finite and query lanes are never NaN. Written as a count of
    /// satisfied lanes so that the compiler emits two 4-lane compares, one
    /// pack and one mask test (measured 15 to 25 % faster per query than a
    /// subtract-and-maximum reduction, whose longer latency delays every
    /// mispredicted accept/reject branch).
    #[inline]
    fn meets(&self, query: &[f32; 8]) -> bool {
        let l = &self.lanes;
        let mut satisfied = 0u32;
        for k in 0..8 {
            satisfied += (l[k] <= query[k]) as u32;
        }
        satisfied == 8
    }

    #[inline]
    pub(crate) fn bounds(&self) -> Bounds {
        Bounds {
            min: parapet_math::Vec3d::new(self.lo(0) as f64, self.lo(1) as f64, self.lo(2) as f64),
            max: parapet_math::Vec3d::new(self.hi(0) as f64, self.hi(1) as f64, self.hi(2) as f64),
        }
    }
}

/// How the tree stores its triangles.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Layout {
    /// No triangles: every query returns nothing.
    Empty,
    /// At most [`LINEAR_SCAN_MAX`] triangles: T leaves in insertion order, scanned linearly.
    LinearScan,
    /// A binary tree of 2T - 1 nodes in depth-first preorder.
    Tree,
}

/// One node as the public API sees it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NodeView {
    /// The node's closed bounds (exact `f32` values widened to `f64`).
    pub bounds: Bounds,
    /// The index after this node's subtree, where a query goes when it skips
    /// or finishes it (a leaf's own index + 1). An internal node's first
    /// child is the next index.
    pub escape: u32,
    /// The leaf's triangle (its index in the snapshot), `None` for an internal node.
    pub triangle: Option<u32>,
}

/// What a query did: how many nodes it visited and how many triangles it returned.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct QueryStats {
    /// Nodes the walk visited (at most 2T - 1): those whose bounds the query
    /// tested, plus a tree's root, which the walk passes untested (its
    /// children's boxes lie inside it, so its test cannot change the result).
    pub visited_nodes: usize,
    /// Triangle indices written (at most T).
    pub hits: usize,
}

/// The bounds tree over one immutable triangle snapshot.
///
/// ```
/// use parapet_geometry::bvh::{SweptBall, TriangleBoundsTree};
/// use parapet_math::{Vec3, Vec3d};
///
/// let floor = [
///     [Vec3::new(0.0, 0.0, 0.0), Vec3::new(1.0, 0.0, 0.0), Vec3::new(0.0, 1.0, 0.0)],
///     [Vec3::new(2.0, 0.0, 0.0), Vec3::new(3.0, 0.0, 0.0), Vec3::new(2.0, 1.0, 0.0)],
/// ];
/// // Candidates are triangles whose bounds the query touches (exact triangle
/// // tests are the narrow phase's job).
/// let tree = TriangleBoundsTree::build(&floor)?;
/// let fall = SweptBall::new(Vec3d::new(0.2, 0.2, 0.5), Vec3d::new(0.2, 0.2, -0.5), 0.1)?;
/// let mut hits = Vec::new();
/// tree.query(&fall, &mut hits);
/// assert_eq!(hits, [0]);
/// # Ok::<(), parapet_geometry::bvh::BvhError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct TriangleBoundsTree {
    nodes: Vec<Node>,
    triangle_count: usize,
    depth: u32,
    layout: Layout,
}

impl TriangleBoundsTree {
    /// Builds the index over `triangles` (insertion order = index order).
    ///
    /// Cost O(T log T) time, O(T) temporary storage; the tree keeps
    /// 2T - 1 nodes of 32 bytes (T for a linear scan).
    ///
    /// # Errors
    /// [`BvhError::NonFiniteVertex`] naming the first triangle with a NaN or
    /// infinite coordinate; [`BvhError::TooManyTriangles`] beyond [`MAX_TRIANGLES`].
    pub fn build(triangles: &[[Vec3; 3]]) -> Result<Self, BvhError> {
        let count = triangles.len();
        if count > MAX_TRIANGLES {
            return Err(BvhError::TooManyTriangles {
                count,
                limit: MAX_TRIANGLES,
            });
        }
        build::check_finite(triangles)?;
        let (nodes, layout) = match count {
            0 => (Vec::new(), Layout::Empty),
            1..=LINEAR_SCAN_MAX => (
                triangles
                    .iter()
                    .enumerate()
                    .map(|(i, t)| build::leaf_of(t, i as u32, i as u32 + 1))
                    .collect(),
                Layout::LinearScan,
            ),
            _ => (build::build_nodes(triangles), Layout::Tree),
        };
        let depth = match layout {
            Layout::Tree => depth_bound(count),
            _ => 0,
        };
        Ok(Self {
            nodes,
            triangle_count: count,
            depth,
            layout,
        })
    }

    /// Number of triangles indexed.
    pub fn triangle_count(&self) -> usize {
        self.triangle_count
    }

    /// Number of stored nodes: 2T - 1 for a tree, T for a linear scan, 0 when empty.
    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    /// Edges from the root to the deepest leaf (0 for a linear scan or an
    /// empty tree); at most ceil(log2 T).
    pub fn depth(&self) -> u32 {
        self.depth
    }

    /// How the triangles are stored.
    pub fn layout(&self) -> Layout {
        self.layout
    }

    /// The bounds of the whole snapshot, `None` when it is empty.
    pub fn root_bounds(&self) -> Option<Bounds> {
        match self.layout {
            Layout::Empty => None,
            Layout::Tree => Some(self.nodes[0].bounds()),
            Layout::LinearScan => self
                .nodes
                .iter()
                .map(Node::bounds)
                .reduce(|a, b| a.union(&b)),
        }
    }

    /// Node `index` of the depth-first preorder array, `None` past the end.
    pub fn node(&self, index: usize) -> Option<NodeView> {
        let node = self.nodes.get(index)?;
        Some(NodeView {
            bounds: node.bounds(),
            escape: node.escape(),
            triangle: node.is_leaf().then_some(node.triangle()),
        })
    }

    /// Bytes the tree retains: the struct and its node array's allocation.
    pub fn memory_bytes(&self) -> usize {
        std::mem::size_of::<Self>() + self.nodes.capacity() * std::mem::size_of::<Node>()
    }

    /// Retained bytes per indexed triangle (0 for an empty tree).
    pub fn bytes_per_triangle(&self) -> f64 {
        if self.triangle_count == 0 {
            0.0
        } else {
            self.memory_bytes() as f64 / self.triangle_count as f64
        }
    }

    /// Writes into `out` (cleared first) the indices, ascending, of every
    /// triangle whose bounds `query` touches ([`BoundsQuery::touches`]), and
    /// returns how many nodes it visited. Allocates only if `out` must grow.
    pub fn query<Q: BoundsQuery>(&self, query: &Q, out: &mut Vec<u32>) -> QueryStats {
        out.clear();
        let qb = query.bounds();
        // Inward f32 roundings: for an f32 bound b, `b >= q.min` iff
        // `b >= f32_up(q.min)` and `b <= q.max` iff `b <= f32_down(q.max)`,
        // exactly (also beyond the f32 range, where they give +-inf or +-f32::MAX).
        let (lo, hi) = (&qb.min, &qb.max);
        let query_lanes = [
            f32_at_most(hi.x),
            f32_at_most(hi.y),
            f32_at_most(hi.z),
            -f32_at_least(lo.x),
            -f32_at_least(lo.y),
            -f32_at_least(lo.z),
            f32::INFINITY,
            f32::INFINITY,
        ];
        // Opaque to the optimiser: knowing lanes 6 and 7 are infinite, it
        // would replace their comparisons by NaN tests and lose the two
        // 4-lane compares of `Node::meets`.
        let query_lanes = std::hint::black_box(query_lanes);
        let visited = if Q::REFINES && query.refines() {
            let refine_internal = query.refine_internal();
            self.walk::<Q, true>(query, &query_lanes, refine_internal, out)
        } else {
            self.walk::<Q, false>(query, &query_lanes, false, out)
        };
        if self.layout == Layout::Tree {
            sort_hits(out);
        }
        QueryStats {
            visited_nodes: visited,
            hits: out.len(),
        }
    }

    /// The stackless walk: pushes every accepted leaf's triangle (tree order)
    /// and returns the number of visited nodes. `REFINE` selects at compile
    /// time whether [`BoundsQuery::refine`] is applied (always to leaves,
    /// to internal nodes when `refine_internal`).
    #[inline]
    fn walk<Q: BoundsQuery, const REFINE: bool>(
        &self,
        query: &Q,
        query_lanes: &[f32; 8],
        refine_internal: bool,
        out: &mut Vec<u32>,
    ) -> usize {
        let nodes = self.nodes.as_slice();
        let in_tree = self.layout == Layout::Tree;
        // A tree's root is passed without its test: its children's boxes lie
        // inside it, so when it fails they fail too and the result is the
        // same; a query near the mesh passes it anyway.
        let start = usize::from(in_tree);
        let mut visited = start;
        let mut touched = 0u32;
        let mut i = start;
        while let Some(node) = nodes.get(i) {
            visited += 1;
            let in_box = node.meets(query_lanes);
            if node.is_leaf() {
                // The walk goes on to the next index either way (a leaf's
                // escape is its index + 1): the triangle is written always
                // and kept when it passes, so no branch waits for the test.
                // In a tree the refinement too is computed for every leaf
                // reached (few: their parents passed); a linear scan reaches
                // every leaf, and there only those in the box are refined.
                let accept = if !REFINE {
                    in_box
                } else if in_tree {
                    in_box & query.refine(&node.bounds())
                } else {
                    in_box && query.refine(&node.bounds())
                };
                let kept = out.len() + usize::from(accept);
                out.push(node.triangle());
                out.truncate(kept);
                i += 1;
            } else if in_box && (!REFINE || !refine_internal || query.refine(&node.bounds())) {
                if let Some(right) = nodes.get(node.right_child()) {
                    // A touch load of the right child: it starts the right
                    // child's cache line on its way while the left subtree
                    // is tested (safe Rust has no prefetch; measured about
                    // 8% faster on the sweep workloads of benches/benches/triangle_index.rs).
                    touched ^= right.lanes[0].to_bits();
                }
                // An accepted internal node's first child.
                i += 1;
            } else {
                i = node.escape() as usize;
            }
        }
        // Keeps the touch loads from being optimised away.
        std::hint::black_box(touched);
        visited
    }

    /// [`TriangleBoundsTree::query`] into a new vector.
    pub fn query_vec<Q: BoundsQuery>(&self, query: &Q) -> Vec<u32> {
        let mut out = Vec::new();
        self.query(query, &mut out);
        out
    }

    /// Checks every invariant against the snapshot the tree was built from:
    /// node count (2T - 1, or T for a linear scan), each leaf's bounds equal
    /// to its triangle's exact bounds, each internal node's bounds equal to
    /// the union of its children's (so containing them), escape links, the
    /// depth bound ceil(log2 T), each triangle in exactly one leaf.
    ///
    /// # Errors
    /// [`BvhError::SnapshotMismatch`] for a snapshot of another size,
    /// [`BvhError::NonFiniteVertex`] for a non-finite snapshot, and
    /// [`BvhError::BrokenInvariant`] naming the node and the broken invariant.
    pub fn validate(&self, triangles: &[[Vec3; 3]]) -> Result<(), BvhError> {
        validate::validate(self, triangles)
    }
}

/// The largest `f32` that is `<= x`, for a non-NaN `x` (`f32::MAX` above
/// the `f32` range, `-inf` below it): parapet-math's `f32_down` without a
/// data-dependent branch. Which way `x as f32` rounds is a coin toss for a
/// query bound, so a branch on it mispredicts about every other time (and
/// `select_unpredictable` between `r` and `r.next_down()` still compiled to
/// one, next to `next_down`'s own special-case branches); here the step is
/// integer arithmetic on the bits, masked by the comparison.
///
/// The step down from `r` is `bits - 1` for a positive `r` (also `+inf` to
/// `f32::MAX`) and `bits + 1` for a negative one (also `-0.0` to the
/// negative smallest subnormal). `+0.0` never steps: it is `x as f32` only for
/// `x >= 0`, where it is not above `x`; `-inf` is never above `x`.
#[inline]
fn f32_at_most(x: f64) -> f32 {
    let r = x as f32;
    let bits = r.to_bits();
    // 0 or all ones: whether `r` lies above `x`.
    let above = ((f64::from(r) > x) as u32).wrapping_neg();
    // +1 for a negative `r`, -1 (wrapping) for a positive one.
    let step = ((bits >> 31) << 1).wrapping_sub(1);
    f32::from_bits(bits.wrapping_add(step & above))
}

/// The smallest `f32` that is `>= x`, for a non-NaN `x` (`f32::MIN` below
/// the `f32` range, `+inf` above it): parapet-math's `f32_up`, branch-free
/// like [`f32_at_most`] (the step up is `bits + 1` for a positive `r`,
/// `bits - 1` for a negative one; `-0.0` never steps, nor does `+inf`).
#[inline]
fn f32_at_least(x: f64) -> f32 {
    let r = x as f32;
    let bits = r.to_bits();
    let below = ((f64::from(r) < x) as u32).wrapping_neg();
    // +1 for a positive `r`, -1 (wrapping) for a negative one.
    let step = 1u32.wrapping_sub((bits >> 31) << 1);
    f32::from_bits(bits.wrapping_add(step & below))
}

/// Hit counts up to this use an insertion sort (a query near a surface
/// returns a handful of triangles; the general sort's set-up costs more than
/// the sorting). Unit: triangle indices.
const INSERTION_SORT_MAX: usize = 16;

/// Sorts the hits ascending: by insertion for a few, else `sort_unstable`.
#[inline]
fn sort_hits(hits: &mut [u32]) {
    if hits.len() > INSERTION_SORT_MAX {
        hits.sort_unstable();
        return;
    }
    for i in 1..hits.len() {
        let h = hits[i];
        let mut j = i;
        while j > 0 && hits[j - 1] > h {
            hits[j] = hits[j - 1];
            j -= 1;
        }
        hits[j] = h;
    }
}

/// ceil(log2 count) for count >= 1: the depth of a median-split tree.
pub(crate) fn depth_bound(count: usize) -> u32 {
    if count <= 1 {
        0
    } else {
        usize::BITS - (count - 1).leading_zeros()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use parapet_math::Vec3d;

    fn grid(n: usize) -> Vec<[Vec3; 3]> {
        let mut tris = Vec::new();
        for i in 0..n {
            for j in 0..n {
                let (x, y) = (i as f32, j as f32);
                tris.push([
                    Vec3::new(x, y, 0.0),
                    Vec3::new(x + 1.0, y, 0.0),
                    Vec3::new(x, y + 1.0, 0.0),
                ]);
                tris.push([
                    Vec3::new(x + 1.0, y, 0.0),
                    Vec3::new(x + 1.0, y + 1.0, 0.0),
                    Vec3::new(x, y + 1.0, 0.0),
                ]);
            }
        }
        tris
    }

    #[test]
    fn the_branch_free_f32_roundings_equal_parapet_maths() {
        use parapet_math::rounding::{f32_down, f32_up};
        // Exact f32 values and their f64 neighbours, halfway points, the
        // f32 range ends and beyond, subnormals, zeros and infinities.
        let mut values = vec![
            0.0,
            -0.0,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::MAX,
            f64::MIN,
            f32::MAX as f64,
            f32::MIN as f64,
            f32::MAX as f64 * (1.0 + f64::EPSILON),
            1.0e39,
            -1.0e39,
            f32::MIN_POSITIVE as f64,
            1.0e-45,
            1.0e-46,
            -1.0e-46,
            5.0e-324,
        ];
        for base in [1.0f32, -1.0, 0.1, -7.25e3, 3.0e38, 1.0e-40, f32::MAX] {
            let b = base as f64;
            let half_up = (b + base.next_up() as f64) / 2.0;
            values.extend([b, b.next_up(), b.next_down(), half_up]);
        }
        for x in values {
            assert_eq!(f32_at_most(x).to_bits(), f32_down(x).to_bits(), "x = {x:e}");
            assert_eq!(f32_at_least(x).to_bits(), f32_up(x).to_bits(), "x = {x:e}");
        }
    }

    #[test]
    fn depth_bound_is_ceil_log2() {
        let expected = [
            (1, 0),
            (2, 1),
            (3, 2),
            (4, 2),
            (5, 3),
            (8, 3),
            (9, 4),
            (1024, 10),
        ];
        for (count, depth) in expected {
            assert_eq!(depth_bound(count), depth, "T = {count}");
        }
    }

    #[test]
    fn a_node_is_32_bytes() {
        // 6 f32 bounds + escape + triangle: 64 bytes per triangle for 2T - 1 nodes.
        assert_eq!(std::mem::size_of::<Node>(), 32);
    }

    #[test]
    fn tree_shape_matches_the_contract() {
        for n in [3usize, 5, 10, 17] {
            let tris = grid(n);
            let tree = TriangleBoundsTree::build(&tris).unwrap();
            let t = tris.len();
            assert_eq!(tree.layout(), Layout::Tree);
            assert_eq!(tree.node_count(), 2 * t - 1);
            assert_eq!(tree.depth(), depth_bound(t));
            tree.validate(&tris).unwrap();
        }
    }

    #[test]
    fn small_meshes_are_scanned_in_insertion_order() {
        let tris = grid(2); // 8 triangles
        let tree = TriangleBoundsTree::build(&tris).unwrap();
        assert_eq!(tree.layout(), Layout::LinearScan);
        assert_eq!(tree.node_count(), 8);
        tree.validate(&tris).unwrap();
        let everything = Bounds::new(Vec3d::repeat(-1.0), Vec3d::repeat(3.0)).unwrap();
        let mut out = Vec::new();
        let stats = tree.query(&everything, &mut out);
        assert_eq!(out, (0..8).collect::<Vec<u32>>());
        assert_eq!(stats.visited_nodes, 8);
    }

    #[test]
    fn an_empty_mesh_gives_an_empty_tree_that_returns_nothing() {
        let tree = TriangleBoundsTree::build(&[]).unwrap();
        assert_eq!(tree.layout(), Layout::Empty);
        assert_eq!(tree.root_bounds(), None);
        let everything = Bounds::new(
            Vec3d::repeat(f64::NEG_INFINITY),
            Vec3d::repeat(f64::INFINITY),
        )
        .unwrap();
        let mut out = vec![7];
        let stats = tree.query(&everything, &mut out);
        assert!(out.is_empty());
        assert_eq!(stats, QueryStats::default());
        tree.validate(&[]).unwrap();
    }

    #[test]
    fn a_non_finite_vertex_is_refused_by_name() {
        let mut tris = grid(3);
        tris[11][2].y = f32::NAN;
        let err = TriangleBoundsTree::build(&tris).unwrap_err();
        assert!(matches!(
            err,
            BvhError::NonFiniteVertex {
                triangle: 11,
                vertex: 2,
                axis: 1,
                ..
            }
        ));
        assert!(err.to_string().contains("triangle 11"));
    }

    #[test]
    fn a_query_skips_disjoint_subtrees_by_escape() {
        let tris = grid(16); // 512 triangles in the unit cells of [0, 16]^2
        let tree = TriangleBoundsTree::build(&tris).unwrap();
        let cell = Bounds::new(Vec3d::new(3.25, 5.25, -1.0), Vec3d::new(3.75, 5.75, 1.0)).unwrap();
        let mut out = Vec::new();
        let stats = tree.query(&cell, &mut out);
        // The two triangles of cell (3, 5): indices 2 * (3 * 16 + 5) and + 1.
        assert_eq!(out, [106, 107]);
        // Pruning: far fewer than all 1023 nodes are visited.
        assert!(stats.visited_nodes < 100, "{stats:?}");
    }

    use proptest::prelude::*;

    /// `f32` coordinates across the whole range: huge (up to `f32::MAX`),
    /// tiny and subnormal, zeros of both signs, and ordinary ones.
    fn any_magnitude() -> impl Strategy<Value = f32> {
        prop_oneof![
            prop::num::f32::NORMAL,
            prop::num::f32::SUBNORMAL,
            prop::num::f32::ZERO,
            Just(f32::MAX),
            Just(f32::MIN),
            Just(f32::MIN_POSITIVE),
            -100.0f32..100.0,
        ]
    }

    fn wide_triangle() -> impl Strategy<Value = [Vec3; 3]> {
        prop::array::uniform3(prop::array::uniform3(any_magnitude()).prop_map(Vec3::from))
    }

    /// The brute force the tree must equal: closed-interval overlap of the
    /// query with each triangle's bounds, computed here in `f64`.
    fn scan(tris: &[[Vec3; 3]], q: &Bounds) -> Vec<u32> {
        (0..tris.len() as u32)
            .filter(|&i| {
                let t = &tris[i as usize];
                (0..3).all(|k| {
                    let lo = t.iter().map(|v| v[k] as f64).fold(f64::INFINITY, f64::min);
                    let hi = t
                        .iter()
                        .map(|v| v[k] as f64)
                        .fold(f64::NEG_INFINITY, f64::max);
                    lo <= q.max[k] && q.min[k] <= hi
                })
            })
            .collect()
    }

    /// A value at or one `f64` / `f32` ulp beside `x` (or `x` itself).
    fn beside(x: f32, how: u8) -> f64 {
        let x64 = x as f64;
        match how % 5 {
            0 => x64,
            1 => x64.next_up(),
            2 => x64.next_down(),
            3 => x.next_up() as f64,
            _ => x.next_down() as f64,
        }
    }

    proptest! {
        /// Tree == brute force for meshes and box queries across the whole
        /// `f32` range: every query bound sits on a triangle's bound or one
        /// `f64` or `f32` ulp beside it, or is infinite.
        #[test]
        fn the_tree_equals_brute_force_at_huge_and_tiny_coordinates(
            tris in prop::collection::vec(wide_triangle(), 1..80),
            picks in prop::collection::vec((any::<prop::sample::Index>(), any::<[u8; 6]>(), any::<[u8; 6]>()), 1..16),
        ) {
            let tree = TriangleBoundsTree::build(&tris).unwrap();
            tree.validate(&tris).unwrap();
            let mut out = Vec::new();
            for (index, sources, hows) in picks {
                // Each bound from some triangle's vertex coordinate (on its axis).
                let t = index.index(tris.len());
                let bound = |j: usize| -> f64 {
                    let src = &tris[(t + sources[j] as usize) % tris.len()];
                    let v = src[(sources[j] / 3) as usize % 3];
                    if hows[j] == 255 {
                        if j < 3 { f64::NEG_INFINITY } else { f64::INFINITY }
                    } else {
                        beside(v[j % 3], hows[j])
                    }
                };
                let (a, b) = (Vec3d::new(bound(0), bound(1), bound(2)), Vec3d::new(bound(3), bound(4), bound(5)));
                let q = Bounds::new(a.inf(&b), a.sup(&b)).unwrap();
                tree.query(&q, &mut out);
                prop_assert_eq!(&out, &scan(&tris, &q), "query {:?}", q);
            }
        }

        /// A box query touching a triangle's bounds at exactly one value
        /// returns it, and one `f64` or `f32` ulp of gap does not, on every
        /// axis and side, at any magnitude (the tree has 64 distractors).
        #[test]
        fn a_box_query_touching_at_one_float_returns_the_triangle_at_any_magnitude(
            target in wide_triangle(),
            others in prop::collection::vec(wide_triangle(), 64),
            axis in 0usize..3,
            from_above in any::<bool>(),
        ) {
            let mut tris = others;
            tris.push(target);
            let t = tris.len() as u32 - 1;
            let tree = TriangleBoundsTree::build(&tris).unwrap();
            let lo = target.iter().map(|v| v[axis]).fold(f32::INFINITY, f32::min);
            let hi = target.iter().map(|v| v[axis]).fold(f32::NEG_INFINITY, f32::max);
            // A slab query covering everything except on `axis`, where it
            // ends at the triangle's bound (or an ulp short of it).
            let query = |end: f64| {
                let (mut min, mut max) = (Vec3d::repeat(f64::NEG_INFINITY), Vec3d::repeat(f64::INFINITY));
                if from_above { min[axis] = end } else { max[axis] = end }
                Bounds::new(min, max).unwrap()
            };
            let (touch, gap64, gap32) = if from_above {
                (hi as f64, (hi as f64).next_up(), hi.next_up() as f64)
            } else {
                (lo as f64, (lo as f64).next_down(), lo.next_down() as f64)
            };
            prop_assert!(tree.query_vec(&query(touch)).contains(&t));
            prop_assert!(!tree.query_vec(&query(gap64)).contains(&t));
            if gap32.is_finite() {
                prop_assert!(!tree.query_vec(&query(gap32)).contains(&t));
            }
            for q in [query(touch), query(gap64), query(gap32)] {
                prop_assert_eq!(tree.query_vec(&q), scan(&tris, &q));
            }
        }
    }

    #[test]
    fn memory_is_32_bytes_per_node() {
        let tris = grid(16);
        let tree = TriangleBoundsTree::build(&tris).unwrap();
        let expected = std::mem::size_of::<TriangleBoundsTree>() + 32 * (2 * 512 - 1);
        assert_eq!(tree.memory_bytes(), expected);
    }
}
