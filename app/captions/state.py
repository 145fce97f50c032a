"""The session's captions, as the caption page shows them: one caption per utterance.

Pipeline events come in; a caption update (a plain dict, the JSON the page reads) comes out.
Every update carries the whole caption (source and translation as they stand), and a `seq`
number that grows with every update of the session, so the page can apply updates and
/transcript snapshots in any order and keep the newest. A caption the user corrected
(CaptionCorrected) is sent again whole, with `"corrected": true`.

Each listener may read Chinese in their own script: `in_script` converts an update (or a
snapshot's caption) for them, offsets of the settled text carried across (OpenCC can change a
text's length).

Not thread-safe: the caption server calls it on its own event-loop thread only.
"""

from __future__ import annotations

import secrets
from collections import OrderedDict
from typing import Any

from app.shared.chinese import ChineseScript, map_offset, to_script
from app.shared.events import (
    CaptionCorrected,
    Error,
    Event,
    SourceFinal,
    SourcePartial,
    SourceText,
    Status,
    Translation,
)
from app.shared.glossary import HAN

MAX_CAPTIONS = 5000  # /transcript keeps this many utterances; older ones are forgotten (memory stays bounded)
# the events the page shows; an utterance's Error is kept in its caption for downloads (as export writes it)
CAPTION_EVENTS = (SourcePartial, SourceFinal, Translation, Status, CaptionCorrected, Error)


def new_session_id() -> str:
    return secrets.token_hex(4)


class Captions:
    """Finals and the latest provisional text of each utterance of one session."""

    def __init__(self, max_captions: int = MAX_CAPTIONS):
        self.max_captions = max_captions
        self.session = new_session_id()
        self.seq = 0
        self.items: OrderedDict[int, dict[str, Any]] = OrderedDict()
        self.state = ""

    def reset(self) -> dict[str, Any]:
        """A new session (its utterance ids start again): forget the captions."""
        self.session = new_session_id()
        self.items.clear()
        self.state = ""
        self.seq += 1
        return {"type": "reset", "session": self.session, "seq": self.seq}

    def snapshot(self) -> dict[str, Any]:
        """The /transcript document."""
        return {
            "session": self.session,
            "seq": self.seq,
            "state": self.state,
            "captions": list(self.items.values()),
            "max_captions": self.max_captions,
        }

    def apply(self, event: Event) -> dict[str, Any] | None:
        """Fold one pipeline event in; the update to send to the pages, or None."""
        if isinstance(event, Status):
            self.state = str(event.state)
            self.seq += 1
            return {
                "type": "status",
                "session": self.session,
                "seq": self.seq,
                "state": self.state,
                "detail": event.detail,
            }
        if isinstance(event, CaptionCorrected):
            return self._correct(event)
        if isinstance(event, Error):
            if event.utterance_id in self.items:  # the caption's "error": the transcript's, for downloads
                self.items[event.utterance_id]["error"] = event.text
            return None
        if not isinstance(event, (SourcePartial, SourceFinal, Translation)):
            return None
        caption = self._caption(event.utterance_id)
        if event.speaker_name:  # a guest who spoke through the page (guest speech)
            caption["speaker"], caption["speaker_name"] = str(event.speaker or "guest"), event.speaker_name
        if isinstance(event, SourceText):  # where it sits in the session's audio (for subtitles)
            caption["start"], caption["end"] = event.start, event.end
            if event.language is not None:  # face to face: the page labels each line by its language
                caption["language"] = str(event.language)
        if caption["translation_final"]:
            return None  # a final translation is the last word on its utterance
        if isinstance(event, SourcePartial):
            if caption["source_final"]:
                return None
            caption["source"], caption["source_stable"] = event.text, len(event.committed)
        elif isinstance(event, SourceFinal):
            text = event.text.strip()
            caption["source"], caption["source_stable"], caption["source_final"] = text, len(text), True
        else:
            caption["translation"] = event.text
            caption["translation_final"] = not event.provisional
            caption["direction"] = str(event.direction)
            stable = getattr(event, "stable", None)  # characters settled, when the translator says
            if not event.provisional:
                stable = len(event.text)
            caption["translation_stable"] = min(max(int(stable or 0), 0), len(event.text))
            speaker = getattr(event, "speaker", None)
            if speaker:
                caption["speaker"] = str(speaker)
            if not caption["source"]:
                caption["source"] = event.source
        self.seq += 1
        caption["seq"] = self.seq
        if caption["source_final"] and not caption["source"] and not caption["translation"]:
            del self.items[event.utterance_id]  # nothing was said after all (noise): pages drop it
        return {"type": "caption", "session": self.session, **caption}

    def _correct(self, event: CaptionCorrected) -> dict[str, Any] | None:
        caption = self.items.get(event.utterance_id)
        if caption is None:
            return None  # forgotten already (or never shown): nothing on any page to correct
        caption.update(source=event.source, source_stable=len(event.source), source_final=True, corrected=True)
        if event.text:
            caption.update(translation=event.text, translation_stable=len(event.text), translation_final=True)
        self.seq += 1
        caption["seq"] = self.seq
        return {"type": "caption", "session": self.session, **caption}

    def _caption(self, utterance_id: int) -> dict[str, Any]:
        caption = self.items.get(utterance_id)
        if caption is None:
            caption = self.items[utterance_id] = {
                "id": utterance_id,
                "seq": 0,
                "source": "",
                "source_stable": 0,
                "source_final": False,
                "translation": "",
                "translation_stable": 0,
                "translation_final": False,
                "direction": "",
            }
            while len(self.items) > self.max_captions:
                self.items.popitem(last=False)
        return caption


def in_script(caption: dict[str, Any], script: ChineseScript) -> dict[str, Any]:
    """A caption (or a caption update) with its Chinese written in `script`; other updates as they are."""
    if "source" not in caption:
        return caption
    converted = dict(caption)
    for text_key, stable_key in (("source", "source_stable"), ("translation", "translation_stable")):
        text = caption[text_key]
        if not HAN.search(text):
            continue  # nothing to convert (English): OpenCC is not cheap, and updates are many
        converted[text_key] = to_script(text, script)
        converted[stable_key] = map_offset(text, caption[stable_key], script, converted[text_key])
    return converted
