"""ARCHITECTURE.md names only what exists: every backticked path is in the repository and every
backticked identifier (a class, function, constant, attribute or module) is defined or used in
the code. A rename that forgets the page fails here."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*(\(\))?$")
CODE_DIRS = ("app", "models", "bench", "tools", "packaging", "tests")
# Backticked words that are values, not names in the code: JSON types, states, thread names, commands.
NOT_CODE = re.compile(r"^(python|pip|live-translator)\b|\s|^[a-z]+(-[a-z]+)+$|^\.\w+$")


def backticked() -> list[str]:
    text = (ROOT / "ARCHITECTURE.md").read_text(encoding="utf-8")
    text = re.sub(r"```.*?```", "", text, flags=re.S)  # diagrams name threads and arrows, not code
    return sorted(set(re.findall(r"`([^`\n]+)`", text)))


def code_words() -> set[str]:
    words: set[str] = set()
    for folder in CODE_DIRS:
        for path in (ROOT / folder).rglob("*.py"):
            words.update(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", path.read_text(encoding="utf-8")))
    return words


def exists(path: str) -> bool:
    if path.startswith("app/resources"):  # the installed name of the top-level resources/
        path = "resources" + path.removeprefix("app/resources")
    return any(ROOT.glob(path)) if "*" in path else (ROOT / path).exists()


def test_every_backticked_path_exists():
    paths = [name for name in backticked() if "/" in name and " " not in name and not name.startswith("/")]
    missing = [p for p in paths if not exists(p.split(":")[0].rstrip("/"))]
    assert paths and not missing, missing


def test_every_backticked_identifier_is_in_the_code():
    words = code_words()
    names = [n for n in backticked() if "/" not in n and IDENTIFIER.match(n) and not NOT_CODE.search(n)]
    missing = [n for n in names if n.removesuffix("()").split(".")[-1] not in words]
    assert names and not missing, missing
