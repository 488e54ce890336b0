//! The time-of-impact query on its own, no world: any two shapes under any
//! two rigid motions (fixed, translating, turning), the first time their
//! distance reaches a target, never late.
//!
//! Run with `cargo run -p parapet --example time_of_impact`.

use parapet::collide::{time_of_impact, Motion, ToiError, ToiOptions, TOI_DISTANCE_TOLERANCE};
use parapet::math::{Quat, Vec3};
use parapet::shape::Shape;

fn report(what: &str, answer: Result<Option<parapet::collide::TimeOfImpact>, ToiError>) {
    match answer {
        Ok(Some(toi)) => println!(
            "{what}: impact at {:.6} s at ({:.3}, {:.3}, {:.3}), normal ({:.3}, {:.3}, {:.3})",
            toi.time,
            toi.point.x,
            toi.point.y,
            toi.point.z,
            toi.normal.x,
            toi.normal.y,
            toi.normal.z
        ),
        Ok(None) => println!("{what}: no impact"),
        Err(e) => println!("{what}: refused: {e}"),
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let still = |p: Vec3| Motion::fixed(p, Quat::identity());

    // A ball at 300 m/s against a one-sided triangle mesh (a floor facing up).
    let floor = Shape::mesh(
        vec![
            Vec3::new(-10.0, -10.0, 0.0),
            Vec3::new(10.0, -10.0, 0.0),
            Vec3::new(0.0, 10.0, 0.0),
        ],
        vec![[0, 1, 2]],
    )?;
    let ball = Shape::sphere(0.05)?;
    let shot = Motion::linear(
        Vec3::new(0.0, 0.0, 3.0),
        Quat::identity(),
        Vec3::new(30.0, 0.0, -300.0),
    );
    report(
        "ball at 300 m/s onto a mesh",
        time_of_impact(
            &ball,
            &shot,
            &floor,
            &still(Vec3::zeros()),
            &ToiOptions::new(0.1),
        ),
    );

    // The same ball rising from below the mesh: one-sided, not caught.
    let below = Motion::linear(
        Vec3::new(0.0, 0.0, -1.0),
        Quat::identity(),
        Vec3::new(0.0, 0.0, 20.0),
    );
    report(
        "ball rising through the back of the mesh",
        time_of_impact(
            &ball,
            &below,
            &floor,
            &still(Vec3::zeros()),
            &ToiOptions::new(0.2),
        ),
    );

    // A 2 m stick spinning end over end at 50 rad/s while it drops onto a box.
    let stick = Shape::capsule(0.01, 1.0)?;
    let spinning = Motion::new(
        Vec3::new(0.0, 0.0, 1.2),
        Quat::identity(),
        Vec3::new(0.0, 0.0, -1.0),
        Vec3::new(50.0, 0.0, 0.0),
    );
    let slab = Shape::cuboid(Vec3::new(5.0, 5.0, 0.25))?;
    report(
        "stick spinning at 50 rad/s onto a box",
        time_of_impact(
            &stick,
            &spinning,
            &slab,
            &still(Vec3::new(0.0, 0.0, -0.25)),
            &ToiOptions::new(1.0),
        ),
    );

    // Two hulls turning about off-centre mass centres, stopped 5 cm apart.
    let wedge = Shape::convex_hull(&[
        Vec3::new(0.0, 0.0, 0.0),
        Vec3::new(1.0, 0.0, 0.0),
        Vec3::new(0.0, 1.0, 0.0),
        Vec3::new(0.0, 0.0, 1.0),
    ])?;
    let a = Motion::new(
        Vec3::new(-2.0, 0.0, 0.0),
        Quat::identity(),
        Vec3::new(4.0, 0.0, 0.0),
        Vec3::new(0.0, 3.0, 1.0),
    )
    .with_local_center(Vec3::new(0.25, 0.25, 0.25));
    let b = Motion::new(
        Vec3::new(2.0, 0.0, 0.0),
        Quat::identity(),
        Vec3::new(-4.0, 0.0, 0.0),
        Vec3::new(2.0, 0.0, -1.0),
    )
    .with_local_center(Vec3::new(0.25, 0.25, 0.25));
    let near = ToiOptions::new(1.0).with_target_distance(0.05);
    report(
        "two turning hulls, 5 cm apart",
        time_of_impact(&wedge, &a, &wedge, &b, &near),
    );
    println!("(a reported distance is at most the target plus {TOI_DISTANCE_TOLERANCE} m)");

    // Input beyond the precision domain is refused, naming the value and the limit.
    let runaway = Motion::linear(Vec3::zeros(), Quat::identity(), Vec3::new(1e30, 0.0, 0.0));
    report(
        "a body at 1e30 m/s",
        time_of_impact(
            &ball,
            &runaway,
            &ball,
            &still(Vec3::new(5.0, 0.0, 0.0)),
            &ToiOptions::new(1.0),
        ),
    );
    Ok(())
}
