"""`python -m app models doctor DIR`: say in plain words what a model folder is, what is
missing and whether the app can run it (the inspection itself is app.translation's), which
kind of int8 twin it has (app.model_store.int8_twins: the optimiser treats the kinds apart), and
whether the optimised copies of it in the cache are whole (a damaged one is removed: the next
load makes it again)."""

from __future__ import annotations

import shutil
from pathlib import Path

from app.model_store.int8_twins import describe
from app.model_store.optimized_cache import check_entry, entries_for
from app.translation import inspect_model_folder
from app.translation.folder import DECODER_FILES, find_onnx_files, variant_of


def run_doctor(path: str | Path) -> int:
    """Print the finding; exit code 0 when the app can run the folder, 1 when it cannot."""
    report = inspect_model_folder(path)
    print(report.text)  # noqa: T201 (the command's output)
    for line in cache_findings(path) + int8_findings(report.path):
        print(line)  # noqa: T201 (the command's output)
    return 0 if report.can_run else 1


def cache_findings(path: str | Path) -> list[str]:
    """One line per cache entry made from this folder: whole, or damaged (and removed)."""
    try:
        entries = entries_for(path)
    except OSError:
        return []
    lines = []
    for entry in entries:
        damage = check_entry(entry)
        if damage:
            shutil.rmtree(entry, ignore_errors=True)
            lines.append(
                f"The optimised copy in the cache ({entry}) was damaged: {damage}. "
                "It is removed; the next load makes it again (the model folder itself is not affected)."
            )
        else:
            lines.append(f"The optimised copy in the cache ({entry}) is whole: every file has its recorded checksum.")
    return lines


def int8_findings(folder: Path) -> list[str]:
    """ "int8 twin (<file>): <kind>" for the decoder twin `translate --quantized` would load."""
    files = find_onnx_files(folder, prefer_quantized=True) if Path(folder).is_dir() else {}
    decoder = next((files[s] for s in DECODER_FILES if s in files and variant_of(files[s])), None)
    if decoder is None:
        return []
    try:
        return [f"int8 twin ({decoder.relative_to(folder)}): {describe(decoder).text}"]
    except Exception as error:  # an unreadable graph is the report's problem, named above
        return [f"int8 twin ({decoder.name}): not readable ({type(error).__name__})"]
