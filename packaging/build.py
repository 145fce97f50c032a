"""Build the packaged app: `python packaging/build.py` -> dist/live-translator/ (onedir).

    python packaging/build.py [--bundle-models DIR ...] [--with-whisper NAME|DIR] [--lean-ffmpeg] [--dist DIR]

Models are not baked in by default: the built app finds them in the user's model folder.
--bundle-models copies the given translation model folders into the build (each is checked
first); --with-whisper copies a Whisper model in (tiny.en, base, or a CTranslate2 folder), as
the build that tests the self-test does. --lean-ffmpeg (Linux) bundles a PyAV built against an
audio-only FFmpeg (packaging/lean_ffmpeg.py, built once and cached) instead of the venv's.
Runs PyInstaller on packaging/live-translator.spec, then prints the build time, the build's size
and its largest parts.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(1, str(ROOT))  # `app`, when the project is not installed
import lean_ffmpeg  # noqa: E402  (beside this script: sys.path[0])

from app.asr.whisper_models import resolve_model  # noqa: E402  (after the path line above)
from app.shared.errors import LiveTranslatorError  # noqa: E402
from app.translation import inspect_model_folder  # noqa: E402

SPEC = ROOT / "packaging" / "live-translator.spec"
WHISPER_NAMES = ("tiny.en", "base")  # the sizes app.asr finds in pip packages


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python packaging/build.py", description=__doc__.splitlines()[0])
    parser.add_argument(
        "--bundle-models",
        nargs="+",
        default=[],
        metavar="DIR",
        type=Path,
        help="translation model folders to copy into the build",
    )
    parser.add_argument(
        "--with-whisper",
        metavar="NAME|DIR",
        help=f"a Whisper model to copy into the build: {' or '.join(WHISPER_NAMES)}, or a model folder",
    )
    parser.add_argument(
        "--lean-ffmpeg",
        action="store_true",
        help="bundle a PyAV built against an audio-only FFmpeg (Linux; built once, then cached)",
    )
    parser.add_argument("--dist", type=Path, default=ROOT / "dist", help="where the build goes (default: dist/)")
    parser.add_argument("--work", type=Path, default=ROOT / "build", help="PyInstaller's work folder (default: build/)")
    return parser.parse_args(argv)


def check_models(args: argparse.Namespace) -> list[str]:
    """Problems with the models asked for, in plain words; empty when all can be bundled."""
    problems = []
    for folder in args.bundle_models:
        report = inspect_model_folder(folder)
        if not report.can_run:
            problems.append(f"--bundle-models {folder}: the app cannot run this model.\n{report.text}")
    if args.with_whisper:
        try:
            # Names must resolve from installed packages, never from a download.
            os.environ.setdefault("HF_HUB_OFFLINE", "1")
            resolve_model(args.with_whisper if args.with_whisper in WHISPER_NAMES else Path(args.with_whisper))
        except LiveTranslatorError as error:
            problems.append(f"--with-whisper {args.with_whisper}: {error}")
    return problems


def folder_size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file() and not p.is_symlink())


def largest_parts(build: Path, count: int = 10) -> list[tuple[int, str]]:
    """The biggest top-level items of the build's library folder (where PyInstaller puts everything)."""
    internal = build / "_internal" if (build / "_internal").is_dir() else build
    sizes = [
        (folder_size(p) if p.is_dir() else p.stat().st_size, p.name) for p in internal.iterdir() if not p.is_symlink()
    ]
    return sorted(sizes, reverse=True)[:count]


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    problems = check_models(args)
    if problems:
        print("\n\n".join(problems), file=sys.stderr)
        return 2
    spec_args = []
    if args.bundle_models:
        spec_args += ["--bundle-models", *map(str, args.bundle_models)]
    if args.with_whisper:
        spec_args += ["--with-whisper", args.with_whisper]
    command = [
        sys.executable,
        "-m",
        "PyInstaller",
        str(SPEC),
        "--noconfirm",
        "--log-level",
        "WARN",
        "--distpath",
        str(args.dist),
        "--workpath",
        str(args.work),
        "--",
        *spec_args,
    ]
    env = dict(os.environ)
    if args.lean_ffmpeg:
        # First on PyInstaller's paths, so its analysis finds the lean PyAV before the venv's, and
        # the lean FFmpeg before a system one of the same soname (Debian's libavcodec59 would
        # bring x265, codec2 and ICU back: ldd reads each library on its own, without PyAV's rpath).
        site, libraries = lean_ffmpeg.ensure()
        for name, folder in (("PYTHONPATH", site), ("LD_LIBRARY_PATH", libraries)):
            env[name] = os.pathsep.join(filter(None, [str(folder), env.get(name)]))
    print("build:", " ".join(command), flush=True)
    started = time.monotonic()
    result = subprocess.run(command, cwd=ROOT, env=env)
    seconds = time.monotonic() - started
    if result.returncode != 0:
        print(f"build: PyInstaller failed (exit {result.returncode}) after {seconds:.0f} s", file=sys.stderr)
        return result.returncode
    build = args.dist / ("Live Translator.app" if sys.platform == "darwin" else "live-translator")
    print(f"build: {build} in {seconds:.0f} s, {folder_size(build) / 1e6:.0f} MB")
    for size, name in largest_parts(build):
        print(f"  {size / 1e6:8.1f} MB  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
