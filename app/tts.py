"""Speech output: speaks translations aloud (or into a WAV file) with the system's voices
(pyttsx3) or a natural piper voice (app.speech_engines says which speaks a text).

pyttsx3 engines must be created and run on one thread, so SpeechOutput owns a thread that
creates the engines (`VoiceEngines`) and works through a small queue of texts, one at a time;
no other thread creates or touches them. While it speaks, `speaking` is true, and every
stretch it played is kept (`PlaybackRecord`, read by the capture threads through
`may_be_heard_in`): the pipeline silences what its live sources captured at those times
(microphone and system audio alike: our voice reaches both), so the app does not translate its
own voice. A missing or broken speech engine becomes an Error event; everything else goes on
without speech. A text that kills the speech thread's work (an error nobody handled) is an
Error too, and the thread goes on with the next text.

Where speech goes: by default the speakers (the system engine's own output; a piper voice's
audio is played on the default output device). `outputs` routes a speaker's texts (in a
conversation, mine) to another device instead, an app.shared.audio.AudioOutput (an output by
name, or the virtual microphone a call app listens to): each text is rendered to audio and
played there. Each output says which captures it reaches (`heard_by`): the virtual microphone
reaches only system audio (the call app may echo it), so my microphone stays open while my
translation is sent into the call.
"""

from __future__ import annotations

import collections
import contextlib
import logging
import os
import queue
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import NamedTuple

import numpy as np
import soundfile

from app.shared.audio import AudioOutput, SourceKind
from app.shared.errors import QT_TRANSLATE_NOOP, LiveTranslatorError, Text
from app.shared.events import Error, Event, SentLevel, Speaker, Speech, Stage
from app.speech_engines import VoiceEngine, VoiceEngines
from app.speech_routes import HEARD_FROM_SPEAKERS, SpeechRoutes

log = logging.getLogger(__name__)

GAP_BETWEEN_FILE_UTTERANCES_S = 0.3


class PlaybackRecord:
    """What speech is queued, playing and was played, in monotonic seconds, and which captures
    each reaches: written by say() (any thread) and the speech thread, read by the capture
    threads (the own-voice gate). One lock guards all of it."""

    def __init__(self, keep: int = 32):
        self._lock = threading.Lock()
        self._pending = 0  # texts queued or being spoken
        self._pending_heard: collections.Counter[SourceKind] = collections.Counter()
        self._idle = threading.Event()
        self._idle.set()
        self._playing: tuple[float, frozenset[SourceKind]] | None = None  # (since, heard by)
        # (start, end + echo tail, heard by) of the latest texts played aloud
        self._played: collections.deque[tuple[float, float, frozenset[SourceKind]]] = collections.deque(maxlen=keep)
        self._quiet_after = 0.0  # the end of the latest text's echo tail

    def queued(self, heard: frozenset[SourceKind]) -> None:
        with self._lock:
            self._pending += 1
            self._pending_heard.update(heard)
            self._idle.clear()

    def finished(self, heard: frozenset[SourceKind]) -> None:
        """A queued text has been spoken, or dropped."""
        with self._lock:
            self._pending -= 1
            self._pending_heard.subtract(heard)
            if self._pending == 0:
                self._idle.set()

    def playing(self, heard: frozenset[SourceKind]) -> None:
        with self._lock:
            self._playing = (time.monotonic(), heard)

    def ended(self, echo_tail_s: float) -> None:
        """The text being spoken is done (played or not): its echo may last `echo_tail_s`."""
        with self._lock:
            self._quiet_after = time.monotonic() + echo_tail_s
            if self._playing is not None:
                since, heard = self._playing
                self._played.append((since, self._quiet_after, heard))
                self._playing = None

    def stopped(self) -> None:
        self._idle.set()

    def wait_idle(self, timeout: float | None) -> bool:
        return self._idle.wait(timeout)

    @property
    def speaking(self) -> bool:
        with self._lock:
            return self._pending > 0 or time.monotonic() < self._quiet_after

    def may_be_heard_in(self, kind: SourceKind, start: float, end: float) -> bool:
        """Might a capture of `kind` hold our voice between `start` and `end`? While speech that
        reaches it is queued or playing, within the echo tail of the last text, or when a text
        played there overlaps those times (audio reaches a capture late: a sound server's
        latency, so the capture time, not the time a block is read, is what counts)."""
        with self._lock:
            last_heard = self._played[-1][2] if self._played else HEARD_FROM_SPEAKERS
            if self._pending_heard[kind] > 0 or (time.monotonic() < self._quiet_after and kind in last_heard):
                return True
            if self._playing is not None and end >= self._playing[0] and kind in self._playing[1]:
                return True
            return any(
                kind in heard and played_end >= start and played_start <= end
                for played_start, played_end, heard in self._played
            )


class _Queued(NamedTuple):
    text: str
    language: str
    utterance_id: int
    speaker: Speaker | None
    heard: frozenset[SourceKind]  # the captures its output reaches, counted while it waits


class SpeechFile:
    """The WAV every spoken text of a session is appended to (`out_path`), complete after each."""

    def __init__(self, path: Path):
        self.path = path
        self._writer: soundfile.SoundFile | None = None

    def append(self, audio: np.ndarray, rate: int) -> None:
        writer = self._writer
        if writer is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            writer = self._writer = soundfile.SoundFile(self.path, "w", samplerate=rate, channels=1, subtype="PCM_16")
        elif writer.frames:
            writer.write(np.zeros(int(writer.samplerate * GAP_BETWEEN_FILE_UTTERANCES_S), dtype="int16"))
        if rate != writer.samplerate:  # two voices of other rates (a piper voice, the system's) in one file
            at = np.arange(round(len(audio) * writer.samplerate / rate)) * rate / writer.samplerate
            audio = np.interp(at, np.arange(len(audio)), audio).astype("int16")
        writer.write(audio)
        writer.flush()  # the file is complete after every utterance

    def close(self) -> None:
        if self._writer is not None:
            self._writer.close()
            self._writer = None


class SpeechOutput:
    """Speaks texts on its own thread; to the speakers, or appended to one WAV file.

    on_event receives Speech when a text has been spoken (or written) and Error when speech
    failed. `say` never blocks: it queues, or drops with an Error when the queue is full.
    """

    def __init__(
        self,
        *,
        enabled: bool = True,
        rate: int | None = None,
        out_path: str | os.PathLike | None = None,
        driver: str | None = None,
        voices: dict[str, str] | None = None,
        on_event: Callable[[Event], None] | None = None,
        echo_tail_s: float = 0.4,
        max_queued: int = 8,
        outputs: Mapping[Speaker | None, AudioOutput] | None = None,
    ):
        self.enabled = enabled
        self.rate = rate
        self.out_path = Path(out_path) if out_path else None
        self.driver = driver
        self.chosen_voices: dict[str, str | None] = dict(voices or {})  # language -> voice id, over the automatic pick
        self.on_event = on_event
        self.echo_tail_s = echo_tail_s  # room echo after the last word: keep the mic closed a bit
        self.available: bool | None = None  # unknown until the engine thread has tried
        self.routes = SpeechRoutes(outputs, echo_tail_s, self._emit)
        self.playback = PlaybackRecord()
        self._queue: queue.Queue[_Queued | None] = queue.Queue(maxsize=max_queued)
        self._thread: threading.Thread | None = None
        self._control = threading.Lock()  # start() and stop(), from any thread

    # -- control (any thread) -------------------------------------------------------------
    def start(self) -> None:
        with self._control:
            if self._thread is not None and self._thread.is_alive():
                return
            self._thread = threading.Thread(target=self._run, name="speech-output", daemon=True)
            self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        with self._control:
            thread = self._thread
            if thread is None:
                return
            self._drain()
            self._queue.put(None)  # the stop marker, after what say() queued meanwhile
            thread.join(timeout)
            self._thread = None
            self.routes.close_all()

    @property
    def outputs(self) -> dict[Speaker | None, AudioOutput]:
        """speaker -> where its texts are played (None: every speaker without its own entry);
        missing: the engine's own output. Set before start()."""
        return self.routes.outputs

    def set_voice(self, language: str, voice_id: str | None) -> None:
        """Speak `language` with this voice from the next text on (None: the automatic pick)."""
        self.chosen_voices[language] = voice_id

    def set_enabled(self, enabled: bool) -> None:
        self.enabled = enabled
        if not enabled:
            self._drain()

    def say(self, text: str, language: str, utterance_id: int = -1, speaker: Speaker | None = None) -> bool:
        """Queue `text` in `language` ("en"/"zh"); `speaker` labels its Speech event in a
        conversation. False when it will not be spoken."""
        if not (self.enabled and text.strip()) or self.available is False:
            return False
        item = _Queued(text, language, utterance_id, speaker, self.routes.heard_by(speaker))
        self.playback.queued(item.heard)  # before the speech thread can take it: counted from now
        try:
            self._queue.put_nowait(item)
            return True
        except queue.Full:
            self.playback.finished(item.heard)
        self._emit(
            Error.of(
                Stage.TTS,
                Text(QT_TRANSLATE_NOOP("Errors", "Speech output is behind; a translation was not spoken.")),
                Text(QT_TRANSLATE_NOOP("Errors", "Lower the speech rate or turn speech off.")),
                utterance_id,
                speaker=speaker,
            )
        )
        return False

    @property
    def speaking(self) -> bool:
        """True from the moment a text is queued until `echo_tail_s` after it was spoken."""
        return self.playback.speaking

    def may_be_heard_in(self, kind: SourceKind, start: float, end: float) -> bool:
        """Might a capture of `kind` hold our own voice between `start` and `end` (monotonic
        seconds)? Only outputs that reach it count: the virtual microphone never reaches my
        microphone, only (echoed by the call app) system audio."""
        return self.playback.may_be_heard_in(kind, start, end)

    def wait_idle(self, timeout: float | None = None) -> bool:
        """Wait until everything queued has been spoken. False on timeout."""
        return self.playback.wait_idle(timeout)

    # -- the speech thread ----------------------------------------------------------------
    def _run(self) -> None:
        speech_file = SpeechFile(self.out_path) if self.out_path is not None else None
        try:
            self.routes.open_all()
            # Speech off: no engine until it is turned on (its warm-up writes a temporary file).
            engines = self._make_engines() if self.enabled else None
            while (item := self._queue.get()) is not None:
                if engines is None and self.enabled and self.available is not False:
                    engines = self._make_engines()
                self._serve(engines, speech_file, item)
        except BaseException as error:  # outside any one text: no speech until the next start()
            self.available = False
            self._died(error, speech_goes_on=False)
        finally:
            if speech_file is not None:
                speech_file.close()
            self._drain()  # what say() queued behind the stop marker (or before the thread died)
            self.playback.stopped()

    def _serve(self, engines: VoiceEngines | None, speech_file: SpeechFile | None, item: _Queued) -> None:
        """Speak one text. An error nobody handled would end the thread: it is reported, and
        the thread goes on with the next text."""
        try:
            self._speak_item(engines, speech_file, item)
        except BaseException as error:  # whatever it is, speech must not die silently
            if engines is not None:
                engines.recover()
            self._died(error, True, item.utterance_id, item.speaker)
        finally:
            self.playback.finished(item.heard)

    def _died(
        self, error: BaseException, speech_goes_on: bool, utterance_id: int = -1, speaker: Speaker | None = None
    ) -> None:
        """Report an error nobody handled on the speech thread (its type says more than its words):
        within one text speech goes on with the next; outside any (its device, its engine) it is off."""
        hint = Text(
            QT_TRANSLATE_NOOP("Errors", "It was restarted: speech goes on with the next translation.")
            if speech_goes_on
            else QT_TRANSLATE_NOOP("Errors", "Translation goes on without speech.")
        )
        log.error("the speech thread met an unexpected error", exc_info=error)
        died = Text(
            QT_TRANSLATE_NOOP("Errors", "Speech output stopped unexpectedly: {reason}"),
            {"reason": f"{type(error).__name__}: {error}".removesuffix(": ")},
        )
        try:
            self._emit(Error.of(Stage.TTS, died, hint, utterance_id if utterance_id >= 0 else None, speaker=speaker))
        except BaseException:  # an observer that kills threads: speech goes on all the same
            log.exception("the speech thread's error could not be reported")

    def _speak_item(self, engines: VoiceEngines | None, speech_file: SpeechFile | None, item: _Queued) -> None:
        """Speak one queued text where its speaker's speech goes: the session's WAV (out_path),
        its speaker's output, or the speakers (the engine's own output, or played there)."""
        output = self.routes.output_for(item.speaker)
        if engines is None or not self.enabled or (output is not None and self.routes.failed(output)):
            return
        try:
            engine, voice = engines.for_text(item.language, self.chosen_voices.get(item.language), self.rate)
            if speech_file is not None:
                speech_file.append(*engine.render(item.text))
            elif output is not None:
                self._speak_into(engine, output, item.text)
            elif engine.plays_itself:
                self.playback.playing(HEARD_FROM_SPEAKERS)
                engine.speak(item.text)
            else:
                self._speak_into(engine, self.routes.default_speakers(), item.text, metered=False)
            path = str(speech_file.path) if speech_file is not None else None
            language, speaker = item.language, item.speaker
            self._emit(
                Speech(
                    utterance_id=item.utterance_id,
                    text=item.text,
                    language=language,
                    path=path,
                    voice=voice,
                    speaker=speaker,
                )
            )
        except LiveTranslatorError as error:  # its own words and hint (the virtual microphone went away)
            self._emit(Error.of(Stage.TTS, error.text, error.hint_text, item.utterance_id, speaker=item.speaker))
        except Exception as error:  # the engine failed on this text: report, go on
            failed = Text(QT_TRANSLATE_NOOP("Errors", "Speech output failed: {reason}"), {"reason": error})
            going_on = Text(QT_TRANSLATE_NOOP("Errors", "Speech continues with the next translation."))
            self._emit(Error.of(Stage.TTS, failed, going_on, item.utterance_id, speaker=item.speaker))
        finally:
            self.playback.ended(output.echo_tail_s if output is not None else self.echo_tail_s)

    def _speak_into(self, engine: VoiceEngine, output: AudioOutput, text: str, metered: bool = True) -> None:
        """Render `text` to audio, then play it on `output` (the virtual microphone, a chosen device,
        the speakers); `metered`: the window shows its level (what is sent into a call)."""
        audio, rate = engine.render(text)
        self.playback.playing(output.heard_by)

        def meter(rms: float, peak: float) -> None:
            self._emit(SentLevel(rms=rms, peak=peak, device=output.name))

        output.play(audio, rate, meter if metered else None)

    def _make_engines(self) -> VoiceEngines | None:
        engines = VoiceEngines(self.driver, self._emit)
        self.available = engines.start()
        if not self.available:
            self._drain()
            return None
        return engines

    # -- helpers --------------------------------------------------------------------------
    def _drain(self) -> None:
        """Forget the texts not yet spoken (a stop marker among them stays queued)."""
        stop_marker = False
        with contextlib.suppress(queue.Empty):
            while True:
                item = self._queue.get_nowait()
                if item is None:
                    stop_marker = True
                else:
                    self.playback.finished(item.heard)
        if stop_marker:
            self._queue.put(None)

    def _emit(self, event: Event) -> None:
        if self.on_event is not None:
            try:
                self.on_event(event)
            except Exception:  # an observer's bug must not stop speech
                log.exception("an event observer failed on %s", event.type)
