"""No module of app/ imports another that imports it back, directly or around a loop, at the top
or lazily inside a function: the import graph of app/ is a tree of layers (ARCHITECTURE.md).
A cycle says a piece lives in the wrong module; move it to where both sides can import it."""

from __future__ import annotations

import ast
import graphlib
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def module_names(root: Path = REPO / "app") -> dict[str, Path]:
    """Every module of the package: dotted name -> file (a package is its __init__.py)."""
    names = {}
    for path in root.rglob("*.py"):
        parts = path.relative_to(root.parent).with_suffix("").parts
        names[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return names


def imported(tree: ast.AST, name: str, is_package: bool, modules: dict[str, Path]) -> set[str]:
    """The app modules `tree` (module `name`) imports anywhere in its body, functions included."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: from the package this module is in
                package = name.split(".") if is_package else name.split(".")[:-1]
                base = ".".join(package[: len(package) - node.level + 1] + ([base] if base else []))
            # `from package import module` imports that module; `from module import name` the module
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base for alias in node.names]
        else:
            continue
        for target in targets:
            while target and target not in modules:  # `import app.x.y` where y is a name: its module
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


def import_graph(root: Path = REPO / "app") -> dict[str, set[str]]:
    modules = module_names(root)
    return {
        name: imported(ast.parse(path.read_text(encoding="utf-8")), name, path.name == "__init__.py", modules)
        for name, path in modules.items()
    }


def cycle(graph: dict[str, set[str]]) -> list[str]:
    """One import loop of the graph (its modules, the first again at the end), or []."""
    try:
        graphlib.TopologicalSorter(graph).prepare()
    except graphlib.CycleError as error:
        return error.args[1]
    return []


def test_no_two_modules_of_app_import_each_other():
    assert cycle(import_graph()) == []


def test_a_lazy_import_back_is_a_cycle(tmp_path):
    package = tmp_path / "app" / "pipeline"
    package.mkdir(parents=True)
    (tmp_path / "app" / "__init__.py").write_text("")
    (package / "__init__.py").write_text("")
    (package / "transcript.py").write_text("def text():\n    from app.pipeline.subtitles import to_text\n")
    (package / "subtitles.py").write_text("from .transcript import text\n")
    assert sorted(set(cycle(import_graph(tmp_path / "app")))) == ["app.pipeline.subtitles", "app.pipeline.transcript"]


def test_the_scan_sees_lazy_imports_and_packages():
    graph = import_graph()
    assert "app.model_store.optimized" in graph["app.cli"]  # imported inside _compose
    assert "app.translation.translator" in graph["app.translation"]  # the package's __init__
    assert "app.ui.model_state" in graph["app.ui.model_dialog"]  # `from app.ui import model_state`
    assert len(graph) > 60
