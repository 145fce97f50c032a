"""The reading options of the window (View menu): Chinese script, ..."""

from app.shared.chinese import ChineseScript
from app.ui import model_state
from app.ui.main_window import MainWindow
from app.ui.settings import load_settings


def make_window(qtbot, store) -> MainWindow:
    store.setValue("tts_enabled", False)
    window = MainWindow(store)
    qtbot.addWidget(window)
    window.show()
    return window


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
