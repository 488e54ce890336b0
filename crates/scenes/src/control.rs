//! The controllers of the scenes: what a game or a driving simulator sets
//! on its bodies before each step (a walking velocity, a car's speed and
//! steering, a lift's travel). A controller sets velocities only, from the
//! body's own state and the previous step's events; it never moves a body
//! or applies an impulse, so every contact stays the world's.
//!
//! A scene file has no controllers: `parapet run` steps the world as it
//! was built (cars coast, walkers stand, a lift keeps its velocity).

use parapet::prelude::*;

/// How strongly (1/s) a driver steers towards the heading it wants: the
/// yaw rate is this times the heading error, at most the car's turn rate.
pub const STEERING_GAIN: f32 = 8.0;

/// How close (m) a walker comes to the end of its path before it turns
/// round.
pub const PATROL_ARRIVAL: f64 = 0.25;

/// A car's route: a straight run from `start` along `heading`, then a
/// turn to `turn_to`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Route {
    /// Where the car starts (m, x and y).
    pub start: [f64; 2],
    /// Its heading on the straight run (rad, from +x towards +y).
    pub heading: f32,
    /// How far (m) from the start it turns (infinite: never).
    pub straight: f64,
    /// Its heading after the turn (rad).
    pub turn_to: f32,
}

impl Route {
    /// The heading (rad) the driver wants at `(x, y)`.
    pub fn heading_at(&self, x: f64, y: f64) -> f32 {
        let (dx, dy) = (x - self.start[0], y - self.start[1]);
        if (dx * dx + dy * dy).sqrt() < self.straight {
            self.heading
        } else {
            self.turn_to
        }
    }
}

/// One controller.
#[derive(Debug, Clone, PartialEq)]
pub enum Control {
    /// A character controller: the body's horizontal velocity is set to
    /// `velocity` (m/s), its vertical velocity kept.
    Walk {
        /// The body.
        body: BodyId,
        /// Horizontal velocity (m/s, x and y).
        velocity: [f32; 2],
    },
    /// A walker going to and fro between two points at `speed` (m/s),
    /// vertical velocity kept.
    Patrol {
        /// The body.
        body: BodyId,
        /// One end of its path (m, x and y).
        from: [f64; 2],
        /// The other end (m, x and y).
        to: [f64; 2],
        /// Walking speed (m/s).
        speed: f32,
        /// Whether it walks towards `to` (else towards `from`).
        outward: bool,
    },
    /// A driver: the car's horizontal velocity is `speed` along its
    /// heading (its local +x, projected on the ground) and its yaw rate
    /// steers that heading towards the one its route wants, at most
    /// `turn_rate`, until the car touches anything but the ground: then
    /// the driver lets go for good (a crashed car is the world's).
    Drive {
        /// The car.
        body: BodyId,
        /// Speed (m/s).
        speed: f32,
        /// Where it goes.
        route: Route,
        /// Largest yaw rate (rad/s).
        turn_rate: f32,
        /// The bodies a car may touch and still be driven (the road).
        ground: Vec<BodyId>,
        /// Whether the driver has let go.
        released: bool,
    },
    /// A lift: a kinematic body travelling along z at `speed` (m/s)
    /// between the heights `low` and `high` of its origin, turning back
    /// at each end.
    Shuttle {
        /// The body.
        body: BodyId,
        /// Lowest height (m).
        low: f32,
        /// Highest height (m).
        high: f32,
        /// Speed (m/s).
        speed: f32,
    },
}

impl Control {
    /// Sets the controlled body's velocities in `world` for the next step.
    pub fn apply(&mut self, world: &mut PhysicsWorld) {
        match self {
            Control::Walk { body, velocity } => {
                if let Some(b) = world.body_mut(*body) {
                    let v = b.linear_velocity();
                    b.set_linear_velocity(Vec3::new(velocity[0], velocity[1], v.z));
                }
            }
            Control::Patrol {
                body,
                from,
                to,
                speed,
                outward,
            } => patrol(world, *body, [*from, *to], *speed, outward),
            Control::Drive {
                body,
                speed,
                route,
                turn_rate,
                ground,
                released,
            } => {
                if !*released {
                    *released = world.events().iter().any(|e| {
                        let other = match (e.body_a == *body, e.body_b == *body) {
                            (true, _) => e.body_b,
                            (_, true) => e.body_a,
                            _ => return false,
                        };
                        !ground.contains(&other)
                    });
                }
                if !*released {
                    drive(world, *body, *speed, route, *turn_rate);
                }
            }
            Control::Shuttle {
                body,
                low,
                high,
                speed,
            } => {
                if let Some(b) = world.body_mut(*body) {
                    let (z, vz) = (b.position().z, b.linear_velocity().z);
                    // Down from the top; up from the bottom or from rest;
                    // else on as it goes.
                    let vz = if z >= *high {
                        -*speed
                    } else if z <= *low || vz == 0.0 {
                        *speed
                    } else {
                        vz
                    };
                    b.set_linear_velocity(Vec3::new(0.0, 0.0, vz));
                }
            }
        }
    }
}

fn patrol(
    world: &mut PhysicsWorld,
    body: BodyId,
    ends: [[f64; 2]; 2],
    speed: f32,
    outward: &mut bool,
) {
    let Some(b) = world.body_mut(body) else {
        return;
    };
    let p = b.position();
    let goal = |out: bool| if out { ends[1] } else { ends[0] };
    let gap = |g: [f64; 2]| (g[0] - p.x as f64, g[1] - p.y as f64);
    let (dx, dy) = gap(goal(*outward));
    if (dx * dx + dy * dy).sqrt() < PATROL_ARRIVAL {
        *outward = !*outward;
    }
    let (dx, dy) = gap(goal(*outward));
    let d = (dx * dx + dy * dy).sqrt().max(1e-9);
    let s = speed as f64 / d;
    let v = b.linear_velocity();
    b.set_linear_velocity(Vec3::new((dx * s) as f32, (dy * s) as f32, v.z));
}

fn drive(world: &mut PhysicsWorld, body: BodyId, speed: f32, route: &Route, turn_rate: f32) {
    let Some(b) = world.body_mut(body) else {
        return;
    };
    let p = b.position();
    let heading = route.heading_at(p.x as f64, p.y as f64);
    let forward = b.rotation() * Vec3::x();
    let now = forward.y.atan2(forward.x);
    let error = (heading - now + std::f32::consts::PI).rem_euclid(std::f32::consts::TAU)
        - std::f32::consts::PI;
    let yaw = (STEERING_GAIN * error).clamp(-turn_rate, turn_rate);
    let flat = Vec3::new(forward.x, forward.y, 0.0);
    let along = if flat.norm() > 0.0 {
        flat.normalize()
    } else {
        Vec3::x()
    };
    let v = b.linear_velocity();
    let w = b.angular_velocity();
    b.set_linear_velocity(along * speed + Vec3::new(0.0, 0.0, v.z));
    b.set_angular_velocity(Vec3::new(w.x, w.y, yaw));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_driver_steers_towards_its_heading_and_lets_go_after_a_crash() {
        let mut w = PhysicsWorld::new();
        w.gravity = Vec3::zeros();
        let car = w
            .add_body(
                RigidBody::new_dynamic(Shape::cuboid(Vec3::new(2.2, 0.9, 0.75)).unwrap(), 1500.0)
                    .unwrap(),
            )
            .unwrap();
        let mut c = Control::Drive {
            body: car,
            speed: 12.0,
            route: Route {
                start: [0.0, 0.0],
                heading: 0.0,
                straight: 0.0,
                turn_to: std::f32::consts::FRAC_PI_2,
            },
            turn_rate: 1.0,
            ground: vec![],
            released: false,
        };
        c.apply(&mut w);
        let b = w.body(car).unwrap();
        assert_eq!(b.linear_velocity(), Vec3::new(12.0, 0.0, 0.0));
        // A quarter turn to the left is far: the full turn rate.
        assert_eq!(b.angular_velocity(), Vec3::new(0.0, 0.0, 1.0));
        // A wall ahead: the car strikes it, and the driver lets go.
        w.add_body(
            RigidBody::new_static(Shape::cuboid(Vec3::new(0.5, 5.0, 2.0)).unwrap())
                .with_position(Vec3::new(2.7, 0.0, 0.0)),
        )
        .unwrap();
        w.step(1.0 / 60.0).unwrap();
        assert!(!w.events().is_empty());
        c.apply(&mut w);
        assert!(matches!(c, Control::Drive { released: true, .. }));
    }

    #[test]
    fn a_lift_turns_back_at_each_end() {
        let mut w = PhysicsWorld::new();
        let lift = w
            .add_body(
                RigidBody::new_kinematic(Shape::cuboid(Vec3::new(1.0, 1.0, 0.1)).unwrap())
                    .with_position(Vec3::new(0.0, 0.0, 5.0)),
            )
            .unwrap();
        let mut c = Control::Shuttle {
            body: lift,
            low: 0.0,
            high: 5.0,
            speed: 2.0,
        };
        c.apply(&mut w);
        assert_eq!(w.body(lift).unwrap().linear_velocity().z, -2.0);
        w.body_mut(lift)
            .unwrap()
            .set_position(Vec3::new(0.0, 0.0, 2.0));
        c.apply(&mut w);
        assert_eq!(w.body(lift).unwrap().linear_velocity().z, -2.0);
        w.body_mut(lift)
            .unwrap()
            .set_position(Vec3::new(0.0, 0.0, -0.1));
        c.apply(&mut w);
        assert_eq!(w.body(lift).unwrap().linear_velocity().z, 2.0);
    }
}
