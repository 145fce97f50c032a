"""The subtitle overlay, the text size, the theme and accessible names: the real window, offscreen."""

from __future__ import annotations

import os
import subprocess
import sys

from PySide6.QtCore import QRect, QSettings, Qt
from PySide6.QtGui import QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication, QWidget

from app.shared import events as ev
from app.ui.accessibility import CONTROLS, name_controls
from app.ui.overlay import load_overlay_settings
from app.ui.theme import Theme
from tests.ui.test_window import make_window


def final(uid: int, text: str, **extra) -> ev.Translation:
    return ev.Translation(
        utterance_id=uid,
        source=f"source {uid}",
        text=text,
        provisional=False,
        direction="en-zh",
        latency_ms=800.0,
        **extra,
    )


def test_overlay_is_shown_on_top_frameless_and_translucent(qtbot, store):
    window = make_window(qtbot, store)
    overlay = window.view_options.overlay
    assert not overlay.isVisible()
    window.view_options.show_overlay.trigger()  # View -> Subtitle overlay
    qtbot.waitUntil(overlay.isVisible, timeout=5000)
    flags = overlay.windowFlags()
    assert flags & Qt.WindowType.WindowStaysOnTopHint and flags & Qt.WindowType.FramelessWindowHint
    assert overlay.testAttribute(Qt.WidgetAttribute.WA_TranslucentBackground)
    assert window.view_options.show_overlay.shortcut().toString() == "Ctrl+Shift+O"
    window.view_options.show_overlay.trigger()
    assert not overlay.isVisible()


def test_geometry_and_visibility_are_remembered(qtbot, store):
    window = make_window(qtbot, store)
    window.view_options.set_overlay_visible(True)
    overlay = window.view_options.overlay
    overlay.setGeometry(QRect(120, 640, 700, 130))
    qtbot.waitUntil(lambda: overlay.geometry().size().width() == 700, timeout=5000)
    window.close()
    assert load_overlay_settings(store).visible  # closing the app keeps it on for next time
    again = make_window(qtbot, store)
    restored = again.view_options.overlay
    qtbot.waitUntil(restored.isVisible, timeout=5000)
    assert restored.geometry().size() == overlay.geometry().size()
    assert again.view_options.show_overlay.isChecked()


def test_click_through_is_toggled_by_an_application_wide_shortcut(qtbot, store):
    window = make_window(qtbot, store)
    window.view_options.set_overlay_visible(True)
    overlay, action = window.view_options.overlay, window.view_options.click_through
    assert action.shortcutContext() == Qt.ShortcutContext.ApplicationShortcut
    action.trigger()
    assert overlay.windowFlags() & Qt.WindowType.WindowTransparentForInput
    assert overlay.isVisible() and not overlay.grip.isVisible()
    assert load_overlay_settings(store).click_through
    action.trigger()  # the way out: the shortcut works while the mouse cannot reach the overlay
    assert not overlay.windowFlags() & Qt.WindowType.WindowTransparentForInput
    assert overlay.isVisible() and overlay.grip.isVisible()


def test_lines_are_limited_provisional_lighter_and_unsure_words_marked(qtbot, store):
    window = make_window(qtbot, store)
    overlay = window.view_options.overlay
    window.event_presenter.on_events(
        [final(i, f"第{i}句。") for i in range(1, 6)], window.session_control.session_number
    )
    text = overlay.label.text()
    assert "第4句" in text and "第5句" in text and "第3句" not in text  # 2 lines by default
    overlay.settings.lines = 3
    overlay.apply_settings()
    assert "第3句" in overlay.label.text() and "第2句" not in overlay.label.text()
    live = ev.Translation(
        utterance_id=6,
        source="Thank you very",
        text="明天早上好。",
        provisional=True,
        direction="en-zh",
        latency_ms=None,
        stable=2,
        low_confidence=((0, 1, 0.37),),
        alternatives=((("非常", 0.2),),),
    )
    window.event_presenter.on_events([live], window.session_control.session_number)
    text = overlay.label.text()
    assert "color:rgba(255,255,255,0.55);" in text  # the unsettled tail, lighter
    assert 'text-decoration: underline;" title="“明”: 37% sure — or: 非常 (20%)">明</span>' in text
    assert "“明”: 37% sure — or: 非常 (20%)" in overlay.label.toolTip()
    window.view_options.reading_mode.setChecked(True)  # reading mode: settled text only
    assert "早上好" not in overlay.label.text() and "明</span>天" in overlay.label.text()
    window.event_presenter.on_events([final(6, "非常感谢。")], window.session_control.session_number)
    assert "非常感谢。" in overlay.label.text() and "0.55" not in overlay.label.text()


def test_font_size_control_and_dark_theme(qtbot, store):
    window = make_window(qtbot, store)
    view = window.transcript_view
    window.event_presenter.on_events([final(1, "你好")], window.session_control.session_number)
    before = view.point_size
    window.view_options.zoom(+2)
    assert (
        view.point_size == before + 2
        and view.rows[(window.session_control.session_number, 1)].target.font().pointSize() == before + 2
    )
    window.view_options.set_theme(Theme.DARK)
    palette = QApplication.instance().palette()
    assert palette.color(QPalette.ColorRole.Window).lightness() < 60
    assert "#16191c" in view.panel.body.styleSheet()
    window.view_options.set_theme(Theme.SYSTEM)  # unknown here (offscreen): light
    assert QApplication.instance().palette().color(QPalette.ColorRole.Window).lightness() > 180
    # The platform reports a change of scheme (offscreen Qt cannot switch its own: the signal is sent as it would be)
    QGuiApplication.styleHints().colorSchemeChanged.emit(Qt.ColorScheme.Dark)
    assert window.view_options.dark and "#16191c" in view.panel.body.styleSheet()
    assert QApplication.instance().palette().color(QPalette.ColorRole.Window).lightness() < 60
    QGuiApplication.styleHints().colorSchemeChanged.emit(Qt.ColorScheme.Light)
    assert not window.view_options.dark
    window.view_options.set_theme(Theme.LIGHT)
    window.close()
    again = make_window(qtbot, store)
    assert again.transcript_view.point_size == before + 2


def test_every_control_has_an_accessible_name(qtbot, store):
    window = make_window(qtbot, store)
    window.view_options.open_overlay_settings()
    name_controls(window.view_options.overlay_dialog)
    for root in (window, window.view_options.overlay, window.view_options.overlay_dialog):
        controls = [w for w in root.findChildren(QWidget) if isinstance(w, CONTROLS)]
        assert controls or root is window.view_options.overlay
        unnamed = [(type(w).__name__, w.objectName(), w.toolTip()) for w in controls if not w.accessibleName()]
        assert unnamed == []
    overlay = window.view_options.overlay
    assert overlay.accessibleName() and overlay.label.accessibleName() and overlay.grip.accessibleName()
    window.view_options.overlay_dialog.close()


def test_command_line_opens_the_overlay(tmp_path):
    env = {
        **os.environ,
        "QT_QPA_PLATFORM": "offscreen",
        "LIVE_TRANSLATOR_SETTINGS": str(tmp_path / "config"),
        "HOME": str(tmp_path),
        "LIVE_TRANSLATOR_QUIT_AFTER_MS": "2500",
    }
    proc = subprocess.run(
        [sys.executable, "-m", "app", "--overlay"], env=env, capture_output=True, text=True, timeout=120, check=False
    )
    assert proc.returncode == 0, proc.stderr
    conf = tmp_path / "config" / "settings.ini"  # the window's settings file (app/ui/settings.py)
    assert load_overlay_settings(QSettings(str(conf), QSettings.Format.IniFormat)).visible


def test_the_newest_line_is_always_whole_when_the_window_is_small(qtbot, store):
    window = make_window(qtbot, store)
    window.view_options.set_overlay_visible(True)
    overlay = window.view_options.overlay
    overlay.settings.lines = 3
    overlay.apply_settings()
    overlay.resize(400, 90)
    qtbot.waitUntil(lambda: overlay.label.height() < 90, timeout=5000)
    long = "这是一个很长的句子，" * 4
    window.event_presenter.on_events(
        [final(1, "第一句。"), final(2, "第二句。"), final(3, long)], window.session_control.session_number
    )
    text = overlay.label.text()
    assert long in text and "第一句" not in text  # wrapped, and the older lines made room
    assert overlay.label.heightForWidth(overlay.label.width()) > 0
