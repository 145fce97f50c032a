"""The window against a damaged settings file, an impatient user and a transcript folder it
cannot write (issue 17, items 1, 3, 4 and 6)."""

import dataclasses
import json
import logging
import os
import subprocess
import sys
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PySide6.QtCore import QSettings

from app.shared import events as ev
from app.shared.crash_trace import CrashTrace
from app.ui.main_window import MainWindow
from app.ui.settings import CHOICES, TEXT_SIZES, UiSettings, load_settings, save_settings
from tests.ui.conftest import nmt_model, phrasebook_translation, speak

REPO = Path(__file__).resolve().parents[2]
BROKEN = """[General]
geometry=hello
splitter=42
asr_model=base, tiny.en
tts_enabled=perhaps
verify=@Invalid()
direction=fr-de
hub_endpoint=ftp://mirror
voice_en=a, b
"""


def test_every_bad_stored_value_falls_back_to_its_default_and_is_logged(tmp_path, caplog):
    (tmp_path / "settings.ini").write_text(BROKEN + "nmt_en_zh=/models/opus\n", encoding="utf-8")
    store = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    with caplog.at_level(logging.WARNING, logger="app.ui.settings"):
        settings = load_settings(store)
    defaults = UiSettings()
    for name in ("geometry", "splitter", "asr_model", "tts_enabled", "verify", "direction", "hub_endpoint", "voice_en"):
        assert getattr(settings, name) == getattr(defaults, name), name
        assert any(f"settings: {name}=" in r.getMessage() for r in caplog.records), name
    assert settings.nmt_en_zh == "/models/opus"  # a good value is kept


def test_the_window_opens_on_a_broken_settings_file_and_saves_it_under_the_home_folder(tmp_path):
    home = tmp_path / "home"
    (home / "settings").mkdir(parents=True)
    (home / "settings" / "settings.ini").write_text(BROKEN, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith("LIVE_TRANSLATOR_")}
    env.update(LIVE_TRANSLATOR_HOME=str(home), LIVE_TRANSLATOR_QUIT_AFTER_MS="3000", QT_QPA_PLATFORM="offscreen")
    done = subprocess.run([sys.executable, "-m", "app"], cwd=REPO, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr  # it used to abort (134) or raise
    assert "Traceback" not in done.stderr and "settings: geometry='hello'" in done.stderr
    saved = QSettings(str(home / "settings" / "settings.ini"), QSettings.Format.IniFormat)
    assert saved.value("asr_model") == "base" and saved.value("direction") == "en-zh"
    assert not saved.value("geometry").isEmpty()  # the window's own geometry replaced "hello"


def test_start_pressed_before_the_model_check_uses_the_configured_model(qtbot, store, tmp_path):
    recording = str(speak(tmp_path / "thanks.wav", "Thank you very much.", "en"))
    store.setValue("nmt_en_zh", str(nmt_model("en-zh")))
    store.setValue("direction", "en-zh")
    store.setValue("tts_enabled", False)
    window = MainWindow(store)
    qtbot.addWidget(window)
    window.show()
    errors = []
    window.events_shown.connect(lambda batch: errors.extend(e for e in batch if isinstance(e, ev.Error)))
    translations = []
    window.events_shown.connect(
        lambda batch: translations.extend(e for e in batch if isinstance(e, ev.Translation) and not e.provisional)
    )
    assert "en-zh" not in window.models_bar.states  # the check has not finished: Start at once
    window.session_control.realtime = False
    window.session_control.play_recording(recording)
    qtbot.waitUntil(
        lambda: not window.session_control.running() and not window.session_control.stopping, timeout=180000
    )
    assert not errors, [e.text for e in errors]
    assert [t.text for t in translations] == [phrasebook_translation("Thank you very much.", "en-zh")]


def test_a_transcript_that_cannot_be_saved_is_a_banner_and_translation_goes_on(qtbot, store, tmp_path, monkeypatch):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    monkeypatch.setenv("LIVE_TRANSLATOR_TRANSCRIPTS", str(blocker / "transcripts"))
    recording = str(speak(tmp_path / "thanks.wav", "Thank you very much.", "en"))
    store.setValue("nmt_en_zh", str(nmt_model("en-zh")))
    store.setValue("tts_enabled", False)
    trace = CrashTrace(tmp_path / "logs")
    trace.begin()
    window = MainWindow(store, crash_trace=trace)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitUntil(lambda: len(window.models_bar.states) == 2, timeout=60000)
    window.session_control.realtime = False
    window.session_control.play_recording(recording)
    qtbot.waitUntil(
        lambda: not window.session_control.running() and not window.session_control.stopping, timeout=180000
    )
    assert window.alert.isVisible() and window.alert.topic == "transcript"
    assert "The transcript cannot be saved" in window.alert.message
    # Were this run to crash now, the next start's notice would say the records in memory are lost.
    marker = json.loads(trace.marker.read_text(encoding="utf-8"))
    assert marker["transcript"].startswith(str(blocker)) and "cannot be saved" in marker["transcript_problem"]
    trace.end()
    row = next(iter(window.transcript_view.rows.values()))
    assert row.target.text() == phrasebook_translation("Thank you very much.", "en-zh")


def test_a_final_that_revises_committed_text_marks_the_corrected_words(qtbot):
    from app.ui.transcript_view import REVISED_STYLE, TranscriptView

    view = TranscriptView()
    qtbot.addWidget(view)
    view.show_partial(1, "The shop opens at either clock", "The shop opens at either")
    view.show_final(1, "The shop opens at nine o'clock.", revised="The shop opens at either")
    label = view.rows[1].source.text()
    assert label.startswith("The shop opens at <span") and REVISED_STYLE in label
    assert f'<span style="{REVISED_STYLE}">nine</span>' in label and "either" not in label
    assert "either" in view.rows[1].source.toolTip()
    assert view.rows[1].source_text == "The shop opens at nine o'clock."
    view.show_final(2, "你好世界", revised="你好")  # Chinese: nothing committed changed → nothing marked
    assert REVISED_STYLE not in view.rows[2].source.text()


# -- unknown words, absurd sizes, a settings folder that cannot be written (issue 27) ---------

ODD = """[General]
chinese=klingon
theme=neon
spoken=everyone
text_size=100000000000000000000
"""


def test_unknown_words_and_absurd_sizes_fall_back_per_field(tmp_path, caplog):
    (tmp_path / "settings.ini").write_text(ODD + "nmt_en_zh=/models/opus\n", encoding="utf-8")
    store = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    with caplog.at_level(logging.WARNING, logger="app.ui.settings"):
        settings = load_settings(store)
    defaults = UiSettings()
    for name in ("chinese", "theme", "spoken", "text_size"):
        assert getattr(settings, name) == getattr(defaults, name), name
        assert any(f"settings: {name}=" in r.getMessage() for r in caplog.records), name
    assert settings.nmt_en_zh == "/models/opus"
    for size, kept in (("5", 0), ("-3", 0), ("1e400", 0), ("nan", 0), ("20", 20), ("48", 48), ("49", 0)):
        store.setValue("text_size", size)
        assert load_settings(store).text_size == kept, size


def test_the_window_opens_and_closes_on_an_unknown_script_and_an_absurd_text_size(tmp_path):
    home = tmp_path / "home"
    (home / "settings").mkdir(parents=True)
    (home / "settings" / "settings.ini").write_text(ODD, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith("LIVE_TRANSLATOR_")}
    env.update(LIVE_TRANSLATOR_HOME=str(home), LIVE_TRANSLATOR_QUIT_AFTER_MS="2000", QT_QPA_PLATFORM="offscreen")
    done = subprocess.run([sys.executable, "-m", "app"], cwd=REPO, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr  # it used to stay shut (an unknown script) or segfault on close
    assert "Traceback" not in done.stderr and "settings: chinese='klingon'" in done.stderr
    saved = QSettings(str(home / "settings" / "settings.ini"), QSettings.Format.IniFormat)
    assert saved.value("chinese") == "simplified" and int(saved.value("text_size")) in (0, *range(9, 49))


def test_settings_that_cannot_be_written_are_said_once(qtbot, tmp_path):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    store = QSettings(str(blocker / "settings" / "settings.ini"), QSettings.Format.IniFormat)
    window = MainWindow(store)
    qtbot.addWidget(window)
    window.show()
    assert not window.alert.isVisible() or window.alert.topic != "settings"
    window.view_options.set_theme(next(iter(window.view_options.theme_actions)))
    assert window.alert.isVisible() and window.alert.topic == "settings"
    assert "cannot be saved" in window.alert.message and str(blocker) in window.alert.message
    window.alert.hide()
    window.view_options.zoom(+2)  # another change: not said again
    assert not window.alert.isVisible()


_words = st.text(max_size=12) | st.sampled_from(
    [
        "true",
        "false",
        "0",
        "1",
        "-1",
        "1e400",
        "nan",
        "simplified",
        "traditional",
        "hongkong",
        "dark",
        "light",
        "system",
        "me",
        "both",
        "en-zh",
        "zh-en",
        "https://x",
        "ftp://x",
        "@Invalid()",
        "a, b",
    ]
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.dictionaries(st.sampled_from([f.name for f in dataclasses.fields(UiSettings)]), _words, max_size=8))
def test_any_stored_words_load_as_valid_settings_that_save_and_load_unchanged(tmp_path_factory, stored):
    folder = tmp_path_factory.mktemp("settings")
    (folder / "settings.ini").write_text(
        "[General]\n" + "".join(f"{k}={v}\n" for k, v in stored.items() if "\n" not in v and "\r" not in v),
        encoding="utf-8",
    )
    store = QSettings(str(folder / "settings.ini"), QSettings.Format.IniFormat)
    loaded = load_settings(store)
    assert loaded.chinese in CHOICES["chinese"] and loaded.theme in CHOICES["theme"]
    assert loaded.spoken in CHOICES["spoken"] and loaded.direction in CHOICES["direction"]
    assert loaded.text_size == 0 or loaded.text_size in TEXT_SIZES
    again = QSettings(str(folder / "again.ini"), QSettings.Format.IniFormat)
    assert save_settings(loaded, again)
    assert load_settings(again) == loaded
