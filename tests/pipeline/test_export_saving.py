"""Exports are files people keep (issue 35): `export --out` replaces an earlier export in one
step, so a full disk leaves it byte for byte and says nothing was written; the window's
Export… writes through the same writer (subtitles.write_export)."""

from __future__ import annotations

import contextlib
import errno
import os
import subprocess
import sys
from pathlib import Path

import pytest

from app.pipeline.subtitles import write_export
from app.pipeline.transcript import Transcript
from app.shared import files
from app.shared.errors import LiveTranslatorError
from app.shared.events import SourceFinal, Translation

REPO = Path(__file__).resolve().parents[2]
EARLIER = "Welcome to the meeting.\n欢迎参加会议。\n\n(my own notes, added by hand)\n".encode()


def session(path: Path) -> Path:
    transcript = Transcript(path)
    for uid in range(40):
        source = f"Sentence number {uid} of a long meeting."
        transcript.record(
            SourceFinal(utterance_id=uid, text=source, start=uid * 2.0, end=uid * 2 + 1.5, speech_end_at=0)
        )
        transcript.record(
            Translation(
                utterance_id=uid,
                source=source,
                text=f"第{uid}句。",
                provisional=False,
                direction="en-zh",
                latency_ms=1.0,
            )
        )
    transcript.close()
    return path


def test_a_failed_export_leaves_an_earlier_one_as_it_was(tmp_path, monkeypatch):
    out = tmp_path / "meeting.txt"
    out.write_bytes(EARLIER)

    def half_then_full(fd, data):
        os.write(fd, bytes(data[: len(data) // 2]))
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(files, "_write_all", half_then_full)
    with pytest.raises(LiveTranslatorError) as refused:
        write_export(out, "a new export\n" * 100)
    assert out.read_bytes() == EARLIER and sorted(p.name for p in tmp_path.iterdir()) == ["meeting.txt"]
    assert "Cannot write" in refused.value.message and "No space left" in refused.value.message
    assert "a file already there is as it was" in refused.value.hint


@contextlib.contextmanager
def tiny_disk(folder: Path):
    folder.mkdir()
    if os.geteuid() != 0:
        pytest.skip("a full disk needs a tmpfs, which only root may mount here (the ENOSPC test above runs anyway)")
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(folder)], capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"running as root without mount rights, so no tmpfs can be made: {done.stderr!r}")
    try:
        yield folder
    finally:
        subprocess.run(["umount", str(folder)], check=True)


def test_export_out_onto_a_full_disk_says_so_and_keeps_the_earlier_export(tmp_path):
    transcript = session(tmp_path / "session.jsonl")
    with tiny_disk(tmp_path / "disk") as disk:
        out = disk / "meeting.srt"
        out.write_bytes(EARLIER)
        with contextlib.suppress(OSError), open(disk / "filler", "wb") as filler:
            while True:
                filler.write(b"x" * 4096)
                filler.flush()
        args = [sys.executable, "-m", "app", "export", str(transcript), "--format", "srt", "--out", str(out)]
        done = subprocess.run(args, cwd=REPO, capture_output=True, text=True, timeout=60)
        assert done.returncode == 2 and "No space left on device" in done.stderr and "Traceback" not in done.stderr
        assert out.read_bytes() == EARLIER and sorted(p.name for p in disk.iterdir()) == ["filler", "meeting.srt"]
        (disk / "filler").unlink()
        done = subprocess.run(args, cwd=REPO, capture_output=True, text=True, timeout=60)
        assert done.returncode == 0 and out.read_text(encoding="utf-8").startswith("1\n00:00:00,000 --> ")
