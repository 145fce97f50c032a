"""The live chain: audio -> recognition -> translation -> speech, each stage on its own thread.

    capture thread ──(bounded audio queue)──▶ recognition thread ──(finals queue + latest
    partial slot)──▶ translation worker ──(bounded speech queue)──▶ speech output thread

Every stage reports through `on_event` (app.shared.events) and the session transcript.
A failing stage becomes an Error event and the chain goes on with the next utterance.
Direction changes are tagged onto the source text: a text recognised as English is only
ever translated en->zh, so no English reaches the Chinese stream after a switch.
"""

from __future__ import annotations

import collections
import dataclasses
import functools
import logging
import os
import queue
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol, runtime_checkable

import numpy as np

from app.pipeline.calm import CalmText, latin_word_boundary
from app.pipeline.reuse import DecodeKey, LastDecode
from app.pipeline.transcript import Transcript
from app.shared.audio import SAMPLE_RATE, AudioSource, SourceKind, SpeechTarget
from app.shared.chinese import ChineseScript
from app.shared.errors import QT_TRANSLATE_NOOP, LiveTranslatorError, Text, texts_of
from app.shared.events import (
    CaptionCorrected,
    DecodeStepEvent,
    Error,
    Event,
    SentenceSummary,
    SourceFinal,
    SourcePartial,
    Speaker,
    Stage,
    State,
    Status,
    Translation,
)
from app.shared.glossary import Glossary
from app.shared.languages import Direction
from app.shared.live_text import LiveText

if TYPE_CHECKING:
    from app.asr import StreamingRecognizer
    from app.translation import DecodeOptions, DecodeStep, SentenceResult
    from app.tts import SpeechOutput

log = logging.getLogger(__name__)

_END, _FLUSH = "end of input", "flush"  # markers on the audio queue
_LEVEL_EVERY_S = 0.1
_RETRY_CAPTURE_EVERY_S = 1.0
# Audio waited this long for recognition (a backlog: the machine cannot keep up): no provisional
# translation until it has caught up. Measured before the decode, so a partial's own decode time
# (a few tenths of a second) does not count: with the 30 s window it did, and every provisional
# translation was dropped (issue 22).
_SKIP_PROVISIONAL_BEHIND_S = 1.0


@dataclass
class PipelineConfig:
    direction: Direction = Direction.EN_ZH
    nmt_models: dict[Direction, str | Path] = field(default_factory=dict)  # direction -> model folder
    asr_model: str = "base"  # Whisper size name or folder
    input_path: str | Path | None = None  # a recording; None = the live source below
    source: SourceKind = SourceKind.MICROPHONE  # the live source: MICROPHONE or SYSTEM (what the computer plays)
    input_device: int | str | None = None  # that source's device by index, id or name; None = default
    speaker: Speaker | None = None  # in a conversation: who this pipeline hears; every event is labelled
    realtime: bool = True  # feed a recording at speaking speed (False: as fast as possible)
    tts_enabled: bool = True
    tts_out: str | Path | None = None  # write speech into this WAV instead of the speakers
    tts_rate: int | None = None  # words per minute; None = the engine's default
    # Where speech goes: "speakers" (the engine's own output), "virtual-mic" (live_translator_mic,
    # for a call app) or an output device's name (app.audio.outputs); mix_original: my voice under
    # the translation in the virtual microphone, 0..1.
    speak_into: str = SpeechTarget.SPEAKERS
    mix_original: float = 0.0
    verify: bool = False  # translation engine's cached-vs-uncached check (slow)
    num_beams: int = 1  # for final translations; provisional ones are always greedy
    decode_overrides: dict[str, Any] = field(default_factory=dict)  # more DecodeOptions fields, e.g. max_new_tokens
    translate_partials: bool = True
    emit_steps: bool = True  # DecodeStepEvent per decoder step, for live diagnostics
    # Silence what the source captured while our speech played. None: for live sources (our voice
    # reaches system audio, and the microphone without headphones) when speech goes to the speakers.
    mute_while_speaking: bool | None = None
    save_transcript: bool = True
    transcript_path: str | Path | None = None  # None: a new file in transcripts_dir()
    audio_queue_blocks: int = 256
    max_pending_finals: int = 32
    glossary: Glossary | None = None  # its terms are translated as it says, and heard as hotwords
    chinese: str = "simplified"  # script of all Chinese shown, spoken and saved (app.shared.chinese)
    source_confidence: bool = False  # mark the words Whisper was unsure of (slower finals: RecognizerOptions)
    live_text: LiveText = LiveText.BALANCED  # smoother <-> sooner partials (app.shared.live_text)
    calm: str = (
        "agree"  # how provisional translations settle: agree | force | off (app/pipeline/calm.py; bench/calm_text.py)
    )
    # (folder, direction, prefer_quantized) -> {stem: path}: optimised graphs to load instead of
    # the folder's (app.model_store.optimized.prepare_graphs); None loads the folder as it is.
    prepare_graphs: Callable[[str | Path, Direction, bool], dict[str, Path]] | None = None

    def __post_init__(self) -> None:
        """Directions given as strings ("en-zh", as on the command line) become Directions."""
        self.direction = Direction.parse(self.direction)
        self.nmt_models = {Direction.parse(d): folder for d, folder in self.nmt_models.items()}

    def copy(self, **changes) -> PipelineConfig:
        """This config with `changes`, its dicts copied: a session's own, which its switches
        (verify, chinese, speech) change without touching the caller's."""
        return dataclasses.replace(
            self, **{"nmt_models": dict(self.nmt_models), "decode_overrides": dict(self.decode_overrides), **changes}
        )


class TokenCodec(Protocol):
    skipped_ids: set[int]  # language tags and special tokens: not part of the written translation


@runtime_checkable
class PipelineTranslator(Protocol):
    """What the pipeline needs of a translator (app.translation.Translator; a test's wrapper)."""

    chinese: ChineseScript  # the script of its Chinese output; the pipeline sets it before each translation
    joiner: str  # between translated sentences: "" into Chinese, " " into English
    codec: TokenCodec

    def stream(
        self,
        text: str,
        options: DecodeOptions | None = None,
        cancel: threading.Event | None = None,
        forced: Sequence[Sequence[int]] = (),
    ) -> Iterator[DecodeStep | SentenceResult]: ...


@dataclass
class _Job:
    event: SourcePartial | SourceFinal
    direction: Direction

    @property
    def provisional(self) -> bool:
        return isinstance(self.event, SourcePartial)


class _Block(NamedTuple):
    """Audio on its way from capture to recognition."""

    samples: np.ndarray  # 16 kHz mono
    captured_at: float | None  # monotonic time the block was captured; None: a recording read flat out


class _Running(NamedTuple):
    """The job the translation worker is on, and the flag that cancels its decode."""

    job: _Job
    cancel: threading.Event


class _Session:
    """The threads and queues of one start() .. stop()."""

    def __init__(self, direction: Direction, max_blocks: int):
        self.stop = threading.Event()  # set by stop(), or when the session cannot go on
        self.end_input = threading.Event()  # set by finish() (and stop()): capture ends, the rest drains
        self.closed = False  # stop() has run
        self.ready = threading.Event()  # recognizer loaded: capture may begin
        self.done = threading.Event()  # input ended and all work drained, or stopped
        self.audio: queue.Queue[_Block | str] = queue.Queue(maxsize=max_blocks)  # blocks, _FLUSH, _END
        self.cond = threading.Condition()
        self.finals: collections.deque[_Job] = collections.deque()
        self.partial: _Job | None = None
        self.recognition_ended = False
        self.current: _Running | None = None
        self.last_final_id = -1
        self.behind_s = 0.0  # how long the audio last taken waited for recognition
        self.direction = direction
        self.threads: list[threading.Thread] = []


class Pipeline:
    """Runs the live chain; observers get every event through `on_event` (on pipeline threads)."""

    def __init__(
        self,
        config: PipelineConfig,
        on_event: Callable[[Event], None] | None = None,
        audio_source: AudioSource | None = None,
        speech_output: SpeechOutput | None = None,
        recognizer: StreamingRecognizer | None = None,
        translators: Mapping[Direction | str, PipelineTranslator] | None = None,
        shared_speech_output: bool = False,
        utterance_ids: Iterator[int] | None = None,
    ):
        """config: copied, so this session's switches (verify, chinese, speech) stay its own.
        audio_source: an app.shared.audio.AudioSource; speech_output: an app.tts.SpeechOutput;
        recognizer: a StreamingRecognizer; translators: direction -> Translator. Each defaults
        to one built from `config`. shared_speech_output: the speech output belongs to someone
        else (a conversation's two pipelines share one): this pipeline only queues texts on it.
        utterance_ids: the utterance numbers its recognizer gives (shared by a conversation's
        two pipelines, so no two utterances have the same id)."""
        config = config.copy()
        self.config = config
        self.on_event = on_event
        self.audio_source = audio_source
        self._recognizer = recognizer
        self._utterance_ids = utterance_ids
        self._translators: dict[Direction, PipelineTranslator] = {
            Direction.parse(d): translator for d, translator in (translators or {}).items()
        }
        self._translator_errors: dict[Direction, Text] = {}
        if speech_output is None:
            from app.audio.speech_targets import open_output
            from app.tts import SpeechOutput

            output = open_output(config.speak_into, config.mix_original)
            speech_output = SpeechOutput(
                enabled=config.tts_enabled,
                rate=config.tts_rate,
                out_path=config.tts_out,
                outputs={None: output} if output is not None else None,
            )
        self.speech_output = speech_output
        self._owns_speech_output = not shared_speech_output
        if self._owns_speech_output:
            self.speech_output.on_event = self._emit
        self.transcript: Transcript | None = None
        self._transcript_told = False  # observers know saving the transcript fails
        self._direction = config.direction
        self._session: _Session | None = None
        self._control = threading.Lock()
        self._calm = self._new_calm_text()
        self._last_decode = LastDecode()
        self._emit_lock = threading.Lock()

    # -- control --------------------------------------------------------------------------
    @property
    def direction(self) -> Direction:
        return self._direction

    @property
    def running(self) -> bool:
        return self._session is not None and not self._session.closed

    def start(self) -> None:
        """Begin a session (returns at once; models load on the stage threads)."""
        with self._control:
            if self.running:
                return
            if self.config.input_path is not None and Path(self.config.input_path).is_dir():
                raise LiveTranslatorError(
                    QT_TRANSLATE_NOOP("Errors", "{path} is a folder, not a recording."),
                    QT_TRANSLATE_NOOP("Errors", "Give the path of a WAV/FLAC/OGG file inside it."),
                    path=self.config.input_path,
                )
            if self.config.input_path is not None and not Path(self.config.input_path).is_file():
                raise LiveTranslatorError(
                    QT_TRANSLATE_NOOP("Errors", "No such recording: {path}"),
                    QT_TRANSLATE_NOOP(
                        "Errors", "Give the path of a WAV/FLAC/OGG file, or omit --input to use the microphone."
                    ),
                    path=self.config.input_path,
                )
            from app.translation.search import check_setting

            for key, value in {"num_beams": self.config.num_beams, **self.config.decode_overrides}.items():
                if value is not None:  # before any thread starts or cache is allocated
                    check_setting(key, value, "the pipeline's settings")
            session = _Session(self._direction, self.config.audio_queue_blocks)
            self._translator_errors.clear()  # a folder fixed since the last session gets another try
            if self.config.save_transcript:
                self.transcript = Transcript(self.config.transcript_path)  # never raises: see `problem`
                self._transcript_told = False
            if self._owns_speech_output:
                self.speech_output.enabled = self.config.tts_enabled
                self.speech_output.start()
            for name, loop in (
                ("capture", self._capture_loop),
                ("recognition", self._recognition_loop),
                ("translation", self._translation_loop),
            ):
                thread = threading.Thread(target=loop, args=(session,), name=f"pipeline-{name}", daemon=True)
                session.threads.append(thread)
            self._session = session
            self._emit(Status(state=State.LOADING, detail=f"direction {self._direction}"))
            for thread in session.threads:
                thread.start()

    def stop(self, timeout: float = 10.0) -> None:
        """End the session: in-flight work is cancelled, threads joined. Safe to call twice."""
        with self._control:
            session = self._session
            if session is None or session.closed:
                return
            session.closed = True
            session.end_input.set()
            session.stop.set()
            with session.cond:
                if session.current:
                    session.current.cancel.set()  # cancel the decode in flight
                session.cond.notify_all()
            for thread in session.threads:
                if thread is not threading.current_thread():
                    thread.join(timeout)
            if self._owns_speech_output:
                self.speech_output.stop()
            session.done.set()
            self._emit(Status(state=State.STOPPED))
            if self.transcript is not None:
                self.transcript.close()

    def end_input(self) -> None:
        """Stop listening, as if the input had ended: the utterance in progress is finalised and
        translated, and the session drains (wait_until_done, then stop()). Returns at once."""
        session = self._session
        if session is not None:
            session.end_input.set()

    def finish(self, timeout: float = 30.0) -> None:
        """End a live session cleanly (Ctrl-C, --duration): what was heard is finalised,
        translated and saved, then the session stops."""
        self.end_input()
        self.wait_until_done(timeout)
        self.stop()

    def wait_until_done(self, timeout: float | None = None) -> bool:
        """Wait until a recording has been fully processed and spoken (or the session stopped)."""
        session = self._session
        return True if session is None else session.done.wait(timeout)

    def set_direction(self, direction: Direction | str) -> None:
        """Switch mid-session: the utterance in progress is finished in the old direction,
        provisional work is dropped, and the recognizer listens for the new language."""
        direction = Direction.parse(direction)
        if direction == self._direction:
            return
        self._direction = direction
        session = self._session
        if session is not None:
            with session.cond:
                session.partial = None
                if session.current and session.current.job.provisional:
                    session.current.cancel.set()
        self._emit(Status(state=State.DIRECTION, detail=direction))

    @property
    def speakers(self) -> frozenset[Speaker]:
        """Who this pipeline hears: its speaker in a conversation, else no one in particular."""
        return frozenset() if self.config.speaker is None else frozenset({self.config.speaker})

    def set_chinese(self, script: ChineseScript | str) -> None:
        """Write Chinese in `script` from the next recognised text and translation on."""
        self.config.chinese = ChineseScript.parse(script).value
        if self._recognizer is not None:
            self._recognizer.chinese = ChineseScript.parse(script)

    def apply_glossary(self, glossary: Glossary) -> None:
        """Use `glossary` (an app.shared.glossary.Glossary) from the next utterance on, without a
        restart: its terms in translations, as Whisper hotwords, and its corrections of heard text."""
        self.config.glossary = glossary
        if self._recognizer is not None:  # read by each Whisper pass
            self._recognizer.options.hotwords = self._recognizer_options().hotwords

    def publish_correction(self, event: CaptionCorrected) -> None:
        """An utterance's corrected caption, to every observer and the transcript."""
        self._emit(event)

    def set_tts_enabled(self, enabled: bool) -> None:
        self.config.tts_enabled = enabled
        if self._owns_speech_output:
            self.speech_output.set_enabled(enabled)

    def set_spoken(self, spoken: frozenset[Speaker]) -> None:
        """A single source speaks all it translates (set_tts_enabled); sides are a conversation's."""

    def set_verify(self, enabled: bool) -> None:
        """Read for each new final translation (the check is slow: provisional ones never run it)."""
        self.config.verify = enabled

    # -- events ---------------------------------------------------------------------------
    def _emit(self, event: Event) -> None:
        event = event.said_by(self.config.speaker)
        if isinstance(event, (Status, Error)):
            log.info("%s", event)
        with self._emit_lock:  # observers see one event at a time, in order
            for item in [event, *self._record(event)]:
                if self.on_event is not None:
                    try:
                        self.on_event(item)
                    except Exception:  # an observer's bug must not stop the pipeline
                        log.exception("an event observer failed on %s", item.type)

    def _record(self, event: Event) -> list[Error]:
        """Save `event` in the transcript; the first time saving fails (and again after it has
        worked since), the Error to tell observers. Saving never stops the chain."""
        transcript = self.transcript
        if transcript is None:
            return []
        try:
            transcript.record(event)
        except Exception:  # a bug in saving must not stop translation either
            log.exception("transcript: could not record %s", event.type)
            return []
        if transcript.problem is None:
            self._transcript_told = False
            return []
        if self._transcript_told:
            return []
        self._transcript_told = True
        error = Error.of(
            Stage.TRANSCRIPT,
            Text(
                QT_TRANSLATE_NOOP(
                    "Errors",
                    "The transcript cannot be saved to {path} ({reason}). "
                    "Translation goes on; what is not saved yet is kept in memory.",
                ),
                {"path": transcript.path, "reason": transcript.problem},
            ),
            Text(
                QT_TRANSLATE_NOOP(
                    "Errors",
                    "Free some disk space or make the folder writable: saving resumes by itself. "
                    "Or choose another folder with LIVE_TRANSLATOR_TRANSCRIPTS.",
                )
            ),
        )
        transcript.record(error)
        return [error]

    def _error(
        self, stage: Stage, error: BaseException, utterance_id: int | None = None, prefix: str = "", **values
    ) -> None:
        """Report `error`; `prefix` is a marked template that holds it as {reason} ("Translation failed: {reason}")."""
        message, hint = texts_of(error)
        if prefix:
            message = Text(prefix, {**values, "reason": message})
        self._emit(
            Error.of(
                stage,
                message,
                hint or Text(QT_TRANSLATE_NOOP("Errors", "The pipeline goes on with the next utterance.")),
                utterance_id,
            )
        )

    # -- capture --------------------------------------------------------------------------
    def _make_source(self) -> AudioSource:
        if self.audio_source is not None:
            return self.audio_source
        from app.audio import FileSource
        from app.audio.devices import open_source

        if self.config.input_path is not None:
            return FileSource(self.config.input_path, realtime=self.config.realtime)
        return open_source(self.config.source, self.config.input_device)

    def _mute_while_speaking(self, source: AudioSource) -> bool:
        if self.config.mute_while_speaking is not None:
            return self.config.mute_while_speaking
        return source.kind in (SourceKind.MICROPHONE, SourceKind.SYSTEM) and self.speech_output.out_path is None

    def _own_voice_in(self, kind: SourceKind, samples: np.ndarray, captured_at: float | None) -> bool:
        """Might this block hold our own speech? While speech that reaches this kind of capture is
        queued or playing, or when it was captured during a stretch we played there (it may be read
        later than it was captured). A recording gated on purpose counts as a microphone."""
        heard_as = kind if kind in (SourceKind.MICROPHONE, SourceKind.SYSTEM) else SourceKind.MICROPHONE
        end = captured_at if captured_at is not None else time.monotonic()
        return self.speech_output.may_be_heard_in(heard_as, end - len(samples) / SAMPLE_RATE, end)

    def _put_audio(self, session: _Session, item: _Block | str) -> bool:
        while not session.stop.is_set():
            try:
                session.audio.put(item, timeout=0.1)
                return True
            except queue.Full:
                continue  # recognition is busy: hold back (a microphone buffers and reports overflow)
        return False

    def _capture_loop(self, session: _Session) -> None:
        from app.audio import SOURCE_LOST, AudioBlock, capture

        try:
            source = self._make_source()
            while not session.ready.wait(0.1):
                if session.end_input.is_set():
                    return
            mute = self._mute_while_speaking(source)
            for item in capture(
                source, session.end_input, retry_s=_RETRY_CAPTURE_EVERY_S, level_every_s=_LEVEL_EVERY_S
            ):
                if isinstance(item, AudioBlock):
                    samples = item.samples
                    if mute and self._own_voice_in(source.kind, samples, item.captured_at):
                        samples = np.zeros_like(samples)  # our own voice must not be translated again
                    self._put_audio(session, _Block(samples, item.captured_at))
                elif item is SOURCE_LOST:
                    self._put_audio(session, _FLUSH)  # finalize what was heard before the device went
                else:
                    self._emit(item)
        except Exception as error:
            self._error(Stage.CAPTURE, error)
        finally:
            self._put_audio(session, _END)

    # -- recognition ----------------------------------------------------------------------
    def _load_recognizer(self, language: str):
        if self._recognizer is None:
            from app.asr import StreamingRecognizer, load_whisper

            self._emit(Status(state=State.LOADING, detail=f"speech recognition ({self.config.asr_model})"))
            model = load_whisper(self.config.asr_model)  # loaded on app.asr's process-long thread
            self._recognizer = StreamingRecognizer(
                model=model, language=language, options=self._recognizer_options(), ids=self._utterance_ids
            )
        self._recognizer.chinese = ChineseScript.parse(self.config.chinese)
        self._recognizer.options.word_confidence = self.config.source_confidence
        self._recognizer.reset()
        self._recognizer.set_language(language)
        return self._recognizer

    def _recognizer_options(self):
        from app.asr.recognizer import RecognizerOptions

        glossary = self.config.glossary
        hotwords = {lang: glossary.terms(lang) for lang in ("en", "zh")} if glossary else {}
        return RecognizerOptions(hotwords=hotwords).paced(self.config.live_text)

    def _recognition_loop(self, session: _Session) -> None:
        direction = self._direction
        try:
            recognizer = self._load_recognizer(direction.source)
        except Exception as error:
            self._error(
                Stage.ASR, error, prefix=QT_TRANSLATE_NOOP("Errors", "Speech recognition could not start: {reason}")
            )
            session.stop.set()
            self._end_recognition(session)
            return
        session.ready.set()
        self._emit(Status(state=State.RUNNING, detail=f"direction {direction}"))
        while not session.stop.is_set():
            if self._direction != direction:  # finish what was said in the old language first
                self._recognize(session, recognizer.flush, direction)
                direction = self._direction
                recognizer.set_language(direction.source)
            try:
                item = session.audio.get(timeout=0.1)
            except queue.Empty:
                continue
            blocks = []
            while isinstance(item, _Block):  # live audio: take the whole backlog at once (see _feed)
                blocks.append(item)
                if item.captured_at is None:
                    item = None  # a recording read flat out: block by block, as `transcribe` does
                    break
                try:
                    item = session.audio.get_nowait()
                except queue.Empty:
                    item = None
            if blocks:
                if blocks[0].captured_at is not None:  # how long the oldest audio waited: the backlog
                    session.behind_s = time.monotonic() - blocks[0].captured_at
                self._recognize(session, functools.partial(self._feed, recognizer, blocks), direction)
            if item is _END:
                self._recognize(session, recognizer.flush, direction)
                break
            if item is _FLUSH:
                self._recognize(session, recognizer.flush, direction)
        self._end_recognition(session)

    @staticmethod
    def _feed(recognizer, blocks: list[_Block]) -> list:
        """One feed for all the audio waiting: when live recognition falls behind, Whisper
        re-reads the utterance once for the whole backlog instead of once per block, so it
        catches up instead of falling further behind."""
        audio = blocks[0].samples if len(blocks) == 1 else np.concatenate([b.samples for b in blocks])
        return recognizer.feed(audio, captured_at=blocks[-1].captured_at or None)

    def _recognize(self, session: _Session, step: Callable[[], list], direction: Direction) -> None:
        try:
            events = step()
        except Exception as error:  # a failing recognizer loses this utterance, not the session
            self._error(Stage.ASR, error, prefix=QT_TRANSLATE_NOOP("Errors", "Speech recognition failed: {reason}"))
            try:
                self._recognizer.reset()
            except Exception:  # the next utterance starts from whatever state it is in
                log.exception("asr: the recognizer could not be reset after a failure")
            return
        for event in events:
            event = self._rewrite_heard(event)
            self._emit(event)
            if isinstance(event, SourceFinal):
                self._submit_final(session, _Job(event, direction))
            elif isinstance(event, SourcePartial) and self.config.translate_partials:
                with session.cond:
                    session.partial = _Job(event, direction)  # only the latest partial matters
                    session.cond.notify_all()

    def _rewrite_heard(self, event: Event) -> Event:
        """Recognised text with the glossary's corrections of heard text applied."""
        glossary = self.config.glossary
        if not isinstance(event, (SourcePartial, SourceFinal)) or not glossary or not glossary.corrections():
            return event
        text = glossary.rewrite_heard(event.text)
        if text == event.text:
            return event
        changes: dict[str, Any] = {"text": text}
        if len(text) != len(event.text):
            changes["low_confidence"] = ()  # its spans no longer line up with the words
        if isinstance(event, SourcePartial):  # the committed text stays a prefix of the text
            changes["committed"] = os.path.commonprefix([glossary.rewrite_heard(event.committed), text])
        return dataclasses.replace(event, **changes)

    def _submit_final(self, session: _Session, job: _Job) -> None:
        with session.cond:
            while len(session.finals) >= self.config.max_pending_finals and not session.stop.is_set():
                session.cond.wait(0.1)
            session.finals.append(job)
            if session.partial and session.partial.event.utterance_id <= job.event.utterance_id:
                session.partial = None
            running = session.current.job if session.current else None
            if running and running.provisional and not self._decodes_alike(running, job):
                session.current.cancel.set()  # a final outranks any provisional translation
            session.cond.notify_all()

    def _decodes_alike(self, provisional: _Job, final: _Job) -> bool:
        """Whether `final` will decode exactly what the running `provisional` job does (then it
        waits for it and reuses it: app.pipeline.reuse)."""
        return (
            provisional.direction == final.direction
            and provisional.event.text.strip() == final.event.text.strip()
            and self._decode_options(True) == self._decode_options(False)
        )

    def _new_calm_text(self) -> CalmText:
        """Memory of live translations; their guessed tails are shown only for live text "sooner"."""
        return CalmText(self.config.calm, show_guesses=self.config.live_text is LiveText.SOONER)

    def _decode_options(self, provisional: bool) -> DecodeOptions:
        from app.translation import DecodeOptions

        return DecodeOptions(
            **{
                **self.config.decode_overrides,
                "num_beams": 1 if provisional else self.config.num_beams,
                "verify": self.config.verify and not provisional,
                "glossary": self.config.glossary,
            }
        )

    def _end_recognition(self, session: _Session) -> None:
        with session.cond:
            session.recognition_ended = True
            session.cond.notify_all()

    # -- translation ----------------------------------------------------------------------
    def _translator(self, direction: Direction) -> PipelineTranslator | None:
        """The Translator for a direction, loaded once on the translation thread; None if it
        cannot be (the reason is reported once and kept for the utterances it affects)."""
        if direction in self._translators:
            self._translators[direction].chinese = ChineseScript.parse(self.config.chinese)
            return self._translators[direction]
        if direction in self._translator_errors:
            return None
        folder = self.config.nmt_models.get(direction)
        try:
            if folder is None:
                raise LiveTranslatorError(
                    QT_TRANSLATE_NOOP("Errors", "No translation model is set for {direction}."),
                    QT_TRANSLATE_NOOP("Errors", "Choose a model folder for this direction (run: --nmt-model DIR)."),
                    direction=direction,
                )
            from app.translation import Translator

            self._emit(Status(state=State.LOADING, detail=f"translation model {folder}"))
            graphs = self.config.prepare_graphs(folder, direction, False) if self.config.prepare_graphs else None
            self._translators[direction] = Translator.load(
                folder, direction=direction, chinese=self.config.chinese, graphs=graphs
            )
            return self._translators[direction]
        except Exception as error:
            self._translator_errors[direction] = texts_of(error)[0]
            self._error(
                Stage.TRANSLATION,
                error,
                prefix=QT_TRANSLATE_NOOP("Errors", "The {direction} translation model could not be loaded: {reason}"),
                direction=direction,
            )
            return None

    def _next_job(self, session: _Session) -> _Running | None:
        with session.cond:
            while True:
                if session.stop.is_set():
                    return None
                if session.finals:
                    job = session.finals.popleft()
                    session.cond.notify_all()
                elif session.partial is not None:
                    job, session.partial = session.partial, None
                    if job.event.utterance_id <= session.last_final_id or job.direction != self._direction:
                        continue  # stale: its final is already in, or the direction changed
                    if session.behind_s > _SKIP_PROVISIONAL_BEHIND_S:
                        continue  # the CPU is needed to catch up with the speaker: finals only
                elif session.recognition_ended:
                    return None
                else:
                    session.cond.wait(0.2)
                    continue
                session.current = _Running(job, threading.Event())
                return session.current

    def _translation_loop(self, session: _Session) -> None:
        self._calm = self._new_calm_text()  # this session's live translations
        self._last_decode = LastDecode()
        self._translator(self._direction)  # load now, not on the first utterance
        while (item := self._next_job(session)) is not None:
            job, cancel = item
            try:
                self._translate(job, cancel)
            except Exception as error:
                if job.provisional:  # the final decode of the utterance tries again, and reports it
                    log.warning("provisional translation failed: %s", error)
                    continue
                self._error(
                    Stage.TRANSLATION,
                    error,
                    job.event.utterance_id,
                    prefix=QT_TRANSLATE_NOOP("Errors", "Translation failed: {reason}"),
                )
            finally:
                with session.cond:
                    session.current = None
                    if not job.provisional:
                        session.last_final_id = max(session.last_final_id, job.event.utterance_id)
        if not session.stop.is_set():
            while not self.speech_output.wait_idle(0.2):
                if session.stop.is_set():
                    break
            self._emit(Status(state=State.FINISHED, detail="end of input"))
        session.done.set()

    def _decode(self, job: _Job, translator: PipelineTranslator, cancel: threading.Event) -> list[Any] | None:
        """Translate the job's text, sending its steps and sentence summaries: its sentences'
        SentenceResults; None if cancelled. A final translation reuses the provisional decode
        before it when that decoded the same (reuse.py)."""
        from app.translation import DecodeStep, SentenceResult

        event, provisional = job.event, job.provisional
        text = event.text.strip()
        options = self._decode_options(provisional)
        forced = self._calm.forced(event.utterance_id) if provisional else []
        key = None if forced else DecodeKey(job.direction, text, options, translator.chinese)
        reused = None if provisional or key is None else self._last_decode.take(key)
        items = reused if reused is not None else translator.stream(text, options=options, cancel=cancel, forced=forced)
        sentences, produced = [], []
        for item in items:
            produced.append(item)
            if isinstance(item, DecodeStep):
                if self.config.emit_steps:
                    self._emit(DecodeStepEvent(utterance_id=event.utterance_id, provisional=provisional, step=item))
            elif isinstance(item, SentenceResult):
                # Steps were already sent one by one as DecodeStepEvents.
                self._emit(
                    SentenceSummary(
                        utterance_id=event.utterance_id, provisional=provisional, summary=item.to_json(with_steps=False)
                    )
                )
                sentences.append(item)
            if cancel.is_set():
                return None
        if provisional and key is not None:
            self._last_decode.keep(key, produced)  # for the final, if it says the same
        return sentences

    def _translate(self, job: _Job, cancel: threading.Event) -> None:
        from app.translation.translator import join_translations, joined_sure_chars

        event, provisional = job.event, job.provisional
        text = event.text.strip()
        if not text:
            return
        translator = self._translator(job.direction)
        if translator is None:
            if not provisional:
                reason = self._translator_errors.get(job.direction) or Text(
                    QT_TRANSLATE_NOOP("Errors", "no translation model")
                )
                self._emit(
                    Error.of(
                        Stage.TRANSLATION,
                        Text(QT_TRANSLATE_NOOP("Errors", "Not translated: {reason}"), {"reason": reason}),
                        Text(QT_TRANSLATE_NOOP("Errors", "Fix or choose the translation model, then start again.")),
                        event.utterance_id,
                    )
                )
            return
        sentences = self._decode(job, translator, cancel)
        if sentences is None:
            return  # superseded (provisional) or stopped: nothing half-done is shown
        target = job.direction.target
        pieces = [(s.translation, s.low_confidence) for s in sentences]
        translation, unsure = join_translations(pieces, translator.joiner, strip=True)
        stable = len(translation)
        if provisional:
            shown = self._calm.update(
                event.utterance_id,
                [[t for t in s.token_ids if t not in translator.codec.skipped_ids] for s in sentences],
                translation,
                latin_word_boundary if translator.joiner else None,
                joined_sure_chars([(s.translation, s.sure_chars) for s in sentences], translator.joiner),
            )
            if shown is None:
                return  # it would change text the reader has passed, or is all guess: keep the last one
            translation, stable = shown
        else:
            self._calm.finish(event.utterance_id)
        latency = None if provisional else (time.monotonic() - event.speech_end_at) * 1000.0
        self._emit(
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
            )
        )
        if not provisional and translation and self.config.tts_enabled:
            self.speech_output.say(translation, target, event.utterance_id, speaker=self.config.speaker)
