"""`python -m app export`: a saved transcript as text, SRT and WebVTT (read back by a parser)."""

from __future__ import annotations

import html
import subprocess
import sys

import pytest
import webvtt

from app.pipeline.subtitles import export, export_srt, export_text, load
from app.pipeline.transcript import Transcript
from app.shared.events import Error, SourceFinal, Status, Translation

UTTERANCES = [  # (source, translation, start, end)
    ("Welcome to the meeting.", "欢迎参加会议。", 0.5, 2.25),
    ("Is 3 < 4 & 5 > 4?  Yes -->", "是的。", 3.0, 5.5),
    ("What is your name?", "你叫什么名字？", 3725.125, 3727.0),  # past an hour
]


@pytest.fixture
def saved(tmp_path):
    """A transcript file written the way a session writes it (Transcript.record)."""
    transcript = Transcript(tmp_path / "session.jsonl")
    transcript.record(Status(state="running"))
    for uid, (source, translation, start, end) in enumerate(UTTERANCES, 1):
        transcript.record(SourceFinal(utterance_id=uid, text=source, start=start, end=end, speech_end_at=0.0))
        transcript.record(Translation(utterance_id=uid, source=source, text=translation, provisional=False,
                                      direction="en-zh", latency_ms=900.0))
    transcript.record(SourceFinal(utterance_id=9, text="Lost words.", start=8.0, end=9.0, speech_end_at=0.0))
    transcript.record(Error(stage="translation", text="Not translated: no model", utterance_id=9))
    transcript.close()
    with open(transcript.path, "a", encoding="utf-8") as f:
        f.write('{"type": "final", "utterance_id": 10, "te')  # cut short by a kill
    return transcript.path


def cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "app", "export", *args], capture_output=True, text=True,
                          timeout=60, check=False)


@pytest.mark.parametrize("bilingual", [False, True])
def test_vtt_parses_cue_for_cue(saved, tmp_path, bilingual):
    out = tmp_path / "subs.vtt"
    proc = cli(str(saved), "--format", "vtt", "--out", str(out), *(["--bilingual"] if bilingual else []))
    assert proc.returncode == 0, proc.stderr
    assert out.read_text(encoding="utf-8").startswith("WEBVTT\n")
    captions = webvtt.read(str(out)).captions
    translated = UTTERANCES if not bilingual else UTTERANCES + [("Lost words.", "", 8.0, 9.0)]
    assert len(captions) == len(translated)
    for caption, (source, translation, start, end) in zip(captions, translated):
        assert caption.start_in_seconds == int(start) and abs(caption.end_in_seconds - end) < 1
        assert caption.start.endswith(f"{start % 1:.3f}"[1:])
        lines = [" ".join(source.split()), translation] if bilingual else [translation]
        # WebVTT escapes & < > in cue text (a bare "-->" would end the cue): the reader sees them back
        assert html.unescape(caption.text).splitlines() == [line for line in lines if line]
        assert "<" not in caption.text and "-->" not in caption.text
    assert captions[2].start == "01:02:05.125"


def test_srt_and_text(saved):
    srt = cli(str(saved), "--format", "srt")
    assert srt.returncode == 0, srt.stderr
    assert srt.stdout.startswith("1\n00:00:00,500 --> 00:00:02,250\n欢迎参加会议。\n\n2\n")
    assert "01:02:05,125 --> 01:02:07,000" in srt.stdout and "Lost words." not in srt.stdout
    both = cli(str(saved), "--format", "srt", "--bilingual").stdout
    assert "1\n00:00:00,500 --> 00:00:02,250\nWelcome to the meeting.\n欢迎参加会议。\n" in both
    assert "4\n00:00:08,000 --> 00:00:09,000\nLost words.\n" in both
    text = cli(str(saved), "--format", "txt").stdout
    assert text == "欢迎参加会议。\n是的。\n你叫什么名字？\n[Not translated: no model]\n"
    text = cli(str(saved), "--format", "txt", "--bilingual").stdout
    assert text.startswith("Welcome to the meeting.\n欢迎参加会议。\n\nIs 3 < 4")


@pytest.mark.parametrize("script,expected", [("simplified", "欢迎参加会议。"), ("traditional", "歡迎參加會議。"),
                                             ("hongkong", "歡迎參加會議。")])
def test_exports_in_each_chinese_script(saved, script, expected):
    for fmt in ("txt", "srt", "vtt"):
        out = cli(str(saved), "--format", fmt, "--chinese", script).stdout
        assert expected in out
        assert ("你叫什麼名字？" in out) == (script != "simplified")
    assert export(load(saved, "traditional"), "txt", bilingual=True).startswith("Welcome to the meeting.\n歡迎")


def test_window_exports_unchanged(saved):
    transcript = Transcript.load(saved)
    assert export_text(transcript.entries).startswith("Welcome to the meeting.\n欢迎参加会议。\n\n")
    assert export_srt(transcript.entries).startswith("1\n00:00:00,500 --> 00:00:02,250\nWelcome to the meeting.\n欢迎参加会议。\n")
    transcript.close()


def test_bad_input_is_explained(tmp_path):
    missing = cli(str(tmp_path / "nope.jsonl"), "--format", "vtt")
    assert missing.returncode == 2 and "No such transcript" in missing.stderr and "→" not in missing.stdout
    assert not (tmp_path / "nope.jsonl").exists()
    bad_out = cli(str(tmp_path / "nope.jsonl"), "--format", "mp4")
    assert bad_out.returncode == 2 and "--format" in bad_out.stderr
    (tmp_path / "s.jsonl").write_text("", encoding="utf-8")
    unwritable = cli(str(tmp_path / "s.jsonl"), "--format", "srt", "--out", str(tmp_path / "no" / "dir" / "x.srt"))
    assert unwritable.returncode == 2 and "Cannot write" in unwritable.stderr
