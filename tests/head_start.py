"""Long commands a few tests wait for (the packaged build, the refcount probes) start as soon as
the tests are collected, at the lowest CPU priority, instead of when their test comes.

About a third of the suite's time a core is idle: tests wait for audio played at speaking speed,
for a browser, for a sleep. Started early and `nice`d to 19, these commands use that time only,
and their tests take the results, done or nearly (a test that waits leaves them the CPU). Only
commands that need no real time belong here. A full run (2026-11-29) with the benches' smallest
runs started early too, at nice 10, saved a minute and a quarter of 40: they took from the
recognition tests beside them most of what they saved, and the Whisper refcount probe, starved
beside them, ran past its limit. A test module that has `head_start(items, config)` is called when
the tests are collected: it starts what the selected `items` need and stops it at the session's end.
"""

from __future__ import annotations

import os

import pytest

# Below every test (0): started early, a command must not slow the tests it runs beside.
NICE = 19
# A command started early may wait for idle CPU for most of the suite: its own limit is the
# suite's length (its test, waiting for it, leaves it the CPU; pytest-timeout bounds that wait).
TIMEOUT_S = 3600


def niced(command: list[str]) -> list[str]:
    return ["nice", "-n", str(NICE), *command]


def of_module(items: list[pytest.Item], name: str) -> list[pytest.Item]:
    """The selected items of the test module `name` (a module's own __name__, as pytest imported it)."""
    return [item for item in items if getattr(getattr(item, "module", None), "__name__", None) == name]


def start(session: pytest.Session) -> None:
    """Calls head_start of every module of the selected tests that has one (as pytest imported it).
    Not in an xdist worker: it collects every test but runs only those it is sent, and the other
    worker keeps the cores busy anyway; there each command starts at its test."""
    if os.environ.get("PYTEST_XDIST_WORKER"):
        return
    modules = {getattr(item, "module", None) for item in session.items}
    for module in modules:
        if hasattr(module, "head_start"):
            module.head_start(session.items, session.config)
