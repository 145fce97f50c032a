"""What one start() .. stop() of a Pipeline shares between its stage threads: the flags that
end it, the audio queue from capture to recognition, and the job board from recognition to
translation (app/pipeline/jobs.py)."""

from __future__ import annotations

import queue
import threading
from typing import NamedTuple

import numpy as np

from app.pipeline.jobs import JobBoard

END, FLUSH = "end of input", "flush"  # markers on the audio queue, after the blocks


class Block(NamedTuple):
    """Audio on its way from capture to recognition."""

    samples: np.ndarray  # 16 kHz mono
    captured_at: float | None  # monotonic time the block was captured; None: a recording read flat out


class SessionState:
    """The flags, queues and threads of one session."""

    def __init__(self, board: JobBoard, max_blocks: int):
        self.stop = threading.Event()  # set by stop(), or when the session cannot go on
        self.end_input = threading.Event()  # set by finish() (and stop()): capture ends, the rest drains
        self.closed = False  # stop() has begun (from the caller, or from a stage that died)
        self.ready = threading.Event()  # recognizer loaded: capture may begin
        self.translator_loaded = threading.Event()  # (or failed to): a large glossary's build may begin
        self.done = threading.Event()  # input ended and all work drained, or stopped
        self.audio: queue.Queue[Block | str] = queue.Queue(maxsize=max_blocks)  # blocks, FLUSH, END
        self.board = board
        self.threads: list[threading.Thread] = []

    def put_audio(self, item: Block | str) -> bool:
        """Hand audio (or a marker) to recognition; False if the session stopped first."""
        while not self.stop.is_set():
            try:
                self.audio.put(item, timeout=0.1)
                return True
            except queue.Full:
                continue  # recognition is busy: hold back (a microphone buffers and reports overflow)
        return False
