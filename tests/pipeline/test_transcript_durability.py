"""Saving the transcript is a side job: a read-only folder, a full disk or a folder removed
mid-session never stops translation; the user is told once; nothing that could be kept is lost.

A full disk is a file-size limit (RLIMIT_FSIZE: writes past it fail with EFBIG, as ENOSPC
would), set in a child process; a read-only folder is a folder whose files the child cannot open
for writing (os.open raises PermissionError there, as a folder without write permission does):
file modes would not do, root ignores them, and mounting a read-only tmpfs needs rights CI lacks.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from app.pipeline.transcript import Transcript
from app.shared.events import Error, SourceFinal, Stage, Translation
from tests.app_run import translating

from .conftest import english, expected

REPO = Path(__file__).resolve().parents[2]


def final(i: int, text: str = "Good morning.") -> SourceFinal:
    return SourceFinal(utterance_id=i, text=text, start=float(i), end=i + 0.5, speech_end_at=0.0)


def translation(i: int, text: str = "早上好。") -> Translation:
    return Translation(
        utterance_id=i, source="Good morning.", text=text, provisional=False, direction="en-zh", latency_ms=100.0
    )


def saved_lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_a_folder_that_cannot_be_made_keeps_records_in_memory_until_it_can(tmp_path):
    blocker = tmp_path / "blocker"
    blocker.write_text("a file where the folder should be")
    transcript = Transcript(blocker / "session.jsonl")  # does not raise
    assert transcript.problem and "File exists" in transcript.problem
    for i in range(3):
        transcript.record(final(i))
        transcript.record(translation(i))
    assert transcript.unsaved == 6 and len(transcript.entries) == 3
    blocker.unlink()
    assert transcript.retry()
    transcript.record(final(3))  # goes straight to the file now
    transcript.close()
    lines = saved_lines(blocker / "session.jsonl")
    assert [(e["type"], e["utterance_id"]) for e in lines] == [
        (kind, i) for i in range(3) for kind in ("final", "translation")
    ] + [("final", 3)]
    assert transcript.problem is None and transcript.unsaved == 0


def test_waiting_records_are_saved_by_the_next_event_of_any_kind_once_the_retry_time_has_passed(tmp_path):
    from app.pipeline import transcript as module
    from app.shared.events import Level

    blocker = tmp_path / "blocker"
    blocker.write_text("")
    transcript = Transcript(blocker / "session.jsonl")
    transcript.record(final(0))
    blocker.unlink()
    transcript.record(Level(rms=0.1, peak=0.2))  # within RETRY_S of the failure: not tried yet
    assert transcript.unsaved == 1
    time.sleep(module.RETRY_S + 0.1)  # time is what is tested: past the retry time
    transcript.record(Level(rms=0.1, peak=0.2))  # a meter level, never recorded itself, retries
    assert transcript.unsaved == 0 and transcript.problem is None
    assert [e["type"] for e in saved_lines(blocker / "session.jsonl")] == ["final"]


def test_a_folder_removed_mid_session_is_written_again_whole(tmp_path):
    folder = tmp_path / "transcripts"
    transcript = Transcript(folder / "session.jsonl")
    transcript.record(final(0))
    transcript.record(translation(0))
    shutil.rmtree(folder)
    transcript.record(final(1))
    transcript.record(translation(1))
    transcript.close()
    lines = saved_lines(folder / "session.jsonl")
    assert [(e["type"], e["utterance_id"]) for e in lines] == [
        ("final", 0),
        ("translation", 0),
        ("final", 1),
        ("translation", 1),
    ]
    assert Transcript.load(folder / "session.jsonl").entries[1].translation == "早上好。"


FULL_DISK_SCRIPT = textwrap.dedent("""
    import json, resource, signal, sys
    from app.pipeline.transcript import Transcript
    from app.shared.events import SourceFinal

    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG
    _, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    resource.setrlimit(resource.RLIMIT_FSIZE, (700, hard))  # the disk is full at 700 bytes
    transcript = Transcript(sys.argv[1])
    for i in range(10):
        transcript.record(SourceFinal(utterance_id=i, text=f"utterance {i} " + "é" * 40, start=0.0, end=1.0,
                                      speech_end_at=0.0))
    waiting, problem = transcript.unsaved, transcript.problem
    resource.setrlimit(resource.RLIMIT_FSIZE, (hard, hard))  # space is freed
    transcript.retry()
    transcript.close()
    print(json.dumps({"waiting": waiting, "problem": problem, "after": transcript.unsaved}))
""")


def test_a_full_disk_keeps_records_and_completes_a_cut_line_once_space_is_back(tmp_path):
    path = tmp_path / "session.jsonl"
    done = subprocess.run(
        [sys.executable, "-c", FULL_DISK_SCRIPT, str(path)], cwd=REPO, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["waiting"] > 0 and "File too large" in report["problem"]
    assert report["after"] == 0
    lines = saved_lines(path)  # every line whole JSON: the one cut at the limit was completed, not repeated
    assert [e["utterance_id"] for e in lines] == list(range(10))
    assert all(e["text"].endswith("é" * 40) for e in lines)


def run_cli(args: list[str], env: dict, preexec=None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "app", "run", *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=400,
        env={**os.environ, **env},
        preexec_fn=preexec,
    )


# `python -m app` with os.open refusing to write into one folder: a read-only folder, as the app sees one.
READ_ONLY_FOLDER_SCRIPT = textwrap.dedent("""
    import errno, os, runpy, sys

    folder = sys.argv.pop(1)
    real_open = os.open

    def open_refusing_writes(path, flags, *args, **kwargs):
        writes = flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT)
        if writes and os.path.dirname(os.path.abspath(path)) == folder:
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), path)
        return real_open(path, flags, *args, **kwargs)

    os.open = open_refusing_writes
    sys.argv[0] = "app"
    runpy.run_module("app", run_name="__main__", alter_sys=True)
""")


@pytest.mark.slow
def test_run_translates_everything_into_a_read_only_folder_and_says_so_once(recording, phrasebook, tmp_path):
    phrases = ["Good morning.", "Where is the station?"]
    wav = recording("ro", english(phrases))
    folder = tmp_path / "ro"
    folder.mkdir()
    done = subprocess.run(
        [sys.executable, "-c", READ_ONLY_FOLDER_SCRIPT, str(folder), "run", *translating(wav, "en-zh", phrasebook)]
        + ["--no-tts"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=400,
        env={**os.environ, "LIVE_TRANSLATOR_TRANSCRIPTS": str(folder)},
    )
    assert "Traceback" not in done.stderr, done.stderr
    heard, said = zip(*(line.split(" → ") for line in done.stdout.splitlines()), strict=True)
    assert list(said) == expected(phrases, "en-zh")  # everything translated
    assert [h.rstrip(".") for h in heard] == [p.rstrip(".") for p in phrases]  # Whisper may drop a full stop
    assert done.stderr.count("error (transcript)") == 1, done.stderr
    assert "transcript incomplete:" in done.stderr and "Permission denied" in done.stderr
    assert done.returncode == 1  # an error was reported


def _limit_file_size():
    import resource
    import signal

    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (1500, resource.getrlimit(resource.RLIMIT_FSIZE)[1]))


@pytest.mark.slow
def test_run_on_a_full_disk_translates_everything_and_ends_cleanly(recording, phrasebook, tmp_path):
    phrases = ["Good morning.", "Where is the station?", "I love you."]
    wav = recording("full", english(phrases))
    folder = tmp_path / "full"
    done = run_cli(
        [*translating(wav, "en-zh", phrasebook), "--no-tts", "--json"],
        {"LIVE_TRANSLATOR_TRANSCRIPTS": str(folder)},
        preexec=_limit_file_size,
    )
    assert "Traceback" not in done.stderr, done.stderr
    events = [json.loads(line) for line in done.stdout.splitlines()]
    finals = [e["text"] for e in events if e["type"] == "translation" and not e["provisional"]]
    assert finals == expected(phrases, "en-zh")
    told = [e for e in events if e["type"] == "error"]
    assert [e["stage"] for e in told] == ["transcript"] and "File too large" in told[0]["text"]
    assert done.stderr.count("could not save") == 1, done.stderr  # one warning, not one per record
    assert "transcript incomplete:" in done.stderr
    saved = (folder.glob("*.jsonl").__next__()).read_text(encoding="utf-8")
    assert 0 < len(saved.encode()) <= 1500


@pytest.mark.slow
def test_the_pipeline_tells_observers_once_and_keeps_every_record_in_memory(run_pipeline, recording, tmp_path):
    phrases = ["Good morning.", "I love you."]
    wav = recording("blocked", english(phrases))
    blocker = tmp_path / "blocked"
    blocker.write_text("not a folder")
    run = run_pipeline(wav, transcript_path=blocker / "session.jsonl")
    told = run.errors(Stage.TRANSCRIPT)
    assert len(told) == 1 and "File exists" in told[0].text and told[0].hint
    assert [t.text for t in run.translations()] == expected(phrases, "en-zh")
    transcript = run.pipeline.transcript
    assert transcript.unsaved > 0 and [e.translation for e in transcript.entries] == expected(phrases, "en-zh")
    assert isinstance(told[0], Error)


@pytest.mark.slow
def test_run_saves_its_transcript_under_live_translator_home(recording, phrasebook, tmp_path):
    wav = recording("home", english(["Good morning."]))
    home = tmp_path / "home"
    env = {k: v for k, v in os.environ.items() if not k.startswith("LIVE_TRANSLATOR_")}
    env["LIVE_TRANSLATOR_HOME"] = str(home)
    done = subprocess.run(
        [sys.executable, "-m", "app", "run", *translating(wav, "en-zh", phrasebook), "--no-tts"],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=400,
    )
    assert done.returncode == 0, done.stderr
    saved = list((home / "transcripts").glob("session-*.jsonl"))
    assert len(saved) == 1 and f"transcript saved: {saved[0]}" in done.stderr
    assert Transcript.load(saved[0]).entries[0].translation == expected(["Good morning."], "en-zh")[0]
