"""The voice list and the chosen voice, through the real pyttsx3/espeak-ng engine."""

import threading

import soundfile

from app.shared import events as ev
from app.tts import SpeechOutput
from app.ui.voices import list_voices


def test_voices_are_listed_per_language():
    voices = list_voices()
    assert any("cmn" in voice_id for voice_id, _ in voices["zh"])
    assert voices["en"] and all("cmn" not in voice_id for voice_id, _ in voices["en"])


def test_listing_voices_makes_no_speech_engine_in_this_process():
    # A second engine on another thread reset espeak's callback under the speech thread's feet,
    # and dropping it took a gc.collect() on that thread (issue 31): the list comes from a child.
    import pyttsx3

    engines = dict(pyttsx3._activeEngines)
    threads = set(threading.enumerate())
    worker = threading.Thread(target=list_voices)
    worker.start()
    worker.join(60)
    assert dict(pyttsx3._activeEngines) == engines
    # No thread of ours is left behind (threads of earlier tests may end meanwhile: a subset).
    assert set(threading.enumerate()) <= threads


def speak_with(voice_id: str, path) -> list:
    events = []
    speech = SpeechOutput(voices={"en": voice_id}, out_path=path, on_event=events.append)  # "": the automatic pick
    speech.start()
    assert speech.say("Good morning, everyone.", "en", utterance_id=1)
    assert speech.wait_idle(60)
    speech.stop()
    return events


def test_the_chosen_voice_is_the_one_that_speaks(tmp_path):
    scottish = "gmw/en-gb-scotland"
    assert scottish in dict(list_voices()["en"])
    lengths = {}
    for name, voice in (("default", ""), ("again", ""), ("chosen", scottish)):
        events = speak_with(voice, tmp_path / f"{name}.wav")
        assert [e.text for e in events if isinstance(e, ev.Speech)] == ["Good morning, everyone."]
        lengths[name] = len(soundfile.read(tmp_path / f"{name}.wav")[0])
    # the same voice twice gives (almost) the same recording; another accent does not
    assert abs(lengths["default"] - lengths["again"]) < 200
    assert abs(lengths["default"] - lengths["chosen"]) > 1000, lengths
