//! Stacks of boxes on a tessellated floor: a column of 20 one-metre cubes,
//! pyramids of 55 (10 rows) and 210 (20 rows), each cube 1,000 kg, placed a
//! centimetre apart (so every cube lands on the one below in the first
//! steps), friction 0.5. The floor is flat and cut into triangles of
//! 0.7 m (a grid whose seams fall under the cubes at odd places).
//!
//! [`StackReport`] judges a stack independently of parapet's contacts: the
//! worst overlap of two cubes (the least overlap over the 15 separating
//! axes of two boxes, in `f64`), and how far each cube moved sideways from
//! its place and turned. What a stack must keep (the aims of the tests and
//! the bench report): no two cubes overlapping by more than
//! [`MAX_OVERLAP`], every cube within [`MAX_ASIDE`] of its place and turned
//! less than [`MAX_TURN_DEG`].

use parapet::prelude::*;

use crate::obb::Obb;
use crate::terrain::HeightField;
use crate::SceneError;

/// Half extent (m) of every cube: 1 m cubes.
pub const CUBE_HALF: f32 = 0.5;
/// Mass (kg) of every cube.
pub const CUBE_MASS: f32 = 1000.0;
/// The gap (m) between neighbouring cubes as placed.
pub const PLACEMENT_GAP: f32 = 0.01;
/// Friction of the cubes and the floor.
pub const FRICTION: f32 = 0.5;
/// Step (s) of the stack scenes.
pub const DT: f32 = 1.0 / 60.0;
/// Side (m) of the floor's grid cells.
pub const FLOOR_CELL: f32 = 0.7;
/// Half side (m) of the square floor.
pub const FLOOR_HALF: f32 = 25.0;

/// The worst overlap (m) two cubes of a standing stack may have: 2 cm.
pub const MAX_OVERLAP: f64 = 0.02;
/// How far (m) a cube of a standing stack may end aside of its place: 3 cm.
pub const MAX_ASIDE: f64 = 0.03;
/// How far (degrees) a cube of a standing stack may end turned: 1 degree.
pub const MAX_TURN_DEG: f64 = 1.0;

/// A stack: its name and the resting centres of its cubes (m), lowest
/// first, each `CUBE_HALF` above what it rests on once settled.
#[derive(Debug, Clone, PartialEq)]
pub struct StackLayout {
    /// Short name (`column_20`, `pyramid_55`, `pyramid_210`).
    pub name: String,
    /// The cubes' resting centres (m).
    pub places: Vec<[f32; 3]>,
}

impl StackLayout {
    /// A column of `n` cubes at the origin.
    pub fn column(n: usize) -> Self {
        let places = (0..n)
            .map(|i| [0.0, 0.0, CUBE_HALF * (1.0 + 2.0 * i as f32)])
            .collect();
        StackLayout {
            name: format!("column_{n}"),
            places,
        }
    }

    /// A pyramid of `rows` rows (a wall in the x-z plane: row `r` from the
    /// bottom holds `rows - r` cubes, each centred over the gap of the two
    /// below), `rows (rows + 1) / 2` cubes.
    pub fn pyramid(rows: usize) -> Self {
        let mut places = Vec::new();
        let side = 2.0 * CUBE_HALF + PLACEMENT_GAP;
        for r in 0..rows {
            let count = rows - r;
            let x0 = -0.5 * side * (count as f32 - 1.0);
            for k in 0..count {
                places.push([
                    x0 + side * k as f32,
                    0.0,
                    CUBE_HALF * (1.0 + 2.0 * r as f32),
                ]);
            }
        }
        StackLayout {
            name: format!("pyramid_{}", places.len()),
            places,
        }
    }

    /// The column of 20, the pyramids of 55 and of 210.
    pub fn all() -> Vec<StackLayout> {
        vec![Self::column(20), Self::pyramid(10), Self::pyramid(20)]
    }

    /// The cubes' start centres: each resting place raised by a gap per
    /// level, so that neighbours start a centimetre apart.
    pub fn starts(&self) -> Vec<[f32; 3]> {
        self.places
            .iter()
            .map(|p| {
                let level = ((p[2] / CUBE_HALF - 1.0) / 2.0).round();
                [p[0], p[1], p[2] + PLACEMENT_GAP * (level + 1.0)]
            })
            .collect()
    }
}

/// The tessellated floor: a flat height field at `z = 0` of
/// [`FLOOR_CELL`] cells, about `2 FLOOR_HALF` metres square, each cell cut
/// in two along its diagonal (10,368 triangles).
pub fn stack_field() -> HeightField {
    let n = (2.0 * FLOOR_HALF / FLOOR_CELL).ceil() as usize;
    HeightField::generate(0, n, n, FLOOR_CELL as f64, 0.0)
}

/// The stack `layout` on the tessellated floor in `mode`: the world and
/// its cubes (in layout order).
///
/// # Errors
///
/// [`SceneError`] if a body is refused (never for these fixed values).
pub fn stack_world(
    layout: &StackLayout,
    mode: CollisionDetection,
) -> Result<(PhysicsWorld, Vec<BodyId>), SceneError> {
    let mut world = PhysicsWorld::new();
    world.collision_detection = mode;
    let material = Material::new(FRICTION, 0.0, 0.5)?;
    world.add_body(RigidBody::new_static(stack_field().mesh()?).with_material(material))?;
    let half = Vec3::new(CUBE_HALF, CUBE_HALF, CUBE_HALF);
    let mut ids = Vec::with_capacity(layout.places.len());
    for [x, y, z] in layout.starts() {
        let cube = RigidBody::new_dynamic(Shape::cuboid(half)?, CUBE_MASS)?
            .with_material(material)
            .with_position(Vec3::new(x, y, z));
        ids.push(world.add_body(cube)?);
    }
    Ok((world, ids))
}

/// What a stack looks like, judged independently of parapet's contacts.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct StackReport {
    /// The worst overlap (m) of two cubes (0 when none overlap).
    pub overlap: f64,
    /// The farthest a cube's centre moved sideways from its place (m).
    pub aside: f64,
    /// The most a cube turned (degrees).
    pub turn_deg: f64,
    /// The lowest a cube sits below its place (m, positive when lower).
    pub sink: f64,
}

impl StackReport {
    /// Whether the stack stands: within [`MAX_OVERLAP`], [`MAX_ASIDE`] and
    /// [`MAX_TURN_DEG`].
    pub fn stands(&self) -> bool {
        self.overlap <= MAX_OVERLAP && self.aside <= MAX_ASIDE && self.turn_deg < MAX_TURN_DEG
    }

    /// The report of cubes at `poses` (centre, rotation) against `layout`.
    pub fn of(layout: &StackLayout, poses: &[(Vec3, Quat)]) -> StackReport {
        let mut report = StackReport::default();
        let half = [CUBE_HALF as f64; 3];
        let boxes: Vec<Obb> = poses.iter().map(|(c, q)| Obb::new(*c, *q, half)).collect();
        for (k, (place, b)) in layout.places.iter().zip(&boxes).enumerate() {
            let dx = b.center[0] - place[0] as f64;
            let dy = b.center[1] - place[1] as f64;
            report.aside = report.aside.max((dx * dx + dy * dy).sqrt());
            report.sink = report.sink.max(place[2] as f64 - b.center[2]);
            report.turn_deg = report.turn_deg.max(b.turn_deg);
            for other in &boxes[k + 1..] {
                report.overlap = report.overlap.max(b.overlap(other));
            }
        }
        report
    }

    /// The report of the cubes `ids` of `world` against `layout`.
    pub fn of_world(layout: &StackLayout, world: &PhysicsWorld, ids: &[BodyId]) -> StackReport {
        let poses: Vec<(Vec3, Quat)> = ids
            .iter()
            .filter_map(|id| world.body(*id))
            .map(|b| (b.position(), b.rotation()))
            .collect();
        Self::of(layout, &poses)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layouts_hold_the_announced_numbers_of_cubes() {
        let all = StackLayout::all();
        let counts: Vec<usize> = all.iter().map(|l| l.places.len()).collect();
        assert_eq!(counts, vec![20, 55, 210]);
        assert_eq!(all[1].name, "pyramid_55");
    }

    #[test]
    fn two_cubes_one_centimetre_into_each_other_overlap_by_one_centimetre() {
        let q = Quat::identity();
        let layout = StackLayout::column(2);
        let poses = [
            (Vec3::new(0.0, 0.0, 0.5), q),
            (Vec3::new(0.0, 0.0, 1.49), q),
        ];
        let r = StackReport::of(&layout, &poses);
        assert!((r.overlap - 0.01).abs() < 1e-6, "{r:?}");
        assert!(r.stands());
    }
}
