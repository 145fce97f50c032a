"""The one careful reader for files people hand the app (model folders' JSON, transcripts,
glossaries, settings): what it reads is a regular file (not a FIFO that blocks forever, not a
link to /dev/zero), no larger than the caller's limit (checked before a byte is read, and again
while reading), and JSON no deeper than MAX_JSON_DEPTH. Every refusal is a LiveTranslatorError
naming the file and what is wrong with it.

And the one careful writer for files people keep (the glossary, exports): `write_atomic`
replaces a file in one step, so a full disk or a crash mid-save leaves the old file whole.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import secrets
import stat
from collections.abc import Iterator

from app.shared.errors import QT_TRANSLATE_NOOP, LiveTranslatorError

MiB = 1 << 20
JSON_LIMIT = 64 * MiB  # a model's tokenizer.json is a few MB; a vocabulary of 250,000 tokens about 20
MAX_JSON_DEPTH = 100  # real files nest under 10 levels; Python's parser and the code after it recurse
_HINT = QT_TRANSLATE_NOOP("Errors", "Give the path of an ordinary file (copy the file again if it came with a model).")


def size_text(size: int) -> str:
    """Bytes for people: '512 bytes', '3.2 MB', '8.0 GB'."""
    if size < 1000:
        return f"{size} bytes"
    for unit in ("kB", "MB", "GB", "TB"):
        size /= 1000
        if size < 1000 or unit == "TB":
            return f"{size:.1f} {unit}"
    return ""  # not reached


def regular_file_size(path: str | os.PathLike, limit: int) -> int:
    """The size of `path` after checking it is a regular file (links followed) of at most `limit`
    bytes; raises FileNotFoundError when absent (callers often treat that case on their own)."""
    info = os.stat(path)  # follows links: a link to /dev/zero is a character device
    if not stat.S_ISREG(info.st_mode):
        raise LiveTranslatorError(
            QT_TRANSLATE_NOOP("Errors", "{path} is not an ordinary file (it is a {kind})."),
            _HINT,
            path=path,
            kind=_kind(info.st_mode),
        )
    if info.st_size > limit:
        raise LiveTranslatorError(
            QT_TRANSLATE_NOOP("Errors", "{path} is {size}; the app reads files of this kind up to {limit}."),
            QT_TRANSLATE_NOOP("Errors", "Check that this is the right file; split it or remove what is not needed."),
            path=path,
            size=size_text(info.st_size),
            limit=size_text(limit),
        )
    return info.st_size


def read_bytes(path: str | os.PathLike, limit: int) -> bytes:
    """The file's bytes (see regular_file_size); never more than `limit` + 1 are read, even if
    the file grows meanwhile."""
    regular_file_size(path, limit)
    with open(path, "rb") as f:
        data = f.read(limit + 1)
    if len(data) > limit:
        raise LiveTranslatorError(
            QT_TRANSLATE_NOOP("Errors", "{path} grew past {limit} while it was read."),
            QT_TRANSLATE_NOOP("Errors", "Check that this is the right file; split it or remove what is not needed."),
            path=path,
            limit=size_text(limit),
        )
    return data


def read_text(path: str | os.PathLike, limit: int, encoding: str = "utf-8") -> str:
    """The file as text; bytes that are not `encoding` raise UnicodeDecodeError (callers name it)."""
    return read_bytes(path, limit).decode(encoding)


def read_json(path: str | os.PathLike, limit: int = JSON_LIMIT, max_depth: int = MAX_JSON_DEPTH) -> object:
    """The file's JSON value; ValueError (json.JSONDecodeError or one naming the depth) when it is
    not JSON, or nested deeper than `max_depth`. NaN and Infinity are not JSON: refused too."""
    return parse_json(read_text(path, limit), max_depth)


def parse_json(text: str, max_depth: int = MAX_JSON_DEPTH) -> object:
    """json.loads, refusing NaN/Infinity and values nested deeper than `max_depth`."""
    try:
        value = json.loads(text, parse_constant=_no_constant)
    except RecursionError:  # the C parser stops at the interpreter's limit, cleanly
        raise ValueError(f"nested deeper than {max_depth} levels") from None
    if json_depth(value) > max_depth:
        raise ValueError(f"nested deeper than {max_depth} levels")
    return value


def json_depth(value: object) -> int:
    """How deeply a parsed JSON value's arrays and objects nest (walked without recursion)."""
    deepest, todo = 0, [(value, 1)]
    while todo:
        item, depth = todo.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else None
        if children is not None:
            deepest = max(deepest, depth)
            todo.extend((child, depth + 1) for child in children if isinstance(child, (dict, list)))
    return deepest


def json_lines(path: str | os.PathLike, limit: int, max_depth: int = MAX_JSON_DEPTH) -> Iterator[tuple[int, str]]:
    """(line number, text) of each non-blank line of a JSONL file, read as a stream (the whole
    file is never held), after the file was checked as read_bytes checks it."""
    regular_file_size(path, limit)
    read = 0
    with open(path, encoding="utf-8") as lines:
        for number, line in enumerate(lines, 1):
            read += len(line)
            if read > limit:
                raise LiveTranslatorError(
                    QT_TRANSLATE_NOOP("Errors", "{path} grew past {limit} while it was read."),
                    QT_TRANSLATE_NOOP(
                        "Errors", "Check that this is the right file; split it or remove what is not needed."
                    ),
                    path=path,
                    limit=size_text(limit),
                )
            if line.strip():
                yield number, line


def _no_constant(name: str) -> object:
    raise ValueError(f"{name} is not a JSON number")


def _kind(mode: int) -> str:
    kinds = {
        stat.S_ISDIR: "folder",
        stat.S_ISFIFO: "named pipe (FIFO)",
        stat.S_ISCHR: "character device",
        stat.S_ISBLK: "block device",
        stat.S_ISSOCK: "socket",
    }
    return next((name for test, name in kinds.items() if test(mode)), "special file")


def is_present(path: str | os.PathLike) -> bool:
    """True when something is at `path` (a dangling link too): absent and unreadable differ."""
    return os.path.lexists(path)


def write_atomic(path: str | os.PathLike, data: bytes) -> None:
    """Replace the file at `path` with `data` in one step: written to a temporary file in the
    same folder, flushed to the disk (fsync), then renamed over the old one, which keeps its
    permissions. A failure (a full disk, a read-only folder) leaves the file as it was, byte for
    byte, removes the temporary file and raises the OSError. A link is followed: the file it
    points to is replaced and the link stays. What is not a regular file (/dev/null, a FIFO) has
    nothing to keep: it is written to directly."""
    target = os.path.realpath(path)
    try:
        mode = os.stat(target).st_mode
    except FileNotFoundError:
        mode = None
    if mode is not None and not stat.S_ISREG(mode):
        with open(target, "wb") as stream:  # a folder raises IsADirectoryError here
            stream.write(data)
        return
    folder, name = os.path.split(target)
    temporary = os.path.join(folder, f".{name}.{secrets.token_hex(4)}.tmp")
    permissions = 0o666 if mode is None else stat.S_IMODE(mode)
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, permissions)
    try:
        try:
            _write_all(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
        if mode is not None:
            os.chmod(temporary, permissions)  # os.open applied the umask; the file keeps what it had
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    _sync_folder(folder)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        if written <= 0:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))  # the file system took nothing
        view = view[written:]


def _sync_folder(folder: str) -> None:
    """The rename itself on the disk (a folder cannot be opened for this on Windows: skipped)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
