"""What the caption server answers, apart from the live updates (app.captions.pages): the
page's files, /transcript as JSON or a download, the query options both data paths take, and
plain-text refusals. Also the logger aiohttp reports malformed requests to.

The page's files are read from resources/captions/ once, at start, by an allow-list of exact
paths: a request path is never joined onto a folder, so nothing else on disk can be served.
"""

from __future__ import annotations

import asyncio
import json
import logging
import mimetypes
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from aiohttp import web
from aiohttp.http_exceptions import HttpProcessingError

from app.captions.state import Captions, in_script
from app.shared import paths
from app.shared.chinese import CHINESE_SCRIPTS, ChineseScript
from app.shared.errors import QT_TRANSLATE_NOOP, LiveTranslatorError

log = logging.getLogger("app.captions.server")  # one logger for the server's lines, as before the split

# Exact request paths -> (file under resources/captions/, content type). Nothing else is served.
ASSETS = {
    "/": ("index.html", "text/html; charset=utf-8"),
    "/captions.js": ("captions.js", "text/javascript; charset=utf-8"),
    "/captions-words.js": ("captions-words.js", "text/javascript; charset=utf-8"),
    "/captions.css": ("captions.css", "text/css; charset=utf-8"),
    "/speak.js": ("speak.js", "text/javascript; charset=utf-8"),  # the Speak button (guest speech)
    "/speak-worklet.js": ("speak-worklet.js", "text/javascript; charset=utf-8"),  # its AudioWorklet
}
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


def asset_response(asset: tuple[bytes, str]) -> web.Response:
    body, content_type = asset
    return web.Response(body=body, headers={**HEADERS, "Content-Type": content_type})


async def transcript_response(
    captions: Captions, writers: Mapping[str, SubtitleWriter], options: DataOptions
) -> web.Response:
    """/transcript: the session so far as JSON, or a download."""
    snapshot = captions.snapshot()
    if options.script is None and options.format is None:
        return _json(snapshot)
    # Converting and writing up to MAX_CAPTIONS captions takes a while: off the loop, on copies
    # (the loop goes on changing its captions meanwhile).
    copies = [dict(c) for c in snapshot["captions"]]
    snapshot["captions"] = await asyncio.get_running_loop().run_in_executor(
        None, lambda: [options.converted(c) for c in copies]
    )
    if options.format is None:
        return _json(snapshot)
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


def _json(document: dict) -> web.Response:
    return web.Response(
        body=json.dumps(document, ensure_ascii=False).encode(), content_type="application/json", headers=HEADERS
    )


def plain(status: int, text: str, headers: dict | None = None) -> web.Response:
    return web.Response(status=status, text=text, headers={**HEADERS, **(headers or {})})


class RequestFaults:
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
