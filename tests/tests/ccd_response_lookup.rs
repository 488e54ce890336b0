//! The pre-response initial-contact lookup at the retained impact position
//! and the velocity reconstruction of SPHERE_MESH_CCD (docs/continuous-collision.md
//! "Precision limits"), shown through `PhysicsWorld`, the public
//! `sweep_alone` of `parapet_world::ccd` and `respond_body_triangle` of
//! `parapet_solver::impact`.
//!
//! * An almost axial impact (a sphere falling on a floor tilted by a tiny
//!   angle, restitution 0 and 1) ends with the normal velocity at the
//!   restitution target within dot-product roundoff of the final operands,
//!   never closing, and takes exactly one swept impact: no repeated
//!   zero-time impacts from projection roundoff.
//! * The lookup does not move the body, search future times or add an
//!   impact: the swept impact time and point are the analytic first contact,
//!   the end position is the impact position plus the new velocity times the
//!   remaining time, and the impact count is the number of real impacts.
//! * Edge and vertex impacts (600 aimed cases, almost axial, restitution 0
//!   and 1) respond to the normal of the initial contact looked up at the
//!   retained f32 position: no two impacts share a time, and the velocity
//!   left is at the target against the reported normal. With the lookup
//!   disabled (the sweep's own normal used), this test fails with a second
//!   zero-time impact of 5e-10 N s on an edge (checked when it was written).
//!
//! Oracles: plain `f64` plane geometry written here (time of contact of a
//! sphere with a plane, reflection of the velocity), sharing no code with
//! the sweeps or the response.

mod ccd_support;

use ccd_support::{mat, plate};
use parapet_geometry::bvh::TriangleBoundsTree;
use parapet_geometry::{ActiveEdges, Material, Shape};
use parapet_math::{promote, Vec3, Vec3d};
use parapet_solver::impact::{respond_body_triangle, ImpactMass};
use parapet_solver::RigidBody;
use parapet_world::ccd::reach::{bound_energy, dynamic_reach};
use parapet_world::ccd::{sweep_alone, MeshView, SoloInput, SoloOutcome, SweptShape};
use parapet_world::{ContactKind, PhysicsWorld, SPHERE_MESH_CCD};

/// Sphere radius (m).
const RADIUS: f32 = 0.1;

/// Relative bound of the restitution residue `n · v' - target` against the
/// final operands `Σ |n_k v'_k|`: the reconstruction picks, for the
/// component `k` of largest `|n_k|`, the `f32` neighbour nearest above the
/// target, so the residue is at most `|n_k| ulp(v'_k) <= 2^-23 |n_k v'_k|`,
/// plus `f64` roundoff of the dot products (~1e-16); 2^-22 leaves a factor 2.
const RESIDUE_RELATIVE: f64 = 1.0 / (1u64 << 22) as f64;

/// Relative allowance below the target for the `f64` roundoff of this
/// test's own dot product (3 products and 2 sums: a few `f64::EPSILON`).
const DOT_ROUNDOFF_RELATIVE: f64 = 8.0 * f64::EPSILON;

/// The unit normal of a triangle in `f64` from its `f32` vertices.
fn triangle_normal(t: &[Vec3; 3]) -> Vec3d {
    let (a, b, c) = (promote(t[0]), promote(t[1]), promote(t[2]));
    (b - a).cross(&(c - a)).normalize()
}

/// Asserts `target <= n · v <= target + bound` with the bound relative to
/// the final operands (see [`RESIDUE_RELATIVE`]).
fn assert_within_dot_roundoff(n: &Vec3d, v: Vec3, target: f64, what: &str) {
    let v = promote(v);
    let scale: f64 = (0..3).map(|k| (n[k] * v[k]).abs()).sum();
    let residue = n.dot(&v) - target;
    assert!(
        residue >= -DOT_ROUNDOFF_RELATIVE * scale && residue <= RESIDUE_RELATIVE * scale,
        "{what}: n·v' - target = {residue:e}, operands {scale:e}"
    );
}

/// The tilted floor normals: tiny angles about x and y, down to one f32 ulp.
fn tilts() -> Vec<Vec3> {
    let mut out = Vec::new();
    for (i, a) in [1e-7f32, 3e-6, 1e-4, 2.3e-3, 0.017].into_iter().enumerate() {
        let (s, c) = a.sin_cos();
        out.push(Vec3::new(s, 0.0, c));
        out.push(Vec3::new(0.0, -s, c));
        out.push(Vec3::new(s * 0.6, s * 0.8 * (i as f32 - 2.0).signum(), c).normalize());
    }
    out
}

#[test]
fn an_almost_axial_impact_lands_on_the_restitution_target_with_one_impact() {
    let mut checked = 0;
    for restitution in [0.0f32, 1.0] {
        for normal in tilts() {
            for speed in [3.0f32, 30.0, 97.0] {
                let material = mat(0.0, restitution, 0.5);
                let mut w = PhysicsWorld::new();
                w.collision_detection = SPHERE_MESH_CCD;
                w.gravity = Vec3::zeros();
                // The plate's internal diagonal (x + y = -6 near the ball) is
                // kept 4 m from the sliding path: a discrete contact with that
                // internal edge is a separate, known limitation (the
                // tessellated floor), not the subject here.
                let center = Vec3::new(-3.0, -3.0, 3.0 * (normal.x + normal.y) / normal.z);
                let floor = w.add_body(plate(center, normal, 10.0, material)).unwrap();
                // Start 0.5 speed dt above the contact height: impact at half step.
                let dt = 0.01f32;
                let gap = 0.5 * speed * dt;
                let ball = RigidBody::new_dynamic(Shape::sphere(RADIUS).unwrap(), 1.0)
                    .unwrap()
                    .with_material(material)
                    .with_position(Vec3::new(0.013, -0.021, RADIUS + gap))
                    .with_linear_velocity(Vec3::new(0.0, 0.0, -speed));
                let ball = w.add_body(ball).unwrap();
                w.step(dt).unwrap();

                let what = format!("e {restitution}, n {normal:?}, speed {speed}");
                // Exactly one impact, swept: no repeated zero-time impacts.
                assert_eq!(w.contact_count(), 1, "{what}");
                assert_eq!(w.events().len(), 1, "{what}");
                let e = w.events()[0];
                assert_eq!(e.kind, ContactKind::Swept, "{what}");
                assert_eq!((e.body_a, e.body_b), (floor, ball), "{what}");

                // The normal velocity is at the target, from the snapshot's
                // own f64 normal (the swept triangle's).
                let tris = w.mesh_snapshot(floor).unwrap();
                let n = triangle_normal(&tris[0]);
                assert!((n - triangle_normal(&tris[1])).norm() < 1e-6, "{what}");
                let closing = n.dot(&Vec3d::new(0.0, 0.0, speed as f64));
                let target = restitution as f64 * closing;
                let v = w.body(ball).unwrap().linear_velocity();
                assert_within_dot_roundoff(&n, v, target, &what);

                // A plastic impact leaves the sphere sliding at zero
                // clearance: further steps take no swept impact and no
                // normal impulse (the contact is neither closing nor lost).
                if restitution == 0.0 {
                    for _ in 0..10 {
                        w.step(dt).unwrap();
                        for e in w.events() {
                            assert_ne!(e.kind, ContactKind::Swept, "{what}");
                            // An impulse of 1e-5 N s on 1 kg is a velocity
                            // change far below the f32 ulp of the speeds used.
                            assert!(e.normal_impulse.norm() < 1e-5, "{what}: {e:?}");
                        }
                        let v = w.body(ball).unwrap().linear_velocity();
                        assert_within_dot_roundoff(&n, v, 0.0, &what);
                    }
                }
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 2 * 15 * 3);
}

#[test]
fn respond_reconstructs_the_normal_velocity_where_plain_rounding_closes() {
    // The reconstruction matters: rounding the ideal f64 velocity to f32
    // leaves a closing residue (n · v' < target) in many of these cases,
    // while `respond_body_triangle` never does and stays within the bound.
    let body = ImpactMass {
        inverse_mass: 1.0,
        inverse_inertia: parapet_math::Mat3d::zeros(),
    };
    let arm = Vec3d::new(0.0, 0.0, -RADIUS as f64);
    let mut plain_closing = 0;
    let mut cases = 0;
    for restitution in [0.0f32, 1.0] {
        let material = Material {
            friction: 0.0,
            restitution,
            bounce_threshold: 0.5,
        };
        for i in 1..300 {
            let a = 1e-7 * (1.05f64).powi(i);
            let n = Vec3d::new(a.sin() * 0.8, a.sin() * 0.6, a.cos()).normalize();
            let v = Vec3::new(0.3 * (i as f32).sin(), 0.0, -1.0 - 0.37 * i as f32);
            let Some(r) =
                respond_body_triangle(&body, v, Vec3::zeros(), arm, n, &material).unwrap()
            else {
                panic!("a closing contact takes an impulse");
            };
            let vd = promote(v);
            let closing = -n.dot(&vd);
            let target = restitution as f64 * closing;
            assert_eq!(r.target_velocity, target);
            assert_within_dot_roundoff(&n, r.linear_velocity, target, &format!("case {i}"));
            // The ideal velocity, rounded component-wise to f32.
            let ideal = vd + n * (target + closing);
            let plain: Vec3d = promote(ideal.map(|x| x as f32));
            if n.dot(&plain) < target {
                plain_closing += 1;
            }
            cases += 1;
        }
    }
    assert!(
        plain_closing > cases / 10,
        "plain rounding closed in only {plain_closing} of {cases} cases"
    );
}

/// Runs `sweep_alone` for one sphere body over `tris` (all of `material`).
fn sweep(body: &RigidBody, tris: &[[Vec3; 3]], dt: f32) -> SoloOutcome {
    let tree = TriangleBoundsTree::build(tris).unwrap();
    let m = body.material();
    let material = move |_: usize| Some(m);
    let mesh = MeshView {
        triangles: tris,
        tree: &tree,
        material: &material,
        edges: &|_| ActiveEdges::ALL,
    };
    let reach = dynamic_reach(
        promote(body.position()),
        RADIUS as f64,
        bound_energy(body),
        body.mass() as f64,
        Vec3::zeros(),
        dt,
    );
    sweep_alone(
        &SoloInput {
            index: 0,
            body,
            shape: &SweptShape::Sphere { radius: RADIUS },
            reach,
            dt,
            max_impacts: 16,
        },
        &mesh,
    )
    .unwrap()
}

#[test]
fn the_lookup_neither_moves_the_body_nor_adds_an_impact() {
    let dt = 0.01f32;
    for restitution in [0.0f32, 0.5, 1.0] {
        for normal in tilts() {
            let material = mat(0.0, restitution, 0.5);
            // The plate's world triangles, as the world snapshots them.
            let mut world = PhysicsWorld::new();
            let floor = world
                .add_body(plate(Vec3::zeros(), normal, 10.0, material))
                .unwrap();
            let tris = world.mesh_snapshot(floor).unwrap().to_vec();
            let n = triangle_normal(&tris[0]);
            // Oblique approach: tangential 2 m/s, normal -20 m/s.
            let v0 = Vec3::new(2.0, -1.0, -20.0);
            let c0 = Vec3::new(0.05, 0.02, 0.23);
            let body = RigidBody::new_dynamic(Shape::sphere(RADIUS).unwrap(), 1.0)
                .unwrap()
                .with_material(material)
                .with_position(c0)
                .with_linear_velocity(v0);
            let out = sweep(&body, &tris, dt);
            let what = format!("e {restitution}, n {normal:?}");

            // One real impact, one reported impact.
            assert_eq!(out.impacts.len(), 1, "{what}");
            let hit = out.impacts[0];
            // Analytic first contact with the plane n · x = 0 (through the origin).
            let (c, v) = (promote(c0), promote(v0));
            let s = (n.dot(&c) - RADIUS as f64) / (-n.dot(&v) * dt as f64);
            // f32 storage of the position (ulp 1.5e-8 m at 0.23 m) over a
            // travel of 0.2 m: 1e-6 in step fraction and metres is ample.
            assert!((hit.time - s).abs() < 1e-6, "{what}: {} vs {s}", hit.time);
            let at_impact = c + v * (s * dt as f64);
            let point = at_impact - n * RADIUS as f64;
            assert!((hit.point - point).norm() < 1e-6, "{what}: {:?}", hit.point);
            assert!((hit.normal - n).norm() < 1e-6, "{what}");

            // The end position is the impact position plus the new velocity
            // over the remaining time: the lookup did not move the body.
            let m = out.motion.unwrap();
            let closing = -n.dot(&v);
            let target = restitution as f64 * closing;
            assert_within_dot_roundoff(&n, m.linear_velocity, target, &what);
            let v1 = v + n * (closing + target);
            assert!((promote(m.linear_velocity) - v1).norm() < 1e-5, "{what}");
            let end = at_impact + promote(m.linear_velocity) * ((1.0 - s) * dt as f64);
            assert!(
                (promote(m.position) - end).norm() < 1e-6,
                "{what}: {:?} vs {end:?}",
                m.position
            );
            // Never behind the face (f32 position rounding only).
            assert!(
                n.dot(&promote(m.position)) - RADIUS as f64 > -1e-7,
                "{what}"
            );
        }
    }
}

#[test]
fn edge_and_vertex_impacts_respond_to_the_looked_up_normal_without_zero_time_repeats() {
    // One triangle; the sphere is aimed at a point of an edge or at a vertex,
    // touching it with a contact normal `m` in that feature's normal cone,
    // at half of the step. The response uses the normal of the initial
    // contact found at the retained (f32) impact position, so the velocity
    // it leaves is at the target against that normal within dot-product
    // roundoff, and the sweep never re-hits at the same time (no repeated
    // zero-time impacts); a later impact, if any, is a real one at a later
    // time (e.g. sliding round an edge onto the face).
    let tri = [
        Vec3::new(-0.7, -0.4, 0.013),
        Vec3::new(0.9, -0.3, -0.021),
        Vec3::new(0.1, 0.8, 0.007),
    ];
    let tris = [tri];
    let face = triangle_normal(&tri);
    let dt = 0.01f32;
    let mut rng = parapet_tests::meshes::SplitMix64::new(0x1ead);
    let mut cases = 0;
    for case in 0..600 {
        let restitution = [0.0f32, 1.0][case % 2];
        let material = mat(0.0, restitution, 0.5);
        let (a, b) = (promote(tri[case % 3]), promote(tri[(case + 1) % 3]));
        let vertex = (case / 2) % 3 == 0;
        let q = if vertex {
            a
        } else {
            a + (b - a) * rng.range(0.1, 0.9)
        };
        // Outward direction in the triangle's plane, away from the interior.
        let centroid = (promote(tri[0]) + promote(tri[1]) + promote(tri[2])) / 3.0;
        let edge = (b - a).normalize();
        let out = if vertex {
            (a - centroid).normalize()
        } else {
            let o = face.cross(&edge);
            if o.dot(&(a - centroid)) > 0.0 {
                o
            } else {
                -o
            }
        };
        // Contact normal between the face normal and the outward direction;
        // almost axial approach along -m with a small tangential part.
        let phi = rng.range(1e-6, 1.4);
        let m = (face * phi.cos() + out * phi.sin()).normalize();
        let tangent = m.cross(&edge).normalize();
        let speed = rng.range(5.0, 60.0);
        let slant = rng.range(-1e-3, 1e-3);
        let v = (-m + tangent * slant) * speed;
        let c0 = q + m * RADIUS as f64 - v * (0.5 * dt as f64);
        let v32 = v.map(|x| x as f32);
        let body = RigidBody::new_dynamic(Shape::sphere(RADIUS).unwrap(), 1.0)
            .unwrap()
            .with_material(material)
            .with_position(c0.map(|x| x as f32))
            .with_linear_velocity(v32);
        let outcome = sweep(&body, &tris, dt);
        let what = format!("case {case}, vertex {vertex}, phi {phi}, e {restitution}");
        assert!(!outcome.impacts.is_empty(), "{what}: the aimed impact");
        for pair in outcome.impacts.windows(2) {
            assert!(pair[1].time > pair[0].time, "{what}: {:?}", outcome.impacts);
        }
        if outcome.impacts.len() == 1 {
            // The final velocity is the response's: at the target against
            // the normal the response used (the reported one).
            let hit = outcome.impacts[0];
            let closing = -hit.normal.dot(&promote(v32));
            let target = if closing > 0.5 {
                restitution as f64 * closing
            } else {
                0.0
            };
            let motion = outcome.motion.unwrap();
            assert_within_dot_roundoff(&hit.normal, motion.linear_velocity, target, &what);
            cases += 1;
        }
    }
    // Most cases are a single impact (the checks above are not vacuous).
    assert!(cases > 400, "{cases} single-impact cases");
}
