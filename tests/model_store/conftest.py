"""Shared pieces for the model-store tests: the committed fixture models and a local stand-in hub."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from .local_hub import LocalHub

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "nmt"


def greedy_case(family: str, direction: str) -> dict:
    references = json.loads((FIXTURES / family / "references.json").read_text(encoding="utf-8"))
    direction_refs = next(d for d in references["directions"] if d["direction"] == direction)
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
