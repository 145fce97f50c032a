"""The hand-over between a device's own thread and the reader, shared by the live sources.

A device thread puts mono blocks in; the reader takes all of them at once. The buffer holds at
most `buffer_s` seconds: when the reader falls that far behind, the oldest audio is dropped and
counted in `overflow_s` instead of memory growing. The device thread reports a failure with
`fail()`; `take()` also calls it a failure when no block came for `stall_s` (`start_timeout_s`
before the first block: some devices take ~2 s to start, seen here with ALSA's pulse plugin and
a null sink's monitor).
"""

from __future__ import annotations

import collections
import threading
import time

import numpy as np


class BlockBuffer:
    def __init__(self, buffer_s: float, stall_s: float, start_timeout_s: float):
        self.buffer_s, self.stall_s, self.start_timeout_s = buffer_s, stall_s, start_timeout_s
        self.cond = threading.Condition()  # also guards what a source keeps beside the blocks
        self.failure: str | None = None
        self.overflow_s = 0.0  # audio dropped because nobody read it in time (seconds, cumulative)
        self._blocks: collections.deque[tuple[np.ndarray, float]] = collections.deque()
        self._buffered = 0
        self._rate = 16_000
        self._last_block = 0.0
        self._flowing = False  # the first block has arrived

    def reset(self, rate: int) -> None:
        """Empty, before a (re)start at `rate` samples per second; the stall clock starts now."""
        with self.cond:
            self._blocks.clear()
            self._buffered, self._rate, self.failure = 0, rate, None
            self._last_block, self._flowing = time.monotonic(), False

    def alive(self) -> None:
        """The device answered (opened) without a block yet: the stall clock starts again."""
        with self.cond:
            self._last_block = time.monotonic()
            self.cond.notify_all()

    # -- the device's thread ----------------------------------------------------------------
    def put(self, mono: np.ndarray, at: float) -> None:
        with self.cond:
            self._last_block, self._flowing = at, True
            self._blocks.append((mono, at))
            self._buffered += len(mono)
            while self._buffered > self.buffer_s * self._rate and len(self._blocks) > 1:
                dropped, _ = self._blocks.popleft()
                self._buffered -= len(dropped)
                self.overflow_s += len(dropped) / self._rate
            self.cond.notify_all()

    def fail(self, why: str) -> None:
        """The device stopped; the first reason given is the one reported."""
        with self.cond:
            if self.failure is None:
                self.failure = why
            self.cond.notify_all()

    # -- the reader's thread ----------------------------------------------------------------
    def take(self, timeout: float) -> tuple[list[tuple[np.ndarray, float]], str | None]:
        """Every block since the last call (waiting up to `timeout` for one), and the failure
        that ends the device, if any (only reported once nothing is left to read)."""
        with self.cond:
            if not self._blocks and self.failure is None:
                self.cond.wait(timeout)
            blocks = list(self._blocks)
            self._blocks.clear()
            self._buffered = 0
            failure = self.failure
            limit = self.stall_s if self._flowing else self.start_timeout_s
            if not blocks and failure is None and time.monotonic() - self._last_block > limit:
                failure = f"no audio for {limit:g} s"
        return blocks, failure
