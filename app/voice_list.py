"""The installed voices for the speech output, per language: the window's voice list, the
`voices` command and what `run --voice` accepts.

Which voice speaks which language is app.speech_engines' rule (`voices_for`, and the piper
voices' own language); speaking with the chosen one is SpeechOutput's own job (`voices=`,
`set_voice()`). Natural (piper) voices come first, the system's after them.

The list comes from a child process. A pyttsx3 engine belongs to the one thread that made it
(the speech thread), and pyttsx3 hands out one shared engine per driver: a second engine made
in this process on another thread would reset espeak's process-wide callback under the speech
thread's feet, and dropping it needs a garbage collection that may run any thread's
finalizers. A child has its own engine and dies with it.
"""

from __future__ import annotations

import argparse
import json
import logging
import multiprocessing
import sys

from app.shared.errors import QT_TRANSLATE_NOOP, LiveTranslatorError
from app.shared.languages import Language

log = logging.getLogger(__name__)

VOICES_TIMEOUT_S = 30.0  # a child that takes longer (a hung speech driver) is killed: no voice list


def list_voices() -> dict[str, list[tuple[str, str]]]:
    """{"en": [(id, name)...], "zh": [...]} of the installed voices, best first (slow: a worker).
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

    from app.piper_voices import piper_voices_for  # lazy: in the child only
    from app.speech_engines import voices_for  # lazy: soundfile (a C library) stays off --help

    engine = pyttsx3.init()
    voices = engine.getProperty("voices")
    return {
        language.value: [(v.id, v.label) for v in piper_voices_for(language)]
        + [(v.id, v.name or v.id) for v in voices_for(voices, language)]
        for language in Language
    }


def language_of(voice_id: str, voices: dict[str, list[tuple[str, str]]]) -> str:
    """The language an installed voice speaks ("en", "zh"); a clear error naming the installed
    ones when there is no such voice."""
    for language, listed in voices.items():
        if any(voice_id == listed_id for listed_id, _ in listed):
            return language
    listing = "; ".join(
        f"{language}: {', '.join(i for i, _ in listed)}" for language, listed in voices.items() if listed
    )
    raise LiveTranslatorError(
        QT_TRANSLATE_NOOP("Errors", "There is no voice {voice} for English or Chinese. Installed: {listing}."),
        QT_TRANSLATE_NOOP("Errors", "Pick a voice by its id (python -m app voices)."),
        voice=repr(voice_id),
        listing=listing or "none",
    )


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser(
        "voices",
        help="list the speech voices for English and Chinese",
        description="Every installed voice that speaks English or Chinese, best first: natural "
        "(piper) voices, then the system's. `run --voice ID` speaks with one.",
    )
    parser.add_argument(
        "--json", action="store_true", help='one JSON object per line: {"id", "name", "language", "default"}'
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from app.piper_voices import installed_piper_voices, is_piper  # lazy: as in installed_voices
    from app.speech_engines import default_voice  # lazy: soundfile stays off --help

    voices = list_voices()
    piper = installed_piper_voices()
    for language, listed in voices.items():
        # The default: the natural voice where it is (Linux), else the system's best.
        default = default_voice(language, piper) or next((i for i, _ in listed if not is_piper(i)), None)
        for voice_id, name in listed:
            line = {"id": voice_id, "name": name, "language": language, "default": voice_id == default}
            if args.json:
                sys.stdout.write(json.dumps(line, ensure_ascii=False) + "\n")
            else:
                sys.stdout.write(f"{language}  {'*' if line['default'] else ' '} {voice_id}: {name}\n")
    sys.stdout.flush()
    return 0 if any(voices.values()) else 1
