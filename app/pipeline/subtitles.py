"""A session transcript as text, SubRip (SRT) or WebVTT subtitles.

One cue (or text block) per utterance, timed by the session's audio. Bilingual output puts
the source and its translation in one cue, source first; otherwise the translation alone
(an utterance without one is left out of subtitles and marked in text). WebVTT is written and
validated by webvtt-py.
"""

from __future__ import annotations

import dataclasses
import html
import os
from enum import StrEnum

from app.pipeline.transcript import TranscriptEntry, read_entries
from app.shared.chinese import to_script
from app.shared.errors import QT_TRANSLATE_NOOP, LiveTranslatorError


class ExportFormat(StrEnum):
    TXT = "txt"
    SRT = "srt"
    VTT = "vtt"


def load(path: str | os.PathLike, chinese: str | None = None) -> list[TranscriptEntry]:
    """A saved transcript's utterances; with `chinese`, its Chinese rewritten in that script."""
    try:
        entries = read_entries(path)
    except FileNotFoundError:
        raise LiveTranslatorError(QT_TRANSLATE_NOOP("Errors", "No such transcript: {path}"),
                                  QT_TRANSLATE_NOOP("Errors", "Give a session .jsonl file (the app prints its path at the end of a run)."),
                                  path=path) from None
    except (OSError, UnicodeDecodeError) as error:
        raise LiveTranslatorError(QT_TRANSLATE_NOOP("Errors", "Cannot read the transcript {path}: {reason}"),
                                  QT_TRANSLATE_NOOP("Errors", "Give a session .jsonl file saved by the app."), path=path, reason=error) from None
    if chinese is not None:  # OpenCC leaves non-Chinese text as it is
        entries = [dataclasses.replace(e, source=to_script(e.source, chinese), translation=to_script(e.translation, chinese))
                   for e in entries]
    return entries


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
        blocks = [f"{_who(e, '{}: ')}{e.source}\n{e.translation or _missing(e)}" for e in spoken]
        return "\n\n".join(blocks) + ("\n" if blocks else "")
    return "".join(f"{_who(e, '{}: ')}{e.translation or _missing(e)}\n" for e in spoken)


def _who(entry: TranscriptEntry, form: str) -> str:
    return form.format(entry.speaker) if entry.speaker else ""


def _cue_text(entry: TranscriptEntry, bilingual: bool) -> str:
    lines = [entry.source, entry.translation] if bilingual else [entry.translation]
    text = "\n".join(" ".join(line.split()) for line in lines if line.strip())  # no blank line inside a cue
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


def export_srt(entries: list[TranscriptEntry], bilingual: bool = True) -> str:
    """SubRip subtitles: one numbered cue per utterance, audio times."""
    cues = [f"{n}\n{_time(start, ',')} --> {_time(end, ',')}\n{text}\n"
            for n, (start, end, text) in enumerate(_cues(entries, bilingual), 1)]
    return "\n".join(cues)


def export_vtt(entries: list[TranscriptEntry], bilingual: bool = False) -> str:
    """WebVTT subtitles (webvtt-py writes and validates them); cue text escaped as WebVTT wants."""
    from webvtt import Caption, WebVTT

    vtt = WebVTT()
    for start, end, text in _cues(entries, bilingual):
        vtt.captions.append(Caption(_time(start, "."), _time(end, "."), html.escape(text, quote=False)))
    return vtt.content
