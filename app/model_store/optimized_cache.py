"""The optimiser's cache entries (app.model_store.optimized): one folder per source, under
cache_dir()/optimized/<key>/, holding the rewritten graphs and a record of the decision.

An entry is made under a temporary name and renamed into place whole; its record names every
file it holds with its size, a SHA-256 and a hash of blocks sampled across the file. Each load
checks the sizes and the samples (a few MiB read, whatever the model's size); `models doctor`
checks the full checksums (check_entry). One first load of an entry runs at a time: a thread
lock per key in this process, a lock file per entry across processes.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import stat as stat_mode
import threading
from dataclasses import dataclass, field
from pathlib import Path

from filelock import FileLock

from app.shared import files as careful
from app.shared.errors import LiveTranslatorError
from app.shared.paths import cache_dir
from app.translation.folder import model_root

# Of the rewrites and of the record: a change re-optimises every model (2: tied embedding stored
# once; 3: an int8 twin's tied head reads the embedding's int8 table, or the record lists each
# file's size and checksums, made on two branches; 4: both).
VERSION = 4
RECORD = "optimized.json"
RECORD_LIMIT = 1 << 20
SAMPLE_BLOCKS, SAMPLE_BYTES = 64, 64 << 10  # the per-load check: 64 blocks of 64 KiB spread over each file
LOCK_WAIT_S = 600.0  # another process's first load of the same folder (minutes for a large model)
_locks: dict[str, threading.Lock] = {}
_locks_guard = threading.Lock()


@dataclass
class Preparation:
    """What `prepare` found: the optimised graphs to load instead of the folder's, or why none."""

    graphs: dict[str, Path] = field(default_factory=dict)  # stem -> optimised copy; empty: the folder's own
    reason: str = ""  # why the folder's own graphs are used ("" when optimised)
    reused: bool = False  # taken from the cache: nothing was rewritten this time
    entry: Path | None = None  # the cache entry

    @property
    def optimized(self) -> bool:
        return bool(self.graphs)


def optimized_root() -> Path:
    return cache_dir() / "optimized"


def keep_decision(
    entry: Path, graphs: dict[str, Path], rewritten: dict[str, Path], reason: str, work: Path | None = None
) -> Preparation:
    """Keep the decision (optimised graphs, or the reason not to) in the cache entry: written
    under a temporary name, then renamed into place whole (the caller holds the entry's lock)."""
    target = work or entry.with_name(f"{entry.name}.partial-{os.getpid()}-{threading.get_ident()}")
    target.mkdir(parents=True, exist_ok=True)
    files = {p.name: _file_record(p) for p in sorted(target.iterdir()) if p.is_file()}
    record = {
        "version": VERSION,
        "sources": {stem: str(path) for stem, path in graphs.items()},
        "graphs": {stem: path.name for stem, path in rewritten.items()},
        "files": files,
        "reason": reason,
    }
    (target / RECORD).write_text(json.dumps(record, indent=1), encoding="utf-8")
    _forget_older(entry, graphs)
    shutil.rmtree(entry, ignore_errors=True)  # a damaged entry (a whole one was found and returned)
    try:
        target.rename(entry)
    except OSError:  # another process finished first (a cache without the lock): use its entry
        shutil.rmtree(target, ignore_errors=True)
        return read_record(entry, graphs)[0] or Preparation(reason=reason or "the cache could not be written")
    return Preparation(
        graphs={stem: entry / name for stem, name in record["graphs"].items()}, reason=reason, entry=entry
    )


def read_record(entry: Path, graphs: dict[str, Path]) -> tuple[Preparation | None, str]:
    """The entry's decision when the entry is whole, else (None, what is wrong with it)."""
    try:
        record = careful.read_json(entry / RECORD, RECORD_LIMIT)
    except (OSError, ValueError, LiveTranslatorError) as error:
        return None, f"its record cannot be read ({type(error).__name__})"
    if not isinstance(record, dict) or record.get("version") != VERSION:
        return None, "its record is from another version"
    names, files = record.get("graphs"), record.get("files")
    if not isinstance(names, dict) or not isinstance(files, dict) or not (names or record.get("reason")):
        return None, "its record is incomplete"
    if not all(isinstance(n, str) and n in files for n in names.values()):
        return None, "its record names a graph it does not list"
    damage = next(filter(None, (_file_damage(entry, name, want) for name, want in files.items())), "")
    if damage:
        return None, damage
    made = {stem: entry / name for stem, name in names.items()}
    return Preparation(graphs=made, reason=str(record.get("reason", "")), reused=True, entry=entry), ""


def check_entry(entry: Path) -> str:
    """'' when every file of a cache entry has its recorded size and full SHA-256, else what is
    wrong (`models doctor`: the whole files are read, unlike on each load)."""
    found, damage = read_record(entry, {})
    if found is None:
        return damage
    files = careful.read_json(entry / RECORD, RECORD_LIMIT)["files"]
    for name, want in files.items():
        if _sha256(entry / name) != want.get("sha256"):
            return f"{name} is not the file that was written (its checksum differs)"
    return ""


def entries_for(folder: Path | str) -> list[Path]:
    """The cache entries made from the graphs of `folder`."""
    root = model_root(folder).resolve()
    found = []
    for entry in sorted(optimized_root().glob("*")):
        try:
            sources = careful.read_json(entry / RECORD, RECORD_LIMIT).get("sources", {})
        except (OSError, ValueError, AttributeError, LiveTranslatorError):
            continue
        if isinstance(sources, dict) and any(Path(str(s)).resolve().is_relative_to(root) for s in sources.values()):
            found.append(entry)
    return found


def _file_damage(entry: Path, name: object, want: object) -> str:
    """'' when entry/name is a regular file inside the entry with the recorded size and samples."""
    if not isinstance(name, str) or Path(name).name != name or name in ("", ".", "..") or not isinstance(want, dict):
        return f"its record names {name!r}, which is not a file of the entry"
    path = entry / name
    try:
        info = path.lstat()
    except OSError:
        return f"{name} is missing"
    if not stat_mode.S_ISREG(info.st_mode):
        return f"{name} is not a regular file"
    if info.st_size != want.get("size"):
        return f"{name} has {info.st_size} bytes, not the {want.get('size')} written"
    if _sampled_sha256(path, info.st_size) != want.get("sampled"):
        return f"{name} is not the file that was written"
    return ""


def _file_record(path: Path) -> dict:
    size = path.stat().st_size
    return {"size": size, "sha256": _sha256(path), "sampled": _sampled_sha256(path, size)}


def _sha256(path: Path) -> str:
    with path.open("rb") as f:
        return hashlib.file_digest(f, "sha256").hexdigest()


def _sampled_sha256(path: Path, size: int) -> str:
    """SHA-256 of SAMPLE_BLOCKS blocks spread evenly from the file's start to its end (the whole
    file when it is small): an overwrite or a cut anywhere but in a few bytes changes it."""
    digest = hashlib.sha256()
    with path.open("rb") as f:
        if size <= SAMPLE_BLOCKS * SAMPLE_BYTES:
            digest.update(f.read())
            return digest.hexdigest()
        step = (size - SAMPLE_BYTES) / (SAMPLE_BLOCKS - 1)
        for n in range(SAMPLE_BLOCKS):
            f.seek(int(n * step))
            digest.update(f.read(SAMPLE_BYTES))
    return digest.hexdigest()


def _forget_older(entry: Path, graphs: dict[str, Path]) -> None:
    """Remove entries made from an earlier version of the same files (the source changed)."""
    sources = {stem: str(path) for stem, path in graphs.items()}
    for other in entry.parent.glob("*"):
        if other == entry or ".partial-" in other.name or not other.is_dir():
            continue
        try:
            if careful.read_json(other / RECORD, RECORD_LIMIT).get("sources") == sources:
                shutil.rmtree(other, ignore_errors=True)
        except (OSError, ValueError, LiveTranslatorError):
            continue


def process_lock(entry: Path):
    """A lock file for the entry, held while the entry is checked or made (filelock: flock
    on POSIX, msvcrt on Windows; released by the OS if the process dies)."""
    locks = cache_dir() / "optimized.locks"  # beside the entries, not among them (a lock file is never removed)
    locks.mkdir(parents=True, exist_ok=True)
    entry.parent.mkdir(parents=True, exist_ok=True)
    lock = FileLock(locks / f"{entry.name}.lock", timeout=LOCK_WAIT_S)
    lock.acquire()  # here, so that an unwritable cache shows as OSError to the caller
    return lock


def thread_lock(key: str) -> threading.Lock:
    with _locks_guard:
        return _locks.setdefault(key, threading.Lock())
