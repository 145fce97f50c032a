"""A session's glossary, prepared off the live path.

Using a glossary needs its automata and hotwords (`Glossary.prepare`). For a large one that takes
seconds (500,000 entries: tens of seconds on 2 busy cores), and whichever thread asked first
used to build them: the translation of the next final, and recognition with it, waited. Here a
large glossary is built on a thread of its own, `glossary-builder`, while the glossary in use
before it (none, at the start of a session) stays in use; it takes over once ready, from the
next utterance on. A small one is ready in milliseconds and is in use at once. Of glossaries
offered while one is being built, only the latest is used.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Sequence

from app.shared.collector import background_build
from app.shared.glossary import Glossary

log = logging.getLogger(__name__)

# Up to this many entries a glossary is prepared where it is offered (measured: a few ms).
PREPARED_AT_ONCE = 5_000
LOAD_WAIT_S = 120.0  # the models a build waits for: loaded by then, or failed


class GlossaryBuilder:
    """Hands each glossary offered to `use` once it is prepared (None: no glossary)."""

    def __init__(self, use: Callable[[Glossary | None], None]):
        self.use = use
        self._lock = threading.Lock()
        self._latest: Glossary | None = None

    def offer(self, glossary: Glossary | None, after: Sequence[threading.Event] = ()) -> None:
        """A large glossary is built once each of `after` is set (or LOAD_WAIT_S has passed)."""
        with self._lock:
            self._latest = glossary
            if glossary is None or len(glossary.entries) <= PREPARED_AT_ONCE:
                self.use(glossary.prepare() if glossary is not None else None)
                return
        threading.Thread(target=self._build, args=(glossary, after), name="glossary-builder", daemon=True).start()

    def _build(self, glossary: Glossary, after: Sequence[threading.Event]) -> None:
        for event in after:
            event.wait(LOAD_WAIT_S)
        began = time.monotonic()
        try:
            with background_build():
                glossary.prepare()
        except Exception:  # a bug, or memory: the glossary in use stays
            log.exception("glossary: could not prepare %d entries; the glossary in use stays", len(glossary.entries))
            return
        with self._lock:
            if self._latest is not glossary:
                return  # another was offered meanwhile
            self.use(glossary)
        log.info("glossary: %d entries in use (prepared in %.1f s)", len(glossary.entries), time.monotonic() - began)
