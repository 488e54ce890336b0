"""The Python scripts of the READMEs run as written, so that the first
script a user reads cannot rot (as the Rust README's blocks are doctests)."""

import re
import subprocess
import sys

from conftest import REPO

READMES = [REPO / "README.md", REPO / "crates" / "python" / "README.md"]


def python_blocks(path):
    return re.findall(r"```python\n(.*?)```", path.read_text(), flags=re.S)


def test_every_python_block_of_the_readmes_runs():
    blocks = [(path, block) for path in READMES for block in python_blocks(path)]
    assert len(blocks) >= 2
    for path, block in blocks:
        result = subprocess.run([sys.executable, "-c", block], capture_output=True, text=True)
        assert result.returncode == 0, (path, result.stderr)
        if "print(world.body(ball_id).position)" in block:
            # The comment's claim: the ball rests one radius up (0.1 in f32).
            assert result.stdout.splitlines()[0] == "(0.0, 0.0, 0.10000000149011612)"
