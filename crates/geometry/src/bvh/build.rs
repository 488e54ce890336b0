//! Construction of the triangle bounds tree from an immutable triangle
//! snapshot: exact `f32` leaf bounds, median splits, depth-first preorder.
//!
//! Method: each triangle's bounds are the componentwise `f32` min and max of
//! its vertices (exact). A node over `n > 1` triangles splits them at the
//! median (`ceil(n / 2)` left, `floor(n / 2)` right) along the longest axis of
//! its triangles' box centres, found with `select_nth_unstable_by`
//! (expected O(n)); the left subtree follows its parent in the array and the
//! right subtree follows the left one, and each node's escape link is the
//! index after its subtree (a leaf's own index + 1).
//! Node bounds are the union of the children's (exact: a min or max of `f32`
//! values is one of them).
//!
//! The tree's promises (docs/continuous-collision.md, "Performance"): each
//! triangle stored once, median splits, depth at most ceil(log2 T), 2T - 1
//! nodes, O(T) temporary storage. A sort per level would make the build
//! O(T log^2 T); selection makes each level O(T) and the build O(T log T).
//!
//! Precision domain: finite `f32` coordinates (non-finite ones are refused
//! before anything is built); box centres are computed as `0.5 * min +
//! 0.5 * max`, which cannot overflow, and only steer the split.

use parapet_math::Vec3;

use super::{BvhError, Node, INTERNAL};

/// One triangle during the build: its split key and its index.
#[derive(Clone, Copy)]
struct Item {
    centre: [f32; 3],
    triangle: u32,
}

/// The exact `f32` bounds of triangle `index` as a leaf node with `escape`.
#[inline]
pub(crate) fn leaf_of(triangle: &[Vec3; 3], index: u32, escape: u32) -> Node {
    let [a, b, c] = triangle;
    let mut min = [0.0f32; 3];
    let mut max = [0.0f32; 3];
    for k in 0..3 {
        min[k] = a[k].min(b[k]).min(c[k]);
        max[k] = a[k].max(b[k]).max(c[k]);
    }
    Node::new(min, max, escape, index)
}

/// Refuses a snapshot with a non-finite coordinate, naming the first one.
pub(crate) fn check_finite(triangles: &[[Vec3; 3]]) -> Result<(), BvhError> {
    for (t, tri) in triangles.iter().enumerate() {
        for (v, vertex) in tri.iter().enumerate() {
            for axis in 0..3 {
                let value = vertex[axis];
                if !value.is_finite() {
                    return Err(BvhError::NonFiniteVertex {
                        triangle: t,
                        vertex: v,
                        axis,
                        value,
                    });
                }
            }
        }
    }
    Ok(())
}

/// The nodes of the tree over `triangles` (at least two, all finite), in
/// depth-first preorder.
pub(crate) fn build_nodes(triangles: &[[Vec3; 3]]) -> Vec<Node> {
    let count = triangles.len();
    let mut leaves = Vec::with_capacity(count);
    let mut items = Vec::with_capacity(count);
    for (i, tri) in triangles.iter().enumerate() {
        let leaf = leaf_of(tri, i as u32, 0);
        let centre = [0, 1, 2].map(|k| 0.5 * leaf.lo(k) + 0.5 * leaf.hi(k));
        leaves.push(leaf);
        items.push(Item {
            centre,
            triangle: i as u32,
        });
    }
    let mut nodes = Vec::with_capacity(2 * count - 1);
    build_subtree(&mut items, &leaves, &mut nodes);
    debug_assert_eq!(nodes.len(), 2 * count - 1);
    nodes
}

/// Appends the subtree over `items` (non-empty) to `nodes` in preorder.
/// Recursion depth is the tree depth, at most ceil(log2 T) <= 30.
fn build_subtree(items: &mut [Item], leaves: &[Node], nodes: &mut Vec<Node>) {
    if let [item] = items {
        let mut leaf = leaves[item.triangle as usize];
        leaf.set_escape(nodes.len() as u32 + 1);
        nodes.push(leaf);
        return;
    }
    let axis = split_axis(items);
    let mid = items.len().div_ceil(2);
    items.select_nth_unstable_by(mid, |a, b| a.centre[axis].total_cmp(&b.centre[axis]));
    let (left, right) = items.split_at_mut(mid);

    let parent = nodes.len();
    // A placeholder, replaced once both subtrees are built.
    nodes.push(Node::new([0.0; 3], [0.0; 3], 0, INTERNAL));
    build_subtree(left, leaves, nodes);
    let right_child = nodes.len();
    build_subtree(right, leaves, nodes);
    let (l, r) = (nodes[parent + 1], nodes[right_child]);
    let escape = nodes.len() as u32;
    let link = INTERNAL | right_child as u32;
    let node = Node::new([0.0; 3], [0.0; 3], escape, link).with_union_of(&l, &r);
    nodes[parent] = node;
}

/// The axis along which the items' box centres spread the most (x on ties).
fn split_axis(items: &[Item]) -> usize {
    let mut lo = items[0].centre;
    let mut hi = lo;
    for item in &items[1..] {
        for k in 0..3 {
            lo[k] = lo[k].min(item.centre[k]);
            hi[k] = hi[k].max(item.centre[k]);
        }
    }
    // Extents in f64: the difference of two finite f32 values cannot overflow there.
    let extent = [0, 1, 2].map(|k| hi[k] as f64 - lo[k] as f64);
    let mut axis = 0;
    for k in 1..3 {
        if extent[k] > extent[axis] {
            axis = k;
        }
    }
    axis
}
