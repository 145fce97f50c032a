"""Shared helpers for the translation engine tests: the committed fixture models
(tests/fixtures/nmt, built by `python -m models.fixtures --out tests/fixtures/nmt`) and their generate() references."""

from __future__ import annotations

import functools
import json
import os
import shutil
from pathlib import Path

import pytest

from app.translation import Translator

FIXTURES = Path(
    os.environ.get("LIVE_TRANSLATOR_NMT_FIXTURES", Path(__file__).resolve().parents[1] / "fixtures" / "nmt")
)
FAMILIES = ("marian-en-zh", "marian-zh-en", "m2m100")


def family_dir(family: str) -> Path:
    path = FIXTURES / family
    # A missing fixture is a failure, not a skip: CI has them committed.
    assert (path / "references.json").is_file(), (
        f"fixture {path} is missing: run `python -m models.fixtures --out tests/fixtures/nmt`"
    )
    return path


@functools.cache
def references(family: str) -> dict:
    return json.loads((family_dir(family) / "references.json").read_text(encoding="utf-8"))


def layouts(family: str) -> list[str]:
    return sorted(p.name for p in family_dir(family).iterdir() if p.is_dir())


def directions(family: str) -> list[str]:
    return [d["direction"] for d in references(family)["directions"]]


def cases(family: str, direction: str) -> list[dict]:
    return next(d["cases"] for d in references(family)["directions"] if d["direction"] == direction)


def generate_settings(case: dict) -> dict:
    """A reference case's generate() settings as DecodeOptions fields (the forced target
    language is the engine's own job, from the direction)."""
    return {k: v for k, v in case["settings"].items() if k not in ("do_sample", "forced_bos_token_id")}


@functools.cache
def translator(folder: str, direction: str, prefer_quantized: bool = False) -> Translator:
    return Translator.load(folder, direction, prefer_quantized=prefer_quantized)


def all_layout_params():
    """(family, layout, direction) for every fixture folder; a missing family becomes one
    param whose test fails (a missing fixture must fail, never skip)."""
    params = []
    for f in FAMILIES:
        if not (FIXTURES / f / "references.json").is_file():
            params.append(pytest.param(f, "missing", "-", id=f"{f}-missing"))
            continue
        params += [
            pytest.param(f, layout, d, id=f"{f}-{layout}-{d}")
            for layout in layouts(f)
            for d in directions(f)
            if (FIXTURES / f / layout / "config.json").is_file()
        ]
    return params


@pytest.fixture
def copy_layout(tmp_path):
    """Copy a fixture layout folder to tmp (to break it on purpose)."""

    def copy(family: str, layout: str) -> Path:
        target = tmp_path / f"{family}-{layout}"
        shutil.copytree(family_dir(family) / layout, target)
        return target

    return copy
