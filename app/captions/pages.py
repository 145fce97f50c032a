"""The pages connected to the caption server's /events, and the live updates pushed to them
over server-sent events. Runs on the server's event loop only.

Each page gets a bounded queue; a page that does not keep up is dropped (and logged), and so is
a page whose socket takes nothing for WRITE_TIMEOUT_S. An update is converted once per Chinese
script that some page reads, whoever reads it.
"""

from __future__ import annotations

import asyncio
import json
import logging
import socket
from dataclasses import dataclass

from aiohttp import web

from app.captions.responses import HEADERS
from app.captions.state import in_script
from app.shared.chinese import ChineseScript

log = logging.getLogger("app.captions.server")  # one logger for the server's lines, as before the split

QUEUE_SIZE = 256  # updates waiting for one page; a page this far behind is dropped
# A keep-alive message this often: dead connections are found, proxies keep them open, and a page
# that hears nothing for 2.5 times as long knows its connection died silently (a dropped Wi-Fi).
KEEPALIVE_S = 15.0
WRITE_TIMEOUT_S = 10.0  # a page whose socket takes no data for this long is dropped
SEND_BUFFER_BYTES = 64 * 1024  # kernel buffer per page: bounds what a page that does not read costs
RETRY_MS = 1000  # EventSource reconnects this soon after the app comes back
KEEPALIVE = b"event: keepalive\ndata: {}\n\n"  # a named event: a page sees it, `onmessage` does not


def sse(update: dict) -> bytes:
    return f"data: {json.dumps(update, ensure_ascii=False)}\n\n".encode()


@dataclass(eq=False)
class Page:
    """One connected page: its queue of messages not yet written."""

    queue: asyncio.Queue
    transport: asyncio.Transport | None
    peer: str
    script: ChineseScript | None = None  # the Chinese script this page reads
    dropped: bool = False
    sent: int = 0


class Pages:
    """The connected pages: each one's queue, filled by broadcast() and written by stream()."""

    def __init__(self, queue_size: int = QUEUE_SIZE, keepalive_s: float = KEEPALIVE_S):
        self.queue_size = queue_size
        self.keepalive_s = keepalive_s
        self.connected: set[Page] = set()
        self.dropped = 0  # pages dropped for falling behind, since start

    def queued(self) -> int:
        """Updates waiting, over every page (read from another thread: a rough figure)."""
        return sum(page.queue.qsize() for page in list(self.connected))

    def broadcast(self, update: dict) -> None:
        messages: dict[ChineseScript | None, bytes] = {}  # converted once per script, whoever reads it
        for page in list(self.connected):
            message = messages.get(page.script)
            if message is None:
                converted = update if page.script is None else in_script(update, page.script)
                message = messages[page.script] = sse(converted)
            try:
                page.queue.put_nowait(message)
            except asyncio.QueueFull:
                self.dropped += 1
                log.warning("captions: dropped page %s: it fell %d updates behind", page.peer, self.queue_size)
                self.close(page)

    def close(self, page: Page) -> None:
        page.dropped = True
        self.connected.discard(page)
        if page.transport is not None:
            page.transport.abort()  # wakes a write waiting on a full socket
        try:
            page.queue.put_nowait(None)
        except asyncio.QueueFull:
            pass

    def close_all(self) -> None:
        for page in list(self.connected):
            self.close(page)

    async def stream(self, request: web.Request, script: ChineseScript | None, hello: dict) -> web.StreamResponse:
        """/events: `hello` first, then every update until the page leaves or is dropped."""
        response = web.StreamResponse(
            headers={**HEADERS, "Content-Type": "text/event-stream", "X-Accel-Buffering": "no"}
        )
        sock = request.transport.get_extra_info("socket") if request.transport else None
        if sock is not None:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER_BYTES)
        await response.prepare(request)
        page = Page(asyncio.Queue(self.queue_size), request.transport, request.remote or "?", script)
        self.connected.add(page)
        log.info("captions: page connected from %s (%d open)", page.peer, len(self.connected))
        try:
            await response.write(f"retry: {RETRY_MS}\n\n".encode() + sse(hello))
            await self._write_updates(page, response)
        except TimeoutError:
            self.dropped += 1
            log.warning("captions: dropped page %s: it took nothing for %.0f s", page.peer, WRITE_TIMEOUT_S)
        except (ConnectionError, RuntimeError):
            pass  # the page went away (closed, reloaded, or dropped above)
        finally:
            self.connected.discard(page)
            log.info("captions: page from %s left (%d open)", page.peer, len(self.connected))
        return response

    async def _write_updates(self, page: Page, response: web.StreamResponse) -> None:
        while not page.dropped:
            try:
                message = await asyncio.wait_for(page.queue.get(), self.keepalive_s)
            except TimeoutError:
                message = KEEPALIVE
            if message is None:
                return
            await asyncio.wait_for(response.write(message), WRITE_TIMEOUT_S)
            page.sent += 1
