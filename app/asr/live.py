"""The recognition loop: read a source through the capture loop, feed the recognizer, yield
every event on the way.

Capture trouble never ends the loop by surprise (app.audio.capture): a device that is missing
or vanishes becomes an Error event, after the speech heard so far is finalized; with `retry_s`
the source is started again until it comes back.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator

from app.asr.recognizer import StreamingRecognizer
from app.audio import SOURCE_LOST, AudioBlock, capture
from app.shared.audio import AudioSource
from app.shared.events import Event


def recognize(
    source: AudioSource,
    recognizer: StreamingRecognizer,
    *,
    stop: threading.Event | None = None,
    retry_s: float | None = None,
    level_every_s: float = 0.2,
) -> Iterator[Event]:
    """Events until the source is finished or `stop` is set (then the last utterance is finalized).

    retry_s=None: a capture error ends the loop after its Error event; a number: wait that long
    and start the source again, for as long as it takes.
    """
    for item in capture(source, stop or threading.Event(), retry_s=retry_s, level_every_s=level_every_s):
        if isinstance(item, AudioBlock):
            yield from recognizer.feed(item.samples, captured_at=item.captured_at)
        elif item is SOURCE_LOST:
            yield from recognizer.flush()  # keep what was said before the device went away
        else:
            yield item
    yield from recognizer.flush()
