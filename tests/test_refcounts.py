"""The C extensions on the app's hot paths keep the reference counts of True, False and None.

PySide6 6.12.0 drops a reference to True/False on every signal carrying a bool; on Python 3.11
the interpreter aborts a long session with "deallocating True or False" (a 21-minute talk did).
pyproject.toml excludes it; these probes catch that class of bug in any release we install,
in Qt and in onnxruntime, CTranslate2, pyahocorasick and sounddevice's cffi callbacks. Each runs
in a fresh interpreter (tests/refcount_probe.py), so a crash fails the test instead of the suite.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import pytest
from asr.conftest import virtual_mic  # noqa: F401  (fixture: a private PulseAudio server)

from tests.head_start import TIMEOUT_S, niced, of_module

PROBE = Path(__file__).with_name("refcount_probe.py")


# The probes that need nothing of a test's own (a sound server), slowest first: they start, one at a
# time and `nice`d, when the tests are collected (tests/head_start.py); Whisper's takes a minute here.
ON_THEIR_OWN = ["ctranslate2_whisper", "onnxruntime_translation", "qt_signals", "ahocorasick_matching"]
_STARTED: dict[str, Future] = {}


def run_probe(name: str, env: dict | None = None, *, early: bool = False) -> subprocess.CompletedProcess:
    """The probe in a fresh interpreter; `early`: started when the tests were collected (niced, its
    own longer limit: it may wait its turn)."""
    command = [sys.executable, str(PROBE), name]
    command, timeout = (niced(command), TIMEOUT_S) if early else (command, 300)
    return subprocess.run(command, capture_output=True, text=True, timeout=timeout, env=env or os.environ.copy())


def head_start(items: list[pytest.Item], config: pytest.Config) -> None:
    selected = {item.callspec.params.get("name") for item in of_module(items, __name__) if hasattr(item, "callspec")}
    wanted = [name for name in ON_THEIR_OWN if name in selected and name not in _STARTED]
    if wanted:
        pool = ThreadPoolExecutor(max_workers=1)
        _STARTED.update({name: pool.submit(run_probe, name, early=True) for name in wanted})
        config.add_cleanup(lambda: pool.shutdown(wait=True, cancel_futures=True))


def probe(name: str, env: dict | None = None) -> dict:
    done = _STARTED[name].result() if name in _STARTED else run_probe(name, env)
    assert done.returncode == 0, f"{name} crashed ({done.returncode}): {done.stderr[-2000:]}"
    return json.loads(done.stdout.strip().splitlines()[-1])


def assert_counts_kept(moved: dict) -> None:
    # A per-call leak moves a count by at least one per call; allocations settling move it a little.
    assert moved["calls"] > 0
    for name in ("true", "false", "none"):
        assert abs(moved[name]) < max(3, moved["calls"] // 2), moved


@pytest.mark.parametrize("name", ON_THEIR_OWN)
def test_hot_paths_keep_the_reference_counts_of_true_false_and_none(name):
    assert_counts_kept(probe(name))


def test_sounddevice_callbacks_keep_the_reference_counts(virtual_mic):  # noqa: F811
    moved = probe("sounddevice_callbacks", env=os.environ.copy())
    assert moved["calls"] > 50, "the PulseAudio input stream delivered no blocks"
    assert_counts_kept(moved)


def test_the_installed_pyside6_is_not_one_that_drops_bool_references():
    # What pyproject.toml says, checked against what is installed (a stale environment, a pin lifted).
    from importlib.metadata import version

    if sys.version_info < (3, 12):
        major, minor = (int(part) for part in version("PySide6-Essentials").split(".")[:2])
        assert (major, minor) < (6, 12), "PySide6 6.12 drops references to True/False on Python 3.11"
