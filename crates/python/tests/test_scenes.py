"""Scene files: every scene of the repository loads, reads back from the
world's own scene text, and the demo scenes show what the demo claims."""

import json

import pytest

from conftest import SCENES
import parapet
from parapet import DISCRETE, SPHERE_MESH_CCD, SceneError


def test_every_scene_file_loads_and_names_its_bodies():
    paths = sorted(SCENES.glob("*.json"))
    assert len(paths) >= 5
    for path in paths:
        scene = parapet.load_scene(path)
        text = json.loads(path.read_text())
        assert scene.names == [b.get("name", f"body{i}") for i, b in enumerate(text["bodies"])]
        assert len(scene.world) == len(text["bodies"]) == len(scene.ids)
        assert scene.dt == pytest.approx(text["dt"]) and scene.steps == text["steps"]
        first = scene.names[0]
        assert scene.id_of(first) == scene.ids[0]
        assert scene.body(first).id == scene.ids[0]
        assert scene.id_of("no such body") is None


def test_a_world_written_as_a_scene_reads_back_to_the_same_bodies():
    scene = parapet.load_scene(SCENES / "struck_stack.json")
    text = scene.world.to_scene_json(scene.dt, scene.steps)
    again = parapet.parse_scene(text)
    # A world holds no names: the written scene names its bodies by index.
    assert again.names == [f"body{i}" for i in range(len(scene.names))]
    for a, b in zip(scene.world.ids(), again.world.ids()):
        assert scene.world.body(a) == again.world.body(b)
    for _ in range(10):
        scene.world.step(scene.dt)
        again.world.step(again.dt)
    assert (scene.world.positions() == again.world.positions()).all()


def test_a_bad_scene_names_the_file_line_and_field():
    bad = '{"format": "parapet-scene/1", "dt": 0.01, "steps": 1,\n "bodies": [{"kind": "dynamic", "shape": {"sphere": {"radius": -1}}, "mass": 1}]}'
    with pytest.raises(SceneError) as refused:
        parapet.parse_scene(bad, "bad.json")
    message = str(refused.value)
    assert "bad.json" in message and "radius" in message
    with pytest.raises(SceneError, match="cannot read"):
        parapet.load_scene(SCENES / "no_such_scene.json")


def test_the_tunneling_scene_file_in_both_modes():
    for mode, expect_below in ((DISCRETE, True), (SPHERE_MESH_CCD, False)):
        scene = parapet.load_scene(SCENES / "tunneling.json")
        scene.world.collision_detection = mode
        ball = scene.body("ball")
        for _ in range(scene.steps):
            scene.world.step(scene.dt)
        # Through the floor (DISCRETE: metres below after 50 steps) or
        # resting on it within the contact slop (5 mm).
        z = ball.position[2]
        assert (z < -1.0) if expect_below else abs(z - 0.1) < 5e-3, (mode, z)
