"""The tunneling sphere, the contract's first script: DISCRETE lets it
through, SPHERE_MESH_CCD stops it on the surface."""

import pytest

from conftest import falling_ball, floor_triangle
from parapet import ContactKind


def test_the_contract_script_runs_as_written():
    from parapet.extensions.physics.body import RigidBody
    from parapet.extensions.physics.ccd import DISCRETE, SPHERE_MESH_CCD
    from parapet.extensions.physics.shape import Shape
    from parapet.extensions.physics.world import PhysicsWorld

    world = PhysicsWorld()
    assert world.collision_detection == DISCRETE
    world.collision_detection = SPHERE_MESH_CCD
    with pytest.raises(TypeError):
        world.collision_detection = 1  # type: ignore[assignment]
    assert world.collision_detection == SPHERE_MESH_CCD
    world.ccd_max_impacts = 16
    floor = Shape.mesh([[-10, -10, 0], [10, -10, 0], [0, 10, 0]], [[0, 1, 2]])
    world.add_body(RigidBody.new_static(floor))
    ball = RigidBody.new_dynamic(Shape.sphere(0.1), 1.0)
    ball.position = (0.0, 0.0, 0.15)
    ball.linear_velocity = (0.0, 0.0, -30.0)
    ball_id = world.add_body(ball)
    world.step(0.01)
    # Stopped with its centre one radius above the surface; 1e-4 m is the
    # f32 rounding of the impact position, far below the radius.
    assert abs(world.body(ball_id).position[2] - 0.1) < 1e-4
    positions = world.positions()
    assert positions.shape == (2, 3) and positions.dtype.name == "float32"
    assert positions[1, 2] == world.body(ball_id).position[2]


def test_discrete_lets_the_ball_through(floor_world):
    floor_world.add_body(falling_ball())
    floor_world.step(0.01)
    # 0.15 - 30 * 0.01 - 9.8 * 0.01^2 = -0.15098 m: through the floor (the
    # f32 integration is within 1e-5 m of it).
    assert floor_world.positions()[1, 2] == pytest.approx(-0.15098, abs=1e-5)
    assert floor_world.events() == []


def test_sphere_mesh_ccd_holds_it_with_one_swept_event(floor_world):
    from parapet import SPHERE_MESH_CCD

    floor_world.collision_detection = SPHERE_MESH_CCD
    ball_id = floor_world.add_body(falling_ball())
    floor_world.step(0.01)
    (event,) = floor_world.events()
    assert event.kind == ContactKind.Swept
    assert event.body_b == ball_id
    # The ball first touches after (0.15 - 0.1) / 30 s of the 0.01 s step: a
    # sixth of the way (gravity shortens it by 1e-3 of that: 0.1661).
    assert event.time == pytest.approx(0.1661, abs=1e-3)
    assert event.normal == (0.0, 0.0, 1.0)
    report = floor_world.ccd_report()
    assert (report.continuous_bodies, report.swept_impacts) == (1, 1)
    stats = floor_world.ccd_stats(ball_id)
    assert stats is not None and stats.impacts == 1
    assert floor_world.contact_count() == 1


def test_the_ball_rests_on_the_floor_over_many_steps(floor_world):
    from parapet import SPHERE_MESH_CCD

    floor_world.collision_detection = SPHERE_MESH_CCD
    ball_id = floor_world.add_body(falling_ball())
    for _ in range(100):
        floor_world.step(0.01)
    # At rest on the surface: within the contact solver's 5 mm slop.
    assert abs(floor_world.body(ball_id).position[2] - 0.1) < 5e-3


def test_a_floor_made_of_numpy_arrays_is_the_same_shape():
    import numpy as np

    from parapet import Shape

    lists = floor_triangle()
    arrays = Shape.mesh(
        np.array([[-10, -10, 0], [10, -10, 0], [0, 10, 0]], dtype=np.float64),
        np.array([[0, 1, 2]], dtype=np.int64),
    )
    assert arrays == lists
    assert arrays.vertices.dtype == np.float32 and arrays.triangles.tolist() == [[0, 1, 2]]
