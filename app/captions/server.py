"""The caption server: a small web server that shows the live captions in any browser.

It observes the pipeline like the window does: `on_event(event)` may be called from any thread
and only hands the event to the server's own event loop (`call_soon_threadsafe`), so the
pipeline never waits for the network. The loop keeps the session's captions (app.captions.state)
and pushes each update to every connected page over server-sent events (app.captions.pages).

What it serves, to GET requests only (everything else is 404 or 405):
  /             the caption page        /captions.js, /captions-words.js, /captions.css   its assets
  /transcript   the session so far      /events                                           the live updates
Both data paths take ?script=simplified|traditional|hongkong (each listener's Chinese, converted
here with OpenCC: one session, every script); /transcript also takes ?format=txt|srt|vtt
[&bilingual=1] to download the session as text or subtitles, written by the writers the
composition layer hands in (`writers`: the same as `python -m app export`). A value it does not
know is a 400 naming what it takes (app.captions.responses, which also serves the page's files
from an allow-list of exact paths).
With guest speech (app.captions.guest_speech) the same routes are served on a second port with
TLS too, plus /speak there: a guest's audio, taken with the speaking key only; the speaking key
also opens the captions, and the hello of its /events says `speak: true` (the page's button).

Security (app.captions.access): by default it listens on 127.0.0.1 only, and then checks the
Host header; any other address needs the session's access key.
A malformed request (a header too long, bytes that are not HTTP) is logged as one line naming
the peer and the kind of fault, never with a traceback or the request's bytes (they may hold a
key); a connection that has not sent its headers within HEADER_TIMEOUT_S is closed.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Mapping

from aiohttp import web

from app.captions.access import DEFAULT_HOST, Access, lan_address, public_host
from app.captions.guest_speech import GuestSpeech
from app.captions.pages import KEEPALIVE_S, QUEUE_SIZE, Page, Pages
from app.captions.responses import (
    ASSETS,
    BadQuery,
    DataOptions,
    RequestFaults,
    SubtitleWriter,
    asset_response,
    load_assets,
    plain,
    transcript_response,
)
from app.captions.state import CAPTION_EVENTS, Captions
from app.shared.errors import QT_TRANSLATE_NOOP, LiveTranslatorError
from app.shared.events import Event

log = logging.getLogger(__name__)

__all__ = ["DEFAULT_HOST", "CaptionServer"]
SPEAK_PATH = "/speak"  # a guest's audio (app.captions.guest_speech)
DATA_PATHS = ("/transcript", "/events")
HEADER_TIMEOUT_S = 5.0  # a connection that has not finished its request's headers by then is closed


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
        self.access = Access(host, key)
        self.pages = Pages(queue_size, keepalive_s)
        self.captions = Captions()
        self._assets: dict[str, tuple[bytes, str]] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._stopping: asyncio.Event | None = None

    # --- the public face ---------------------------------------------------------------------
    @property
    def key(self) -> str:
        return self.access.key

    @property
    def clients(self) -> set[Page]:
        return self.pages.connected

    @property
    def dropped(self) -> int:
        """Pages dropped for falling behind, since start."""
        return self.pages.dropped

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
            self.guest_speech.prepare((lan_address(),) if self.access.needs_key else ())
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
            loop.call_soon_threadsafe(lambda: self.pages.broadcast(self.captions.reset()))
        except RuntimeError:
            pass

    @property
    def thread_id(self) -> int | None:
        """The native id of the server's thread (benchmarks read its CPU time)."""
        return self._thread.native_id if self._thread is not None else None

    def stats(self) -> dict:
        """Connected pages and queued updates (read from another thread: a rough figure)."""
        return {"clients": len(self.pages.connected), "queued": self.pages.queued(), "dropped": self.pages.dropped}

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
            logger=RequestFaults(),
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
            self.pages.close_all()
            await runner.cleanup()

    def _publish_event(self, event: Event) -> None:
        update = self.captions.apply(event)
        if update is not None:
            self.pages.broadcast(update)

    # --- requests ----------------------------------------------------------------------------
    async def _handle(self, request: web.Request) -> web.StreamResponse:
        # The raw path as sent, exactly: "/%2e%2e/x" or "/a/../transcript" are simply not on the list.
        path = request.raw_path.split("?", 1)[0]
        speak = path == SPEAK_PATH and self.guest_speech is not None
        if path not in ASSETS and path not in DATA_PATHS and not speak:
            return plain(404, "Not found.")
        if request.method != "GET":
            return plain(405, "Only GET.", {"Allow": "GET"})
        refusal = self._refusal(request, speak)
        if refusal is not None:
            return refusal
        if speak:
            return await self.guest_speech.handle(request)
        if path in DATA_PATHS:
            try:
                options = DataOptions.of(request.query, tuple(self.writers))
            except BadQuery as error:
                return plain(400, str(error))
            if path == "/events":
                return await self._events(request, options)
            return await transcript_response(self.captions, self.writers, options)
        return self.access.with_cookie(asset_response(self._assets[path]))

    def _refusal(self, request: web.Request, speak: bool) -> web.Response | None:
        guests = self.guest_speech
        ports = (self.port, guests.port) if guests is not None else (self.port,)
        speaks = guests.allows if guests is not None else lambda given: False
        return self.access.refusal(request, ports, speaks, speak)

    async def _events(self, request: web.Request, options: DataOptions) -> web.StreamResponse:
        hello = {
            "type": "hello",
            "session": self.captions.session,
            "seq": self.captions.seq,
            "state": self.captions.state,
            "keepalive_s": self.pages.keepalive_s,
        }
        if request.secure and self.guest_speech is not None and self.guest_speech.allows(request.query.get("key")):
            hello["speak"] = True  # the page shows its Speak button
        return await self.pages.stream(request, options.script, hello)
