//! The walker benchmark scenes: rotation-locked capsule walkers and spinning spheres with an
//! anisotropic inertia tensor on a generated terrain (`bench_ccd`'s
//! terrain), 1 or 64 bodies, in SPHERE_MESH_CCD, resting on the terrain and
//! driven sideways by a controller before every step; and the independent
//! terrain clearance the bench checks after every step.

use parapet::prelude::*;

use crate::bench_ccd::{bench_terrain, BenchSceneError};
use crate::terrain::HeightField;

/// Step (s).
pub const DT: f32 = 1.0 / 60.0;
/// Walking speed (m/s) set by the controller before each step.
pub const WALK_SPEED: f32 = 2.0;

/// The kind of walker.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WalkerKind {
    /// An upright capsule (r 0.25 m, half height 0.5 m, 70 kg) that cannot
    /// turn (zero inverse inertia): a character.
    LockedCapsule,
    /// A sphere (r 0.3 m, 5 kg) with an anisotropic inertia tensor (inverse
    /// diag 1, 2, 4 kg^-1 m^-2) spinning at (4, 6, 9) rad/s.
    SpinningSphere,
}

impl WalkerKind {
    /// Short name for tables.
    pub fn name(self) -> &'static str {
        match self {
            WalkerKind::LockedCapsule => "locked_capsules",
            WalkerKind::SpinningSphere => "spinning_spheres",
        }
    }

    /// The rounded radius (m).
    pub fn radius(self) -> f64 {
        match self {
            WalkerKind::LockedCapsule => 0.25,
            WalkerKind::SpinningSphere => 0.3,
        }
    }

    /// Distance (m) from the origin to each end of the core segment along
    /// the body's z axis (0 for a sphere; the body never turns the capsule).
    pub fn half_core(self) -> f64 {
        match self {
            WalkerKind::LockedCapsule => 0.5,
            WalkerKind::SpinningSphere => 0.0,
        }
    }
}

/// A walker scene.
#[derive(Debug, Clone)]
pub struct Walkers {
    /// The world (SPHERE_MESH_CCD) with the bodies resting just above the
    /// terrain, after one step (index built).
    pub world: PhysicsWorld,
    /// The terrain body.
    pub terrain_body: BodyId,
    /// The walkers.
    pub bodies: Vec<BodyId>,
    /// What they are.
    pub kind: WalkerKind,
    /// The terrain.
    pub field: HeightField,
}

impl Walkers {
    /// The controller: sets every walker's horizontal velocity to
    /// [`WALK_SPEED`] along +x (keeping its vertical velocity).
    pub fn drive(&self, world: &mut PhysicsWorld) {
        for id in &self.bodies {
            if let Some(b) = world.body_mut(*id) {
                let v = b.linear_velocity();
                b.set_linear_velocity(Vec3::new(WALK_SPEED, 0.3, v.z));
            }
        }
    }

    /// The triangles of the cells within `reach` (m) of `(x, y)`, in `f64`,
    /// as [`HeightField::triangles`] splits them.
    pub fn triangles_near(&self, x: f64, y: f64, reach: f64) -> Vec<[[f64; 3]; 3]> {
        let f = &self.field;
        let cell = |c: f64, o: f64, n: usize| {
            let lo = (((c - reach - o) / f.cell).floor().max(0.0) as usize).min(n);
            let hi = (((c + reach - o) / f.cell).ceil().max(0.0) as usize).min(n);
            (lo, hi)
        };
        let (i0, i1) = cell(x, f.origin[0], f.nx);
        let (j0, j1) = cell(y, f.origin[1], f.ny);
        // The vertex (i, j) exactly as `HeightField::triangles` makes it
        // (coordinates rounded to f32, then widened).
        let p = |i: usize, j: usize| {
            [
                (f.origin[0] + i as f64 * f.cell) as f32 as f64,
                (f.origin[1] + j as f64 * f.cell) as f32 as f64,
                f.heights[j * (f.nx + 1) + i] as f64,
            ]
        };
        let mut out = Vec::new();
        for j in j0..j1 {
            for i in i0..i1 {
                out.push([p(i, j), p(i + 1, j), p(i + 1, j + 1)]);
                out.push([p(i, j), p(i + 1, j + 1), p(i, j + 1)]);
            }
        }
        out
    }
}

/// `count` walkers of `kind` on a terrain of `triangles` triangles, resting
/// 2 cm above its local top, after one step.
///
/// # Errors
///
/// [`BenchSceneError`] if a body is refused or the first step fails.
pub fn walkers(
    kind: WalkerKind,
    count: usize,
    triangles: usize,
) -> Result<Walkers, BenchSceneError> {
    let field = bench_terrain(triangles);
    let mut world = PhysicsWorld::new();
    world.collision_detection = SPHERE_MESH_CCD;
    let m = Material::new(0.5, 0.0, 0.5)?;
    let terrain_body = world.add_body(RigidBody::new_static(field.mesh()?).with_material(m))?;
    let side = (count as f64).sqrt().ceil() as usize;
    let span = field.nx as f64 * field.cell - 8.0;
    let spacing = span / side as f64;
    let mut bodies = Vec::with_capacity(count);
    for k in 0..count {
        // Start 2 m in from the -x edge: 2 s of walking stays on the field.
        let x = field.origin[0] + 2.0 + spacing * ((k % side) as f64 + 0.1);
        let y = field.origin[1] + 2.0 + spacing * ((k / side) as f64 + 0.5);
        let r = kind.radius();
        let mut top = f64::MIN;
        for dx in [-r, 0.0, r] {
            for dy in [-r, 0.0, r] {
                top = top.max(field.height_at(x + dx, y + dy).unwrap_or(0.0));
            }
        }
        // The largest slope of the field is below 1 (heights within
        // ±0.55 m over coarse cells of 4 m, plus roughness): r + 2 cm above the
        // highest of nine samples is clear.
        let z = top + kind.half_core() + r + 0.02 + 0.3 * r;
        let b = match kind {
            WalkerKind::LockedCapsule => {
                let mut b = RigidBody::new_dynamic(Shape::capsule(0.25, 0.5)?, 70.0)?;
                b.set_inverse_inertia(Mat3::zeros())?;
                b
            }
            WalkerKind::SpinningSphere => {
                let mut b = RigidBody::new_dynamic(Shape::sphere(0.3)?, 5.0)?
                    .with_angular_velocity(Vec3::new(4.0, 6.0, 9.0));
                b.set_inverse_inertia(Mat3::from_diagonal(&Vec3::new(1.0, 2.0, 4.0)))?;
                b
            }
        }
        .with_material(m)
        .with_position(Vec3::new(x as f32, y as f32, z as f32))
        .with_linear_velocity(Vec3::new(WALK_SPEED, 0.3, 0.0));
        bodies.push(world.add_body(b)?);
    }
    world.step(DT)?;
    Ok(Walkers {
        world,
        terrain_body,
        bodies,
        kind,
        field,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clearance::height_above;

    #[test]
    fn the_nearby_triangles_are_the_fields_own() {
        let s = walkers(WalkerKind::SpinningSphere, 1, 512).unwrap();
        let (v, t) = s.field.triangles();
        let all: Vec<[[f64; 3]; 3]> = t
            .iter()
            .map(|tri| {
                tri.map(|k| {
                    [
                        v[k as usize].x as f64,
                        v[k as usize].y as f64,
                        v[k as usize].z as f64,
                    ]
                })
            })
            .collect();
        let near = s.triangles_near(0.3, -0.6, 1.2);
        // Cells within 1.2 m of the point: 3 to 4 per axis, 2 triangles each.
        assert!(near.len() >= 18 && near.len() <= 32, "{}", near.len());
        for tri in &near {
            assert!(all.contains(tri), "{tri:?}");
        }
    }

    #[test]
    fn walkers_stay_on_the_terrain_for_a_second() {
        for kind in [WalkerKind::LockedCapsule, WalkerKind::SpinningSphere] {
            let s = walkers(kind, 4, 2048).unwrap();
            let mut w = s.world.clone();
            for _ in 0..60 {
                s.drive(&mut w);
                w.step(DT).unwrap();
            }
            for id in &s.bodies {
                let p = w.body(*id).unwrap().position();
                let low = Vec3::new(p.x, p.y, p.z - kind.half_core() as f32);
                // On the terrain (not through it, 1 mm as the scenes'
                // crossing tolerance) and not thrown off (within 1 m).
                let h = height_above(&s.field, low).unwrap();
                assert!(h > -1e-3 && h < 1.0, "{kind:?}: {h}");
                // It walked: 1 s at 2 m/s less friction losses.
                assert!(p.x > s.field.origin[0] as f32 + 2.5, "{kind:?}: {p:?}");
            }
        }
    }
}
