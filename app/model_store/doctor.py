"""`python -m app models doctor DIR`: say in plain words what a model folder is, what is
missing and whether the app can run it (the inspection itself is app.translation's)."""

from __future__ import annotations

from pathlib import Path


def run_doctor(path: str | Path) -> int:
    """Print the finding; exit code 0 when the app can run the folder, 1 when it cannot."""
    from app.translation import inspect_model_folder

    report = inspect_model_folder(path)
    print(report.text)  # noqa: T201 (the command's output)
    return 0 if report.can_run else 1
