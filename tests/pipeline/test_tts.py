"""Speech output through the real pyttsx3 + espeak-ng engine."""

from __future__ import annotations

import threading
import time

import pyttsx3
import soundfile as sf

from app.shared.events import Error, Speech
from app.speech_engines import pick_voice
from app.tts import SpeechOutput
from tests.waiting import wait_until


def collect(output: SpeechOutput) -> list:
    events = []
    output.on_event = events.append
    return events


def test_voice_per_language_from_espeak():
    voices = pyttsx3.init().getProperty("voices")
    assert pick_voice(voices, "en") == "gmw/en-us"
    assert pick_voice(voices, "zh") == "sit/cmn-latn-pinyin"


def test_speaks_into_one_file_on_its_own_thread(tmp_path):
    out = tmp_path / "speech.wav"
    output = SpeechOutput(out_path=out, echo_tail_s=0.3)
    events = collect(output)
    output.start()
    assert output.say("Good morning.", "en", 1) and output.say("我爱你。", "zh", 2)
    assert output.speaking  # from the moment something is queued: the microphone closes at once
    assert output.wait_idle(30)
    assert output.speaking  # the echo tail
    time.sleep(0.4)  # time is what is tested: past the 0.3 s echo tail
    assert not output.speaking
    output.stop()
    assert [(e.utterance_id, e.language, e.path) for e in events if isinstance(e, Speech)] == [
        (1, "en", str(out)),
        (2, "zh", str(out)),
    ]
    assert sf.info(out).duration > 1.0
    assert not [t for t in threading.enumerate() if t.name == "speech-output"]


def test_a_chosen_voice_is_used(tmp_path):
    lengths = []
    for voice in ("gmw/en-us", "sit/cmn-latn-pinyin"):  # English text read as pinyin sounds different
        output = SpeechOutput(out_path=tmp_path / "v.wav", voices={"en": voice})
        output.start()
        output.say("Where is the station?", "en")
        assert output.wait_idle(30)
        output.stop()
        lengths.append(sf.info(tmp_path / "v.wav").frames)
    assert lengths[0] != lengths[1]


def test_rate_changes_the_speech_length(tmp_path):
    durations = []
    for rate in (110, 260):
        output = SpeechOutput(out_path=tmp_path / f"{rate}.wav", rate=rate)
        output.start()
        output.say("Where is the station? Thank you very much.", "en")
        assert output.wait_idle(30)
        output.stop()
        durations.append(sf.info(tmp_path / f"{rate}.wav").duration)
    assert durations[0] > 1.6 * durations[1]


def test_off_and_unavailable(tmp_path):
    output = SpeechOutput(out_path=tmp_path / "off.wav", enabled=False)
    output.start()
    assert not output.say("Good morning.", "en")
    output.stop()
    assert not (tmp_path / "off.wav").exists()

    broken = SpeechOutput(driver="no_such_speech_driver")
    events = collect(broken)
    broken.start()
    wait_until(lambda: broken.available is not None, "the speech thread to find out whether speech works", 10, 0.01)
    assert broken.available is False
    assert not broken.say("Good morning.", "en")
    broken.stop()
    assert [e.stage for e in events if isinstance(e, Error)] == ["tts"]
    assert "unavailable" in events[0].text and "espeak-ng" in events[0].hint


def test_the_espeak_drivers_own_prints_never_reach_the_terminal(capfd):
    """pyttsx3's espeak driver prints "Audio saved to …" from espeak's callback thread, at times
    after the redirect around a synthesis has ended and the name was reset: "Audio saved to None"
    on the terminal (issue 42). Its prints go to the log instead, from whichever thread."""
    import sys as system

    from app.speech_engines import SystemEngine

    engine = SystemEngine(None)
    audio, _ = engine.render("Good morning.")
    assert len(audio) > 0
    driver_module = system.modules["pyttsx3.drivers.espeak"]
    said_late = 'print(f"Audio saved to {None}")'  # what the driver's callback runs, resolved in its module
    late = threading.Thread(target=exec, args=(said_late, vars(driver_module)))
    late.start()
    late.join()
    out, err = capfd.readouterr()
    assert "Audio saved" not in out and "Audio saved" not in err


def test_speaking_leaves_the_process_stdout_to_other_threads(tmp_path, capsys):
    """sys.stdout belongs to the whole process (run --json prints there from other threads): the
    speech thread never swaps it while it speaks, so nothing printed meanwhile is lost."""
    import sys as system

    output = SpeechOutput(out_path=tmp_path / "s.wav")
    output.start()
    for n in range(3):
        assert output.say("Where is the station? Thank you very much.", "en", n)
    printed, streams = 0, set()
    while not output.wait_idle(0):
        streams.add(id(system.stdout))
        print(f"line {printed}")
        printed += 1
        time.sleep(0.001)
    output.stop()
    assert printed > 10  # the printing overlapped the speaking
    assert capsys.readouterr().out.splitlines() == [f"line {n}" for n in range(printed)]
    assert len(streams) == 1
