"""Shared helpers of the pytest suite (run by `cargo xtask test` in a
virtual environment it creates under the target directory)."""

from pathlib import Path

import pytest

from parapet import PhysicsWorld, RigidBody, Shape

REPO = Path(__file__).resolve().parents[3]
SCENES = REPO / "scenes"
EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def floor_triangle() -> Shape:
    """One counter-clockwise triangle seen from +z: its front faces up."""
    return Shape.mesh([[-10, -10, 0], [10, -10, 0], [0, 10, 0]], [[0, 1, 2]])


def falling_ball() -> RigidBody:
    """The tunneling sphere: radius 0.1 m at 0.15 m, falling at 30 m/s."""
    ball = RigidBody.new_dynamic(Shape.sphere(0.1), 1.0)
    ball.position = (0.0, 0.0, 0.15)
    ball.linear_velocity = (0.0, 0.0, -30.0)
    return ball


@pytest.fixture
def floor_world() -> PhysicsWorld:
    world = PhysicsWorld()
    world.add_body(RigidBody.new_static(floor_triangle()))
    return world
