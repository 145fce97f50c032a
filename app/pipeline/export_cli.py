"""`python -m app export TRANSCRIPT.jsonl --format txt|srt|vtt [--bilingual] [--out FILE]
[--chinese simplified|traditional|hongkong]`: a saved session as text or subtitles."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from app.pipeline.subtitles import check_destination, export, load, write_export
from app.shared import arguments
from app.shared.chinese import CHINESE_SCRIPTS
from app.shared.errors import QT_TRANSLATE_NOOP, LiveTranslatorError


def add_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "export", help="write a saved transcript as text, SRT or WebVTT subtitles", description=__doc__.splitlines()[0]
    )
    p.add_argument(
        "transcript",
        metavar="TRANSCRIPT.jsonl",
        type=arguments.transcript_file,
        help="a session transcript the app saved",
    )
    p.add_argument("--format", required=True, choices=("txt", "srt", "vtt"), help="text, SubRip or WebVTT")
    p.add_argument("--bilingual", action="store_true", help="source and translation together (default: translation)")
    p.add_argument("--out", metavar="FILE", type=arguments.output_file, help="write here (default: standard output)")
    p.add_argument(
        "--chinese",
        choices=CHINESE_SCRIPTS,
        default=None,
        help="rewrite the Chinese in this script (default: as saved)",
    )
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.out is not None:
        check_destination(args.out, args.transcript)
    entries = load(args.transcript, args.chinese, warn=lambda line: sys.stderr.write(f"warning: {line}\n"))
    if not entries and _blank(args.transcript):  # nothing at all: not a session, whatever its name
        raise LiveTranslatorError(
            QT_TRANSLATE_NOOP("Errors", "{path} is empty: it holds no session."),
            QT_TRANSLATE_NOOP(
                "Errors",
                "Give a session .jsonl file saved by the app (`run` prints its path; the window's are "
                "in the transcripts folder).",
            ),
            path=args.transcript,
        )
    text = export(entries, args.format, args.bilingual)
    if args.out is None:
        sys.stdout.write(text)
        return 0
    write_export(args.out, text)  # in one step: a failure leaves a file already there as it was
    sys.stderr.write(f"wrote {args.out}\n")
    return 0


def _blank(path: str) -> bool:
    """The file holds nothing but white space (load() has just read it whole, within its limit)."""
    return not Path(path).read_bytes().strip()
