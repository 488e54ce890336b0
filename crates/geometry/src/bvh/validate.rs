//! `validate()`: checks every invariant of a triangle bounds tree against
//! the snapshot it was built from, and names the first broken one.
//!
//! Method: one recursive walk of the preorder array that recomputes each
//! subtree's extent (so each escape link can be checked against it), each
//! node's bounds (leaf: the triangle's exact bounds; internal: the union of
//! its children), each internal node's right-child link, each leaf's depth (against the stored depth and the bound
//! ceil(log2 T)), and marks each triangle seen once. The walk refuses to go
//! deeper than the bound, so a corrupt array cannot recurse without end.
//!
//! The invariants are the tree's promises of [`crate::bvh`] (each triangle
//! once, depth at most ceil(log2 T), 2T - 1 nodes, exact bounds).
//! Precision domain: exact comparisons of `f32` values.

use parapet_math::Vec3;

use super::build::{check_finite, leaf_of};
use super::{depth_bound, BvhError, Layout, Node, TriangleBoundsTree, LINEAR_SCAN_MAX};

fn broken(node: usize, detail: String) -> BvhError {
    BvhError::BrokenInvariant { node, detail }
}

pub(crate) fn validate(tree: &TriangleBoundsTree, triangles: &[[Vec3; 3]]) -> Result<(), BvhError> {
    let count = triangles.len();
    if count != tree.triangle_count {
        return Err(BvhError::SnapshotMismatch {
            tree: tree.triangle_count,
            snapshot: count,
        });
    }
    check_finite(triangles)?;
    let nodes = &tree.nodes;
    let expected_layout = match count {
        0 => Layout::Empty,
        1..=LINEAR_SCAN_MAX => Layout::LinearScan,
        _ => Layout::Tree,
    };
    if tree.layout != expected_layout {
        return Err(broken(
            0,
            format!(
                "layout {:?} but {count} triangles need {expected_layout:?}",
                tree.layout
            ),
        ));
    }
    let expected_nodes = match expected_layout {
        Layout::Tree => 2 * count - 1,
        _ => count,
    };
    if nodes.len() != expected_nodes {
        return Err(broken(
            0,
            format!(
                "{} nodes stored but {count} triangles need {expected_nodes}",
                nodes.len()
            ),
        ));
    }
    if expected_layout != Layout::Tree {
        if tree.depth != 0 {
            return Err(broken(
                0,
                format!("depth {} of a linear scan is not 0", tree.depth),
            ));
        }
        for (i, (node, tri)) in nodes.iter().zip(triangles).enumerate() {
            let expected = leaf_of(tri, i as u32, i as u32 + 1);
            if *node != expected {
                return Err(broken(
                    i,
                    format!("linear-scan slot {i} holds {node:?}, expected leaf {expected:?}"),
                ));
            }
        }
        return Ok(());
    }

    let bound = depth_bound(count);
    if tree.depth > bound {
        return Err(broken(
            0,
            format!(
                "stored depth {} exceeds ceil(log2 {count}) = {bound}",
                tree.depth
            ),
        ));
    }
    let mut walk = Walk {
        nodes,
        triangles,
        seen: vec![false; count],
        max_depth: tree.depth,
        deepest: 0,
    };
    let end = walk.subtree(0, 0)?;
    if end != nodes.len() {
        return Err(broken(
            end,
            format!(
                "the root's subtree ends at {end}, not at the array end {}",
                nodes.len()
            ),
        ));
    }
    if walk.deepest != tree.depth {
        return Err(broken(
            0,
            format!(
                "deepest leaf at depth {} but the tree records {}",
                walk.deepest, tree.depth
            ),
        ));
    }
    // Every triangle seen: 2T - 1 nodes with T leaves each holding a distinct
    // triangle (checked in the walk) means all T are present.
    if let Some(missing) = walk.seen.iter().position(|s| !s) {
        return Err(broken(0, format!("triangle {missing} is in no leaf")));
    }
    Ok(())
}

struct Walk<'a> {
    nodes: &'a [Node],
    triangles: &'a [[Vec3; 3]],
    seen: Vec<bool>,
    max_depth: u32,
    deepest: u32,
}

impl Walk<'_> {
    /// Checks the subtree rooted at `i` (at `depth`) and returns the index after it.
    fn subtree(&mut self, i: usize, depth: u32) -> Result<usize, BvhError> {
        let Some(&node) = self.nodes.get(i) else {
            return Err(broken(
                i,
                format!("a child link points past the {} nodes", self.nodes.len()),
            ));
        };
        if depth > self.max_depth {
            return Err(broken(
                i,
                format!(
                    "node at depth {depth} exceeds the tree depth {}",
                    self.max_depth
                ),
            ));
        }
        for k in 0..3 {
            // Stored bounds are finite (no NaN), so `>` is the negation of `<=`.
            if node.lo(k) > node.hi(k) {
                return Err(broken(
                    i,
                    format!("axis {k}: min {} is not <= max {}", node.lo(k), node.hi(k)),
                ));
            }
        }
        if node.is_leaf() {
            let t = node.triangle() as usize;
            if node.escape() as usize != i + 1 {
                return Err(broken(
                    i,
                    format!(
                        "leaf escape link {} is not its index + 1 = {}",
                        node.escape(),
                        i + 1
                    ),
                ));
            }
            let Some(tri) = self.triangles.get(t) else {
                return Err(broken(
                    i,
                    format!("leaf names triangle {t} of {}", self.triangles.len()),
                ));
            };
            if std::mem::replace(&mut self.seen[t], true) {
                return Err(broken(i, format!("triangle {t} is in more than one leaf")));
            }
            let exact = leaf_of(tri, t as u32, i as u32 + 1);
            if (exact.min(), exact.max()) != (node.min(), node.max()) {
                return Err(broken(
                    i,
                    format!(
                        "leaf bounds {:?}..{:?} are not triangle {t}'s exact bounds {:?}..{:?}",
                        node.min(),
                        node.max(),
                        exact.min(),
                        exact.max()
                    ),
                ));
            }
            self.deepest = self.deepest.max(depth);
            return Ok(i + 1);
        }
        let left = i + 1;
        let right = self.subtree(left, depth + 1)?;
        if node.right_child() != right {
            return Err(broken(
                i,
                format!(
                    "right-child link {} but the left subtree ends at {right}",
                    node.right_child()
                ),
            ));
        }
        let end = self.subtree(right, depth + 1)?;
        if node.escape() as usize != end {
            return Err(broken(
                i,
                format!(
                    "escape link {} but the subtree ends at {end}",
                    node.escape()
                ),
            ));
        }
        let (l, r) = (self.nodes[left], self.nodes[right]);
        for k in 0..3 {
            let (min, max) = (l.lo(k).min(r.lo(k)), l.hi(k).max(r.hi(k)));
            if node.lo(k) > min || node.hi(k) < max {
                return Err(broken(
                    i,
                    format!(
                        "axis {k}: bounds {}..{} do not contain the children's {min}..{max}",
                        node.lo(k),
                        node.hi(k)
                    ),
                ));
            }
            if node.lo(k) != min || node.hi(k) != max {
                return Err(broken(
                    i,
                    format!(
                        "axis {k}: bounds {}..{} are looser than the children's union {min}..{max}",
                        node.lo(k),
                        node.hi(k)
                    ),
                ));
            }
        }
        Ok(end)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strip(n: usize) -> Vec<[Vec3; 3]> {
        (0..n)
            .map(|i| {
                let x = i as f32;
                [
                    Vec3::new(x, 0.0, 0.0),
                    Vec3::new(x + 1.0, 0.0, 0.0),
                    Vec3::new(x, 1.0, 0.0),
                ]
            })
            .collect()
    }

    fn detail(err: BvhError) -> String {
        match err {
            BvhError::BrokenInvariant { detail, .. } => detail,
            other => panic!("expected a broken invariant, got {other}"),
        }
    }

    #[test]
    fn a_fresh_tree_validates() {
        for n in [0, 1, 8, 9, 100, 257] {
            let tris = strip(n);
            TriangleBoundsTree::build(&tris)
                .unwrap()
                .validate(&tris)
                .unwrap();
        }
    }

    #[test]
    fn validate_finds_a_wrong_escape_link() {
        let tris = strip(20);
        let mut tree = TriangleBoundsTree::build(&tris).unwrap();
        let e = tree.nodes[0].escape();
        tree.nodes[0].set_escape(e - 1);
        assert!(detail(tree.validate(&tris).unwrap_err()).contains("escape link"));
    }

    #[test]
    fn validate_finds_a_wrong_right_child_link() {
        let tris = strip(20);
        let mut tree = TriangleBoundsTree::build(&tris).unwrap();
        let n = tree.nodes[0];
        let wrong = super::super::INTERNAL | (n.right_child() as u32 + 1);
        tree.nodes[0] = Node::new(n.min(), n.max(), n.escape(), wrong);
        assert!(detail(tree.validate(&tris).unwrap_err()).contains("right-child link"));
    }

    #[test]
    fn validate_finds_a_leaf_that_does_not_contain_its_triangle() {
        let tris = strip(20);
        let mut tree = TriangleBoundsTree::build(&tris).unwrap();
        let leaf = tree.nodes.iter().position(Node::is_leaf).unwrap();
        let n = tree.nodes[leaf];
        let mut max = n.max();
        max[0] = max[0].next_down();
        tree.nodes[leaf] = Node::new(n.min(), max, n.escape(), n.triangle());
        assert!(detail(tree.validate(&tris).unwrap_err()).contains("exact bounds"));
    }

    #[test]
    fn validate_finds_a_parent_that_does_not_contain_a_child() {
        let tris = strip(20);
        let mut tree = TriangleBoundsTree::build(&tris).unwrap();
        let n = tree.nodes[0];
        let mut min = n.min();
        min[0] = 0.5;
        tree.nodes[0] = Node::new(min, n.max(), n.escape(), n.triangle());
        assert!(detail(tree.validate(&tris).unwrap_err()).contains("do not contain"));
    }

    #[test]
    fn validate_finds_a_duplicated_triangle() {
        let tris = strip(20);
        let mut tree = TriangleBoundsTree::build(&tris).unwrap();
        let leaves: Vec<usize> = (0..tree.nodes.len())
            .filter(|&i| tree.nodes[i].is_leaf())
            .collect();
        let first = tree.nodes[leaves[0]];
        tree.nodes[leaves[1]] = first;
        assert!(tree.validate(&tris).is_err());
    }

    #[test]
    fn validate_finds_a_wrong_node_count_and_snapshot() {
        let tris = strip(20);
        let mut tree = TriangleBoundsTree::build(&tris).unwrap();
        assert!(matches!(
            tree.validate(&tris[..19]),
            Err(BvhError::SnapshotMismatch {
                tree: 20,
                snapshot: 19
            })
        ));
        tree.nodes.pop();
        assert!(detail(tree.validate(&tris).unwrap_err()).contains("nodes stored"));
    }

    #[test]
    fn validate_finds_a_depth_beyond_the_bound() {
        let tris = strip(20);
        let mut tree = TriangleBoundsTree::build(&tris).unwrap();
        tree.depth = 6; // ceil(log2 20) = 5
        assert!(detail(tree.validate(&tris).unwrap_err()).contains("exceeds ceil(log2"));
    }
}
