"""`models doctor` runs a probe: folders that load but then fail or mistranslate are reported,
each problem with what to do, and the exit status is 1 for every unusable folder (issue 17, item 8)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from app.translation import inspect_model_folder

from .conftest import family_dir

REPO = Path(__file__).resolve().parents[2]
PHRASEBOOK = REPO / "tests" / "fixtures" / "phrasebook"


def edit(folder: Path, name: str, **changes) -> None:
    data = json.loads((folder / name).read_text(encoding="utf-8"))
    data.update(changes)
    (folder / name).write_text(json.dumps(data), encoding="utf-8")


def swap(a: Path, b: Path) -> None:
    first, second = a.read_bytes(), b.read_bytes()
    a.write_bytes(second)
    b.write_bytes(first)


@pytest.fixture
def marian(tmp_path):
    import shutil

    folder = tmp_path / "opus-mt-en-zh"
    shutil.copytree(PHRASEBOOK / "en-zh", folder)
    return folder


def test_a_good_folder_passes_the_probe():
    report = inspect_model_folder(PHRASEBOOK / "en-zh")
    assert report.can_run and not report.problems, report.text
    assert inspect_model_folder(family_dir("m2m100") / "merged").can_run


@pytest.mark.parametrize(
    "name,break_it,expected",
    [
        (
            "garbage bad_words_ids",
            lambda f: edit(f, "generation_config.json", bad_words_ids=[[538], "x", [None]]),
            "generation_config.json: bad_words_ids is",
        ),
        (
            "every token banned",
            lambda f: edit(f, "generation_config.json", bad_words_ids=[[i] for i in range(1, 267)]),
            "the probe translation of",
        ),
        (
            "decoder_start_token_id outside the vocabulary",
            lambda f: edit(f, "generation_config.json", decoder_start_token_id=70000),
            "the model has only",
        ),
        (
            "decoder_start_token_id not a start token",
            lambda f: edit(f, "generation_config.json", decoder_start_token_id=5),
            "not a start token",
        ),
        ("max_length 1", lambda f: edit(f, "generation_config.json", max_length=1), "max_length is 1"),
        (
            "spm files swapped",
            lambda f: swap(f / "source.spm", f / "target.spm"),
            "source.spm and target.spm are swapped",
        ),
    ],
)
def test_folders_that_load_but_would_fail_are_reported(marian, name, break_it, expected):
    break_it(marian)
    report = inspect_model_folder(marian)
    assert not report.can_run, f"{name}: the doctor passed it\n{report.text}"
    assert any(expected in p for p in report.problems), report.text
    assert "The app cannot run this model" in report.text


@pytest.mark.parametrize("damage", ["not json {", "[1, 2]", ""])
def test_doctor_exits_1_for_every_unusable_folder(marian, damage):
    (marian / "config.json").write_text(damage, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "app", "models", "doctor", str(marian)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 1, (done.returncode, done.stdout, done.stderr)
    assert "The app cannot run this model" in done.stdout and "Traceback" not in done.stderr
