"""Size and start-up time of a packaged build, against `python -m app` from the source tree.

    python packaging/measure.py [--build dist/live-translator] [--runs 5]

Start-up: from launch until the window has been shown offscreen, its event loop has run and it
has closed again (LIVE_TRANSLATOR_QUIT_AFTER_MS=1), and the same for `--help` (the command line
alone). Runs alternate between the build and the source tree so both see the same machine load.
Prints medians and the ratio build/source.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def folder_mb(path: Path) -> float:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file() and not p.is_symlink()) / 1e6


def seconds(command: list[str], env: dict[str, str]) -> float:
    started = time.perf_counter()
    subprocess.run(
        command, env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True, timeout=120
    )
    return time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", type=Path, default=ROOT / "dist" / "live-translator")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args(argv)
    executable = args.build / ("live-translator.exe" if sys.platform == "win32" else "live-translator")
    if not executable.is_file():
        print(f"error: no build at {args.build}\n  → Build it first: python packaging/build.py", file=sys.stderr)
        return 2
    print(f"build size: {folder_mb(args.build):.0f} MB in {sum(1 for _ in args.build.rglob('*'))} files ({args.build})")
    with tempfile.TemporaryDirectory() as home:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("DISPLAY", "WAYLAND"))}
        env.update(HOME=home, QT_QPA_PLATFORM="offscreen", LIVE_TRANSLATOR_QUIT_AFTER_MS="1")
        peers = {"build": [str(executable)], "source": [sys.executable, "-m", "app"]}
        for label, extra in (("window up and closed", []), ("--help", ["--help"])):
            times: dict[str, list[float]] = {name: [] for name in peers}
            for _ in range(args.runs):
                for name, command in peers.items():
                    times[name].append(seconds(command + extra, env))
            medians = {name: statistics.median(values) for name, values in times.items()}
            print(
                f"{label}: build {medians['build']:.2f} s, source {medians['source']:.2f} s, "
                f"build/source {medians['build'] / medians['source']:.2f} (medians of {args.runs})"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
