"""The window's "Speak my translation into the call" (a conversation's panel), through a private
PulseAudio server (SoundRoom): the choice, the hint, my translation spoken into the virtual
microphone with the meter moving, and the microphone gone after stop."""

import pytest

from app.asr import load_whisper
from app.shared import events as ev
from app.ui.call_output import CallOutputPanel
from tests.audio.test_virtual_mic import our_modules
from tests.ui.conftest import speak
from tests.ui.conversation import conversation_window, start_both_sides
from tests.ui.test_window import finish

pytestmark = pytest.mark.slow


def test_the_panel_offers_the_virtual_microphone_and_says_what_to_pick(qtbot):
    panel = CallOutputPanel()
    qtbot.addWidget(panel)
    assert panel.speak_into() == "" and not panel.device.isEnabled()
    panel.enabled.setChecked(True)
    assert panel.speak_into() == "virtual-mic"
    assert "Live Translator microphone" in panel.hint.text()
    panel.show_level(ev.SentLevel(rms=0.2, peak=0.5, device="Live Translator microphone"))
    assert panel.meter.value() == 50


def test_my_translation_is_spoken_into_the_call_from_the_window(qtbot, store, sound_room, tmp_path):
    # Whisper base is ready before both sides ask for it: run alone, this test met two sides
    # unpacking it into a fresh cache at once (a load race outside this feature).
    load_whisper("base")
    window = conversation_window(qtbot, store)
    assert not window.call_output.isHidden()
    window.call_output.enabled.setChecked(True)
    assert window.settings.speak_into == "virtual-mic" and window.settings.spoken == "me"
    window.controls.tts.setChecked(True)
    peaks = []
    window.events_shown.connect(lambda _batch: peaks.append(window.call_output.meter.value()))
    watch = start_both_sides(qtbot, window)
    qtbot.waitUntil(lambda: "live_translator_mic" in sound_room.pactl("list", "short", "sources"), timeout=20000)
    watch.wait_hearing(qtbot)
    sound_room.play_to("mic", speak(tmp_path / "me.wav", "Good morning.", "en")).wait(timeout=20)
    qtbot.waitUntil(lambda: bool(watch.of(ev.Speech)), timeout=120000)
    assert [e.speaker for e in watch.of(ev.Speech)] == ["me"]
    assert max(peaks) > 20, "the meter of what is sent did not move"
    window.controls.button.click()  # Stop
    finish(qtbot, window)
    assert our_modules(sound_room) == []
