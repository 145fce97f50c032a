"""The glossary file: reading it (`read_text`: what the app accepts) and saving it in place.

`save` edits the file rather than rewriting it: an entry still in the file keeps its line as it
is; an entry that was changed (a correction, a row edited in the window's editor) is written on
the line it came from; a removed entry's line goes; a new entry is added at the end. Every other
byte stays: comments, blank lines, a line the app cannot read yet (`Peking 北京` with a space
for a TAB), the file's line endings and its byte-order mark. The file is replaced in one step
(`files.write_atomic`): a full disk or a crash mid-save leaves the old file byte for byte.
"""

from __future__ import annotations

import os
from collections import defaultdict, deque
from collections.abc import Sequence
from pathlib import Path

from app.shared import files
from app.shared.errors import QT_TRANSLATE_NOOP, LiveTranslatorError
from app.shared.glossary_line import GlossaryEntry, read_line

MAX_GLOSSARY_BYTES = 32 << 20  # a larger file is refused with its size, before it is read
# Entries a glossary may hold: what memory allows. Its automata are built on a thread of their own
# while recognition and translation go on (app/pipeline/glossary_builder.py), so the size no longer
# delays finals; it costs memory: 500,000 entries took the process from 105 MB to 1.0 GB and 16 s
# to build on 2 cores at load 13 (docs/glossary.md, "How large"; bench/glossary_size.py).
MAX_ENTRIES = 500_000
HEADER = "# Live Translator glossary: english<TAB>chinese[<TAB>case,off,heard]\n"
BOM = "\ufeff"
_NOT_SAVED = QT_TRANSLATE_NOOP("Errors", "The glossary {path} was not saved: {reason}.")


def read_text(path: str | os.PathLike) -> str:
    """The text of the glossary file at `path` (without a byte-order mark); a LiveTranslatorError
    naming the file when it is not an ordinary file, over MAX_GLOSSARY_BYTES, not UTF-8 or holds
    more than MAX_ENTRIES entries."""
    return _read(Path(path))[0]


def save(path: str | os.PathLike, entries: Sequence[GlossaryEntry]) -> None:
    """Make the file at `path` hold `entries`, changing only their lines (see the module). A file
    there that read_text refuses is not replaced."""
    path = Path(path)
    old, bom = "", False
    if files.is_present(path):
        try:
            old, bom = _read(path)
        except LiveTranslatorError as error:
            raise LiveTranslatorError(
                error.text,
                QT_TRANSLATE_NOOP(
                    "Errors",
                    "Nothing was saved, so as not to replace a file the app cannot read: move it away or fix "
                    "it, then save again.",
                ),
            ) from None
    text = edit(old or HEADER, entries, _origin_test(path))
    write(path, (BOM if bom else "") + text)


def check_count(count: int, path: str | os.PathLike | None = None) -> None:
    """Refuse more than MAX_ENTRIES entries (in the file at `path`, or in several files together)."""
    if count <= MAX_ENTRIES:
        return
    hint = QT_TRANSLATE_NOOP(
        "Errors",
        "A glossary's automata take about 2 KB of memory per entry (500,000 entries: 1 GB). "
        "Keep the terms you need; several files together count too.",
    )
    if path is None:
        raise LiveTranslatorError(
            QT_TRANSLATE_NOOP("Errors", "The glossaries hold {count} entries together; the app reads at most {limit}."),
            hint,
            count=f"{count:,}",
            limit=f"{MAX_ENTRIES:,}",
        )
    raise LiveTranslatorError(
        QT_TRANSLATE_NOOP("Errors", "The glossary {path} holds {count} entries; the app reads at most {limit}."),
        hint,
        path=path,
        count=f"{count:,}",
        limit=f"{MAX_ENTRIES:,}",
    )


def _read(path: Path) -> tuple[str, bool]:
    """(the file's text without a byte-order mark, whether it had one); see read_text."""
    try:
        data = files.read_bytes(path, MAX_GLOSSARY_BYTES)  # too large, a FIFO, a device: named with its size/kind
    except OSError as error:
        raise LiveTranslatorError(
            QT_TRANSLATE_NOOP("Errors", "Cannot read the glossary {path}: {reason}."),
            QT_TRANSLATE_NOOP(
                "Errors", "Check the path; a glossary is a UTF-8 text file: english<TAB>chinese per line."
            ),
            path=path,
            reason=error.strerror or error,
        ) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise LiveTranslatorError(
            QT_TRANSLATE_NOOP("Errors", "The glossary {path} is not UTF-8 text (byte {byte})."),
            QT_TRANSLATE_NOOP("Errors", "Save it as UTF-8 (a TSV file: english<TAB>chinese per line)."),
            path=path,
            byte=error.start,
        ) from None
    # counted before parsing (a line with a TAB, not a comment): 500,000 lines took 6.5 s to parse
    check_count(sum(1 for line in text.splitlines() if "\t" in line and not line.lstrip().startswith("#")), path)
    return text.removeprefix(BOM), text.startswith(BOM)


def export(path: str | os.PathLike, entries: Sequence[GlossaryEntry]) -> None:
    """A new file at `path` holding `entries` (replacing whatever was there, in one step)."""
    write(path, HEADER + "".join(entry.to_tsv() + "\n" for entry in entries))


def write(path: Path, text: str) -> None:
    try:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        files.write_atomic(path, text.encode("utf-8"))
    except OSError as error:
        raise LiveTranslatorError(
            _NOT_SAVED,
            QT_TRANSLATE_NOOP(
                "Errors",
                "The file is as it was: your change is not in it. Free some space or make the folder "
                "writable, then save again.",
            ),
            path=path,
            reason=error.strerror or error,
        ) from None


def edit(text: str, entries: Sequence[GlossaryEntry], from_this_file) -> str:
    """`text` (a glossary file) changed to hold `entries`; `from_this_file(origin)` says whether
    an entry's origin is this file (so its `line` says where it came from)."""
    lines = text.splitlines(keepends=True)  # the same line numbers as Glossary.parse counts
    held = [_entry_tsv(raw) for raw in lines]  # per line: the entry it holds (as TSV), or None
    claimed = [False] * len(lines)
    placed = [False] * len(entries)

    def claim(index: int, number: int) -> None:
        claimed[number] = placed[index] = True

    for index, entry in enumerate(entries):  # still on its own line
        number = entry.line - 1 if from_this_file(entry.origin) else -1
        if 0 <= number < len(lines) and held[number] == entry.to_tsv() and not claimed[number]:
            claim(index, number)
    free = defaultdict(deque)  # entry TSV -> the unclaimed lines holding it
    for number, tsv in enumerate(held):
        if tsv is not None and not claimed[number]:
            free[tsv].append(number)
    for index, entry in enumerate(entries):  # the same entry on another line (the file was edited meanwhile)
        if not placed[index] and free[entry.to_tsv()]:
            claim(index, free[entry.to_tsv()].popleft())
    for index, entry in enumerate(entries):  # changed: written on the line it came from, if that line is free
        number = entry.line - 1 if from_this_file(entry.origin) else -1
        if not placed[index] and 0 <= number < len(lines) and held[number] is not None and not claimed[number]:
            lines[number] = entry.to_tsv() + _ending(lines[number])
            claim(index, number)
    for number, tsv in enumerate(held):  # a removed entry's line goes; comments and problem lines stay
        if tsv is not None and not claimed[number]:
            lines[number] = ""
    added = [entry.to_tsv() for index, entry in enumerate(entries) if not placed[index]]
    if added:
        newline = _newline(lines)
        last = next((n for n in range(len(lines) - 1, -1, -1) if lines[n]), None)
        if last is not None and not _ending(lines[last]):
            lines[last] += newline
        lines += [tsv + newline for tsv in added]
    return "".join(lines)


def _entry_tsv(raw: str) -> str | None:
    read = read_line(_content(raw))
    return read.to_tsv() if isinstance(read, GlossaryEntry) else None


def _content(raw: str) -> str:
    return (raw.splitlines() or [""])[0]


def _ending(raw: str) -> str:
    return raw[len(_content(raw)) :]


def _newline(lines: list[str]) -> str:
    """The line ending most of the file's lines have ("\\n" for a file without one)."""
    counts: dict[str, int] = defaultdict(int)
    for raw in lines:
        if _ending(raw) in ("\n", "\r\n", "\r"):
            counts[_ending(raw)] += 1
    return max(counts, key=counts.get) if counts else "\n"


def _origin_test(path: Path):
    here = os.path.abspath(path)
    return lambda origin: bool(origin) and os.path.abspath(origin) == here
