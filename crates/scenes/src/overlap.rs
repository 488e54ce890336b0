//! Independent overlap depths of placed solids (spheres, capsules, boxes):
//! how deep one body of a scene sits inside another, or how deep the centre
//! of a body passed through another within a step, judged in `f64` from the
//! scene's own description of each solid, sharing no code with parapet's
//! contacts, sweeps or arbiter.
//!
//! # Method
//! Every solid is a core (a point, a segment or a box) grown by a radius,
//! with an exact signed distance in its own frame (negative inside):
//! `|p| - r` for a ball, the distance to the segment less `r` for a
//! capsule, and the box's own formula (outside: the length of the clamped
//! excess; inside: minus the smallest distance to a face).
//!
//! The depth of a pair is the largest depth of a sampled point of either
//! solid inside the other ([`depth`]): a ball samples its centre (with its
//! radius), a capsule [`AXIS_SAMPLES`] points of its segment (with its
//! radius), a box a [`FACE_SAMPLES`] square grid on each
//! face ([`box_surface`]). Each sampled depth is a depth
//! that some point of one solid truly has inside the other, so the result
//! is a **lower bound** of the penetration depth (the shortest translation
//! that separates the pair): a judge built on it never reports an overlap
//! that is not there, and may miss one that falls between samples. It is
//! exact for a ball against anything, for a capsule parallel to a box face
//! or to another capsule, and for a box corner inside another solid; an
//! edge of a box crossing an edge of another is seen at the grid points.
//!
//! [`chord_depth`] judges a pass-through within one step: the straight
//! chord between a body's centre before and after the step, in the other
//! solid's frame before and after, and how deep it runs inside that solid
//! (golden-section search: the signed distance of a convex solid is convex
//! along a line, so its negative has one maximum on the chord).
//!
//! # Precision domain
//! Metres in `f64`; poses read from the bodies' `f32` state, so depths
//! carry the `f32` storage rounding of positions (a few ulps of the
//! largest coordinate), which the judges' allowance covers.

use parapet::prelude::*;

/// Points per face edge of the sampled grid of a box's surface (count): a
/// 9 x 9 grid, spacing a quarter of the half extent (0.55 m along the
/// chassis), so a terrain bump narrower than that may poke between samples
/// without being seen; the corners and edge midpoints, which decide a
/// landing on a smooth terrain, are always sampled.
pub const FACE_SAMPLES: usize = 9;

/// Points (m, body frame) on the surface of a box of half extents `h`: a
/// [`FACE_SAMPLES`] square grid on each face.
pub fn box_surface(h: Vec3) -> Vec<Vec3> {
    let n = FACE_SAMPLES;
    let at = |i: usize| 2.0 * i as f32 / (n - 1) as f32 - 1.0;
    let mut out = Vec::with_capacity(6 * n * n);
    for axis in 0..3 {
        let (a, b) = ((axis + 1) % 3, (axis + 2) % 3);
        for sign in [-1.0f32, 1.0] {
            for i in 0..n {
                for j in 0..n {
                    let mut p = Vec3::zeros();
                    p[axis] = sign * h[axis];
                    p[a] = at(i) * h[a];
                    p[b] = at(j) * h[b];
                    out.push(p);
                }
            }
        }
    }
    out
}

/// Points sampled along a capsule's segment (count): both ends and seven
/// between, so a capsule tilted against a face is seen within an eighth of
/// its segment of its deepest point.
pub const AXIS_SAMPLES: usize = 9;

/// Golden-section iterations of [`chord_depth`] (count): the bracket
/// shrinks by 0.618 per iteration, to 1e-13 of the chord after 64.
const CHORD_ITERATIONS: usize = 64;

/// A solid as the judges see it: a core grown by a radius, centred on its
/// own origin, its segment along local +z.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Solid {
    /// A ball of this radius (m).
    Ball {
        /// Radius (m).
        radius: f64,
    },
    /// A capsule: the points within `radius` of the local z segment from
    /// `-half_height` to `+half_height`.
    Capsule {
        /// Radius (m).
        radius: f64,
        /// Half length of the segment (m).
        half_height: f64,
    },
    /// A box of these half extents (m).
    Cuboid {
        /// Half extents (m) along local x, y, z.
        half: [f64; 3],
    },
}

impl Solid {
    /// The solid of a sphere, capsule or box shape; `None` for a hull or a
    /// mesh (a scene describes those itself, for example a lift's closed
    /// box mesh as [`Solid::Cuboid`]).
    pub fn of(shape: &Shape) -> Option<Self> {
        Some(match shape {
            Shape::Sphere(s) => Solid::Ball {
                radius: s.radius() as f64,
            },
            Shape::Capsule(c) => Solid::Capsule {
                radius: c.radius() as f64,
                half_height: c.half_height() as f64,
            },
            Shape::Cuboid(c) => Solid::Cuboid {
                half: c.half_extents().map(|h| h as f64).into(),
            },
            _ => return None,
        })
    }

    /// The radius (m) of the largest ball about the solid's centre that
    /// it contains: the radius, or the smallest half extent.
    pub fn inner_radius(&self) -> f64 {
        match *self {
            Solid::Ball { radius } | Solid::Capsule { radius, .. } => radius,
            Solid::Cuboid { half } => half[0].min(half[1]).min(half[2]),
        }
    }

    /// The radius (m) of the smallest ball about the centre that contains
    /// the solid.
    pub fn bounding_radius(&self) -> f64 {
        match *self {
            Solid::Ball { radius } => radius,
            Solid::Capsule {
                radius,
                half_height,
            } => radius + half_height,
            Solid::Cuboid { half } => norm(half),
        }
    }

    /// The signed distance (m) from `p` (local frame) to the solid's
    /// surface: negative inside.
    pub fn signed_distance(&self, p: [f64; 3]) -> f64 {
        match *self {
            Solid::Ball { radius } => norm(p) - radius,
            Solid::Capsule {
                radius,
                half_height,
            } => {
                let z = p[2].clamp(-half_height, half_height);
                norm([p[0], p[1], p[2] - z]) - radius
            }
            Solid::Cuboid { half } => {
                let q = [0, 1, 2].map(|k| p[k].abs() - half[k]);
                let outside = norm(q.map(|x| x.max(0.0)));
                let inside = q[0].max(q[1]).max(q[2]).min(0.0);
                outside + inside
            }
        }
    }

    /// The sampled points (local frame) of the solid's core with the
    /// radius around each (m): a ball's centre, a capsule's
    /// [`AXIS_SAMPLES`] segment points, a box's surface grid (radius 0).
    pub fn samples(&self) -> Vec<([f64; 3], f64)> {
        match *self {
            Solid::Ball { radius } => vec![([0.0; 3], radius)],
            Solid::Capsule {
                radius,
                half_height,
            } => (0..AXIS_SAMPLES)
                .map(|i| {
                    let s = 2.0 * i as f64 / (AXIS_SAMPLES - 1) as f64 - 1.0;
                    ([0.0, 0.0, s * half_height], radius)
                })
                .collect(),
            Solid::Cuboid { half } => {
                let h = Vec3::new(half[0] as f32, half[1] as f32, half[2] as f32);
                box_surface(h)
                    .into_iter()
                    .map(|p| {
                        (
                            [0, 1, 2].map(|k| (p[k] as f64).clamp(-half[k], half[k])),
                            0.0,
                        )
                    })
                    .collect()
            }
        }
    }
}

/// A solid at a pose: its centre (m, world) and the rotation matrix (rows
/// of body-to-world) that turns its local frame into the world's.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Placed {
    /// The solid.
    pub solid: Solid,
    /// Its centre (m, world).
    pub centre: [f64; 3],
    /// Body to world, `rotation[i][j]` the row `i`, column `j`.
    pub rotation: [[f64; 3]; 3],
}

impl Placed {
    /// `solid` placed by `body`'s pose composed with its shape offset, in
    /// `f64` from the stored `f32` values.
    pub fn of_body(body: &RigidBody, solid: Solid) -> Self {
        let (offset, turn) = body.shape_offset();
        let q = body.rotation();
        let centre = body.position().cast::<f64>() + (q * offset).cast::<f64>();
        let r = (q * turn).cast::<f64>().to_rotation_matrix();
        let m = r.matrix();
        Self {
            solid,
            centre: [centre.x, centre.y, centre.z],
            rotation: [0, 1, 2].map(|i| [0, 1, 2].map(|j| m[(i, j)])),
        }
    }

    /// `p` (world) in the solid's frame.
    pub fn to_local(&self, p: [f64; 3]) -> [f64; 3] {
        let d = [0, 1, 2].map(|k| p[k] - self.centre[k]);
        [0, 1, 2].map(|j| (0..3).map(|i| self.rotation[i][j] * d[i]).sum())
    }

    /// `q` (local) in the world frame.
    pub fn to_world(&self, q: [f64; 3]) -> [f64; 3] {
        [0, 1, 2].map(|i| self.centre[i] + (0..3).map(|j| self.rotation[i][j] * q[j]).sum::<f64>())
    }

    /// The signed distance (m) from `p` (world) to the solid.
    pub fn signed_distance(&self, p: [f64; 3]) -> f64 {
        self.solid.signed_distance(self.to_local(p))
    }

    /// The sampled core points in the world frame, each with its radius.
    pub fn world_samples(&self) -> Vec<([f64; 3], f64)> {
        self.solid
            .samples()
            .into_iter()
            .map(|(q, r)| (self.to_world(q), r))
            .collect()
    }
}

/// How deep (m) the sampled points of `a` reach into `b` and those of `b`
/// into `a`: the largest `radius - signed distance` over both sample sets,
/// 0 when apart. A lower bound of the pair's penetration depth (see the
/// module documentation).
pub fn depth(a: &Placed, b: &Placed) -> f64 {
    let d = norm([0, 1, 2].map(|k| a.centre[k] - b.centre[k]));
    if d >= a.solid.bounding_radius() + b.solid.bounding_radius() {
        return 0.0;
    }
    let into = |from: &Placed, to: &Placed| {
        from.world_samples()
            .into_iter()
            .map(|(p, r)| r - to.signed_distance(p))
            .fold(0.0, f64::max)
    };
    into(a, b).max(into(b, a))
}

/// How deep (m) the chord from `from` (world, at the step's start) to `to`
/// (world, at its end) runs inside `other`, taken in `other`'s frame at
/// each end (`before`, `after`): the largest depth of a chord point inside
/// the solid, 0 when the chord misses it. When both ends lie outside the
/// solid and the chord runs deep inside, the point passed through it
/// within the step (an impact would have turned it back on the outside of
/// a supporting plane of the solid, and the chord would stay there).
pub fn chord_depth(from: [f64; 3], to: [f64; 3], before: &Placed, after: &Placed) -> f64 {
    let (p, q) = (before.to_local(from), after.to_local(to));
    let at = |t: f64| {
        -before
            .solid
            .signed_distance([0, 1, 2].map(|k| p[k] + t * (q[k] - p[k])))
    };
    let ratio = 0.5 * (5f64.sqrt() - 1.0);
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    for _ in 0..CHORD_ITERATIONS {
        let m1 = hi - ratio * (hi - lo);
        let m2 = lo + ratio * (hi - lo);
        if at(m1) < at(m2) {
            lo = m1;
        } else {
            hi = m2;
        }
    }
    at(0.5 * (lo + hi)).max(at(0.0)).max(at(1.0)).max(0.0)
}

fn norm(v: [f64; 3]) -> f64 {
    (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn placed(solid: Solid, centre: [f64; 3]) -> Placed {
        Placed {
            solid,
            centre,
            rotation: [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]],
        }
    }

    #[test]
    fn signed_distances_are_the_textbook_ones() {
        let b = Solid::Cuboid {
            half: [2.0, 1.0, 0.5],
        };
        assert_eq!(b.signed_distance([3.0, 0.0, 0.0]), 1.0);
        assert_eq!(b.signed_distance([0.0, 0.0, 0.25]), -0.25);
        // Outside a corner: the distance to the corner, 3-4-0 triangle.
        assert_eq!(b.signed_distance([5.0, 5.0, 0.0]), 5.0);
        let c = Solid::Capsule {
            radius: 0.5,
            half_height: 1.0,
        };
        assert_eq!(c.signed_distance([0.0, 2.0, 0.7]), 1.5);
        assert_eq!(c.signed_distance([0.0, 0.0, 2.0]), 0.5);
        assert_eq!(
            Solid::Ball { radius: 1.0 }.signed_distance([0.0, 0.0, 0.25]),
            -0.75
        );
    }

    #[test]
    fn a_ball_pressed_into_a_box_has_its_exact_depth_and_apart_none() {
        let b = placed(
            Solid::Cuboid {
                half: [1.0, 1.0, 1.0],
            },
            [0.0; 3],
        );
        let s = placed(Solid::Ball { radius: 0.5 }, [1.25, 0.0, 0.0]);
        assert!((depth(&s, &b) - 0.25).abs() < 1e-12);
        let far = placed(Solid::Ball { radius: 0.5 }, [1.75, 0.0, 0.0]);
        assert_eq!(depth(&far, &b), 0.0);
    }

    #[test]
    fn a_box_corner_inside_a_turned_box_is_seen() {
        // Box b turned 45 degrees about z: its corner along +x reaches
        // x = sqrt(2); box a's face at x = 1.3 is 0.114 m behind it.
        let (s, c) = (0.5f64.sqrt(), 0.5f64.sqrt());
        let b = Placed {
            solid: Solid::Cuboid {
                half: [1.0, 1.0, 1.0],
            },
            centre: [0.0; 3],
            rotation: [[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]],
        };
        let a = placed(
            Solid::Cuboid {
                half: [1.0, 1.0, 1.0],
            },
            [2.3, 0.0, 0.0],
        );
        let expected = 2f64.sqrt() - 1.3;
        assert!((depth(&a, &b) - expected).abs() < 1e-9, "{}", depth(&a, &b));
    }

    #[test]
    fn a_chord_through_a_plate_is_a_pass_and_a_chord_beside_it_is_not() {
        let plate = placed(
            Solid::Cuboid {
                half: [2.0, 2.0, 0.1],
            },
            [0.0; 3],
        );
        // Straight down through the plate: the chord's deepest point is the
        // plate's mid-plane, 0.1 m inside.
        let d = chord_depth([0.5, 0.5, 1.0], [0.5, 0.5, -1.0], &plate, &plate);
        assert!((d - 0.1).abs() < 1e-9, "{d}");
        // The plate moved up by 2 m while the point stayed: the same pass.
        let up = placed(
            Solid::Cuboid {
                half: [2.0, 2.0, 0.1],
            },
            [0.0, 0.0, 2.0],
        );
        let d = chord_depth([0.5, 0.5, 1.0], [0.5, 0.5, 1.0], &plate, &up);
        assert!((d - 0.1).abs() < 1e-9, "{d}");
        // Beside the plate: no depth.
        assert_eq!(
            chord_depth([3.0, 0.0, 1.0], [3.0, 0.0, -1.0], &plate, &plate),
            0.0
        );
    }
}
