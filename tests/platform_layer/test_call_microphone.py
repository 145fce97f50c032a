"""The call's microphone on each OS (app/platform/call_microphone.py): the app makes its own
virtual microphone only on Linux; elsewhere the window offers the outputs (a virtual cable's
input among them) and the virtual microphone refuses with what to install. `sys.platform` is
faked; PulseAudio is never reached off Linux. The real Linux microphone: tests/audio/test_virtual_mic.py."""

from __future__ import annotations

import os
import sys

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from app.audio.outputs import OutputDevice  # noqa: E402
from app.audio.virtual_mic import VirtualMicrophone  # noqa: E402
from app.shared.errors import LiveTranslatorError  # noqa: E402
from app.ui.call_output import CallOutputPanel  # noqa: E402

CABLE = OutputDevice("7", "CABLE Input (VB-Audio Virtual Cable)", False)


def choices(panel: CallOutputPanel) -> list[str]:
    return [panel.device.itemData(i) for i in range(panel.device.count())]


@pytest.mark.parametrize("platform", ["win32", "darwin"])
def test_off_linux_the_window_offers_the_outputs_only(qtbot, monkeypatch, platform):
    monkeypatch.setattr(sys, "platform", platform)
    panel = CallOutputPanel()
    qtbot.addWidget(panel)
    panel.set_outputs([CABLE])
    panel.enabled.setChecked(True)
    assert choices(panel) == ["7"]
    assert panel.speak_into() == "7"
    assert "CABLE Output" in panel.hint.text()


def test_on_linux_the_virtual_microphone_comes_first(qtbot, monkeypatch):
    monkeypatch.setattr(sys, "platform", "linux")
    panel = CallOutputPanel()
    qtbot.addWidget(panel)
    panel.set_outputs([CABLE])
    assert choices(panel) == ["virtual-mic", "7"]


@pytest.mark.parametrize("platform", ["win32", "darwin"])
def test_off_linux_the_virtual_microphone_says_to_install_a_cable(monkeypatch, platform):
    monkeypatch.setattr(sys, "platform", platform)
    monkeypatch.setenv("PULSE_SERVER", "unix:/nonexistent")  # were PulseAudio asked, it would fail otherwise
    with pytest.raises(LiveTranslatorError) as error:
        VirtualMicrophone().open()
    assert not VirtualMicrophone().is_open
    assert "needs Linux" in error.value.message and "VB-CABLE" in error.value.hint
