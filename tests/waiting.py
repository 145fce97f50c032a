"""Waiting in tests for something to happen, never for a length of time: a condition polled until
it holds or a deadline passes, and a failure that names what was awaited."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def wait_until(
    condition: Callable[[], T],
    what: str,
    timeout: float = 30.0,
    every: float = 0.05,
    seen: Callable[[], object] | None = None,
) -> T:
    """`condition()`'s first true value, polled every `every` s; an AssertionError saying what
    was awaited when it is still false after `timeout` s, with `seen()` (what there was to see
    instead, e.g. the events so far) when given."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() >= deadline:
            shown = f"; seen: {seen()!r}" if seen is not None else ""
            raise AssertionError(f"waited {timeout:g} s for {what}; it did not happen{shown}")
        time.sleep(every)
