"""The device a person named, among the devices of one kind: microphones (app.audio.sources) and
system audio (app.audio.system) follow one rule and keep their own words.

The rule: nothing named is the default (else the first); otherwise the device whose id is the
text, else whose name is it, else whose name (or id) holds it, case aside. A number names a
microphone by its PortAudio index only. Anything but exactly one device is an error that lists
what there is.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol, TypeVar

from app.shared.audio import SourceKind
from app.shared.errors import QT_TRANSLATE_NOOP, LiveTranslatorError

# What a failed lookup says, per kind: no device at all, a choice matching several or none.
WORDS = {
    SourceKind.MICROPHONE: {
        "none": QT_TRANSLATE_NOOP("Errors", "No microphone found: this computer has no audio input device."),
        "none_hint": QT_TRANSLATE_NOOP(
            "Errors", "Connect a microphone (or start the sound server), then start listening again."
        ),
        "several": QT_TRANSLATE_NOOP(
            "Errors", "Microphone {device} matches several input devices. Available: {listing}."
        ),
        "unknown": QT_TRANSLATE_NOOP("Errors", "Microphone {device} is not an input device. Available: {listing}."),
        "pick_hint": QT_TRANSLATE_NOOP(
            "Errors", "Pick one by its number or full name (python -m app listen --list-devices)."
        ),
    },
    SourceKind.SYSTEM: {
        "none": QT_TRANSLATE_NOOP("Errors", "No system audio to capture: the sound server has no output device."),
        "none_hint": QT_TRANSLATE_NOOP(
            "Errors", "Check the sound settings, or use a microphone (--source microphone)."
        ),
        "several": QT_TRANSLATE_NOOP("Errors", "System audio {device} matches several outputs. Available: {listing}."),
        "unknown": QT_TRANSLATE_NOOP(
            "Errors", "System audio {device} is not a system-audio source. Available: {listing}."
        ),
        "pick_hint": QT_TRANSLATE_NOOP("Errors", "Pick one by its id or full name (python -m app devices)."),
    },
}


class Device(Protocol):
    @property
    def name(self) -> str: ...

    @property
    def is_default(self) -> bool: ...


D = TypeVar("D", bound=Device)


def find_device(kind: SourceKind, devices: Sequence[D], wanted: int | str | None, key: Callable[[D], str]) -> D:
    """The one device of `devices` (all of that kind) that `wanted` names; `key` gives a device's
    id as text (a microphone's index, a system source's id), as the error's listing shows it."""
    words = WORDS[kind]
    if not devices:
        raise LiveTranslatorError(words["none"], words["none_hint"])
    if wanted is None or wanted == "":
        return next((d for d in devices if d.is_default), devices[0])
    by_number = kind is SourceKind.MICROPHONE and (isinstance(wanted, int) or str(wanted).isdigit())
    found = _named(devices, str(wanted), key, by_id_only=by_number)
    if len(found) != 1:
        listing = "; ".join(f"{key(d)}: {d.name}" for d in devices)
        raise LiveTranslatorError(
            words["several"] if found else words["unknown"], words["pick_hint"], device=repr(wanted), listing=listing
        )
    return found[0]


def _named(devices: Sequence[D], text: str, key: Callable[[D], str], by_id_only: bool) -> list[D]:
    """The devices `text` names, by the first rule that finds any."""
    by_id = [d for d in devices if key(d) == text]
    if by_id_only:
        return by_id
    part = text.lower()
    return (
        by_id
        or [d for d in devices if d.name == text]
        or [d for d in devices if part in d.name.lower() or part in key(d).lower()]
    )
