"""Speech output: speaks translations aloud (or into a WAV file) with pyttsx3.

pyttsx3 engines must be created and run on one thread, so SpeechOutput owns a thread that
creates the engine (`Engine`) and works through a small queue of texts, one `runAndWait` per
text; no other thread creates or touches it. While it speaks, `speaking` is true, and every
stretch it played is kept (`PlaybackRecord`, read by the capture threads through
`may_be_heard_in`): the pipeline silences what its live sources captured at those times
(microphone and system audio alike: our voice reaches both), so the app does not translate its
own voice. A missing or broken speech engine becomes an Error event; everything else goes on
without speech. A text that kills the speech thread's work (an error nobody handled) is an
Error too, and the thread goes on with the next text.

Where speech goes: by default the engine's own output (the speakers). `outputs` routes a
speaker's texts (in a conversation, mine) to another device instead, an
app.shared.audio.AudioOutput (an output by name, or the virtual microphone a call app listens
to): each text is rendered to audio (pyttsx3's save_to_file) and played there. Each output says
which captures it reaches (`heard_by`): the virtual microphone reaches only system audio (the
call app may echo it), so my microphone stays open while my translation is sent into the call.
"""

from __future__ import annotations

import collections
import contextlib
import io
import logging
import os
import queue
import re
import sys
import tempfile
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
from app.shared.languages import Language

log = logging.getLogger(__name__)

# espeak-ng voices on Linux, best first: `cmn-latn-pinyin` reads Mandarin properly
# (docs/models.md, 'Speech voices').
ESPEAK_VOICES = {Language.EN: ("gmw/en-us", "gmw/en"), Language.ZH: ("sit/cmn-latn-pinyin", "sit/cmn")}
# Codes and words that name a language in voice language tags (or, without tags, in ids and names).
LANGUAGE_WORDS = {Language.EN: {"en", "english"}, Language.ZH: {"zh", "cmn", "mandarin"}}
# Chinese voices that read Mandarin text wrongly.
NOT_MANDARIN = {"yue", "hak", "nan", "cantonese", "hakka"}
GAP_BETWEEN_FILE_UTTERANCES_S = 0.3
# The engine's own output (the speakers) reaches the microphone (no headphones) and system audio.
HEARD_FROM_SPEAKERS = frozenset({SourceKind.MICROPHONE, SourceKind.SYSTEM})


def voice_language(voice) -> Language | None:
    """The language a pyttsx3 voice speaks, by one rule for every platform: its language tags
    ("en-gb", "cmn", "zh_CN"), else the words of its id and name; None for other languages."""
    tags = [str(tag).lower().replace("_", "-") for tag in voice.languages or ()]
    described = " ".join([*tags, voice.id, voice.name or ""]).lower()
    words = {tag.split("-")[0] for tag in tags} or set(re.findall(r"[a-z]+", described))
    for language, names in LANGUAGE_WORDS.items():
        if words & names:
            if language is Language.ZH and NOT_MANDARIN & set(re.findall(r"[a-z]+", described)):
                return None
            return language
    return None


def voices_for(voices, language: Language | str) -> list:
    """The installed voices that speak `language`, best first."""
    language = Language(language)
    matching = [v for v in voices if voice_language(v) is language]
    preferred = ESPEAK_VOICES.get(language, ())
    return sorted(matching, key=lambda v: preferred.index(v.id) if v.id in preferred else len(preferred))


def pick_voice(voices, language: Language | str) -> str | None:
    """The id of the best installed voice for `language`, or None."""
    best = voices_for(voices, language)
    return best[0].id if best else None


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


def _quiet_driver(engine) -> None:
    """pyttsx3's espeak driver prints "Audio saved to …" (and playback errors) from espeak's own
    callback thread, sometimes after `_run`'s redirect has ended and the file name was reset:
    "Audio saved to None" on stdout, or on stderr under `run`. Its module's `print` is pointed at
    the log (DEBUG) instead: the driver's words are kept, off the terminal."""
    driver = getattr(getattr(engine, "proxy", None), "_driver", None)
    module = sys.modules.get(type(driver).__module__) if driver is not None else None
    if module is not None and module.__name__ == "pyttsx3.drivers.espeak":
        module.print = _driver_said


def _driver_said(*values, **_ignored) -> None:
    log.debug("pyttsx3: %s", " ".join(str(value) for value in values))


class Engine:
    """One pyttsx3 engine; made, used and dropped on the speech thread only (pyttsx3's rule)."""

    def __init__(self, driver: str | None):
        import pyttsx3

        self.engine = pyttsx3.init(driver) if driver else pyttsx3.init()
        _quiet_driver(self.engine)
        installed = self.engine.getProperty("voices")
        self.voices = {lang: pick_voice(installed, lang) for lang in Language}  # the automatic pick
        # pyttsx3 2.99's espeak driver loses the first text it is given when that text is
        # long (nothing saved; played instead): a short first synthesis avoids it.
        with contextlib.suppress(Exception):  # only a precaution: never a reason to fail
            self._synthesize_to_file("ready")

    def prepare(self, voice: str | None, rate: int | None) -> None:
        if voice is not None:
            self.engine.setProperty("voice", voice)
        if rate:
            self.engine.setProperty("rate", rate)
        driver = getattr(getattr(self.engine, "proxy", None), "_driver", None)
        if type(driver).__module__ == "pyttsx3.drivers.espeak":
            # espeak-ng applies parameters through its own command queue; without waiting for
            # it, a text is sometimes spoken at the old rate (seen here about one time in three).
            from pyttsx3.drivers import _espeak

            _espeak.Synchronize()

    def speak(self, text: str) -> None:
        self.engine.say(text)
        self._run()

    def render(self, text: str) -> tuple[np.ndarray, int]:
        """`text` as int16 samples and their rate."""
        # pyttsx3 2.99's espeak driver now and then writes nothing for a text (seen here about
        # once in 40 runs, even after the warm-up): one more try before reporting a failure.
        for _attempt in range(2):
            try:
                audio, rate = self._synthesize_to_file(text)
            except soundfile.LibsndfileError:  # the driver left the WAV empty
                audio, rate = np.zeros(0, dtype="int16"), 0
            if len(audio):
                return audio, rate
        raise RuntimeError("the speech engine produced no audio")

    def recover(self) -> None:
        """After an error broke off a run, end pyttsx3's loop: it would refuse every later text."""
        with contextlib.suppress(Exception):  # not in a loop: nothing to end
            self.engine.endLoop()

    def _run(self) -> None:
        # pyttsx3's espeak driver prints "Audio saved to ..." on stdout, which would corrupt
        # `run --json` output; the command line writes through its own handle to stdout.
        with contextlib.redirect_stdout(io.StringIO()):
            self.engine.runAndWait()

    def _synthesize_to_file(self, text: str) -> tuple[np.ndarray, int]:
        fd, tmp = tempfile.mkstemp(suffix=".wav", prefix="live-translator-tts-")
        os.close(fd)
        try:
            self.engine.save_to_file(text, tmp)
            self._run()
            # pyttsx3 2.99's espeak driver keeps the file name after save_to_file, so a later
            # say() would overwrite that file instead of playing: forget it.
            driver = getattr(getattr(self.engine, "proxy", None), "_driver", None)
            if hasattr(driver, "_save_file"):
                driver._save_file = None
            audio, rate = soundfile.read(tmp, dtype="int16", always_2d=True)
            return audio[:, 0], rate
        finally:
            os.unlink(tmp)


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
        if rate != writer.samplerate:
            raise RuntimeError(f"the speech engine changed sample rate ({rate} Hz, file has {writer.samplerate} Hz)")
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
        # speaker -> where its texts are played (None: every speaker without its own entry);
        # missing: the engine's own output. An output that failed to open stays silent.
        self.outputs: dict[Speaker | None, AudioOutput] = dict(outputs or {})
        self.playback = PlaybackRecord()
        self._queue: queue.Queue[_Queued | None] = queue.Queue(maxsize=max_queued)
        self._thread: threading.Thread | None = None
        self._control = threading.Lock()  # start() and stop(), from any thread
        self._failed_outputs: set[int] = set()  # ids of outputs that failed to open (speech thread)
        self._missing_voice_reported: set[str] = set()  # speech thread

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
            for output in self.outputs.values():
                output.close()
            self._failed_outputs.clear()

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
        item = _Queued(text, language, utterance_id, speaker, self._heard_by(speaker))
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

    def _heard_by(self, speaker: Speaker | None) -> frozenset[SourceKind]:
        output = self._output_for(speaker)
        return HEARD_FROM_SPEAKERS if output is None else output.heard_by

    def _output_for(self, speaker: Speaker | None) -> AudioOutput | None:
        return self.outputs.get(speaker, self.outputs.get(None))

    # -- the speech thread ----------------------------------------------------------------
    def _run(self) -> None:
        speech_file = SpeechFile(self.out_path) if self.out_path is not None else None
        try:
            self._open_outputs()
            # Speech off: no engine until it is turned on (its warm-up writes a temporary file).
            engine = self._make_engine() if self.enabled else None
            while (item := self._queue.get()) is not None:
                if engine is None and self.enabled and self.available is not False:
                    engine = self._make_engine()
                self._serve(engine, speech_file, item)
        except BaseException as error:  # outside any one text: no speech until the next start()
            self.available = False
            self._died(error, speech_goes_on=False)
        finally:
            if speech_file is not None:
                speech_file.close()
            self._drain()  # what say() queued behind the stop marker (or before the thread died)
            self.playback.stopped()

    def _serve(self, engine: Engine | None, speech_file: SpeechFile | None, item: _Queued) -> None:
        """Speak one text. An error nobody handled would end the thread: it is reported, and
        the thread goes on with the next text."""
        try:
            self._speak_item(engine, speech_file, item)
        except BaseException as error:  # whatever it is, speech must not die silently
            if engine is not None:
                engine.recover()
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

    def _speak_item(self, engine: Engine | None, speech_file: SpeechFile | None, item: _Queued) -> None:
        """Speak one queued text where its speaker's speech goes: the session's WAV (out_path),
        its speaker's output, or the engine's own (the speakers)."""
        output = self._output_for(item.speaker)
        if engine is None or not self.enabled or (output is not None and id(output) in self._failed_outputs):
            return
        try:
            self._prepare(engine, item.language)
            if speech_file is not None:
                speech_file.append(*engine.render(item.text))
            elif output is not None:
                self._speak_into(engine, output, item.text)
            else:
                self.playback.playing(HEARD_FROM_SPEAKERS)
                engine.speak(item.text)
            path = str(speech_file.path) if speech_file is not None else None
            language, speaker = item.language, item.speaker
            self._emit(
                Speech(utterance_id=item.utterance_id, text=item.text, language=language, path=path, speaker=speaker)
            )
        except LiveTranslatorError as error:  # its own words and hint (the virtual microphone went away)
            self._emit(Error.of(Stage.TTS, error.text, error.hint_text, item.utterance_id, speaker=item.speaker))
        except Exception as error:  # the engine failed on this text: report, go on
            failed = Text(QT_TRANSLATE_NOOP("Errors", "Speech output failed: {reason}"), {"reason": error})
            going_on = Text(QT_TRANSLATE_NOOP("Errors", "Speech continues with the next translation."))
            self._emit(Error.of(Stage.TTS, failed, going_on, item.utterance_id, speaker=item.speaker))
        finally:
            self.playback.ended(output.echo_tail_s if output is not None else self.echo_tail_s)

    def _open_outputs(self) -> None:
        for output in set(self.outputs.values()):
            try:
                output.open()
            except LiveTranslatorError as error:  # no sound server, no such device, a module refused
                self._failed_outputs.add(id(output))
                self._emit(Error.of(Stage.TTS, error.text, error.hint_text))
            except Exception as error:  # a library failing its own way
                self._failed_outputs.add(id(output))
                failed = Text(
                    QT_TRANSLATE_NOOP("Errors", "Speech cannot be played on {device}: {reason}"),
                    {"device": output.name, "reason": error},
                )
                going_on = Text(QT_TRANSLATE_NOOP("Errors", "Translation goes on without speech."))
                self._emit(Error.of(Stage.TTS, failed, going_on))

    def _speak_into(self, engine: Engine, output: AudioOutput, text: str) -> None:
        """Render `text` to audio, then play it on `output` (the virtual microphone, a chosen device)."""
        audio, rate = engine.render(text)
        self.playback.playing(output.heard_by)

        def meter(rms: float, peak: float) -> None:
            self._emit(SentLevel(rms=rms, peak=peak, device=output.name))

        output.play(audio, rate, meter)

    def _make_engine(self) -> Engine | None:
        try:
            engine = Engine(self.driver)
            self.available = True
            return engine
        except Exception as error:  # no espeak-ng / SAPI / NSSpeech, or a broken driver
            self.available = False
            self._drain()
            self._emit(
                Error.of(
                    Stage.TTS,
                    Text(QT_TRANSLATE_NOOP("Errors", "Speech output is unavailable: {reason}"), {"reason": error}),
                    Text(
                        QT_TRANSLATE_NOOP(
                            "Errors",
                            "Install espeak-ng (Linux: apt-get install espeak-ng alsa-utils); "
                            "translations are still shown.",
                        )
                    ),
                )
            )
            return None

    def _prepare(self, engine: Engine, language: str) -> None:
        """The voice and rate for a text in `language`: the chosen voice, else the automatic pick."""
        voice = self.chosen_voices.get(language) or engine.voices.get(language)
        if voice is None and language not in self._missing_voice_reported:
            self._missing_voice_reported.add(language)
            self._emit(
                Error.of(
                    Stage.TTS,
                    Text(
                        QT_TRANSLATE_NOOP(
                            "Errors", "No speech voice for language '{language}'; using the default voice."
                        ),
                        {"language": language},
                    ),
                    Text(
                        QT_TRANSLATE_NOOP(
                            "Errors", "Install a voice for it (espeak-ng has cmn-latn-pinyin for Mandarin)."
                        )
                    ),
                )
            )
        engine.prepare(voice, self.rate)

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
