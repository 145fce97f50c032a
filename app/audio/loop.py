"""The one capture loop: read any AudioSource, with retries, and say what happens on the way.

`listen`/`transcribe` (through app.asr.live.recognize), `run` and the window (through the
pipeline's capture thread) all read audio here, so a missing or vanished device is handled the
same way everywhere: an Error event, SOURCE_LOST so the reader can finalize what was said,
then (for a live source, when asked) a new start every `retry_s` until it works, announced
with a Status event.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from enum import Enum

import numpy as np

from app.shared.audio import AudioSource, SourceKind
from app.shared.errors import QT_TRANSLATE_NOOP, Text, texts_of
from app.shared.events import Error, Event, Level, Stage, State, Status

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class AudioBlock:
    samples: np.ndarray  # 16 kHz mono float32
    # Monotonic time its last sample was recorded; None for a recording read as fast as it
    # goes (then the reader's own clock is the right one).
    captured_at: float | None


class CaptureSignal(Enum):
    SOURCE_LOST = "source lost"  # the device stopped delivering: finalize what was heard


SOURCE_LOST = CaptureSignal.SOURCE_LOST


def _capture_error(error: BaseException) -> Error:
    message, hint = texts_of(error)
    return Error.of(
        Stage.CAPTURE,
        message,
        hint or Text(QT_TRANSLATE_NOOP("Errors", "Check the audio input, then start listening again.")),
    )


class _Reports:
    """A Level every `level_every_s`, and an Error each time the source's dropped audio grows."""

    def __init__(self, level_every_s: float):
        self.level_every_s = level_every_s
        self.next_level = 0.0
        self.overflow_reported = 0.0

    def of(self, source: AudioSource) -> Iterator[Event]:
        now = time.monotonic()
        if now >= self.next_level:
            self.next_level = now + self.level_every_s
            rms, peak = source.level
            yield Level(rms=float(rms), peak=float(peak))
        if source.overflow_s > self.overflow_reported:
            self.overflow_reported = source.overflow_s
            yield _overflow_error(self.overflow_reported)


def _overflow_error(seconds: float) -> Error:
    return Error.of(
        Stage.CAPTURE,
        Text(
            QT_TRANSLATE_NOOP("Errors", "Recognition fell behind: {seconds} s of audio were dropped."),
            {"seconds": f"{seconds:.1f}"},
        ),
        Text(
            QT_TRANSLATE_NOOP(
                "Errors",
                "Use a smaller Whisper model (e.g. tiny.en for English) or close other busy programs.",
            )
        ),
    )


def capture(
    source: AudioSource, stop: threading.Event, *, retry_s: float | None = None, level_every_s: float = 0.1
) -> Iterator[AudioBlock | Event | CaptureSignal]:
    """Blocks, events and signals until the source is finished or `stop` is set.

    retry_s=None: a capture error ends the loop after its Error event; a number: wait that long
    and start the source again, for as long as it takes (never for a recording, which cannot
    come back). The source is stopped when the loop ends, however it ends.
    """
    if source.kind is SourceKind.FILE:
        retry_s = None
    running = failed = False
    reports = _Reports(level_every_s)
    try:
        while not stop.is_set():
            if not running:
                try:
                    source.start()
                except Exception as error:
                    if not failed:  # said once; the retries are silent until one works
                        yield _capture_error(error)
                    failed = True
                    if retry_s is None or stop.wait(retry_s):
                        return
                    continue
                running = True
                if failed:
                    failed = False
                    yield Status(state=State.RUNNING, detail="audio input resumed")
            try:
                samples = source.read(timeout=0.1)
            except Exception as error:
                running, failed = False, True
                yield SOURCE_LOST
                yield _capture_error(error)
                if retry_s is None or stop.wait(retry_s):
                    return
                continue
            if samples is None:
                if source.finished:
                    return
                continue
            yield from reports.of(source)
            yield AudioBlock(samples, source.captured_at if source.realtime else None)
    finally:
        _stop(source)


def _stop(source: AudioSource) -> None:
    try:
        source.stop()
    except Exception:  # closing a vanished device may fail too; nothing is left to lose
        log.warning("could not close the audio source %s", source.name, exc_info=True)
