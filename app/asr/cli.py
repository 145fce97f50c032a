"""`python -m app transcribe FILE ...` and `python -m app listen ...`: speech to text on the console.

Both run the same loop (app.asr.live.recognize): a recording stands in for the microphone.
Plain output prints each final text; --json prints every partial and final event as one JSON
object per line (type, utterance_id, text, committed, start, end, emitted_at, ...).
"""

from __future__ import annotations

import argparse
import json
import sys

# The packages, not their names: a command's work is looked up when it runs (a test trips on it).
from app import asr, audio
from app.asr.options import RecognizerOptions
from app.asr.whisper_models import DEFAULT_MODEL
from app.audio import devices
from app.audio.cli import StopRequests, add_live_options
from app.shared import arguments
from app.shared.chinese import CHINESE_SCRIPTS
from app.shared.glossary import Glossary
from app.shared.languages import Language


def add_parser(subparsers) -> None:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--language",
        choices=[language.value for language in Language],
        default="en",
        help="language spoken (default: en)",
    )
    common.add_argument(
        "--model",
        type=arguments.model_name_or_folder,
        default=DEFAULT_MODEL,
        help="Whisper model: a size name (tiny.en, base, ...) or a folder (default: base)",
    )
    common.add_argument("--json", action="store_true", help="print every event as one JSON object per line")
    common.add_argument(
        "--glossary",
        action="append",
        type=arguments.glossary_file,
        default=[],
        metavar="FILE",
        help="a glossary (english<TAB>chinese per line): its terms in the spoken language are "
        "given to Whisper as hotwords; repeatable",
    )
    common.add_argument(
        "--chinese",
        choices=CHINESE_SCRIPTS,
        default="simplified",
        help="script of recognised Chinese: simplified, traditional (Taiwan) or hongkong",
    )

    transcribe = subparsers.add_parser("transcribe", parents=[common], help="transcribe an audio file")
    transcribe.add_argument("file", type=arguments.audio_file, help="audio file (WAV, FLAC, MP3, ...)")
    transcribe.add_argument("--realtime", action="store_true", help="feed the file at speaking pace, like a microphone")
    transcribe.set_defaults(run=run_transcribe)

    listen = subparsers.add_parser(
        "listen", parents=[common], help="transcribe the microphone (or system audio) until Ctrl-C or --duration"
    )
    add_live_options(listen)
    listen.add_argument("--list-devices", action="store_true", help="list microphones and exit (all sources: devices)")
    listen.set_defaults(run=run_listen)


def _print_events(events, as_json: bool) -> int:
    """Print the events; the exit status: 1 if any was an error (the job was not all done), else 0."""
    errors = 0
    for event in events:
        errors += event.type == "error"
        if as_json:
            if event.type in ("partial", "final", "error", "status"):
                print(json.dumps(event.to_json(), ensure_ascii=False), flush=True)
        elif event.type == "final" and event.text:
            print(event.text, flush=True)
        elif event.type == "error":
            print(f"error: {event.text}\n  → {event.hint}", file=sys.stderr, flush=True)
    return 1 if errors else 0


def _options(args):
    """RecognizerOptions with the --glossary files' terms as hotwords."""
    if not args.glossary:
        return None
    glossary = Glossary.load_all(args.glossary)
    for problem in glossary.problems:
        print(f"warning: glossary {problem}", file=sys.stderr)
    return RecognizerOptions(hotwords={language: glossary.terms(language) for language in ("en", "zh")})


def run_transcribe(args) -> int:
    source = audio.FileSource(args.file, realtime=args.realtime)
    source.start()  # a missing or unreadable file is an error before any model loads
    recognizer = asr.StreamingRecognizer(
        args.model, language=args.language, options=_options(args), chinese=args.chinese
    )
    return _print_events(asr.recognize(source, recognizer), args.json)


def run_listen(args) -> int:
    if args.list_devices:
        for d in audio.list_input_devices():
            print(
                f"{d.index:3d}{' *' if d.is_default else '  '} {d.name} ({d.host_api}, {d.channels} ch, {d.default_samplerate:g} Hz)"  # noqa: E501
            )
        return 0
    recognizer = asr.StreamingRecognizer(
        args.model, language=args.language, options=_options(args), chinese=args.chinese
    )
    source = devices.open_source(args.source, args.device)
    if not args.json:
        print(f"Listening to {args.source}… (Ctrl-C to stop)", file=sys.stderr)
    # Ctrl-C, SIGTERM or --duration end the capture; the utterance in progress is still finalised and printed.
    with StopRequests(args.duration) as stop:
        stop.start_clock()
        try:
            return _print_events(asr.recognize(source, recognizer, stop=stop.requested, retry_s=2.0), args.json)
        except KeyboardInterrupt:  # asked twice: stopped at once, the utterance in progress is lost
            return 130
