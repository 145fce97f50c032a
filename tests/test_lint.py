"""The code passes ruff, with the configuration in pyproject.toml (so the test command lints too), and is
formatted with `ruff format`."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_ruff_finds_nothing():
    ruff = Path(sys.executable).parent / "ruff"
    result = subprocess.run([str(ruff), "check", "--no-cache", str(ROOT)], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_format_changes_nothing():
    ruff = Path(sys.executable).parent / "ruff"
    result = subprocess.run(
        [str(ruff), "format", "--check", "--no-cache", str(ROOT)], cwd=ROOT, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr
