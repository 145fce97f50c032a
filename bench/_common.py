"""What the benches share: where the checkout and its committed models are, and how a bench
starts a child process of itself. Benches are modules of the `bench` package, run from the
checkout's root (`python -m bench.NAME`), so `app`, `bench`, `models` and `tests` import as
they are, without editing `sys.path`."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PHRASEBOOK = ROOT / "tests" / "fixtures" / "phrasebook"  # the committed en-zh / zh-en phrasebook models
FIXTURES = ROOT / "tests" / "fixtures" / "nmt"  # the committed small fixture models


def bench_command(module: str, *args: str) -> list[str]:
    """The command line that runs bench `module` in a child process: pass the bench's
    `__spec__.name` ("bench.rooms" whether it was imported or run with -m, where `__name__` is
    "__main__"). The child starts in this process's folder, so it finds the `bench` package where
    this one did (the checkout's root, or PYTHONPATH)."""
    return [sys.executable, "-m", module, *args]
