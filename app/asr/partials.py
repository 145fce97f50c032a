"""When Whisper re-reads the utterance in progress, and what those readings show.

A partial decode (greedy) re-reads the utterance after every `partial_interval_s` of new audio,
stretched while decodes are slow; never in a pause (the final may be near: Whisper stays free
for it), and not while recognition lags behind the capture. The longest prefix on which the
latest hypotheses agree is committed and never taken back while the utterance is live (local
agreement, as whisper_streaming does). In a pause the final decode runs early, on exactly the
audio the final will keep, and its text is shown as the utterance's last partial. The final's
text then settles what partials committed (`settle`).
"""

from __future__ import annotations

import time

from app.asr.guards import drop_repeated_sentences, off_language
from app.asr.options import RecognizerOptions
from app.asr.segmenter import Segmenter, Utterance
from app.asr.units import common_prefix, extend_committed, join_units, units_of
from app.shared.audio import SAMPLE_RATE
from app.shared.events import SourcePartial


class PartialSchedule:
    """Decides when the utterance in progress is read again, and turns readings into partials."""

    def __init__(self, options: RecognizerOptions, segments: Segmenter):
        self.options = options
        self._segments = segments
        self.cost = 0.0  # seconds a partial decode takes lately (a moving average)

    def interval_s(self) -> float:
        """New audio between two live partials: the option, stretched while decodes are slow."""
        return max(self.options.partial_interval_s, self.cost / max(self.options.partial_share, 0.05))

    def note_cost(self, seconds: float) -> None:
        self.cost = seconds if self.cost == 0.0 else 0.5 * (self.cost + seconds)

    def partial_due(self, u: Utterance, captured_at: float | None) -> bool:
        """Time for a partial decode of `u` (the audio's last sample captured at `captured_at`)."""
        opts, samples = self.options, self._segments.samples
        return (
            not self._segments.in_pause  # in a pause, the final may be near: keep Whisper free for it
            and self._fresh(captured_at)
            and self._spoken(u)
            and samples - u.start >= opts.first_partial_s * SAMPLE_RATE
            and samples - u.decoded_until >= self._interval(captured_at) * SAMPLE_RATE
        )

    def speculation_end(self, u: Utterance, captured_at: float | None) -> int | None:
        """Where a speculative final decode of `u` should end, when one is due now: in a pause,
        once all the audio the final keeps is here, and not again for the same end."""
        if not (self._segments.in_pause and self._spoken(u) and self._fresh(captured_at)):
            return None
        end = self._segments.final_end(u)
        if end <= self._segments.samples and (u.early is None or u.early[0] != end):
            return end
        return None

    def read(self, u: Utterance, heard: str, language: str, fields: dict) -> list:
        """A partial decode's text: agreement with the readings before, and the partial to show
        (with these extra `fields`: face to face, the decided language)."""
        if off_language(heard, language):
            return []
        hypothesis = extend_committed(u.committed, units_of(heard))
        needed = self.options.agreement.get(language, 2)
        u.history = (u.history + [hypothesis])[-needed:]
        if len(u.history) == needed:
            agreed = min(common_prefix(h, hypothesis) for h in u.history[:-1])
            if agreed > len(u.committed):
                u.committed = hypothesis[:agreed]
        return self._shown(u, hypothesis, fields)

    def show_early(self, u: Utterance, language: str, fields: dict) -> list:
        """The speculative final decode's text as the utterance's latest partial: unless speech
        resumes it is what the final will say, so its translation can start while the pause is
        still being timed (the pipeline's final then reuses it). Not when it revises committed
        text: only the final itself may take back what partials committed."""
        heard = units_of(u.early[1].text)
        if not heard or off_language(u.early[1].text, language) or common_prefix(u.committed, heard) < len(u.committed):
            return []
        return self._shown(u, extend_committed(u.committed, heard), fields)

    def settle(self, committed: list[str], heard: list[str]) -> tuple[str, str]:
        """(final text, the committed text it revised or ""). The final decode reads the whole utterance
        (beam search where app.asr.decoding says): it wins over the partials' agreement. An empty
        final decode (filtered as an invention) keeps what was committed rather than erase it. The
        final as assembled is guarded against a sentence said twice too (committed text +
        continuation)."""
        if not self.options.revise_committed or not heard or common_prefix(committed, heard) == len(committed):
            return drop_repeated_sentences(join_units(extend_committed(committed, heard))), ""
        return drop_repeated_sentences(join_units(heard)), join_units(committed)

    def _shown(self, u: Utterance, hypothesis: list[str], fields: dict) -> list:
        """A partial event for `hypothesis`, unless it shows nothing new."""
        text, committed = join_units(hypothesis), join_units(u.committed)
        if not text or (text, committed) == u.shown:
            return []
        u.shown = (text, committed)
        return [
            SourcePartial(
                utterance_id=u.id,
                text=text,
                committed=committed,
                start=u.start / SAMPLE_RATE,
                end=self._segments.samples / SAMPLE_RATE,
                **fields,
            )
        ]

    def _interval(self, captured_at: float | None) -> float:
        # Audio read flat out (no capture clock) has no speaker to keep up with: the plain interval.
        return self.interval_s() if captured_at is not None else self.options.partial_interval_s

    def _fresh(self, captured_at: float | None) -> bool:
        """Recognition keeps up: audio captured longer than `max_lag_s` ago is a backlog."""
        return captured_at is None or time.monotonic() - captured_at <= self.options.max_lag_s

    def _spoken(self, u: Utterance) -> bool:
        return u.speech_s >= self.options.min_speech_s
