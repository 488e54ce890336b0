//! A box placed in the world, in `f64`, for the scenes' independent checks:
//! its centre, axes and half extents, how far it turned, where its corners
//! are, and how much two boxes overlap (the least overlap of their
//! projections over the 15 separating axes of two boxes, Gottschalk et al.
//! 1996). It shares no code with parapet's contacts.

use parapet::prelude::{Quat, Vec3};

/// A box placed in the world.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Obb {
    /// Centre (m).
    pub(crate) center: [f64; 3],
    /// The box's axes in the world (unit).
    pub(crate) axes: [[f64; 3]; 3],
    /// Half extents (m).
    pub(crate) half: [f64; 3],
    /// How far it is turned from the world's axes (degrees).
    pub(crate) turn_deg: f64,
}

pub(crate) fn dot(a: &[f64; 3], b: &[f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn cross(a: &[f64; 3], b: &[f64; 3]) -> [f64; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

impl Obb {
    /// The box of half extents `half` at centre `c`, turned by `q`.
    pub(crate) fn new(c: Vec3, q: Quat, half: [f64; 3]) -> Obb {
        Self::from_parts(
            [c.x as f64, c.y as f64, c.z as f64],
            [q.i as f64, q.j as f64, q.k as f64, q.w as f64],
            half,
        )
    }

    /// The box at `center` turned by the quaternion `[x, y, z, w]`.
    pub(crate) fn from_parts(center: [f64; 3], q: [f64; 4], half: [f64; 3]) -> Obb {
        let [x, y, z, w] = q;
        let n = (w * w + x * x + y * y + z * z).sqrt();
        let (w, x, y, z) = (w / n, x / n, y / n, z / n);
        // The rotation matrix's columns: the box's axes in the world.
        let axes = [
            [
                1.0 - 2.0 * (y * y + z * z),
                2.0 * (x * y + w * z),
                2.0 * (x * z - w * y),
            ],
            [
                2.0 * (x * y - w * z),
                1.0 - 2.0 * (x * x + z * z),
                2.0 * (y * z + w * x),
            ],
            [
                2.0 * (x * z + w * y),
                2.0 * (y * z - w * x),
                1.0 - 2.0 * (x * x + y * y),
            ],
        ];
        let turn_deg = (2.0 * w.abs().min(1.0).acos()).to_degrees();
        Obb {
            center,
            axes,
            half,
            turn_deg,
        }
    }

    /// The eight corners (m).
    pub(crate) fn corners(&self) -> [[f64; 3]; 8] {
        std::array::from_fn(|i| {
            let mut p = self.center;
            for (k, axis) in self.axes.iter().enumerate() {
                let s = if i & (1 << k) == 0 { -1.0 } else { 1.0 };
                for (c, a) in p.iter_mut().zip(axis) {
                    *c += s * self.half[k] * a;
                }
            }
            p
        })
    }

    /// Projection radius of the box on the unit `axis`.
    fn radius(&self, axis: &[f64; 3]) -> f64 {
        self.axes
            .iter()
            .zip(&self.half)
            .map(|(a, h)| dot(a, axis).abs() * h)
            .sum()
    }

    /// The overlap (m) of two boxes: the least overlap of their projections
    /// over the 15 separating axes (face normals and edge cross products),
    /// 0 when an axis separates them.
    pub(crate) fn overlap(&self, other: &Obb) -> f64 {
        let d = [
            other.center[0] - self.center[0],
            other.center[1] - self.center[1],
            other.center[2] - self.center[2],
        ];
        let mut axes: Vec<[f64; 3]> = self.axes.iter().chain(&other.axes).copied().collect();
        for a in &self.axes {
            for b in &other.axes {
                let c = cross(a, b);
                let len = dot(&c, &c).sqrt();
                if len > 1e-6 {
                    axes.push([c[0] / len, c[1] / len, c[2] / len]);
                }
            }
        }
        axes.iter()
            .map(|axis| self.radius(axis) + other.radius(axis) - dot(&d, axis).abs())
            .fold(f64::INFINITY, f64::min)
            .max(0.0)
    }
}
