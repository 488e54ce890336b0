"""Errors are Python exceptions with the Rust messages; a refused step raises
and leaves the world exactly as it was (its snapshot bytes unchanged)."""

import math

import pytest

from conftest import falling_ball
from parapet import (
    SPHERE_MESH_CCD,
    BodyError,
    BodyKind,
    Material,
    MaterialError,
    ParapetError,
    PhysicsWorld,
    RigidBody,
    Shape,
    ShapeError,
    StepError,
    WorldError,
)


def rattling_world():
    """The tunneling sphere plus an elastic ball between two static walls
    0.5 m apart at 60 m/s: more impacts in one 0.01 s step than
    ccd_max_impacts = 1 allows."""
    world = PhysicsWorld()
    world.collision_detection = SPHERE_MESH_CCD
    world.add_body(RigidBody.new_static(Shape.mesh([[-10, -10, 0], [10, -10, 0], [0, 10, 0]], [[0, 1, 2]])))
    world.add_body(falling_ball())
    world.ccd_max_impacts = 1
    bouncy = Material(friction=0.0, restitution=1.0, bounce_threshold=0.0)
    for x in (-0.35, 0.35):
        wall = RigidBody.new_static(Shape.cuboid((0.1, 1.0, 1.0))).with_position((x, 20.0, 0.0))
        wall.material = bouncy
        world.add_body(wall)
    rattler = RigidBody.new_dynamic(Shape.sphere(0.1), 1.0).with_position((0.0, 20.0, 0.0))
    rattler.material = bouncy
    rattler.linear_velocity = (60.0, 0.0, 0.0)
    return world, world.add_body(rattler)


def state(world: PhysicsWorld):
    """Everything a script can read of the world: every body (compared bit
    for bit by RigidBody.__eq__), the settings, the last step's events,
    contact count and continuous report."""
    report = world.ccd_report()
    return (
        [(body_id, body.copy()) for body_id, body in world.bodies()],
        (world.gravity, world.collision_detection, world.ccd_max_impacts, world.ccd_max_substeps),
        [(e.body_a, e.body_b, e.point, e.normal, e.normal_impulse, e.time, e.kind) for e in world.events()],
        world.contact_count(),
        (report.continuous_bodies, report.swept_bodies, report.passes, report.swept_impacts),
        world.ignored_pairs(),
    )


def test_a_refused_step_raises_and_changes_nothing():
    world, rattler_id = rattling_world()
    before = state(world)
    positions, velocities = world.positions(), world.linear_velocities()
    with pytest.raises(StepError) as refused:
        world.step(0.01)
    error = refused.value
    assert isinstance(error, ParapetError)
    assert error.variant == "ImpactLimit"
    assert error.body == rattler_id
    # The Rust message: the body, the count and the limit.
    message = str(error)
    assert str(rattler_id) in message and "impacts" in message
    assert "ccd_max_impacts = 1" in message
    assert state(world) == before
    assert (world.positions() == positions).all()
    assert (world.linear_velocities() == velocities).all()
    # The dry run names the same body and changes nothing either.
    (refusal,) = world.check_ccd()
    assert refusal.body == rattler_id and str(refusal) == message
    assert isinstance(refusal.error, StepError) and refusal.error.body == rattler_id
    assert state(world) == before


def test_after_a_refusal_the_world_steps_once_the_cause_is_gone():
    world, rattler_id = rattling_world()
    with pytest.raises(StepError):
        world.step(0.01)
    world.ccd_max_impacts = 16  # room for every bounce
    world.step(0.01)
    assert abs(world.body(rattler_id).position[0]) < 0.25  # still between the walls
    assert world.positions()[1, 2] == pytest.approx(0.1, abs=1e-4)


def test_a_step_error_after_work_done_restores_every_bit():
    # Two balls: the first sweeps and hits, the second has a NaN velocity
    # that validation refuses; the first ball's sweep must not survive.
    world = PhysicsWorld()
    world.collision_detection = SPHERE_MESH_CCD
    world.add_body(RigidBody.new_static(Shape.mesh([[-10, -10, 0], [10, -10, 0], [0, 10, 0]], [[0, 1, 2]])))
    world.add_body(falling_ball())
    bad = RigidBody.new_dynamic(Shape.sphere(0.1), 1.0).with_position((1.0, 0.0, 1.0))
    bad_id = world.add_body(bad)
    world.step(0.01)
    world.body(bad_id).linear_velocity = (math.nan, 0.0, 0.0)
    before = world.to_bytes()
    with pytest.raises(StepError) as refused:
        world.step(0.01)
    assert refused.value.variant == "InvalidBody" and refused.value.body == bad_id
    assert "NaN" in str(refused.value) or "finite" in str(refused.value)
    # The snapshot bytes (the NaN velocity included, which no equality of
    # floats could compare) are unchanged.
    assert world.to_bytes() == before


def test_invalid_settings_are_refused_at_step_entry():
    world = PhysicsWorld()
    world.ccd_max_impacts = 0
    with pytest.raises(StepError) as refused:
        world.step(0.01)
    assert refused.value.variant == "InvalidConfig" and refused.value.body is None
    assert "ccd_max_impacts" in str(refused.value)
    world.ccd_max_impacts = 16
    with pytest.raises(StepError, match="dt"):
        world.step(-1.0)
    with pytest.raises(OverflowError):
        world.ccd_max_substeps = -1


def test_shape_material_and_body_errors_carry_the_rust_message():
    with pytest.raises(ShapeError, match="radius"):
        Shape.sphere(-1.0)
    with pytest.raises(ShapeError):
        Shape.convex_hull([(0, 0, 0), (1, 0, 0), (0, 1, 0)])  # coplanar
    with pytest.raises(ShapeError, match="triangles\\[0\\]\\[2\\]"):
        Shape.mesh([(0, 0, 0), (1, 0, 0), (0, 1, 0)], [(0, 1, -2)])
    with pytest.raises(ShapeError):
        Shape.mesh([(0, 0, 0), (1, 0, 0), (0, 1, 0)], [(0, 1, 7)])
    import numpy as np

    with pytest.raises(ShapeError, match="triangles\\[0\\]\\[1\\] = -1 is not a vertex index"):
        Shape.mesh(np.zeros((3, 3)), np.array([[0, -1, 2]]))
    with pytest.raises(MaterialError, match="restitution"):
        Material(restitution=2.0)
    with pytest.raises(BodyError):
        RigidBody.new_dynamic(Shape.mesh([(0, 0, 0), (1, 0, 0), (0, 1, 0)], [(0, 1, 2)]), 1.0)
    ball = RigidBody.new_dynamic(Shape.sphere(0.5), 2.0)
    with pytest.raises(BodyError, match="mass"):
        ball.mass = -1.0
    assert ball.mass == 2.0
    static = RigidBody.new_static(Shape.sphere(0.5))
    with pytest.raises(BodyError):
        static.kind = BodyKind.Dynamic  # no dynamic mass to restore
    with pytest.raises(TypeError):
        ball.position = "abc"  # type: ignore[assignment]
    with pytest.raises(ValueError):
        ball.position = (1.0, 2.0)


def test_world_errors_leave_the_world_and_the_body_unchanged():
    world = PhysicsWorld()
    ball = RigidBody.new_dynamic(Shape.sphere(0.5), 1.0)
    ball_id = world.add_body(ball)
    with pytest.raises(WorldError, match="already in a world"):
        world.add_body(ball)
    assert len(world) == 1
    mesh = RigidBody.new_kinematic(Shape.mesh([(0, 0, 0), (1, 0, 0), (0, 1, 0)], [(0, 1, 2)]))
    with pytest.raises(WorldError):
        world.add_body(mesh)  # a mesh must be static
    assert mesh.id is None and len(world) == 1
    with pytest.raises(WorldError, match="itself"):
        world.ignore_pair(ball_id, ball_id)
    removed = world.remove_body(ball_id)
    assert removed.id is None and removed.mass == 1.0
    with pytest.raises(WorldError, match="not in this world"):
        world.remove_body(ball_id)
    with pytest.raises(WorldError, match="not in this world"):
        ball.position  # the view's body left its world
    assert world.body(ball_id) is None
