"""A wheel built from the repository holds every package of the app and the resources, and
nothing else (the export tooling, models/, stays in the repository); the app installed from it
(not the editable checkout) passes the self-test's translation check and says plainly that
`models export` needs a checkout."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.slow

# Run from the installed copy: -I drops the current folder and PYTHONPATH from sys.path, and the
# target folder goes first, ahead of the editable install's finder (which the check rules out).
INSTALLED_CHECK = """
import json, sys
sys.path.insert(0, sys.argv[1])
import app
from app.selftest import check_translation
from app.shared.paths import resources_dir
print(json.dumps({"app": app.__file__, "resources": str(resources_dir()), "translation": check_translation()}))
"""


def declared_packages() -> list[str]:
    return tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["packages"]


def source_packages(top: str) -> set[str]:
    return {
        ".".join(p.parent.relative_to(REPO).parts)
        for p in (REPO / top).rglob("__init__.py")
        if "__pycache__" not in p.parts
    }


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """`pip wheel . --no-deps` on a copy of what the build reads (setuptools writes build/ and
    egg-info beside the sources: not into the checkout). No build isolation: no network."""
    root = tmp_path_factory.mktemp("wheel")
    source = root / "source"
    for name in ("app", "resources"):  # the build needs nothing else of the repository
        shutil.copytree(REPO / name, source / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy2(REPO / name, source / name)
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            ".",
            "--no-deps",
            "--no-build-isolation",
            "--wheel-dir",
            str(root / "dist"),
        ],
        cwd=source,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    (found,) = (root / "dist").glob("live_translator-*.whl")
    return found


def test_the_package_list_names_every_package_of_the_app(wheel):
    declared = declared_packages()
    assert set(declared) == source_packages("app") | {"app.resources"}
    names = set(zipfile.ZipFile(wheel).namelist())
    for package in declared:
        if package != "app.resources":
            assert f"{package.replace('.', '/')}/__init__.py" in names, package


def test_the_wheel_ships_the_app_only(wheel):
    tops = {name.split("/")[0] for name in zipfile.ZipFile(wheel).namelist()}
    assert {top for top in tops if not top.endswith(".dist-info")} == {"app"}


def test_the_wheel_carries_the_mit_licence(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    (metadata,) = [n for n in names if n.endswith(".dist-info/METADATA")]
    text = zipfile.ZipFile(wheel).read(metadata).decode("utf-8")
    assert "License-Expression: MIT" in text.splitlines()
    (licence,) = [n for n in names if n.endswith(".dist-info/licenses/LICENSE")]
    assert zipfile.ZipFile(wheel).read(licence) == (REPO / "LICENSE").read_bytes()


def test_the_wheel_holds_the_resources(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    resources = sorted(
        p.relative_to(REPO / "resources").as_posix()
        for p in (REPO / "resources").rglob("*")
        if p.is_file() and "__pycache__" not in p.parts
    )
    assert [f"app/resources/{r}" for r in resources if f"app/resources/{r}" not in names] == []
    for required in (
        "selftest/expected.json",
        "selftest/hello.wav",
        "selftest/translation/config.json",
        "selftest/translation/decoder_model_merged.onnx",
        "icon/live-translator.png",
        "icon/live-translator.ico",
        "icon/live-translator.icns",
    ):
        assert f"app/resources/{required}" in names, required


@pytest.fixture(scope="module")
def installed(wheel, tmp_path_factory) -> Path:
    """The wheel installed into a folder of its own (no dependencies: the venv's serve)."""
    target = tmp_path_factory.mktemp("installed")
    done = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "--no-index", "--target", str(target), str(wheel)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return target


def run_installed(code: str, target: Path, cwd: Path) -> subprocess.CompletedProcess:
    """`code` in a Python that finds the installed app first, from a folder that is not the checkout."""
    return subprocess.run(
        [sys.executable, "-I", "-c", code, str(target)], cwd=cwd, capture_output=True, text=True, timeout=300
    )


def test_the_installed_wheel_passes_the_translation_self_test(installed, tmp_path):
    run = run_installed(INSTALLED_CHECK, installed, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    result = json.loads(run.stdout.splitlines()[-1])
    assert Path(result["app"]).is_relative_to(installed), result["app"]
    assert Path(result["resources"]) == installed / "app" / "resources"
    expected = json.loads((REPO / "resources" / "selftest" / "expected.json").read_text(encoding="utf-8"))[
        "translation"
    ]
    assert result["translation"].endswith(f"{expected['source']!r} -> {expected['target']!r}")


INSTALLED_EXPORT = """
import sys
sys.path.insert(0, sys.argv[1])
from app.cli import main
sys.exit(main(["models", "export", "hf_dir", "out"]))
"""


def test_the_installed_app_says_model_export_needs_a_checkout(installed, tmp_path):
    run = run_installed(INSTALLED_EXPORT, installed, cwd=tmp_path)
    assert run.returncode == 2, run.stderr
    assert run.stderr.startswith(
        "error: The model export tooling is not here: it is the models/ folder of the source "
        f"repository, which an installed app does not include ({installed} has none)."
    ), run.stderr
    assert "git clone" in run.stderr and "Traceback" not in run.stderr
    assert not (tmp_path / "out").exists()
