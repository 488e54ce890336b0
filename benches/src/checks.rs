//! What the benches verify outside their timing (no pass-through, clearance,
//! refusals), appended as CSV lines to the file named by the environment
//! variable `PARAPET_BENCH_CHECKS` (set by `cargo xtask bench-report`; nothing
//! is written without it), and an independent clearance: the distance from a
//! point to a triangle in `f64` (Ericson, Real-Time Collision Detection
//! 5.1.5), sharing no code with parapet's queries.

/// The environment variable naming the checks file.
pub const CHECKS_ENV: &str = "PARAPET_BENCH_CHECKS";

/// Appends the record `bench,case,key,value` to the checks file, if one is
/// named (the `csv` crate's quoting: a value with a comma is quoted).
pub fn record(bench: &str, case: &str, key: &str, value: impl std::fmt::Display) {
    let Ok(path) = std::env::var(CHECKS_ENV) else {
        return;
    };
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path);
    let written = file.map_err(csv::Error::from).and_then(|f| {
        let mut out = csv::Writer::from_writer(f);
        out.write_record([bench, case, key, &value.to_string()])?;
        out.flush()?;
        Ok(())
    });
    if let Err(e) = written {
        eprintln!("checks: cannot write {path}: {e}");
    }
}

fn sub(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn dot(a: [f64; 3], b: [f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn at(a: [f64; 3], d: [f64; 3], t: f64) -> [f64; 3] {
    [a[0] + t * d[0], a[1] + t * d[1], a[2] + t * d[2]]
}

/// The distance (m) from `p` to the triangle `(a, b, c)`, in `f64`: the
/// closest point by Voronoi regions (Ericson 5.1.5).
pub fn point_triangle_distance(p: [f64; 3], a: [f64; 3], b: [f64; 3], c: [f64; 3]) -> f64 {
    let (ab, ac, ap) = (sub(b, a), sub(c, a), sub(p, a));
    let (d1, d2) = (dot(ab, ap), dot(ac, ap));
    let q = if d1 <= 0.0 && d2 <= 0.0 {
        a
    } else {
        let bp = sub(p, b);
        let (d3, d4) = (dot(ab, bp), dot(ac, bp));
        if d3 >= 0.0 && d4 <= d3 {
            b
        } else {
            let vc = d1 * d4 - d3 * d2;
            if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
                at(a, ab, d1 / (d1 - d3))
            } else {
                let cp = sub(p, c);
                let (d5, d6) = (dot(ab, cp), dot(ac, cp));
                if d6 >= 0.0 && d5 <= d6 {
                    c
                } else {
                    let vb = d5 * d2 - d1 * d6;
                    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
                        at(a, ac, d2 / (d2 - d6))
                    } else {
                        let va = d3 * d6 - d5 * d4;
                        if va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0 {
                            at(b, sub(c, b), (d4 - d3) / ((d4 - d3) + (d5 - d6)))
                        } else {
                            let denom = 1.0 / (va + vb + vc);
                            let (v, w) = (vb * denom, vc * denom);
                            [
                                a[0] + ab[0] * v + ac[0] * w,
                                a[1] + ab[1] * v + ac[1] * w,
                                a[2] + ab[2] * v + ac[2] * w,
                            ]
                        }
                    }
                }
            }
        }
    };
    let d = sub(p, q);
    dot(d, d).sqrt()
}

/// The smallest distance (m) from the segment `p0..p1`, sampled at
/// `samples + 1` evenly spaced points, to the triangles: an upper bound of
/// the true segment distance, so a value below the radius proves an overlap.
pub fn sampled_segment_distance(
    p0: [f64; 3],
    p1: [f64; 3],
    samples: usize,
    triangles: &[[[f64; 3]; 3]],
) -> f64 {
    let mut best = f64::INFINITY;
    for k in 0..=samples {
        let t = k as f64 / samples.max(1) as f64;
        let p = at(p0, sub(p1, p0), t);
        for tri in triangles {
            best = best.min(point_triangle_distance(p, tri[0], tri[1], tri[2]));
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances_to_a_unit_triangle_in_each_region() {
        let (a, b, c) = ([0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]);
        // Face region: straight above. Exact in f64 (small integers, halves).
        assert_eq!(point_triangle_distance([0.25, 0.25, 2.0], a, b, c), 2.0);
        // Vertex regions.
        assert_eq!(point_triangle_distance([-3.0, -4.0, 0.0], a, b, c), 5.0);
        assert_eq!(point_triangle_distance([4.0, 0.0, 0.0], a, b, c), 3.0);
        // Edge region of bc: the point (1, 1, 0) is sqrt(1/2) from it.
        let d = point_triangle_distance([1.0, 1.0, 0.0], a, b, c);
        assert!((d - 0.5f64.sqrt()).abs() < 1e-15);
        // A sampled segment crossing the face has its sample on the face.
        // 0.2 is not a dyadic number, so the projection onto the face rounds:
        // a few ulps of the unit coordinates (1e-15 m) bound what is left.
        let seg = sampled_segment_distance([0.2, 0.2, -1.0], [0.2, 0.2, 1.0], 2, &[[a, b, c]]);
        assert!(seg < 1e-15, "distance {seg}");
    }
}
