"""`python -m app models export|download|doctor|list`: get translation models and check them."""

from __future__ import annotations

import argparse
import sys

from models.export import LAYOUTS


def add_parser(subparsers) -> None:
    p = subparsers.add_parser("models", help="export, download and check translation models",
                              description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="models_command", metavar="SUBCOMMAND", required=True)

    e = sub.add_parser("export", help="export a Hugging Face seq2seq model folder to ONNX (needs the export extra)")
    e.add_argument("hf_dir", metavar="HF_DIR", help="a save_pretrained folder (config.json, weights, tokenizer)")
    e.add_argument("out", metavar="OUT", help="the model folder to write (one folder per layout if several)")
    e.add_argument("--layout", action="append", choices=list(LAYOUTS), metavar="LAYOUT",
                   help=f"{', '.join(LAYOUTS)} (repeatable; default merged)")
    e.add_argument("--quantize", action="store_true", help="also write int8 *_quantized.onnx twins")
    e.add_argument("--no-validate", action="store_true", help="skip optimum's comparison with PyTorch")
    e.add_argument("--no-fuse-attention", action="store_true",
                   help="keep optimum's attention graphs (default: fuse them into MultiHeadAttention and share the self-attention cache buffer, faster)")
    e.set_defaults(run=run_export)

    d = sub.add_parser("download", help="download a ready ONNX model (catalog name or owner/name repo)")
    d.add_argument("name", metavar="NAME|REPO", help="a name from `models list`, or a Hub repo id owner/name")
    d.add_argument("--dest", metavar="DIR", help="model folder to fill (default: the user model folder)")
    d.add_argument("--endpoint", metavar="URL", help="a Hub mirror (default: https://huggingface.co, or HF_ENDPOINT)")
    d.set_defaults(run=run_download)

    c = sub.add_parser("doctor", help="say what a model folder is, what is missing, whether it can run")
    c.add_argument("dir", metavar="DIR")
    c.set_defaults(run=run_doctor)

    ls = sub.add_parser("list", help="downloadable models and installed ones")
    ls.set_defaults(run=run_list)


def run_export(args: argparse.Namespace) -> int:
    from models.export import export_onnx

    for folder in export_onnx(args.hf_dir, args.out, layouts=tuple(args.layout or ["merged"]),
                              quantize=args.quantize, validate=not args.no_validate,
                              fuse=not args.no_fuse_attention):
        print(f"{folder.layout}: {folder.path} ({', '.join(folder.onnx_files)})")
    return 0


def run_download(args: argparse.Namespace) -> int:
    from models.download import download

    last = [-1]

    def show(done: int, total: int) -> None:
        percent = int(100 * done / total) if total else 100
        if percent != last[0]:
            last[0] = percent
            print(f"\r{done / 1e6:8.1f} / {total / 1e6:.1f} MB ({percent}%)", end="", file=sys.stderr, flush=True)

    dest = download(args.name, args.dest, progress=show, endpoint=args.endpoint)
    print(file=sys.stderr)
    print(dest)
    return 0


def run_doctor(args: argparse.Namespace) -> int:
    from models.doctor import run_doctor as doctor  # the engine's finding, in words

    return doctor(args.dir)


def run_list(args: argparse.Namespace) -> int:
    from app.shared.paths import user_models_dir
    from models import catalog

    installed = {m.key: m for m in catalog.installed_models() if m.key}
    print("Downloadable (python -m app models download NAME):")
    for item in catalog.CATALOG:
        mark = "installed" if item.key in installed else ""
        print(f"  {item.key:20} {item.label:52} {mark}")
    print(f"\nInstalled in {user_models_dir()}:")
    models = catalog.installed_models()
    for model in models:
        print(f"  {model.path.name:20} {', '.join(model.directions) or 'direction unknown'}")
    if not models:
        print("  (none)")
    return 0
