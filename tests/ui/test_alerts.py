"""The banner shows every alert at once (issue 42: the crash notice was replaced within 100 ms by
the missing-model warning): one row per topic, a newer message on a topic takes its row, a
session's news goes at the next Start, the app's notices stay until dismissed."""

from __future__ import annotations

from PySide6.QtCore import Qt

from app.ui.alerts import MAX_UNTOPICED, AlertBanner


def shown(banner: AlertBanner) -> list[str]:
    return [alert.message for alert in banner.alerts if alert.isVisibleTo(banner)]


def test_alerts_on_different_topics_are_all_shown_and_dismissed_one_by_one(qtbot):
    banner = AlertBanner()
    qtbot.addWidget(banner)
    banner.show_message("The last session ended unexpectedly.", "", "warning", topic="crash")
    banner.show_message("No translation model for English → Chinese.", "", "warning", topic="model")
    banner.show_message("No translation model for Chinese → English.", "", "warning", topic="model")
    assert shown(banner) == ["The last session ended unexpectedly.", "No translation model for Chinese → English."]
    with qtbot.waitSignal(banner.dismissed) as dismissed:
        qtbot.mouseClick(banner.find("crash").close_button, Qt.MouseButton.LeftButton)
    assert dismissed.args == ["crash"] and shown(banner) == ["No translation model for Chinese → English."]
    banner.withdraw("model")
    assert banner.alerts == [] and banner.isHidden()


def test_a_new_session_clears_its_news_and_keeps_the_apps_notices(qtbot):
    banner = AlertBanner()
    qtbot.addWidget(banner)
    banner.show_message("The last session ended unexpectedly.", "", "warning", topic="crash")
    for number in range(MAX_UNTOPICED + 2):
        banner.show_message(f"Translation failed ({number}).")
    errors = [message for message in shown(banner) if message.startswith("Translation failed")]
    assert errors == [f"Translation failed ({n})." for n in range(2, MAX_UNTOPICED + 2)]  # the newest kept
    banner.show_message("The transcript cannot be saved.", "", "warning", topic="transcript")
    banner.clear_session_news()
    assert shown(banner) == ["The last session ended unexpectedly."]
