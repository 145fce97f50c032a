"""`run --glossary FILE`: edits to the glossary files reach the running session.

The files are checked between utterances (when an utterance's final text is heard, before it is
translated): a file whose size or modification time changed is read again, and the session uses
the result from that utterance on (`apply_glossary`, no restart). Files over READ_AT_ONCE_BYTES
together are read on a thread of their own instead, and used from the utterance after they are
read and built (the glossary in use stays meanwhile). A file edited into something
that cannot be used (unreadable, not UTF-8, or a line that is not an entry) is reported as an
Error and the glossary in force stays as it was, until the file is saved again.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable, Sequence
from pathlib import Path

from app.shared.collector import background_build
from app.shared.errors import QT_TRANSLATE_NOOP, LiveTranslatorError, Text, texts_of
from app.shared.events import Error, Event, SourceFinal, Stage
from app.shared.glossary import Glossary

log = logging.getLogger(__name__)

READ_AT_ONCE_BYTES = 1 << 20  # ~30,000 entries: read in tens of ms


class GlossaryWatch:
    """An observer: on each final source text, reads changed glossary files and hands the merged
    glossary to `apply`; a glossary that cannot be used goes to `report` instead."""

    def __init__(
        self, paths: Sequence[str | os.PathLike], apply: Callable[[Glossary], None], report: Callable[[Event], None]
    ):
        self.paths = [Path(p) for p in paths]
        self.apply, self.report = apply, report
        self._stamps = self._stamp()
        self._reader: threading.Thread | None = None

    def on_event(self, event: Event) -> None:
        """On the recognition thread: a small file is read here, before the utterance is
        translated; a large one (seconds to read) on a thread of its own, and used once read."""
        if not isinstance(event, SourceFinal) or self._stamp() == self._stamps:
            return
        if sum(stamp[1] for stamp in self._stamp() if stamp) <= READ_AT_ONCE_BYTES:
            self.check()
        elif self._reader is None or not self._reader.is_alive():
            self._reader = threading.Thread(target=self._check_quietly, name="glossary-reader", daemon=True)
            self._reader.start()

    def _check_quietly(self) -> None:
        with background_build():  # paced, and without the collector's full passes that stop every thread
            self.check()

    def check(self) -> bool:
        """Read the files again if one changed; True when a new glossary is in force."""
        stamps = self._stamp()
        if stamps == self._stamps:
            return False
        self._stamps = stamps
        try:
            glossary = Glossary.load_all(self.paths)
        except LiveTranslatorError as error:
            self._refuse(texts_of(error)[0])
            return False
        malformed = [p for p in glossary.problems if not p.message.startswith("conflict")]
        if malformed:
            first = malformed[0]
            self._refuse(
                Text(
                    QT_TRANSLATE_NOOP("Errors", "line {line} of {path}: {problem} (lines with a problem: {count})"),
                    {
                        "line": first.line,
                        "path": first.origin,
                        "problem": first.text or first.message,
                        "count": len(malformed),
                    },
                )
            )
            return False
        for problem in glossary.problems:
            log.warning("glossary %s", problem)
        self.apply(glossary)
        log.info("glossary: read again (%d entries), in use from this utterance on", len(glossary.entries))
        return True

    def _refuse(self, reason: Text) -> None:
        self.report(
            Error.of(
                Stage.GLOSSARY,
                Text(
                    QT_TRANSLATE_NOOP("Errors", "The glossary was changed but cannot be used: {reason}."),
                    {"reason": reason},
                ),
                Text(
                    QT_TRANSLATE_NOOP(
                        "Errors",
                        "The glossary in use stays as it was; fix the "
                        "file and save it again (english<TAB>chinese per line).",
                    )
                ),
            )
        )

    def _stamp(self) -> tuple:
        stamps = []
        for path in self.paths:
            try:
                st = path.stat()
                stamps.append((st.st_mtime_ns, st.st_size))
            except OSError:
                stamps.append(None)
        return tuple(stamps)
