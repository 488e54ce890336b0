//! Outward rounding of the triangle bounds tree's queries, checked with exact
//! rational arithmetic (num-rational): a triangle whose bounds touch the
//! exact query region, at exactly one float, is returned; a box query whose
//! bounds are one ulp away in the opening direction is not (box queries are
//! exact); and the tighter ball and sweep tests still reject boxes that lie
//! clearly outside the region but inside its bounding box.
//!
//! The oracle builds each touching point exactly: a point of the segment
//! (or ray) plus the radius times a unit vector with rational components
//! (Pythagorean quadruples such as (2, 3, 6) / 7), so the point is exactly at
//! distance r; the triangle's bounds are that point rounded outward to f32.
//! Case count: proptest's default; set `PROPTEST_CASES` for longer runs.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{ToPrimitive, Zero};
use parapet_geometry::bvh::{Ball, Bounds, BoundsQuery, Ray, SweptBall, TriangleBoundsTree};
use parapet_math::{Vec3, Vec3d};
use parapet_scenes::prng::SplitMix64;
use proptest::prelude::*;

fn exact(x: f64) -> BigRational {
    BigRational::from_float(x).expect("finite")
}

fn exact32(x: f32) -> BigRational {
    exact(x as f64)
}

/// The largest f32 at or below the exact value.
fn f32_below(r: &BigRational) -> f32 {
    let mut x = r.to_f64().expect("in range") as f32;
    while exact32(x) > *r {
        x = x.next_down();
    }
    while exact32(x.next_up()) <= *r {
        x = x.next_up();
    }
    x
}

/// The smallest f32 at or above the exact value.
fn f32_above(r: &BigRational) -> f32 {
    let mut x = r.to_f64().expect("in range") as f32;
    while exact32(x) < *r {
        x = x.next_up();
    }
    while exact32(x.next_down()) >= *r {
        x = x.next_down();
    }
    x
}

type Point = [BigRational; 3];

/// A triangle whose exact bounds are `[lo, hi]` (vertices at the two corners and a mix).
fn triangle_with_bounds(lo: Vec3, hi: Vec3) -> [Vec3; 3] {
    [lo, hi, Vec3::new(lo.x, hi.y, lo.z)]
}

/// The f32 box around an exact point: each coordinate rounded outward.
fn box_around(p: &Point) -> [Vec3; 3] {
    let lo = Vec3::new(f32_below(&p[0]), f32_below(&p[1]), f32_below(&p[2]));
    let hi = Vec3::new(f32_above(&p[0]), f32_above(&p[1]), f32_above(&p[2]));
    triangle_with_bounds(lo, hi)
}

/// Unit vectors with rational components: (a, b, c) / d with a^2 + b^2 + c^2 = d^2,
/// under every sign and axis permutation.
fn unit() -> impl Strategy<Value = [BigRational; 3]> {
    unit_from(0..5)
}

/// Rational unit vectors with no zero component.
fn unit_oblique() -> impl Strategy<Value = [BigRational; 3]> {
    unit_from(2..5)
}

fn unit_from(quad: std::ops::Range<usize>) -> impl Strategy<Value = [BigRational; 3]> {
    let quads: [[i64; 4]; 5] = [
        [1, 0, 0, 1],
        [3, 4, 0, 5],
        [2, 3, 6, 7],
        [1, 4, 8, 9],
        [2, 6, 9, 11],
    ];
    (quad, 0usize..6, any::<[bool; 3]>()).prop_map(move |(q, perm, signs)| {
        let [a, b, c, d] = quads[q];
        let comps = [a, b, c];
        let order = [
            [0, 1, 2],
            [0, 2, 1],
            [1, 0, 2],
            [1, 2, 0],
            [2, 0, 1],
            [2, 1, 0],
        ][perm];
        [0, 1, 2].map(|k| {
            let v = comps[order[k]] * if signs[k] { -1 } else { 1 };
            BigRational::new(BigInt::from(v), BigInt::from(d))
        })
    })
}

fn coordinate() -> impl Strategy<Value = f64> {
    prop_oneof![
        -100.0f64..100.0,
        (-1.0e4f64..1.0e4),
        (-1.0f64..1.0).prop_map(|x| x * 1e-3)
    ]
}

fn point() -> impl Strategy<Value = Vec3d> {
    (coordinate(), coordinate(), coordinate()).prop_map(|(x, y, z)| Vec3d::new(x, y, z))
}

fn radius() -> impl Strategy<Value = f64> {
    prop_oneof![
        1.0e-4f64..10.0,
        Just(0.0),
        (1u32..100).prop_map(|k| k as f64 * 0.1)
    ]
}

/// Random distractor triangles around `centre` so that the tree (not the
/// linear scan) answers: 40 triangles within 50 m.
fn distractors(centre: Vec3d, seed: u64) -> Vec<[Vec3; 3]> {
    let mut rng = SplitMix64::new(seed);
    let mut next = move || rng.range(-50.0, 50.0);
    (0..40)
        .map(|_| {
            let c = centre + Vec3d::new(next(), next(), next());
            let v = |d: f64| (c + Vec3d::repeat(d)).cast::<f32>();
            [v(0.0), v(0.5), v(-0.25)]
        })
        .collect()
}

/// Builds the tree over the distractors plus `target` (last) and runs `q`.
fn returns_target<Q: BoundsQuery>(target: [Vec3; 3], centre: Vec3d, seed: u64, q: &Q) -> bool {
    let mut tris = distractors(centre, seed);
    tris.push(target);
    let tree = TriangleBoundsTree::build(&tris).expect("finite");
    let mut out = Vec::new();
    tree.query(q, &mut out);
    out.contains(&(tris.len() as u32 - 1))
}

fn add(p: &Point, v: &Point) -> Point {
    [0, 1, 2].map(|k| &p[k] + &v[k])
}

fn scale(v: &Point, s: &BigRational) -> Point {
    [0, 1, 2].map(|k| &v[k] * s)
}

fn exact_vec(v: Vec3d) -> Point {
    [exact(v.x), exact(v.y), exact(v.z)]
}

proptest! {
    /// A triangle touching the ball's sphere at one exact point is returned.
    #[test]
    fn a_ball_returns_a_triangle_touching_its_sphere(c in point(), r in radius(), n in unit(), seed in any::<u64>()) {
        let touching = add(&exact_vec(c), &scale(&n, &exact(r)));
        let q = Ball::new(c, r).unwrap();
        prop_assert!(returns_target(box_around(&touching), c, seed, &q));
    }

    /// A triangle touching the swept ball anywhere along its path (ends included) is returned.
    #[test]
    fn a_sweep_returns_a_triangle_touching_its_path(
        s in point(), e in point(), r in radius(), n in unit(), k in 0u32..=64, seed in any::<u64>()
    ) {
        let t = BigRational::new(BigInt::from(k), BigInt::from(64));
        let (s_ex, e_ex) = (exact_vec(s), exact_vec(e));
        let delta = [0, 1, 2].map(|i| &e_ex[i] - &s_ex[i]);
        let on_path = add(&s_ex, &scale(&delta, &t));
        let touching = add(&on_path, &scale(&n, &exact(r)));
        let q = SweptBall::new(s, e, r).unwrap();
        prop_assert!(returns_target(box_around(&touching), s, seed, &q));
    }

    /// A triangle touching the ray anywhere within its length (ends included) is returned.
    #[test]
    fn a_ray_returns_a_triangle_on_its_path(
        o in point(), d in point(), len in 0.0f64..10.0, k in 0u32..=64, seed in any::<u64>()
    ) {
        let t = exact(len) * BigRational::new(BigInt::from(k), BigInt::from(64));
        let on_path = add(&exact_vec(o), &scale(&exact_vec(d), &t));
        let q = Ray::new(o, d, len).unwrap();
        prop_assert!(returns_target(box_around(&on_path), o, seed, &q));
    }

    /// A ray that grazes a box's edge (it leaves the x slab's outside at the
    /// very parameter at which it leaves the y slab's inside) touches the
    /// box at one point: the slab test must keep it despite the rounding of
    /// each slab parameter.
    #[test]
    fn a_ray_grazing_a_box_edge_returns_it(
        cx in -100.0f32..100.0, cy in -100.0f32..100.0, a in 1i64..2000, b in 1i64..2000,
        scale in -8i32..8, k in 1u32..64, seed in any::<u64>()
    ) {
        let d = Vec3d::new(a as f64, -(b as f64), 0.0) * 2f64.powi(scale);
        let t0 = k as f64 / 16.0;
        // The ray passes through the box's corner (cx, cy) at t0, moving +x and -y.
        let o = Vec3d::new(cx as f64 - t0 * d.x, cy as f64 - t0 * d.y, 0.5);
        let through = [0, 1].map(|i| exact(o[i]) + exact(t0) * exact(d[i]));
        prop_assume!(through[0] == exact32(cx) && through[1] == exact32(cy));
        let target = triangle_with_bounds(Vec3::new(cx, cy, 0.0), Vec3::new(cx + 1.0, cy + 1.0, 1.0));
        let q = Ray::new(o, d, 2.0 * t0).unwrap();
        prop_assert!(returns_target(target, o, seed, &q));
    }

    /// Box queries are exact: touching at one float returns the triangle,
    /// one ulp of overlap returns it, one ulp of gap (f64 or f32) does not.
    #[test]
    fn a_box_query_is_exact_at_one_float(a in -1.0e6f32..1.0e6, width in 0.0f32..10.0, seed in any::<u64>()) {
        let b = a + width;
        let target = triangle_with_bounds(Vec3::new(a, 0.0, 0.0), Vec3::new(b, 1.0, 1.0));
        let centre = Vec3d::new(a as f64, 0.0, 0.0);
        let q = |lo: f64, hi: f64| Bounds::new(Vec3d::new(lo, 0.5, 0.5), Vec3d::new(hi, 0.5, 0.5)).unwrap();
        let (a64, b64) = (a as f64, b as f64);
        // Approaching from below: the query's max at the triangle's min.
        prop_assert!(returns_target(target, centre, seed, &q(a64 - 1.0, a64)));
        prop_assert!(returns_target(target, centre, seed, &q(a64 - 1.0, a64.next_up())));
        prop_assert!(!returns_target(target, centre, seed, &q(a64 - 1.0, a64.next_down())));
        prop_assert!(!returns_target(target, centre, seed, &q(a64 - 1.0, a.next_down() as f64)));
        // Approaching from above: the query's min at the triangle's max.
        prop_assert!(returns_target(target, centre, seed, &q(b64, b64 + 1.0)));
        prop_assert!(returns_target(target, centre, seed, &q(b64.next_down(), b64 + 1.0)));
        prop_assert!(!returns_target(target, centre, seed, &q(b64.next_up(), b64 + 1.0)));
        prop_assert!(!returns_target(target, centre, seed, &q(b.next_up() as f64, b64 + 1.0)));
    }

    /// The tighter ball test rejects a box in the corner of the ball's own
    /// bounding box that lies 1e-6 of the radius beyond the sphere.
    #[test]
    fn a_ball_rejects_a_corner_box_just_beyond_its_sphere(c in point(), r in 0.01f64..10.0, n in unit_oblique(), seed in any::<u64>()) {
        let beyond = exact(r) * BigRational::new(BigInt::from(1_000_001), BigInt::from(1_000_000));
        let corner = add(&exact_vec(c), &scale(&n, &beyond));
        // The box starts at the corner (rounded away from the centre) and extends outward.
        let mut lo = Vec3::zeros();
        let mut hi = Vec3::zeros();
        for k in 0..3 {
            if n[k] > BigRational::zero() {
                lo[k] = f32_above(&corner[k]);
                hi[k] = lo[k] + 1.0;
            } else {
                hi[k] = f32_below(&corner[k]);
                lo[k] = hi[k] - 1.0;
            }
        }
        // The box's nearest point to the centre is its corner; check it is truly outside.
        let near: Point = [0, 1, 2].map(|k| exact32(if n[k] > BigRational::zero() { lo[k] } else { hi[k] }));
        let d2 = (0..3).fold(BigRational::zero(), |acc, k| {
            let d = &near[k] - exact(c[k]);
            acc + &d * &d
        });
        prop_assume!(d2 > exact(r) * exact(r));
        // f32 rounding of the corner can only move it further out, but at coordinates
        // ~1e4 m its ulp (~1e-3 m) may exceed 1e-6 r: skip cases where the box's corner
        // is not also within the ball's bounding box (then the box test alone decides).
        let q = Ball::new(c, r).unwrap();
        let b = Bounds::new(lo.cast(), hi.cast()).unwrap();
        prop_assume!(q.bounds().intersects(&b));
        prop_assert!(!returns_target(triangle_with_bounds(lo, hi), c, seed, &q));
    }
}

/// A long diagonal sweep skips a triangle in the corner of its bounding box
/// that its path never comes near, and the tree agrees with the predicate.
#[test]
fn a_diagonal_sweep_skips_the_corner_of_its_box() {
    let s = Vec3d::new(0.0, 0.0, 0.0);
    let e = Vec3d::new(50.0, 50.0, 0.0);
    let q = SweptBall::new(s, e, 0.5).unwrap();
    // 10 m to the side of the path's end region, inside the path's bounding box.
    let corner = triangle_with_bounds(Vec3::new(45.0, 0.0, 0.0), Vec3::new(46.0, 1.0, 0.0));
    let on_path = triangle_with_bounds(Vec3::new(20.0, 20.0, 0.0), Vec3::new(21.0, 21.0, 0.0));
    assert!(!returns_target(corner, s, 3, &q));
    assert!(returns_target(on_path, s, 3, &q));
}
