"""What the stages tell their observers: plain, immutable dataclasses.

This is the contract between the core and everything that watches it (the window, the
`run --json` command line, tests). Every event carries `emitted_at` (time.monotonic()
seconds, the pipeline's clock) and serialises to one JSON object whose `type` field names it.
Audio times (`start`, `end`) are seconds from the start of the session's audio.

Events cross threads (the pipeline's threads emit, the window, the caption server and the
transcript read), so they hold immutable data only: a list or dict given to one becomes a tuple
or a read-only mapping (`frozen`), and `to_json` gives plain lists and dicts back.

The enums' values are the strings the JSON has always carried ("asr", "running", "eos", ...).

In a conversation (two sources at once) every event of one side carries `speaker` ("me": the
microphone, "them": system audio); elsewhere it is None and left out of the JSON, so output
outside a conversation is unchanged.
"""

from __future__ import annotations

import dataclasses
import time
import types
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, ClassVar

from app.shared.errors import QT_TRANSLATE_NOOP, Text
from app.shared.languages import Direction, Language


class Stage(StrEnum):
    """Which part of the chain an Error comes from."""

    CAPTURE = "capture"
    ASR = "asr"
    TRANSLATION = "translation"
    TTS = "tts"
    TRANSCRIPT = "transcript"
    GLOSSARY = "glossary"  # a glossary edited mid-session could not be used (the previous one stays)


class State(StrEnum):
    """A pipeline's states, as Status events report them."""

    LOADING = "loading"
    RUNNING = "running"
    DIRECTION = "direction"  # the direction changed; `detail` names the new one
    FINISHED = "finished"  # a recording has been fully processed
    STOPPED = "stopped"


class Speaker(StrEnum):
    """Who said an utterance, in a conversation."""

    ME = "me"  # the microphone: the user
    THEM = "them"  # system audio: the other side of a call, a video, a stream
    GUEST = "guest"  # a guest's phone, through the caption page (events also carry `speaker_name`)


class Spoken(StrEnum):
    """Whose translations a conversation speaks aloud (`run --speak`, the window's setting)."""

    THEM = "them"
    ME = "me"
    BOTH = "both"

    @property
    def speakers(self) -> frozenset[Speaker]:
        return frozenset(Speaker) if self is Spoken.BOTH else frozenset({Speaker(self.value)})


class StopReason(StrEnum):
    """Why the decoder stopped a sentence."""

    EOS = "eos"
    LENGTH = "length"
    LOOP = "loop"  # the loop guard saw one block of tokens repeating
    CANCELLED = "cancelled"


def frozen(value: Any) -> Any:
    """`value` with every list made a tuple, every dict a read-only mapping, every set a frozenset."""
    if isinstance(value, list | tuple):
        return tuple(frozen(item) for item in value)
    if isinstance(value, dict | types.MappingProxyType):
        return types.MappingProxyType({key: frozen(item) for key, item in value.items()})
    if isinstance(value, set):
        return frozenset(value)
    return value


def thawed(value: Any) -> Any:
    """A frozen mapping as the plain dict (lists inside) it was made from, for JSON."""
    if isinstance(value, Mapping):
        return {key: thawed(item) for key, item in value.items()}
    if isinstance(value, tuple):
        return [thawed(item) for item in value]
    return value


def _freeze_fields(instance: Any) -> None:
    for f in dataclasses.fields(instance):
        value = getattr(instance, f.name)
        if isinstance(value, list | dict | set):
            object.__setattr__(instance, f.name, frozen(value))


@dataclass(frozen=True)
class DecodeStep:
    """One decoder step: the token chosen, its alternatives, the cache lengths, the time taken."""

    sentence_index: int
    step: int
    token_id: int
    token: str
    top: tuple[tuple[int, str, float], ...]  # (token_id, token, log-probability), best first
    self_kv_len: int  # self-attention cache length after this step
    cross_kv_len: int  # cross-attention cache length (the encoder's sequence length)
    used_cache_branch: bool  # this step read a cache (False on step 0 and without a cache)
    ms: float
    max_abs_diff: float | None = None  # verify mode: largest |logit(cached) - logit(recomputed)|
    forced: bool = False  # a glossary constraint put this token here (it belongs to a term being written)

    def __post_init__(self) -> None:
        _freeze_fields(self)

    def to_json(self) -> dict:
        data = dataclasses.asdict(self)
        data["top"] = [list(t) for t in self.top]
        if self.max_abs_diff is None:
            del data["max_abs_diff"]
        if not self.forced:  # only steps a glossary forced carry it
            del data["forced"]
        return data


def _now() -> float:
    return time.monotonic()


def window_text() -> Any:
    """A field holding a sentence as a template and its values, for the window to translate
    (app/ui/i18n.py): left out of the JSON, which stays English, and of comparisons."""
    return field(default=None, kw_only=True, compare=False, metadata={"json": False})


@dataclass(frozen=True)
class Event:
    """The base of every event. A subclass names its JSON `type` in its class line:
    `class SourceFinal(SourceText, type="final")`."""

    type: ClassVar[str] = "event"
    emitted_at: float = field(default_factory=_now, kw_only=True)
    speaker: Speaker | None = field(default=None, kw_only=True)  # set in a conversation only
    speaker_name: str | None = field(default=None, kw_only=True)  # a guest's name ("Guest 1"): guest speech only
    # Fields left out of the JSON while None, so output without them is as it always was
    # (speaker: outside a conversation; language fields: outside a face-to-face session).
    _OPTIONAL: ClassVar[frozenset[str]] = frozenset({"speaker", "speaker_name", "language", "language_confidence"})

    def __init_subclass__(cls, type: str | None = None, **kwargs):
        super().__init_subclass__(**kwargs)
        if type is not None:
            cls.type = type

    def __post_init__(self) -> None:
        _freeze_fields(self)

    def to_json(self) -> dict[str, Any]:
        data = {"type": self.type}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if value is None and f.name in self._OPTIONAL:
                continue  # e.g. outside a conversation the JSON stays as it always was
            if not f.metadata.get("json", True):
                continue  # for the window only (`window_text`)
            if hasattr(value, "to_json"):
                value = value.to_json()
            elif isinstance(value, Mapping):
                value = thawed(value)
            data[f.name] = value
        return data

    def said_by(self, speaker: Speaker | None) -> Event:
        """This event labelled with who spoke (itself when already labelled, or no speaker)."""
        if speaker is None or self.speaker is not None:
            return self
        return dataclasses.replace(self, speaker=Speaker(speaker))


@dataclass(frozen=True)
class UtteranceEvent(Event):
    """An event about one utterance (one stretch of speech between pauses)."""

    utterance_id: int


@dataclass(frozen=True)
class SourceText(UtteranceEvent):
    """Recognised text of an utterance, and where it sits in the session's audio."""

    text: str
    start: float
    end: float
    # Character spans of `text` Whisper was unsure of: (start, end, probability).
    low_confidence: tuple[tuple[int, int, float], ...] = field(default=(), kw_only=True)
    # Face to face (direction auto): the language this utterance was decided to be in; None otherwise.
    language: Language | None = field(default=None, kw_only=True)


@dataclass(frozen=True)
class SourcePartial(SourceText, type="partial"):
    """A live hypothesis for the utterance being spoken.

    `committed` is the stable prefix (agreed by successive hypotheses, never retracted by a
    later partial; the final may revise it, see SourceFinal.revised);
    `text` is the whole current hypothesis, of which `committed` is a prefix.
    """

    committed: str


@dataclass(frozen=True)
class SourceFinal(SourceText, type="final"):
    """The settled text of one utterance. `speech_end_at` is the monotonic time speech ended.

    `revised`: the committed text of this utterance's partials that the final decode changed
    ("" when `text` starts with it, the usual case); observers showing the committed text should
    replace it with `text` and mark the change."""

    speech_end_at: float
    revised: str = ""
    # Face to face: how sure the decision of `language` is, 0..1 (1.0: chosen by hand); None otherwise.
    language_confidence: float | None = field(default=None, kw_only=True)


@dataclass(frozen=True)
class Translation(UtteranceEvent, type="translation"):
    """A translation of an utterance's text. A provisional one may be replaced by a later
    one for the same utterance; a final one (provisional=False) never changes."""

    source: str
    text: str
    provisional: bool
    direction: Direction
    latency_ms: float | None  # end of speech -> this translation; None for provisional ones
    # Character spans of `text` the decoder was unsure of, (start, end, probability), and for
    # each the alternatives it considered, ((text, probability), ...) best first.
    low_confidence: tuple[tuple[int, int, float], ...] = ()
    alternatives: tuple[tuple[tuple[str, float], ...], ...] = ()
    # How many characters of `text` are settled: later provisional translations of the
    # utterance keep them (until the final). A final one is settled whole.
    stable: int | None = None
    # Face to face: the final's language_confidence (how sure its language, hence `direction`, is).
    language_confidence: float | None = field(default=None, kw_only=True)


@dataclass(frozen=True)
class CaptionCorrected(UtteranceEvent, type="corrected"):
    """An utterance's caption again, after the user corrected it (the window's Correct… dialog):
    `source` and `text` (its translation, "" when it has none) replace what observers show of
    it, marked as corrected. The correction itself goes into the glossary for what follows."""

    source: str
    text: str


@dataclass(frozen=True)
class DecoderEvent(UtteranceEvent):
    """What the translation worker reports while it decodes, for a provisional or a final translation."""

    provisional: bool


@dataclass(frozen=True)
class DecodeStepEvent(DecoderEvent, type="step"):
    """One decoder step of the translation worker, for the diagnostics panel: the token chosen,
    its alternatives, the cache lengths, the time it took."""

    step: DecodeStep


@dataclass(frozen=True)
class SentenceSummary(DecoderEvent, type="sentence"):
    """One translated sentence (`SentenceResult.to_json(with_steps=False)`): encoder_ms,
    decode_ms, tokens, tokens_per_s, stop_reason, ..."""

    summary: Mapping[str, Any]  # read-only; to_json gives the dict


@dataclass(frozen=True)
class Speech(UtteranceEvent, type="speech"):
    """The speech output spoke (or wrote to a file) a translation."""

    text: str
    language: Language
    path: str | None = None
    # The voice that spoke it (`run --voice` names: "piper:en_US-joe-medium", "gmw/en-us"); None:
    # the system engine's own default.
    voice: str | None = None


@dataclass(frozen=True)
class Level(Event, type="level"):
    """Microphone level for a meter, 0.0 (silence) .. 1.0 (full scale), a few times a second."""

    rms: float
    peak: float


@dataclass(frozen=True)
class SentLevel(Event, type="sent-level"):
    """Level of the speech being played on a chosen output (the virtual microphone: what the call
    hears), for a meter, 0.0 .. 1.0, every 50 ms while it plays and 0 when it ends."""

    rms: float
    peak: float
    device: str


@dataclass(frozen=True)
class Status(Event, type="status"):
    """State changes; `detail` in words."""

    state: State
    detail: str = ""


@dataclass(frozen=True)
class Error(Event, type="error"):
    """Something failed; the pipeline goes on. `text` is the message for people; `hint` what
    to do about it."""

    stage: Stage
    text: str
    hint: str = ""
    utterance_id: int | None = None
    # The same two sentences as templates and values, for the window to translate.
    message_text: Text | None = window_text()
    hint_text: Text | None = window_text()

    @classmethod
    def of(cls, stage: Stage, message: Text, hint: Text | str = "", utterance_id: int | None = None, **kwargs) -> Error:
        """An Error whose text and hint are templates: English in `text`/`hint`, translatable in the window."""
        hint = hint if isinstance(hint, Text) else Text(hint)
        return cls(
            stage=stage,
            text=str(message),
            hint=str(hint),
            utterance_id=utterance_id,
            message_text=message,
            hint_text=hint,
            **kwargs,
        )


class RoomProblem(StrEnum):
    """What is wrong with the input, as a Room event names it."""

    OK = "ok"  # fine again after a problem
    QUIET = "quiet"  # speech too quiet: the talker far away or the gain low
    CLIPPING = "clipping"  # the input is overdriven
    NOISY = "noisy"  # noise close to the speech level
    ZEROS = "zeros"  # only exact zeros: a muted or broken input
    DC_OFFSET = "dc-offset"  # the signal sits off zero: a faulty microphone or sound card
    HUM = "hum"  # mains hum (50/60 Hz) dominates: a ground loop, an unshielded cable
    RATE = "rate"  # the device delivers more or fewer samples per second than its rate says


# What each problem is and what to do, in English and marked for the window's translations.
_ROOM_TEXTS = {
    RoomProblem.OK: (
        QT_TRANSLATE_NOOP("Errors", "The input sounds fine again."),
        "",
    ),
    RoomProblem.QUIET: (
        QT_TRANSLATE_NOOP("Errors", "The speech is very quiet ({measured} dBFS)."),
        QT_TRANSLATE_NOOP("Errors", "Move the microphone closer or raise the input gain."),
    ),
    RoomProblem.CLIPPING: (
        QT_TRANSLATE_NOOP("Errors", "The input is clipping (too loud)."),
        QT_TRANSLATE_NOOP("Errors", "Lower the input gain or move the microphone away from the mouth."),
    ),
    RoomProblem.NOISY: (
        QT_TRANSLATE_NOOP("Errors", "The room is noisy: speech is only {measured} dB above the noise."),
        QT_TRANSLATE_NOOP(
            "Errors", "Move the microphone closer to the speaker or away from the noise (a fan, a road)."
        ),
    ),
    RoomProblem.ZEROS: (
        QT_TRANSLATE_NOOP("Errors", "The input delivers only silence (digital zeros)."),
        QT_TRANSLATE_NOOP("Errors", "Check that the microphone is not muted, or choose another input."),
    ),
    RoomProblem.DC_OFFSET: (
        QT_TRANSLATE_NOOP("Errors", "The input signal is offset from zero (DC offset)."),
        QT_TRANSLATE_NOOP("Errors", "The microphone or sound card may be faulty: try another input."),
    ),
    RoomProblem.HUM: (
        QT_TRANSLATE_NOOP("Errors", "The input carries a loud mains hum."),
        QT_TRANSLATE_NOOP("Errors", "Check the microphone cable and ground; try another USB port or input."),
    ),
    RoomProblem.RATE: (
        QT_TRANSLATE_NOOP("Errors", "The input delivers audio at {measured} times the sample rate it states."),
        QT_TRANSLATE_NOOP(
            "Errors",
            "Its sample rate is set wrong (a driver or sound settings): choose another input, "
            "or set the device's rate in the system's sound settings.",
        ),
    ),
}


@dataclass(frozen=True)
class Room(Event, type="room"):
    """What the input sounds like when it hurts recognition (RoomProblem), measured from the
    audio heard, with what to do; problem "ok" once it is fine again. `measured`: the figure
    behind it (quiet: speech dBFS; noisy: SNR dB; clipping: share of samples at full scale;
    zeros: seconds; dc-offset: the mean; hum: share of power at mains frequencies; rate: samples
    delivered per second over the rate stated, app.audio.rate_check). `at_s`:
    seconds of audio heard when it was measured."""

    problem: RoomProblem
    measured: float
    at_s: float
    text: str
    hint: str
    message_text: Text | None = window_text()
    hint_text: Text | None = window_text()

    @classmethod
    def of(cls, problem: RoomProblem, measured: float, at_s: float) -> Room:
        message, hint = _ROOM_TEXTS[problem]
        message_text = Text(message, {"measured": f"{measured:g}"})
        hint_text = Text(hint)
        return cls(
            problem=problem,
            measured=measured,
            at_s=round(at_s, 2),
            text=str(message_text),
            hint=str(hint_text),
            message_text=message_text,
            hint_text=hint_text,
        )
