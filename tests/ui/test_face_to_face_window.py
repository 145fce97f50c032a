"""The window face to face: direction "Auto (English ⇄ 中文)" on the real window (offscreen),
real Whisper base, espeak-ng speech, the phrasebook models."""

from __future__ import annotations

import subprocess

import numpy as np
import soundfile
from PySide6.QtCore import Qt

from app.audio import SAMPLE_RATE
from app.shared import events as ev
from app.shared.languages import AUTO_DIRECTION, Language
from app.ui.face_to_face import KEYS
from tests.ui.conftest import VOICES, nmt_model
from tests.ui.test_window import Watcher, finish, make_window, row_of


def talk(path, lines: list[tuple[str, str]]):
    """Sentences in turns, espeak-ng's default pace, 1.2 s apart."""
    parts = [np.zeros(SAMPLE_RATE // 2, np.float32)]
    for i, (text, language) in enumerate(lines):
        clip = path.with_name(f"{path.stem}-{i}.wav")
        subprocess.run(["espeak-ng", "-v", VOICES[language], "-w", str(clip), text], check=True, capture_output=True)
        audio, rate = soundfile.read(clip, dtype="float32")
        assert rate == 22050
        resampled = np.interp(np.arange(0, len(audio), rate / SAMPLE_RATE), np.arange(len(audio)), audio)
        parts += [resampled.astype(np.float32), np.zeros(int(1.2 * SAMPLE_RATE), np.float32)]
    soundfile.write(path, np.concatenate(parts), SAMPLE_RATE)
    return path


def ink_box(image) -> tuple[int, int, int, int]:
    """(left, top, right, bottom) of the light pixels (the white text) of a half."""
    pixels = np.frombuffer(image.constBits(), np.uint8).reshape(image.height(), image.bytesPerLine())
    light = pixels[:, : image.width() * 4].reshape(image.height(), image.width(), 4)[..., :3].min(axis=2) > 200
    rows, cols = np.nonzero(light.any(axis=1))[0], np.nonzero(light.any(axis=0))[0]
    assert len(rows) and len(cols), "no text drawn"
    return int(cols[0]), int(rows[0]), int(cols[-1]), int(rows[-1])


def auto_window(qtbot, store):
    models = {"nmt_en_zh": str(nmt_model("en-zh")), "nmt_zh_en": str(nmt_model("zh-en"))}
    window = make_window(qtbot, store, direction=AUTO_DIRECTION, **models)
    assert window.controls.current_direction() == AUTO_DIRECTION and window.face_to_face.on
    assert window.direction() == "en-zh"  # the side a session starts from
    return window


def test_auto_shows_whose_turn_and_the_table_view(qtbot, store, tmp_path):
    window = auto_window(qtbot, store)
    assert window.face_to_face.panel.isVisible()
    watch = Watcher(window)
    window.session_control.realtime = False
    lines = [("Where is the station?", "en"), ("我不知道。", "zh")]
    window.session_control.play_recording(str(talk(tmp_path / "talk.wav", lines)))
    finish(qtbot, window)

    finals = [e for e in watch.of(ev.SourceFinal) if e.text]
    assert [e.language for e in finals] == [Language.EN, Language.ZH]
    translations = [t for t in watch.of(ev.Translation) if not t.provisional]
    assert [t.direction for t in translations] == ["en-zh", "zh-en"]
    for final, translation in zip(finals, translations):  # each row as with a fixed direction
        assert row_of(window, final.utterance_id).target.text() == translation.text
    panel = window.face_to_face.panel
    assert panel.turn.text() == "中文" and "#c62828" in panel.turn.styleSheet()
    table = window.face_to_face.table
    qtbot.mouseClick(panel.table, Qt.MouseButton.LeftButton)
    assert table.isVisible()
    assert table.halves[Language.ZH].text == finals[1].text
    assert table.halves[Language.EN].text == translations[1].text
    upright = table.halves[Language.ZH].grab().toImage()
    table.turn_around.setChecked(True)
    turned = table.halves[Language.ZH].grab().toImage()
    assert table.halves[Language.ZH].upside_down and turned != upright
    box, turned_box = ink_box(upright), ink_box(turned)  # the same text, turned 180° about the centre
    width, height = upright.width(), upright.height()
    mirrored = (width - 1 - box[2], height - 1 - box[3], width - 1 - box[0], height - 1 - box[1])
    assert all(abs(a - b) <= 3 for a, b in zip(turned_box, mirrored)), (turned_box, mirrored)
    # a fixed direction chosen again hides the face-to-face parts
    window.controls.set_direction("zh-en")
    assert not window.face_to_face.on and not panel.isVisible() and not table.isVisible()


def test_the_next_sentence_chosen_by_key(qtbot, store, tmp_path):
    """Ctrl+2 before an English sentence: it is heard as Chinese, translated zh→en, and the
    choice is used up by that sentence."""
    window = auto_window(qtbot, store)
    watch = Watcher(window)
    window.session_control.realtime = False
    recording = talk(tmp_path / "english.wav", [("Where is the station?", "en")])
    window.session_control.play_recording(str(recording))
    try:
        qtbot.keyClick(window, Qt.Key.Key_2, Qt.KeyboardModifier.ControlModifier)
    finally:  # QTest leaves Ctrl held in Qt's modifier state here: later clicks would be Ctrl-clicks
        qtbot.keyRelease(window, Qt.Key.Key_Control)
    assert KEYS[Language.ZH] == "Ctrl+2" and window.face_to_face.panel.next[Language.ZH].isChecked()
    finish(qtbot, window)
    (final,) = [e for e in watch.of(ev.SourceFinal) if e.text]
    assert (final.language, final.language_confidence) == (Language.ZH, 1.0)
    (translation,) = [t for t in watch.of(ev.Translation) if not t.provisional]
    assert translation.direction == "zh-en"
    assert not window.face_to_face.panel.next[Language.ZH].isChecked()
