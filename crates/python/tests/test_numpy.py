"""Every body's state as NumPy arrays, read and written without a per-body
Python call, and round trips that keep every bit."""

import sys

import numpy as np
import pytest

from parapet import PhysicsWorld, RigidBody, Shape


def grid_world(n: int) -> PhysicsWorld:
    world = PhysicsWorld()
    template = RigidBody.new_dynamic(Shape.sphere(0.1), 1.0)
    for i in range(n):
        body = template.copy()
        body.position = (float(i % 100), float(i // 100), 1.0 + 1e-3 * i)
        body.linear_velocity = (0.1 * i, 0.0, -0.5)
        world.add_body(body)
    return world


def python_calls_during(action) -> int:
    """How many Python-level function calls `action` makes (a C function
    called from Python counts once; a per-body Python callback would count
    once per body)."""
    calls = 0

    def profile(frame, event, arg):
        nonlocal calls
        if event in ("call", "c_call"):
            calls += 1

    sys.setprofile(profile)
    try:
        action()
    finally:
        sys.setprofile(None)
    return calls


def test_ten_thousand_bodies_read_in_one_call_each():
    world, small = grid_world(10_000), grid_world(10)
    arrays = {}
    for name in ("positions", "linear_velocities", "angular_velocities", "rotations"):
        calls = python_calls_during(lambda: arrays.__setitem__(name, getattr(world, name)()))
        few = python_calls_during(lambda: arrays.__setitem__("small", getattr(small, name)()))
        # The lambda, getattr, the method and the dict store: the same
        # count for 10 bodies as for 10,000, nothing per body.
        assert calls == few <= 4, (name, calls, few)
    assert arrays["positions"].shape == (10_000, 3)
    assert arrays["rotations"].shape == (10_000, 4)
    assert all(a.dtype == np.float32 for a in arrays.values())
    ids = world.ids()
    assert tuple(arrays["positions"][1234]) == world.body(ids[1234]).position
    assert tuple(arrays["linear_velocities"][4321]) == world.body(ids[4321]).linear_velocity
    assert (arrays["rotations"] == np.array([1, 0, 0, 0], dtype=np.float32)).all()


def test_writes_round_trip_bit_for_bit():
    world = grid_world(500)
    before = world.to_bytes()
    for read, write in (
        ("positions", "set_positions"),
        ("rotations", "set_rotations"),
        ("linear_velocities", "set_linear_velocities"),
        ("angular_velocities", "set_angular_velocities"),
    ):
        getattr(world, write)(getattr(world, read)())
    assert world.to_bytes() == before


def test_float64_writes_round_as_the_scalar_setters_do():
    world = grid_world(3)
    values = np.array([[0.1, 0.2, 0.3], [1e-9, -2.5, 1 / 3], [7.0, 8.0, 9.0]])
    world.set_positions(values)
    reference = RigidBody.new_dynamic(Shape.sphere(0.1), 1.0)
    for row, got in zip(values, world.positions()):
        reference.position = tuple(row)
        assert tuple(got) == reference.position
    # Lists are array-likes too.
    world.set_linear_velocities([[1, 2, 3]] * 3)
    assert world.linear_velocities().tolist() == [[1.0, 2.0, 3.0]] * 3


def test_a_write_of_the_wrong_shape_changes_nothing():
    world = grid_world(4)
    before = world.to_bytes()
    with pytest.raises(ValueError, match="shape"):
        world.set_positions(np.zeros((3, 3)))
    with pytest.raises(ValueError, match="shape"):
        world.set_rotations(np.zeros((4, 3)))
    with pytest.raises(ValueError):
        world.set_positions(np.zeros(12))
    assert world.to_bytes() == before


def test_a_stepped_world_reads_what_its_bodies_say():
    world = grid_world(50)
    world.step(0.01)
    positions = world.positions()
    for row, (body_id, body) in zip(positions, world.bodies()):
        assert tuple(row) == body.position


def test_mesh_arrays_round_trip():
    vertices = np.array([[-10, -10, 0], [10, -10, 0], [0, 10, 0], [0, 0, 5]], dtype=np.float32)
    triangles = np.array([[0, 1, 2], [0, 3, 1]], dtype=np.uint32)
    shape = Shape.mesh(vertices, triangles)
    assert (shape.vertices == vertices).all() and (shape.triangles == triangles).all()
    world = PhysicsWorld()
    mesh_id = world.add_body(RigidBody.new_static(shape).with_position((1.0, 0.0, 0.0)))
    snapshot = world.mesh_snapshot(mesh_id)
    assert snapshot.shape == (2, 3, 3)
    assert (snapshot[0] == vertices[[0, 1, 2]] + np.array([1, 0, 0], dtype=np.float32)).all()
    hull = Shape.convex_hull(np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]], dtype=np.float64))
    assert hull.vertices.shape == (4, 3)
