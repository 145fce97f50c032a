"""A listener's page whose network drops during a meeting and comes back (Debian's Chromium via
Playwright, through a proxy that plays the network): it says it is waiting, keeps what it showed,
and on return shows everything said while it was away, then live updates again."""

from __future__ import annotations

import socket
import threading

from .conftest import final, translation
from .test_page import TIMEOUT_MS, captions, wait_text


class Network:
    """A TCP proxy to `port`. drop(): the connections open now go silent for good (packets lost,
    no error: a Wi-Fi gone, a new address after it returns) and new ones are refused until
    restore()."""

    def __init__(self, port: int):
        self.target = port
        self.up = True
        self.silenced: list[socket.socket] = []
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                page, _ = self.listener.accept()
            except OSError:
                return
            if not self.up:
                page.close()
                continue
            app = socket.create_connection(("127.0.0.1", self.target))
            for a, b in ((page, app), (app, page)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        alive = True
        try:
            while data := source.recv(65536):
                alive = alive and self.up  # once silenced, a connection never carries data again
                if alive:
                    sink.sendall(data)
                elif sink not in self.silenced:
                    self.silenced.append(sink)
        except OSError:
            pass

    def drop(self) -> None:
        self.up = False

    def restore(self) -> None:
        self.up = True

    def close(self) -> None:
        self.listener.close()


def test_a_page_whose_network_dies_silently_reconnects_and_catches_up(serve, page):
    server = serve(host="0.0.0.0", key="k", keepalive_s=1.0)  # a key: the proxy's port is another Host
    network = Network(server.port)
    try:
        page.goto(f"http://127.0.0.1:{network.port}/?key=k")
        # The live stream open and delivering (its hello, with keepalive_s, comes first) before the
        # network dies: a stream cut while it opens is noticed later, after 2.5 default keep-alives.
        page.wait_for_selector("#status", state="hidden", timeout=TIMEOUT_MS)
        server.on_event(final(0, "before"))
        server.on_event(translation(0, "before", "之前"))
        wait_text(page, "之前")
        network.drop()
        for n, (source, text) in enumerate([("while away", "离开时"), ("still away", "仍然离开")], start=1):
            server.on_event(final(n, source))
            server.on_event(translation(n, source, text))
        # No error reaches the page: it notices the silence (2.5 keep-alives) and says it waits.
        page.wait_for_selector("#status:has-text('Waiting for the app')", timeout=TIMEOUT_MS)
        assert "之前" in page.text_content("#captions")  # what was shown stays while away
        assert "离开时" not in page.text_content("#captions")
        network.restore()
        wait_text(page, "仍然离开")  # the missed captions, from the transcript on reconnecting
        page.wait_for_selector("#status", state="hidden", timeout=TIMEOUT_MS)
        server.on_event(final(3, "back"))
        server.on_event(translation(3, "back", "回来"))
        wait_text(page, "回来")  # and the live stream again
        assert [c["translation"] for c in captions(page)] == ["之前", "离开时", "仍然离开", "回来"]
        assert network.silenced, "the dropped connection should have carried something that was lost"
    finally:
        network.close()
