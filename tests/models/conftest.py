"""Shared pieces for the model-building tests: the committed fixture models' references."""

from __future__ import annotations

import json
from pathlib import Path

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "nmt"
# (no __init__ here: a package named `models` would hide the real one)


def references(family: str) -> dict:
    path = FIXTURES / family / "references.json"
    assert path.is_file(), f"fixture {path} is missing: run `python -m models.fixtures --out tests/fixtures/nmt`"
    return json.loads(path.read_text(encoding="utf-8"))


def greedy_case(family: str, direction: str) -> dict:
    direction_refs = next(d for d in references(family)["directions"] if d["direction"] == direction)
    return next(c for c in direction_refs["cases"] if c["name"] == "greedy")
