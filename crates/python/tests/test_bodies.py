"""Bodies, forces, impulses, per-body CCD modes, filters, rays and
quantities, as a script uses them."""

import math

import pytest

from conftest import falling_ball, floor_triangle
from parapet import (
    SPHERE_MESH_CCD,
    BodyKind,
    CcdMode,
    CollisionGroups,
    ContactKind,
    Material,
    PhysicsWorld,
    RayError,
    RigidBody,
    Shape,
)
from parapet.extensions.physics import quantities
from parapet.extensions.physics.quantities import units


def weightless() -> PhysicsWorld:
    world = PhysicsWorld()
    world.gravity = (0.0, 0.0, 0.0)
    return world


def test_every_shape_and_its_mass_properties():
    sphere = Shape.sphere(0.5)
    props = sphere.mass_properties(2.0)
    # A solid ball: I = 2/5 m r^2 = 0.2 kg m^2 on each axis (f32 rounding).
    assert props.mass == 2.0 and props.center == (0.0, 0.0, 0.0)
    assert props.inertia[0][0] == pytest.approx(0.2, rel=1e-6)
    capsule = Shape.capsule(0.2, 0.5)
    assert (capsule.kind, capsule.radius, capsule.half_height) == ("capsule", pytest.approx(0.2), 0.5)
    box = Shape.cuboid((1.0, 2.0, 3.0))
    assert box.half_extents == (1.0, 2.0, 3.0) and box.local_aabb() == ((-1.0, -2.0, -3.0), (1.0, 2.0, 3.0))
    # A box: I_xx = m (b^2 + c^2) / 3 with half extents b, c.
    assert box.mass_properties(3.0).inertia[0][0] == pytest.approx(13.0, rel=1e-6)
    hull = Shape.convex_hull([(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1)])
    assert hull.kind == "convex hull" and hull.is_solid
    seams = Shape.mesh_with_active_edges([(0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 1, 0)], [(0, 1, 2), (0, 2, 3)])
    assert seams.kind == "triangle mesh" and not seams.is_solid
    assert sphere.bounding_radius() >= 0.5


def test_a_view_edits_the_world_and_a_copy_does_not():
    world = weightless()
    ball = RigidBody.new_dynamic(Shape.sphere(0.5), 1.0)
    template = ball.copy()
    ball_id = world.add_body(ball)
    assert ball.id == ball_id and ball.world is world
    world.body(ball_id).linear_velocity = (1.0, 0.0, 0.0)
    assert ball.linear_velocity == (1.0, 0.0, 0.0)
    template.position = (5.0, 5.0, 5.0)
    assert ball.position == (0.0, 0.0, 0.0)
    second = world.add_body(template)
    assert second != ball_id and world.body(second).position == (5.0, 5.0, 5.0)
    world.step(0.5)
    assert ball.position == (0.5, 0.0, 0.0)


def test_a_force_accelerates_and_an_impulse_kicks():
    world = weightless()
    box = RigidBody.new_dynamic(Shape.cuboid((0.5, 0.5, 0.5)), 2.0)
    world.add_body(box)
    box.add_force((4.0, 0.0, 0.0))
    assert box.force == (4.0, 0.0, 0.0)
    world.step(0.1)
    # a = F / m = 2 m/s^2 for 0.1 s: v = 0.2 m/s (f32 arithmetic).
    assert box.linear_velocity[0] == pytest.approx(0.2, rel=1e-6)
    assert box.force == (0.0, 0.0, 0.0)  # consumed by the step
    box.apply_impulse((0.0, 2.0, 0.0), box.world_center_of_mass)
    # dv = J / m = 1 m/s; through the mass centre: no spin.
    assert box.linear_velocity[1] == pytest.approx(1.0) and box.angular_velocity == (0.0, 0.0, 0.0)
    box.apply_impulse((0.0, 1.0, 0.0), (0.5, 0.0, 0.0))
    assert box.angular_velocity[2] > 0.0  # off centre: it turns about +z
    box.add_torque((0.0, 0.0, 1.0))
    assert box.torque == (0.0, 0.0, 1.0)
    assert box.kinetic_energy == pytest.approx(
        quantities.kinetic_energy(box.mass, box.linear_velocity, _inverse(box.world_inverse_inertia), box.angular_velocity),
        rel=1e-5,
    )


def _inverse(rows):
    import numpy as np

    return np.linalg.inv(np.array(rows, dtype=np.float64))


def test_kinds_materials_and_per_body_ccd():
    world = PhysicsWorld()
    world.collision_detection = SPHERE_MESH_CCD
    world.add_body(RigidBody.new_static(floor_triangle()))
    ball = falling_ball().with_material(Material(friction=0.2)).with_ccd(CcdMode.Discrete)
    ball_id = world.add_body(ball)
    assert ball.material == Material(friction=0.2) and ball.ccd == CcdMode.Discrete
    world.step(0.01)
    # Its own mode wins over the world's: it went through.
    assert ball.position[2] < 0.0
    assert world.ccd_stats(ball_id).mode == CcdMode.Discrete
    ball.kind = BodyKind.Kinematic
    assert (ball.kind, ball.mass, ball.dynamic_mass) == (BodyKind.Kinematic, 0.0, 1.0)
    ball.kind = BodyKind.Dynamic
    assert ball.mass == 1.0


def test_collision_groups_ignored_pairs_and_sensors():
    def overlapping():
        world = weightless()
        a = world.add_body(RigidBody.new_dynamic(Shape.sphere(0.5), 1.0))
        b = world.add_body(RigidBody.new_dynamic(Shape.sphere(0.5), 1.0).with_position((0.9, 0.0, 0.0)))
        return world, a, b

    world, a, b = overlapping()
    world.step(0.01)
    assert world.events() and world.events()[0].kind == ContactKind.Initial
    world, a, b = overlapping()
    world.ignore_pair(a, b)
    assert world.is_pair_ignored(b, a) and [set(p) for p in world.ignored_pairs()] == [{a, b}]
    world.step(0.01)
    assert world.events() == []
    world.restore_pair(a, b)
    world.step(0.01)
    assert world.events()
    world, a, b = overlapping()
    world.body(b).collision_groups = CollisionGroups(0b10, 0b10)
    world.body(a).collision_groups = CollisionGroups(0b01, 0b01)
    world.step(0.01)
    assert world.events() == []
    assert not CollisionGroups(0b10, 0b10).interacts_with(CollisionGroups(0b01, 0b01))
    assert CollisionGroups.ALL.interacts_with(CollisionGroups.ALL)


def test_ray_casts():
    world = PhysicsWorld()
    floor_id = world.add_body(RigidBody.new_static(floor_triangle()))
    hit = world.cast_ray((0.0, 0.0, 5.0), (0.0, 0.0, -1.0), 10.0)
    assert hit is not None and hit.body == floor_id
    assert hit.distance == pytest.approx(5.0) and hit.normal == (0.0, 0.0, 1.0)
    assert world.cast_ray((0.0, 0.0, 5.0), (0.0, 0.0, -1.0), 4.0) is None
    assert world.cast_ray((0.0, 0.0, 5.0), (0.0, 0.0, -1.0), groups=CollisionGroups.NONE) is None
    with pytest.raises(RayError, match="direction"):
        world.cast_ray((0.0, 0.0, 5.0), (0.0, 0.0, 0.0))
    with pytest.raises(RayError, match="max_distance"):
        world.cast_ray((0.0, 0.0, 5.0), (0.0, 0.0, -1.0), -1.0)


def test_quantities_and_units():
    assert quantities.torque((1, 0, 0), (0, 1, 0)) == (0.0, 0.0, 1.0)
    assert quantities.translational_kinetic_energy(2.0, (3, 0, 0)) == 9.0
    assert quantities.stiffness_for_frequency(1.0, 1.0) == pytest.approx(4 * math.pi**2)
    assert quantities.critical_damping(4.0, 1.0) == 4.0
    assert 90 * units.DEGREE == pytest.approx(math.pi / 2)
    assert 36 * units.KILOMETER_PER_HOUR == pytest.approx(10.0)
