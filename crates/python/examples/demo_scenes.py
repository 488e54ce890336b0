"""The demo scenes from Python, each run in both modes, printing what
DISCRETE lets through and what SPHERE_MESH_CCD holds: five read from the
repository's scene files (``scenes/``), three built here with the API (a
turning capsule thrown onto the walker's terrain, a car rolling over on a
rough terrain, a hull crate at 100 m/s; the terrains are the Rust demo's,
generated again by ``terrain.py``).

A body *crosses* a surface when one of its core points (a sphere's centre, a
capsule's segment ends, a box's corners, a hull's vertices) passes through
the surface of a body that did not move in the step (a floor, a wall, a
terrain, a sphere of a stack at rest: moved less than ``TOLERANCE``) and ends more than ``TOLERANCE``
behind it: the point's path over the step is cast as a ray against the world
after the step. A body resting on a surface never crosses; a body that
tunnelled does. (Crossings between two bodies that both moved in the step
are not looked for.)

    python examples/demo_scenes.py [SCENE.json ...]   (default: the eight demo scenes)

The town crossroads (101 bodies: cars, a kinematic bus, a mesh lift,
walkers, kerbs, bollards, projectiles; 600 steps of 1/60 s, about two
minutes):

    python examples/demo_scenes.py ../../scenes/crossroads.json

prints that DISCRETE lets projectiles and bodies through the road and that
SPHERE_MESH_CCD holds every step.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Callable, Dict, List, Optional, Sequence, Tuple

import numpy as np

import parapet
from parapet import (
    DISCRETE,
    SPHERE_MESH_CCD,
    BodyId,
    BodyKind,
    CollisionDetection,
    Material,
    PhysicsWorld,
    RigidBody,
    Shape,
)

sys.path.insert(0, str(Path(__file__).resolve().parent))
from terrain import vehicle_terrain, walker_terrain  # noqa: E402

SCENES = Path(__file__).resolve().parents[3] / "scenes"
DT = 1.0 / 60.0

# A scene in a mode: its world, step, step count and body names.
Built = Tuple[PhysicsWorld, float, int, Dict[BodyId, str]]

# How far (m) a core point must end behind a surface to count as crossed:
# 1 cm, twice the contact solver's slop (5 mm), within which a resting body
# may sink, and far below every size in these scenes (0.1 m or more).
TOLERANCE = 0.01


def rotate(q: Sequence[float], v: np.ndarray) -> np.ndarray:
    """`v` turned by the quaternion `q` = (w, x, y, z)."""
    w, u = q[0], np.asarray(q[1:], dtype=np.float64)
    t = 2.0 * np.cross(u, v)
    return v + w * t + np.cross(u, t)


def core_points(body: RigidBody) -> List[np.ndarray]:
    """The body's core points in world coordinates."""
    shape = body.shape
    if shape.kind == "sphere":
        local = [np.zeros(3)]
    elif shape.kind == "capsule":
        h = shape.half_height or 0.0
        local = [np.array([0.0, 0.0, h]), np.array([0.0, 0.0, -h])]
    elif shape.kind == "cuboid":
        hx, hy, hz = shape.half_extents or (0.0, 0.0, 0.0)
        local = [np.array([sx * hx, sy * hy, sz * hz]) for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)]
    else:
        local = [np.asarray(v, dtype=np.float64) for v in shape.vertices]  # type: ignore[union-attr]
    (t, r) = body.shape_offset
    p, q = np.asarray(body.position, dtype=np.float64), body.rotation
    return [p + rotate(q, rotate(r, v) + np.asarray(t)) for v in local]


def crossing(
    world: PhysicsWorld, still: List[BodyId], start: np.ndarray, end: np.ndarray
) -> Optional[BodyId]:
    """The body of `still` whose surface the path `start` -> `end` passes
    through, ending more than TOLERANCE behind it (measured along the
    surface's normal at the crossing, so that a corner sliding along a floor
    a few millimetres deep is not counted however long its path), or None."""
    delta = end - start
    length = float(np.linalg.norm(delta))
    if length <= TOLERANCE:
        return None
    direction = delta / length
    origin = start
    travelled = 0.0
    while travelled < length - TOLERANCE:
        hit = world.cast_ray(origin, direction, length - travelled)
        if hit is None:
            return None
        behind = float(np.dot(np.asarray(hit.point) - end, np.asarray(hit.normal)))
        if hit.body in still and behind > TOLERANCE:
            return hit.body
        # A surface of a moving body, or the body's own: cast on from just
        # past it.
        advance = hit.distance + 1e-4
        travelled += advance
        origin = origin + advance * direction
    return None


def from_file(path: Path) -> Callable[[CollisionDetection], Built]:
    """The scene file at `path`, in a mode."""

    def build(mode: CollisionDetection) -> Built:
        scene = parapet.load_scene(path)
        scene.world.collision_detection = mode
        return scene.world, scene.dt, scene.steps, dict(zip(scene.ids, scene.names))

    return build


def ground(world: PhysicsWorld, x: float, y: float) -> float:
    """The height of the surface below (x, y), by a ray cast."""
    hit = world.cast_ray((x, y, 100.0), (0.0, 0.0, -1.0))
    assert hit is not None, (x, y)
    return hit.point[2]


def about_x(angle: float) -> Tuple[float, float, float, float]:
    """The rotation by `angle` (rad) about +x, (w, x, y, z)."""
    return (float(np.cos(angle / 2)), float(np.sin(angle / 2)), 0.0, 0.0)


def scaled_axis(v: Sequence[float]) -> Tuple[float, float, float, float]:
    """The rotation by |v| (rad) about v."""
    angle = float(np.linalg.norm(v))
    axis = np.asarray(v) / angle * np.sin(angle / 2)
    return (float(np.cos(angle / 2)), float(axis[0]), float(axis[1]), float(axis[2]))


def terrain_world(mode: CollisionDetection, terrain: Shape, material: Optional[Material] = None) -> PhysicsWorld:
    world = PhysicsWorld()
    world.collision_detection = mode
    # The largest valid budgets: a turning shape pressing on a surface takes
    # many sub-steps and impacts.
    world.ccd_max_impacts = 1024
    world.ccd_max_substeps = 65536
    floor = RigidBody.new_static(terrain)
    if material is not None:
        floor.material = material
    world.add_body(floor)
    return world


def tumbling_capsule(mode: CollisionDetection) -> Built:
    """A capsule that can turn (r 0.2 m, 1.2 m long, 10 kg) thrown at 40 m/s
    with a 15 rad/s spin onto the walker's terrain."""
    world = terrain_world(mode, walker_terrain().mesh())
    capsule = RigidBody.new_dynamic(Shape.capsule(0.2, 0.4), 10.0)
    capsule.position = (2.0, 2.0, ground(world, 2.0, 2.0) + 1.2)
    capsule.rotation = about_x(0.7)
    capsule.linear_velocity = (-3.0, 1.0, -40.0)
    capsule.angular_velocity = (15.0, 5.0, 0.0)
    names = dict(zip(world.ids(), ["terrain"]))
    names[world.add_body(capsule)] = "capsule"
    return world, DT, 120, names


def car_rollover(mode: CollisionDetection) -> Built:
    """A 1,500 kg chassis (4.4 x 1.8 x 1.4 m box) after a jump, on its side
    and rolling at 4 rad/s, landing at 15 m/s (14 m/s down) on the rough
    terrain."""
    world = terrain_world(mode, vehicle_terrain().mesh(), Material(0.8, 0.1, 0.5))
    car = RigidBody.new_dynamic(Shape.cuboid((2.2, 0.9, 0.7)), 1500.0)
    car.material = Material(0.8, 0.1, 0.5)
    car.position = (-20.0, 0.0, ground(world, -20.0, 0.0) + 2.5)
    car.rotation = about_x(1.2)
    car.linear_velocity = (15.0, 0.0, -14.0)
    car.angular_velocity = (4.0, 0.5, 0.0)
    names = dict(zip(world.ids(), ["terrain"]))
    names[world.add_body(car)] = "chassis"
    return world, DT, 120, names


def hull_crate(mode: CollisionDetection) -> Built:
    """An irregular hull crate (1.2 x 0.9 x 0.95 m, 120 kg) tumbling at
    100 m/s onto the rough terrain."""
    world = terrain_world(mode, vehicle_terrain().mesh())
    points = [
        (-0.6, -0.45, -0.4), (0.6, -0.45, -0.4), (0.6, 0.45, -0.4), (-0.45, 0.45, -0.4),
        (-0.6, 0.3, -0.4), (-0.6, -0.45, 0.3), (0.45, -0.45, 0.4), (0.6, 0.45, 0.3),
        (-0.6, 0.45, 0.3), (0.0, 0.0, 0.55),
    ]  # fmt: skip
    crate = RigidBody.new_dynamic(Shape.convex_hull(points), 120.0)
    crate.material = Material(0.6, 0.2, 0.5)
    crate.position = (-20.0, -6.0, ground(world, -20.0, -6.0) + 14.0)
    crate.rotation = scaled_axis((0.4, -0.9, 0.3))
    crate.linear_velocity = (32.0, 10.0, -94.2)
    crate.angular_velocity = (8.0, -12.0, 6.0)
    names = dict(zip(world.ids(), ["terrain"]))
    names[world.add_body(crate)] = "crate"
    return world, DT, 90, names


DEMO: List[Tuple[str, Callable[[CollisionDetection], Built]]] = [
    ("tunneling", from_file(SCENES / "tunneling.json")),
    ("walker_on_terrain", from_file(SCENES / "walker_on_terrain.json")),
    ("struck_stack", from_file(SCENES / "struck_stack.json")),
    ("fast_box_wall", from_file(SCENES / "fast_box_wall.json")),
    ("tumbling_capsule", tumbling_capsule),
    ("chassis_kerb", from_file(SCENES / "chassis_kerb.json")),
    ("car_rollover", car_rollover),
    ("hull_crate", hull_crate),
]


def run(build: Callable[[CollisionDetection], Built], mode: CollisionDetection) -> Tuple[List[str], Optional[str]]:
    """Runs the scene in `mode`: the crossings (one line each) and the
    refusal message, if a step was refused."""
    world, dt, steps, names = build(mode)
    bodies = dict(world.bodies())
    moving = [i for i, b in bodies.items() if b.kind == BodyKind.Dynamic]
    crossings: List[str] = []
    for step in range(1, steps + 1):
        before: Dict[BodyId, List[np.ndarray]] = {i: core_points(bodies[i]) for i in moving}
        positions = world.positions()
        try:
            world.step(dt)
        except parapet.StepError as refusal:
            return crossings, f"step {step}: {refusal}"
        after = world.positions()
        moved = np.linalg.norm(after - positions, axis=1)
        still = [i for i, m in zip(world.ids(), moved) if m < TOLERANCE]
        for i in moving:
            others = [s for s in still if s != i]
            for start, end in zip(before[i], core_points(bodies[i])):
                other = crossing(world, others, start, end)
                if other is not None:
                    crossings.append(f"step {step}: {names[i]} through {names[other]}")
                    break
    return crossings, None


def main(scenes: List[Tuple[str, Callable[[CollisionDetection], Built]]]) -> int:
    failures = 0
    for name, build in scenes:
        discrete, discrete_refusal = run(build, DISCRETE)
        ccd, ccd_refusal = run(build, SPHERE_MESH_CCD)
        print(f"{name}:")
        if discrete:
            print(f"  DISCRETE crosses ({len(discrete)}): {discrete[0]}")
        else:
            refused = f" (refused: {discrete_refusal})" if discrete_refusal else ""
            print(f"  DISCRETE holds{refused}")
        if ccd_refusal is not None:
            print(f"  SPHERE_MESH_CCD refuses: {ccd_refusal}")
            failures += 1
        elif ccd:
            print(f"  SPHERE_MESH_CCD crosses ({len(ccd)}): {ccd[0]}")
            failures += 1
        else:
            print("  SPHERE_MESH_CCD holds: no core point crossed a surface")
    return 1 if failures else 0


if __name__ == "__main__":
    chosen = [(Path(a).stem, from_file(Path(a))) for a in sys.argv[1:]] or DEMO
    sys.exit(main(chosen))
