"""The window face to face: direction "Auto (English ⇄ 中文)" on the real window (offscreen),
real Whisper base, espeak-ng speech, the phrasebook models."""

from __future__ import annotations

import html
import subprocess

import numpy as np
import soundfile
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QImage

from app.audio import SAMPLE_RATE
from app.shared import events as ev
from app.shared import paths
from app.shared.languages import AUTO_DIRECTION, Direction, Language
from app.ui.face_to_face import BADGES, KEYS, SIDE_COLORS, language_badge
from app.ui.theme import Theme
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
    for final, translation in zip(finals, translations):  # each row's translation after its language
        target = Direction(translation.direction).target
        assert (
            row_of(window, final.utterance_id).target.text()
            == f"{language_badge(target)} {html.escape(translation.text)}"
        )
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


def side_pixels(label, colour: str) -> int:
    """How many pixels of a drawn label are a side's colour (its language badge)."""
    image = label.grab().toImage().convertToFormat(QImage.Format.Format_RGB888)
    pixels = np.frombuffer(image.constBits(), np.uint8).reshape(image.height(), image.bytesPerLine())
    rgb = pixels[:, : image.width() * 3].reshape(image.height(), image.width(), 3).astype(int)
    wanted = np.array(QColor(colour).getRgb()[:3])
    return int((np.abs(rgb - wanted).max(axis=2) <= 8).sum())


def contrast(a: str, b: str) -> float:
    """WCAG's contrast ratio of two colours."""

    def luminance(colour: str) -> float:
        channels = [c / 255 for c in QColor(colour).getRgb()[:3]]
        r, g, b = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def heard(uid: int, text: str, language: Language, **extra) -> ev.SourceFinal:
    return ev.SourceFinal(
        utterance_id=uid, text=text, start=0.0, end=1.0, speech_end_at=0.0, language=language, **extra
    )


def translated(uid: int, source: str, text: str, direction: str) -> ev.Translation:
    return ev.Translation(
        utterance_id=uid, source=source, text=text, provisional=False, direction=direction, latency_ms=900.0
    )


def test_each_row_says_its_language_in_its_side_colour_light_and_dark(qtbot, store):
    """Each side its own look: a face-to-face row starts with its language (EN / 中文) in its
    side's colour, the translation with the other; Copy says it as the exports do; a fixed
    direction's rows stay unlabelled; rows stay bounded and keep their language in Copy."""
    window = auto_window(qtbot, store)
    view, number = window.transcript_view, window.session_control.session_number
    assert view.source_title.text() == "Speech (English / 中文)"
    assert all(contrast("white", colour) >= 4.5 for colour in SIDE_COLORS.values())  # WCAG AA, either palette
    window.event_presenter.on_events(
        [
            heard(1, "Where is the station?", Language.EN),
            translated(1, "Where is the station?", "车站在哪里？", "en-zh"),
            heard(2, "我不知道。", Language.ZH),
            translated(2, "我不知道。", "I don't know.", "zh-en"),
            ev.SourceFinal(utterance_id=3, text="Good morning.", start=0.0, end=1.0, speech_end_at=0.0),
        ],
        number,
    )
    english, chinese, fixed = (view.rows[(number, uid)] for uid in (1, 2, 3))
    for row, source, target in ((english, Language.EN, Language.ZH), (chinese, Language.ZH, Language.EN)):
        assert f">&nbsp;{BADGES[source]}&nbsp;<" in row.source.text() and SIDE_COLORS[source] in row.source.text()
        assert f">&nbsp;{BADGES[target]}&nbsp;<" in row.target.text() and SIDE_COLORS[target] in row.target.text()
        assert side_pixels(row.source, SIDE_COLORS[source]) > 50 and side_pixels(row.target, SIDE_COLORS[target]) > 50
        assert side_pixels(row.source, SIDE_COLORS[target]) == 0  # one colour per side
    assert fixed.source.text() == "Good morning."  # no language, no label: drawn as it always was
    assert view.text("source") == "EN: Where is the station?\nZH: 我不知道。\nGood morning."
    assert view.text("target") == "ZH: 车站在哪里？\nEN: I don't know."
    window.view_options.set_theme(Theme.DARK)
    try:
        assert side_pixels(english.source, SIDE_COLORS[Language.EN]) > 50  # the badge keeps its own colours
        assert side_pixels(english.source, "white") > 5  # its text: white on blue, as in light
    finally:
        window.view_options.set_theme(Theme.LIGHT)
    # heard again the other way (Other way): the row's label follows its new language
    window.event_presenter.on_events([heard(1, "我不知道", Language.ZH, revised="Where is the station?")], number)
    assert BADGES[Language.ZH] in english.source.text() and SIDE_COLORS[Language.ZH] in english.source.text()
    view.panel.max_rows = 2  # bounded rows: the oldest finished row keeps only its words, and its language
    window.event_presenter.on_events([heard(4, "See you.", Language.EN)], number)
    assert (number, 1) in view.earlier and view.text("source").startswith("ZH: 我不知道\nZH: 我不知道。")


def test_other_way_after_the_session_has_stopped(qtbot, store, tmp_path):
    """Ctrl+1 wrongly before a Chinese sentence: translated en→zh. The recording ends and the
    session stops; Other way still hears it again as Chinese (on a worker, the button disabled
    meanwhile) and the row, the table view and the export follow. Before any sentence the button
    is disabled and says why."""
    window = auto_window(qtbot, store)
    panel = window.face_to_face.panel
    assert not panel.other_way.isEnabled() and "nothing to hear again" in panel.other_way.toolTip()
    watch = Watcher(window)
    window.session_control.realtime = False
    window.session_control.play_recording(str(talk(tmp_path / "chinese.wav", [("我不知道。", "zh")])))
    try:
        qtbot.keyClick(window, Qt.Key.Key_1, Qt.KeyboardModifier.ControlModifier)
    finally:
        qtbot.keyRelease(window, Qt.Key.Key_Control)
    finish(qtbot, window)
    (first,) = [t for t in watch.of(ev.Translation) if not t.provisional]
    assert first.direction == "en-zh" and window.session_control.running_session is None
    assert panel.other_way.isEnabled() and "Ctrl+3" in panel.other_way.toolTip()
    qtbot.mouseClick(panel.other_way, Qt.MouseButton.LeftButton)
    assert not panel.other_way.isEnabled() and window.face_to_face.hearing_again
    qtbot.waitUntil(lambda: bool(watch.of(ev.CaptionCorrected)), timeout=120000)
    again = [t for t in watch.of(ev.Translation) if not t.provisional][1]
    assert (again.utterance_id, again.direction, again.source) == (first.utterance_id, "zh-en", "我不知道")
    row = row_of(window, first.utterance_id)
    assert BADGES[Language.ZH] in row.source.text() and html.escape(again.text) in row.target.text()
    assert window.face_to_face.table.halves[Language.EN].text == again.text
    assert panel.turn.text() == "中文" and panel.other_way.isEnabled()
    window.face_to_face.last_final = 999  # an utterance whose audio is no longer kept: said, not silent
    qtbot.mouseClick(panel.other_way, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not window.face_to_face.hearing_again, timeout=30000)
    assert "no longer kept" in window.statusBar().currentMessage()
    window.transcript_actions.export_to("txt", str(tmp_path / "talk.txt"))
    assert (tmp_path / "talk.txt").read_text(encoding="utf-8").split("\n")[:2] == [
        "ZH: 我不知道",
        f"EN: {again.text}",
    ]


def ctrl(qtbot, window, key) -> None:
    try:
        qtbot.keyClick(window, key, Qt.KeyboardModifier.ControlModifier)
    finally:
        qtbot.keyRelease(window, Qt.Key.Key_Control)


def test_other_way_pressed_twenty_times_while_the_session_runs_hears_once(qtbot, store, tmp_path):
    """Issue 42: Ctrl+3 pressed 20 times (or held) queued a Whisper pass per press, each final
    translated and the language flipping. One redo at a time: the presses meanwhile are ignored."""
    window = auto_window(qtbot, store)
    watch = Watcher(window)
    path = talk(tmp_path / "twenty.wav", [("我不知道。", "zh")])
    audio, _ = soundfile.read(path, dtype="float32")
    soundfile.write(path, np.concatenate([audio, np.zeros(12 * SAMPLE_RATE, np.float32)]), SAMPLE_RATE)
    window.session_control.realtime = True  # the session runs on through the silence after it
    window.session_control.play_recording(str(path))
    ctrl(qtbot, window, Qt.Key.Key_1)  # wrongly: English
    finals = lambda: [t for t in watch.of(ev.Translation) if not t.provisional]  # noqa: E731
    qtbot.waitUntil(lambda: bool(finals()), timeout=120000)
    assert window.session_control.running_session is not None, "the session must still run"
    for _ in range(20):
        ctrl(qtbot, window, Qt.Key.Key_3)
    qtbot.waitUntil(lambda: len(finals()) >= 2, timeout=120000)
    qtbot.wait(3000)  # time for more passes, had the presses been queued
    assert [t.direction for t in finals()] == ["en-zh", "zh-en"]
    finish(qtbot, window)


def test_other_way_that_hears_nothing_keeps_the_row_and_says_so(qtbot, store, tmp_path):
    """Issue 42: "Thank you." heard again as Chinese is nothing: the row kept an empty source
    beside the old translation. Now the row stays, and a warning says nothing was heard."""
    window = auto_window(qtbot, store)
    watch = Watcher(window)
    window.session_control.realtime = False
    window.session_control.play_recording(str(talk(tmp_path / "thanks.wav", [("Thank you.", "en")])))
    ctrl(qtbot, window, Qt.Key.Key_1)
    finish(qtbot, window)
    (first,) = [t for t in watch.of(ev.Translation) if not t.provisional]
    row = row_of(window, first.utterance_id)
    source, target = row.source.text(), row.target.text()
    assert "Thank you." in source
    qtbot.mouseClick(window.face_to_face.panel.other_way, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not window.face_to_face.hearing_again, timeout=60000)
    assert (row.source.text(), row.target.text()) == (source, target)
    assert window.alert.isVisible() and "Nothing was heard in Chinese" in window.alert.message
    assert window.face_to_face.panel.turn.text() == "English"


def test_an_english_only_whisper_is_refused_at_start_face_to_face(qtbot, store):
    """tiny.en cannot tell or hear Chinese: Start says so, as `run` does, instead of every
    decode failing and the window saying the recording was translated."""
    window = auto_window(qtbot, store)
    window.settings.asr_model = "tiny.en"
    window.session_control.play_recording(str(paths.resource("selftest", "hello.wav")))
    assert not window.session_control.running() and window.session_control.session_transcript is None
    assert window.alert.isVisible()
    shown = window.alert.label.text()
    assert "tiny.en hears English only" in shown and "multilingual" in shown
