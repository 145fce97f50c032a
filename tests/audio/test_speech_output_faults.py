"""The sound server killed while speech plays on a device: each failure is said in words about
speech, not about capturing system audio (issue 35), and speech goes on trying."""

from app.audio.outputs import DeviceOutput
from app.shared.events import Error
from app.tts import SpeechOutput


def test_a_dead_sound_server_is_a_speech_error_in_speech_words(sound_room):
    events = []
    output = SpeechOutput(on_event=events.append, outputs={None: DeviceOutput("speakers")})
    output.start()
    try:
        assert output.say("Hello.", "en")
        assert output.wait_idle(60)
        sound_room.kill()
        assert output.say("Good morning.", "en")
        assert output.wait_idle(60)
    finally:
        output.stop()
    errors = [e for e in events if isinstance(e, Error)]
    assert errors, events
    assert all("System audio" not in e.text and "microphone" not in e.hint for e in errors), errors
    assert "Speech cannot be played" in errors[-1].text
