"""The installed voices for the speech output, per target language (the window's voice list).

Which voice speaks which language is app.tts's rule (`voices_for`); speaking with the chosen
one is SpeechOutput's own job (`voices=`, `set_voice()`).

The list comes from a child process. A pyttsx3 engine belongs to the one thread that made it
(the speech thread), and pyttsx3 hands out one shared engine per driver: a second engine made
in this process on another thread would reset espeak's process-wide callback under the speech
thread's feet, and dropping it needs a garbage collection that may run any thread's
finalizers. A child has its own engine and dies with it.
"""

from __future__ import annotations

import logging
import multiprocessing

from app.shared.languages import Language

log = logging.getLogger(__name__)

VOICES_TIMEOUT_S = 30.0  # a child that takes longer (a hung speech driver) is killed: no voice list


def list_voices() -> dict[str, list[tuple[str, str]]]:
    """{"en": [(id, name)...], "zh": [...]} of the installed pyttsx3 voices, best first (slow: a worker).
    Empty lists when the speech engine cannot be asked."""
    # spawn, not fork: a forked child of a threaded Qt process may inherit a held lock.
    pool = multiprocessing.get_context("spawn").Pool(1)
    try:
        return pool.apply_async(installed_voices).get(VOICES_TIMEOUT_S)
    except Exception:  # no speech engine, a broken driver, a timeout: the window shows no voices
        log.warning("the installed speech voices could not be listed", exc_info=True)
        return {language.value: [] for language in Language}
    finally:
        pool.terminate()
        pool.join()


def installed_voices() -> dict[str, list[tuple[str, str]]]:
    """The voices as the speech engine of this process lists them (runs in the child)."""
    import pyttsx3

    from app.tts import voices_for

    engine = pyttsx3.init()
    voices = engine.getProperty("voices")
    return {language.value: [(v.id, v.name or v.id) for v in voices_for(voices, language)] for language in Language}
