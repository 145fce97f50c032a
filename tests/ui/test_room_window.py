"""The window tells what the input sounds like: a recording whose second half is an overdriven
microphone (noise clipped flat at full scale) played through the real pipeline turns the level
meter amber, its tooltip and the status bar saying what to do, in the interface's language; the
next session starts with the meter as it was."""

import numpy as np
import pytest
import soundfile

from app.audio import SAMPLE_RATE
from app.shared import events as ev
from app.ui.controls import ROOM_PROBLEM_COLOUR
from app.ui.i18n import install_translators
from tests.ui.conftest import nmt_model, speak
from tests.ui.test_window import Watcher, finish, make_window

pytestmark = pytest.mark.slow


@pytest.fixture
def language(request):
    install_translators(request.param)
    yield request.param
    install_translators("en")


@pytest.mark.parametrize(
    "language, words",
    [("en", "Lower the input gain"), ("zh_CN", "调低输入增益"), ("zh_TW", "調低輸入增益")],
    indirect=["language"],
)
def test_a_clipping_input_turns_the_meter_amber_with_what_to_do(qtbot, store, tmp_path, language, words):
    from faster_whisper import decode_audio

    speech = decode_audio(str(speak(tmp_path / "speech.wav", "Good morning.", "en")), sampling_rate=SAMPLE_RATE)
    overdriven = np.clip(np.random.default_rng(5).standard_normal(6 * SAMPLE_RATE) * 3, -1, 1)
    wav = tmp_path / "room.wav"
    soundfile.write(wav, np.concatenate([speech, overdriven]).astype(np.float32), SAMPLE_RATE)
    window = make_window(qtbot, store, direction="en-zh", nmt_en_zh=str(nmt_model("en-zh")))
    watch = Watcher(window)
    normal_tip = window.controls.level.toolTip()
    window.session_control.realtime = False
    window.session_control.play_recording(str(wav))
    finish(qtbot, window)

    rooms = watch.of(ev.Room)
    assert [r.problem for r in rooms] == [ev.RoomProblem.CLIPPING]
    meter = window.controls.level
    assert words in meter.toolTip() and words in meter.property("room_problem")
    assert ROOM_PROBLEM_COLOUR in meter.styleSheet()
    assert not [f for f in watch.of(ev.SourceFinal) if f.start > len(speech) / SAMPLE_RATE]  # nothing made up

    window.session_control.play_recording(str(speak(tmp_path / "again.wav", "Good morning.", "en")))
    finish(qtbot, window)
    assert meter.toolTip() == normal_tip and meter.styleSheet() == ""
