"""The caption server over real HTTP: what it serves, to whom, and what it never does."""

from __future__ import annotations

import json
import logging
import re
import socket
import subprocess
import sys
import time

import psutil
import pytest

from app.captions import CaptionServer
from app.captions.state import Captions
from app.shared import arguments
from app.shared.errors import LiveTranslatorError
from app.shared.events import DecodeStep, DecodeStepEvent, Level, Status
from app.shared.paths import resources_dir
from tests.waiting import wait_until

from .conftest import Readers, final, get, open_stream, partial, translation

SECRET = "早上好，这是只给持有密钥的人看的字幕。"

# --- what the page is told ----------------------------------------------------------------------


def test_captions_keep_finals_and_the_latest_provisional_per_utterance():
    captions = Captions()
    captions.apply(partial(0, "good mor", "good"))
    captions.apply(translation(0, "good mor", "好", provisional=True))
    captions.apply(final(0, " Good morning. "))
    captions.apply(partial(0, "late partial"))  # after the final: changes nothing
    update = captions.apply(translation(0, "Good morning.", "早上好。"))
    assert update["source"] == "Good morning." and update["source_final"] and update["translation_final"]
    assert update["translation_stable"] == len("早上好。")
    assert captions.apply(translation(0, "Good morning.", "另一个")) is None  # a final is the last word
    captions.apply(partial(1, "how are", "how"))
    doc = captions.snapshot()
    assert [c["id"] for c in doc["captions"]] == [0, 1]
    assert doc["captions"][1] | {} == {
        **doc["captions"][1],
        "source": "how are",
        "source_stable": 3,
        "source_final": False,
        "translation": "",
    }
    assert doc["captions"][0]["seq"] < doc["captions"][1]["seq"] == doc["seq"]
    # Events the page has no use for are not turned into updates.
    step = DecodeStep(
        sentence_index=0,
        step=0,
        token_id=1,
        token="a",
        top=[],
        self_kv_len=1,
        cross_kv_len=1,
        used_cache_branch=False,
        ms=1.0,
    )
    assert captions.apply(DecodeStepEvent(utterance_id=1, provisional=True, step=step)) is None
    assert captions.apply(Level(rms=0.1, peak=0.2)) is None
    assert captions.apply(Status(state="running"))["state"] == "running"


def test_stable_prefix_and_speaker_are_passed_on_when_a_translation_carries_them():
    captions = Captions()
    update = captions.apply(translation(3, "I think that", "我认为那个", provisional=True, stable=3, speaker="them"))
    assert update["translation_stable"] == 3 and update["speaker"] == "them"
    update = captions.apply(translation(4, "hi", "嗨", provisional=True))  # as today: nothing settled yet
    assert update["translation_stable"] == 0 and "speaker" not in update
    assert captions.apply(translation(5, "x", "好", provisional=True, stable=99))["translation_stable"] == 1


def test_an_utterance_that_ends_with_no_text_is_dropped():
    captions = Captions()
    captions.apply(partial(0, "uh", ""))
    update = captions.apply(final(0, "  "))
    assert update["source"] == "" and update["source_final"] and captions.snapshot()["captions"] == []


def test_captions_kept_are_bounded():
    captions = Captions(max_captions=10)
    for uid in range(50):
        captions.apply(final(uid, f"line {uid}"))
    assert [c["id"] for c in captions.snapshot()["captions"]] == list(range(40, 50))


def test_reset_starts_a_new_session():
    captions = Captions()
    captions.apply(final(0, "hello"))
    before = captions.session
    update = captions.reset()
    assert update["type"] == "reset" and update["session"] != before and captions.snapshot()["captions"] == []


# --- addresses and keys ---------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["0", "127.0.0.1:0", "[::1]:0"])
def test_the_server_listens_where_the_command_lines_parser_says(serve, text):
    """--serve's parser (app.shared.arguments, the only one) gives the host as the server takes it."""
    host, port = arguments.serve_address(text)
    server = serve(host=host, port=port)
    connection_host = "::1" if host == "::1" else "127.0.0.1"
    with socket.create_connection((connection_host, server.port), timeout=10):
        pass
    assert server.url.startswith(f"http://{'[::1]' if host == '::1' else '127.0.0.1'}:{server.port}/")


def test_loopback_needs_no_key_and_any_other_address_gets_a_random_one(serve):
    assert serve().key == "" and "key=" not in serve().url
    one, two = serve(host="0.0.0.0"), serve(host="0.0.0.0")
    assert len(one.key) >= 20 and one.key != two.key
    assert one.url.endswith(f":{one.port}/?key={one.key}") and not one.url.startswith("http://0.0.0.0")


def test_a_port_in_use_is_explained(serve):
    server = serve()
    with pytest.raises(LiveTranslatorError, match=f"Cannot serve captions on 127.0.0.1:{server.port}") as info:
        CaptionServer(port=server.port).start()
    assert "another port" in info.value.hint


def test_no_key_or_a_wrong_key_is_refused_without_caption_text(serve):
    server = serve(host="0.0.0.0")
    server.on_event(final(0, "secret source"))
    server.on_event(translation(0, "secret source", SECRET))
    wait_until(lambda: SECRET.encode() in get(server, f"/transcript?key={server.key}")[1], "the caption to be kept")
    for path in ("/", "/captions.js", "/transcript", "/events"):
        status, body = get(server, path)
        assert status == 401 and SECRET.encode() not in body and b"secret source" not in body, path
        assert b"access key" in body
        status, body = get(server, path + "?key=not-the-key")
        assert status == 403 and SECRET.encode() not in body, path
        status, body = get(server, path, headers={"Cookie": "captions_key=not-the-key"})
        assert status == 403, path
    status, body = get(server, f"/transcript?key={server.key}")
    assert status == 200 and json.loads(body)["captions"][0]["translation"] == SECRET
    # The page's own requests for its assets carry the key as a cookie set with the page.
    status, _ = get(server, "/captions.css", headers={"Cookie": f"captions_key={server.key}"})
    assert status == 200


def test_a_loopback_server_refuses_other_host_names(serve):
    """DNS rebinding: a page on evil.example that resolves to 127.0.0.1 gets nothing."""
    server = serve()
    server.on_event(translation(0, "a", SECRET))
    wait_until(lambda: SECRET.encode() in get(server, "/transcript")[1], "the caption to be kept")
    status, body = get(server, "/transcript", headers={"Host": f"evil.example:{server.port}"})
    assert status == 403 and SECRET.encode() not in body
    assert get(server, "/transcript", headers={"Host": f"localhost:{server.port}"})[0] == 200


# --- paths and methods ----------------------------------------------------------------------------

TRAVERSALS = [
    "/../etc/passwd",
    "/../../../../etc/passwd",
    "/%2e%2e/etc/passwd",
    "/%2E%2E/%2E%2E/etc/passwd",
    "/..%2f..%2fetc%2fpasswd",
    "/%2e%2e%2f%2e%2e%2fetc%2fpasswd",
    "/%252e%252e/etc/passwd",
    "/..%5c..%5cetc%5cpasswd",
    "/captions.js/../../app/captions/server.py",
    "/./captions.js",
    "//etc/passwd",
    "/index.html",
    "/captions/captions.js",
    "/resources/captions/index.html",
    "/captions.css%00.txt",
    "/transcript/",
    "/%2e%2e%2fpyproject.toml",
    "/.%2e/.%2e/pyproject.toml",
    "/events/..",
    "/favicon.ico",
]


@pytest.fixture(scope="module")
def opened_files():
    """Files opened by this process while `recording` is set (a Python audit hook)."""
    record = {"on": False, "paths": []}

    def hook(event, args):
        if record["on"] and event == "open":
            record["paths"].append(args[0])

    sys.addaudithook(hook)  # cannot be removed; it records only while asked to
    return record


@pytest.mark.parametrize("path", TRAVERSALS)
def test_paths_outside_the_page_get_404_and_nothing_is_read_from_disk(serve, path, opened_files):
    server = serve()
    opened_files["paths"].clear()
    opened_files["on"] = True
    try:
        status, body = get(server, path)
    finally:
        opened_files["on"] = False
    assert status == 404 and body == b"Not found."
    assert [p for p in opened_files["paths"] if not str(p).startswith("/proc/")] == []


def test_only_get(serve):
    server = serve()
    for method in ("POST", "PUT", "DELETE", "HEAD", "OPTIONS", "PATCH"):
        status, _ = get(server, "/transcript", method=method)
        assert status == 405, method


# --- malformed and half-sent requests (issue 27) ------------------------------------------------


def raw_exchange(server: CaptionServer, data: bytes, wait: float = 5.0) -> bytes:
    with socket.create_connection(("127.0.0.1", server.port), timeout=wait) as connection:
        connection.sendall(data)
        received = b""
        try:
            while chunk := connection.recv(1 << 16):
                received += chunk
        except (TimeoutError, ConnectionResetError):
            pass
        return received


MALFORMED = {
    "a 9,000-byte header": lambda key: f"GET /?key={key} HTTP/1.1\r\nHost: x\r\nX-Big: {'a' * 9000}\r\n\r\n".encode(),
    "a 9,000-byte request line": lambda key: f"GET /{'a' * 9000}?key={key} HTTP/1.1\r\nHost: x\r\n\r\n".encode(),
    "a bad header line": lambda key: f"GET /?key={key} HTTP/1.1\r\nno colon here\r\n\r\n".encode(),
    "TLS on the HTTP port": lambda key: bytes.fromhex("16030100a5010000a10303") + key.encode(),
    "a bad method": lambda key: f"G\x01T /?key={key} HTTP/1.1\r\n\r\n".encode(),
}


@pytest.mark.parametrize("case", MALFORMED)
def test_a_malformed_request_is_one_log_line_without_traceback_or_key(serve, caplog, case):
    caplog.set_level("DEBUG")
    server = serve(host="0.0.0.0")
    for _ in range(3):
        raw_exchange(server, MALFORMED[case](server.key))
    time.sleep(0.2)  # the server logs on its own threads: what it logs of them within this time is counted
    records = [r for r in caplog.records if r.levelno >= logging.INFO and "serving on" not in r.getMessage()]
    assert len(records) <= 3, [r.getMessage() for r in records]  # at most one per request
    assert all(r.exc_info is None and not r.exc_text for r in caplog.records)
    assert "Traceback" not in caplog.text and server.key not in caplog.text
    assert get(server, f"/transcript?key={server.key}")[0] == 200  # and it goes on serving


def test_a_connection_that_does_not_finish_its_headers_is_closed(serve, monkeypatch):
    monkeypatch.setattr("app.captions.server.HEADER_TIMEOUT_S", 1.0)
    server = serve()
    started = time.monotonic()
    with (
        socket.create_connection(("127.0.0.1", server.port), timeout=10) as silent,
        socket.create_connection(("127.0.0.1", server.port), timeout=10) as dripping,
    ):
        dripping.sendall(b"GET /transcript HTTP/1.1\r\n")
        closed = {}
        while len(closed) < 2 and time.monotonic() - started < 8:
            for name, connection in (("silent", silent), ("dripping", dripping)):
                if name in closed:
                    continue
                try:
                    if name == "dripping":
                        connection.sendall(b"X: y\r\n")  # a header line a second, never the end
                    connection.settimeout(0.5)
                    if connection.recv(1024) == b"":
                        closed[name] = time.monotonic() - started
                except TimeoutError:
                    continue
                except OSError:
                    closed[name] = time.monotonic() - started
            time.sleep(0.5)  # with the 0.5 s read above: the dripping client's pace, a line a second
    assert set(closed) == {"silent", "dripping"} and max(closed.values()) < 5, closed
    assert get(server, "/transcript")[0] == 200


# --- slow pages and many pages --------------------------------------------------------------------


def test_fifty_pages_and_one_that_never_reads_memory_stays_flat(serve):
    """The pipeline's side never waits: on_event returns at once, whatever the pages do. A page
    that stops reading is dropped once its bounded queue is full; the others get everything;
    the server's memory does not grow with what the dead page did not take."""
    server = serve(queue_size=64)
    readers = Readers([open_stream(server) for _ in range(50)])
    stuck = open_stream(server, receive_buffer=4096)  # never reads a byte
    wait_until(lambda: server.stats()["clients"] == 51, "51 pages connected", 10)
    process = psutil.Process()
    text = "这是一句很长的翻译，" * 200  # ~6 KB per update
    n, took, rss = 900, [], []
    for i in range(n):
        started = time.perf_counter()  # ten utterances, revised again and again: the captions kept stay small
        server.on_event(translation(i % 10, "a long sentence", f"{i} {text}", provisional=True))
        took.append(time.perf_counter() - started)
        if i % 5 == 0:
            time.sleep(0.05)  # 100 updates a second, in bursts: more than a busy pipeline makes
        if i in (n // 3, n - 1):
            wait_until(
                lambda sent=i + 1: min(readers.counts) >= sent,
                f"update {i} on every page",
                60,
                seen=lambda i=i: (i, min(readers.counts)),
            )
            rss.append(process.memory_info().rss)
    try:
        # A hand-over, not a wait: waiting on the dead page would take its 10 s write timeout.
        # (The slowest call is the machine's scheduling noise: up to 0.1 s seen at load 15.)
        took.sort()
        assert took[len(took) // 2] < 0.001 and took[-1] < 1.0, (took[len(took) // 2], took[-1])
        assert readers.counts == [n] * 50, "a reading page missed updates"
        assert server.stats()["dropped"] == 1 and server.stats()["clients"] == 50
        stuck.settimeout(5)
        received = b""
        while chunk := stuck.recv(1 << 16):  # the dropped page's connection was closed...
            received += chunk
        assert 0 < received.count(Readers.MARK) < n  # ...after the few updates its buffers took
        growth = (rss[1] - rss[0]) / 2**20
        # The 600 updates of ~6 KB the dead page did not take would be 3.6 MB if they were kept.
        assert growth < 2.0, f"memory grew {growth:.1f} MB between a third of the updates and the end"
    finally:
        readers.close()
        stuck.close()


def test_run_serve_prints_the_url_with_a_key_off_loopback_and_explains_bad_addresses(phrasebook, tmp_path):
    base = [
        sys.executable,
        "-m",
        "app",
        "run",
        "--direction",
        "en-zh",
        "--nmt-model",
        str(phrasebook["en-zh"]),
        "--input",
        str(resources_dir() / "selftest" / "hello.wav"),  # a real recording: a missing one is refused before serving
        "--asr-model",
        "tiny.en",
        "--no-tts",
    ]
    result = subprocess.run([*base, "--serve", "0.0.0.0:0"], check=False, capture_output=True, text=True, timeout=300)
    assert re.search(r"^captions: http://[\d.]+:\d+/\?key=[\w-]{20,}$", result.stderr, re.MULTILINE), result.stderr
    result = subprocess.run(
        [*base, "--serve", "somewhere:http"], check=False, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 2 and "'somewhere:http' is not an address to serve captions on" in result.stderr


def test_the_caption_server_imports_no_stage_window_or_tooling():
    """It observes events (app.shared) and nothing else of the app: no Qt, no pipeline, no models."""
    code = "import json, sys, app.captions, app.captions.server, app.captions.state; print(json.dumps(sorted(sys.modules)))"  # noqa: E501
    done = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True, timeout=120)
    forbidden = ("app.asr", "app.pipeline", "app.translation", "app.ui", "app.tts", "models", "PySide6")
    assert [m for m in json.loads(done.stdout) if any(m == f or m.startswith(f + ".") for f in forbidden)] == []
