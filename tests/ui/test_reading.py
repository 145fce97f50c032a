"""The reading options of the window (View menu): Chinese script, ..."""

from app.shared.chinese import ChineseScript
from app.ui import model_state
from app.ui.settings import load_settings
from tests.ui.test_window import make_window


def test_chinese_script_setting_is_saved_and_reaches_the_pipeline(qtbot, store):
    window = make_window(qtbot, store)
    assert window.view_options.script_actions[ChineseScript.SIMPLIFIED].isChecked()
    window.view_options.script_actions[ChineseScript.TRADITIONAL].trigger()
    assert load_settings(store).chinese == "traditional"
    config = model_state.pipeline_config(window.settings, "en-zh", {}, input_path=None)
    assert config.chinese == "traditional"
    window.close()
    again = make_window(qtbot, store)
    assert again.view_options.script_actions[ChineseScript.TRADITIONAL].isChecked()
    assert not again.view_options.script_actions[ChineseScript.HONGKONG].isChecked()


def test_unsure_words_are_underlined_with_their_alternatives_on_hover(qtbot, store):
    from app.shared import events as ev
    from app.translation import Translator
    from tests.ui.conftest import nmt_model

    # A half-heard sentence: the phrasebook model guesses, and its decoder says where.
    result = Translator.load(nmt_model("en-zh"), "en-zh").translate("Thank you very")
    spans = result.low_confidence
    assert spans
    window = make_window(qtbot, store)
    source = ev.SourceFinal(
        utterance_id=1, text="Thank you <very>", start=0.0, end=1.0, speech_end_at=0.0, low_confidence=((10, 16, 0.31),)
    )
    provisional = ev.Translation(
        utterance_id=1,
        source="Thank you very",
        text=result.text,
        provisional=True,
        direction="en-zh",
        latency_ms=None,
        low_confidence=tuple((u.start, u.end, u.p) for u in spans),
        alternatives=tuple(u.alternatives for u in spans),
    )
    window.event_presenter.on_events([source, provisional], window.session_control.session_number)
    row = window.transcript_view.rows[(window.session_control.session_number, 1)]
    first = spans[0]
    assert 'text-decoration: underline;" title="' in row.target.text() and "italic" in row.target.text()
    assert f">{result.text[first.start : first.end]}</span>" in row.target.text()
    tip = row.target.toolTip()
    assert tip.startswith("Words the translator was unsure of:")
    assert f"“{result.text[first.start : first.end]}”: {round(first.p * 100)}% sure — or: " in tip
    assert first.alternatives[0][0].strip() in tip
    # The source panel: Whisper's unsure word underlined, the rest escaped and plain.
    assert "&lt;<span" not in row.source.text() and ">&lt;very&gt;</span>" in row.source.text()
    assert "“<very>”: 31% sure" in row.source.toolTip() and "Whisper" in row.source.toolTip()
    # Hovering the word itself shows its own line; elsewhere the row's list.
    from PySide6.QtCore import QPoint
    from PySide6.QtGui import QFontMetrics

    label, metrics = row.source, QFontMetrics(row.source.font())
    area = label.contentsRect()
    on_word = QPoint(area.left() + metrics.horizontalAdvance("Thank you <v"), area.top() + metrics.height() // 2)
    assert label.word_tip(on_word) == "“<very>”: 31% sure"
    assert label.word_tip(QPoint(area.left() + metrics.horizontalAdvance("Th"), on_word.y())) == ""
    final = ev.Translation(
        utterance_id=1, source="Thank you very", text="谢谢", provisional=False, direction="en-zh", latency_ms=900.0
    )
    window.event_presenter.on_events([final], window.session_control.session_number)
    assert row.target.text() == "谢谢" and row.target.toolTip() == ""  # a sure final: plain, no tooltip


def test_source_marks_setting_reaches_the_pipeline(qtbot, store):
    window = make_window(qtbot, store)
    assert not window.view_options.mark_source.isChecked()
    window.view_options.mark_source.setChecked(True)
    assert load_settings(store).mark_unsure_source is True
    assert model_state.pipeline_config(window.settings, "en-zh", {}, input_path=None).source_confidence


def test_settled_text_is_steady_and_reading_mode_shows_only_it(qtbot, store):
    from app.ui.transcript_view import PROVISIONAL_STYLE, SETTLED_STYLE

    window = make_window(qtbot, store)
    view = window.transcript_view
    view.show_translation(1, "我们去吃饭", provisional=True, low_confidence=((1, 4, 0.3),), stable=3)
    label = view.rows[1].target.text()
    assert f'<span style="{SETTLED_STYLE}">' in label and f'<span style="{PROVISIONAL_STYLE}">' in label
    assert label.index("我") < label.index(PROVISIONAL_STYLE) < label.index("吃")  # settled first, tail after
    assert label.count("text-decoration: underline") == 2  # the unsure span, cut at the boundary
    window.view_options.reading_mode.setChecked(True)
    assert load_settings(store).reading_mode is True
    view.show_translation(1, "我们去吃饭吧", provisional=True, stable=3)
    label = view.rows[1].target.text()
    assert "我们去" in label and "吃" not in label
    view.show_translation(2, "他是", provisional=True, stable=0)
    assert "…" in view.rows[2].target.text() and "他" not in view.rows[2].target.text()
    view.show_translation(1, "我们去吃饭吧。", provisional=False)
    assert view.rows[1].target.text() == "我们去吃饭吧。"  # finals are shown whole in every mode


def test_live_text_choice_is_saved_and_paces_the_recognizer(qtbot, store):
    from app.asr.options import RecognizerOptions
    from app.shared.live_text import LiveText

    window = make_window(qtbot, store)
    assert window.view_options.live_text_actions[LiveText.BALANCED].isChecked()
    window.view_options.live_text_actions[LiveText.SMOOTHER].trigger()
    assert load_settings(store).live_text == "smoother"
    config = model_state.pipeline_config(window.settings, "en-zh", {}, input_path=None)
    assert config.live_text is LiveText.SMOOTHER
    smoother, balanced = RecognizerOptions().paced(config.live_text), RecognizerOptions().paced(LiveText.BALANCED)
    assert smoother.partial_interval_s > balanced.partial_interval_s
    assert all(smoother.agreement[lang] == balanced.agreement[lang] + 1 for lang in balanced.agreement)
    assert RecognizerOptions().paced(LiveText.SOONER).partial_interval_s < balanced.partial_interval_s
    window.close()
    again = make_window(qtbot, store)
    assert again.view_options.live_text_actions[LiveText.SMOOTHER].isChecked()
    store.setValue("live_text", "fastest")  # a hand-edited value it does not know: the default
    assert LiveText.parse(load_settings(store).live_text) is LiveText.BALANCED
