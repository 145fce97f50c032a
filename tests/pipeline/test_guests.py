"""A session with a guest (issue 43): the host's microphone and a guest's phone at once, through
real Whisper and the phrasebook models; the guest's audio arrives as the caption server hands it
over, 40 ms frames of 16-bit PCM in real time, into a real GuestSource."""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest

from app.audio.guest import GuestSource
from app.pipeline import Pipeline, PipelineConfig
from app.pipeline.guests import WithGuests
from app.pipeline.transcript import Transcript
from app.shared.audio import SourceKind
from app.shared.events import Level, SourceFinal, Speaker, Translation
from app.shared.languages import Direction
from tests.waiting import wait_until

from .conftest import SPOKEN_EN, SPOKEN_ZH, EndlessRecording, chinese, english, expected, read16k

# Heard the same on every CPU profile (我爱你 is not, on an AVX2-only EPYC: docs/development.md).
GUEST_ZH = [SPOKEN_ZH[1], SPOKEN_ZH[3]]

FRAME = 640


def speak_into(place: GuestSource, wav, name: str) -> threading.Thread:
    """A guest's phone: the recording as the page sends it, one 40 ms frame every 40 ms."""
    pcm = (np.clip(read16k(wav), -1, 1) * 32767).astype("<i2")

    def send() -> None:
        place.speaker_name = name  # what GuestSpeech sets when the guest takes the place
        start = time.monotonic()
        for n, at in enumerate(range(0, len(pcm), FRAME)):
            time.sleep(max(0.0, start + n * FRAME / 16000 - time.monotonic()))  # a phone streams in real time
            place.feed(pcm[at : at + FRAME].tobytes())
        place.end_turn()  # the guest taps Stop

    thread = threading.Thread(target=send, daemon=True)
    thread.start()
    return thread


def test_the_laptops_own_voice_is_not_heard_again_from_a_guests_phone():
    """The phone is in the room: while the laptop speaks to its speakers, what a guest's place
    captures is silenced by the same gate as the laptop's microphone."""
    from app.pipeline.speech import SpeechStage
    from app.tts import SpeechOutput

    output = SpeechOutput(enabled=True)  # not started: what is queued stays queued, counted as playing soon
    stage = SpeechStage(PipelineConfig(), output, shared=True)
    place = GuestSource()
    assert stage.mutes(place)
    now = time.monotonic()
    quiet = np.zeros(FRAME, np.float32)
    assert not stage.own_voice_in(place.kind, quiet, now)
    assert output.say("I love you.", "en")
    assert stage.own_voice_in(place.kind, quiet, time.monotonic())


@pytest.mark.slow
def test_a_guest_speaks_chinese_through_the_phone_while_the_host_speaks_english(phrasebook, recording, tmp_path):
    host_wav = recording("host-en", english(SPOKEN_EN[:2]))
    guest_wav = recording("guest-zh", chinese(GUEST_ZH))
    config = PipelineConfig(
        direction="en-zh",
        asr_model="base",
        emit_steps=False,
        tts_enabled=False,
        nmt_models={Direction.EN_ZH: phrasebook["en-zh"], Direction.ZH_EN: phrasebook["zh-en"]},
        transcript_path=tmp_path / "session.jsonl",
    )
    events, lock = [], threading.Lock()

    def collect(event) -> None:
        with lock:
            events.append(event)

    def finals_of(speaker) -> list[Translation]:
        with lock:
            return [e for e in events if isinstance(e, Translation) and not e.provisional and e.speaker == speaker]

    place = GuestSource("place 1")
    session = WithGuests(
        config,
        lambda host, observer, ids: Pipeline(
            host, on_event=observer, utterance_ids=ids, audio_source=EndlessRecording(host_wav, SourceKind.MICROPHONE)
        ),
        [place],
        on_event=collect,
    )
    session.start()
    try:
        wait_until(
            lambda: any(getattr(e, "state", None) == "running" and e.speaker == Speaker.GUEST for e in list(events)),
            "the guest's lane running",
            180,
        )
        speak_into(place, guest_wav, "Mei").join(30)
        wait_until(
            lambda: len(finals_of(Speaker.GUEST)) >= 2 and len(finals_of(None)) >= 2,
            "two translations of the guest's and two of the host's",
            60,
        )
    finally:
        session.finish()
    guest, host = finals_of(Speaker.GUEST), finals_of(None)
    assert [t.text for t in guest] == expected(GUEST_ZH, "zh-en")  # heard in Chinese, translated zh-en
    assert all(t.direction == Direction.ZH_EN and t.speaker_name == "Mei" for t in guest)
    assert [t.text for t in host] == expected(SPOKEN_EN[:2], "en-zh")  # the host's microphone kept working
    guest_finals = [e for e in events if isinstance(e, SourceFinal) and e.speaker == Speaker.GUEST and e.text]
    assert all(e.speaker_name == "Mei" for e in guest_finals) and len(guest_finals) == 2
    ids = [t.utterance_id for t in guest + host]
    assert len(set(ids)) == 4  # one numbering for every lane
    assert not [e for e in events if isinstance(e, Level) and e.speaker == Speaker.GUEST]  # meters: the host's
    # One transcript: each guest utterance with the guest's name, in the exports too.
    entries = {e.utterance_id: e for e in Transcript.load(tmp_path / "session.jsonl").entries}
    assert [entries[t.utterance_id].speaker for t in guest] == ["Mei", "Mei"]
    assert [entries[t.utterance_id].speaker for t in host] == ["", ""]
