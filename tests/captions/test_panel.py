"""The window's caption toggle: the real window offscreen, its panel, a real server behind it."""

from __future__ import annotations

import json
import os
import socket

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest
import segno
from PySide6.QtCore import QSettings

from app.ui.captions_panel import CaptionsPanel, qr_pixmap

from .conftest import final, get, translation


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def qr_matches(pixmap, text: str, scale: int = 6, border: int = 2) -> bool:
    """The pixmap's modules, sampled at their centres, are the QR code of `text`."""
    matrix = segno.make(text, error="m").matrix
    image = pixmap.toImage()
    assert image.width() == (len(matrix) + 2 * border) * scale
    for row, bits in enumerate(matrix):
        for col, bit in enumerate(bits):
            x, y = (col + border) * scale + scale // 2, (row + border) * scale + scale // 2
            if (image.pixelColor(x, y).lightness() < 128) != bool(bit):
                return False
    return True


@pytest.fixture
def panel(qtbot):
    panel = CaptionsPanel()
    qtbot.addWidget(panel)
    yield panel
    panel.shutdown()


def transcript(server) -> dict:
    return json.loads(get(server, "/transcript")[1])


def test_the_toggle_serves_shows_the_url_and_its_qr_code(panel, qtbot):
    panel.port.setValue(free_port())
    panel.toggle.click()
    assert panel.serving and panel.toggle.text() == "Stop serving captions"
    url = panel.server.url
    assert url == f"http://127.0.0.1:{panel.port.value()}/" and url in panel.url.text()
    assert qr_matches(panel.qr.pixmap(), url) and not qr_matches(panel.qr.pixmap(), url + "x")
    assert not panel.port.isEnabled()  # the address is fixed while serving

    server = panel.server
    panel.observe([final(0, "hello"), translation(0, "hello", "你好")])
    qtbot.waitUntil(lambda: [c["translation"] for c in transcript(server)["captions"]] == ["你好"], timeout=5000)
    panel.new_session()
    qtbot.waitUntil(lambda: transcript(server)["captions"] == [], timeout=5000)

    panel.toggle.click()
    assert not panel.serving and panel.qr.pixmap().isNull()
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", server.port), timeout=2)


def test_serving_to_the_network_puts_the_key_in_the_url_and_the_qr_code(panel):
    panel.who.setCurrentIndex(1)
    panel.port.setValue(free_port())
    panel.set_serving(True)
    url = panel.server.url
    assert f"?key={panel.server.key}" in url and len(panel.server.key) >= 20
    assert qr_matches(panel.qr.pixmap(), url)


def test_a_port_in_use_is_explained_and_the_toggle_stays_off(panel):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        panel.port.setValue(busy.getsockname()[1])
        panel.toggle.click()
    assert not panel.serving and not panel.toggle.isChecked()
    assert "Cannot serve captions" in panel.url.text() and "another port" in panel.url.text()


def test_qr_pixmap_is_a_real_image():
    pixmap = qr_pixmap("http://192.0.2.1:8765/?key=abc")
    assert not pixmap.isNull() and pixmap.width() == pixmap.height() > 100


def test_the_window_menu_toggles_the_server_and_feeds_it(qtbot, tmp_path, monkeypatch):
    monkeypatch.setenv("LIVE_TRANSLATOR_TRANSCRIPTS", str(tmp_path / "transcripts"))
    monkeypatch.setenv("LIVE_TRANSLATOR_MODELS", str(tmp_path / "models"))
    from app.ui.main_window import MainWindow

    window = MainWindow(store=QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat))
    qtbot.addWidget(window)
    window.captions.port.setValue(free_port())
    window.menus.serve_captions.trigger()
    assert window.captions.serving and window.menus.serve_captions.isChecked() and window.captions.isVisible()
    server = window.captions.server
    window.event_presenter.on_events(
        [final(0, "Good morning."), translation(0, "Good morning.", "早上好。")], window.session_control.session_number
    )
    qtbot.waitUntil(lambda: [c["translation"] for c in transcript(server)["captions"]] == ["早上好。"], timeout=5000)
    window.menus.serve_captions.trigger()
    assert not window.captions.serving and not window.menus.serve_captions.isChecked()
    window.menus.serve_captions.trigger()
    window.close()  # closing the window stops the server
    assert not window.captions.serving
