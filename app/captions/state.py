"""The session's captions, as the caption page shows them: one caption per utterance.

Pipeline events come in; a caption update (a plain dict, the JSON the page reads) comes out.
Every update carries the whole caption (source and translation as they stand), and a `seq`
number that grows with every update of the session, so the page can apply updates and
/transcript snapshots in any order and keep the newest.

Not thread-safe: the caption server calls it on its own event-loop thread only.
"""

from __future__ import annotations

import secrets
from collections import OrderedDict
from typing import Any

from app.shared.events import Event, SourceFinal, SourcePartial, Status, Translation

MAX_CAPTIONS = 5000  # /transcript keeps this many utterances; older ones are forgotten (memory stays bounded)
CAPTION_EVENTS = (SourcePartial, SourceFinal, Translation, Status)  # the events the page shows


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
        return {"session": self.session, "seq": self.seq, "state": self.state, "captions": list(self.items.values())}

    def apply(self, event: Event) -> dict[str, Any] | None:
        """Fold one pipeline event in; the update to send to the pages, or None."""
        if isinstance(event, Status):
            self.state = str(event.state)
            self.seq += 1
            return {"type": "status", "session": self.session, "seq": self.seq, "state": self.state,
                    "detail": event.detail}
        if not isinstance(event, (SourcePartial, SourceFinal, Translation)):
            return None
        caption = self._caption(event.utterance_id)
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

    def _caption(self, utterance_id: int) -> dict[str, Any]:
        caption = self.items.get(utterance_id)
        if caption is None:
            caption = self.items[utterance_id] = {
                "id": utterance_id, "seq": 0,
                "source": "", "source_stable": 0, "source_final": False,
                "translation": "", "translation_stable": 0, "translation_final": False,
                "direction": "",
            }
            while len(self.items) > self.max_captions:
                self.items.popitem(last=False)
        return caption
