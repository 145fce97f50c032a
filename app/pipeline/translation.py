"""The translation stage: the `pipeline-translation` worker takes jobs from the job board
(app/pipeline/jobs.py decides which, and when), decodes them step by step on the ONNX engine it
loads and keeps (app.translation), emits steps, sentences and the translation, and queues final
translations for speech. Provisional translations settle through CalmText (app/pipeline/calm.py);
a final reuses the provisional decode of the same text (app/pipeline/reuse.py)."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from functools import partial
from typing import TYPE_CHECKING

from app.pipeline.calm import CalmText, DecodedSentence, decoded_sentences, latin_word_boundary
from app.pipeline.jobs import Job
from app.pipeline.reuse import DecodeKey, LastDecode
from app.pipeline.session_state import SessionState
from app.shared.chinese import ChineseScript
from app.shared.errors import QT_TRANSLATE_NOOP, LiveTranslatorError, Text, texts_of
from app.shared.events import (
    CaptionCorrected,
    DecodeStep,
    DecodeStepEvent,
    Error,
    SentenceSummary,
    Stage,
    State,
    Status,
    Translation,
)
from app.shared.languages import Direction

if TYPE_CHECKING:
    from app.pipeline.config import PipelineConfig, PipelineTranslator
    from app.pipeline.reporter import Reporter
    from app.pipeline.speech import SpeechStage
    from app.translation.options import DecodeOptions
    from app.translation.results import SentenceResult

log = logging.getLogger(__name__)
# Words (Chinese: characters) a witness decode leaves off the partial: two agreed more often on
# what stayed than one (bench/live_text_replay.py; docs/performance.md, "Live text on any model").
WITNESS_DROPS = 2


class TranslationStage:
    """Text to translation: the translators given, or each direction's loaded once and kept."""

    def __init__(
        self,
        config: PipelineConfig,
        reporter: Reporter,
        speech: SpeechStage,
        translators: Mapping[Direction | str, PipelineTranslator] | None,
        direction: Callable[[], Direction],
        new_calm: Callable[[], CalmText],
    ):
        """direction: the session's direction now; new_calm: a fresh memory of live translations."""
        self.config = config
        self.reporter = reporter
        self.speech = speech
        self.translators: dict[Direction, PipelineTranslator] = {
            Direction.parse(d): translator for d, translator in (translators or {}).items()
        }
        self.load_errors: dict[Direction, Text] = {}  # why a direction's model could not be loaded
        self.direction = direction
        self._new_calm = new_calm
        self._calm = new_calm()
        self._last_decode = LastDecode()

    def decodes_alike(self, provisional: Job, final: Job) -> bool:
        """Whether `final` will decode exactly what the running `provisional` job does (then it
        waits for it and reuses it: app.pipeline.reuse)."""
        return (
            provisional.direction == final.direction
            and provisional.event.text.strip() == final.event.text.strip()
            and self._decode_options(True) == self._decode_options(False)
        )

    # -- the translation thread --------------------------------------------------------------
    def run(self, session: SessionState) -> None:
        self._calm = self._new_calm()  # this session's live translations
        self._last_decode = LastDecode()
        try:
            self._translator(self.direction())  # load now, not on the first utterance
            if self.config.auto_direction:  # face to face: either side may speak first
                self._translator(self.direction().reverse)
        finally:
            session.translator_loaded.set()
        while (running := session.board.take()) is not None:
            job, cancel = running
            try:
                self._translate(job, cancel)
            except Exception as error:
                if job.provisional:  # the final decode of the utterance tries again, and reports it
                    log.warning("provisional translation failed: %s", error)
                    continue
                self.reporter.error(
                    Stage.TRANSLATION,
                    error,
                    job.event.utterance_id,
                    prefix=QT_TRANSLATE_NOOP("Errors", "Translation failed: {reason}"),
                )
            finally:
                session.board.done(running)
        if not session.stop.is_set():
            self.speech.wait_spoken(session.stop)
            self.reporter.emit(Status(state=State.FINISHED, detail="end of input"))
        session.done.set()

    def translate_alone(self, job: Job) -> None:
        """A final job on the calling thread, outside a session (face to face: an utterance heard
        again after the session stopped, with the models it loaded). Not spoken: speech has stopped."""
        try:
            self._translate(job, threading.Event(), speak=False)
        except Exception as error:
            self.reporter.error(
                Stage.TRANSLATION,
                error,
                job.event.utterance_id,
                prefix=QT_TRANSLATE_NOOP("Errors", "Translation failed: {reason}"),
            )

    def _decode_options(self, provisional: bool) -> DecodeOptions:
        from app.translation.options import DecodeOptions  # lazy: app.translation loads onnxruntime

        return DecodeOptions(
            **{
                **self.config.decode_overrides,
                "num_beams": 1 if provisional else self.config.num_beams,
                "verify": self.config.verify and not provisional,
                "glossary": self.config.glossary,
            }
        )

    def _translator(self, direction: Direction) -> PipelineTranslator | None:
        """The Translator for a direction, loaded once on the translation thread; None if it
        cannot be (the reason is reported once and kept for the utterances it affects)."""
        if direction in self.translators:
            self.translators[direction].chinese = ChineseScript.parse(self.config.chinese)
            return self.translators[direction]
        if direction in self.load_errors:
            return None
        folder = self.config.nmt_models.get(direction)
        try:
            if folder is None:
                raise LiveTranslatorError(
                    QT_TRANSLATE_NOOP("Errors", "No translation model is set for {direction}."),
                    QT_TRANSLATE_NOOP("Errors", "Choose a model folder for this direction (run: --nmt-model DIR)."),
                    direction=direction,
                )
            from app.translation.translator import Translator  # lazy: app.translation loads onnxruntime

            self.reporter.emit(Status(state=State.LOADING, detail=f"translation model {folder}"))
            graphs = self.config.prepare_graphs(folder, direction, False) if self.config.prepare_graphs else None
            self.translators[direction] = Translator.load(
                folder, direction=direction, chinese=self.config.chinese, graphs=graphs
            )
            return self.translators[direction]
        except Exception as error:
            self.load_errors[direction] = texts_of(error)[0]
            self.reporter.error(
                Stage.TRANSLATION,
                error,
                prefix=QT_TRANSLATE_NOOP("Errors", "The {direction} translation model could not be loaded: {reason}"),
                direction=direction,
            )
            return None

    def _decode(self, job: Job, translator: PipelineTranslator, cancel: threading.Event) -> list[SentenceResult] | None:
        """Translate the job's text, sending its steps and sentence summaries: its sentences'
        SentenceResults; None if cancelled. A final translation reuses the provisional decode
        before it when that decoded the same (reuse.py)."""
        event, provisional = job.event, job.provisional
        text = event.text.strip()
        options = self._decode_options(provisional)
        forced = self._calm.forced(event.utterance_id) if provisional else []
        key = None if forced else DecodeKey(job.direction, text, options, translator.chinese)
        reused = None if provisional or key is None else self._last_decode.take(key)
        on_step = partial(self._send_step, event.utterance_id, provisional) if self.config.emit_steps else None
        if reused is not None:
            results = replayed(reused, on_step)
        else:
            results = translator.stream(text, options=options, cancel=cancel, forced=forced, on_step=on_step)
        sentences = []
        for sentence in results:
            if cancel.is_set():
                return None  # superseded mid-sentence: its steps went out, its summary does not
            # Steps were already sent one by one as DecodeStepEvents.
            summary = sentence.to_json(with_steps=False)
            self.reporter.emit(
                SentenceSummary(utterance_id=event.utterance_id, provisional=provisional, summary=summary)
            )
            sentences.append(sentence)
        if cancel.is_set():
            return None
        if provisional and key is not None:
            self._last_decode.keep(key, sentences)  # for the final, if it says the same
        return sentences

    def _send_step(self, utterance_id: int, provisional: bool, step: DecodeStep) -> None:
        self.reporter.emit(DecodeStepEvent(utterance_id=utterance_id, provisional=provisional, step=step))

    def _translate(self, job: Job, cancel: threading.Event, speak: bool = True) -> None:
        from app.translation.results import join_translations  # lazy: app.translation loads onnxruntime

        event, provisional = job.event, job.provisional
        text = event.text.strip()
        if not text:
            return
        translator = self._translator(job.direction)
        if translator is None:
            if not provisional:
                self._not_translated(job)
            return
        sentences = self._decode(job, translator, cancel)
        if sentences is None:
            return  # superseded (provisional) or stopped: nothing half-done is shown
        pieces = [(s.translation, s.low_confidence) for s in sentences]
        translation, unsure = join_translations(pieces, translator.joiner, strip=True)
        stable = len(translation)
        if provisional:
            shown = self._settle(job, translator, sentences, translation, cancel)
            if shown is None:
                return  # it would change text the reader has passed, or is all guess: keep the last one
            translation, stable = shown
        else:
            self._calm.finish(event.utterance_id, calm_sentences(translator, sentences), job.direction.value)
        latency = None if provisional else (time.monotonic() - event.speech_end_at) * 1000.0
        self.reporter.emit(
            Translation(
                utterance_id=event.utterance_id,
                source=text,
                text=translation,
                provisional=provisional,
                direction=job.direction,
                latency_ms=latency,
                low_confidence=tuple((u.start, u.end, u.p) for u in unsure),
                alternatives=tuple(u.alternatives for u in unsure),
                stable=stable,
                language_confidence=getattr(event, "language_confidence", None),
            )
        )
        if job.again:  # heard again the other way: every observer's caption of it is replaced
            self.reporter.emit(CaptionCorrected(utterance_id=event.utterance_id, source=text, text=translation))
        if not provisional and speak:
            self.speech.say(translation, job.direction.target, event.utterance_id)

    def _settle(
        self,
        job: Job,
        translator: PipelineTranslator,
        sentences: list[SentenceResult],
        translation: str,
        cancel: threading.Event,
    ) -> tuple[str, int] | None:
        """What a provisional translation shows, and how much of it is settled (CalmText); an
        utterance's first text may be backed by a witness decode (CalmText.wants_witness)."""
        uid = job.event.utterance_id
        decoded = calm_sentences(translator, sentences)
        witness = None
        if self._calm.wants_witness(uid, decoded, key=job.direction.value):
            witness = self._witness(job, translator, cancel)
            if cancel.is_set():
                return None  # superseded: nothing half-done is shown
        boundary = latin_word_boundary if translator.joiner else None
        return self._calm.update(uid, decoded, translation, boundary, witness=witness, key=job.direction.value)

    def _witness(self, job: Job, translator: PipelineTranslator, cancel: threading.Event) -> list | None:
        """The partial less its last two words (a Chinese partial: characters) decoded as the
        partial was, as evidence of what stays: shown nowhere, no events."""
        source = less_last_words(job.event.text)
        if not source:
            return None
        sentences = translator.stream(
            source,
            options=self._decode_options(True),
            cancel=cancel,
            forced=self._calm.forced(job.event.utterance_id),
        )
        return calm_sentences(translator, list(sentences))

    def _not_translated(self, job: Job) -> None:
        """A final whose direction has no usable model: one Error for it, with the reason."""
        reason = self.load_errors.get(job.direction) or Text(QT_TRANSLATE_NOOP("Errors", "no translation model"))
        self.reporter.emit(
            Error.of(
                Stage.TRANSLATION,
                Text(QT_TRANSLATE_NOOP("Errors", "Not translated: {reason}"), {"reason": reason}),
                Text(QT_TRANSLATE_NOOP("Errors", "Fix or choose the translation model, then start again.")),
                job.event.utterance_id,
            )
        )


def calm_sentences(translator: PipelineTranslator, sentences: list[SentenceResult]) -> list[DecodedSentence]:
    """A decode's sentences as CalmText weighs them (their tokens, probabilities, ends and source length)."""
    pieces = [(s.translation, s.token_ids, s.token_p, s.token_ends, len(s.source_ids)) for s in sentences]
    return decoded_sentences(pieces, translator.joiner, translator.codec.skipped_ids)


def replayed(
    sentences: Iterable[SentenceResult], on_step: Callable[[DecodeStep], None] | None
) -> Iterator[SentenceResult]:
    """A kept decode given again as the translator gives it: each sentence's steps to `on_step`, then the sentence."""
    for sentence in sentences:
        if on_step is not None:
            for step in sentence.steps:
                on_step(step)
        yield sentence


def less_last_words(text: str, count: int = WITNESS_DROPS) -> str:
    """`text` without its last `count` words (text without spaces, Chinese: characters, closing
    punctuation aside); "" when fewer than two would be left."""
    words = text.split()
    if len(words) > 1:
        return " ".join(words[:-count]) if len(words) >= count + 2 else ""
    body = text.strip().rstrip("。，！？、；：…,.!?;:")
    return body[:-count] if len(body) >= count + 2 else ""
