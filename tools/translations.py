"""Refresh the window's translations: pyside6-lupdate over app/ into the Qt Linguist sources
(resources/i18n/live_translator_<lang>.ts), then pyside6-lrelease into the .qm files the app loads.

    .venv/bin/python tools/translations.py            # refresh .ts and .qm
    .venv/bin/python tools/translations.py --release  # only rebuild .qm from the .ts

New or changed strings arrive in the .ts as unfinished; translate them (Qt Linguist:
`.venv/bin/pyside6-linguist resources/i18n/live_translator_zh_CN.ts`, or by hand), then run this
again. tests/ui/test_i18n.py fails while any message is unfinished or a .qm is out of date.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
I18N = ROOT / "resources" / "i18n"
LANGUAGES = ("zh_CN", "zh_TW")
BIN = Path(sys.executable).parent  # the venv's pyside6-* tools sit beside its python


def sources() -> list[Path]:
    """The window's files, and the core's: its error messages and progress lines are marked
    with QT_TRANSLATE_NOOP("Errors", ...) (app/shared/errors.py) and translated by the window."""
    return sorted((ROOT / "app").rglob("*.py"))


def ts_path(language: str) -> Path:
    return I18N / f"live_translator_{language}.ts"


def qm_path(language: str, folder: Path = I18N) -> Path:
    return folder / f"live_translator_{language}.qm"


def tool(name: str) -> str:
    found = BIN / name
    return str(found) if found.exists() else name


def update(ts: Path) -> None:
    """Add new strings to `ts` (unfinished), drop vanished ones; no source line numbers, so the
    file changes only when the strings do."""
    subprocess.run(
        [
            tool("pyside6-lupdate"),
            *map(str, sources()),
            "-no-obsolete",
            "-locations",
            "none",
            "-target-language",
            ts.stem.split("_", 2)[-1],
            "-ts",
            str(ts),
        ],
        check=True,
        capture_output=True,
        cwd=ROOT,
    )


def release(ts: Path, qm: Path) -> None:
    subprocess.run([tool("pyside6-lrelease"), str(ts), "-qm", str(qm)], check=True, capture_output=True)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--release", action="store_true", help="only compile the .ts into .qm")
    args = parser.parse_args(argv)
    I18N.mkdir(parents=True, exist_ok=True)
    for language in LANGUAGES:
        if not args.release:
            update(ts_path(language))
        release(ts_path(language), qm_path(language))
        unfinished = ts_path(language).read_text(encoding="utf-8").count('type="unfinished"')
        print(
            f"{language}: {qm_path(language).relative_to(ROOT)}"
            + (f" ({unfinished} messages still to translate)" if unfinished else "")
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
