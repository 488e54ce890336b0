"""The example scripts run and show what they claim."""

import subprocess
import sys

from conftest import EXAMPLES


def run_example(name: str) -> str:
    result = subprocess.run([sys.executable, str(EXAMPLES / name)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


def test_tunneling_example():
    out = run_example("tunneling.py")
    assert "DISCRETE: ball centre at z = -0.15" in out and "through the floor" in out
    assert "SPHERE_MESH_CCD: ball centre at z = +0.1000 m, on the floor" in out
    assert "refused (ImpactLimit" in out
    assert "world unchanged by the refused step: True" in out


def test_demo_scenes_discrete_crosses_and_ccd_holds_in_every_scene():
    out = run_example("demo_scenes.py")
    scenes = [line[:-1] for line in out.splitlines() if not line.startswith(" ")]
    assert scenes == [
        "tunneling",
        "walker_on_terrain",
        "struck_stack",
        "fast_box_wall",
        "tumbling_capsule",
        "chassis_kerb",
        "car_rollover",
        "hull_crate",
    ]
    assert out.count("DISCRETE crosses") == len(scenes), out
    assert out.count("SPHERE_MESH_CCD holds") == len(scenes), out


def test_the_python_terrain_is_the_rust_terrain():
    # The walker's terrain generated again in Python equals, bit for bit,
    # the one the Rust scene wrote into scenes/walker_on_terrain.json.
    import numpy as np

    import parapet
    from conftest import SCENES

    sys.path.insert(0, str(EXAMPLES))
    from terrain import walker_terrain

    vertices, triangles = walker_terrain().triangles()
    stored = parapet.load_scene(SCENES / "walker_on_terrain.json").body("terrain").shape
    assert np.array_equal(stored.vertices, vertices)
    assert np.array_equal(stored.triangles, triangles)
