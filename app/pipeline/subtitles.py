"""A session transcript as text, SubRip (SRT) or WebVTT subtitles.

One cue (or text block) per utterance, timed by the session's audio. Bilingual output puts
the source and its translation in one cue, source first; otherwise the translation alone
(an utterance without one is left out of subtitles and marked in text). WebVTT is written and
validated by webvtt-py.
"""

from __future__ import annotations

import dataclasses
import html
import logging
import os
import re
from collections.abc import Callable
from enum import StrEnum
from pathlib import Path

from app.pipeline.transcript import TranscriptEntry, apply_record
from app.shared import files
from app.shared.chinese import to_script
from app.shared.errors import QT_TRANSLATE_NOOP, LiveTranslatorError

log = logging.getLogger(__name__)

MAX_TRANSCRIPT_BYTES = 1 << 30  # a day of talk is a few MB; read as a stream either way
MAX_SECONDS = 10_000_000  # session audio times: about 115 days
LIMITS = {"start": MAX_SECONDS, "end": MAX_SECONDS, "latency_ms": MAX_SECONDS * 1000}
MAX_WARNINGS = 10
_NUMBER = (int, float)
# The records a session writes that the exports use, and the fields each must have (types as
# JSON gives them back). Speech and status records carry no text for the exports.
RECORD_FIELDS: dict[str, dict[str, tuple[type, ...]]] = {
    "final": {"text": (str,), "start": _NUMBER, "end": _NUMBER},
    "translation": {"text": (str,), "direction": (str,), "latency_ms": (*_NUMBER, type(None))},
    "error": {"text": (str,)},
    "corrected": {"source": (str,), "text": (str,)},  # the window's Correct… dialog
    "speech": {},
    "status": {},
}


class ExportFormat(StrEnum):
    TXT = "txt"
    SRT = "srt"
    VTT = "vtt"


def load(
    path: str | os.PathLike, chinese: str | None = None, warn: Callable[[str], None] = log.warning
) -> list[TranscriptEntry]:
    """A saved transcript's utterances; with `chinese`, its Chinese rewritten in that script.
    Lines that are not the app's records, or whose fields are not what the app writes, are
    skipped and each named (`warn`, with its line number); a file none of whose lines is one of
    the app's records is refused."""
    try:
        entries, skipped, records = _read(path)
    except FileNotFoundError:
        raise LiveTranslatorError(
            QT_TRANSLATE_NOOP("Errors", "No such transcript: {path}"),
            QT_TRANSLATE_NOOP("Errors", "Give a session .jsonl file (the app prints its path at the end of a run)."),
            path=path,
        ) from None
    except (OSError, UnicodeDecodeError) as error:
        raise LiveTranslatorError(
            QT_TRANSLATE_NOOP("Errors", "Cannot read the transcript {path}: {reason}"),
            QT_TRANSLATE_NOOP("Errors", "Give a session .jsonl file saved by the app."),
            path=path,
            reason=error,
        ) from None
    for number, problem in skipped[:MAX_WARNINGS]:
        warn(f"{path}: line {number} skipped: {problem}")
    if len(skipped) > MAX_WARNINGS:
        warn(f"{path}: {len(skipped) - MAX_WARNINGS} more lines skipped")
    if skipped and not records:
        raise LiveTranslatorError(
            QT_TRANSLATE_NOOP(
                "Errors",
                "{path} is not a transcript saved by this app: none of its {lines} lines is one of "
                "its records (line {first}: {problem}).",
            ),
            QT_TRANSLATE_NOOP(
                "Errors",
                "Give a session .jsonl file saved by the app (`run` prints its path; the window's are "
                "in the transcripts folder).",
            ),
            path=path,
            lines=len(skipped),
            first=skipped[0][0],
            problem=skipped[0][1],
        )
    if chinese is not None:  # OpenCC leaves non-Chinese text as it is
        entries = [
            dataclasses.replace(e, source=to_script(e.source, chinese), translation=to_script(e.translation, chinese))
            for e in entries
        ]
    return entries


def _read(path: str | os.PathLike) -> tuple[list[TranscriptEntry], list[tuple[int, str]], int]:
    """(utterances in order, (line number, problem) per skipped line, records taken)."""
    entries: dict[int, TranscriptEntry] = {}
    skipped, records = [], 0
    for number, line in files.json_lines(path, MAX_TRANSCRIPT_BYTES):
        try:
            data = files.parse_json(line)
        except ValueError as error:
            if not line.endswith("\n"):
                continue  # the last line, cut short by a kill: everything before it counts
            skipped.append((number, f"not JSON ({error})"))
            continue
        problem = record_problem(data)
        if problem:
            skipped.append((number, problem))
            continue
        records += 1
        apply_record(entries, data)
    return [entries[key] for key in sorted(entries)], skipped, records


def record_problem(data: object) -> str:
    """'' when `data` is one of the records a session writes with the fields it writes, else what is not."""
    if not isinstance(data, dict):
        return f"a JSON {type(data).__name__}, not a record (an object)"
    kind = data.get("type")
    if kind not in RECORD_FIELDS:
        return f"type {kind!r} is not one of the app's records ({', '.join(sorted(RECORD_FIELDS))})"
    uid = data.get("utterance_id")
    if uid is not None and (isinstance(uid, bool) or not isinstance(uid, int) or not 0 <= uid < 2**53):
        return f"utterance_id {uid!r} is not a whole number"
    for name, kinds in RECORD_FIELDS[kind].items():
        if name not in data:
            return f"a {kind} record without {name!r}"
        value = data[name]
        if not isinstance(value, kinds) or isinstance(value, bool):
            return f"{name} is {type(value).__name__} {str(value)[:40]!r}, not {' or '.join(k.__name__ for k in kinds)}"
        if name in LIMITS and value is not None and not 0 <= value <= LIMITS[name]:
            return f"{name} {value!r} is outside 0 to {LIMITS[name]:,}"
    if not isinstance(data.get("speaker", ""), str | None):
        return "speaker is not text"
    return ""


def check_destination(out: str | os.PathLike, transcript: str | os.PathLike) -> None:
    """Refuse an --out that would replace the transcript being exported, or any other session
    transcript (its first record is one the app writes)."""
    out = Path(out)
    try:
        same = out.exists() and os.path.samefile(out, transcript)
    except OSError:
        same = False
    if same:
        raise LiveTranslatorError(
            QT_TRANSLATE_NOOP(
                "Errors",
                "--out {out} is the transcript being exported; writing there would "
                "replace the session with its export.",
            ),
            QT_TRANSLATE_NOOP("Errors", "Choose another file for --out, e.g. {suggestion}."),
            out=out,
            suggestion=out.with_suffix(".export.txt").name,
        )
    if _is_transcript(out):
        raise LiveTranslatorError(
            QT_TRANSLATE_NOOP("Errors", "--out {out} is a session transcript; writing there would replace it."),
            QT_TRANSLATE_NOOP("Errors", "Choose another file for --out, e.g. {suggestion}."),
            out=out,
            suggestion=out.with_suffix(".export.txt").name,
        )


def _is_transcript(path: Path) -> bool:
    try:
        files.regular_file_size(path, MAX_TRANSCRIPT_BYTES)
        for _, line in files.json_lines(path, MAX_TRANSCRIPT_BYTES):
            return not record_problem(files.parse_json(line))
    except (OSError, ValueError, LiveTranslatorError):
        return False
    return False


def write_export(path: str | os.PathLike, text: str) -> None:
    """Save an export (`export --out`, the window's Export…) in one step: a full disk or a
    crash mid-write leaves a file that was there byte for byte (files.write_atomic)."""
    try:
        files.write_atomic(path, text.encode("utf-8"))
    except OSError as error:
        raise LiveTranslatorError(
            QT_TRANSLATE_NOOP("Errors", "Cannot write {path}: {reason}"),
            QT_TRANSLATE_NOOP(
                "Errors",
                "Nothing was written (a file already there is as it was). Free some space or choose a folder "
                "that exists and that you may write to.",
            ),
            path=path,
            reason=error.strerror or error,
        ) from None


def export(entries: list[TranscriptEntry], fmt: ExportFormat | str, bilingual: bool = False) -> str:
    writer = {ExportFormat.TXT: export_text, ExportFormat.SRT: export_srt, ExportFormat.VTT: export_vtt}
    return writer[ExportFormat(fmt)](entries, bilingual)


def _missing(entry: TranscriptEntry) -> str:
    return "[" + (entry.error or "not translated") + "]"


def export_text(entries: list[TranscriptEntry], bilingual: bool = True) -> str:
    """Bilingual: each utterance's source line, then its translation (or the error), blank
    line between. Otherwise one translation per line."""
    spoken = [e for e in entries if e.source]
    if bilingual:  # in a conversation the source line says who spoke: "me: ...", "them: ..."
        blocks = [
            f"{_who(e, '{}: ')}{_in(e, True, '{}: ')}{e.source}\n{_in(e, False, '{}: ')}{e.translation or _missing(e)}"
            for e in spoken
        ]
        return "\n\n".join(blocks) + ("\n" if blocks else "")
    return "".join(f"{_who(e, '{}: ')}{_in(e, False, '{}: ')}{e.translation or _missing(e)}\n" for e in spoken)


def _who(entry: TranscriptEntry, form: str) -> str:
    return form.format(entry.speaker) if entry.speaker else ""


def _in(entry: TranscriptEntry, source: bool, form: str) -> str:
    """Face to face, each line says its language ("EN: ", "ZH: "): the source's, or the translation's."""
    if not entry.language:
        return ""
    language = entry.language if source else ("zh" if entry.language == "en" else "en")
    return form.format(language.upper())


def _cue_text(entry: TranscriptEntry, bilingual: bool) -> str:
    lines = [(entry.source, True), (entry.translation, False)] if bilingual else [(entry.translation, False)]
    text = "\n".join(  # no blank line inside a cue
        _in(entry, source, "[{}] ") + " ".join(line.split()) for line, source in lines if line.strip()
    )
    return _who(entry, "[{}] ") + text  # a conversation's cues say who spoke


def _cues(entries: list[TranscriptEntry], bilingual: bool) -> list[tuple[float, float, str]]:
    cues = []
    for entry in entries:
        if not entry.source or not (bilingual or entry.translation):
            continue
        cues.append((max(entry.start, 0.0), max(entry.end, entry.start, 0.0), _cue_text(entry, bilingual)))
    return cues


def _time(seconds: float, separator: str) -> str:
    ms = round(seconds * 1000)
    hours, ms = divmod(ms, 3_600_000)
    minutes, ms = divmod(ms, 60_000)
    secs, ms = divmod(ms, 1000)
    return f"{hours:02d}:{minutes:02d}:{secs:02d}{separator}{ms:03d}"


# SubRip has no escapes. Players end a cue at a line holding "-->" (a timing line) and read
# <i>, <font ...>, {\an8} as markup: a zero-width space keeps each as the text people see.
_SRT_MARKUP = re.compile(r"-->|<(?=[A-Za-z/!])|\{(?=\\)")


def srt_text(text: str) -> str:
    """Cue text as SubRip players show it as written (no cue cut short, no markup applied)."""
    return _SRT_MARKUP.sub(
        lambda m: m.group(0)[:-1] + "\u200b" + m.group(0)[-1] if m.group(0) == "-->" else m.group(0) + "\u200b", text
    )


def export_srt(entries: list[TranscriptEntry], bilingual: bool = True) -> str:
    """SubRip subtitles: one numbered cue per utterance, audio times."""
    cues = [
        f"{n}\n{_time(start, ',')} --> {_time(end, ',')}\n{srt_text(text)}\n"
        for n, (start, end, text) in enumerate(_cues(entries, bilingual), 1)
    ]
    return "\n".join(cues)


def export_vtt(entries: list[TranscriptEntry], bilingual: bool = False) -> str:
    """WebVTT subtitles (webvtt-py writes and validates them); cue text escaped as WebVTT wants."""
    from webvtt import Caption, WebVTT

    vtt = WebVTT()
    for start, end, text in _cues(entries, bilingual):
        vtt.captions.append(Caption(_time(start, "."), _time(end, "."), html.escape(text, quote=False)))
    return vtt.content
