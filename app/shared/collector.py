"""Large builds in the background: without the garbage collector's long pauses, and paced.

Reading a 500,000-entry glossary and building its automata make millions of objects. Python's
cyclic collector then runs full passes over every object in the process, each holding Python's
lock for 1.7-3 s on 2 busy cores (measured: docs/glossary.md, 'How large'): recognition, on
another thread, stopped as long. Within `quiet_collector()` the collector does not run; on the
way out every object then alive is moved to the collector's permanent generation (gc.freeze),
which its passes skip. Those objects are still freed when nothing refers to them (reference
counting); only one that is part of a reference cycle stays until the process ends. So it is
used for large builds only (a glossary of more than 5,000 entries, `run`'s glossary before the
session starts): a glossary holds no cycles, and what else is alive then is kept for the cost of
a few objects per build, against a pause of seconds on every full pass.

Within `background_build()` (a thread of its own) the builder also calls `pace()` between parts
of its work: it sleeps so that the build runs at most BACKGROUND_SHARE of the time. A build that
ran flat out shared Python's lock with the live threads, and finals came 6-8 s late instead of
under 1 s (200,000 entries, 2 cores at load 16): built paced, it takes longer to be in use.
"""

from __future__ import annotations

import contextlib
import gc
import threading
import time

_lock = threading.Lock()
_inside = 0  # builds under way (two sides of a conversation may build at once)
_was_enabled = True  # the collector's state before the first of them


@contextlib.contextmanager
def quiet_collector():
    global _inside, _was_enabled
    with _lock:
        if _inside == 0:
            _was_enabled = gc.isenabled()
        _inside += 1
        gc.disable()
    try:
        yield
    finally:
        with _lock:
            _inside -= 1
            if _inside == 0:
                gc.freeze()
                if _was_enabled:
                    gc.enable()


BACKGROUND_SHARE = 0.25  # of the time, at most, a background build runs
_paced = threading.local()


@contextlib.contextmanager
def background_build():
    """A large build on this (background) thread: quiet_collector, and pace() pauses."""
    with quiet_collector():
        _paced.since = time.perf_counter()
        _paced.on = True
        try:
            yield
        finally:
            _paced.on = False


def pace() -> None:
    """In a background_build on this thread: sleep so that it runs BACKGROUND_SHARE of the time
    since the last pause; anywhere else nothing."""
    if not getattr(_paced, "on", False):
        return
    ran = time.perf_counter() - _paced.since
    time.sleep(ran * (1 / BACKGROUND_SHARE - 1))
    _paced.since = time.perf_counter()
