"""Which virtual microphone on the sound server is ours, who speaks into it, and what a crashed
run left behind. The sound server itself is the registry, so instances on one server agree
without files of their own:

- ours: a sink or source whose properties carry `live_translator.pid` (the process that made
  it). A device of the same name without it is the user's: never spoken into, never removed;
  ours is then made under a free name (`live_translator_sink_2`, ...).
- who speaks into it: each instance keeps a client connection named `HOLDER_PREFIX + token` open
  while it does. The server drops the connection when the process ends, even on kill -9, so the
  list of holders is always true; the last holder to leave unloads the microphone.
"""

from __future__ import annotations

import itertools
import logging
import os
import re
import time
import uuid
from dataclasses import dataclass

log = logging.getLogger(__name__)

SINK_NAME = "live_translator_sink"
SOURCE_NAME = "live_translator_mic"
OWNER_PROPERTY = "live_translator.pid"
SINK_PROPERTY = "live_translator.sink"  # on our source: the sink whose monitor it carries
HOLDER_PREFIX = "live-translator-mic-holder "
SHARED_MODULES = ("module-null-sink", "module-remap-source")  # the microphone itself; a loopback is one run's
_OWNED = re.compile(rf"{re.escape(OWNER_PROPERTY)}=(\d+)")
_RELEASE_WAIT_S = 2.0


def is_ours(device) -> bool:
    """A sink or source the app made (not the user's own of the same name)."""
    return OWNER_PROPERTY in device.proplist


@dataclass(frozen=True)
class SharedMic:
    """Our sink and the source on its monitor, by name and module."""

    sink: str
    source: str
    sink_module: int
    source_module: int


def find_ours(pulse, sink_name: str | None = None) -> SharedMic | None:
    """Our microphone on this server (the one named sink_name, when given); None when there is none
    whole (a sink without its source is not one a call app can pick)."""
    for sink in sorted(pulse.sink_list(), key=lambda s: s.index):
        if not is_ours(sink) or sink_name not in (None, sink.name):
            continue
        for source in pulse.source_list():
            if is_ours(source) and source.proplist.get(SINK_PROPERTY) == sink.name:
                return SharedMic(sink.name, source.name, sink.owner_module, source.owner_module)
    return None


def free_name(base: str, taken: set[str]) -> str:
    """base, or base_2, base_3, ...: the first name no device has."""
    return next(
        name for name in itertools.chain([base], (f"{base}_{n}" for n in itertools.count(2))) if name not in taken
    )


def holders(pulse, but: str = "") -> list:
    """The client connections of instances speaking into our microphone, but the one named `but`."""
    return [c for c in pulse.client_list() if c.name.startswith(HOLDER_PREFIX) and c.name != but]


class Holder:
    """A client connection that says "this instance speaks into the virtual microphone" while open."""

    def __init__(self, connect):
        self.name = f"{HOLDER_PREFIX}{os.getpid()} {uuid.uuid4().hex[:8]}"
        self._pulse = connect(self.name)

    def release(self, pulse) -> None:
        """Close it, and wait until the server has forgotten it, so a count made after this call is
        true: of two instances leaving at once, the second to count sees none and unloads."""
        self.drop()
        end = time.monotonic() + _RELEASE_WAIT_S
        while any(c.name == self.name for c in pulse.client_list()) and time.monotonic() < end:
            time.sleep(0.02)

    def drop(self) -> None:
        self._pulse.close()


def _owner(module) -> int | None:
    """The pid that loaded this module, if it is one of ours."""
    found = _OWNED.search(module.argument or "")
    return int(found.group(1)) if found else None


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        return True
    return True


def remove_leftovers(pulse, me: str) -> list[str]:
    """Unload what runs of ours left behind: the microphone when no instance but `me` speaks into
    it, a loopback whose process is gone. The names of the modules removed."""
    nobody_else = not holders(pulse, but=me)
    removed = []
    # Newest first: unloading the sink first would take the source on its monitor with it.
    for module in sorted(pulse.module_list(), key=lambda m: m.index, reverse=True):
        pid = _owner(module)
        if pid is None:
            continue
        if nobody_else if module.name in SHARED_MODULES else not _alive(pid):
            try:
                pulse.module_unload(module.index)
            except Exception as error:  # pulsectl.PulseOperationFailed: gone with the one before
                log.info("leftover module %s: %s", module.index, error)
            removed.append(module.name)
    if removed:
        log.info("removed a virtual microphone no running Live Translator speaks into (%s)", ", ".join(removed))
    return removed
