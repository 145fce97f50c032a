"""A live input whose clock runs off its stated rate is told once; a true clock, stalls and a busy
reader are not. The device's clock is the true boundary here: blocks are fed with the times a
capture loop would stamp them with."""

from __future__ import annotations

import json

import numpy as np

from app.audio.rate_check import RateCheck
from app.shared.events import RoomProblem


def deliver(check: RateCheck, seconds: float, rate_ratio: float, *, start: float = 0.0, jitter: float = 0.0):
    """Blocks read every 0.1 s (±jitter) from a device that delivers rate_ratio × 16 kHz."""
    rng, told, at = np.random.default_rng(7), [], start
    while at < start + seconds:
        step = 0.1 + rng.uniform(-jitter, jitter)
        at += step
        if (room := check.feed(round(16000 * rate_ratio * step), at)) is not None:
            told.append(room)
    return told, at


def test_a_device_running_off_its_rate_is_told_once_with_the_measured_ratio():
    told, _ = deliver(RateCheck(), 60, 48000 / 44100)  # says 44.1 kHz, runs at 48 kHz
    assert [r.problem for r in told] == [RoomProblem.RATE]
    assert told[0].measured == 1.09
    assert "1.09 times" in told[0].text and told[0].hint.startswith("Its sample rate is set wrong")
    assert json.loads(json.dumps(told[0].to_json()))["problem"] == "rate"


def test_a_true_clock_under_a_jittery_reader_is_not_told():
    for ratio in (1.0, 1.004):
        assert deliver(RateCheck(), 120, ratio, jitter=0.05)[0] == []


def test_stalls_are_left_out_and_a_recording_read_fast_has_no_clock():
    check, at, told = RateCheck(), 0.0, []
    for _ in range(30):  # 1 s of steady audio, then a 1.5 s stall (a busy machine), again and again
        found, at = deliver(check, 1.0, 1.0, start=at)
        told += found
        at += 1.5
        check.feed(1600, at)
    assert told == []
    fast = RateCheck()
    assert all(fast.feed(16000, None) is None for _ in range(100))


def test_restart_forgets_the_window_so_dropped_audio_is_not_a_slow_clock():
    check = RateCheck()
    deliver(check, 15, 0.5)  # half the audio lost to an overflow...
    check.restart()  # ...which the capture stage reports, and the check starts again
    assert deliver(check, 30, 1.0, start=100.0)[0] == []
