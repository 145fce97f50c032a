"""The generation settings a translation runs with, as transformers' `generate` (4.57) reads
them: generation_config.json (else config.json's generation keys), overridden by the caller;
and what each setting may be (`SETTINGS`: type and sane range), checked before anything is
allocated, a bad value named with the file or option it came from."""

from __future__ import annotations

import functools
import numbers
from dataclasses import dataclass

from app.shared.errors import QT_TRANSLATE_NOOP, LiveTranslatorError, Text
from app.translation.tokenization import TRANSFORMERS_LOCK


@dataclass(frozen=True)
class GenerationSettings:
    decoder_start_token_id: int
    eos_token_ids: tuple[int, ...]
    pad_token_id: int | None = None
    forced_bos_token_id: int | None = None
    forced_eos_token_ids: tuple[int, ...] = ()
    bad_words_ids: tuple[tuple[int, ...], ...] = ()
    max_length: int = 20  # whole decoder sequence, decoder_start_token_id included (as in generate)
    min_length: int = 0
    min_new_tokens: int = 0
    num_beams: int = 1
    length_penalty: float = 1.0
    early_stopping: bool | str = False
    no_repeat_ngram_size: int = 0
    repetition_penalty: float = 1.0
    suppress_tokens: tuple[int, ...] = ()
    begin_suppress_tokens: tuple[int, ...] = ()
    renormalize_logits: bool = False  # log-softmax again after the processors (opus-mt's configs set it)
    loop_window: int = 12  # loop guard: stop when the last N tokens are one block of <= 4 tokens repeated; 0 = off


# -- what each setting may be ---------------------------------------------------------------------
# Each rule says why a value is wrong (a sentence for people), or None when it is fine.

MAX_BAD_WORDS = 10_000


def _is_int(value) -> bool:
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


@dataclass(frozen=True)
class Whole:
    low: int
    high: int

    def problem(self, value, vocab_size: int | None) -> Text | None:
        if _is_int(value) and self.low <= value <= self.high:
            return None
        return Text(
            QT_TRANSLATE_NOOP("Errors", "it must be a whole number from {low} to {high}"),
            {"low": self.low, "high": self.high},
        )


@dataclass(frozen=True)
class Number:
    low: float
    high: float

    def problem(self, value, vocab_size: int | None) -> Text | None:
        if isinstance(value, (int, float)) and not isinstance(value, bool) and self.low <= value <= self.high:
            return None  # NaN fails the range
        return Text(
            QT_TRANSLATE_NOOP("Errors", "it must be a number from {low} to {high}"),
            {"low": f"{self.low:g}", "high": f"{self.high:g}"},
        )


class EarlyStopping:
    def problem(self, value, vocab_size: int | None) -> Text | None:
        number = isinstance(value, (int, float)) and not isinstance(value, bool)  # 1 == True, yet not a flag
        if value in (True, False, "never") and not number:
            return None
        return Text(QT_TRANSLATE_NOOP("Errors", 'it must be true, false or "never"'))


class Flag:
    def problem(self, value, vocab_size: int | None) -> Text | None:
        return None if isinstance(value, bool) else Text(QT_TRANSLATE_NOOP("Errors", "it must be true or false"))


class Token:
    def problem(self, value, vocab_size: int | None) -> Text | None:
        if not _is_int(value) or value < 0:
            return Text(QT_TRANSLATE_NOOP("Errors", "token ids are whole numbers from 0"))
        if vocab_size and value >= vocab_size:
            return Text(
                QT_TRANSLATE_NOOP("Errors", "the model has only {count} tokens (ids 0 to {last})"),
                {"count": vocab_size, "last": vocab_size - 1},
            )
        return None


@dataclass(frozen=True)
class Tokens:
    """A token id or a list of them (generate takes either)."""

    required: bool = False

    def problem(self, value, vocab_size: int | None) -> Text | None:
        tokens = value if isinstance(value, list) else [value]
        if self.required and not tokens or len(tokens) > MAX_BAD_WORDS:
            return Text(QT_TRANSLATE_NOOP("Errors", "it must be a token id or a short list of them"))
        return next(filter(None, (Token().problem(t, vocab_size) for t in tokens)), None)


class TokenSequences:
    """bad_words_ids: a list of short lists of token ids."""

    def problem(self, value, vocab_size: int | None) -> Text | None:
        if (
            not isinstance(value, list)
            or len(value) > MAX_BAD_WORDS
            or not all(isinstance(seq, list) and 0 < len(seq) <= 64 for seq in value)
        ):
            return Text(
                QT_TRANSLATE_NOOP("Errors", "it must be a list of up to {count} lists of token ids"),
                {"count": MAX_BAD_WORDS},
            )
        return next(filter(None, (Token().problem(t, vocab_size) for seq in value for t in seq)), None)


# Sane ranges, checked before anything is allocated: the decoder's cache holds
# num_beams x max_length positions per layer, so an unbounded value exhausts memory.
# A key not listed here is not checked (and not used).
SETTINGS = {
    "num_beams": Whole(1, 16),
    "max_length": Whole(2, 1024),  # the decoder start token and at least one more
    "max_new_tokens": Whole(1, 1024),
    "min_length": Whole(0, 1024),
    "min_new_tokens": Whole(0, 1024),
    "no_repeat_ngram_size": Whole(0, 32),
    "loop_window": Whole(0, 1024),
    "length_penalty": Number(-10.0, 10.0),
    "repetition_penalty": Number(0.01, 10.0),
    "early_stopping": EarlyStopping(),
    "renormalize_logits": Flag(),
    "decoder_start_token_id": Token(),
    "bos_token_id": Token(),
    "pad_token_id": Token(),
    "forced_bos_token_id": Token(),
    "eos_token_id": Tokens(required=True),
    "forced_eos_token_id": Tokens(),
    "suppress_tokens": Tokens(),
    "begin_suppress_tokens": Tokens(),
    "bad_words_ids": TokenSequences(),
}
INT_LIMITS = {key: (rule.low, rule.high) for key, rule in SETTINGS.items() if isinstance(rule, Whole)}


def check_setting(key: str, value, origin: str, vocab_size: int | None = None) -> None:
    """Raise a LiveTranslatorError naming `origin` (the file or option it came from) when a
    generation setting has the wrong type or lies outside its sane range (SETTINGS)."""
    rule = SETTINGS.get(key)
    why = rule.problem(value, vocab_size) if rule is not None else None
    if why is None:
        return
    shown = repr(value)
    shown = shown if len(shown) <= 80 else shown[:60] + f"… ({len(shown)} characters)"
    raise LiveTranslatorError(
        Text(
            QT_TRANSLATE_NOOP("Errors", "{origin}: {key} is {shown}; {why}."),
            {"origin": origin, "key": key, "shown": shown, "why": why},
        ),
        _hint(origin, key),
    )


def _hint(origin: str, key: str) -> Text:
    if origin.endswith(".json"):
        return Text(
            QT_TRANSLATE_NOOP(
                "Errors",
                "Correct or delete {key} in the model's {origin} (the original model's file has a sane value).",
            ),
            {"key": key, "origin": origin},
        )
    if origin.startswith("--"):
        return Text(QT_TRANSLATE_NOOP("Errors", "Give {origin} a value within the range."), {"origin": origin})
    return Text(QT_TRANSLATE_NOOP("Errors", "Give a {key} within the range."), {"key": key})


# -- where each setting comes from ----------------------------------------------------------------


@functools.cache
def generation_defaults() -> dict:
    """transformers' GenerationConfig: every generation setting it knows, with generate's default
    (None where generate has none). Which keys of config.json count as generation settings, and
    what a setting neither file names is, are its answers (tests/translation/test_generation_config.py
    compares the resolved settings with transformers' own on the fixture models)."""
    with TRANSFORMERS_LOCK:  # transformers' lazy imports race between threads
        from transformers import GenerationConfig

        defaults = GenerationConfig().to_dict()
    for internal in ("transformers_version", "_from_model_config"):
        defaults.pop(internal, None)
    return defaults


def resolve_settings(
    generation_config: dict,
    model_config: dict,
    overrides: dict,
    max_positions: int | None,
    forced_bos_token_id: int | None = None,
    vocab_size: int | None = None,
    override_origin: str = "the options given",
) -> GenerationSettings:
    """generation_config.json (else the generation keys of config.json, as transformers does),
    then `overrides` (non-None values). max_new_tokens wins over max_length, as in generate.
    Every value is checked (check_setting) and a bad one named with the file it came from."""
    values, origins = _gather(generation_config, model_config, overrides, forced_bos_token_id, override_origin)
    for key, value in values.items():
        check_setting(key, value, origins.get(key, "the defaults"), vocab_size)
    start = values.get("decoder_start_token_id", values.get("bos_token_id"))
    eos = _ids(values.get("eos_token_id"))
    if start is None or not eos:
        raise _missing_token("decoder_start_token_id" if start is None else "eos_token_id")
    bad = tuple(tuple(seq) for seq in values.get("bad_words_ids") or () if list(seq) not in [[e] for e in eos])
    return GenerationSettings(
        decoder_start_token_id=int(start),
        eos_token_ids=eos,
        pad_token_id=values.get("pad_token_id"),
        forced_bos_token_id=values.get("forced_bos_token_id"),
        forced_eos_token_ids=_ids(values.get("forced_eos_token_id")),
        bad_words_ids=bad,
        max_length=_max_length(values, max_positions),
        min_length=int(values["min_length"] or 0),
        min_new_tokens=int(values.get("min_new_tokens") or 0),
        num_beams=max(int(values["num_beams"]), 1),
        length_penalty=float(values["length_penalty"]),
        early_stopping=values["early_stopping"],
        no_repeat_ngram_size=int(values["no_repeat_ngram_size"] or 0),
        repetition_penalty=float(values["repetition_penalty"] or 1.0),
        suppress_tokens=_ids(values.get("suppress_tokens")),
        begin_suppress_tokens=_ids(values.get("begin_suppress_tokens")),
        renormalize_logits=bool(values.get("renormalize_logits", False)),
        loop_window=int(values.get("loop_window", 12)),
    )


def _gather(
    generation_config, model_config, overrides: dict, forced_bos_token_id: int | None, override_origin: str
) -> tuple[dict, dict]:
    """(every setting's value, the file or option each came from); defaults have no origin."""
    generation_config = generation_config if isinstance(generation_config, dict) else {}
    model_config = model_config if isinstance(model_config, dict) else {}
    defaults = generation_defaults()
    if generation_config:
        source, origin = dict(generation_config), dict.fromkeys(generation_config, "generation_config.json")
    else:  # a model saved before generation_config.json existed: the generation keys of config.json
        source = {k: model_config[k] for k in defaults if k in model_config}
        origin = dict.fromkeys(source, "config.json")
    for key in ("decoder_start_token_id", "eos_token_id", "pad_token_id"):
        if source.get(key) is None and model_config.get(key) is not None:
            source[key], origin[key] = model_config[key], "config.json"
    for key, value in overrides.items():
        if value is not None:
            source[key], origin[key] = value, override_origin
    if forced_bos_token_id is not None:
        source["forced_bos_token_id"], origin["forced_bos_token_id"] = forced_bos_token_id, "the tokenizer"
    known = {k: v for k, v in defaults.items() if k in SETTINGS and v is not None}
    return {**known, **{k: v for k, v in source.items() if v is not None}}, origin


def _missing_token(missing: str) -> LiveTranslatorError:
    return LiveTranslatorError(
        QT_TRANSLATE_NOOP("Errors", "Neither generation_config.json nor config.json names the model's {missing}."),
        QT_TRANSLATE_NOOP(
            "Errors",
            "Copy config.json and generation_config.json of the original model ({missing} "
            "is usually 0 or 2 for Marian, 2 for M2M100).",
        ),
        missing=missing,
    )


def _max_length(values: dict, max_positions: int | None) -> int:
    """The whole decoder sequence's length: max_new_tokens + the start token when given, never
    past the decoder's position table."""
    max_length = int(values["max_length"])
    if values.get("max_new_tokens") is not None:
        max_length = int(values["max_new_tokens"]) + 1  # the decoder prompt is decoder_start_token_id
    if max_positions is not None:  # the decoder cannot look past its position table
        if not _is_int(max_positions) or max_positions < 2:
            raise LiveTranslatorError(
                QT_TRANSLATE_NOOP(
                    "Errors",
                    "config.json: max_position_embeddings is {value}; it must be a whole number of at least 2.",
                ),
                _hint("config.json", "max_position_embeddings"),
                value=repr(max_positions),
            )
        max_length = min(max_length, max_positions)
    return max(max_length, 1)


def _ids(value) -> tuple[int, ...]:
    if value is None:
        return ()
    return tuple(value) if isinstance(value, (list, tuple)) else (int(value),)
