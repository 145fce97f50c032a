"""Shared pieces for the models tests: the committed fixtures and a local stand-in hub."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from local_hub import LocalHub  # tests/models is on sys.path (no __init__: `models` is the real package)

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "nmt"


def references(family: str) -> dict:
    path = FIXTURES / family / "references.json"
    assert path.is_file(), f"fixture {path} is missing: run `python -m models.fixtures`"
    return json.loads(path.read_text(encoding="utf-8"))


def greedy_case(family: str, direction: str) -> dict:
    direction_refs = next(d for d in references(family)["directions"] if d["direction"] == direction)
    return next(c for c in direction_refs["cases"] if c["name"] == "greedy")


@pytest.fixture
def hub_root(tmp_path) -> Path:
    """Repos laid out as the catalog expects them on the Hub, made from the fixture models."""
    root = tmp_path / "hub"
    en_zh = FIXTURES / "marian-en-zh" / "onnx-subdir"
    shutil.copytree(en_zh, root / "Xenova" / "opus-mt-en-zh")
    shutil.copytree(en_zh, root / "Helsinki-NLP" / "opus-mt-en-zh")
    shutil.copytree(FIXTURES / "marian-zh-en" / "onnx-subdir", root / "someone" / "opus-mt-zh-en-onnx")
    return root


@pytest.fixture
def local_hub(hub_root):
    with LocalHub(hub_root) as hub:
        yield hub


@pytest.fixture
def models_home(tmp_path, monkeypatch) -> Path:
    """An empty user model folder, through the environment override."""
    home = tmp_path / "user-models"
    monkeypatch.setenv("LIVE_TRANSLATOR_MODELS", str(home))
    return home
