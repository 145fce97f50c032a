"""How soon live (partial) text appears, against how much it changes: one setting, three steps.

The recognizer maps it to how often it re-reads the utterance and how many readings must agree
before text is committed (app.asr.options.RecognizerOptions.paced), and to how much of a
provisional translation is shown (app.pipeline.calm.RULES: only SOONER shows the guessed
tail). Tuned by bench/live_text.py (docs/performance.md, "Live text").
"""

from __future__ import annotations

from enum import StrEnum


class LiveText(StrEnum):
    SMOOTHER = "smoother"  # fewer, steadier updates
    BALANCED = "balanced"
    SOONER = "sooner"  # more updates, sooner, that change more

    @classmethod
    def parse(cls, value: str | None) -> LiveText:
        """The choice named `value`; BALANCED for nothing or a name it does not know (a hand-edited setting)."""
        try:
            return cls(value) if value else cls.BALANCED
        except ValueError:
            return cls.BALANCED
