//! The sweep and impact loop of one body alone in its group (seed 000 "Step
//! and contact behavior", "Precision and refusal limits", "Ordering, limits
//! and rollback").
//!
//! # Method
//! The body's shape translates at its post-solver velocity (plus its split
//! velocity, as the pose update would move it) over the remaining time. The
//! bounds tree is queried once for the whole reachable region
//! ([`super::reach`]); every candidate whose owner collides is swept each
//! pass, in triangle insertion order, so a refusal of any candidate is
//! returned before any hit is used. Each pass takes the earliest approaching
//! front-side contact (triangle ties by insertion order; the sweeps keep
//! face, edge, vertex order within a triangle): a hit, or an initial contact
//! whose normal closes on the triangle beyond the approach bound. The body
//! advances to it (its position rounded to `f32`, the retained impact
//! position), the world looks up an initial contact of the selected triangle
//! from that position in the incoming direction (its normal, when it
//! exists, controls the response), applies the normal and Coulomb impulse of
//! [`super::response`], and sweeps the rest of the step with the new
//! velocity. After the first impact the split velocity no longer moves the
//! body (it corrected an initial overlap that the impact has replaced).
//! More than `max_impacts` impacts raise [`CcdError::ImpactLimit`]; the loop
//! never drops remaining time, freezes the body or continues through a
//! surface.
//!
//! Orientation: a body with an impact turns over each time segment by the
//! normalized-quaternion update with that segment's angular velocity (after
//! the split correction's turn, as the pose update does), and keeps the last
//! angular velocity. A body without an impact is not moved here: the world
//! integrates it as in the discrete mode, along the same straight path.
//!
//! # Precision domain
//! The sweeps' (seed 000 limits, checked by them and reported as
//! [`CcdError::SweepRefused`]); here also the coordinates of the start and
//! end positions within 65536 radii.

use parapet_geometry::bvh::{Ball, TriangleBoundsTree};
use parapet_geometry::Material;
use parapet_math::{demote, promote, Quat, Vec3, Vec3d};
use parapet_narrow::sweep::{
    sweep_capsule_triangle, sweep_solid_triangle, sweep_sphere_triangle, Impact, SolidPlacement,
    SweepOutcome, APPROACH_EPS_FACTOR, MAX_COORDINATE, MAX_COORDINATE_RADII,
};
use parapet_solver::integrate::quaternion_update::quaternion_update;
use parapet_solver::RigidBody;

use super::error::CcdError;
use super::reach::Reach;
use super::response::{respond, ResponseBody};
use super::support::SweptShape;

/// The static triangles a body can hit: the world's snapshot, its bounds
/// tree, and the material of each triangle's owner (`None` when the owner's
/// collisions are off: its triangles stay in the snapshot but collide with
/// nothing).
pub struct MeshView<'a> {
    /// The snapshot, world space, insertion order.
    pub triangles: &'a [[Vec3; 3]],
    /// The bounds tree of the snapshot.
    pub tree: &'a TriangleBoundsTree,
    /// The owner's material of triangle `i`, `None` when it does not collide.
    pub material: &'a (dyn Fn(usize) -> Option<Material> + Sync),
}

/// One swept impact.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SweptImpact {
    /// The moving body's index.
    pub body: usize,
    /// The triangle's snapshot index.
    pub triangle: usize,
    /// Fraction of the step in `[0, 1]`.
    pub time: f64,
    /// Contact point on the triangle (world, m).
    pub point: Vec3d,
    /// Unit normal from the triangle towards the body.
    pub normal: Vec3d,
    /// Impulse applied to the moving body (N s, world).
    pub impulse: Vec3d,
}

/// The pose and velocities a body ends the step with after its impacts.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SweptMotion {
    /// Body origin (m).
    pub position: Vec3,
    /// Body rotation.
    pub rotation: Quat,
    /// Linear velocity (m/s).
    pub linear_velocity: Vec3,
    /// Angular velocity (rad/s).
    pub angular_velocity: Vec3,
}

/// What one body's sweep produced.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SoloOutcome {
    /// The end state when the body took an impact (`None`: integrate it as usual).
    pub motion: Option<SweptMotion>,
    /// Its impacts in time order.
    pub impacts: Vec<SweptImpact>,
}

/// One body to sweep.
pub struct SoloInput<'a> {
    /// The body's index (insertion order).
    pub index: usize,
    /// The body: start-of-step pose, post-solver velocity and split velocity.
    pub body: &'a RigidBody,
    /// Its swept shape ([`super::support::classify`]).
    pub shape: &'a SweptShape,
    /// Its reachable region ([`super::reach`]).
    pub reach: Reach,
    /// Step length (s).
    pub dt: f32,
    /// `ccd_max_impacts`.
    pub max_impacts: u32,
}

/// Whether `normal . motion` closes beyond the approach bound of seed 000
/// (32 eps times the sum of the absolute products).
fn closes(normal: &Vec3d, motion: &Vec3d) -> bool {
    let t = normal.component_mul(motion);
    let dot = t.x + t.y + t.z;
    let scale = t.x.abs() + t.y.abs() + t.z.abs();
    dot < -APPROACH_EPS_FACTOR * f64::EPSILON * scale
}

/// Checks that every coordinate of `p` is within [`MAX_COORDINATE`] m and
/// within [`MAX_COORDINATE_RADII`] radii.
///
/// # Errors
/// [`CcdError::Precision`] naming the coordinate.
pub fn check_coordinates(index: usize, p: &Vec3d, radius: f64) -> Result<(), CcdError> {
    for &x in p.iter() {
        if !(x.abs() <= MAX_COORDINATE) {
            return Err(CcdError::Precision {
                body: index,
                quantity: "position coordinate (m)",
                value: x,
                limit: MAX_COORDINATE,
            });
        }
        let ratio = x.abs() / radius;
        if !(ratio <= MAX_COORDINATE_RADII) {
            return Err(CcdError::Precision {
                body: index,
                quantity: "position coordinate (radii)",
                value: ratio,
                limit: MAX_COORDINATE_RADII,
            });
        }
    }
    Ok(())
}

/// A found contact, feature labels dropped.
#[derive(Debug, Clone, Copy)]
struct Found {
    triangle: usize,
    initial: bool,
    impact: Impact<()>,
}

fn plain<F: Copy>(o: SweepOutcome<F>) -> SweepOutcome<()> {
    let f = |i: Impact<F>| Impact {
        time: i.time,
        point: i.point,
        normal: i.normal,
        feature: (),
    };
    match o {
        SweepOutcome::Hit(i) => SweepOutcome::Hit(f(i)),
        SweepOutcome::InitiallyTouching(i) => SweepOutcome::InitiallyTouching(f(i)),
        SweepOutcome::Miss => SweepOutcome::Miss,
        SweepOutcome::Refused(r) => SweepOutcome::Refused(r),
    }
}

/// The fixed geometry of the moving shape during the step.
struct Mover<'a> {
    shape: &'a SweptShape,
    /// Capsule: the `f32` world half axis.
    half_axis: Vec3d,
    body_rotation: Quat,
    shape_offset: Vec3,
    shape_rotation: Quat,
}

impl Mover<'_> {
    fn sweep(&self, p: Vec3, v: Vec3, tau: f32, tri: &[Vec3; 3]) -> SweepOutcome<()> {
        match self.shape {
            SweptShape::Sphere { radius } => plain(sweep_sphere_triangle(p, *radius, v, tau, tri)),
            SweptShape::Capsule { radius, .. } => {
                let c = promote(p);
                let p0 = (c - self.half_axis).map(|x| x as f32);
                let p1 = (c + self.half_axis).map(|x| x as f32);
                plain(sweep_capsule_triangle(p0, p1, *radius, v, tau, tri))
            }
            SweptShape::Solid { solid, .. } => {
                let placement = SolidPlacement {
                    body_position: p,
                    body_rotation: self.body_rotation,
                    shape_offset: self.shape_offset,
                    shape_rotation: self.shape_rotation,
                };
                plain(sweep_solid_triangle(solid, &placement, v, tau, tri))
            }
        }
    }

    /// Lever arm from the mass centre `p` (the body origin: centred shapes
    /// and bodies that cannot turn) to the contact.
    fn arm(&self, p: Vec3, impact: &Impact<()>) -> Vec3d {
        match self.shape {
            SweptShape::Sphere { radius } => -impact.normal * *radius as f64,
            _ => impact.point - promote(p),
        }
    }
}

/// The capsule's `f32` world half axis `R_body R_shape (0, 0, h)`.
pub fn capsule_half_axis(body: &RigidBody, half_height: f32) -> Vec3 {
    let (_, shape_rotation) = body.shape_offset();
    let q =
        parapet_math::promote_quat(body.rotation()) * parapet_math::promote_quat(shape_rotation);
    let q = parapet_math::nalgebra::UnitQuaternion::new_normalize(q.into_inner());
    (q * Vec3d::new(0.0, 0.0, half_height as f64)).map(|x| x as f32)
}

/// Sweeps one body alone against the static triangles (see the module docs).
///
/// # Errors
/// [`CcdError::SweepRefused`], [`CcdError::ImpactLimit`],
/// [`CcdError::Precision`] or [`CcdError::NotRepresentable`], naming the body.
pub fn sweep_alone(input: &SoloInput<'_>, mesh: &MeshView<'_>) -> Result<SoloOutcome, CcdError> {
    let index = input.index;
    let body = input.body;
    let dt = input.dt;
    let limit_radius = input.shape.limit_radius();
    check_coordinates(index, &promote(body.position()), limit_radius)?;

    let ball = Ball::new(input.reach.center, input.reach.radius).map_err(|_| {
        CcdError::NotRepresentable {
            body: index,
            quantity: "reach radius",
            value: input.reach.radius,
        }
    })?;
    let candidates: Vec<(usize, Material)> = mesh
        .tree
        .query_vec(&ball)
        .into_iter()
        .filter_map(|t| {
            let t = t as usize;
            (mesh.material)(t).map(|m| (t, body.material().mix(&m)))
        })
        .collect();

    let (shape_offset, shape_rotation) = body.shape_offset();
    let half_axis = match input.shape {
        SweptShape::Capsule { half_height, .. } => promote(capsule_half_axis(body, *half_height)),
        _ => Vec3d::zeros(),
    };
    let mover = Mover {
        shape: input.shape,
        half_axis,
        body_rotation: body.rotation(),
        shape_offset,
        shape_rotation,
    };
    let response_body = ResponseBody {
        inverse_mass: body.inverse_mass() as f64,
        inverse_inertia: body.world_inverse_inertia_f64(),
    };

    let split = body.split_linear_velocity();
    let mut p = body.position();
    let mut v = body.linear_velocity();
    let mut w = body.angular_velocity();
    let mut sweep_v = if split == Vec3::zeros() {
        v
    } else {
        demote(promote(v) + promote(split)).map_err(|_| CcdError::NotRepresentable {
            body: index,
            quantity: "swept velocity",
            value: f64::INFINITY,
        })?
    };
    let mut tau = dt;
    let mut elapsed = 0.0f64;
    let mut impacts: Vec<SweptImpact> = Vec::new();
    let mut segments: Vec<(Vec3, f64)> = Vec::new();
    let mut passes = 0u32;
    let to_f32 = |quantity: &'static str, x: Vec3d| {
        demote(x).map_err(|_| CcdError::NotRepresentable {
            body: index,
            quantity,
            value: x.amax(),
        })
    };

    while tau > 0.0 {
        let mut best: Option<Found> = None;
        for &(t, _) in &candidates {
            let found = match mover.sweep(p, sweep_v, tau, &mesh.triangles[t]) {
                SweepOutcome::Refused(refusal) => {
                    return Err(CcdError::SweepRefused {
                        body: index,
                        triangle: t,
                        refusal,
                    })
                }
                SweepOutcome::Miss => continue,
                SweepOutcome::Hit(impact) => Found {
                    triangle: t,
                    initial: false,
                    impact,
                },
                SweepOutcome::InitiallyTouching(impact) => {
                    let motion = promote(sweep_v) * tau as f64;
                    if !closes(&impact.normal, &motion) {
                        continue;
                    }
                    Found {
                        triangle: t,
                        initial: true,
                        impact: Impact {
                            time: 0.0,
                            ..impact
                        },
                    }
                }
            };
            let earlier = match &best {
                None => true,
                Some(b) => {
                    found.impact.time < b.impact.time
                        || (found.impact.time == b.impact.time && found.initial && !b.initial)
                }
            };
            if earlier {
                best = Some(found);
            }
        }
        let Some(hit) = best else {
            break;
        };
        passes += 1;
        if passes > input.max_impacts {
            return Err(CcdError::ImpactLimit {
                body: index,
                impacts: passes - 1,
                limit: input.max_impacts,
            });
        }
        let s = hit.impact.time.clamp(0.0, 1.0);
        let travel = tau as f64 * s;
        p = to_f32("position", promote(p) + promote(sweep_v) * travel)?;
        elapsed += travel;
        segments.push((w, travel));
        tau = ((tau as f64 - travel).max(0.0)) as f32;

        // Pre-response lookup at the retained impact position.
        let mut contact = hit.impact;
        if !hit.initial {
            let probe = mover.sweep(p, sweep_v, tau, &mesh.triangles[hit.triangle]);
            if let SweepOutcome::InitiallyTouching(i) = probe {
                contact = i;
            }
        }
        let material = candidates
            .iter()
            .find(|(t, _)| *t == hit.triangle)
            .map(|(_, m)| *m)
            .unwrap_or_default();
        let arm = mover.arm(p, &contact);
        let mut response = respond(index, &response_body, v, w, arm, contact.normal, &material)?;
        if response.is_none() && contact != hit.impact {
            // The looked-up contact does not close: the sweep's own normal,
            // which approaches by construction, takes the impact, so the
            // loop always makes progress.
            contact = hit.impact;
            let arm = mover.arm(p, &contact);
            response = respond(index, &response_body, v, w, arm, contact.normal, &material)?;
        }
        if let Some(r) = response {
            v = r.linear_velocity;
            w = r.angular_velocity;
            impacts.push(SweptImpact {
                body: index,
                triangle: hit.triangle,
                time: (elapsed / dt as f64).clamp(0.0, 1.0),
                point: contact.point,
                normal: contact.normal,
                impulse: r.impulse,
            });
        }
        sweep_v = v;
    }

    if passes == 0 {
        let end = promote(p) + promote(sweep_v) * tau as f64;
        check_coordinates(index, &end, limit_radius)?;
        return Ok(SoloOutcome::default());
    }
    p = to_f32("position", promote(p) + promote(sweep_v) * tau as f64)?;
    segments.push((w, tau as f64));
    check_coordinates(index, &promote(p), limit_radius)?;

    let mut q = body.rotation();
    let turn = |q: &Quat, w: &Vec3, h: f64| {
        quaternion_update(q, w, h).ok_or(CcdError::NotRepresentable {
            body: index,
            quantity: "rotation",
            value: f64::NAN,
        })
    };
    if body.split_angular_velocity() != Vec3::zeros() {
        q = turn(&q, &body.split_angular_velocity(), dt as f64)?;
    }
    for (ws, h) in &segments {
        if *ws != Vec3::zeros() && *h > 0.0 {
            q = turn(&q, ws, *h)?;
        }
    }
    Ok(SoloOutcome {
        motion: Some(SweptMotion {
            position: p,
            rotation: q,
            linear_velocity: v,
            angular_velocity: w,
        }),
        impacts,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ccd::reach::dynamic_reach;
    use parapet_geometry::Shape;

    fn floor() -> Vec<[Vec3; 3]> {
        vec![
            [
                Vec3::new(-5.0, -5.0, 0.0),
                Vec3::new(5.0, -5.0, 0.0),
                Vec3::new(5.0, 5.0, 0.0),
            ],
            [
                Vec3::new(-5.0, -5.0, 0.0),
                Vec3::new(5.0, 5.0, 0.0),
                Vec3::new(-5.0, 5.0, 0.0),
            ],
        ]
    }

    fn run(
        body: &RigidBody,
        tris: &[[Vec3; 3]],
        dt: f32,
        max_impacts: u32,
    ) -> Result<SoloOutcome, CcdError> {
        let tree = TriangleBoundsTree::build(tris).unwrap();
        let material = |_: usize| Some(Material::default());
        let mesh = MeshView {
            triangles: tris,
            tree: &tree,
            material: &material,
        };
        let shape = SweptShape::Sphere { radius: 0.1 };
        let e = crate::ccd::reach::bound_energy(body);
        let reach = dynamic_reach(promote(body.position()), 0.1, e, 1.0, Vec3::zeros(), dt);
        sweep_alone(
            &SoloInput {
                index: 7,
                body,
                shape: &shape,
                reach,
                dt,
                max_impacts,
            },
            &mesh,
        )
    }

    fn sphere(z: f32, vz: f32) -> RigidBody {
        RigidBody::new_dynamic(Shape::sphere(0.1).unwrap(), 1.0)
            .unwrap()
            .with_material(Material {
                friction: 0.0,
                restitution: 1.0,
                bounce_threshold: 0.5,
            })
            .with_position(Vec3::new(0.3, 0.2, z))
            .with_linear_velocity(Vec3::new(0.0, 0.0, vz))
    }

    #[test]
    fn an_elastic_sphere_rebounds_from_the_floor_within_the_step() {
        // Impact after 0.05 m of 0.3 m: at 1/6 of the step, then 0.25 m up.
        let out = run(&sphere(0.15, -30.0), &floor(), 0.01, 16).unwrap();
        let m = out.motion.unwrap();
        assert!((m.position.z - 0.35).abs() < 1e-6, "{}", m.position.z);
        assert_eq!(m.linear_velocity, Vec3::new(0.0, 0.0, 30.0));
        assert_eq!(out.impacts.len(), 1);
        let i = out.impacts[0];
        assert_eq!((i.body, i.triangle), (7, 0));
        assert!((i.time - 1.0 / 6.0).abs() < 1e-6);
        assert!((i.impulse.z - 60.0).abs() < 1e-4);
    }

    #[test]
    fn a_body_without_impact_is_left_to_the_integrator() {
        let out = run(&sphere(2.0, -30.0), &floor(), 0.01, 16).unwrap();
        assert_eq!(out, SoloOutcome::default());
    }

    #[test]
    fn one_impact_too_many_is_an_error_naming_the_body() {
        let e = run(&sphere(0.15, -30.0), &floor(), 0.01, 0).unwrap_err();
        assert_eq!(
            e,
            CcdError::ImpactLimit {
                body: 7,
                impacts: 0,
                limit: 0
            }
        );
    }
}
