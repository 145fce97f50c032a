"""What may import what (ARCHITECTURE.md): each check imports a layer in a fresh interpreter and
lists what came with it; a static scan keeps the export tooling (`models`) out of app/, and the
audio sources and the caption server off every other part of the app, lazy imports included."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]

# Imports the packages, then every module inside them (a module the package's __init__ does not
# load must keep the rule too), and prints the top-level and app.* modules now loaded.
LOADED = """
import importlib, json, pkgutil, sys
for name in sys.argv[1:]:
    package = importlib.import_module(name)
    for module in pkgutil.walk_packages(getattr(package, "__path__", []), name + "."):
        importlib.import_module(module.name)
print(json.dumps(sorted(sys.modules)))
"""


def loaded_with(*packages: str) -> set[str]:
    done = subprocess.run(
        [sys.executable, "-c", LOADED, *packages], cwd=REPO, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    modules = set(json.loads(done.stdout))
    assert all(package in modules for package in packages)
    return modules


def inside(module: str, packages: tuple[str, ...]) -> bool:
    return any(module == p or module.startswith(p + ".") for p in packages)


def offenders(modules: set[str], forbidden: tuple[str, ...]) -> list[str]:
    return sorted(m for m in modules if inside(m, forbidden))


def app_modules_beyond(modules: set[str], allowed: tuple[str, ...]) -> list[str]:
    """The app's modules among `modules` that are not in the `allowed` packages."""
    return [m for m in offenders(modules, ("app",)) if m != "app" and not inside(m, allowed)]


def test_speech_recognition_and_speech_output_import_no_pipeline_window_or_tooling():
    assert offenders(loaded_with("app.asr", "app.tts"), ("app.pipeline", "app.ui", "models", "PySide6")) == []


def test_translation_imports_no_other_stage_window_or_tooling():
    forbidden = ("app.asr", "app.pipeline", "app.ui", "models", "PySide6")
    assert offenders(loaded_with("app.translation"), forbidden) == []


def test_the_platform_layer_imports_nothing_of_the_app():
    """Every layer may ask it how the OS differs (app/platform), so it may ask none of them."""
    modules = loaded_with("app.platform")
    assert app_modules_beyond(modules, ("app.platform",)) == []
    assert offenders(modules, ("models", "PySide6", "soundcard", "sounddevice")) == []


def test_the_shared_layer_imports_no_stage():
    modules = loaded_with("app.shared")
    assert app_modules_beyond(modules, ("app.shared", "app.platform")) == []
    assert offenders(modules, ("models", "PySide6")) == []


def test_the_model_store_imports_no_pipeline_window_or_tooling():
    forbidden = ("app.asr", "app.pipeline", "app.ui", "models", "PySide6")
    assert offenders(loaded_with("app.model_store"), forbidden) == []


def test_audio_sources_import_only_the_shared_layer():
    modules = loaded_with("app.audio")
    assert app_modules_beyond(modules, ("app.shared", "app.platform", "app.audio")) == []
    assert offenders(modules, ("models", "PySide6")) == []


def test_the_caption_server_imports_only_the_shared_layer():
    """It observes events: nothing of the pipeline, the stages or the window."""
    modules = loaded_with("app.captions")
    assert app_modules_beyond(modules, ("app.shared", "app.platform", "app.captions")) == []
    assert offenders(modules, ("models", "PySide6")) == []


def imports_of_models(path: Path, root: Path = REPO) -> list[str]:
    """Each place in a module that imports the top-level `models` package, as 'file:line: code'."""
    return imports_of(path, lambda name: inside(name, ("models",)), root)


def imports_of(path: Path, forbidden: Callable[[str], bool], root: Path = REPO) -> list[str]:
    """Each place in a module, at its top or inside a function, that imports a module for which
    `forbidden` says yes, as 'file:line: code'."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        names = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            names = [node.module or ""]
        elif (
            isinstance(node, ast.Call)
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and getattr(node.func, "attr", getattr(node.func, "id", "")) in ("import_module", "__import__")
        ):
            names = [str(node.args[0].value)]
        if any(forbidden(name) for name in names):
            found.append(f"{path.relative_to(root)}:{node.lineno}: {ast.unparse(node)}")
    return found


def test_no_module_under_app_imports_the_export_tooling():
    modules = sorted((REPO / "app").rglob("*.py"))
    assert len(modules) > 20
    assert [hit for path in modules for hit in imports_of_models(path)] == []


@pytest.mark.parametrize("layer", ["audio", "captions"])
def test_no_module_of_the_audio_sources_or_the_caption_server_imports_the_app_beyond_shared(layer):
    """The fresh interpreters above see what loads on import; this sees the imports made later."""
    allowed = ("app.shared", "app.platform", f"app.{layer}")

    def forbidden(name: str) -> bool:
        return inside(name, ("app", "models", "PySide6")) and not inside(name, allowed)

    modules = sorted((REPO / "app" / layer).rglob("*.py"))
    assert len(modules) >= 3
    assert [hit for path in modules for hit in imports_of(path, forbidden)] == []
    probe = REPO / "app" / "pipeline" / "pipeline.py"  # the scan does see a forbidden import
    assert imports_of(probe, forbidden) and all(": from app.shared" not in hit for hit in imports_of(probe, forbidden))


@pytest.mark.parametrize(
    "code",
    [
        "import models",
        "import os, models.export as e",
        "from models import export",
        "from models.optimize import fuse_attention",
        "importlib.import_module('models.cli')",
        "__import__('models')",
    ],
)
def test_the_scan_sees_every_way_of_importing_the_tooling(tmp_path, code):
    probe = tmp_path / "probe.py"
    probe.write_text(f"def f():\n    {code}\n", encoding="utf-8")
    assert imports_of_models(probe, tmp_path) == [f"probe.py:2: {ast.unparse(ast.parse(code).body[0])}"]


@pytest.mark.parametrize(
    "code",
    [
        "from .models import x",
        "import app.model_store",
        "from app.asr import whisper_models",
        "subprocess.run([sys.executable, '-m', 'models', 'export'])",
    ],
)
def test_the_scan_leaves_other_names_alone(tmp_path, code):
    probe = tmp_path / "probe.py"
    probe.write_text(f"def f():\n    {code}\n", encoding="utf-8")
    assert imports_of_models(probe, tmp_path) == []


def test_only_the_entry_imports_the_window():
    """app.ui is imported by app/cli.py (the window) and app/selftest.py (its Qt check) alone."""
    entry = {REPO / "app" / "cli.py", REPO / "app" / "selftest.py"}
    modules = [
        p for p in sorted((REPO / "app").rglob("*.py")) if not inside(".".join(p.relative_to(REPO).parts), ("app.ui",))
    ]
    found = [hit for path in modules for hit in imports_of(path, lambda name: inside(name, ("app.ui",)))]
    assert found and all(REPO / hit.split(":")[0] in entry for hit in found), found


def test_the_shared_layer_neither_looks_up_hosts_nor_opens_sockets():
    """Trying a caption address (DNS, a socket bound) is the caption server's side (app/pipeline/caption_address.py)."""

    def network(name: str) -> bool:
        return inside(name, ("socket", "ssl", "http", "urllib.request", "aiohttp", "requests"))

    modules = sorted((REPO / "app" / "shared").rglob("*.py"))
    assert len(modules) > 10
    assert [hit for path in modules for hit in imports_of(path, network)] == []
    assert imports_of(REPO / "app" / "pipeline" / "caption_address.py", network)  # the scan does see one


def unexplained_local_imports(path: Path, root: Path = REPO) -> list[str]:
    """`app` imports inside a function with no "lazy" reason on them or in the comment or import
    lines just above (issue 44: imports at the top show the dependency graph; one kept inside a
    function says why)."""
    lines = path.read_text(encoding="utf-8").splitlines()

    def explained(lineno: int, end: int) -> bool:
        if "lazy" in " ".join(lines[lineno - 1 : end]):
            return True
        above = lineno - 2
        while above >= 0 and lines[above].strip().startswith(("#", "from ", "import ")):
            if "lazy" in lines[above]:
                return True
            above -= 1
        return False

    found = []
    for function in ast.walk(ast.parse("\n".join(lines))):
        if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for node in ast.walk(function):
            names = [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            names += [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if any(inside(name, ("app",)) for name in names) and not explained(node.lineno, node.end_lineno):
                found.append(f"{path.relative_to(root)}:{node.lineno}")
    return found


def test_imports_inside_functions_say_why(tmp_path):
    found = [hit for path in sorted((REPO / "app").rglob("*.py")) for hit in unexplained_local_imports(path)]
    assert found == []
    probe = tmp_path / "probe.py"
    probe.write_text("def f():\n    from app.asr import vad\n\n\ndef g():\n    from app.asr import vad  # lazy: why\n")
    assert unexplained_local_imports(probe, tmp_path) == ["probe.py:2"]
