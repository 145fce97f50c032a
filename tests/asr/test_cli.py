"""`python -m app transcribe` / `listen`: the JSON-lines contract and plain output."""

import json
import subprocess
import sys

import pytest

from app.cli import main

from .conftest import normalize_words


def test_transcribe_json_lines(say, tiny_en, capsys):
    path = say("Hello everyone, welcome to the meeting.")
    assert main(["transcribe", str(path), "--language", "en", "--model", "tiny.en", "--json"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert {line["type"] for line in lines} == {"partial", "final"}
    assert lines[-1]["type"] == "final" and lines[0]["type"] == "partial"
    for line in lines:
        assert {"type", "text", "start", "end", "emitted_at", "utterance_id"} <= set(line)
        assert 0 <= line["start"] < line["end"]
    emitted = [line["emitted_at"] for line in lines]
    assert emitted == sorted(emitted)
    assert normalize_words(lines[-1]["text"]) == "hello everyone welcome to the meeting"
    assert "speech_end_at" in lines[-1] and "committed" in lines[0]


def test_transcribe_plain_prints_final_texts(conversation, tiny_en, capsys):
    path = conversation("cli", ["Good morning.", "See you tomorrow."], "en")
    assert main(["transcribe", str(path), "--model", "tiny.en"]) == 0
    assert [normalize_words(t) for t in capsys.readouterr().out.splitlines()] == ["good morning", "see you tomorrow"]


def test_transcribe_missing_file_is_a_clear_error(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "app", "transcribe", str(tmp_path / "none.wav")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 2
    assert "does not exist" in result.stderr and result.stdout == ""


@pytest.mark.sound  # PortAudio's device list, with no sound server to reach
def test_listen_lists_devices_and_reports_no_microphone(monkeypatch, tmp_path, tiny_en, capsys):
    monkeypatch.setenv("PULSE_SERVER", f"unix:{tmp_path}/nobody-here")
    assert main(["listen", "--list-devices"]) == 0
    capsys.readouterr()
    # With no device at all, listen reports it as an error event and keeps retrying; a missing
    # named device is the same. Stop it after the first report.
    import app.asr.cli as asr_cli

    real = asr_cli._print_events

    def first_event_only(events, as_json):
        return real([next(iter(events))], as_json)

    monkeypatch.setattr(asr_cli, "_print_events", first_event_only)
    assert main(["listen", "--device", "no-such-mic", "--model", "tiny.en", "--json"]) == 1  # an error: not done
    line = json.loads(capsys.readouterr().out.splitlines()[0])
    assert line["type"] == "error" and line["stage"] == "capture" and line["hint"]
