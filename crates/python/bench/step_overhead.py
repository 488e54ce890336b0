"""The cost of stepping from Python against stepping from Rust: the same
1,000-body world (a scene file this script writes), stepped N times by
Python (`parapet`) and by Rust (`examples/step_scene.rs`, the same release
build of the engine). Both print a digest of the final state, so that the two
runs are shown to do the same work to the same bits.

Measured with callgrind (instruction counts do not move with the machine's
load): each side is run with 0 and with N steps, and the difference is the
stepping's cost, set-up and interpreter start-up excluded:

    python bench/step_overhead.py write target/bench-1000.json
    valgrind --tool=callgrind python bench/step_overhead.py run target/bench-1000.json 0
    valgrind --tool=callgrind python bench/step_overhead.py run target/bench-1000.json 20
    valgrind --tool=callgrind target/release/examples/step_scene target/bench-1000.json 0
    valgrind --tool=callgrind target/release/examples/step_scene target/bench-1000.json 20

overhead = (py(20) - py(0)) / (rs(20) - rs(0)) - 1.
"""

from __future__ import annotations

import sys

import parapet
from parapet import SPHERE_MESH_CCD, PhysicsWorld, RigidBody, Shape

BODIES = 1000
DT = 1.0 / 60.0


def world_of_1000() -> PhysicsWorld:
    """A static two-triangle floor and 999 spheres in a 10 x 10 x 10
    lattice falling onto it, SPHERE_MESH_CCD (the lower layers land and are
    struck by the upper ones within the 20 steps)."""
    world = PhysicsWorld()
    world.collision_detection = SPHERE_MESH_CCD
    floor = Shape.mesh([[-50, -50, 0], [50, -50, 0], [50, 50, 0], [-50, 50, 0]], [[0, 1, 2], [0, 2, 3]])
    world.add_body(RigidBody.new_static(floor))
    for i in range(BODIES - 1):
        x, y, z = i % 10, (i // 10) % 10, i // 100
        body = RigidBody.new_dynamic(Shape.sphere(0.2), 1.0)
        body.position = (1.5 * x - 7.0, 1.5 * y - 7.0, 1.0 + 1.5 * z)
        body.linear_velocity = (0.0, 0.0, -5.0 - z)
        world.add_body(body)
    return world


def digest(world: PhysicsWorld) -> str:
    """FNV-1a (64-bit) of the positions, then the linear and angular
    velocities, f32 little-endian, body order: the Rust side hashes the same
    bytes."""
    h = 0xCBF29CE484222325
    for array in (world.positions(), world.linear_velocities(), world.angular_velocities()):
        for byte in array.astype("<f4").tobytes():
            h = ((h ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return f"{h:016x}"


def main(argv: list[str]) -> None:
    if argv[1] == "write":
        with open(argv[2], "w") as out:
            out.write(world_of_1000().to_scene_json(DT, 20))
        return
    scene = parapet.load_scene(argv[2])
    steps = int(argv[3])
    world = scene.world
    for _ in range(steps):
        world.step(scene.dt)
    print(f"{len(world)} bodies, {steps} steps, digest {digest(world)}")


if __name__ == "__main__":
    main(sys.argv)
