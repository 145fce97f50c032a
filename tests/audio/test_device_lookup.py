"""One rule finds a microphone or a system-audio source by what a person typed; each kind keeps
its own words when the choice names none, several, or there is nothing to choose from."""

from __future__ import annotations

import pytest

from app.audio.device_lookup import find_device
from app.audio.sources import InputDevice
from app.audio.system import SystemDevice
from app.shared.audio import SourceKind
from app.shared.errors import LiveTranslatorError

MICROPHONES = [
    InputDevice(0, "Built-in Microphone", "ALSA", 2, 48000.0, False),
    InputDevice(3, "USB Microphone 2", "ALSA", 1, 44100.0, True),
    InputDevice(12, "pulse", "ALSA", 32, 44100.0, False),
]
OUTPUTS = [
    SystemDevice("alsa_output.pci.analog-stereo.monitor", "Monitor of Built-in Audio", True),
    SystemDevice("alsa_output.usb.headset.monitor", "Monitor of USB Headset", False),
]


def microphone(wanted):
    return find_device(SourceKind.MICROPHONE, MICROPHONES, wanted, key=lambda d: str(d.index))


def output(wanted):
    return find_device(SourceKind.SYSTEM, OUTPUTS, wanted, key=lambda d: d.id)


def test_nothing_named_is_the_default_of_the_kind():
    assert microphone(None).index == 3 and microphone("").index == 3
    assert output(None).name == "Monitor of Built-in Audio"


def test_a_microphone_by_index_name_or_unique_part_of_a_name():
    assert microphone(12).name == microphone("12").name == "pulse"
    assert microphone("Built-in Microphone").index == 0
    assert microphone("usb").index == 3


def test_a_number_is_a_microphone_index_never_part_of_a_name():
    with pytest.raises(LiveTranslatorError) as error:
        microphone("2")  # "USB Microphone 2" holds it, but there is no device 2
    assert error.value.message.startswith("Microphone '2' is not an input device. Available: 0: Built-in Microphone;")


def test_a_system_source_by_id_name_or_a_part_of_either():
    assert output("alsa_output.usb.headset.monitor").name == "Monitor of USB Headset"
    assert output("Monitor of USB Headset").id.startswith("alsa_output.usb")
    assert output("pci").name == output("built-in").name == "Monitor of Built-in Audio"


@pytest.mark.parametrize(
    ("find", "wanted", "message", "hint"),
    [
        (
            microphone,
            "microphone",
            "Microphone 'microphone' matches several input devices. "
            "Available: 0: Built-in Microphone; 3: USB Microphone 2; 12: pulse.",
            "python -m app listen --list-devices",
        ),
        (microphone, "speaker", "Microphone 'speaker' is not an input device.", "python -m app listen --list-devices"),
        (
            output,
            "monitor",
            "System audio 'monitor' matches several outputs. Available: "
            "alsa_output.pci.analog-stereo.monitor: Monitor of Built-in Audio; "
            "alsa_output.usb.headset.monitor: Monitor of USB Headset.",
            "python -m app devices",
        ),
        (output, "hdmi", "System audio 'hdmi' is not a system-audio source.", "python -m app devices"),
    ],
)
def test_each_kind_says_what_is_wrong_in_its_own_words(find, wanted, message, hint):
    with pytest.raises(LiveTranslatorError) as error:
        find(wanted)
    assert error.value.message.startswith(message) and hint in error.value.hint


def test_no_device_of_a_kind_says_what_to_connect():
    with pytest.raises(LiveTranslatorError, match="No microphone found") as error:
        find_device(SourceKind.MICROPHONE, [], "pulse", key=lambda d: str(d.index))
    assert "Connect a microphone" in error.value.hint
    with pytest.raises(LiveTranslatorError, match="the sound server has no output device") as error:
        find_device(SourceKind.SYSTEM, [], None, key=lambda d: d.id)
    assert "--source microphone" in error.value.hint
