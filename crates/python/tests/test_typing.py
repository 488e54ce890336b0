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


def test_every_public_name_has_a_docstring():
    # The docstrings come from the Rust doc comments of the native module:
    # every class, function, method and property a script can reach.
    import inspect

    import parapet

    missing = []
    for name in parapet.__all__:
        obj = getattr(parapet, name)
        if (inspect.isclass(obj) or callable(obj)) and not (obj.__doc__ or "").strip():
            missing.append(name)
        if inspect.isclass(obj) and not issubclass(obj, BaseException):
            for attr, member in vars(obj).items():
                if attr.startswith("_") or isinstance(member, obj):
                    continue  # dunders, and constants such as CcdMode.Auto
                if not (getattr(member, "__doc__", None) or "").strip():
                    missing.append(f"{name}.{attr}")
    assert missing == []
    assert "GIL" in (parapet.PhysicsWorld.step.__doc__ or "")
