"""The demo scenes from Python: each scene file of the repository's
``scenes/`` folder run in both modes, printing what DISCRETE lets through and
what SPHERE_MESH_CCD holds.

A body *crosses* a surface when one of its core points (a sphere's centre, a
capsule's segment ends, a box's corners, a hull's vertices) passes through
the surface of a body that did not move in the step (a floor, a wall, a
terrain, a sphere of a stack at rest: moved less than ``TOLERANCE``) and ends more than ``TOLERANCE``
behind it: the point's path over the step is cast as a ray against the world
after the step. A body resting on a surface never crosses; a body that
tunnelled does. (Crossings between two bodies that both moved in the step
are not looked for.)

    python examples/demo_scenes.py [SCENE.json ...]
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np

import parapet
from parapet import (
    DISCRETE,
    SPHERE_MESH_CCD,
    BodyId,
    BodyKind,
    CollisionDetection,
    PhysicsWorld,
    RigidBody,
)

SCENES = Path(__file__).resolve().parents[3] / "scenes"
DEMO = ["tunneling", "walker_on_terrain", "struck_stack", "fast_box_wall", "chassis_kerb"]

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
    through, ending more than TOLERANCE behind it, or None."""
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
        if hit.body in still and travelled + hit.distance < length - TOLERANCE:
            return hit.body
        # A surface of a moving body, or the body's own: cast on from just
        # past it.
        advance = hit.distance + 1e-4
        travelled += advance
        origin = origin + advance * direction
    return None


def run(path: Path, mode: CollisionDetection) -> Tuple[List[str], Optional[str]]:
    """Runs the scene at `path` in `mode`: the crossings (one line each) and
    the refusal message, if a step was refused."""
    scene = parapet.load_scene(path)
    world = scene.world
    world.collision_detection = mode
    names = dict(zip(scene.ids, scene.names))
    bodies = dict(world.bodies())
    moving = [i for i, b in bodies.items() if b.kind == BodyKind.Dynamic]
    crossings: List[str] = []
    for step in range(1, scene.steps + 1):
        before: Dict[BodyId, List[np.ndarray]] = {i: core_points(bodies[i]) for i in moving}
        positions = world.positions()
        try:
            world.step(scene.dt)
        except parapet.StepError as refusal:
            return crossings, f"step {step}: {refusal}"
        after = world.positions()
        moved = np.linalg.norm(after - positions, axis=1)
        still = [i for i, m in zip(world.ids(), moved) if m < TOLERANCE]
        for i in moving:
            for start, end in zip(before[i], core_points(bodies[i])):
                other = crossing(world, still, start, end)
                if other is not None:
                    crossings.append(f"step {step}: {names[i]} through {names[other]}")
                    break
    return crossings, None


def main(paths: List[Path]) -> int:
    failures = 0
    for path in paths:
        discrete, discrete_refusal = run(path, DISCRETE)
        ccd, ccd_refusal = run(path, SPHERE_MESH_CCD)
        print(f"{path.stem}:")
        if discrete:
            print(f"  DISCRETE crosses ({len(discrete)}): {discrete[0]}")
        else:
            print(f"  DISCRETE holds{' (refused: ' + discrete_refusal + ')' if discrete_refusal else ''}")
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
    chosen = [Path(a) for a in sys.argv[1:]] or [SCENES / f"{name}.json" for name in DEMO]
    sys.exit(main(chosen))
