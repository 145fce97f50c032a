"""Cores kept busy beside a bench: a browser or the call app on a user's laptop."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def busy_cores(count: int) -> Iterator[None]:
    """`count` busy-loop processes running while the block runs, killed after it."""
    loops = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(count)]
    try:
        yield
    finally:
        for loop in loops:
            loop.kill()
            loop.wait()
