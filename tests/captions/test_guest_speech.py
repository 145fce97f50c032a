"""Guest speech at the caption server: the speaking link (its own key, HTTPS with the app's own
certificate), the frames a guest sends reaching its place (a real GuestSource), and the bounds
against hostile guests, through real sockets and real TLS (aiohttp's client)."""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import os
import ssl
import time

import aiohttp
import numpy as np
import pytest

from app.audio.guest import END_PAD_S, GuestSource
from app.captions import CaptionServer
from app.captions.certificate import CERT_FILE, KEY_FILE
from app.captions.guest_speech import MAX_FRAME_BYTES, STALL_S, GuestSpeech, guest_name
from app.shared.audio import SAMPLE_RATE
from app.shared.errors import LiveTranslatorError

from .conftest import get

FRAME = 640  # samples: what the page sends (40 ms)
NO_CHECK = ssl.create_default_context()
NO_CHECK.check_hostname = False
NO_CHECK.verify_mode = ssl.CERT_NONE  # the app's self-signed certificate, as a phone accepts it


@pytest.fixture
def speaking(serve, tmp_path):
    """speaking(places=1, **server) -> (server, places): a caption server with guest speech on."""

    def make(places: int = 1, **kwargs):
        sources = [GuestSource(f"place {n}") for n in range(places)]
        guests = GuestSpeech(sources, tls_folder=tmp_path / "tls")
        return serve(guest_speech=guests, **kwargs), sources

    return make


def speak_url(server: CaptionServer, key: str | None = None, **query) -> str:
    q = "&".join(f"{k}={v}" for k, v in {"key": server.guest_speech.key if key is None else key, **query}.items())
    return f"wss://127.0.0.1:{server.guest_speech.port}/speak?{q}"


def tone(n: int = FRAME, start: int = 0) -> bytes:
    t = np.arange(start, start + n)
    return (np.sin(2 * np.pi * 220 * t / SAMPLE_RATE) * 8000).astype("<i2").tobytes()


def drain(source: GuestSource, seconds: float = 1.5) -> np.ndarray:
    got, deadline = [], time.monotonic() + seconds
    while time.monotonic() < deadline:
        block = source.read(0.05)
        if block is not None:
            got.append(block)
    return np.concatenate(got) if got else np.zeros(0, np.float32)


async def session_run(coroutine_factory):
    async with aiohttp.ClientSession() as http:
        return await coroutine_factory(http)


def run(factory):
    """The client's event loop on a thread of its own (Playwright's may be running on this one)."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, session_run(factory)).result()


def test_the_speaking_link_is_https_with_its_own_key_and_the_certificate_is_kept(speaking, tmp_path):
    server, _ = speaking(key="view-key")
    url = server.speak_url
    assert url.startswith(f"https://127.0.0.1:{server.guest_speech.port}/?key=")
    assert server.guest_speech.key not in ("", "view-key") and len(server.guest_speech.key) >= 20
    assert server.url.startswith(f"http://127.0.0.1:{server.port}/")  # viewing stays plain HTTP
    cert = (tmp_path / "tls" / CERT_FILE).read_bytes()
    assert os.stat(tmp_path / "tls" / KEY_FILE).st_mode & 0o077 == 0  # the key: this user only

    async def page(http):
        async with http.get(url, ssl=NO_CHECK) as response:  # the page over TLS with the speaking key
            return response.status, await response.text()

    status, body = run(page)
    assert status == 200 and 'id="speak"' in body
    # A second server (the next start) keeps the certificate the phones already trusted.
    second = GuestSpeech([GuestSource()], tls_folder=tmp_path / "tls")
    CaptionServer(port=0, guest_speech=second).start()
    assert (tmp_path / "tls" / CERT_FILE).read_bytes() == cert


def test_hello_offers_the_speak_button_to_the_speaking_key_only(speaking):
    server, _ = speaking(key="view-key")

    async def hello(http, key):
        url = f"https://127.0.0.1:{server.guest_speech.port}/events?key={key}"
        async with http.get(url, ssl=NO_CHECK) as response:
            async for line in response.content:
                if line.startswith(b"data: "):
                    return json.loads(line[6:])

    assert run(lambda http: hello(http, server.guest_speech.key))["speak"] is True
    assert "speak" not in run(lambda http: hello(http, "view-key"))


def test_a_viewing_key_can_never_send_audio(speaking):
    server, (place,) = speaking(key="view-key")

    async def attempt(http, url, **kwargs):
        try:
            async with http.ws_connect(url, ssl=NO_CHECK, **kwargs) as ws:
                await ws.send_bytes(tone())
                return "opened"
        except aiohttp.WSServerHandshakeError as error:
            return error.status

    assert run(lambda http: attempt(http, speak_url(server, "view-key"))) == 403
    assert run(lambda http: attempt(http, speak_url(server, ""))) == 403
    # the page's cookie holds the viewing key: it is never taken for speaking
    cookie = {"Cookie": "captions_key=view-key"}
    no_key = f"wss://127.0.0.1:{server.guest_speech.port}/speak"
    assert run(lambda http: attempt(http, no_key, headers=cookie)) == 403
    # the speaking key over plain HTTP (the viewing port) is refused too: it would travel in the clear
    status, body = get(server, f"/speak?key={server.guest_speech.key}")
    assert status == 403 and b"HTTPS" in body
    assert drain(place, 0.6).size == 0


def test_a_guests_frames_reach_its_place_and_a_pause_ends_the_utterance(speaking):
    server, (place,) = speaking()
    sent = b"".join(tone(FRAME, i * FRAME) for i in range(10))

    async def talk(http):
        async with http.ws_connect(speak_url(server, name="Ana%20Li"), ssl=NO_CHECK) as ws:
            for i in range(10):
                await ws.send_bytes(sent[i * FRAME * 2 : (i + 1) * FRAME * 2])
            await asyncio.sleep(0.1)
            guests = server.guest_speech.speaking()
            await asyncio.sleep(STALL_S + 0.5)  # the guest goes quiet: the place gets its pause
            return guests

    guests = run(talk)
    assert [g["name"] for g in guests] == ["Ana Li"] and place.speaker_name == "Ana Li"
    audio = drain(place)
    expected = np.frombuffer(sent, "<i2").astype(np.float32) / 32768
    assert np.allclose(audio[: len(expected)], expected)
    assert len(audio) == len(expected) + int(END_PAD_S * SAMPLE_RATE)  # one pause, not one per poll
    assert not audio[len(expected) :].any()
    assert server.guest_speech.speaking() == []  # the place is free again


@pytest.mark.parametrize(
    "attack, reason",
    [
        ("text", "binary frames"),
        ("odd", "whole 16-bit samples"),
        ("10MB", "at most 6400 bytes"),
        ("flood", "Too many frames"),
        ("fast", "faster than it can be spoken"),
    ],
)
def test_a_bad_stream_is_closed_with_a_message_and_the_session_goes_on(speaking, attack, reason):
    server, (place,) = speaking()

    async def send(ws):
        if attack == "text":
            await ws.send_str("hello")
        elif attack == "odd":
            await ws.send_bytes(b"\x01\x02\x03")
        elif attack == "10MB":
            await ws.send_bytes(os.urandom(10 * 1024 * 1024))
        elif attack == "flood":  # 1,000 tiny frames a second
            for _ in range(1000):
                await ws.send_bytes(b"\x00\x00")
                await asyncio.sleep(0.001)
        elif attack == "fast":  # allowed frames, ten times faster than speech
            for _ in range(200):
                await ws.send_bytes(bytes(MAX_FRAME_BYTES))
                await asyncio.sleep(0.02)

    async def hostile(http):
        async with http.ws_connect(speak_url(server), ssl=NO_CHECK, max_msg_size=0) as ws:
            started = time.monotonic()
            sender = asyncio.create_task(send(ws))  # sends until the server's answer comes
            message = await ws.receive(timeout=10)
            sender.cancel()
            await asyncio.gather(sender, return_exceptions=True)  # closed under its feet: what we test
            return message, time.monotonic() - started

    message, took = run(hostile)
    assert message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.CLOSING)
    assert reason in (message.extra or ""), message
    assert took < 6  # at once, not when the sender has done (10 MB over TLS on a busy machine: ~2 s)
    assert server.guest_speech.refused == 1
    # Nothing else is touched: pages are served, and the next guest speaks from the same place.
    assert get(server, "/transcript")[0] == 200
    drain(place, 0.3)

    async def next_guest(http):
        async with http.ws_connect(speak_url(server), ssl=NO_CHECK) as ws:
            await ws.send_bytes(tone())
            await asyncio.sleep(0.2)

    run(next_guest)
    assert len(drain(place, 0.5)) >= FRAME


def test_twenty_guests_at_once_one_speaks_the_others_are_told_to_wait(speaking):
    server, (place,) = speaking()

    async def crowd(http):
        sockets = await asyncio.gather(*(http.ws_connect(speak_url(server), ssl=NO_CHECK) for _ in range(20)))
        for ws in sockets:
            await ws.send_bytes(tone())
        closes = []
        for ws in sockets:
            try:
                message = await ws.receive(timeout=1.0)
                closes.append((message.type, message.data, message.extra))
            except TimeoutError:
                closes.append(("open", None, None))
        still_open = [ws for ws in sockets if not ws.closed]
        for ws in sockets:
            await ws.close()
        return closes, len(still_open)

    closes, still_open = run(crowd)
    assert still_open == 1
    refused = [c for c in closes if c[0] != "open"]
    assert len(refused) == 19
    assert all(c[1] == 1013 and "speaking places are taken" in c[2] for c in refused)
    assert len(drain(place, 0.8)) >= FRAME  # the one with the place was heard
    assert server.guest_speech.speaking() == []


def test_a_guest_that_disconnects_mid_word_ends_its_utterance_and_frees_its_place(speaking):
    server, (place,) = speaking()

    async def vanish(http):
        ws = await http.ws_connect(speak_url(server), ssl=NO_CHECK)
        for i in range(5):
            await ws.send_bytes(tone(FRAME, i * FRAME))
        await asyncio.sleep(0.1)
        ws._response.connection.transport.abort()  # Wi-Fi gone: no close frame, the socket just dies

    run(vanish)
    audio = drain(place, 1.5)
    assert len(audio) == 5 * FRAME + int(END_PAD_S * SAMPLE_RATE)  # the word, then the pause that ends it
    assert server.guest_speech.speaking() == []


@pytest.mark.parametrize("damage", ["garbage", "folder"])
def test_an_unreadable_certificate_is_a_clear_error_before_anything_listens(tmp_path, damage):
    folder = tmp_path / "tls"
    folder.mkdir()
    if damage == "garbage":
        (folder / CERT_FILE).write_text("not a certificate")
        (folder / KEY_FILE).write_text("not a key")
    else:  # something that cannot be read at all in the certificate's place
        (folder / CERT_FILE).mkdir()
        (folder / KEY_FILE).write_text("")
    server = CaptionServer(port=0, guest_speech=GuestSpeech([GuestSource()], tls_folder=folder))
    with pytest.raises(LiveTranslatorError) as caught:
        server.start()
    assert str(folder) in str(caught.value) and CERT_FILE in caught.value.hint
    assert not server.running


def test_the_host_mutes_and_removes_a_guest(speaking):
    server, (place,) = speaking()
    guests = server.guest_speech

    async def muted_then_removed(http):
        async with http.ws_connect(speak_url(server, name="Bo"), ssl=NO_CHECK) as ws:
            await ws.send_bytes(tone())
            await asyncio.sleep(0.2)
            (guest,) = guests.speaking()
            guests.mute(guest["id"])  # from another thread, as the window would
            await asyncio.sleep(0.2)
            for _ in range(5):
                await ws.send_bytes(tone())
            await asyncio.sleep(0.2)
            listed = guests.speaking()
            guests.remove(guest["id"])
            message = await ws.receive(timeout=5)
            return listed, message

    listed, message = run(muted_then_removed)
    assert listed == [{"id": 1, "name": "Bo", "peer": "127.0.0.1", "muted": True}]
    assert message.data == 4000 and message.extra == "The host removed you."
    audio = drain(place, 0.5)
    assert len(audio) == FRAME + int(END_PAD_S * SAMPLE_RATE)  # the first frame, the pause muting made; no more
    assert guests.speaking() == []


@pytest.mark.parametrize(
    "typed, shown",
    [
        ("Mei", "Mei"),
        ("  李 小龙 ", "李 小龙"),
        ("O'Neil-Smith", "O'Neil-Smith"),
        (
            "<b>x</b>\n00:01 --> 00:02",
            "bxb 0001 -- 0002",
        ),  # nothing a page, a subtitle file or a line break takes as its own
        ("\u202eevil\u0000", "evil"),
        ("", "Guest 7"),
        ("<<>>", "Guest 7"),
        ("x" * 100, "x" * 40),
    ],
)
def test_a_guests_name_is_kept_to_plain_words(typed, shown):
    assert guest_name(typed, 7) == shown
