"""Audio capture through the real path: PortAudio recording ALSA's `pulse` device, fed by a
private PulseAudio null sink; plus recordings standing in for the microphone."""

import threading
import time

import numpy as np
import pytest

from app.asr import StreamingRecognizer, recognize
from app.audio import FileSource, MicrophoneSource, find_input_device, list_input_devices
from app.shared.errors import LiveTranslatorError
from app.shared.events import Error, Level, SourceFinal, SourcePartial, Status
from tests.waiting import wait_until

from .conftest import normalize_words, read16k


# -- recordings -----------------------------------------------------------------------------------
def test_file_source_fast_gives_the_whole_file_in_blocks(say):
    path = say("Good morning.")
    source = FileSource(path, realtime=False, block_s=0.1)
    source.start()
    blocks = []
    while not source.finished:
        blocks.append(source.read())
    assert all(b.dtype == np.float32 and b.ndim == 1 for b in blocks)
    assert all(len(b) == 1600 for b in blocks[:-1])
    np.testing.assert_array_equal(np.concatenate(blocks), read16k(path))
    assert source.read() is None


def test_file_source_realtime_keeps_speaking_pace(say):
    source = FileSource(say("One two three four."), realtime=True, block_s=0.1)
    source.start()
    t0, total = time.monotonic(), 0
    while not source.finished:
        block = source.read(timeout=0.05)
        if block is not None:
            total += len(block)
            # never ahead of the clock: what was delivered had been "spoken" by now
            assert total / 16000 <= time.monotonic() - t0 + 0.01
    assert time.monotonic() - t0 >= source.duration - 0.02
    assert total == int(source.duration * 16000)


def test_missing_file_is_a_clear_error(tmp_path):
    with pytest.raises(LiveTranslatorError, match="does not exist"):
        FileSource(tmp_path / "nope.wav").start()
    bad = tmp_path / "bad.wav"
    bad.write_bytes(b"not audio at all")
    with pytest.raises(LiveTranslatorError, match="is not a recording ffmpeg can decode"):
        FileSource(bad).start()


# -- the real microphone path -----------------------------------------------------------------------
def _collect(source, recognizer, **kw):
    """Run the recognition loop on a thread; returns (events list, stop event, thread)."""
    events, stop = [], threading.Event()
    thread = threading.Thread(target=lambda: events.extend(recognize(source, recognizer, stop=stop, **kw)), daemon=True)
    thread.start()
    # Audio must flow before anything is played (ALSA's pulse device can take ~2 s to start).
    wait_until(lambda: any(isinstance(e, Level) for e in events), "audio flowing (a Level event)", 10)
    return events, stop, thread


def test_virtual_microphone_speech_becomes_text(virtual_mic, say, tiny_en):
    speech = say("Hello everyone, welcome to the meeting.")
    source = MicrophoneSource("pulse")
    events, stop, thread = _collect(source, StreamingRecognizer(tiny_en, language="en"))
    virtual_mic.play(speech).wait(timeout=20)
    wait_until(lambda: any(isinstance(e, SourceFinal) for e in events), "the final of what was played", 30)
    stop.set()
    thread.join(30)
    assert source.device_info.name == "pulse" and source.device_info.default_samplerate != 16000  # resampled
    finals = [e for e in events if isinstance(e, SourceFinal)]
    assert normalize_words(finals[0].text) == "hello everyone welcome to the meeting"
    levels = [e for e in events if isinstance(e, Level)]
    assert max(e.rms for e in levels) > 0.01 and min(e.rms for e in levels) < 0.001  # speech vs silence
    assert not [e for e in events if isinstance(e, Error)]


def test_no_microphone_is_a_clear_error_event(monkeypatch, tmp_path, tiny_en):
    # No sound server at all: ALSA's pulse device cannot connect anywhere.
    monkeypatch.setenv("PULSE_SERVER", f"unix:{tmp_path}/nobody-here")
    with pytest.raises(LiveTranslatorError) as error:
        MicrophoneSource("pulse").start()
    assert "microphone" in error.value.message.lower() and error.value.hint
    with pytest.raises(LiveTranslatorError, match="'no-such-mic' is not an input device|No microphone found"):
        MicrophoneSource("no-such-mic").start()
    events = list(recognize(MicrophoneSource("no-such-mic"), StreamingRecognizer(tiny_en, language="en")))
    assert len(events) == 1 and isinstance(events[0], Error) and events[0].stage == "capture" and events[0].hint


def test_device_vanishing_mid_utterance_then_resuming(virtual_mic, say, tiny_en):
    first = say("This sentence will be cut off in the middle because the microphone disappears.")
    second = say("The microphone is back again.")
    events, stop, thread = _collect(MicrophoneSource("pulse"), StreamingRecognizer(tiny_en, language="en"), retry_s=0.3)
    virtual_mic.play(first)
    wait_until(  # mid-utterance: the recognizer is hearing it
        lambda: any(isinstance(e, SourcePartial) and "sentence" in e.text.lower() for e in events),
        "a partial of the first sentence",
        20,
    )
    virtual_mic.kill()
    wait_until(lambda: any(isinstance(e, Error) for e in events), "the Error of the vanished device", 10)
    error = next(e for e in events if isinstance(e, Error))
    assert error.stage == "capture" and "stopped delivering audio" in error.text and error.hint
    # What was said before the device vanished is not lost.
    before = [e for e in events[: events.index(error)] if isinstance(e, SourceFinal)]
    assert before and "sentence" in normalize_words(before[-1].text)
    virtual_mic.start()
    wait_until(
        lambda: any(isinstance(e, Status) and e.state == "running" for e in events), "capture to resume (a Status)", 10
    )
    resumed = len(events)
    wait_until(lambda: any(isinstance(e, Level) for e in events[resumed:]), "audio flowing again (a Level)", 10)
    virtual_mic.play(second).wait(timeout=20)
    wait_until(
        lambda: any(isinstance(e, SourceFinal) and "back" in e.text for e in events), "the second sentence's final", 30
    )
    stop.set()
    thread.join(30)
    assert not thread.is_alive()


def test_buffer_is_bounded_and_reports_overflow(virtual_mic):
    source = MicrophoneSource("pulse", buffer_s=0.5)
    source.start()
    try:
        wait_until(lambda: source.read(timeout=0.1) is not None, "a block from the microphone", 10)  # audio flows
        time.sleep(1.5)  # nobody reads: the recogniser is "busy"
        block = source.read(timeout=0.5)
        assert source.overflow_s > 0.5
        assert len(block) <= 0.6 * 16000  # only the newest half second was kept
    finally:
        source.stop()


def test_falling_behind_becomes_an_error_event(virtual_mic, tiny_en):
    events = recognize(MicrophoneSource("pulse", buffer_s=0.3), StreamingRecognizer(tiny_en, language="en"))
    assert isinstance(next(e for e in events if isinstance(e, Level)), Level)  # audio flows
    time.sleep(1.0)  # the consumer is busy elsewhere: the generator is not advanced
    error = next(e for e in events if isinstance(e, Error))
    assert error.stage == "capture" and "fell behind" in error.text and "dropped" in error.text and error.hint
    events.close()  # stops the source


def test_recording_at_speaking_pace_through_the_same_path(conversation, tiny_en):
    source = FileSource(conversation("pace", ["Good morning everyone."], "en"), realtime=True)
    events = list(recognize(source, StreamingRecognizer(tiny_en, language="en")))
    final = next(e for e in events if isinstance(e, SourceFinal))
    assert normalize_words(final.text) == "good morning everyone"
    # speech_end_at is on the capture clock: the final came after the 0.5 s pause that ends speech
    assert final.emitted_at - final.speech_end_at >= 0.5
    assert any(isinstance(e, Level) and e.rms > 0.01 for e in events)


def test_device_by_index_name_or_part_of_a_name(virtual_mic):
    source = MicrophoneSource("pulse")
    source.start()  # refreshes PortAudio's list if the server is new to it
    source.stop()
    devices = list_input_devices()
    pulse = next(d for d in devices if d.name == "pulse")
    assert find_input_device(pulse.index) == pulse
    assert find_input_device(str(pulse.index)) == pulse
    assert find_input_device("pulse") == pulse
    assert find_input_device(None) in devices
    with pytest.raises(LiveTranslatorError) as error:
        find_input_device("definitely-not-a-device")
    assert "pulse" in error.value.message  # the message lists what there is


@pytest.mark.parametrize("fmt,rate,channels", [("WAV", 44100, 2), ("FLAC", 22050, 1), ("OGG", 48000, 2)])
def test_file_source_streams_exactly_what_decoding_whole_gave(tmp_path, fmt, rate, channels):
    import soundfile as sf
    from faster_whisper import decode_audio

    t = np.arange(int(rate * 2.5)) / rate
    tone = (0.3 * np.sin(2 * np.pi * 440 * t)).astype(np.float32)
    path = tmp_path / f"tone.{fmt.lower()}"
    sf.write(str(path), np.stack([tone] * channels, axis=1) if channels > 1 else tone, rate, format=fmt)
    source = FileSource(path, realtime=False, block_s=0.37)
    source.start()
    blocks = []
    while (block := source.read()) is not None:
        blocks.append(block)
    np.testing.assert_array_equal(np.concatenate(blocks), decode_audio(str(path), sampling_rate=16000))
    source.start()  # again: from the beginning
    assert len(source.read()) == int(0.37 * 16000)


def test_a_long_recording_is_read_in_blocks_without_holding_it(tmp_path):
    # 20 minutes (mostly silence, a tone every minute) as FLAC: a few MB on disk, 77 MB as float32
    # if decoded whole. Read through, the largest allocation at any moment stays a few blocks.
    import tracemalloc

    import soundfile as sf

    rate, minutes = 16000, 20
    path = tmp_path / "long.flac"
    with sf.SoundFile(str(path), "w", rate, 1, format="FLAC") as f:
        minute = np.zeros(rate * 60, np.float32)
        minute[:rate] = 0.2 * np.sin(2 * np.pi * 300 * np.arange(rate) / rate)
        for _ in range(minutes):
            f.write(minute)
    source = FileSource(path, realtime=False, block_s=1.0)
    tracemalloc.start()
    try:
        source.start()
        total = 0
        while (block := source.read()) is not None:
            total += len(block)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert total == rate * 60 * minutes and source.duration == 60 * minutes
    assert peak < 8 << 20, f"peak {peak / 2**20:.1f} MB while reading {minutes} minutes"


def test_a_fifo_or_device_given_as_a_recording_is_named(tmp_path):
    import os

    fifo = tmp_path / "talk.wav"
    os.mkfifo(fifo)
    with pytest.raises(LiveTranslatorError, match="not an ordinary file.*named pipe"):
        FileSource(fifo).start()  # opening it would wait for a writer forever
    with pytest.raises(LiveTranslatorError, match="character device"):
        FileSource("/dev/zero").start()
    (tmp_path / "dangling").symlink_to(tmp_path / "gone.wav")
    with pytest.raises(LiveTranslatorError, match="does not exist"):
        FileSource(tmp_path / "dangling").start()
