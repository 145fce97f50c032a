"""Long commands a few tests wait for (the packaged build, every bench's smallest run) start as
soon as the tests are collected, at a lower CPU priority, instead of when their test comes.

About a quarter of the suite's time the two cores are idle: tests wait for audio played at
speaking speed, for a browser, for a sleep. Started early and `nice`d, these commands use that
time and yield the CPU to the tests running meanwhile; their tests take the results, done or
nearly. A test module that has `head_start(items, config)` is called when the tests are
collected: it starts what the selected `items` need and stops it at the session's end.
"""

from __future__ import annotations

import pytest

# Below every test (0): started early, a command must not slow the tests it runs beside. Not the
# lowest (19): the benches' runs play audio at speaking speed and must still be served in time.
NICE = 10


def niced(command: list[str]) -> list[str]:
    return ["nice", "-n", str(NICE), *command]


def of_module(items: list[pytest.Item], name: str) -> list[pytest.Item]:
    """The selected items of the test module `name` (a module's own __name__, as pytest imported it)."""
    return [item for item in items if getattr(getattr(item, "module", None), "__name__", None) == name]


def start(session: pytest.Session) -> None:
    """Calls head_start of every module of the selected tests that has one (as pytest imported it)."""
    modules = {getattr(item, "module", None) for item in session.items}
    for module in modules:
        if hasattr(module, "head_start"):
            module.head_start(session.items, session.config)
