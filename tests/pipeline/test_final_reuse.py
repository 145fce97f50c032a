"""The final translation reuses the provisional decode of the same text (app.pipeline.reuse):
the recognizer shows its speculative final decode as the last partial, the pipeline translates
it while the pause is timed, and the final that says the same takes that decode's output."""

from __future__ import annotations

import threading

import pytest

from app.asr import StreamingRecognizer
from app.pipeline import PipelineConfig
from app.shared.events import DecodeStepEvent, SourcePartial
from app.translation import Translator

from .conftest import Run, english, expected

PHRASES = ["Where is the station?", "Thank you very much."]


class CountingTranslator:
    """The real translator, counting the decodes it completes per text."""

    def __init__(self, real: Translator):
        self.real, self.joiner, self.codec = real, real.joiner, real.codec
        self.decoded: list[str] = []
        self.changed = threading.Condition()

    @property
    def chinese(self):
        return self.real.chinese

    @chinese.setter
    def chinese(self, script) -> None:
        self.real.chinese = script

    def stream(self, text, options=None, cancel=None, forced=(), on_step=None):
        yield from self.real.stream(text, options=options, cancel=cancel, forced=forced, on_step=on_step)
        with self.changed:
            self.decoded.append(text)
            self.changed.notify_all()

    def wait_decoded(self, text: str, timeout: float = 30.0) -> None:
        with self.changed:
            self.changed.wait_for(lambda: text in self.decoded, timeout)


class InTurns(StreamingRecognizer):
    """The real recognizer, reading on only once the partial it sent last has been translated: the
    final always comes after the provisional decode of the speculative final (no race with the
    translation thread, however loaded the machine)."""

    translator: CountingTranslator

    def feed(self, block, captured_at=None):
        if self.waiting_for:
            self.translator.wait_decoded(self.waiting_for)
        events = super().feed(block, captured_at)
        partials = [e.text for e in events if isinstance(e, SourcePartial)]
        self.waiting_for = partials[-1] if partials else None
        return events


@pytest.fixture
def in_turns(whisper_base, phrasebook):
    def make(**config) -> tuple[Run, CountingTranslator]:
        translator = CountingTranslator(Translator.load(phrasebook["en-zh"], direction="en-zh"))
        recognizer = InTurns(whisper_base, language="en")
        recognizer.translator, recognizer.waiting_for = translator, None
        cfg = PipelineConfig(direction="en-zh", tts_enabled=False, realtime=False, **config)
        return Run(cfg, recognizer=recognizer, translators={"en-zh": translator}), translator

    return make


def test_the_final_translation_reuses_the_provisional_decode_of_its_text(recording, in_turns):
    run, translator = in_turns(input_path=recording("reuse", english(PHRASES), gap_s=1.5))
    run.run()
    finals = run.translations()
    assert [t.text for t in finals] == expected(PHRASES, "en-zh")
    for final in finals:
        last = [t for t in run.translations(provisional=True) if t.utterance_id == final.utterance_id][-1]
        assert last.source == final.source  # the speculative final was shown and translated
        assert translator.decoded.count(final.source) == 1  # ... and decoded once, not again for the final
    # The final still reports its own decode steps (the diagnostics panel shows them).
    final_steps = [e for e in run.of(DecodeStepEvent) if not e.provisional]
    assert {e.utterance_id for e in final_steps} == {t.utterance_id for t in finals}


def test_a_final_with_other_options_decodes_again(recording, in_turns):
    run, translator = in_turns(input_path=recording("reuse", english(PHRASES), gap_s=1.5), num_beams=3)
    run.run()
    finals = run.translations()
    assert [t.text for t in finals] == expected(PHRASES, "en-zh")
    for final in finals:
        assert translator.decoded.count(final.source) == 2  # greedy provisional, then beam 3 final
