"""`python -m app export`: a saved transcript as text, SRT and WebVTT (read back by a parser)."""

from __future__ import annotations

import html
import subprocess
import sys

import pytest
import webvtt
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.pipeline.subtitles import export, export_srt, export_text, load
from app.pipeline.transcript import Transcript
from app.shared.errors import LiveTranslatorError
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
        transcript.record(
            Translation(
                utterance_id=uid,
                source=source,
                text=translation,
                provisional=False,
                direction="en-zh",
                latency_ms=900.0,
            )
        )
    transcript.record(SourceFinal(utterance_id=9, text="Lost words.", start=8.0, end=9.0, speech_end_at=0.0))
    transcript.record(Error(stage="translation", text="Not translated: no model", utterance_id=9))
    transcript.close()
    with open(transcript.path, "a", encoding="utf-8") as f:
        f.write('{"type": "final", "utterance_id": 10, "te')  # cut short by a kill
    return transcript.path


def cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "app", "export", *args], capture_output=True, text=True, timeout=60, check=False
    )


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


@pytest.mark.parametrize(
    "script,expected",
    [("simplified", "欢迎参加会议。"), ("traditional", "歡迎參加會議。"), ("hongkong", "歡迎參加會議。")],
)
def test_exports_in_each_chinese_script(saved, script, expected):
    for fmt in ("txt", "srt", "vtt"):
        out = cli(str(saved), "--format", fmt, "--chinese", script).stdout
        assert expected in out
        assert ("你叫什麼名字？" in out) == (script != "simplified")
    assert export(load(saved, "traditional"), "txt", bilingual=True).startswith("Welcome to the meeting.\n歡迎")


def test_window_exports_unchanged(saved):
    transcript = Transcript.load(saved)
    assert export_text(transcript.entries).startswith("Welcome to the meeting.\n欢迎参加会议。\n\n")
    assert export_srt(transcript.entries).startswith(
        "1\n00:00:00,500 --> 00:00:02,250\nWelcome to the meeting.\n欢迎参加会议。\n"
    )
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


# -- hostile transcripts and destinations (issue 27) ------------------------------------------


def test_out_equal_to_the_transcript_or_another_transcript_is_refused(saved, tmp_path):
    before = saved.read_bytes()
    same = cli(str(saved), "--format", "txt", "--out", str(saved))
    assert (
        same.returncode == 2
        and "is the transcript being exported" in same.stderr
        and "Choose another file" in same.stderr
    )
    link = tmp_path / "link.jsonl"
    link.symlink_to(saved)
    assert cli(str(saved), "--format", "srt", "--out", str(link)).returncode == 2
    other = tmp_path / "other.jsonl"
    other.write_bytes(before)
    refused = cli(str(saved), "--format", "vtt", "--out", str(other))
    assert refused.returncode == 2 and "is a session transcript" in refused.stderr
    assert saved.read_bytes() == before == other.read_bytes()  # nothing replaced
    fine = tmp_path / "subs.srt"
    fine.write_text("old subtitles", encoding="utf-8")  # an earlier export is replaced, as asked
    assert cli(str(saved), "--format", "srt", "--out", str(fine)).returncode == 0
    assert "欢迎参加会议" in fine.read_text(encoding="utf-8")


GOOD_FINAL = '{"type": "final", "utterance_id": 1, "text": "Hello.", "start": 1.0, "end": 2.0}'
BAD_RECORDS = {
    "text a number": '{"type": "final", "utterance_id": 2, "text": 5, "start": 1.0, "end": 2.0}',
    "start a string": '{"type": "final", "utterance_id": 2, "text": "x", "start": "soon", "end": 2.0}',
    "id a string": '{"type": "final", "utterance_id": "2", "text": "x", "start": 1.0, "end": 2.0}',
    "id a float": '{"type": "final", "utterance_id": 2.5, "text": "x", "start": 1.0, "end": 2.0}',
    "NaN time": '{"type": "final", "utterance_id": 2, "text": "x", "start": NaN, "end": 2.0}',
    "Infinity time": '{"type": "final", "utterance_id": 2, "text": "x", "start": 1.0, "end": Infinity}',
    "huge time": '{"type": "final", "utterance_id": 2, "text": "x", "start": 1e300, "end": 1e301}',
    "negative time": '{"type": "final", "utterance_id": 2, "text": "x", "start": -5, "end": 2.0}',
    "a list": "[1, 2, 3]",
    "deep": "[" * 50_000 + "]" * 50_000,
    "speaker an object": '{"type": "final", "utterance_id": 2, "text": "x", "start": 1, "end": 2, "speaker": {}}',
    "latency text": '{"type": "translation", "utterance_id": 1, "text": "x", "direction": "en-zh", "latency_ms": "1"}',
}


@pytest.mark.parametrize("case", BAD_RECORDS)
def test_a_record_with_odd_fields_is_skipped_and_named_by_its_line(tmp_path, case):
    path = tmp_path / "t.jsonl"
    path.write_text(f"{GOOD_FINAL}\n{BAD_RECORDS[case]}\n", encoding="utf-8")
    for fmt in ("txt", "srt", "vtt"):
        done = cli(str(path), "--format", fmt, "--bilingual")
        assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
        assert "line 2 skipped" in done.stderr and "Hello." in done.stdout


def test_another_programs_jsonl_is_named_not_exported_as_nothing(tmp_path):
    path = tmp_path / "events.jsonl"
    path.write_text('{"event": "click", "x": 1}\n{"event": "scroll"}\n', encoding="utf-8")
    done = cli(str(path), "--format", "srt")
    assert done.returncode == 2 and "is not a transcript saved by this app" in done.stderr and not done.stdout
    assert "line 1" in done.stderr


def test_srt_keeps_arrows_and_markup_as_text_in_their_cue(tmp_path):
    transcript = Transcript(tmp_path / "s.jsonl")
    said = "Go --> there <i>now</i> {\\an8}top"
    transcript.record(SourceFinal(utterance_id=1, text=said, start=1.0, end=2.0, speech_end_at=0.0))
    transcript.record(
        Translation(
            utterance_id=1,
            source=said,
            text="去 --> 那里 <b>现在</b>",
            provisional=False,
            direction="en-zh",
            latency_ms=900.0,
        )
    )
    transcript.record(SourceFinal(utterance_id=2, text="Next.", start=3.0, end=4.0, speech_end_at=0.0))
    transcript.record(
        Translation(
            utterance_id=2, source="Next.", text="下一个。", provisional=False, direction="en-zh", latency_ms=900.0
        )
    )
    transcript.close()
    srt = cli(str(transcript.path), "--format", "srt", "--bilingual").stdout
    blocks = srt.strip().split("\n\n")
    assert len(blocks) == 2 and [b.splitlines()[0] for b in blocks] == ["1", "2"]
    for block in blocks:  # each cue: number, one timing line, then text without a timing line or a tag
        lines = block.splitlines()
        assert "-->" in lines[1] and not any(
            "-->" in line or "<i>" in line or "<b>" in line or "{\\an" in line for line in lines[2:]
        )
    assert blocks[0].replace("\u200b", "").splitlines()[2:] == [said, "去 --> 那里 <b>现在</b>"]  # what people read
    vtt = tmp_path / "s.vtt"
    assert cli(str(transcript.path), "--format", "vtt", "--bilingual", "--out", str(vtt)).returncode == 0
    captions = webvtt.read(str(vtt)).captions
    assert len(captions) == 2 and html.unescape(captions[0].text).splitlines() == [said, "去 --> 那里 <b>现在</b>"]


# -- any records at all (Hypothesis, bounded) --------------------------------------------------

_scalars = (
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats()
    | st.text(max_size=8)
    | st.sampled_from(["-->", "<i>", "{\\an8}", "\n\n", "final"])
)
_fields = st.fixed_dictionaries(
    {},
    optional={
        "type": st.sampled_from(["final", "translation", "error", "speech", "status", "other"]) | _scalars,
        "utterance_id": st.integers(-3, 5) | _scalars,
        "text": st.text(max_size=20) | _scalars,
        "start": st.floats(-1, 1e4) | _scalars,
        "end": st.floats(-1, 1e4) | _scalars,
        "direction": _scalars,
        "latency_ms": _scalars,
        "speaker": st.sampled_from(["me", "them"]) | _scalars,
    },
)
_records = st.lists(_fields | _scalars | st.lists(_scalars, max_size=3), max_size=8)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(_records)
def test_any_records_export_or_are_refused_with_a_message(tmp_path, records):
    import json

    path = tmp_path / "t.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    warnings = []
    try:
        entries = load(path, warn=warnings.append)
    except LiveTranslatorError as error:
        assert "is not a transcript saved by this app" in str(error)
        return
    for fmt in ("txt", "srt", "vtt"):
        for bilingual in (False, True):
            out = export(entries, fmt, bilingual)
            if fmt == "srt":  # every cue is number, timing line, text: nothing in the text starts a cue
                for block in filter(None, out.split("\n\n")):
                    assert sum("-->" in line for line in block.splitlines()) == 1, block
