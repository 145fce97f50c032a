"""Code a newcomer reads once: no class over 250 lines, no function over 60 and no file over 500
in app/ (issues 34 and 44).

A unit that outgrows this is split into owners (see ARCHITECTURE.md), not allowed to grow."""

from __future__ import annotations

import ast
from pathlib import Path

APP = Path(__file__).resolve().parents[1] / "app"
MAX_CLASS_LINES = 250
MAX_FUNCTION_LINES = 60
MAX_FILE_LINES = 500


def oversized(root: Path = APP) -> list[str]:
    found = []
    for path in sorted(root.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        if len(text.splitlines()) > MAX_FILE_LINES:
            found.append(f"file {path.relative_to(root.parent)}: {len(text.splitlines())} lines")
        for node in ast.walk(ast.parse(text)):
            lines = getattr(node, "end_lineno", 0) - getattr(node, "lineno", 0) + 1
            if isinstance(node, ast.ClassDef) and lines > MAX_CLASS_LINES:
                found.append(f"class {path.relative_to(root.parent)}:{node.lineno} {node.name}: {lines} lines")
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and lines > MAX_FUNCTION_LINES:
                found.append(f"function {path.relative_to(root.parent)}:{node.lineno} {node.name}: {lines} lines")
    return found


def test_no_class_over_250_lines_no_function_over_60_and_no_file_over_500():
    assert oversized() == []


def test_the_check_sees_a_long_function_a_long_class_and_a_long_file(tmp_path):
    (tmp_path / "app").mkdir()
    long = "def f():\n" + "    x = 1\n" * MAX_FUNCTION_LINES
    big = "class C:\n" + "".join(f"    def m{i}(self):\n        pass\n" for i in range(MAX_CLASS_LINES // 2))
    (tmp_path / "app" / "m.py").write_text(long + big, encoding="utf-8")
    (tmp_path / "app" / "n.py").write_text("x = 1\n" * (MAX_FILE_LINES + 1), encoding="utf-8")
    assert oversized(tmp_path / "app") == [
        "function app/m.py:1 f: 61 lines",
        "class app/m.py:62 C: 251 lines",
        "file app/n.py: 501 lines",
    ]
