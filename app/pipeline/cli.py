"""`python -m app run`: the live pipeline without a window, on a recording or the microphone."""

from __future__ import annotations

import argparse
import json
import sys

from app.shared.errors import LiveTranslatorError
from app.shared.events import DecodeStepEvent, Error, Event, Level, Translation
from app.shared.languages import DIRECTIONS

QUIET_IN_JSON = (DecodeStepEvent, Level)  # per-token and meter events: for the window, not for scripts


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser(
        "run", help="translate a recording or the microphone live, without the window",
        description="Recognise speech, translate it and speak the translation. Ctrl-C stops the microphone.")
    parser.add_argument("--input", metavar="FILE.wav", help="a recording to translate (default: the microphone)")
    parser.add_argument("--direction", required=True, choices=DIRECTIONS, help="spoken language - translation language")
    parser.add_argument("--nmt-model", metavar="DIR", help="translation model folder (default: the installed one)")
    parser.add_argument("--asr-model", metavar="NAME|DIR", default="base", help="Whisper size name or folder (default: base)")
    parser.add_argument("--tts-out", metavar="OUT.wav", help="write the spoken translations into this WAV file")
    parser.add_argument("--no-tts", action="store_true", help="do not speak the translations")
    parser.add_argument("--realtime", action="store_true", help="feed --input at speaking speed (default: as fast as it goes)")
    parser.add_argument("--json", action="store_true", help="one JSON object per event and line")
    parser.add_argument("--serve", metavar="[HOST:]PORT",
                        help="show live captions in a browser at http://HOST:PORT/ (default host 127.0.0.1; "
                             "any other host gets an access key)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from app.model_store.catalog import default_nmt_dir

    model = args.nmt_model or default_nmt_dir(args.direction)
    if model is None:
        raise LiveTranslatorError(
            f"No translation model for {args.direction} is installed.",
            "Pass --nmt-model DIR, or install one: python -m app models download (see README, 'Translation models').")
    # Our output keeps the real stdout; libraries that print (pyttsx3's espeak driver says
    # "Audio saved to ...", sometimes from its own thread) are sent to stderr meanwhile.
    out, sys.stdout = sys.stdout, sys.stderr
    try:
        return _run(args, model, out)
    finally:
        sys.stdout = out


def _run(args: argparse.Namespace, model, out) -> int:
    from app.model_store.optimized import prepare_on_stderr
    from app.pipeline import Pipeline, PipelineConfig

    errors = []

    def show(event: Event) -> None:
        if isinstance(event, Error):
            errors.append(event)
        if args.json:
            if not isinstance(event, QUIET_IN_JSON):
                out.write(json.dumps(event.to_json(), ensure_ascii=False) + "\n")
                out.flush()
        elif isinstance(event, Translation) and not event.provisional:
            out.write(f"{event.source} → {event.text}\n")
            out.flush()
        elif isinstance(event, Error):
            print(f"error ({event.stage}): {event.text}" + (f"\n  → {event.hint}" if event.hint else ""), file=sys.stderr)

    config = PipelineConfig(direction=args.direction, nmt_models={args.direction: model}, asr_model=args.asr_model,
                            input_path=args.input, realtime=args.realtime or args.input is None,
                            tts_enabled=not args.no_tts, tts_out=args.tts_out, emit_steps=False,
                            prepare_graphs=prepare_on_stderr)
    captions = _start_captions(args.serve) if args.serve else None
    observers = [show] + ([captions.on_event] if captions else [])

    def observe(event: Event) -> None:
        for observer in observers:
            observer(event)

    pipeline = Pipeline(config, on_event=observe)
    try:
        pipeline.start()
        while not pipeline.wait_until_done(0.5):
            pass
    finally:
        pipeline.stop()
        if captions is not None:
            captions.stop()
        if pipeline.transcript is not None:
            print(f"transcript saved: {pipeline.transcript.path}", file=sys.stderr)
    return 1 if errors else 0


def _start_captions(address: str):
    """The caption server of --serve, listening before the pipeline starts (issue 16)."""
    from app.captions import CaptionServer, parse_address

    host, port = parse_address(address)
    server = CaptionServer(host, port)
    server.start()
    print(f"captions: {server.url}", file=sys.stderr, flush=True)
    return server
