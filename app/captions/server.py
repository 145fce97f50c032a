"""The caption server: a small web server that shows the live captions in any browser.

It observes the pipeline like the window does: `on_event(event)` may be called from any thread
and only hands the event to the server's own event loop (`call_soon_threadsafe`), so the
pipeline never waits for the network. The loop keeps the session's captions (app.captions.state)
and pushes each update to every connected page over server-sent events.

What it serves, to GET requests only (everything else is 404 or 405):
  /             the caption page        /captions.js, /captions-words.js, /captions.css   its assets
  /transcript   the session so far      /events                                           the live updates
Both data paths take ?script=simplified|traditional|hongkong (each listener's Chinese, converted
here with OpenCC: one session, every script); /transcript also takes ?format=txt|srt|vtt
[&bilingual=1] to download the session as text or subtitles, written by the writers the
composition layer hands in (`writers`: the same as `python -m app export`). A value it does not
know is a 400 naming what it takes.
The page's files are read from resources/captions/ once, at start, by an allow-list of exact
paths: a request path is never joined onto a folder, so nothing else on disk can be served.
With guest speech (app.captions.guest_speech) the same routes are served on a second port with
TLS too, plus /speak there: a guest's audio, taken with the speaking key only; the speaking key
also opens the captions, and the hello of its /events says `speak: true` (the page's button).

Security: by default it listens on 127.0.0.1 only, and then checks the Host header (a web
page elsewhere cannot reach it through DNS rebinding). Any other address needs the session's
access key (`secrets.token_urlsafe`), given as ?key=... (the page's own requests carry it on,
and a cookie set with the page covers its assets): no key -> 401, a wrong one -> 403.
Each page gets a bounded queue; a page that does not keep up is dropped (and logged).
A malformed request (a header too long, bytes that are not HTTP) is logged as one line naming
the peer and the kind of fault, never with a traceback or the request's bytes (they may hold a
key); a connection that has not sent its headers within HEADER_TIMEOUT_S is closed.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import logging
import mimetypes
import secrets
import socket
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from aiohttp import web
from aiohttp.http_exceptions import HttpProcessingError

from app.captions.guest_speech import GuestSpeech
from app.captions.state import CAPTION_EVENTS, Captions, in_script
from app.shared import paths
from app.shared.chinese import CHINESE_SCRIPTS, ChineseScript
from app.shared.errors import QT_TRANSLATE_NOOP, LiveTranslatorError
from app.shared.events import Event

log = logging.getLogger(__name__)

DEFAULT_HOST = "127.0.0.1"
KEY_COOKIE = "captions_key"
# Exact request paths -> (file under resources/captions/, content type). Nothing else is served.
ASSETS = {
    "/": ("index.html", "text/html; charset=utf-8"),
    "/captions.js": ("captions.js", "text/javascript; charset=utf-8"),
    "/captions-words.js": ("captions-words.js", "text/javascript; charset=utf-8"),
    "/captions.css": ("captions.css", "text/css; charset=utf-8"),
    "/speak.js": ("speak.js", "text/javascript; charset=utf-8"),  # the Speak button (guest speech)
    "/speak-worklet.js": ("speak-worklet.js", "text/javascript; charset=utf-8"),  # its AudioWorklet
}
SPEAK_PATH = "/speak"  # a guest's audio (app.captions.guest_speech)
DATA_PATHS = ("/transcript", "/events")
QUEUE_SIZE = 256  # updates waiting for one page; a page this far behind is dropped
# A keep-alive message this often: dead connections are found, proxies keep them open, and a page
# that hears nothing for 2.5 times as long knows its connection died silently (a dropped Wi-Fi).
KEEPALIVE_S = 15.0
WRITE_TIMEOUT_S = 10.0  # a page whose socket takes no data for this long is dropped
SEND_BUFFER_BYTES = 64 * 1024  # kernel buffer per page: bounds what a page that does not read costs
HEADER_TIMEOUT_S = 5.0  # a connection that has not finished its request's headers by then is closed
RETRY_MS = 1000  # EventSource reconnects this soon after the app comes back
# A download format's writer: (captions as /transcript lists them, finals only; bilingual) -> text.
SubtitleWriter = Callable[[list[dict], bool], str]
BOOLEANS = {"": False, "0": False, "false": False, "1": True, "true": True}
HEADERS = {
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",  # the key is in the page's URL
    "X-Frame-Options": "DENY",
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'",
}


def parse_address(text: str) -> tuple[str, int]:
    """ "[HOST:]PORT" -> (host, port); "8765" -> ("127.0.0.1", 8765); IPv6 as "[::1]:8765"."""
    host, sep, port = text.strip().rpartition(":")
    if not sep:
        host = DEFAULT_HOST
    host = host.strip("[]") or DEFAULT_HOST
    if not port.isdigit() or not 0 <= int(port) <= 65535:
        raise LiveTranslatorError(
            QT_TRANSLATE_NOOP("Errors", "'{text}' is not an address to serve captions on."),
            QT_TRANSLATE_NOOP("Errors", "Give a port (8765) or HOST:PORT (127.0.0.1:8765, 0.0.0.0:8765 for phones)."),
            text=text,
        )
    return host, int(port)


class BadQuery(ValueError):
    """A query option the server does not know: the 400's message."""


@dataclass(frozen=True)
class DataOptions:
    """What a /transcript or /events request asks for."""

    script: ChineseScript | None = None  # None: as the app writes it
    format: str | None = None  # None: the JSON document; else a download
    bilingual: bool = False

    @classmethod
    def of(cls, query: Mapping[str, str], formats) -> DataOptions:
        script = query.get("script") or None
        if script is not None and script not in CHINESE_SCRIPTS:
            raise BadQuery(f"Unknown script={script!r}: use one of {', '.join(CHINESE_SCRIPTS)}.")
        fmt = query.get("format") or None
        if fmt is not None and fmt not in formats:
            raise BadQuery(f"Unknown format={fmt!r}: use one of {', '.join(formats) or '(none: no downloads here)'}.")
        bilingual = query.get("bilingual", "").lower()
        if bilingual not in BOOLEANS:
            raise BadQuery(f"Unknown bilingual={bilingual!r}: use 1 (source and translation) or 0.")
        return cls(ChineseScript(script) if script else None, fmt, BOOLEANS[bilingual])

    def converted(self, caption: dict) -> dict:
        return caption if self.script is None else in_script(caption, self.script)


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def lan_address() -> str:
    """This machine's address on the local network, for the URL phones open (no packet is sent:
    connecting a UDP socket only picks the outgoing interface)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.254.254.254", 1))
            return probe.getsockname()[0]
        except OSError:
            pass
    try:
        return socket.gethostbyname(socket.gethostname())
    except OSError:
        return DEFAULT_HOST


def public_host(host: str) -> str:
    """The host part of a URL people open: the LAN address for a wildcard, IPv6 in brackets."""
    host = lan_address() if host in ("0.0.0.0", "::", "") else host
    return f"[{host}]" if ":" in host else host


def load_assets() -> dict[str, tuple[bytes, str]]:
    assets = {}
    for route, (name, content_type) in ASSETS.items():
        path = paths.resource("captions", name)
        try:
            assets[route] = (path.read_bytes(), content_type)
        except OSError as error:
            raise LiveTranslatorError(
                QT_TRANSLATE_NOOP("Errors", "The caption page's file {path} cannot be read: {reason}."),
                QT_TRANSLATE_NOOP("Errors", "Reinstall the app; resources/captions/ is part of it."),
                path=path,
                reason=error.strerror,
            ) from error
    return assets


@dataclass(eq=False)
class _Client:
    queue: asyncio.Queue
    transport: asyncio.Transport | None
    peer: str
    script: ChineseScript | None = None  # the Chinese script this page reads
    dropped: bool = False
    sent: int = field(default=0)


class CaptionServer:
    """start() listens (on its own thread), stop() ends it; on_event() from any thread."""

    def __init__(
        self,
        host: str = DEFAULT_HOST,
        port: int = 0,
        key: str | None = None,
        queue_size: int = QUEUE_SIZE,
        writers: Mapping[str, SubtitleWriter] | None = None,
        keepalive_s: float = KEEPALIVE_S,
        guest_speech: GuestSpeech | None = None,
    ):
        """key: None makes a random one when `host` is not a loopback address; "" means none.
        writers: format name -> SubtitleWriter, for /transcript?format=...; none: no downloads.
        guest_speech: listeners may speak too, over its own TLS port (app.captions.guest_speech)."""
        self.guest_speech = guest_speech
        self.writers = dict(writers or {})
        self.host, self.port = host, port
        self.needs_key = not is_loopback(host)
        if key is None:
            key = secrets.token_urlsafe(16) if self.needs_key else ""
        if self.needs_key and not key:
            raise LiveTranslatorError(
                QT_TRANSLATE_NOOP("Errors", "Serving captions on {host} needs an access key."),
                QT_TRANSLATE_NOOP("Errors", "Serve on 127.0.0.1, or let the app make a key."),
                host=host,
            )
        self.key = key
        self.queue_size = queue_size
        self.keepalive_s = keepalive_s
        self.captions = Captions()
        self.clients: set[_Client] = set()
        self.dropped = 0  # pages dropped for falling behind, since start
        self._assets: dict[str, tuple[bytes, str]] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._stopping: asyncio.Event | None = None

    # --- the public face ---------------------------------------------------------------------
    @property
    def running(self) -> bool:
        return self._loop is not None

    @property
    def url(self) -> str:
        """The page's address as people open it (with the key when one is needed)."""
        return f"http://{public_host(self.host)}:{self.port}/" + (f"?key={self.key}" if self.key else "")

    @property
    def speak_url(self) -> str | None:
        """The speaking link (HTTPS, the speaking key), when guest speech is on."""
        return self.guest_speech.url(public_host(self.host)) if self.guest_speech is not None else None

    def start(self) -> None:
        """Listen; returns once the socket is open. A port in use -> LiveTranslatorError."""
        if self.running:
            return
        self._assets = load_assets()
        if self.guest_speech is not None:  # an unusable certificate is said here, not on the thread
            self.guest_speech.prepare((lan_address(),) if self.needs_key else ())
        ready = threading.Event()
        failure: list[BaseException] = []
        self._thread = threading.Thread(target=self._run, args=(ready, failure), name="captions-server", daemon=True)
        self._thread.start()
        ready.wait()
        if failure:
            self._thread.join()
            self._thread = None
            error = failure[0]
            if isinstance(error, OSError):
                raise LiveTranslatorError(
                    QT_TRANSLATE_NOOP("Errors", "Cannot serve captions on {host}:{port}: {reason}."),
                    QT_TRANSLATE_NOOP("Errors", "Pick another port, or stop the program using this one."),
                    host=self.host,
                    port=self.port,
                    reason=error.strerror or error,
                ) from error
            raise error
        log.info("captions: serving on %s:%s", self.host, self.port)

    def stop(self, timeout: float = 5.0) -> None:
        loop, thread = self._loop, self._thread
        if loop is None or thread is None:
            return
        try:
            loop.call_soon_threadsafe(self._stopping.set)
        except RuntimeError:  # the loop has already closed
            pass
        thread.join(timeout)
        self._loop = self._thread = None

    def on_event(self, event: Event) -> None:
        """A pipeline observer: called on pipeline threads; never blocks them."""
        if not isinstance(event, CAPTION_EVENTS):
            return
        loop = self._loop
        if loop is not None:
            try:
                loop.call_soon_threadsafe(self._publish_event, event)
            except RuntimeError:  # stopping: the loop is closed
                pass

    def new_session(self) -> None:
        """A new pipeline session begins (utterance ids start again): pages clear their captions."""
        loop = self._loop
        if loop is None:
            self.captions.reset()
            return
        try:
            loop.call_soon_threadsafe(lambda: self._broadcast(self.captions.reset()))
        except RuntimeError:
            pass

    @property
    def thread_id(self) -> int | None:
        """The native id of the server's thread (benchmarks read its CPU time)."""
        return self._thread.native_id if self._thread is not None else None

    def stats(self) -> dict:
        """Connected pages and queued updates (read from another thread: a rough figure)."""
        clients = list(self.clients)
        return {"clients": len(clients), "queued": sum(c.queue.qsize() for c in clients), "dropped": self.dropped}

    # --- the loop thread ---------------------------------------------------------------------
    def _run(self, ready: threading.Event, failure: list) -> None:
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        try:
            loop.run_until_complete(self._serve(ready))
        except BaseException as error:  # handed to start()'s caller
            if not ready.is_set():
                failure.append(error)
            else:
                log.exception("captions: the server failed")
        finally:
            self._loop = None
            ready.set()
            loop.close()

    async def _serve(self, ready: threading.Event) -> None:
        self._stopping = asyncio.Event()
        app = web.Application()
        app.router.add_route("*", "/{tail:.*}", self._handle)
        # aiohttp's idle timer runs from the connection's start until a whole request has
        # arrived (and between requests): it is the header timeout.
        runner = web.AppRunner(
            app,
            access_log=None,
            handle_signals=False,
            shutdown_timeout=1.0,
            keepalive_timeout=HEADER_TIMEOUT_S,
            logger=_RequestFaults(),
        )
        await runner.setup()
        try:
            site = web.TCPSite(runner, self.host, self.port, reuse_address=True)
            await site.start()
            self.port = runner.addresses[0][1]  # the real one when 0 was asked
            if self.guest_speech is not None:
                await self.guest_speech.start_site(runner, self.host)
            self._loop = asyncio.get_running_loop()
            ready.set()
            await self._stopping.wait()
        finally:
            for client in list(self.clients):
                self._close(client)
            await runner.cleanup()

    def _publish_event(self, event: Event) -> None:
        update = self.captions.apply(event)
        if update is not None:
            self._broadcast(update)

    def _broadcast(self, update: dict) -> None:
        messages: dict[ChineseScript | None, bytes] = {}  # converted once per script, whoever reads it
        for client in list(self.clients):
            message = messages.get(client.script)
            if message is None:
                converted = update if client.script is None else in_script(update, client.script)
                message = messages[client.script] = _sse(converted)
            try:
                client.queue.put_nowait(message)
            except asyncio.QueueFull:
                self.dropped += 1
                log.warning("captions: dropped page %s: it fell %d updates behind", client.peer, self.queue_size)
                self._close(client)

    def _close(self, client: _Client) -> None:
        client.dropped = True
        self.clients.discard(client)
        if client.transport is not None:
            client.transport.abort()  # wakes a write waiting on a full socket
        try:
            client.queue.put_nowait(None)
        except asyncio.QueueFull:
            pass

    # --- requests ----------------------------------------------------------------------------
    async def _handle(self, request: web.Request) -> web.StreamResponse:
        # The raw path as sent, exactly: "/%2e%2e/x" or "/a/../transcript" are simply not on the list.
        path = request.raw_path.split("?", 1)[0]
        speak = path == SPEAK_PATH and self.guest_speech is not None
        if path not in ASSETS and path not in DATA_PATHS and not speak:
            return _plain(404, "Not found.")
        if request.method != "GET":
            return _plain(405, "Only GET.", {"Allow": "GET"})
        refusal = self._refusal(request, speak)
        if refusal is not None:
            return refusal
        if speak:
            return await self.guest_speech.handle(request)
        if path in DATA_PATHS:
            try:
                options = DataOptions.of(request.query, tuple(self.writers))
            except BadQuery as error:
                return _plain(400, str(error))
            if path == "/events":
                return await self._events(request, options)
            return await transcript_response(self.captions, self.writers, options)
        body, content_type = self._assets[path]
        response = web.Response(body=body, headers={**HEADERS, "Content-Type": content_type})
        if self.key:  # the page's own assets then come with the key too
            response.set_cookie(KEY_COOKIE, self.key, httponly=True, samesite="Strict", path="/")
        return response

    def _refusal(self, request: web.Request, speak: bool = False) -> web.Response | None:
        """Viewing: the viewing key (or the speaking key, whose guests read the captions too).
        speak: the Host check only; the guest-speech link checks its own key."""
        if not self.needs_key:
            ports = (self.port, self.guest_speech.port) if self.guest_speech is not None else (self.port,)
            allowed = {f"{name}:{port}" for name in ("127.0.0.1", "localhost", "[::1]", self.host) for port in ports}
            if request.host not in allowed:
                return _plain(403, "This address serves this computer only.")
        if not self.key or speak:
            return None
        given = request.query.get("key") or request.cookies.get(KEY_COOKIE)
        if not given:
            return _plain(401, "An access key is needed: open the URL the app shows, with its ?key=...")
        speaking = self.guest_speech is not None and self.guest_speech.allows(given)
        if not speaking and not secrets.compare_digest(given.encode(), self.key.encode()):
            return _plain(403, "Wrong access key: open the URL the app shows for this session.")
        return None

    async def _events(self, request: web.Request, options: DataOptions) -> web.StreamResponse:
        response = web.StreamResponse(
            headers={**HEADERS, "Content-Type": "text/event-stream", "X-Accel-Buffering": "no"}
        )
        sock = request.transport.get_extra_info("socket") if request.transport else None
        if sock is not None:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER_BYTES)
        await response.prepare(request)
        client = _Client(asyncio.Queue(self.queue_size), request.transport, request.remote or "?", options.script)
        self.clients.add(client)
        log.info("captions: page connected from %s (%d open)", client.peer, len(self.clients))
        hello = {
            "type": "hello",
            "session": self.captions.session,
            "seq": self.captions.seq,
            "state": self.captions.state,
            "keepalive_s": self.keepalive_s,
        }
        if request.secure and self.guest_speech is not None and self.guest_speech.allows(request.query.get("key")):
            hello["speak"] = True  # the page shows its Speak button
        try:
            await response.write(f"retry: {RETRY_MS}\n\n".encode() + _sse(hello))
            while not client.dropped:
                try:
                    message = await asyncio.wait_for(client.queue.get(), self.keepalive_s)
                except TimeoutError:
                    message = KEEPALIVE
                if message is None:
                    break
                await asyncio.wait_for(response.write(message), WRITE_TIMEOUT_S)
                client.sent += 1
        except TimeoutError:
            self.dropped += 1
            log.warning("captions: dropped page %s: it took nothing for %.0f s", client.peer, WRITE_TIMEOUT_S)
        except (ConnectionError, RuntimeError):
            pass  # the page went away (closed, reloaded, or dropped above)
        finally:
            self.clients.discard(client)
            log.info("captions: page from %s left (%d open)", client.peer, len(self.clients))
        return response


KEEPALIVE = b"event: keepalive\ndata: {}\n\n"  # a named event: a page sees it, `onmessage` does not


async def transcript_response(
    captions: Captions, writers: Mapping[str, SubtitleWriter], options: DataOptions
) -> web.Response:
    """/transcript: the session so far as JSON, or a download."""
    snapshot = captions.snapshot()
    if options.script is None and options.format is None:
        return web.Response(
            body=json.dumps(snapshot, ensure_ascii=False).encode(), content_type="application/json", headers=HEADERS
        )
    # Converting and writing up to MAX_CAPTIONS captions takes a while: off the loop, on copies
    # (the loop goes on changing its captions meanwhile).
    copies = [dict(c) for c in snapshot["captions"]]
    snapshot["captions"] = await asyncio.get_running_loop().run_in_executor(
        None, lambda: [options.converted(c) for c in copies]
    )
    if options.format is None:
        return web.Response(
            body=json.dumps(snapshot, ensure_ascii=False).encode(), content_type="application/json", headers=HEADERS
        )
    writer = writers[options.format]
    text = await asyncio.get_running_loop().run_in_executor(None, writer, snapshot["captions"], options.bilingual)
    name = f"captions-{snapshot['session']}.{options.format}"
    content_type = mimetypes.guess_type(name)[0] or "text/plain"
    return web.Response(
        body=text.encode(),
        headers={
            **HEADERS,
            "Content-Type": f"{content_type}; charset=utf-8",
            "Content-Disposition": f'attachment; filename="{name}"',
        },
    )


def _sse(update: dict) -> bytes:
    return f"data: {json.dumps(update, ensure_ascii=False)}\n\n".encode()


class _RequestFaults:
    """The logger aiohttp's request handler writes to (instead of aiohttp.server): one line per
    malformed request, its peer and the fault's kind only. A fault in our own handler is a bug:
    its traceback goes to the debug log."""

    def exception(self, message: str, *args, exc_info: BaseException | None = None, **kwargs) -> None:
        peer = args[0] if args else "?"
        if isinstance(exc_info, HttpProcessingError):
            log.warning(
                "captions: refused a malformed request from %s (%s, HTTP %s)",
                peer,
                type(exc_info).__name__,
                exc_info.code,
            )
        else:
            log.warning("captions: a request from %s failed (%s)", peer, type(exc_info).__name__)
            log.debug("captions: the request's failure", exc_info=exc_info)

    def warning(self, message: str, *args, **kwargs) -> None:
        log.warning("captions: %s", message % args if args else message)

    def debug(self, message: str, *args, **kwargs) -> None:
        pass  # aiohttp's notes on clients that went away


def _plain(status: int, text: str, headers: dict | None = None) -> web.Response:
    return web.Response(status=status, text=text, headers={**HEADERS, **(headers or {})})
