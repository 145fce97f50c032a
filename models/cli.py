"""`python -m models export HF_DIR OUT ...`: the export tooling's entry point.

`python -m app models export` runs this in a child process (the app never imports `models`);
the arguments are the app's own (app.model_store.cli.add_export_arguments), the output lines
and the exit status (0; 2 with `error: ...` on stderr, as the app prints) are what the app passes on.
"""

from __future__ import annotations

import argparse

from app.cli import run_reporting_errors
from app.model_store.cli import add_export_arguments


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m models", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    export = sub.add_parser("export", help="export a Hugging Face seq2seq model folder to ONNX")
    add_export_arguments(export)
    export.set_defaults(run=run_export)
    return parser


def run_export(args: argparse.Namespace) -> int:
    from models.export import export_onnx

    for folder in export_onnx(
        args.hf_dir,
        args.out,
        layouts=tuple(args.layout or ["merged"]),
        quantize=args.quantize,
        validate=not args.no_validate,
        fuse=not args.no_fuse_attention,
    ):
        print(f"{folder.layout}: {folder.path} ({', '.join(folder.onnx_files)})", flush=True)
    return 0


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return run_reporting_errors(lambda: args.run(args))
