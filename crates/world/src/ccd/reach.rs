//! The reach bound of a moving body and the group test (see
//! docs/continuous-collision.md, "How a step works" and "Moving groups").
//!
//! # Method
//! A dynamic body alone with static meshes never gains kinetic energy during
//! the step: each impact's normal response with restitution in `[0, 1]` and
//! its Coulomb friction are dissipative for the ideal impulse, and the
//! response uses the world tensor at the step's start orientation. So its
//! mass centre's speed never exceeds `sqrt(2 E / m)`, where `E` is the total
//! translational plus rotational kinetic energy after the force update (the
//! rotational part with the tensor at the start orientation). This covers
//! friction that transfers spin into translation and any number of rebounds.
//! The reachable region is the ball around the start position of radius
//!
//! `shape bound + contact margin + sqrt(2 E / m) dt + |v_split| dt`,
//!
//! every operation rounded outward. The shape bound is the sphere radius;
//! for a capsule, the farthest of its two actual `f32` world-space segment
//! ends from the centre (an outward-rounded length of the `f32`-rotated half
//! axis) plus its radius; for a box or hull, its farthest vertex from its
//! world shape centre. A kinematic sphere reaches `|v| dt` plus its radius
//! and the margin.
//!
//! Bodies whose regions overlap form a group ([`super::group`], which
//! widens each member's reach by the whole group's energy); [`check_alone`]
//! is the test for bodies that must stay alone.
//!
//! # Precision domain
//! The reach, including the shape, must not exceed
//! [`MAX_REACH_RADII`] radii, checked by [`check_reach`].

use parapet_math::rounding::{add_up, mul_up, sqrt_up};
use parapet_math::{promote, Vec3, Vec3d};
use parapet_narrow::sweep::MAX_REACH_RADII;
use parapet_solver::contact::CONTACT_MARGIN;
use parapet_solver::RigidBody;

use super::error::CcdError;

/// A reachable region: a ball (metres).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Reach {
    /// The ball's centre, world, metres.
    pub(crate) center: Vec3d,
    /// The ball's radius, metres (rounded outward).
    pub(crate) radius: f64,
}

/// The norm of an `f64` vector rounded up (a few ulps above the computed value).
pub(crate) fn norm_up(v: &Vec3d) -> f64 {
    // The zero vector (a body without split velocity, every step): each
    // directed operation below is exact on zeros, so this is their result.
    if *v == Vec3d::zeros() {
        return 0.0;
    }
    norm_up_directed(v)
}

fn norm_up_directed(v: &Vec3d) -> f64 {
    sqrt_up(squared_norm_up(v))
}

/// `|v|²` rounded up: each square and each partial sum rounded outward.
#[inline]
fn squared_norm_up(v: &Vec3d) -> f64 {
    add_up(add_up(square_up(v.x), square_up(v.y)), square_up(v.z))
}

/// The low significand bits that must be zero for [`square_up`]'s shortcut:
/// 27 of the 52 stored bits, so that the significand (with its implicit bit)
/// has at most 26 bits and its square at most 52, which an `f64` holds.
const SHORT_SIGNIFICAND_LOW_BITS: u64 = (1 << 27) - 1;

/// Squares from which `x * x` is exact whenever `x` has a short significand:
/// `1e-270`, far above the range where `mul_up` widens tiny products by an
/// ulp without trusting their error term (below `2^-968`, about `4e-292`)
/// and where a square of a short significand could be subnormal (and so
/// rounded).
const EXACT_SQUARE_MIN: f64 = 1.0e-270;

/// `mul_up(x, x)` with the same bits, `x * x` directly when it is exact.
///
/// Why the shortcut is the directed result: when the 27 low stored bits of
/// `x` are zero ([`SHORT_SIGNIFICAND_LOW_BITS`]), `x`'s significand has at
/// most 26 bits, so the exact square has at most 52 and is representable
/// unless it leaves the normal range. A finite square at or above
/// [`EXACT_SQUARE_MIN`] is therefore the exact product: `two_product`'s
/// error term is `0`, `mul_up` returns the product unchanged, and so does
/// this. Every `f32` promoted to `f64` (24-bit significand) qualifies, as do
/// differences of nearby `f32` coordinates; a zero (of either sign) squares
/// to `+0`, as `mul_up` gives it. Anything else (long
/// significands, tiny or overflowing squares, NaN) takes `mul_up` itself.
#[inline]
fn square_up(x: f64) -> f64 {
    // A zero coordinate (an upright capsule's horizontal offsets): `mul_up`
    // returns `+0` for a zero operand.
    if x == 0.0 {
        return 0.0;
    }
    let p = x * x;
    if x.to_bits() & SHORT_SIGNIFICAND_LOW_BITS == 0
        && (EXACT_SQUARE_MIN..f64::INFINITY).contains(&p)
    {
        p
    } else {
        mul_up(x, x)
    }
}

/// The total kinetic energy (J) used by the bound: `½ m |v|²` plus, for a
/// spinning body, `½ ω · L` with the tensor at the current orientation.
/// A body with no spin has no rotational energy (locked tensors included).
pub(crate) fn bound_energy(body: &RigidBody) -> f64 {
    let v = promote(body.linear_velocity());
    let translational = 0.5 * body.mass() as f64 * v.norm_squared();
    if body.angular_velocity() == Vec3::zeros() {
        return translational;
    }
    body.kinetic_energy()
        .unwrap_or(f64::INFINITY)
        .max(translational)
}

/// The largest mass-centre speed (m/s) that `energy` (J) allows a body of
/// `mass` (kg): `sqrt(2 E / m)`, rounded up.
pub(crate) fn speed_bound(energy: f64, mass: f64) -> f64 {
    if energy <= 0.0 {
        return 0.0;
    }
    sqrt_up(twice_up(energy) / mass * (1.0 + 4.0 * f64::EPSILON))
}

/// Energies (J) from which `2 E` is exact and normal, so that `mul_up(2,
/// E)` is `2 E` itself (no error term, far above the product-underflow
/// range where `mul_up` widens by an ulp; `+inf` above the range as
/// `mul_up` gives it): `1e-280`, far above that range's `2^-968`.
const EXACT_TWICE_MIN: f64 = 1.0e-280;

/// `mul_up(2, e)` for `e > 0`, with the same bits: `2 e` directly where it
/// is exact ([`EXACT_TWICE_MIN`]).
#[inline]
fn twice_up(e: f64) -> f64 {
    if e >= EXACT_TWICE_MIN {
        2.0 * e
    } else {
        mul_up(2.0, e)
    }
}

/// The reach of a dynamic body: the ball around `center` (the shape's
/// start centre) of radius `shape_bound + margin + speed dt + split dt`,
/// where `speed` is [`speed_bound`] of `energy`.
pub(crate) fn dynamic_reach(
    center: Vec3d,
    shape_bound: f64,
    energy: f64,
    mass: f64,
    split_velocity: Vec3,
    dt: f32,
) -> Reach {
    let dt = dt as f64;
    let travel = mul_up(speed_bound(energy, mass), dt);
    let radius = add_up(add_up(shape_bound, CONTACT_MARGIN as f64), travel);
    let split = split_travel(split_velocity, dt);
    // Adding an exact 0 rounds to the same bits (an exact sum moves no ulp).
    let radius = if split == 0.0 {
        radius
    } else {
        add_up(radius, split)
    };
    Reach { center, radius }
}

/// `|v_split| dt` rounded up. Without split velocity (every step of a body
/// that was not pushed out of an overlap) it is exactly `+0`, the directed
/// result on zeros (`norm_up` of zeros is `+0`, `mul_up(+0, dt)` an exact
/// zero product), given without the directed product.
pub(crate) fn split_travel(split_velocity: Vec3, dt: f64) -> f64 {
    if split_velocity == Vec3::zeros() {
        return 0.0;
    }
    mul_up(norm_up(&promote(split_velocity)), dt)
}

/// The reach of a kinematic sphere: its radius, the margin and `|v| dt`.
pub(crate) fn kinematic_reach(center: Vec3d, radius: f32, velocity: Vec3, dt: f32) -> Reach {
    let travel = mul_up(norm_up(&promote(velocity)), dt as f64);
    Reach {
        center,
        radius: add_up(add_up(radius as f64, CONTACT_MARGIN as f64), travel),
    }
}

/// The bounding radius (m) of a capsule's actual world segment around its
/// centre, plus its radius: the larger distance of the two `f32` ends from
/// the centre, rounded up.
///
/// Computed as `sqrt_up` of the larger outward-rounded squared length,
/// which has the bits of the larger of the two outward-rounded norms of
/// the ends' offsets: `sqrt_up`
/// (the correctly rounded root moved one ulp up, `+0` kept) never
/// decreases as its argument grows, so it maps the larger argument to the
/// larger result (and `max` drops a NaN the same way on both sides).
pub(crate) fn capsule_bound(center: Vec3, ends: [Vec3; 2], radius: f32) -> f64 {
    let c = promote(center);
    let far = sqrt_up(
        squared_norm_up(&(promote(ends[0]) - c)).max(squared_norm_up(&(promote(ends[1]) - c))),
    );
    add_up(far, radius as f64)
}

/// Checks the reach limit: `reach / radius <= MAX_REACH_RADII`.
///
/// # Errors
/// [`CcdError::Precision`] naming the reach in radii.
pub(crate) fn check_reach(body: usize, reach: &Reach, limit_radius: f64) -> Result<(), CcdError> {
    let ratio = reach.radius / limit_radius;
    if !(ratio <= MAX_REACH_RADII) {
        return Err(CcdError::Precision {
            body,
            quantity: "reachable radius (radii)",
            value: ratio,
            limit: MAX_REACH_RADII,
        });
    }
    Ok(())
}

/// Whether two regions overlap (closed balls), decided conservatively: the
/// centre distance is rounded down and the radius sum up.
pub(crate) fn overlaps(a: &Reach, b: &Reach) -> bool {
    let d = (a.center - b.center).norm() * (1.0 - 4.0 * f64::EPSILON);
    d <= add_up(a.radius, b.radius)
}

/// The test that every moving body is alone (no two regions overlap). `moving`
/// lists (body index, region) in body insertion order; the first body (in
/// that order) whose region overlaps a later one is refused, naming the
/// other. O(B²).
///
/// # Errors
/// [`CcdError::Unsupported`] with [`UnsupportedReason::Interacting`].
#[cfg(test)]
pub(crate) fn check_alone(moving: &[(usize, Reach)]) -> Result<(), CcdError> {
    for (i, (a, ra)) in moving.iter().enumerate() {
        for (b, rb) in &moving[i + 1..] {
            if overlaps(ra, rb) {
                return Err(CcdError::Unsupported {
                    body: *a,
                    reason: super::error::UnsupportedReason::Interacting {
                        other: *b,
                        reach: ra.radius,
                    },
                });
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ccd::error::UnsupportedReason;
    use parapet_geometry::Shape;

    /// Knuth's MMIX linear congruential generator: the randomized tests'
    /// fixed-seed source.
    struct Lcg(u64);

    impl Lcg {
        fn bits(&mut self) -> u64 {
            self.0 = self
                .0
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            self.0
        }

        /// Uniform in [0, 1).
        fn unit(&mut self) -> f64 {
            (self.bits() >> 11) as f64 / (1u64 << 53) as f64
        }
    }

    #[test]
    fn a_spinning_sphere_reaches_as_far_as_all_its_energy_allows() {
        // m = 1 kg, r = 1 m, I = 0.4 kg m^2; v = 3 m/s, w = 5 rad/s:
        // E = 4.5 + 0.5 * 0.4 * 25 = 9.5 J, speed bound sqrt(19) m/s.
        let b = RigidBody::new_dynamic(Shape::sphere(1.0).unwrap(), 1.0)
            .unwrap()
            .with_linear_velocity(Vec3::new(3.0, 0.0, 0.0))
            .with_angular_velocity(Vec3::new(0.0, 5.0, 0.0));
        let e = bound_energy(&b);
        // The f32 tensor rounds 1/0.4 once: relative 1e-7.
        assert!((e - 9.5).abs() < 1e-5, "{e}");
        let r = dynamic_reach(Vec3d::zeros(), 1.0, e, 1.0, Vec3::zeros(), 0.1);
        let expected = 1.0 + CONTACT_MARGIN as f64 + 19f64.sqrt() * 0.1;
        assert!(r.radius >= expected - 1e-6 && r.radius < expected + 1e-5);
    }

    #[test]
    fn overlapping_regions_are_refused_naming_both_bodies() {
        let a = Reach {
            center: Vec3d::zeros(),
            radius: 1.0,
        };
        let b = Reach {
            center: Vec3d::new(2.0, 0.0, 0.0),
            radius: 1.0,
        };
        let c = Reach {
            center: Vec3d::new(5.0, 0.0, 0.0),
            radius: 0.5,
        };
        assert!(check_alone(&[(0, a), (2, c)]).is_ok());
        let e = check_alone(&[(0, a), (1, b), (2, c)]).unwrap_err();
        assert!(matches!(
            e,
            CcdError::Unsupported {
                body: 0,
                reason: UnsupportedReason::Interacting { other: 1, .. }
            }
        ));
    }

    #[test]
    fn the_zero_shortcut_of_norm_up_is_the_directed_result() {
        for v in [Vec3d::zeros(), Vec3d::new(-0.0, 0.0, -0.0)] {
            assert_eq!(norm_up(&v).to_bits(), norm_up_directed(&v).to_bits());
        }
        let v = Vec3d::new(3.0, -4.0, 12.0);
        assert_eq!(norm_up(&v), norm_up_directed(&v));
        assert!(norm_up(&v) >= 13.0);
    }

    /// The fast paths (`2 E` without `mul_up`, no split term without split
    /// velocity) against the plain directed formula, bit for bit, over
    /// energies, masses, bounds and steps of every magnitude.
    #[test]
    fn the_reach_equals_the_plain_directed_formula_bit_for_bit() {
        let plain = |bound: f64, energy: f64, mass: f64, split: Vec3, dt: f32| {
            let speed = if energy <= 0.0 {
                0.0
            } else {
                sqrt_up(mul_up(2.0, energy) / mass * (1.0 + 4.0 * f64::EPSILON))
            };
            let dt = dt as f64;
            let travel = mul_up(speed, dt);
            let split = mul_up(norm_up(&promote(split)), dt);
            add_up(add_up(add_up(bound, CONTACT_MARGIN as f64), travel), split)
        };
        let mut rng = Lcg(0x5EED_4EAC);
        let mut next = || rng.unit();
        for _ in 0..20_000 {
            let energy = match (next() * 6.0) as u32 {
                0 => 0.0,
                1 => f64::MIN_POSITIVE * next() * 1e3,
                2 => 1e-280 * (0.5 + next()),
                3 => 1e300 * next() * 1e8,
                _ => 10f64.powf(next() * 20.0 - 10.0),
            };
            let mass = 10f64.powf(next() * 8.0 - 4.0);
            let bound = 10f64.powf(next() * 8.0 - 4.0);
            let dt = (next() * 0.1) as f32;
            let split = if next() < 0.5 {
                Vec3::zeros()
            } else {
                Vec3::new(next() as f32, -next() as f32, 0.0)
            };
            let r = dynamic_reach(Vec3d::zeros(), bound, energy, mass, split, dt);
            let expected = plain(bound, energy, mass, split, dt);
            assert_eq!(
                r.radius.to_bits(),
                expected.to_bits(),
                "E {energy} m {mass} bound {bound} dt {dt} split {split:?}"
            );
        }
    }

    /// The exact-square shortcut of `norm_up` against `mul_up` itself, bit
    /// for bit: promoted `f32`s, differences of `f32` coordinates (a
    /// capsule's end minus its centre), arbitrary `f64` bit patterns, and the
    /// edges (zeros, tiny and subnormal values, huge values whose square
    /// overflows, infinities).
    #[test]
    fn the_exact_square_shortcut_is_the_directed_product_bit_for_bit() {
        let mut rng = Lcg(0x5EED_5A0A);
        let mut next = || rng.bits();
        let same = |v: f64| {
            let fast = square_up(v);
            let plain = mul_up(v, v);
            assert!(
                fast.to_bits() == plain.to_bits() || (fast.is_nan() && plain.is_nan()),
                "{v:e}: {fast:e} vs {plain:e}"
            );
        };
        for v in [
            0.0,
            -0.0,
            f64::MIN_POSITIVE,
            5e-324,
            1e-135,
            1e-136,
            f64::MAX,
            1e154,
            1e155,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f32::MAX as f64,
            f32::MIN_POSITIVE as f64,
        ] {
            same(v);
        }
        for _ in 0..200_000 {
            let r = next();
            let a = f32::from_bits(r as u32);
            let b = f32::from_bits((r >> 32) as u32);
            same(a as f64);
            // A nearby coordinate: `b` with `a`'s exponent range.
            let near = a + (b as f64 * 1e-3 * a.abs() as f64) as f32;
            same(near as f64 - a as f64);
            same(b as f64 - a as f64);
            same(f64::from_bits(r));
            let scaled = ((r >> 12) as f64) * 2f64.powi((r % 61) as i32 - 30);
            same(scaled);
            let short = f64::from_bits(r & !SHORT_SIGNIFICAND_LOW_BITS);
            same(short);
        }
    }

    /// `norm_up` with the shortcut against the plain directed formula.
    #[test]
    fn the_norm_equals_the_plain_directed_formula_bit_for_bit() {
        let plain = |v: &Vec3d| {
            sqrt_up(add_up(
                add_up(mul_up(v.x, v.x), mul_up(v.y, v.y)),
                mul_up(v.z, v.z),
            ))
        };
        let mut rng = Lcg(0x0A0B_0C0D);
        let mut next = || rng.unit() - 0.5;
        for i in 0..100_000 {
            let scale = 10f64.powf(next() * 40.0);
            let c = Vec3::new(
                (next() * scale) as f32,
                (next() * scale) as f32,
                (next() * scale) as f32,
            );
            let v = match i % 3 {
                0 => promote(c),
                1 => {
                    let end =
                        (promote(c) + Vec3d::new(next(), next(), next()) * scale).map(|x| x as f32);
                    promote(end) - promote(c)
                }
                _ => Vec3d::new(next(), next(), next()) * scale,
            };
            assert_eq!(norm_up(&v).to_bits(), plain(&v).to_bits(), "{v:?}");
        }
    }

    /// `capsule_bound` (the root of the larger squared length) against the
    /// larger of the two `norm_up`s, bit for bit, over capsules of every
    /// size, place and tilt.
    #[test]
    fn the_capsule_bound_is_the_larger_directed_norm_bit_for_bit() {
        let mut rng = Lcg(0xCA95_0001);
        let mut next = || rng.unit() - 0.5;
        for _ in 0..100_000 {
            let scale = 10f64.powf(next() * 12.0);
            let size = scale * 10f64.powf(next() * 8.0 - 6.0);
            let c = Vec3::new(
                (next() * scale) as f32,
                (next() * scale) as f32,
                (next() * scale) as f32,
            );
            let a = Vec3d::new(next(), next(), next()) * size;
            let cd = promote(c);
            let ends = [(cd - a).map(|x| x as f32), (cd + a).map(|x| x as f32)];
            let radius = (size * (next() + 0.5)) as f32;
            let far = norm_up(&(promote(ends[0]) - cd)).max(norm_up(&(promote(ends[1]) - cd)));
            let plain = add_up(far, radius as f64);
            assert_eq!(
                capsule_bound(c, ends, radius).to_bits(),
                plain.to_bits(),
                "{c:?} {ends:?} {radius}"
            );
        }
    }

    #[test]
    fn the_reach_limit_counts_radii() {
        let r = Reach {
            center: Vec3d::zeros(),
            radius: 2.0 * MAX_REACH_RADII,
        };
        assert!(check_reach(3, &r, 1.0).is_err());
        assert!(check_reach(3, &r, 2.0).is_ok());
    }
}
