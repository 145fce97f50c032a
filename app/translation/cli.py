"""`python -m app translate --model DIR --direction en-zh|zh-en [--beams N] [--max-new-tokens N]
[--verify] [--json] TEXT...`: one translation per input (plain), or one JSON object per line."""

from __future__ import annotations

import argparse
import json
import sys

from app.shared.languages import DIRECTIONS


def add_parser(subparsers) -> None:
    p = subparsers.add_parser("translate", help="translate text with an ONNX model folder",
                              description=__doc__.splitlines()[0])
    p.add_argument("--model", required=True, metavar="DIR", help="model folder (config.json, tokenizer, *.onnx)")
    p.add_argument("--direction", required=True, choices=DIRECTIONS)
    p.add_argument("--beams", type=int, default=None, metavar="N", help="beam size (default: the model's generation_config)")
    p.add_argument("--max-new-tokens", type=int, default=None, metavar="N", help="at most N generated tokens per sentence")
    p.add_argument("--verify", action="store_true", help="recompute every step without the cache; report max_abs_diff")
    p.add_argument("--json", action="store_true", help="one JSON object per input, with per-step diagnostics")
    p.add_argument("--quantized", action="store_true", help="prefer *_quantized.onnx files when the folder has them")
    p.add_argument("--no-optimize", action="store_true",
                   help="load the folder's graphs as they are (no optimised copy from the cache)")
    p.add_argument("text", nargs="+", metavar="TEXT", help="texts to translate (each is one input)")
    # prepare_graphs(folder, direction, prefer_quantized) -> {stem: path}: the optimised graphs,
    # handed in by app/cli.py (the model store does it; this package never imports it).
    p.set_defaults(run=run, prepare_graphs=None)


def run(args: argparse.Namespace) -> int:
    from app.shared.errors import LiveTranslatorError
    from app.translation import DecodeOptions, Translator

    if args.beams is not None and args.beams < 1 or args.max_new_tokens is not None and args.max_new_tokens < 1:
        raise LiveTranslatorError("--beams and --max-new-tokens must be at least 1.", "For example: --beams 4 --max-new-tokens 128")
    prepare = None if args.no_optimize else args.prepare_graphs
    graphs = prepare(args.model, args.direction, args.quantized) if prepare else None
    translator = Translator.load(args.model, direction=args.direction, prefer_quantized=args.quantized, graphs=graphs)
    options = DecodeOptions(num_beams=args.beams, max_new_tokens=args.max_new_tokens, verify=args.verify)
    for text in args.text:
        result = translator.translate(text, options)
        if args.json:
            print(json.dumps(result.to_json(), ensure_ascii=False), flush=True)
        else:
            print(result.text, flush=True)
        for sentence in result.sentences:
            if sentence.loop_detail:
                print(f"warning: sentence {sentence.index + 1}: loop guard {sentence.loop_detail}", file=sys.stderr)
    return 0
