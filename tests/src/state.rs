//! Bit-for-bit captures of a rigid body's stored state, shared by every test
//! that checks "unchanged" (refused setters, rolled-back steps, kinematic
//! poses): one definition of what "every field" means.

use parapet_math::{Quat, Vec3};
use parapet_solver::RigidBody;

fn push_vec(out: &mut Vec<u64>, x: Vec3) {
    out.extend(x.iter().map(|c| c.to_bits() as u64));
}

fn push_quat(out: &mut Vec<u64>, x: Quat) {
    out.extend(x.coords.iter().map(|c| c.to_bits() as u64));
}

/// Every stored field of one body as bits, so that NaN states compare too:
/// kind, collision flag, custom-tensor flag, collision groups, sensor flag, pose, shape placement, mass
/// centre, velocities, split velocities, pending loads, mass properties, the
/// saved dynamic configuration, damping and material. The shape itself is
/// compared separately (see [`body_snapshot`]).
pub fn body_bits(b: &RigidBody) -> Vec<u64> {
    let mut out = vec![
        b.kind() as u64,
        b.collides() as u64,
        b.has_custom_inverse_inertia() as u64,
        b.collision_groups().memberships as u64,
        b.collision_groups().filter as u64,
        b.is_sensor() as u64,
    ];
    push_vec(&mut out, b.position());
    push_quat(&mut out, b.rotation());
    let (t, r) = b.shape_offset();
    push_vec(&mut out, t);
    push_quat(&mut out, r);
    push_vec(&mut out, b.center_of_mass());
    push_vec(&mut out, b.linear_velocity());
    push_vec(&mut out, b.angular_velocity());
    push_vec(&mut out, b.split_linear_velocity());
    push_vec(&mut out, b.split_angular_velocity());
    push_vec(&mut out, b.force());
    push_vec(&mut out, b.torque());
    out.push(b.mass().to_bits() as u64);
    out.push(b.inverse_mass().to_bits() as u64);
    out.extend(b.inverse_inertia().iter().map(|c| c.to_bits() as u64));
    out.push(b.dynamic_mass().map_or(u64::MAX, |m| m.to_bits() as u64));
    if let Some(t) = b.dynamic_inverse_inertia() {
        out.extend(t.iter().map(|c| c.to_bits() as u64));
    }
    out.push(b.linear_damping().to_bits() as u64);
    out.push(b.angular_damping().to_bits() as u64);
    let m = b.material();
    out.extend([m.friction, m.restitution, m.bounce_threshold].map(|c| c.to_bits() as u64));
    out.extend([b.is_sleeping() as u64, b.can_sleep() as u64]);
    out.push(b.sleep_timer().to_bits() as u64);
    out
}

/// [`body_bits`] together with the shape (by its debug form): the complete
/// state of a body outside a world.
pub fn body_snapshot(b: &RigidBody) -> (Vec<u64>, String) {
    (body_bits(b), format!("{:?}", b.shape()))
}
