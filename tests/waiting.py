"""Waiting in tests for something to happen, never for a length of time: a condition polled until
it holds or a deadline passes, and a failure that names what was awaited."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def wait_until(condition: Callable[[], T], what: str, timeout: float = 30.0, every: float = 0.05) -> T:
    """`condition()`'s first true value, polled every `every` s; an AssertionError saying what
    was awaited when it is still false after `timeout` s."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() >= deadline:
            raise AssertionError(f"waited {timeout:g} s for {what}; it did not happen")
        time.sleep(every)
