//! The box scenes of the comparison with other engines
//! ([`super::bench_versus`]), described without an engine:
//!
//! - `crates_16`, `crates_64`: crates (0.5 x 0.4 x 0.3 m half extents,
//!   50 kg, friction 0.5) dropped from 1.5 m above an 8,192-triangle
//!   terrain, each turned and spinning at random, 3 m apart: they land,
//!   tumble and settle (2 s per run).
//! - `cars_head_on`: two 4.4 m car bodies (1,500 kg boxes) resting on a
//!   flat road of 16,384 triangles, driving at each other at 25 m/s: they
//!   meet in the 19th step (1 s per run).
//! - `car_rollover`: the car of [`super::vehicles::car_rollover`] landing on
//!   its side, rolling at 4 rad/s, on the rough 8,192-triangle terrain (2 s
//!   per run).
//! - `column_20`, `pyramid_55`, `pyramid_210`: the stacks of
//!   [`super::box_stacks`] on their tessellated floor (10 s per run).
//!
//! Each is judged from the bodies' poses alone ([`VersusCheck::Solids`],
//! [`VersusCheck::Stack`]).

use crate::bench_ccd::bench_terrain;
use crate::bench_versus::{VersusBody, VersusCheck, VersusScene, VersusShape, IDENTITY};
use crate::box_stacks::{stack_field, StackLayout, CUBE_HALF, CUBE_MASS, FRICTION};
use crate::prng::SplitMix64;
use crate::terrain::HeightField;
use crate::vehicles::{vehicle_terrain, CHASSIS_HALF, CHASSIS_MASS};

/// Half extents (m) of a crate.
pub const CRATE_HALF: [f32; 3] = [0.5, 0.4, 0.3];
/// Mass (kg) of a crate.
pub const CRATE_MASS: f32 = 50.0;
/// Speed (m/s) of each car of the head-on scene.
pub const CAR_SPEED: f32 = 25.0;

/// A unit quaternion `[x, y, z, w]` of a turn by the rotation vector `v`.
fn turn(v: [f64; 3]) -> [f32; 4] {
    let angle = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
    if angle == 0.0 {
        return IDENTITY;
    }
    let s = (0.5 * angle).sin() / angle;
    [
        (v[0] * s) as f32,
        (v[1] * s) as f32,
        (v[2] * s) as f32,
        (0.5 * angle).cos() as f32,
    ]
}

/// `count` crates over the 8,192-triangle terrain.
pub fn crates_scene(count: usize) -> VersusScene {
    let field = bench_terrain(8192);
    let side = (count as f64).sqrt().ceil() as usize;
    let mut rng = SplitMix64::new(0x6372_6174 + count as u64);
    let bodies = (0..count)
        .map(|k| {
            let x = 3.0 * ((k % side) as f64 - 0.5 * (side as f64 - 1.0));
            let y = 3.0 * ((k / side) as f64 - 0.5 * (side as f64 - 1.0));
            let ground = field.height_at(x, y).unwrap_or(0.0);
            let axis = [
                rng.range(-1.0, 1.0),
                rng.range(-1.0, 1.0),
                rng.range(-1.0, 1.0),
            ];
            VersusBody {
                shape: VersusShape::Cuboid(CRATE_HALF),
                mass: CRATE_MASS,
                locked: false,
                position: [x as f32, y as f32, (ground + 1.5) as f32],
                velocity: [0.0, 0.0, -1.0],
                rotation: turn(axis.map(|a| a * 1.5)),
                spin: [rng.range_f32(-2.0, 2.0), rng.range_f32(-2.0, 2.0), 0.0],
                friction: 0.5,
                restitution: 0.1,
            }
        })
        .collect();
    VersusScene {
        name: format!("crates_{count}"),
        title: format!(
            "{count} crates tumbling onto {} terrain triangles",
            field.triangle_count()
        ),
        field: Some(field),
        ground: (0.5, 0.1),
        gravity: true,
        bodies,
        check: VersusCheck::Solids,
        run: 120,
    }
}

/// The flat road of 16,384 triangles: 128 x 64 cells of 1 m.
pub fn road() -> HeightField {
    HeightField::generate(0, 128, 64, 1.0, 0.0)
}

/// Two cars head-on on the flat road.
pub fn cars_head_on_scene() -> VersusScene {
    let car = |x: f32, v: f32| VersusBody {
        shape: VersusShape::Cuboid(CHASSIS_HALF),
        mass: CHASSIS_MASS,
        locked: false,
        position: [x, 0.0, CHASSIS_HALF[2]],
        velocity: [v, 0.0, 0.0],
        rotation: IDENTITY,
        spin: [0.0; 3],
        friction: 0.8,
        restitution: 0.1,
    };
    let field = road();
    VersusScene {
        name: "cars_head_on".to_string(),
        title: format!(
            "two 4.4 m cars head-on at 25 m/s on a flat road of {} triangles",
            field.triangle_count()
        ),
        field: Some(field),
        ground: (0.8, 0.1),
        gravity: true,
        bodies: vec![car(-10.0, CAR_SPEED), car(10.0, -CAR_SPEED)],
        check: VersusCheck::Solids,
        run: 60,
    }
}

/// The car rolling over on the rough terrain.
pub fn car_rollover_scene() -> VersusScene {
    let field = vehicle_terrain();
    let ground = field.height_at(-20.0, 0.0).unwrap_or(0.0) as f32;
    VersusScene {
        name: "car_rollover".to_string(),
        title: format!(
            "a car landing on its side, rolling at 4 rad/s, on {} terrain triangles",
            field.triangle_count()
        ),
        field: Some(field),
        ground: (0.8, 0.1),
        gravity: true,
        bodies: vec![VersusBody {
            shape: VersusShape::Cuboid(CHASSIS_HALF),
            mass: CHASSIS_MASS,
            locked: false,
            position: [-20.0, 0.0, ground + 2.5],
            velocity: [15.0, 0.0, -14.0],
            rotation: turn([1.2, 0.0, 0.0]),
            spin: [4.0, 0.5, 0.0],
            friction: 0.8,
            restitution: 0.1,
        }],
        check: VersusCheck::Solids,
        run: 120,
    }
}

/// A stack of [`super::box_stacks`] on its floor.
pub fn stack_scene(layout: StackLayout) -> VersusScene {
    let field = stack_field();
    let bodies = layout
        .starts()
        .into_iter()
        .map(|p| VersusBody {
            shape: VersusShape::Cuboid([CUBE_HALF; 3]),
            mass: CUBE_MASS,
            locked: false,
            position: p,
            velocity: [0.0; 3],
            rotation: IDENTITY,
            spin: [0.0; 3],
            friction: FRICTION,
            restitution: 0.0,
        })
        .collect();
    VersusScene {
        name: layout.name.clone(),
        title: format!(
            "{} one-metre cubes of 1,000 kg stacked on {} floor triangles",
            layout.places.len(),
            field.triangle_count()
        ),
        field: Some(field),
        ground: (FRICTION, 0.0),
        gravity: true,
        bodies,
        check: VersusCheck::Stack(layout),
        run: 600,
    }
}

/// Every box scene, in report order.
pub fn box_scenes() -> Vec<VersusScene> {
    let mut out = vec![
        crates_scene(16),
        crates_scene(64),
        cars_head_on_scene(),
        car_rollover_scene(),
    ];
    out.extend(StackLayout::all().into_iter().map(stack_scene));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench_versus::BodyPose;
    use parapet::prelude::*;

    fn poses(w: &PhysicsWorld) -> Vec<BodyPose> {
        w.bodies()
            .filter(|(_, b)| b.kind() == BodyKind::Dynamic)
            .map(|(_, b)| BodyPose {
                centre: b.position().map(|x| x as f64).into(),
                rotation: b.rotation().coords.map(|x| x as f64).into(),
            })
            .collect()
    }

    /// Every box scene builds in both modes and starts clean: no body
    /// below the ground, none overlapping another, no cube aside.
    #[test]
    fn the_box_scenes_build_and_start_clean() {
        for s in box_scenes() {
            let w = s.parapet(DISCRETE).unwrap();
            assert_eq!(s.judge(&poses(&w)), Default::default(), "{}", s.name);
        }
    }

    /// In DISCRETE the cars meet (overlapping for a step or two: they close
    /// 0.83 m per step against a 2 cm speculative margin), push apart and
    /// never pass through each other; at the end nothing overlaps and both
    /// stand on the road.
    #[test]
    fn the_cars_meet_and_do_not_pass_through_each_other() {
        let s = cars_head_on_scene();
        let mut w = s.parapet(DISCRETE).unwrap();
        for step in 0..60 {
            w.step(1.0 / 60.0).unwrap();
            let p = poses(&w);
            assert!(p[0].centre[0] < p[1].centre[0], "step {step}: {p:?}");
        }
        assert_eq!(s.judge(&poses(&w)), Default::default());
    }
}
