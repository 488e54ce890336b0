//! The judge of the scenes of many bodies (the crossroads, the crashes,
//! the crowd, the lift, the rain, the dominoes, the stick): after every
//! step, which dynamic bodies ended inside another body, passed through one
//! within the step, or sank behind the ground, deeper than the continuous
//! mode promises; judged by the independent geometry of
//! [`crate::overlap`] and [`crate::terrain::HeightField::height_at`].
//!
//! # Method
//! Every judged body is a [`Solid`] at its pose. For each dynamic body and
//! each other judged body whose bounding balls (grown by what either
//! moved in the step) meet (a sort and sweep along x), the pair is a
//! finding when
//! - it ends the step overlapping deeper ([`depth`]) than the allowance:
//!   the smaller of the two shapes' promised depths
//!   (`parapet::ccd::tolerances::promised_depth`) plus the `f32` storage
//!   rounding of the positions ([`storage_allowance`]): [`Found::Inside`];
//! - or the dynamic body's centre moved, relative to the other body, by
//!   more than its own inner radius, both ends of its chord lie outside
//!   the other body, and the chord runs deeper than the allowance inside
//!   it ([`chord_depth`]): it passed through within the step,
//!   [`Found::Through`];
//!
//! and a dynamic body is a finding against the ground (a height field the
//! world holds as a one-sided mesh) when a sampled point lies below the
//! surface under it deeper than its promised depth plus the rounding:
//! [`Found::Sunk`]. Heights are vertical, never more than the distance to
//! the surface along its normal, so this too is a lower bound of the depth.
//!
//! A body is held to the same allowance in both modes: the table says what
//! DISCRETE crosses and what SPHERE_MESH_CCD holds.
//!
//! # Precision domain
//! Metres in `f64` from the bodies' `f32` state.

use parapet::ccd::tolerances::promised_depth;
use parapet::prelude::*;

use crate::overlap::{chord_depth, depth, Placed, Solid};
use crate::terrain::HeightField;

/// A body the judge watches.
#[derive(Debug, Clone, PartialEq)]
pub struct Judged {
    /// The body.
    pub body: BodyId,
    /// Its solid (for a mesh body, the solid its triangles close, such as
    /// a lift's box).
    pub solid: Solid,
    /// What it is in the scene (`car`, `walker`, `bus`, ...), for the
    /// table.
    pub label: &'static str,
}

/// What a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Found {
    /// Ended the step inside another body.
    Inside,
    /// Passed through another body within the step.
    Through,
    /// Ended the step behind the ground.
    Sunk,
}

/// One dynamic body found too deep at the end of a step.
#[derive(Debug, Clone, PartialEq)]
pub struct Finding {
    /// What was found.
    pub found: Found,
    /// The dynamic body.
    pub body: BodyId,
    /// Its label.
    pub label: &'static str,
    /// The other body (`None` for the ground).
    pub other: Option<BodyId>,
    /// The other body's label (`ground` for the ground).
    pub other_label: &'static str,
    /// The depth (m): the overlap, the chord's depth or the depth below
    /// the ground.
    pub depth: f64,
    /// The allowance (m) it exceeded.
    pub allowance: f64,
}

/// The judge of a scene of many bodies: its bodies and its ground.
#[derive(Debug, Clone, PartialEq)]
pub struct BodiesJudge {
    /// The judged bodies (dynamic ones are judged against every other).
    pub bodies: Vec<Judged>,
    /// The ground, when the world holds a height field as a mesh.
    pub ground: Option<HeightField>,
}

/// The rounding allowance (m) of a position of largest coordinate `p`:
/// half an ulp per component at that magnitude, times sqrt(3), doubled for
/// an impact position and an end position each rounded once to `f32`.
pub fn storage_allowance(p: f64) -> f64 {
    4.0 * p.abs().max(1.0) * f32::EPSILON as f64
}

/// One judged body at the start and the end of a step.
struct Pose<'a> {
    judged: &'a Judged,
    shape: &'a Shape,
    dynamic: bool,
    before: Placed,
    after: Placed,
    /// Bounding radius plus what the centre moved (m).
    reach: f64,
}

impl BodiesJudge {
    /// The findings of one step from `before` to `after` (the same world
    /// one step apart), in body order.
    pub fn findings(&self, before: &PhysicsWorld, after: &PhysicsWorld) -> Vec<Finding> {
        let poses = self.poses(before, after);
        let mut out = Vec::new();
        for p in poses.iter().filter(|p| p.dynamic) {
            self.ground_finding(p, &mut out);
        }
        for (i, j) in candidate_pairs(&poses) {
            let (a, b) = (&poses[i], &poses[j]);
            if a.dynamic {
                pair_finding(a, b, &mut out);
            }
            if b.dynamic {
                pair_finding(b, a, &mut out);
            }
        }
        out.sort_by_key(|f| (f.body, f.other));
        out
    }

    /// The deepest overlap (m) of a dynamic body inside another or below
    /// the ground in `world` (0 when none): the plotted gap is its
    /// negative.
    pub fn deepest(&self, world: &PhysicsWorld) -> f64 {
        let poses = self.poses(world, world);
        let mut worst = 0.0f64;
        for a in poses.iter().filter(|p| p.dynamic) {
            if let Some(d) = self.below_ground(a) {
                worst = worst.max(d);
            }
        }
        for (i, j) in candidate_pairs(&poses) {
            if poses[i].dynamic || poses[j].dynamic {
                worst = worst.max(depth(&poses[i].after, &poses[j].after));
            }
        }
        worst
    }

    fn poses<'a>(&'a self, before: &'a PhysicsWorld, after: &'a PhysicsWorld) -> Vec<Pose<'a>> {
        self.bodies
            .iter()
            .filter_map(|j| {
                let (b0, b1) = (before.body(j.body)?, after.body(j.body)?);
                let (p0, p1) = (Placed::of_body(b0, j.solid), Placed::of_body(b1, j.solid));
                let moved = distance(p0.centre, p1.centre);
                Some(Pose {
                    judged: j,
                    shape: b1.shape(),
                    dynamic: b1.kind() == BodyKind::Dynamic && b1.collides(),
                    before: p0,
                    after: p1,
                    reach: j.solid.bounding_radius() + moved,
                })
            })
            .collect()
    }

    /// The depth (m) of the deepest sample of `a` below the ground.
    fn below_ground(&self, a: &Pose<'_>) -> Option<f64> {
        let field = self.ground.as_ref()?;
        a.after
            .world_samples()
            .into_iter()
            .filter_map(|(p, r)| field.height_at(p[0], p[1]).map(|h| r - (p[2] - h)))
            .reduce(f64::max)
    }

    fn ground_finding(&self, a: &Pose<'_>, out: &mut Vec<Finding>) {
        let Some(d) = self.below_ground(a) else {
            return;
        };
        let allowance = promised_depth(a.shape) + storage_allowance(largest(a.after.centre));
        if d > allowance {
            out.push(Finding {
                found: Found::Sunk,
                body: a.judged.body,
                label: a.judged.label,
                other: None,
                other_label: "ground",
                depth: d,
                allowance,
            });
        }
    }
}

/// The pairs of poses whose balls (end centre, radius the reach) overlap:
/// a sort and sweep along x, then the balls.
fn candidate_pairs(poses: &[Pose<'_>]) -> Vec<(usize, usize)> {
    let low = |p: &Pose<'_>| p.after.centre[0] - p.reach;
    let mut order: Vec<usize> = (0..poses.len()).collect();
    order.sort_by(|&a, &b| low(&poses[a]).total_cmp(&low(&poses[b])));
    let mut out = Vec::new();
    for (k, &i) in order.iter().enumerate() {
        let high = poses[i].after.centre[0] + poses[i].reach;
        for &j in &order[k + 1..] {
            if low(&poses[j]) > high {
                break;
            }
            let apart = distance(poses[i].after.centre, poses[j].after.centre);
            if apart <= poses[i].reach + poses[j].reach {
                out.push((i.min(j), i.max(j)));
            }
        }
    }
    out.sort_unstable();
    out
}

/// The finding of dynamic `a` against `b`, if any.
fn pair_finding(a: &Pose<'_>, b: &Pose<'_>, out: &mut Vec<Finding>) {
    let allowance = promised_depth(a.shape).min(promised_depth(b.shape))
        + storage_allowance(largest(a.after.centre).max(largest(b.after.centre)));
    let mut push = |found: Found, d: f64| {
        out.push(Finding {
            found,
            body: a.judged.body,
            label: a.judged.label,
            other: Some(b.judged.body),
            other_label: b.judged.label,
            depth: d,
            allowance,
        })
    };
    let inside = depth(&a.after, &b.after);
    if inside > allowance {
        push(Found::Inside, inside);
        return;
    }
    let (from, to) = (a.before.centre, a.after.centre);
    let relative = distance(b.before.to_local(from), b.after.to_local(to));
    let outside = |p: [f64; 3], at: &Placed| at.signed_distance(p) >= 0.0;
    if relative > a.judged.solid.inner_radius() && outside(from, &b.before) && outside(to, &b.after)
    {
        let chord = chord_depth(from, to, &b.before, &b.after);
        if chord > allowance {
            push(Found::Through, chord);
        }
    }
}

fn distance(a: [f64; 3], b: [f64; 3]) -> f64 {
    ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2) + (a[2] - b[2]).powi(2)).sqrt()
}

fn largest(p: [f64; 3]) -> f64 {
    p[0].abs().max(p[1].abs()).max(p[2].abs())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn world_of(bodies: Vec<RigidBody>) -> (PhysicsWorld, Vec<BodyId>) {
        let mut w = PhysicsWorld::new();
        let ids = bodies.into_iter().map(|b| w.add_body(b).unwrap()).collect();
        (w, ids)
    }

    #[test]
    fn a_sphere_deep_in_a_box_is_inside_and_one_resting_on_it_is_not() {
        let cube = RigidBody::new_static(Shape::cuboid(Vec3::new(1.0, 1.0, 1.0)).unwrap());
        let ball = |z: f32| {
            RigidBody::new_dynamic(Shape::sphere(0.5).unwrap(), 1.0)
                .unwrap()
                .with_position(Vec3::new(0.0, 0.0, z))
        };
        for (z, expected) in [(1.5f32, 0usize), (1.499, 0), (1.3, 1)] {
            let (w, ids) = world_of(vec![cube.clone(), ball(z)]);
            let judge = BodiesJudge {
                bodies: ids
                    .iter()
                    .zip(["cube", "ball"])
                    .map(|(&body, label)| Judged {
                        body,
                        solid: Solid::of(w.body(body).unwrap().shape()).unwrap(),
                        label,
                    })
                    .collect(),
                ground: None,
            };
            let found = judge.findings(&w, &w);
            assert_eq!(found.len(), expected, "z = {z}: {found:?}");
            if expected == 1 {
                assert_eq!(found[0].found, Found::Inside);
                assert!((found[0].depth - 0.2).abs() < 1e-6);
                assert!((judge.deepest(&w) - 0.2).abs() < 1e-6);
            }
        }
    }

    #[test]
    fn a_sphere_that_jumped_through_a_plate_passed_through_it() {
        let plate = RigidBody::new_static(Shape::cuboid(Vec3::new(2.0, 2.0, 0.1)).unwrap());
        let ball = RigidBody::new_dynamic(Shape::sphere(0.2).unwrap(), 1.0)
            .unwrap()
            .with_position(Vec3::new(0.0, 0.0, 0.5));
        let (before, ids) = world_of(vec![plate, ball]);
        let mut after = before.clone();
        after
            .body_mut(ids[1])
            .unwrap()
            .set_position(Vec3::new(0.0, 0.0, -0.5));
        let judge = BodiesJudge {
            bodies: vec![
                Judged {
                    body: ids[0],
                    solid: Solid::Cuboid {
                        half: [2.0, 2.0, 0.1],
                    },
                    label: "plate",
                },
                Judged {
                    body: ids[1],
                    solid: Solid::Ball { radius: 0.2 },
                    label: "ball",
                },
            ],
            ground: None,
        };
        let found = judge.findings(&before, &after);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].found, Found::Through);
        assert!((found[0].depth - 0.1).abs() < 1e-9);
        // Bouncing back to where it came from is no pass.
        assert!(judge.findings(&before, &before).is_empty());
    }
}
