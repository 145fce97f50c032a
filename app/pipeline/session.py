"""What the window and `python -m app run` do with a session, whichever kind it is.

A session is a `Pipeline` (one source), a `Conversation` (two pipelines: me on the
microphone, them on system audio) or either `WithGuests` (app/pipeline/guests.py: guests speaking
through the caption page). Both follow `Session`, so a caller never asks which kind it
holds: it starts, stops, switches and reads the transcript the same way. `speakers` says who is
heard (empty for a single pipeline, whose events carry no speaker).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, runtime_checkable

from app.shared.chinese import ChineseScript
from app.shared.events import CaptionCorrected, Event, Speaker
from app.shared.glossary import Glossary
from app.shared.languages import Direction, Language

if TYPE_CHECKING:
    from app.pipeline.transcript import Transcript
    from app.tts import SpeechOutput


@runtime_checkable
class Session(Protocol):
    """A running translation session. Every method may be called from any thread; start()
    returns at once (models load on the session's threads) and events go to its `on_event`."""

    speech_output: SpeechOutput  # the voice of the session (set_voice; a conversation's two sides share it)

    @property
    def transcript(self) -> Transcript | None:
        """The JSONL transcript being written (None: not saving, or not started)."""

    @property
    def direction(self) -> Direction:
        """The direction of what is heard (in a conversation: what I say)."""

    @property
    def speakers(self) -> frozenset[Speaker]:
        """Who is heard, each event labelled with one of them; empty for a single source."""

    @property
    def running(self) -> bool: ...

    def start(self) -> None: ...

    def stop(self, timeout: float = 10.0) -> None:
        """Cancel what is in flight and join every thread; safe to call twice."""

    def finish(self, timeout: float = 30.0) -> None:
        """Stop listening, translate what was heard, then stop."""

    def end_input(self) -> None:
        """Stop listening, as if the input had ended (returns at once; finish() also waits and stops)."""

    def wait_until_done(self, timeout: float | None = None) -> bool: ...

    def set_direction(self, direction: Direction | str) -> None: ...

    def next_language(self, language: Language | str | None) -> None:
        """Face to face: the next sentence is in `language` (None: take it back); else ignored."""

    def redo_utterance(self, utterance_id: int) -> None:
        """Face to face: hear an utterance again in the other language, translated the other way."""

    def redo_stopped(self, utterance_id: int) -> list[Event]:
        """Face to face, once stopped: the same on the calling thread; its events returned."""

    def set_chinese(self, script: ChineseScript | str) -> None:
        """Write Chinese in `script` from the next recognised text and translation on."""

    def set_tts_enabled(self, enabled: bool) -> None: ...

    def set_spoken(self, spoken: frozenset[Speaker]) -> None:
        """Speak only these speakers' translations (a single source speaks all of its own)."""

    def set_verify(self, enabled: bool) -> None:
        """Check each cached decoder step against an uncached one, from the next translation on."""

    def apply_glossary(self, glossary: Glossary) -> None:
        """Use `glossary` from the next utterance on, without a restart (terms, hotwords, corrections)."""

    def publish_correction(self, event: CaptionCorrected) -> None:
        """An utterance's corrected caption, to every observer and the transcript."""
