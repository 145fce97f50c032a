"""Model folders whose config.json is not a file one can read whole (issue 27): a FIFO, a link
to /dev/zero, 8 GB of sparse nothing, JSON nested 100,000 deep. `translate` ends with a clear
message naming the file, at once, with no traceback."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import FIXTURES

REPO = Path(__file__).resolve().parents[2]


def fifo(path: Path) -> None:
    os.mkfifo(path)


def dev_zero(path: Path) -> None:
    path.symlink_to("/dev/zero")


def sparse(path: Path) -> None:
    with path.open("wb") as f:
        f.truncate(8 << 30)


def deep(path: Path) -> None:
    path.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")


CONFIGS = {
    "a FIFO": (fifo, "named pipe"),
    "a link to /dev/zero": (dev_zero, "character device"),
    "8 GB sparse": (sparse, "8.6 GB"),
    "nested 100,000 deep": (deep, "nested deeper than"),
}


@pytest.mark.parametrize("case", CONFIGS)
def test_translate_names_a_config_json_it_cannot_read(tmp_path, case):
    folder = tmp_path / "model"
    shutil.copytree(FIXTURES / "marian-en-zh" / "merged", folder)
    (folder / "config.json").unlink()
    make, said = CONFIGS[case]
    make(folder / "config.json")
    env = {**os.environ, "LIVE_TRANSLATOR_CACHE": str(tmp_path / "cache")}
    done = subprocess.run(
        [sys.executable, "-m", "app", "translate", "--model", str(folder), "--direction", "en-zh", "Hello."],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2, done.stderr
    assert "config.json" in done.stderr and said in done.stderr and "Traceback" not in done.stderr
    doctor = subprocess.run(
        [sys.executable, "-m", "app", "models", "doctor", str(folder)],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert doctor.returncode == 1 and said in doctor.stdout and "Traceback" not in doctor.stderr


@pytest.mark.parametrize(
    "name,make,said",
    [
        ("vocab.json", fifo, "named pipe"),
        ("source.spm", dev_zero, "character device"),
        ("tokenizer_config.json", sparse, "8.6 GB"),
    ],
)
def test_translate_names_a_tokenizer_file_it_cannot_read(tmp_path, name, make, said):
    folder = tmp_path / "model"
    shutil.copytree(FIXTURES / "marian-en-zh" / "merged", folder)
    (folder / name).unlink()
    make(folder / name)
    env = {**os.environ, "LIVE_TRANSLATOR_CACHE": str(tmp_path / "cache")}
    done = subprocess.run(
        [sys.executable, "-m", "app", "translate", "--model", str(folder), "--direction", "en-zh", "Hello."],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and name in done.stderr and said in done.stderr, done.stderr
    assert "Traceback" not in done.stderr
