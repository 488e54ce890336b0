"""Snapshots to and from bytes (CBOR) and JSON, and pickling: a world read
back steps to the same bits as the original."""

import copy
import pickle

import pytest

from conftest import falling_ball, floor_triangle
from parapet import SPHERE_MESH_CCD, PhysicsWorld, RigidBody, Shape, SnapshotError


def busy_world() -> PhysicsWorld:
    world = PhysicsWorld()
    world.collision_detection = SPHERE_MESH_CCD
    world.add_body(RigidBody.new_static(floor_triangle()))
    world.add_body(falling_ball())
    box = RigidBody.new_dynamic(Shape.cuboid((0.2, 0.3, 0.1)), 3.0)
    box.position = (1.0, 1.0, 0.5)
    box.angular_velocity = (0.0, 0.0, 2.0)
    world.add_body(box)
    for _ in range(3):
        world.step(0.01)
    return world


def steps_to_same_bits(a: PhysicsWorld, b: PhysicsWorld, steps: int = 20) -> None:
    for _ in range(steps):
        a.step(0.01)
        b.step(0.01)
    assert a.to_bytes() == b.to_bytes()
    assert (a.positions() == b.positions()).all()
    assert (a.rotations() == b.rotations()).all()


@pytest.mark.parametrize(
    "read_back",
    [
        lambda w: PhysicsWorld.from_bytes(w.to_bytes()),
        lambda w: PhysicsWorld.from_json(w.to_json()),
        lambda w: pickle.loads(pickle.dumps(w)),
        lambda w: copy.deepcopy(w),
        lambda w: w.copy(),
    ],
    ids=["bytes", "json", "pickle", "deepcopy", "copy"],
)
def test_a_world_read_back_steps_to_the_same_bits(read_back):
    world = busy_world()
    again = read_back(world)
    assert again.to_bytes() == world.to_bytes()
    assert again.collision_detection == SPHERE_MESH_CCD
    steps_to_same_bits(world, again)


def test_a_corrupt_snapshot_is_refused():
    data = busy_world().to_bytes()
    with pytest.raises(SnapshotError):
        PhysicsWorld.from_bytes(data[: len(data) // 2])
    with pytest.raises(SnapshotError):
        PhysicsWorld.from_bytes(b"not cbor at all")
    with pytest.raises(SnapshotError, match="format"):
        PhysicsWorld.from_json('{"format": "parapet-world/0"}')


def test_a_copy_is_independent():
    world = busy_world()
    before = world.to_bytes()
    other = world.copy()
    other.step(0.01)
    assert world.to_bytes() == before != other.to_bytes()
