"""What a caller asks of a translation: `DecodeOptions`, the model's generation settings
overridden, and the diagnostics wanted."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from app.shared.glossary import Glossary


@dataclass(frozen=True)
class DecodeOptions:
    """Overrides of the model's generation_config.json (None: keep the model's value)."""

    num_beams: int | None = None
    max_new_tokens: int | None = None
    max_length: int | None = None
    min_length: int | None = None
    min_new_tokens: int | None = None
    length_penalty: float | None = None
    early_stopping: bool | str | None = None
    no_repeat_ngram_size: int | None = None
    repetition_penalty: float | None = None
    bad_words_ids: list[list[int]] | None = None
    loop_window: int | None = None  # loop guard: last N tokens one repeated block of <= 4 -> stop; 0 = off (default 12)
    verify: bool = False  # recompute every step without the cache and report max_abs_diff
    top_k: int = 5  # alternatives reported per step
    glossary: Glossary | None = None  # terms whose translation the decoder must write


NOT_GENERATION_SETTINGS = ("verify", "top_k", "glossary")


def generation_overrides(options: DecodeOptions | None) -> dict:
    """The options that are generation settings (None: the model's own)."""
    if options is None:
        return {}
    return {
        f.name: getattr(options, f.name) for f in dataclasses.fields(options) if f.name not in NOT_GENERATION_SETTINGS
    }
