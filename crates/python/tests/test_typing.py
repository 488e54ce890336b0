"""The type stubs: they match the native module (mypy's stubtest) and mypy
checks the example scripts and a script with a type error."""

import subprocess
import sys

from conftest import EXAMPLES


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", *args], capture_output=True, text=True)


def test_the_stubs_match_the_native_module():
    result = run("mypy.stubtest", "parapet._parapet", "--ignore-missing-stub")
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_checks_the_examples_and_the_bench():
    paths = [str(p) for p in sorted(EXAMPLES.glob("*.py"))]
    paths += [str(p) for p in sorted((EXAMPLES.parent / "bench").glob("*.py"))]
    result = run("mypy", "--strict", "--no-incremental", *paths)
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_catches_a_bare_integer_mode(tmp_path):
    script = tmp_path / "wrong.py"
    script.write_text(
        "from parapet.extensions.physics.world import PhysicsWorld\n"
        "world = PhysicsWorld()\n"
        "world.collision_detection = 1\n"
    )
    result = run("mypy", "--no-incremental", str(script))
    assert result.returncode == 1, result.stdout
    assert 'variable has type "CollisionDetection"' in result.stdout, result.stdout
