//! Unit tests of the pre-response initial-contact lookup at the retained
//! impact position ([`super`]) and of the velocity reconstruction of the
//! impact response ([`parapet_solver::impact::respond_body_triangle`]), through the exact
//! path of a body alone (`sweep_alone`):
//!
//! * The lookup does not move the body, search future times or add an
//!   impact: the swept impact time and point are the analytic first contact,
//!   the end position is the impact position plus the new velocity times the
//!   remaining time, and the impact count is the number of real impacts.
//! * Edge and vertex impacts (600 aimed cases, almost axial, restitution 0
//!   and 1) respond to the normal of the initial contact looked up at the
//!   retained f32 position: no two impacts share a time, and the velocity
//!   left is at the target against the reported normal. With the lookup
//!   disabled (the sweep's own normal used), the edge cases fail with a
//!   second zero-time impact of 5e-10 N s (checked when it was written).
//! * The reconstruction of the normal velocity never leaves a closing
//!   residue, where plain rounding of the ideal `f64` velocity does.
//!
//! Oracles: plain `f64` plane geometry written here (time of contact of a
//! sphere with a plane, reflection of the velocity), sharing no code with
//! the sweeps or the response. (Moved from the integration tests with their
//! assertions and random cases, when the sweep and the response became
//! internal to the world.)

use parapet_geometry::bvh::TriangleBoundsTree;
use parapet_geometry::{ActiveEdges, Material, Shape};
use parapet_math::{promote, Vec3, Vec3d};
use parapet_solver::RigidBody;

use super::{sweep_alone, SoloInput, SoloOutcome};
use crate::ccd::motion::MeshView;
use crate::ccd::reach::{bound_energy, dynamic_reach};
use crate::PhysicsWorld;
use parapet_narrow::sweep::SweptShape;
use parapet_solver::impact::{respond_body_triangle, ImpactMass};

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

/// A material from its three coefficients (valid by construction here).
fn mat(friction: f32, restitution: f32, bounce_threshold: f32) -> Material {
    Material::new(friction, restitution, bounce_threshold).unwrap()
}

/// A square static plate of half size `half` through `center`, facing
/// `normal` (unit), two counter-clockwise triangles.
fn plate(center: Vec3, normal: Vec3, half: f32, material: Material) -> RigidBody {
    let n = normal.normalize();
    let helper = if n.x.abs() < 0.9 {
        Vec3::x()
    } else {
        Vec3::y()
    };
    let u = n.cross(&helper).normalize();
    let w = n.cross(&u);
    let v = vec![
        center + (-u - w) * half,
        center + (u - w) * half,
        center + (u + w) * half,
        center + (-u + w) * half,
    ];
    let tri = if (v[1] - v[0]).cross(&(v[2] - v[0])).dot(&n) > 0.0 {
        vec![[0, 1, 2], [0, 2, 3]]
    } else {
        vec![[0, 2, 1], [0, 3, 2]]
    };
    RigidBody::new_static(Shape::mesh(v, tri).unwrap()).with_material(material)
}

/// SplitMix64 (Steele, Lea and Flood 2014; the constants of Vigna's
/// `splitmix64.c`): the seeded stream of the random cases, the sequence of
/// the scenes' generator.
struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    fn new(seed: u64) -> Self {
        Self { state: seed }
    }

    fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

#[test]
fn respond_reconstructs_the_normal_velocity_where_plain_rounding_closes() {
    // The reconstruction matters: rounding the ideal f64 velocity to f32
    // leaves a closing residue (n · v' < target) in many of these cases,
    // while `respond` never does and stays within the bound.
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

/// A uniform `f64` in `[lo, hi)` from the deterministic generator.
fn uniform(rng: &mut SplitMix64, lo: f64, hi: f64) -> f64 {
    lo + (hi - lo) * (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64
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
    let mut rng = SplitMix64::new(0x1ead);
    let mut cases = 0;
    for case in 0..600 {
        let restitution = [0.0f32, 1.0][case % 2];
        let material = mat(0.0, restitution, 0.5);
        let (a, b) = (promote(tri[case % 3]), promote(tri[(case + 1) % 3]));
        let vertex = (case / 2) % 3 == 0;
        let q = if vertex {
            a
        } else {
            a + (b - a) * uniform(&mut rng, 0.1, 0.9)
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
        let phi = uniform(&mut rng, 1e-6, 1.4);
        let m = (face * phi.cos() + out * phi.sin()).normalize();
        let tangent = m.cross(&edge).normalize();
        let speed = uniform(&mut rng, 5.0, 60.0);
        let slant = uniform(&mut rng, -1e-3, 1e-3);
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
