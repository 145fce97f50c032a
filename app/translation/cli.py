"""`python -m app translate --model DIR --direction en-zh|zh-en [--beams N] [--max-new-tokens N]
[--verify] [--json] [--quantized] [--no-optimize] [--glossary FILE ...]
[--chinese simplified|traditional|hongkong] TEXT...`: one translation per input (plain), or one JSON object per line."""

from __future__ import annotations

import argparse
import json
import sys

from app.shared import arguments
from app.shared.chinese import CHINESE_SCRIPTS
from app.shared.glossary import Glossary
from app.shared.languages import DIRECTIONS
from app.translation.generation_settings import check_setting
from app.translation.options import DecodeOptions
from app.translation.sentences import has_undecodable
from app.translation.translator import Translator


def add_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "translate", help="translate text with an ONNX model folder", description=__doc__.splitlines()[0]
    )
    p.add_argument(
        "--model",
        required=True,
        metavar="DIR",
        type=arguments.model_folder,
        help="model folder (config.json, tokenizer, *.onnx)",
    )
    p.add_argument("--direction", required=True, choices=DIRECTIONS)
    p.add_argument(
        "--beams", type=int, default=None, metavar="N", help="beam size (default: the model's generation_config)"
    )
    p.add_argument(
        "--max-new-tokens", type=int, default=None, metavar="N", help="at most N generated tokens per sentence"
    )
    p.add_argument("--verify", action="store_true", help="recompute every step without the cache; report max_abs_diff")
    p.add_argument("--json", action="store_true", help="one JSON object per input, with per-step diagnostics")
    p.add_argument("--quantized", action="store_true", help="prefer *_quantized.onnx files when the folder has them")
    p.add_argument(
        "--no-optimize",
        action="store_true",
        help="load the folder's graphs as they are (no optimised copy from the cache)",
    )
    p.add_argument(
        "--glossary",
        action="append",
        type=arguments.glossary_file,
        default=[],
        metavar="FILE",
        help="a glossary (english<TAB>chinese per line) whose terms the translation must use; repeatable",
    )
    p.add_argument(
        "--chinese",
        choices=CHINESE_SCRIPTS,
        default="simplified",
        help="script of translations into Chinese: simplified, traditional (Taiwan) or hongkong",
    )
    p.add_argument("text", nargs="+", metavar="TEXT", help="texts to translate (each is one input)")
    # prepare_graphs(folder, direction, prefer_quantized) -> {stem: path}: the optimised graphs,
    # handed in by app/cli.py (the model store does it; this package never imports it).
    p.set_defaults(run=run, prepare_graphs=None)


def run(args: argparse.Namespace) -> int:
    # Checked before the model loads: a huge beam would allocate its cache first.
    for option, key, value in (
        ("--beams", "num_beams", args.beams),
        ("--max-new-tokens", "max_new_tokens", args.max_new_tokens),
    ):
        if value is not None:
            check_setting(key, value, option)
    for n, text in enumerate(args.text, 1):
        if has_undecodable(text):
            print(
                f"warning: TEXT {n} holds bytes that are not UTF-8; each is translated as U+FFFD (�)", file=sys.stderr
            )
    glossary = load_glossaries(args.glossary)
    prepare = None if args.no_optimize else args.prepare_graphs
    graphs = prepare(args.model, args.direction, args.quantized) if prepare else None
    translator = Translator.load(
        args.model, direction=args.direction, prefer_quantized=args.quantized, chinese=args.chinese, graphs=graphs
    )
    options = DecodeOptions(
        num_beams=args.beams, max_new_tokens=args.max_new_tokens, verify=args.verify, glossary=glossary
    )
    for text in args.text:
        result = translator.translate(text, options)
        if args.json:
            print(json.dumps(result.to_json(), ensure_ascii=False), flush=True)
        else:
            print(result.text, flush=True)
        for sentence in result.sentences:
            if sentence.loop_detail:
                print(f"warning: sentence {sentence.index + 1}: loop guard {sentence.loop_detail}", file=sys.stderr)
            for use in sentence.glossary:
                if not use.honoured:
                    print(
                        f"warning: sentence {sentence.index + 1}: glossary term {use.source!r} -> {use.target!r} "
                        "not in the translation (the model's vocabulary cannot write it, or it did not fit in --max-new-tokens)",  # noqa: E501
                        file=sys.stderr,
                    )
    return 0


def load_glossaries(paths):
    """The --glossary files merged (None without any); their problems are warnings on stderr."""
    if not paths:
        return None
    glossary = Glossary.load_all(paths)
    for problem in glossary.problems:
        print(f"warning: glossary {problem}", file=sys.stderr)
    return glossary
