"""Run test files many times in a row in a fresh clone, and count passes, failures and crashes.

    .venv/bin/python tools/repeat_tests.py [--times 20] [--clone] [PATHS ...]   (default: tests/ui)

A crash (a signal, or Python's abort: exit status 134) is what a long session would die of; a
failure is a test's own assertion. With --clone the runs use a fresh `git clone` of HEAD (what
CI sees: no stray files, no caches) with this checkout's .venv. Exit status 0 only when every
run passed. Each run's last lines go to stderr when it does not pass.
"""

from __future__ import annotations

import argparse
import collections
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*", default=["tests/ui"])
    parser.add_argument("--times", type=int, default=20)
    parser.add_argument("--clone", action="store_true", help="run in a fresh git clone of HEAD")
    args = parser.parse_args(argv)
    where = ROOT
    if args.clone:
        where = Path(tempfile.mkdtemp(prefix="lt-repeat-")) / "clone"
        subprocess.run(["git", "clone", "-q", str(ROOT), str(where)], check=True)
    outcomes: collections.Counter[str] = collections.Counter()
    for run in range(1, args.times + 1):
        started = time.monotonic()
        done = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args.paths],
            cwd=where,
            capture_output=True,
            text=True,
        )
        outcome = "passed" if done.returncode == 0 else "failed" if done.returncode in (1, 2) else "CRASHED"
        outcomes[outcome] += 1
        last = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else ""
        print(f"run {run}/{args.times}: {outcome} (exit {done.returncode}, {time.monotonic() - started:.0f} s) {last}")
        if outcome != "passed":
            print("\n".join((done.stdout + done.stderr).splitlines()[-40:]), file=sys.stderr)
        sys.stdout.flush()
    print(f"{outcomes['passed']}/{args.times} passed, {outcomes['failed']} failed, {outcomes['CRASHED']} crashed")
    return 0 if outcomes["passed"] == args.times else 1


if __name__ == "__main__":
    sys.exit(main())
