"""The speech engines and which one speaks a text: the system's voices through pyttsx3
(espeak-ng on Linux, SAPI5 on Windows, NSSpeechSynthesizer on macOS) and piper's natural voices
where they are installed (app.piper_voices).

`VoiceEngines` belongs to SpeechOutput's speech thread (pyttsx3's engine must be made and used
on one thread): for a text in a language it picks the voice (the chosen one, else the default:
on Linux a piper voice for the language when one is installed, else the system's best) and the
engine that has it, prepared at the session's rate. Either engine `render`s a text to audio;
only the system engine `plays_itself` on the speakers. A piper voice that is not installed or
does not load is said once (an Error event), and the system voice speaks instead: nothing lost.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import sys
import tempfile
from collections.abc import Callable
from typing import Protocol

import numpy as np
import soundfile

from app.piper_voices import PiperEngine, PiperVoiceFile, installed_piper_voices, is_piper, piper_voices_for
from app.platform import voices
from app.shared.errors import QT_TRANSLATE_NOOP, Text
from app.shared.events import Error, Event, Stage
from app.shared.languages import Language

log = logging.getLogger(__name__)

# espeak-ng voices on Linux, best first: `cmn-latn-pinyin` reads Mandarin properly
# (docs/models.md, 'Speech voices').
ESPEAK_VOICES = {Language.EN: ("gmw/en-us", "gmw/en"), Language.ZH: ("sit/cmn-latn-pinyin", "sit/cmn")}
# Codes and words that name a language in voice language tags (or, without tags, in ids and names).
LANGUAGE_WORDS = {Language.EN: {"en", "english"}, Language.ZH: {"zh", "cmn", "mandarin"}}
# Chinese voices that read Mandarin text wrongly.
NOT_MANDARIN = {"yue", "hak", "nan", "cantonese", "hakka"}


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


def _quiet_driver(engine) -> None:
    """pyttsx3's drivers print: espeak's "Audio saved to …" (and playback errors) from espeak's
    own callback thread, SAPI5's and NSSS's notes on unsupported settings. Printed on stdout,
    they would corrupt `run --json`'s output. The driver module's own `print` is pointed at the
    log (DEBUG), once, when the engine is made: the driver's words are kept, off the terminal,
    and sys.stdout, which the whole process shares, is never swapped from the speech thread."""
    driver = getattr(getattr(engine, "proxy", None), "_driver", None)
    module = sys.modules.get(type(driver).__module__) if driver is not None else None
    if module is not None and module.__name__.startswith("pyttsx3.drivers."):
        module.print = _driver_said


def _driver_said(*values, **_ignored) -> None:
    log.debug("pyttsx3: %s", " ".join(str(value) for value in values))


class SystemEngine:
    """One pyttsx3 engine (espeak-ng, SAPI5, NSSpeechSynthesizer); made, used and dropped on the
    speech thread only (pyttsx3's rule). It plays on its own output (the speakers) or renders."""

    plays_itself = True

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
        self.engine.runAndWait()  # the driver's prints go to the log (_quiet_driver)

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


class VoiceEngine(Protocol):
    """What SpeechOutput asks of an engine, on the speech thread."""

    plays_itself: bool  # speak() plays on the speakers; else render() and play the audio

    def prepare(self, voice: str | None, rate: int | None) -> None: ...

    def speak(self, text: str) -> None: ...

    def render(self, text: str) -> tuple[np.ndarray, int]: ...

    def recover(self) -> None: ...


def default_voice(language: Language | str, piper: list[PiperVoiceFile]) -> str | None:
    """The voice a text in `language` gets unless one is chosen: on Linux, where the system's
    voices are espeak-ng's, a natural (piper) voice when one is installed; None: the system's pick."""
    natural = piper_voices_for(language, piper)
    return natural[0].id if natural and voices.system_voices_are_robotic() else None


class VoiceEngines:
    """The speech thread's engines (the system's, made by start(); a piper engine per voice, made
    when first asked) and the choice of the one that speaks a text."""

    def __init__(self, driver: str | None, emit: Callable[[Event], None]):
        self.driver = driver
        self._emit = emit
        self.system: SystemEngine | None = None
        self.piper_voices = installed_piper_voices()
        self._piper: dict[str, PiperEngine] = {}
        self._reported: set[str] = set()  # voices and languages already said to be missing or broken

    def start(self) -> bool:
        """Make the system engine; False (said in an Error event) when there is no speech at all."""
        try:
            self.system = SystemEngine(self.driver)
            return True
        except Exception as error:  # no espeak-ng / SAPI / NSSpeech, or a broken driver
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
            return False

    def for_text(self, language: str, chosen: str | None, rate: int | None) -> tuple[VoiceEngine, str | None]:
        """The engine that speaks a text in `language`, prepared, and the voice it speaks with:
        the `chosen` voice, else the default (None: the system engine's own default)."""
        voice = chosen or default_voice(language, self.piper_voices)
        if is_piper(voice):
            engine = self._piper_engine(voice)
            if engine is not None:
                engine.prepare(voice, rate)
                return engine, voice
            voice = None  # said why: the system's own pick speaks instead
        system = self.system
        assert system is not None, "start() made the system engine"
        voice = voice or system.voices.get(language)
        if voice is None:
            self._say_once(
                language,
                text=Text(
                    QT_TRANSLATE_NOOP("Errors", "No speech voice for language '{language}'; using the default voice."),
                    {"language": language},
                ),
                hint=Text(
                    QT_TRANSLATE_NOOP("Errors", "Install a voice for it (espeak-ng has cmn-latn-pinyin for Mandarin).")
                ),
            )
        system.prepare(voice, rate)
        return system, voice

    def recover(self) -> None:
        if self.system is not None:
            self.system.recover()

    def _piper_engine(self, voice_id: str) -> PiperEngine | None:
        """The engine of an installed piper voice, loaded once; None (said once) when it is missing or broken."""
        if voice_id in self._piper:
            return self._piper[voice_id]
        instead = Text(
            QT_TRANSLATE_NOOP(
                "Errors",
                "The system voice speaks instead. Install the voice again (./setup.sh app installs the "
                "English one) or choose another voice.",
            )
        )
        found = next((v for v in self.piper_voices if v.id == voice_id), None)
        if found is None:
            missing = Text(QT_TRANSLATE_NOOP("Errors", "The voice {voice} is not installed."), {"voice": voice_id})
            self._say_once(voice_id, text=missing, hint=instead)
            return None
        try:
            engine = self._piper[voice_id] = PiperEngine(found)
            return engine
        except Exception as error:  # a damaged model or config, a missing file, ONNX Runtime refusing it
            broken = Text(
                QT_TRANSLATE_NOOP("Errors", "The voice {voice} cannot be loaded ({file}): {reason}"),
                {"voice": voice_id, "file": str(found.model), "reason": f"{type(error).__name__}: {error}"},
            )
            self._say_once(voice_id, text=broken, hint=instead)
            return None

    def _say_once(self, key: str, text: Text, hint: Text) -> None:
        if key not in self._reported:
            self._reported.add(key)
            self._emit(Error.of(Stage.TTS, text, hint))
