"""Guest speech: listeners the host allows speak through the caption page, their phone a second
microphone (issue 43).

The caption server (app.captions.server) serves its page over plain HTTP for viewing, as it always
did; with guest speech on it also listens on a second port with TLS (browsers give the microphone
to secure pages only; the certificate: app.captions.certificate). The speaking link carries its
own key, separate from the viewing key: only a WebSocket to /speak on the TLS port with that key
in its URL is taken, so a viewing key (in a URL or the page's cookie) can never send audio.

Each message a guest sends is one binary frame of 16 kHz mono little-endian int16 PCM (the page
sends 40 ms frames). A frame is handed to a *place* (an app.audio.guest.GuestSource feeding its
own pipeline lane); there are only as many places as guests may speak at once, so a guest who
presses Speak while all are taken is told so. Bounds, per guest: a frame of whole samples and at
most MAX_FRAME_BYTES (aiohttp refuses a longer message before reading it), at most
MAX_FRAMES_PER_S, and audio no faster than it is spoken (BURST_S ahead at most). A guest that
breaks one is closed with a message saying what was wrong; nothing else is touched. A guest whose
stream ends (Stop tapped, the connection lost) or stops sending for STALL_S (the phone locked)
ends its utterance: the place gets a pause and the recognizer finalises what was said.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import secrets
import time
import unicodedata
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from aiohttp import WSCloseCode, WSMsgType, web

from app.captions.certificate import ssl_context

log = logging.getLogger(__name__)

SAMPLE_RATE = 16_000
BYTES_PER_S = SAMPLE_RATE * 2
MAX_FRAME_BYTES = 6400  # 200 ms: five times what the page sends
MAX_FRAMES_PER_S = 60  # the page sends 25
BURST_S = 2.0  # audio may run this far ahead of the clock (a phone's Wi-Fi delivers in bursts)
# No frame for this long while the stream stays open (the phone locked, the Wi-Fi lost): the
# utterance ends. Not shorter: frames late on a busy phone or network arrive in bursts, and a
# pause put into the middle of a word would cut it (measured: 0.4 s cut words under load).
STALL_S = 1.5
MAX_NAME = 40
CLOSE_POLICY, CLOSE_UNSUPPORTED, CLOSE_TRY_LATER, CLOSE_REMOVED = 1008, 1003, 1013, 4000


class GuestPlace(Protocol):
    """Where one speaking guest's audio goes (app.audio.guest.GuestSource)."""

    speaker_name: str | None

    def feed(self, pcm: bytes) -> None: ...

    def end_turn(self) -> None: ...


TOO_LONG = f"A frame may hold at most {MAX_FRAME_BYTES} bytes (200 ms of audio)."


class _GuestSocket(web.WebSocketResponse):
    """aiohttp refuses a message over max_msg_size before reading it, and closes with 1009 and no
    words: the guest's page is told what was wrong, as for every other bound."""

    async def close(self, *, code: int = WSCloseCode.OK, message: bytes = b"", drain: bool = True) -> bool:
        if code == WSCloseCode.MESSAGE_TOO_BIG and not message:
            message = TOO_LONG.encode()
        return await super().close(code=code, message=message, drain=drain)


class FrameMeter:
    """A guest's frames against the bounds: the reason to close its stream, or None."""

    def __init__(self, clock=time.monotonic):
        self.clock = clock
        self.recent: deque[float] = deque()
        self.started: float | None = None
        self.audio_s = 0.0

    def check(self, size: int) -> str | None:
        now = self.clock()
        if size == 0 or size % 2:
            return "A frame must hold whole 16-bit samples (16 kHz mono PCM)."
        if size > MAX_FRAME_BYTES:
            return TOO_LONG
        self.recent.append(now)
        while self.recent[0] <= now - 1.0:
            self.recent.popleft()
        if len(self.recent) > MAX_FRAMES_PER_S:
            return f"Too many frames: at most {MAX_FRAMES_PER_S} a second."
        if self.started is None:
            self.started = now
        self.audio_s += size / BYTES_PER_S
        if self.audio_s > now - self.started + BURST_S:
            return "Audio arrives faster than it can be spoken: send 16 kHz audio as it is recorded."
        return None


@dataclass(eq=False)
class Guest:
    id: int
    name: str
    peer: str
    place: GuestPlace
    socket: web.WebSocketResponse
    muted: bool = False
    talking: bool = False  # frames came since the last pause
    meter: FrameMeter = field(default_factory=FrameMeter)


def guest_name(text: str | None, number: int) -> str:
    """What the guest typed, letters, digits, spaces and . - ' _ only (it goes into transcripts,
    subtitles and pages: no markup, no "-->", no line breaks), at most MAX_NAME; "Guest N" when
    nothing is left."""
    spaced = "".join(" " if c.isspace() else c for c in (text or ""))
    kept = "".join(c for c in spaced if unicodedata.category(c)[0] in "LNM" or c in " .-'_")
    return " ".join(kept.split())[:MAX_NAME] or f"Guest {number}"


class GuestSpeech:
    """The speaking link: its key, its places, the guests speaking. Runs on the caption server's loop;
    mute()/remove()/speaking() may be called from any thread."""

    def __init__(
        self, places: Sequence[GuestPlace], key: str | None = None, port: int = 0, tls_folder: Path | None = None
    ):
        """places: one per guest who may speak at once; port: the TLS port (0: any free one);
        tls_folder: where the certificate is kept (default: app.shared.paths.tls_dir())."""
        self.key = key or secrets.token_urlsafe(16)
        self.port = port  # the real one once listening
        self.tls_folder = tls_folder
        self.ssl_context = None  # loaded by prepare()
        self.free: list[GuestPlace] = list(places)
        self.max_speaking = len(self.free)
        self.guests: dict[int, Guest] = {}
        self.refused = 0  # streams closed for breaking a bound, or refused for want of a place
        self.stalls = 0  # pauses made because a stream still open sent nothing for STALL_S
        self._numbers = itertools.count(1)
        self._loop: asyncio.AbstractEventLoop | None = None

    def prepare(self, addresses: tuple[str, ...]) -> None:
        """Load (or make, the first time) the certificate, before the server's thread starts:
        LiveTranslatorError when it cannot be used."""
        self.ssl_context = ssl_context(self.tls_folder, addresses)

    def url(self, host: str) -> str:
        """The speaking link as guests open it: HTTPS, the speaking key."""
        return f"https://{host}:{self.port}/?key={self.key}"

    def allows(self, given: str | None) -> bool:
        return bool(given) and secrets.compare_digest(given.encode(), self.key.encode())

    def speaking(self) -> list[dict]:
        """The guests with a place now, for the host: id, name, peer, muted."""
        return [{"id": g.id, "name": g.name, "peer": g.peer, "muted": g.muted} for g in list(self.guests.values())]

    def mute(self, guest_id: int, muted: bool = True) -> None:
        self._on_loop(self._set_muted, guest_id, muted)

    def remove(self, guest_id: int) -> None:
        self._on_loop(self._remove, guest_id)

    def _on_loop(self, call, *args) -> None:
        if self._loop is not None:
            try:
                self._loop.call_soon_threadsafe(call, *args)
            except RuntimeError:  # the server has stopped
                pass

    def _set_muted(self, guest_id: int, muted: bool) -> None:
        guest = self.guests.get(guest_id)
        if guest is not None:
            guest.muted = muted
            self._pause(guest)

    def _remove(self, guest_id: int) -> None:
        guest = self.guests.get(guest_id)
        if guest is not None:
            asyncio.ensure_future(guest.socket.close(code=CLOSE_REMOVED, message=b"The host removed you."))

    async def start_site(self, runner: web.AppRunner, host: str) -> None:
        """Listen with TLS beside the viewing port (on the server's loop)."""
        self._loop = asyncio.get_running_loop()
        site = web.TCPSite(runner, host, self.port, ssl_context=self.ssl_context, reuse_address=True)
        await site.start()
        self.port = runner.addresses[-1][1]  # this site's, the last started: the real port when 0 was asked

    async def handle(self, request: web.Request) -> web.StreamResponse:
        """GET /speak: a guest's audio stream (a WebSocket), or a refusal."""
        if not request.secure:
            return web.Response(status=403, text="Guest speech is taken over HTTPS only: open the speaking link.")
        if not self.allows(request.query.get("key")):
            return web.Response(
                status=403, text="This link may view captions, not speak: ask the host for the speaking link."
            )
        socket = _GuestSocket(max_msg_size=MAX_FRAME_BYTES + 1, autoping=True, heartbeat=None)
        await socket.prepare(request)
        if not self.free:
            self.refused += 1
            reason = f"All {self.max_speaking} speaking places are taken; try again when someone stops."
            await socket.close(code=CLOSE_TRY_LATER, message=reason.encode())
            return socket
        number = next(self._numbers)
        guest = Guest(
            number, guest_name(request.query.get("name"), number), request.remote or "?", self.free.pop(), socket
        )
        guest.place.speaker_name = guest.name
        self.guests[guest.id] = guest
        log.info("captions: guest %d (%s) speaks from %s", guest.id, guest.name, guest.peer)
        try:
            await self._listen(guest)
        finally:
            self._pause(guest)
            del self.guests[guest.id]
            self.free.append(guest.place)
            log.info("captions: guest %d stopped speaking", guest.id)
        return socket

    async def _listen(self, guest: Guest) -> None:
        socket = guest.socket
        while not socket.closed:
            try:
                message = await socket.receive(timeout=STALL_S)
            except TimeoutError:
                if guest.talking:  # nothing for a while: what was said is finalised
                    self.stalls += 1
                    log.info("captions: guest %d sent nothing for %.1f s", guest.id, STALL_S)
                self._pause(guest)
                continue
            if message.type is WSMsgType.BINARY:
                problem = guest.meter.check(len(message.data))
                if problem is not None:
                    await self._refuse(guest, CLOSE_POLICY, problem)
                    return
                if not guest.muted:
                    guest.place.feed(message.data)
                    guest.talking = True
            elif message.type is WSMsgType.TEXT:
                await self._refuse(guest, CLOSE_UNSUPPORTED, "Send audio as binary frames of 16 kHz mono 16-bit PCM.")
                return
            else:  # closed by the page, or a frame aiohttp refused (too long, not WebSocket)
                if message.type is WSMsgType.ERROR:
                    self.refused += 1
                    log.warning("captions: guest %d's stream failed: %s", guest.id, message.data)
                return

    async def _refuse(self, guest: Guest, code: int, reason: str) -> None:
        self.refused += 1
        log.warning("captions: closed guest %d's stream: %s", guest.id, reason)
        await guest.socket.close(code=code, message=reason.encode())

    @staticmethod
    def _pause(guest: Guest) -> None:
        if guest.talking:
            guest.talking = False
            guest.place.end_turn()
