"""`python -m app models export|download|doctor|list`: get translation models and check them.

`export` is build tooling (torch, optimum-onnx: the `export` extra), which the app never
imports: its arguments are defined here, with the other subcommands, and it runs as a child
process, `python -m models export ...`, whose output and exit status pass through. The tooling
is the repository's top-level `models/` folder, beside `app/`: a checkout has it, an installed
wheel or a packaged build does not (the wheel ships `app` only).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import subprocess
import sys
from pathlib import Path

from app.model_store import catalog, download
from app.shared import arguments
from app.shared.errors import QT_TRANSLATE_NOOP, LiveTranslatorError
from app.shared.paths import user_models_dir

# models.export.LAYOUTS' names (tests/model_store/test_cli.py checks they agree).
EXPORT_LAYOUTS = ("merged", "split", "both", "onnx-subdir", "legacy")
# What the export needs besides the `models` package (top-level names: found without importing).
EXPORT_MODULES = ("torch", "optimum", "onnx")
INSTALL_EXPORT = QT_TRANSLATE_NOOP(
    "Errors",
    "In a checkout of the source (git clone): pip install -e '.[export]', then run the same command there again.",
)
# The checkout's root: app/ and models/ side by side. In an installed app, the folder app/ is in.
CHECKOUT = Path(__file__).resolve().parents[2]


def export_tooling_dir() -> Path:
    """Where the export tooling is in a checkout (whether or not it is there)."""
    return CHECKOUT / "models"


def add_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "models", help="export, download and check translation models", description=__doc__.splitlines()[0]
    )
    sub = p.add_subparsers(dest="models_command", metavar="SUBCOMMAND", required=True)

    e = sub.add_parser("export", help="export a Hugging Face seq2seq model folder to ONNX (needs the export extra)")
    add_export_arguments(e)
    e.set_defaults(run=run_export)

    d = sub.add_parser("download", help="download a ready ONNX model (catalog name or owner/name repo)")
    d.add_argument(
        "name",
        metavar="NAME|REPO",
        type=arguments.hub_model,
        help="a name from `models list`, or a Hub repo id owner/name",
    )
    d.add_argument(
        "--dest",
        metavar="DIR",
        type=arguments.download_folder,
        help="model folder to fill (default: the user model folder)",
    )
    d.add_argument(
        "--endpoint",
        metavar="URL",
        type=arguments.hub_endpoint,
        help="a Hub mirror (default: https://huggingface.co, or HF_ENDPOINT)",
    )
    d.set_defaults(run=run_download)

    c = sub.add_parser("doctor", help="say what a model folder is, what is missing, whether it can run")
    c.add_argument("dir", metavar="DIR", type=arguments.folder_name)  # whatever is wrong with it: doctor says
    c.set_defaults(run=run_doctor)

    ls = sub.add_parser("list", help="downloadable models and installed ones")
    ls.set_defaults(run=run_list)


def add_export_arguments(parser: argparse.ArgumentParser) -> None:
    """`models export`'s arguments; `python -m models export` parses the same ones."""
    parser.add_argument(
        "hf_dir",
        metavar="HF_DIR",
        type=arguments.hf_folder,
        help="a save_pretrained folder (config.json, weights, tokenizer)",
    )
    parser.add_argument(
        "out",
        metavar="OUT",
        type=arguments.export_folder,
        help="the model folder to write (one folder per layout if several)",
    )
    parser.add_argument(
        "--layout",
        action="append",
        choices=list(EXPORT_LAYOUTS),
        metavar="LAYOUT",
        help=f"{', '.join(EXPORT_LAYOUTS)} (repeatable; default merged)",
    )
    parser.add_argument("--quantize", action="store_true", help="also write int8 *_quantized.onnx twins")
    parser.add_argument("--no-validate", action="store_true", help="skip optimum's comparison with PyTorch")
    parser.add_argument(
        "--no-fuse-attention",
        action="store_true",
        help="keep optimum's attention graphs (default: fuse them into MultiHeadAttention "
        "and share the self-attention cache buffer, faster)",
    )


def export_argv(args: argparse.Namespace) -> list[str]:
    """The parsed export arguments as a command line again, for the child process."""
    argv = [args.hf_dir, args.out]
    for layout in args.layout or []:
        argv += ["--layout", layout]
    flags = {
        "--quantize": args.quantize,
        "--no-validate": args.no_validate,
        "--no-fuse-attention": args.no_fuse_attention,
    }
    return argv + [flag for flag, on in flags.items() if on]


def export_tooling_problem() -> LiveTranslatorError | None:
    """Why `python -m models export` cannot run here, or None. Looks without importing."""
    if getattr(sys, "frozen", False):
        return LiveTranslatorError(
            QT_TRANSLATE_NOOP("Errors", "The packaged app does not include the model export tooling."), INSTALL_EXPORT
        )
    if not (export_tooling_dir() / "export.py").is_file():
        return LiveTranslatorError(
            QT_TRANSLATE_NOOP(
                "Errors",
                "The model export tooling is not here: it is the models/ folder of the source "
                "repository, which an installed app does not include ({folder} has none).",
            ),
            INSTALL_EXPORT,
            folder=CHECKOUT,
        )
    missing = [name for name in EXPORT_MODULES if importlib.util.find_spec(name) is None]
    if missing:
        return LiveTranslatorError(
            QT_TRANSLATE_NOOP("Errors", "Exporting needs the `export` extra; not installed: {missing}."),
            INSTALL_EXPORT,
            missing=", ".join(missing),
        )
    return None


def run_export(args: argparse.Namespace) -> int:
    problem = export_tooling_problem()
    if problem is not None:
        raise problem
    # The checkout goes first on the child's path, so `models` is this checkout's tooling (not
    # another package of that name) from any working folder; relative paths stay the user's.
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(CHECKOUT), os.environ.get("PYTHONPATH")])))
    # stdout and stderr are inherited: the export's lines and errors reach the user unchanged.
    return subprocess.run([sys.executable, "-m", "models", "export", *export_argv(args)], env=env).returncode


def run_download(args: argparse.Namespace) -> int:
    last = [-1]

    def show(done: int, total: int) -> None:
        percent = int(100 * done / total) if total else 100
        if percent != last[0]:
            last[0] = percent
            print(f"\r{done / 1e6:8.1f} / {total / 1e6:.1f} MB ({percent}%)", end="", file=sys.stderr, flush=True)

    dest = download.download(args.name, args.dest, progress=show, endpoint=args.endpoint)
    print(file=sys.stderr)
    print(dest)
    return 0


def run_doctor(args: argparse.Namespace) -> int:
    from app.model_store.doctor import run_doctor as doctor  # lazy: app.translation loads onnxruntime

    return doctor(args.dir)


def run_list(args: argparse.Namespace) -> int:
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
