"""Where speech goes (`--speak-into speakers|virtual-mic|DEVICE`): the output to open for a target.
Apart from app.audio.outputs and app.audio.virtual_mic, which it chooses between, so neither imports the other."""

from __future__ import annotations

from app.audio.outputs import DeviceOutput
from app.audio.virtual_mic import VirtualMicOutput
from app.shared.audio import AudioOutput, SpeechTarget


def open_output(target: str | None, mix_original: float = 0.0) -> AudioOutput | None:
    """The output for `--speak-into` (not opened yet); None for the speech engine's own speakers.
    mix_original: my voice under the translation, in the virtual microphone only."""
    if target in (None, "", SpeechTarget.SPEAKERS):
        return None
    if target == SpeechTarget.VIRTUAL_MIC:
        return VirtualMicOutput(mix_original)
    return DeviceOutput(str(target))
