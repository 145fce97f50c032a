"""A stand-in for the Hugging Face Hub on 127.0.0.1, serving repos from a local folder.

It answers what huggingface_hub 0.36's hf_hub_download asks (HEAD then GET on
/{owner}/{name}/resolve/{revision}/{path}) with the headers it reads: X-Repo-Commit, ETag,
Content-Length, and 206 partial content for Range requests (resuming). Unknown repos and files
get 404 with the X-Error-Code the real hub sends (RepoNotFound / EntryNotFound).
`requests` records (method, path, Range) so tests can see what was asked.
"""

from __future__ import annotations

import hashlib
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote

COMMIT = "0123456789abcdef0123456789abcdef01234567"


def served_revisions() -> set[str]:
    """What the stand-in answers to: main, its own commit, and the commits the catalog pins
    (it plays the hub at those commits, holding the fixture models)."""
    from app.model_store import catalog

    return {"main", COMMIT, *catalog.PINNED.values()}


class LocalHub:
    def __init__(self, root: Path):
        self.root = root  # root/<owner>/<name>/<files>
        self.requests: list[tuple[str, str, str | None]] = []
        self.fail_after_bytes: int | None = None  # cut the next longer GET after this many bytes
        self.revisions = served_revisions()  # fixed when made: a pin a test changes later is not served
        hub = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):  # keep pytest output clean
                pass

            def do_HEAD(self):
                hub._serve(self, body=False)

            def do_GET(self):
                hub._serve(self, body=True)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.timeout = 5
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def sizes_to_pin(self) -> dict[tuple[str, str], int]:
        """The catalog's recorded sizes as this stand-in holds them: it serves the fixture
        models, not the real weights, so while it runs the catalog records their sizes."""
        from app.model_store import catalog

        return {
            (repo, path): (self.root / repo / path).stat().st_size
            for repo, path in catalog.PINNED_SIZES
            if (self.root / repo / path).is_file()
        }

    def __enter__(self):
        from app.model_store import catalog

        self._real_sizes, catalog.PINNED_SIZES = catalog.PINNED_SIZES, self.sizes_to_pin()
        self.thread.start()
        return self

    def __exit__(self, *exc):
        from app.model_store import catalog

        catalog.PINNED_SIZES = self._real_sizes
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=5)

    def _serve(self, handler: BaseHTTPRequestHandler, body: bool) -> None:
        path = unquote(handler.path.split("?")[0]).lstrip("/")
        self.requests.append((handler.command, path, handler.headers.get("Range")))
        parts = path.split("/")
        if len(parts) < 5 or parts[2] != "resolve":
            return self._error(handler, 404, "RepoNotFound")
        repo_dir = self.root / parts[0] / parts[1]
        if not repo_dir.is_dir():
            return self._error(handler, 404, "RepoNotFound")
        if parts[3] not in self.revisions:
            return self._error(handler, 404, "RevisionNotFound")
        file = repo_dir.joinpath(*parts[4:])
        if not file.is_file() or repo_dir.resolve() not in file.resolve().parents:
            return self._error(handler, 404, "EntryNotFound")
        data = file.read_bytes()
        start = 0
        ranged = handler.headers.get("Range")
        if ranged and ranged.startswith("bytes="):
            start = int(ranged[len("bytes=") :].split("-")[0] or 0)
        handler.send_response(206 if start else 200)
        handler.send_header("X-Repo-Commit", COMMIT)
        handler.send_header("ETag", f'"{hashlib.sha256(data).hexdigest()}"')
        handler.send_header("Accept-Ranges", "bytes")
        handler.send_header("Content-Length", str(len(data) - start))
        if start:
            handler.send_header("Content-Range", f"bytes {start}-{len(data) - 1}/{len(data)}")
        handler.end_headers()
        if not body:
            return
        chunk = data[start:]
        if self.fail_after_bytes is not None and len(chunk) > self.fail_after_bytes:
            limit, self.fail_after_bytes = self.fail_after_bytes, None
            handler.wfile.write(chunk[:limit])
            handler.wfile.flush()
            handler.close_connection = True
            handler.connection.shutdown(2)  # the network goes away mid-file
            return
        handler.wfile.write(chunk)

    def _error(self, handler: BaseHTTPRequestHandler, status: int, code: str) -> None:
        message = f"{code}: {handler.path}".encode()
        handler.send_response(status)
        handler.send_header("X-Error-Code", code)
        handler.send_header("X-Error-Message", code)
        handler.send_header("Content-Length", str(len(message)))
        handler.end_headers()
        if handler.command != "HEAD":
            handler.wfile.write(message)
