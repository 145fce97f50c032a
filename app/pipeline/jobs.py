"""When a recognised text is translated: the one place that schedules the translation worker.

                                  ┌──────────────── JobBoard ─────────────────┐
    recognition ──submit_final──▶ │ finals   FIFO, bounded: recognition waits │ ──take──▶ translation
                ──offer_partial─▶ │ partial  one slot: only the latest        │ ◀──done──  worker
 set_direction ─switch_direction▶ │ running  the job being decoded + cancel   │
        stop() ──────close──────▶ └───────────────────────────────────────────┘

The rules, all of them here:
- Finals go first, in the order they were heard. At most `max_finals` wait: recognition waits
  for room (the decode in flight is never dropped for it).
- A partial waits in a one-slot mailbox: a newer one replaces it, so only the latest partial is
  translated provisionally, and only when no final waits and the worker is free.
- A partial is dropped, never translated, when its utterance's final has been submitted or
  translated, when the direction changed after it was heard, or when the audio it came from
  waited over SKIP_PROVISIONAL_BEHIND_S for recognition (the CPU is needed to catch up).
- A final cancels the provisional decode in flight, unless that decode is the final's own
  (`same_decode`: same text, direction and options); the final then waits for it and reuses
  its output (app/pipeline/reuse.py).
- A direction switch drops the waiting partial and cancels a provisional decode in flight.
- end_input(): recognition has ended; take() hands out what waits, then returns None.
  close(): the session stops; take() returns None at once and the decode in flight is cancelled.

Nothing else in the pipeline takes this board's lock.
"""

from __future__ import annotations

import collections
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

from app.shared.events import SourceFinal, SourcePartial
from app.shared.languages import Direction

# Audio waited this long for recognition (a backlog: the machine cannot keep up): no provisional
# translation until it has caught up. Measured before the decode, so a partial's own decode time
# (a few tenths of a second) does not count: with the 30 s window it did, and every provisional
# translation was dropped (issue 22).
SKIP_PROVISIONAL_BEHIND_S = 1.0


@dataclass
class Job:
    """A recognised text to translate, in the direction it was heard in."""

    event: SourcePartial | SourceFinal
    direction: Direction
    again: bool = False  # face to face: an utterance heard again the other way (its caption is corrected)

    @property
    def provisional(self) -> bool:
        return isinstance(self.event, SourcePartial)


class Running(NamedTuple):
    """The job the translation worker is on, and the flag that cancels its decode."""

    job: Job
    cancel: threading.Event


class JobBoard:
    """The translation jobs of one session (one recognition thread submits, one worker takes)."""

    def __init__(
        self,
        direction: Direction,
        *,
        max_finals: int,
        translate_partials: bool = True,
        same_decode: Callable[[Job, Job], bool] = lambda provisional, final: False,
    ):
        self._cond = threading.Condition()
        self._finals: collections.deque[Job] = collections.deque()
        self._partial: Job | None = None
        self._running: Running | None = None
        self._last_final_id = -1  # the latest utterance whose final was translated
        self._direction = direction
        self._input_ended = False
        self._closed = False
        self._max_finals = max_finals
        self._translate_partials = translate_partials
        self._same_decode = same_decode
        self.behind_s = 0.0  # how long the audio last taken by recognition had waited for it

    # -- recognition's side ----------------------------------------------------------------
    def submit_final(self, job: Job) -> None:
        """Queue a final (waits while `max_finals` wait already, unless the board is closed)."""
        with self._cond:
            while len(self._finals) >= self._max_finals and not self._closed:
                self._cond.wait(0.1)
            self._finals.append(job)
            if self._partial and self._partial.event.utterance_id <= job.event.utterance_id:
                self._partial = None
            running = self._running.job if self._running else None
            if running and running.provisional and not self._same_decode(running, job):
                self._running.cancel.set()  # a final outranks any provisional translation
            self._cond.notify_all()

    def offer_partial(self, job: Job) -> None:
        """The utterance's latest partial: it replaces any partial still waiting."""
        if not self._translate_partials:
            return
        with self._cond:
            self._partial = job
            self._cond.notify_all()

    def end_input(self) -> None:
        """Recognition has ended: nothing more will be submitted."""
        with self._cond:
            self._input_ended = True
            self._cond.notify_all()

    # -- the translation worker's side -----------------------------------------------------
    def take(self) -> Running | None:
        """The next job (finals first), waiting for one; None when the board is closed, or input
        has ended and nothing waits."""
        with self._cond:
            while True:
                if self._closed:
                    return None
                if self._finals:
                    job = self._finals.popleft()
                    self._cond.notify_all()  # room for a final recognition holds
                elif self._partial is not None:
                    job, self._partial = self._partial, None
                    if self._stale(job):
                        continue
                elif self._input_ended:
                    return None
                else:
                    self._cond.wait(0.2)
                    continue
                self._running = Running(job, threading.Event())
                return self._running

    def _stale(self, partial: Job) -> bool:
        """Not worth translating: its final is in, the direction changed, or recognition lags."""
        return (
            partial.event.utterance_id <= self._last_final_id
            or partial.direction != self._direction
            or self.behind_s > SKIP_PROVISIONAL_BEHIND_S
        )

    def done(self, running: Running) -> None:
        """The worker has finished (or given up) `running`."""
        with self._cond:
            if self._running is running:
                self._running = None
            if not running.job.provisional:
                self._last_final_id = max(self._last_final_id, running.job.event.utterance_id)

    # -- control ---------------------------------------------------------------------------
    def switch_direction(self, direction: Direction) -> None:
        """Cancel provisional work: the partial waiting and a provisional decode in flight; later
        partials heard in another direction than `direction` are dropped."""
        with self._cond:
            self._direction = direction
            self._partial = None
            if self._running and self._running.job.provisional:
                self._running.cancel.set()

    def close(self) -> None:
        """Stop: take() returns None, the decode in flight is cancelled, a waiting submit returns."""
        with self._cond:
            self._closed = True
            if self._running:
                self._running.cancel.set()
            self._cond.notify_all()
