"""`python -m app models doctor DIR`: say in plain words what a model folder is, what is
missing and whether the app can run it (the inspection itself is app.translation's), and
whether the optimised copies of it in the cache are whole (a damaged one is removed: the next
load makes it again)."""

from __future__ import annotations

import shutil
from pathlib import Path


def run_doctor(path: str | Path) -> int:
    """Print the finding; exit code 0 when the app can run the folder, 1 when it cannot."""
    from app.translation import inspect_model_folder

    report = inspect_model_folder(path)
    print(report.text)  # noqa: T201 (the command's output)
    for line in cache_findings(path):
        print(line)  # noqa: T201 (the command's output)
    return 0 if report.can_run else 1


def cache_findings(path: str | Path) -> list[str]:
    """One line per cache entry made from this folder: whole, or damaged (and removed)."""
    from app.model_store.optimized import check_entry, entries_for

    try:
        entries = entries_for(path)
    except OSError:
        return []
    lines = []
    for entry in entries:
        damage = check_entry(entry)
        if damage:
            shutil.rmtree(entry, ignore_errors=True)
            lines.append(f"The optimised copy in the cache ({entry}) was damaged: {damage}. "
                         "It is removed; the next load makes it again (the model folder itself is not affected).")
        else:
            lines.append(f"The optimised copy in the cache ({entry}) is whole: every file has its recorded checksum.")
    return lines
