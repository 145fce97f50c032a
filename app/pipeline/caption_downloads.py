"""The caption page's downloads (/transcript?format=...): the session so far, written by the same
writers as `python -m app export`. The caption server may only import app/shared, so the
composition layer (the window, `run --serve`) hands it these writers."""

from __future__ import annotations

import functools

from app.pipeline.subtitles import ExportFormat, export
from app.pipeline.transcript import TranscriptEntry


def caption_writers() -> dict[str, functools.partial]:
    """Format name -> writer(captions, bilingual) for `CaptionServer(writers=...)`."""
    return {fmt.value: functools.partial(write_captions, fmt=fmt) for fmt in ExportFormat}


def write_captions(captions: list[dict], bilingual: bool, fmt: ExportFormat) -> str:
    return export(entries_of(captions), fmt, bilingual)


def entries_of(captions: list[dict]) -> list[TranscriptEntry]:
    """Captions as /transcript lists them -> the transcript's utterances: finals only, as the
    session's transcript records them (provisional text changes), and an utterance's error,
    which the writers put where its translation would be ("[error text]"), as export does."""
    return [
        TranscriptEntry(
            caption["id"],
            source=caption["source"] if caption["source_final"] else "",
            translation=caption["translation"] if caption["translation_final"] else "",
            direction=caption.get("direction", ""),
            start=caption.get("start", 0.0),
            end=caption.get("end", 0.0),
            speaker=caption.get("speaker", ""),
            error=caption.get("error", ""),
        )
        for caption in captions
    ]
