"""Fixtures for the caption server tests: servers on free ports, real pipeline events, and a
real browser page (the session's Debian Chromium driven by Playwright, `browser` in
tests/conftest.py; nothing is downloaded)."""

from __future__ import annotations

import http.client
import selectors
import socket
import threading

import pytest

# The pipeline tests' recordings (espeak-ng speech), phrasebook models and Whisper weights.
from pipeline.conftest import (  # noqa: F401  (fixtures)
    SPOKEN_EN,
    english,
    expected,
    phrasebook,
    recognizer,
    recording,
    transcripts_in_tmp,
    whisper_base,
)

from app.captions import CaptionServer
from app.shared.events import SourceFinal, SourcePartial, Translation
from app.shared.languages import Direction


@pytest.fixture
def serve():
    """serve(**kwargs) -> a started CaptionServer (stopped after the test)."""
    servers = []

    def make(**kwargs) -> CaptionServer:
        server = CaptionServer(**{"port": 0, **kwargs})
        server.start()
        servers.append(server)
        return server

    yield make
    for server in servers:
        server.stop()


def get(server: CaptionServer, path: str, method: str = "GET", headers: dict | None = None) -> tuple[int, bytes]:
    """One request with the path sent exactly as given (http.client neither decodes nor folds it)."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        connection.request(method, path, headers=headers or {})
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def partial(uid: int, text: str, committed: str = "") -> SourcePartial:
    return SourcePartial(utterance_id=uid, text=text, committed=committed, start=0.0, end=1.0)


def final(uid: int, text: str) -> SourceFinal:
    return SourceFinal(utterance_id=uid, text=text, start=0.0, end=1.0, speech_end_at=0.0)


def translation(uid: int, source: str, text: str, provisional: bool = False, **extra) -> Translation:
    event = Translation(
        utterance_id=uid,
        source=source,
        text=text,
        provisional=provisional,
        direction=Direction.EN_ZH,
        latency_ms=None if provisional else 120.0,
    )
    for name, value in extra.items():  # fields a later Translation may carry (stable, speaker)
        object.__setattr__(event, name, value)
    return event


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1000, "height": 560})
    page = context.new_page()
    yield page
    context.close()


def open_stream(server: CaptionServer, receive_buffer: int | None = None) -> socket.socket:
    sock = socket.socket()
    if receive_buffer:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    sock.connect(("127.0.0.1", server.port))
    sock.sendall(f"GET /events HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n\r\n".encode())
    return sock


class Readers:
    """Many event-stream clients read on one thread; counts the caption updates each got."""

    MARK = b'"type": "caption"'

    def __init__(self, socks: list[socket.socket], mark: bytes = MARK):
        self.socks, self.MARK = socks, mark
        self.counts = [0] * len(socks)
        self.closed = [False] * len(socks)
        self.tails = [b""] * len(socks)
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        selector = selectors.DefaultSelector()
        for i, sock in enumerate(self.socks):
            selector.register(sock, selectors.EVENT_READ, i)
        while not self.stop.is_set():
            for key, _ in selector.select(0.1):
                i = key.data
                data = key.fileobj.recv(1 << 16)
                if not data:
                    self.closed[i] = True
                    selector.unregister(key.fileobj)
                    continue
                chunk = self.tails[i] + data
                self.counts[i] += chunk.count(self.MARK)
                keep = len(self.MARK) - 1  # a mark cut in two is counted with the next chunk
                self.tails[i] = chunk[-keep:].replace(self.MARK, b"")
        selector.close()

    def close(self) -> None:
        self.stop.set()
        self.thread.join()
        for sock in self.socks:
            sock.close()
