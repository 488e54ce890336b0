"""Sleeping as a script sees it: a cube on a floor falls asleep, a force
wakes it, can_sleep keeps it awake, and the world's switch and thresholds
round-trip through a snapshot."""

import pytest

from parapet import PhysicsWorld, RigidBody, Shape, WorldError

DT = 1.0 / 60.0


def cube_on_floor() -> tuple:
    world = PhysicsWorld()
    floor = Shape.mesh([[-10, -10, 0], [10, -10, 0], [10, 10, 0], [-10, 10, 0]], [[0, 1, 2], [0, 2, 3]])
    world.add_body(RigidBody.new_static(floor))
    cube = RigidBody.new_dynamic(Shape.cuboid((0.5, 0.5, 0.5)), 10.0)
    cube.position = (0.0, 0.0, 0.5)
    return world, world.add_body(cube)


def test_a_cube_at_rest_falls_asleep_and_a_force_wakes_it():
    world, cube = cube_on_floor()
    assert world.sleeping and world.time_to_sleep == 0.5
    assert world.sleep_linear_threshold == pytest.approx(0.05)
    assert world.sleep_angular_threshold == pytest.approx(0.05)
    # At rest from the start: asleep once it has rested 0.5 s (30 steps),
    # within a few more steps of settling.
    for _ in range(60):
        world.step(DT)
    body = world.body(cube)
    assert body.is_sleeping and body.sleep_timer >= 0.5
    body.add_force((10.0, 0.0, 0.0))
    assert not body.is_sleeping and body.sleep_timer == 0.0
    world.step(DT)
    assert not world.body(cube).is_sleeping


def test_can_sleep_the_switch_and_wake():
    world, cube = cube_on_floor()
    world.body(cube).can_sleep = False
    for _ in range(60):
        world.step(DT)
    assert not world.body(cube).is_sleeping
    world.body(cube).can_sleep = True
    for _ in range(60):
        world.step(DT)
    assert world.body(cube).is_sleeping
    copy = PhysicsWorld.from_json(world.to_json())
    assert copy.body(cube).is_sleeping and copy.body(cube) == world.body(cube)
    world.wake(cube)
    assert not world.body(cube).is_sleeping
    world.sleeping = False
    for _ in range(60):
        world.step(DT)
    assert not world.body(cube).is_sleeping
    stale = world.remove_body(cube)
    assert not stale.is_sleeping
    with pytest.raises(WorldError):
        world.wake(cube)
    assert not RigidBody.new_dynamic(Shape.sphere(0.5), 1.0).with_can_sleep(False).can_sleep
