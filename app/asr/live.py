"""The recognition loop: read a source, feed the recognizer, yield every event on the way.

Capture trouble never ends the loop by surprise: a microphone that is missing or vanishes
becomes an Error event (after the speech heard so far is finalized), and with `retry_s` the
loop tries to start the source again until it comes back, then says so with a Status event.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

from app.asr.recognizer import StreamingRecognizer
from app.shared.errors import LiveTranslatorError
from app.shared.events import Error, Event, Level, Status


def recognize(source, recognizer: StreamingRecognizer, *, stop: threading.Event | None = None,
              retry_s: float | None = None, level_every_s: float = 0.2) -> Iterator[Event]:
    """Events until the source is finished or `stop` is set (then the last utterance is finalized).

    retry_s=None: a capture error ends the loop after its Error event; a number: wait that long
    and start the source again, for as long as it takes.
    """
    stop = stop or threading.Event()
    running = failed = False
    next_level = 0.0
    overflow_reported = 0.0
    try:
        while not stop.is_set():
            if not running:
                try:
                    source.start()
                except LiveTranslatorError as error:
                    if not failed:
                        yield Error(stage="capture", text=error.message, hint=error.hint)
                    failed = True
                    if retry_s is None or stop.wait(retry_s):
                        return
                    continue
                running = True
                if failed:
                    failed = False
                    yield Status(state="running", detail="audio input is back")
            try:
                block = source.read(timeout=0.1)
            except LiveTranslatorError as error:
                running, failed = False, True
                yield from recognizer.flush()  # keep what was said before the device went away
                yield Error(stage="capture", text=error.message, hint=error.hint)
                if retry_s is None or stop.wait(retry_s):
                    return
                continue
            if block is None:
                if source.finished:
                    break
                continue
            yield from recognizer.feed(block, captured_at=source.captured_at or None)
            if time.monotonic() >= next_level:
                next_level = time.monotonic() + level_every_s
                yield Level(rms=source.level[0], peak=source.level[1])
            if source.overflow_s > overflow_reported:
                overflow_reported = source.overflow_s
                yield Error(stage="capture", text=f"Recognition fell behind: {overflow_reported:.1f} s of audio were dropped.",
                            hint="Use a smaller Whisper model (e.g. tiny.en for English) or close other busy programs.")
        yield from recognizer.flush()
    finally:
        source.stop()
