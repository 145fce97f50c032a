"""The README and docs/cli.md stay true to the code: the command list and every option come from
the real parser (app/cli.py), and the README's Python example runs as written."""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.cli import build_parser

REPO = Path(__file__).resolve().parents[1]
README = (REPO / "README.md").read_text(encoding="utf-8")
CLI_DOC = (REPO / "docs" / "cli.md").read_text(encoding="utf-8")


Command = tuple[str, ...]  # the words after `python -m app`


def commands(parser: argparse.ArgumentParser, path: Command = ()) -> Iterator[tuple[Command, argparse.ArgumentParser]]:
    """Every (sub)command of the parser, as its words after `python -m app`, with its parser."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, subparser in action.choices.items():
                yield path + (name,), subparser
                yield from commands(subparser, path + (name,))


ALL = dict(commands(build_parser([])))
TOP = sorted(words[0] for words in ALL if len(words) == 1)


def test_the_parser_has_the_commands_it_is_known_for():
    assert {"translate", "run", "export", "models"} <= set(TOP)
    assert ("models", "export") in ALL


@pytest.mark.parametrize("command", TOP)
def test_the_readme_lists_each_command_in_its_table(command):
    assert f"| `{command}` |" in README


@pytest.mark.parametrize("words", sorted(ALL), ids=" ".join)
def test_the_cli_doc_shows_each_command_in_use(words):
    assert f"python -m app {' '.join(words)}" in CLI_DOC


def help_options(parser: argparse.ArgumentParser) -> set[str]:
    """The options `--help` prints (long and short), as a reader sees them."""
    text = parser.format_help()
    return set(re.findall(r"(?<![\w-])(--?[A-Za-z][\w-]*)", text)) - {"-h", "--help"}


@pytest.mark.parametrize("words", [()] + sorted(ALL), ids=lambda w: " ".join(w) or "app")
def test_every_option_of_each_help_is_in_the_cli_doc(words):
    parser = ALL[words] if words else build_parser([])
    options = help_options(parser)
    missing = sorted(o for o in options if not re.search(re.escape(o) + r"(?![\w-])", CLI_DOC))
    assert missing == [], f"python -m app {' '.join(words)}: {missing} not in docs/cli.md"


def test_the_help_options_are_read_from_the_help():
    assert {"--json", "--glossary", "--chinese"} <= help_options(ALL[("translate",)])


def readme_python_example() -> str:
    (code,) = re.findall(r"```python\n(.*?)```", README, flags=re.S)
    return code


@pytest.mark.slow  # loads Whisper tiny.en and runs the live chain on the self-test recording
def test_the_readme_python_example_runs_as_written():
    done = subprocess.run(
        [sys.executable, "-c", readme_python_example()],
        cwd=REPO,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "大家好。", done.stdout
    assert any("→" in line and "欢迎参加会议" in line for line in lines[1:]), done.stdout
