"""Command line: `python -m app [COMMAND ...]`. With no command it opens the window.

Each subcommand lives beside the code it drives and registers itself here through an
`add_parser(subparsers)` function, imported lazily so `translate` never loads Qt or Whisper.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import os
import sys
from collections.abc import Callable

from app.selftest import run_self_test
from app.shared.arguments import CommandLineParser
from app.shared.console import GuardedOutput, OutputLost, guarded_streams
from app.shared.errors import LiveTranslatorError

# command name -> module that defines add_parser(subparsers) and run(args) -> int
COMMANDS = {
    "translate": "app.translation.cli",
    "transcribe": "app.asr.cli",
    "listen": "app.asr.cli",
    "run": "app.pipeline.cli",
    "devices": "app.audio.cli",
    "voices": "app.voice_list",
    "desktop": "app.desktop_entry",
    "export": "app.pipeline.export_cli",
    "models": "app.model_store.cli",
}


def build_parser(argv: list[str]) -> argparse.ArgumentParser:
    parser = CommandLineParser(prog="live-translator", description=__doc__.splitlines()[0])
    parser.add_argument("--self-test", action="store_true", help="check that every part of the app works, then exit")
    parser.add_argument("--overlay", action="store_true", help="open the window with the subtitle overlay shown")
    parser.add_argument(
        "--lang",
        choices=("en", "zh_CN", "zh_TW"),
        help="the window's language (default: the setting in View > Interface language, else the system's)",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    # Only import the module of the command being run: start-up stays fast.
    wanted = next((a for a in argv if not a.startswith("-")), None)
    for module_name in dict.fromkeys(COMMANDS.values()):
        if wanted is None or COMMANDS.get(wanted) == module_name or wanted not in COMMANDS:
            importlib.import_module(module_name).add_parser(sub)
    _add_verbose(parser, default=0)
    return parser


def _add_verbose(parser: argparse.ArgumentParser, default) -> None:
    """-v/--verbose on the app and on every (sub)command, so it may stand anywhere."""
    parser.add_argument(
        "-v",
        "--verbose",
        action="count",
        default=default,
        help="log what the app does on stderr (-vv: debugging detail)",
    )
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for subparser in action.choices.values():
                _add_verbose(subparser, default=argparse.SUPPRESS)  # keep a count given before the command


def configure_logging(verbose: int) -> None:
    """Diagnostics go to stderr through `logging`: warnings by default, more with -v/-vv.
    Command output (stdout, --json) never goes through it."""
    level = logging.WARNING if verbose <= 0 else logging.INFO if verbose == 1 else logging.DEBUG
    logging.basicConfig(level=level, stream=sys.stderr, format="%(levelname)s %(name)s: %(message)s", force=True)


def _compose(args: argparse.Namespace) -> None:
    """Join what the stages may not import themselves: `translate` gets the model store's
    optimiser (app.translation never imports app.model_store).

    The app uses transformers for tokenizers only. Where torch is installed too (the `export`
    extra), transformers imports it with the first tokenizer: +240 MB resident for nothing
    (docs/performance.md, 'Memory'). So every command but `models export` tells it not to."""
    if not (args.command == "models" and getattr(args, "models_command", None) == "export"):
        os.environ.setdefault("USE_TORCH", "0")
        os.environ.setdefault("TRANSFORMERS_NO_ADVISORY_WARNINGS", "1")  # its "no PyTorch found" notice
    if getattr(args, "prepare_graphs", False) is None:
        from app.model_store.optimized import prepare_on_stderr  # lazy: only `translate` asks for it

        args.prepare_graphs = prepare_on_stderr


def main(argv: list[str] | None = None) -> int:
    """Run the command line: the exit status (docs/cli.md, 'Exit status'). Bad arguments end in
    SystemExit(2) while parsing, before anything loads."""
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(argv)
    with guarded_streams() as stdout:
        return run_reporting_errors(lambda: _dispatch(parser.parse_args(argv), stdout))


def _dispatch(args: argparse.Namespace, stdout: GuardedOutput) -> int:
    configure_logging(args.verbose)
    _compose(args)
    if args.command is None and not args.self_test:
        from app.ui.main_window import run_app  # lazy: Qt, loaded only for the window

        sys.stdout = stdout.stream  # the window prints nothing of its own: the real stream (None under pythonw)
        return run_app(overlay=args.overlay, lang=args.lang)
    if stdout.closed_at_start and not (args.command == "export" and args.out):
        raise OutputLost("standard output is closed")  # every other command prints its results there
    if args.self_test:
        code = run_self_test()
    else:
        code = args.run(args)
    sys.stdout.flush()  # what is still buffered must arrive too: the status says whether it did
    return code


def run_reporting_errors(command: Callable[[], int]) -> int:
    """Run a command as the command line does: a LiveTranslatorError is printed with its hint
    on stderr (exit status 2); output that cannot be printed ends it with 1 and one line (none
    for a reader that left, as `| head` does); Ctrl-C ends with 130; anything else is a bug and
    shows its traceback."""
    try:
        return command()
    except LiveTranslatorError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except OutputLost as lost:
        if not lost.quiet:
            print(f"error: {lost.reason}: the results could not all be printed.", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
