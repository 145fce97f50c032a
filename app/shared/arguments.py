"""The command line's values, checked while they are parsed: before anything loads, a bad value
ends the command with exit status 2 and two lines, what is wrong and what to do
(`error: argument --duration: ...` / `  → ...`), never a traceback.

Each function here is an argparse `type=`: it takes the text as typed and returns the value, or
raises BadValue, whose LiveTranslatorError says why (argparse names the option in front of it).
CommandLineParser prints argparse's own refusals (an unknown option, a missing argument) the
same way. A check that needs two options at once lives in the command's own `run`.
"""

from __future__ import annotations

import argparse
import errno
import ipaddress
import math
import os
import re
import sys
from pathlib import Path
from typing import NamedTuple
from urllib.parse import urlsplit

from app.shared import files
from app.shared.errors import QT_TRANSLATE_NOOP, LiveTranslatorError

MAX_DURATION_S = 30 * 24 * 3600.0  # 30 days: every platform's timers can wait that long (Windows ~49 days)
DEFAULT_SERVE_HOST = "127.0.0.1"  # the caption server's own default (app.captions.server.DEFAULT_HOST)
_EMPTY = QT_TRANSLATE_NOOP("Errors", "The value is empty.")
_HOST_HINT = QT_TRANSLATE_NOOP(
    "Errors", "Give an address of this computer (127.0.0.1; 0.0.0.0 for every network) or its name."
)
_DEST_HINT = QT_TRANSLATE_NOOP("Errors", "Give --dest a folder you may write to (it is made if it does not exist).")
_WRITE_HINT = QT_TRANSLATE_NOOP("Errors", "Give the name of a file to write, in a folder you may write to.")
# What a host name may hold (letters, digits, '.', '-', '_'): anything else is not looked up at all.
_HOST_NAME = re.compile(r"(?!-|\.)(?!.*\.\.)[A-Za-z0-9_.-]{1,253}")


class BadValue(argparse.ArgumentTypeError):
    """A value refused while parsing; `error` says what is wrong and what to do."""

    def __init__(self, error: LiveTranslatorError):
        super().__init__(str(error))
        self.error = error


class CommandLineParser(argparse.ArgumentParser):
    """argparse's parser, whose refusals read like every other error of the app: one line saying
    what is wrong, one saying what to do; exit status 2. Its subcommands' parsers are of this class too."""

    def error(self, message: str) -> None:
        if "\n  → " not in message:  # argparse's own words (unknown option, missing argument): point at --help
            message += f"\n  → {self.prog} --help lists what it takes."
        self.exit(2, f"error: {message}\n")


def not_blank(hint: str, path: bool = True):
    """A type for a text option that must say something: an empty or all-blank value is refused
    with `hint` (what to give instead); any other text is returned as it is. With `path`, a
    name the system cannot even look up (too long, a link loop, a folder it may not enter) is
    refused too; whether the file is there and right is for the command to say."""

    def check(text: str) -> str:
        if not text.strip():
            raise BadValue(LiveTranslatorError(_EMPTY, hint))
        problem = _lookup_problem(text) if path else None
        if problem is not None:
            raise BadValue(
                LiveTranslatorError(
                    QT_TRANSLATE_NOOP("Errors", "Cannot use {path}: {reason}."), hint, path=text, reason=problem
                )
            )
        return text

    return check


def _lookup_problem(text: str) -> str | None:
    """Why the system cannot look `text` up as a path, or None (also when nothing is there)."""
    try:
        os.stat(text)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as error:
        return error.strerror or str(error)
    except ValueError as error:  # a NUL character (from Python; a command line cannot hold one)
        return str(error)
    return None


model_name_or_folder = not_blank(
    hint=QT_TRANSLATE_NOOP("Errors", "Give a model folder, or a size name such as base or tiny.en.")
)
folder_name = not_blank(hint=QT_TRANSLATE_NOOP("Errors", "Pass the folder that holds config.json and the .onnx files."))
recording = not_blank(
    hint=QT_TRANSLATE_NOOP("Errors", "Give the path of a WAV/FLAC/OGG file, or omit --input to use the microphone.")
)
audio_file = not_blank(hint=QT_TRANSLATE_NOOP("Errors", "Give the path of an audio file (WAV, FLAC, MP3, ...)."))
device_name = not_blank(
    path=False,
    hint=QT_TRANSLATE_NOOP(
        "Errors",
        "Give a device's number, id or part of its name (python -m app devices), or leave the option out for the default.",  # noqa: E501
    ),
)
speech_target = not_blank(
    path=False,
    hint=QT_TRANSLATE_NOOP(
        "Errors", "Give speakers, virtual-mic or an output's name (python -m app devices), or leave --speak-into out."
    ),
)
glossary_file = not_blank(
    hint=QT_TRANSLATE_NOOP("Errors", "Give the path of a glossary file (english<TAB>chinese per line).")
)
transcript_file = not_blank(
    hint=QT_TRANSLATE_NOOP("Errors", "Give a session .jsonl file (the app prints its path at the end of a run).")
)
hub_model = not_blank(
    path=False,
    hint=QT_TRANSLATE_NOOP("Errors", "Give a name from python -m app models list, or a Hub repo id owner/name."),
)
hf_folder = not_blank(
    hint=QT_TRANSLATE_NOOP("Errors", "Give a save_pretrained folder (config.json, weights, tokenizer).")
)
export_folder = not_blank(hint=QT_TRANSLATE_NOOP("Errors", "Give the model folder to write."))


def model_folder(text: str) -> str:
    """translate --model, run --nmt-model: a folder that is there (what is inside is the
    translation engine's to judge, still before anything loads)."""
    folder_name(text)
    if os.path.isfile(text):
        raise BadValue(
            LiveTranslatorError(
                QT_TRANSLATE_NOOP("Errors", "{folder} is a file, not a model folder."),
                QT_TRANSLATE_NOOP("Errors", "Pass the folder that holds it: config.json and the .onnx files."),
                folder=text,
            )
        )
    if not os.path.isdir(text):
        raise BadValue(
            LiveTranslatorError(
                QT_TRANSLATE_NOOP("Errors", "Model folder {folder} does not exist."),
                QT_TRANSLATE_NOOP("Errors", "Pass the folder that holds config.json and the .onnx files."),
                folder=text,
            )
        )
    return text


def seconds(text: str) -> float:
    """--duration: a finite number of seconds above 0, at most MAX_DURATION_S. "No limit" is
    leaving the option out: `inf` is refused like any other value that is not a duration."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0.0 < value <= MAX_DURATION_S:  # NaN fails this too
        raise BadValue(
            LiveTranslatorError(
                QT_TRANSLATE_NOOP(
                    "Errors",
                    "{value} is not a duration: a number of seconds above 0 and at most {most} (30 days).",
                ),
                QT_TRANSLATE_NOOP(
                    "Errors", "Give e.g. --duration 60, or leave --duration out to run until Ctrl-C or SIGTERM."
                ),
                value=repr(text),
                most=f"{MAX_DURATION_S:.0f}",
            )
        )
    return value


def level(text: str) -> float:
    """--mix-original: an amplitude from 0 to 1."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0.0 <= value <= 1.0:
        raise BadValue(
            LiveTranslatorError(
                QT_TRANSLATE_NOOP("Errors", "{value} is not a level from 0 to 1."),
                QT_TRANSLATE_NOOP("Errors", "Give e.g. --mix-original 0.3 (0 is off)."),
                value=repr(text),
            )
        )
    return value


class ServeAddress(NamedTuple):
    """Where the caption server listens: a host as the server takes it (IPv6 without brackets), a port."""

    host: str
    port: int


def serve_address(text: str) -> ServeAddress:
    """--serve [HOST:]PORT, as written: a port alone is 127.0.0.1; an IPv6 address goes in
    brackets ([::1]:8765); port 0 is any free port; a host is a name or an address. Nothing is
    looked up here: whether the host is this computer's and the port free is for the caption
    server's side to try (app.pipeline.caption_address)."""
    match = re.fullmatch(r"\s*(?:\[(?P<ipv6>[^\]]*)\]:|(?P<host>[^:\[\]]*):)?(?P<port>[0-9]{1,5})\s*", text)
    if match is None or int(match["port"]) > 65535 or (match["ipv6"] is not None and not _is_ipv6(match["ipv6"])):
        if text.count(":") > 1 or "[" in text:  # an IPv6 address, without brackets or a port: ::1, [::1]
            hint = QT_TRANSLATE_NOOP("Errors", "Write an IPv6 address in brackets, with a port: [::1]:8765.")
        else:
            hint = QT_TRANSLATE_NOOP(
                "Errors", "Give a port (8765) or HOST:PORT (127.0.0.1:8765, 0.0.0.0:8765 for phones)."
            )
        raise BadValue(
            LiveTranslatorError(
                QT_TRANSLATE_NOOP("Errors", "'{text}' is not an address to serve captions on."), hint, text=text
            )
        )
    port = int(match["port"])
    if match["ipv6"] is not None:
        return ServeAddress(match["ipv6"], port)
    host = (match["host"] or "").strip() or DEFAULT_SERVE_HOST  # ":8765" is the default host too
    if not _HOST_NAME.fullmatch(host):  # "no such host": not a name DNS could answer for, so not looked up
        raise BadValue(
            LiveTranslatorError(
                QT_TRANSLATE_NOOP("Errors", "{host} is neither a host name nor an address."),
                _HOST_HINT,
                host=repr(host),
            )
        )
    return ServeAddress(host, port)


def _is_ipv6(text: str) -> bool:
    try:
        ipaddress.IPv6Address(text)  # a zone (fe80::1%eth0) is allowed
    except ValueError:
        return False
    return True


def speech_file(text: str) -> str:
    """--tts-out OUT.wav: a .wav name (the WAV writer knows the format by it); what is there
    already is an ordinary file (it is replaced), not a folder or a device; the folder it goes in
    (made if missing) can be written."""
    hint = QT_TRANSLATE_NOOP("Errors", "Give a .wav file name for the spoken translations, e.g. spoken.wav.")
    path = Path(text)
    if (problem := _lookup_problem(text)) is not None:
        raise BadValue(_cannot_write(text, problem))
    if not text.strip() or path.suffix.lower() != ".wav":
        raise BadValue(
            LiveTranslatorError(
                QT_TRANSLATE_NOOP(
                    "Errors", "{path} is not a .wav file name: the spoken translations are written as WAV."
                ),
                hint,
                path=repr(text),
            )
        )
    try:
        if path.exists():
            files.regular_file_size(path, sys.maxsize)
    except LiveTranslatorError as error:
        raise BadValue(
            LiveTranslatorError(
                QT_TRANSLATE_NOOP("Errors", "{path} is not an ordinary file (it is a {kind})."),
                hint,
                path=text,
                kind=error.values["kind"],
            )
        ) from None
    _check_writable_place(path, path.parent, _cannot_write)
    return text


def output_file(text: str) -> str:
    """export --out FILE: a file name (anything but a folder: /dev/null works) in a folder that exists."""
    if not text.strip():
        raise BadValue(
            LiveTranslatorError(
                _EMPTY,
                QT_TRANSLATE_NOOP("Errors", "Give a file name, or leave --out out to print to standard output."),
            )
        )
    path = Path(text)
    if (problem := _lookup_problem(text) or _lookup_problem(str(path.parent))) is not None:
        raise BadValue(_cannot_write(text, problem))
    if path.is_dir():
        raise BadValue(_cannot_write(text, os.strerror(errno.EISDIR)))
    if not path.parent.is_dir():
        reason = os.strerror(errno.ENOTDIR if path.parent.exists() else errno.ENOENT)
        raise BadValue(_cannot_write(text, f"{path.parent}: {reason}"))
    return text


def _cannot_write(path: str, reason: str) -> LiveTranslatorError:
    return LiveTranslatorError(
        QT_TRANSLATE_NOOP("Errors", "Cannot write {path}: {reason}"), _WRITE_HINT, path=path, reason=reason
    )


def download_folder(text: str) -> str:
    """models download --dest DIR: a folder, or a place one can be made (nothing is made here)."""
    if not text.strip():
        raise BadValue(LiveTranslatorError(_EMPTY, _DEST_HINT))
    path = Path(text)
    if (problem := _lookup_problem(text)) is not None:
        raise BadValue(_cannot_download(text, problem))
    if path.exists() and not path.is_dir():
        raise BadValue(
            LiveTranslatorError(
                QT_TRANSLATE_NOOP("Errors", "{dest} is a file, not a folder to download the model into."),
                QT_TRANSLATE_NOOP("Errors", "Give --dest a folder (it is made if it does not exist)."),
                dest=text,
            )
        )
    _check_writable_place(path, path, _cannot_download)
    return text


def _cannot_download(dest: str, reason: str) -> LiveTranslatorError:
    return LiveTranslatorError(
        QT_TRANSLATE_NOOP("Errors", "Cannot download into {dest}: {reason}."), _DEST_HINT, dest=dest, reason=reason
    )


def _check_writable_place(path: Path, folder: Path, refusal) -> None:
    """`folder` (made later if missing) can hold `path`: its nearest existing ancestor is a
    folder this user may write into. `refusal(path, reason)` makes the error."""
    existing = folder
    while not existing.exists() and existing != existing.parent:  # each was looked up without error
        existing = existing.parent
    if not existing.is_dir():
        raise BadValue(refusal(str(path), f"{existing}: {os.strerror(errno.ENOTDIR)}"))
    if not os.access(existing, os.W_OK | os.X_OK):
        raise BadValue(refusal(str(path), f"{existing}: {os.strerror(errno.EACCES)}"))


def hub_endpoint(text: str) -> str:
    """models download --endpoint URL: an http(s) address with a host."""
    try:
        parts = urlsplit(text.strip())
        fine = parts.scheme in ("http", "https") and bool(parts.hostname)
    except ValueError:  # a bad port or bracket
        fine = False
    if not fine:
        raise BadValue(
            LiveTranslatorError(
                QT_TRANSLATE_NOOP("Errors", "{url} is not the web address of a model hub."),
                QT_TRANSLATE_NOOP(
                    "Errors",
                    "Give an http:// or https:// address, e.g. https://hf-mirror.com, or leave --endpoint out.",
                ),
                url=repr(text),
            )
        )
    return text.strip()
