"""An audio-only FFmpeg and a PyAV built against it, for a smaller build (Linux).

    python packaging/lean_ffmpeg.py [--source ffmpeg_X.orig.tar.xz]   # prints the folder to put on PYTHONPATH

The PyAV wheel from PyPI carries a whole FFmpeg (75 MB: video codecs, x264/x265, SVT-AV1, GnuTLS).
The app only decodes recordings and resamples audio, so this builds FFmpeg from Debian's source
package (`apt-get source --download-only ffmpeg`, deb-src enabled) with the decoders, demuxers and
parsers of the formats the app promises, swresample, the file protocol and the four filters PyAV's
AudioResampler builds its graph from; no video, no network, no encoders. PyAV is built from its
sdist against it (pip, PyPI) and installed into a folder of its own: `build.py --lean-ffmpeg` puts
that folder first on the build's PYTHONPATH (and the libraries' on LD_LIBRARY_PATH), so the dev
venv's PyAV (with libopus, used by bench/degrade.py) stays as it is. Both are cached under
~/.cache/live-translator-build/ by a hash of their recipe: the first run takes minutes, later runs
reuse it.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "live-translator-build"
# The newest PyAV that builds against Debian 12's FFmpeg 5.1 (PyAV 13 needs FFmpeg 6 or newer);
# faster-whisper asks for av>=11.
PYAV = "av==12.3.0"

# What the app decodes: the window's file dialog offers *.wav *.flac *.ogg *.mp3 and the error
# hint says "WAV, FLAC, MP3 or other file ffmpeg can decode"; m4a/aac and webm/mka (Opus, Vorbis)
# are what phones and browsers record, so they stay too.
DEMUXERS = ("wav", "w64", "aiff", "flac", "ogg", "mp3", "mov", "matroska", "aac", "caf")
DECODERS = (
    "pcm_s16le",
    "pcm_s16be",
    "pcm_s24le",
    "pcm_s24be",
    "pcm_s32le",
    "pcm_s32be",
    "pcm_u8",
    "pcm_f32le",
    "pcm_f32be",
    "pcm_f64le",
    "pcm_alaw",
    "pcm_mulaw",
    "adpcm_ms",
    "adpcm_ima_wav",
    "flac",
    "vorbis",
    "opus",
    "mp3",
    "mp3float",
    "aac",
    "alac",
)
PARSERS = ("flac", "mpegaudio", "aac", "opus", "vorbis")
# PyAV's AudioResampler is a filter graph: abuffer -> aformat (aresample inserted) -> abuffersink.
FILTERS = ("abuffer", "abuffersink", "aformat", "aresample", "anull")
PROTOCOLS = ("file", "pipe")
# What compiling needs (Debian: build-essential nasm pkg-config); nasm assembles FFmpeg's x86 code.
TOOLS = ("cc", "make", "nasm", "pkg-config")


def configure_flags(prefix: Path) -> list[str]:
    """FFmpeg's ./configure command line: everything off, then what the app uses back on.
    PyAV links all seven libraries (it cannot import without avdevice, avfilter, swscale), so
    those are built, empty of devices, with only the resampler's filters."""
    return [
        f"--prefix={prefix}",
        "--enable-shared",
        "--disable-static",
        "--enable-pic",
        "--disable-programs",
        "--disable-doc",
        "--disable-debug",
        "--disable-autodetect",  # no xcb, ALSA, VAAPI, GnuTLS, ... found on the build machine
        "--disable-network",
        "--disable-everything",
        "--disable-postproc",
        *(f"--enable-demuxer={name}" for name in DEMUXERS),
        *(f"--enable-decoder={name}" for name in DECODERS),
        *(f"--enable-parser={name}" for name in PARSERS),
        *(f"--enable-filter={name}" for name in FILTERS),
        *(f"--enable-protocol={name}" for name in PROTOCOLS),
    ]


def recipe_hash(source: Path) -> str:
    """Changes when the source, the flags or PyAV's version do: a cached build of another recipe is not reused."""
    recipe = "\n".join([source.name, PYAV, *configure_flags(Path("PREFIX"))])
    return hashlib.sha256(recipe.encode()).hexdigest()[:10]


def build_problem() -> str | None:
    """Why this machine cannot compile the lean build and what to install, in plain words; None when it can."""
    if not sys.platform.startswith("linux"):
        return "lean_ffmpeg: Linux only (it builds from Debian's FFmpeg source); other systems ship the wheel's FFmpeg"
    missing = [tool for tool in TOOLS if shutil.which(tool) is None]
    if not missing:
        return None
    return (
        f"lean_ffmpeg: {', '.join(missing)} not found: compiling FFmpeg and PyAV needs {', '.join(TOOLS)}; "
        "on Debian: apt-get install build-essential nasm pkg-config"
    )


def find_source(given: Path | None) -> Path:
    """FFmpeg's upstream tarball from Debian's source package, downloaded into the cache once."""
    if given is not None:
        return given
    found = sorted(CACHE.glob("ffmpeg_*.orig.tar.xz"))
    if not found:
        CACHE.mkdir(parents=True, exist_ok=True)
        if shutil.which("apt-get"):
            subprocess.run(["apt-get", "source", "--download-only", "ffmpeg"], cwd=CACHE)  # said below if it fails
        found = sorted(CACHE.glob("ffmpeg_*.orig.tar.xz"))
    if not found:
        sys.exit(
            f"lean_ffmpeg: `apt-get source --download-only ffmpeg` gave no ffmpeg_*.orig.tar.xz in {CACHE}; "
            "enable Debian's source packages (a deb-src entry, then apt-get update) or pass --source TARBALL"
        )
    return found[-1]


def build_ffmpeg(source: Path, prefix: Path) -> None:
    if (prefix / "lib" / "pkgconfig" / "libavcodec.pc").exists():
        return
    work = prefix.with_name(prefix.name + "-src")
    if not work.exists():
        with tarfile.open(source) as tar:
            tar.extractall(work, filter="data")
    tree = next(work.iterdir())
    jobs = str(os.cpu_count() or 1)
    subprocess.run(["./configure", *configure_flags(prefix)], cwd=tree, check=True)
    subprocess.run(["make", f"-j{jobs}"], cwd=tree, check=True)
    subprocess.run(["make", "install"], cwd=tree, check=True)


def build_pyav(prefix: Path, target: Path) -> None:
    """PyAV's sdist compiled against the lean FFmpeg, installed into `target` (found there through
    an rpath, so nothing needs LD_LIBRARY_PATH)."""
    if (target / "av" / "__init__.py").exists():
        return
    lib = prefix / "lib"
    env = dict(
        os.environ,
        PKG_CONFIG_PATH=str(lib / "pkgconfig"),
        LDFLAGS=f"-Wl,-rpath,{lib}",
        PIP_CONSTRAINT="",  # the dev venv's pins name the PyPI wheel's version
    )
    wheels = target.with_name(target.name + "-wheel")
    pip = [sys.executable, "-m", "pip"]
    subprocess.run([*pip, "wheel", PYAV, "--no-binary", "av", "--no-deps", "-w", str(wheels)], env=env, check=True)
    wheel = next(wheels.glob("av-*.whl"))
    subprocess.run([*pip, "install", "--no-deps", "--target", str(target), str(wheel)], env=env, check=True)


def ensure(source: Path | None = None) -> tuple[Path, Path]:
    """The folder holding the lean PyAV and the one holding its FFmpeg libraries (built on the
    first call, then reused)."""
    problem = build_problem()
    if problem:
        sys.exit(problem)
    tarball = find_source(source)
    key = recipe_hash(tarball)
    version = tarball.name.split("_")[1].removesuffix(".orig.tar.xz")
    prefix = CACHE / f"ffmpeg-{version}-lean-{key}"
    target = CACHE / f"pyav-lean-{key}"
    build_ffmpeg(tarball, prefix)
    build_pyav(prefix, target)
    return target, prefix / "lib"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python packaging/lean_ffmpeg.py", description=__doc__.splitlines()[0])
    parser.add_argument("--source", type=Path, help="FFmpeg's source tarball (default: Debian's, via apt-get source)")
    args = parser.parse_args(argv)
    site, libraries = ensure(args.source)
    print(f"PYTHONPATH={site} LD_LIBRARY_PATH={libraries}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
