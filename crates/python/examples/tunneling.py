"""The tunneling sphere, built in Python: a 0.1 m ball 0.15 m above a
one-sided triangle, falling at 30 m/s, one step of 0.01 s. DISCRETE lets it
through the floor; SPHERE_MESH_CCD stops it on the surface. Then a
refusal: an elastic ball between two walls needs more impacts in one step
than ccd_max_impacts = 1 allows, so the step raises StepError naming it
and leaves the world exactly as it was.

    python examples/tunneling.py
"""

from parapet import Material
from parapet.extensions.physics.body import RigidBody
from parapet.extensions.physics.ccd import DISCRETE, SPHERE_MESH_CCD, CollisionDetection
from parapet.extensions.physics.shape import Shape
from parapet.extensions.physics.world import PhysicsWorld, StepError


def drop_ball(mode: CollisionDetection) -> PhysicsWorld:
    world = PhysicsWorld()
    world.collision_detection = mode
    floor = Shape.mesh([[-10, -10, 0], [10, -10, 0], [0, 10, 0]], [[0, 1, 2]])
    world.add_body(RigidBody.new_static(floor))
    ball = RigidBody.new_dynamic(Shape.sphere(0.1), 1.0)
    ball.position = (0.0, 0.0, 0.15)
    ball.linear_velocity = (0.0, 0.0, -30.0)
    world.add_body(ball)
    world.step(0.01)
    return world


for mode in (DISCRETE, SPHERE_MESH_CCD):
    world = drop_ball(mode)
    z = float(world.positions()[1, 2])
    verdict = "through the floor" if z < 0.0 else "on the floor"
    print(f"{mode}: ball centre at z = {z:+.4f} m, {verdict}; events: {world.events()}")

world = drop_ball(SPHERE_MESH_CCD)
world.ccd_max_impacts = 1
bouncy = Material(friction=0.0, restitution=1.0, bounce_threshold=0.0)
for x in (-0.35, 0.35):
    wall = RigidBody.new_static(Shape.cuboid((0.1, 1.0, 1.0))).with_position((x, 20.0, 0.0))
    wall.material = bouncy
    world.add_body(wall)
rattler = RigidBody.new_dynamic(Shape.sphere(0.1), 1.0).with_position((0.0, 20.0, 0.0))
rattler.material = bouncy
rattler.linear_velocity = (60.0, 0.0, 0.0)
world.add_body(rattler)
before = world.to_bytes()
try:
    world.step(0.01)
except StepError as refusal:
    print(f"refused ({refusal.variant}, {refusal.body}): {refusal}")
print(f"world unchanged by the refused step: {world.to_bytes() == before}")
