"""The voice list and the chosen voice, through the real pyttsx3/espeak-ng engine."""

import threading

import soundfile

from app.shared import events as ev
from app.tts import SpeechOutput
from app.voice_list import list_voices


def test_voices_are_listed_per_language():
    voices = list_voices()
    assert any("cmn" in voice_id for voice_id, _ in voices["zh"])
    assert voices["en"] and all("cmn" not in voice_id for voice_id, _ in voices["en"])
    # the natural voice first, beside the system's; no Chinese piper voice is installed
    assert voices["en"][0] == ("piper:en_US-joe-medium", "Joe (Piper, en_US, medium)")
    assert "gmw/en-us" in dict(voices["en"]) and not any(i.startswith("piper:") for i, _ in voices["zh"])


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
    lengths, spoken_by = {}, {}
    # "": the default, the natural (piper) voice for English where it is installed (Linux)
    for name, voice in (("default", ""), ("us", "gmw/en-us"), ("again", "gmw/en-us"), ("chosen", scottish)):
        events = speak_with(voice, tmp_path / f"{name}.wav")
        assert [e.text for e in events if isinstance(e, ev.Speech)] == ["Good morning, everyone."]
        spoken_by[name] = next(e.voice for e in events if isinstance(e, ev.Speech))
        lengths[name] = len(soundfile.read(tmp_path / f"{name}.wav")[0])
    assert spoken_by == {
        "default": "piper:en_US-joe-medium",
        "us": "gmw/en-us",
        "again": "gmw/en-us",
        "chosen": scottish,
    }
    # the same espeak-ng voice twice gives (almost) the same recording; another accent does not
    assert abs(lengths["us"] - lengths["again"]) < 200
    assert abs(lengths["us"] - lengths["chosen"]) > 1000, lengths
