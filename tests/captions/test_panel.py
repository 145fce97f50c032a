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


def test_guest_speech_in_the_panel_shows_the_speaking_link_and_the_guests_to_mute_or_remove(
    panel, qtbot, tmp_path, monkeypatch
):
    import asyncio
    import ssl
    import threading
    from types import SimpleNamespace

    import aiohttp

    from app.pipeline import PipelineConfig
    from app.pipeline.guests import WithGuests
    from app.ui.sources import make_session

    monkeypatch.setenv("LIVE_TRANSLATOR_TLS", str(tmp_path / "tls"))
    panel.port.setValue(free_port())
    assert panel.guests.places_for_session() == []  # off until allowed and serving
    panel.guests.allow.setChecked(True)
    panel.set_serving(True)
    server = panel.server
    url = server.speak_url
    assert url.startswith("https://") and url in panel.guests.link.text()
    assert qr_matches(panel.guests.qr.pixmap(), url)
    assert not panel.guests.allow.isEnabled()  # chosen before serving
    places = panel.guests.places_for_session()
    assert places == panel.guests.places
    settings = SimpleNamespace(source="microphone:", input_device="", system_device="", spoken="them")
    session = make_session(settings, PipelineConfig(tts_enabled=False), on_event=print, guest_places=places)
    assert isinstance(session, WithGuests) and session.lanes[0].audio_source is places[0]

    no_check = ssl.create_default_context()
    no_check.check_hostname, no_check.verify_mode = False, ssl.CERT_NONE
    closed = []

    async def guest():
        async with aiohttp.ClientSession() as http:
            ws_url = f"wss://127.0.0.1:{server.guest_speech.port}/speak?key={server.guest_speech.key}&name=Ana"
            async with http.ws_connect(ws_url, ssl=no_check) as ws:
                await ws.send_bytes(bytes(1280))
                message = await ws.receive(timeout=20)
                closed.append((message.data, message.extra))

    thread = threading.Thread(target=lambda: asyncio.run(guest()), daemon=True)
    thread.start()
    qtbot.waitUntil(lambda: panel.guests.guests.count() == 1, timeout=5000)
    assert panel.guests.guests.item(0).text().startswith("Ana — 127.0.0.1")
    panel.guests.guests.setCurrentRow(0)
    panel.guests.mute.click()
    qtbot.waitUntil(lambda: "(muted)" in (panel.guests.guests.item(0).text() if panel.guests.guests.count() else ""))
    assert server.guest_speech.speaking()[0]["muted"]
    panel.guests.remove.click()
    thread.join(10)
    assert closed == [(4000, "The host removed you.")]
    qtbot.waitUntil(lambda: panel.guests.guests.count() == 0, timeout=3000)
    panel.set_serving(False)
    assert panel.guests.allow.isEnabled() and panel.guests.places_for_session() == []
