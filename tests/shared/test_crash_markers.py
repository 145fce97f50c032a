"""Crash markers (app/shared/crash_trace.py) read as carefully as settings.ini (issue 42): a
marker that is not an ordinary file of the marker's shape is set aside and said, never stopping
the start; the app deletes only files it made, in its own folder; a log folder that cannot be
written still has its earlier crashes reported, and says that tracing is off.

The FIFO and /dev/zero cases run `begin()` in a child process with a memory limit and a timeout:
the old code hung on the FIFO and read /dev/zero until memory ran out."""

from __future__ import annotations

import builtins
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from app.shared.crash_trace import CrashTrace, saved_sentences

ROOT = Path(__file__).resolve().parents[2]
BEGIN_IN_A_CHILD = textwrap.dedent("""
    import resource, sys
    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, resource.RLIM_INFINITY))
    from pathlib import Path
    from app.shared.crash_trace import CrashTrace
    trace = CrashTrace(Path(sys.argv[1]))
    print(len(trace.begin()), flush=True)
    for problem in trace.problems:
        print(problem.message, flush=True)
    trace.end()
""")


def dead_marker(folder: Path, name: str = "session-1.json", **fields) -> Path:
    """A marker as a run that ended unexpectedly leaves it: its process (a real one) is gone."""
    gone = subprocess.Popen(["true"])
    gone.wait()
    record = {"pid": gone.pid, "process_started": 0.0, "started": "2026-11-28T05:00:00+00:00"}
    record |= {"crash_log": None, "transcript": None} | fields
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(json.dumps(record), encoding="utf-8")
    return path


def begin_in_a_child(folder: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-c", BEGIN_IN_A_CHILD, str(folder)], capture_output=True, text=True, timeout=20, env=env
    )


@pytest.mark.parametrize("content", ["[]", "{", "null", '{"pid": "12", "process_started": 0, "started": "x"}'])
def test_a_marker_of_the_wrong_shape_is_set_aside_and_said(tmp_path, content):
    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / "session-7.json").write_text(content, encoding="utf-8")
    trace = CrashTrace(logs)
    assert trace.begin() == []
    assert trace.marker is not None  # this run is traced all the same
    assert len(trace.problems) == 1 and "session-7.json" in trace.problems[0].message
    assert not (logs / "session-7.json").exists() and (logs / "session-7.json.unusable").read_text() == content
    trace.end()
    assert CrashTrace(logs).begin() == []  # set aside: not said again


def test_a_fifo_marker_does_not_hang_the_start(tmp_path):
    logs = tmp_path / "logs"
    logs.mkdir()
    os.mkfifo(logs / "session-8.json")
    done = begin_in_a_child(logs)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "named pipe (FIFO)" in done.stdout and (logs / "session-8.json.unusable").exists()


def test_a_marker_linked_to_dev_zero_is_not_read(tmp_path):
    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / "session-9.json").symlink_to("/dev/zero")
    done = begin_in_a_child(logs)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "character device" in done.stdout
    assert os.path.exists("/dev/zero")  # a link moved aside, never its target


def test_a_huge_marker_is_refused_before_it_is_read(tmp_path):
    logs = tmp_path / "logs"
    marker = dead_marker(logs)
    with open(marker, "a") as f:
        f.truncate(100 << 20)
    trace = CrashTrace(logs)
    assert trace.begin() == [] and "session-1.json" in trace.problems[0].message
    trace.end()


def test_a_crash_log_named_outside_the_log_folder_is_neither_named_nor_deleted(tmp_path):
    logs = tmp_path / "logs"
    precious = tmp_path / "precious.txt"
    precious.write_text("")  # empty, as a killed run's crash log would be
    same_name_elsewhere = tmp_path / "crash-20261128-050000-1.log"
    same_name_elsewhere.write_text("")
    dead_marker(logs, "session-1.json", crash_log=str(precious))
    dead_marker(logs, "session-2.json", crash_log=str(same_name_elsewhere))
    dead_marker(logs, "session-3.json", crash_log=str(logs / ".." / "precious.txt"))
    trace = CrashTrace(logs)
    ended = trace.begin()
    assert len(ended) == 3 and all(end.crash_log is None for end in ended)
    trace.told = ended
    trace.end()  # told and consumed: their markers go
    assert precious.exists() and same_name_elsewhere.exists()
    assert not list(logs.glob("session-*.json"))


def test_a_killed_runs_empty_crash_log_goes_with_its_marker_once_told(tmp_path):
    logs = tmp_path / "logs"
    log = logs / "crash-20261128-050000-1.log"
    dead_marker(logs, crash_log=str(log))
    log.write_text("")
    trace = CrashTrace(logs)
    ended = trace.begin()
    assert len(ended) == 1 and ended[0].crash_log is None
    assert log.exists()  # not yet told
    trace.consume(ended)
    assert not log.exists() and not (logs / "session-1.json").exists()


def refuse_writes_in(folder: Path, monkeypatch) -> None:
    """A folder this process cannot write to. File modes would do for a user, but root (as CI
    runs) ignores them: then opening a file there for writing fails, as the kernel would refuse it."""
    if os.geteuid() != 0:
        folder.chmod(0o555)
        return
    real_open, real_builtin_open = os.open, builtins.open

    def refused(path) -> PermissionError:
        return PermissionError(13, "Permission denied", str(path))

    def os_open(path, flags, *args, **kwargs):
        if flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT) and Path(path).parent == folder:
            raise refused(path)
        return real_open(path, flags, *args, **kwargs)

    def builtin_open(path, mode="r", *args, **kwargs):
        if set(mode) & set("wax+") and isinstance(path, (str, os.PathLike)) and Path(path).parent == folder:
            raise refused(path)
        return real_builtin_open(path, mode, *args, **kwargs)

    monkeypatch.setattr(os, "open", os_open)
    monkeypatch.setattr(builtins, "open", builtin_open)


def test_a_read_only_log_folder_still_reports_an_earlier_crash_and_says_tracing_is_off(tmp_path, monkeypatch):
    logs = tmp_path / "logs"
    log = logs / "crash-20261128-050000-1.log"
    dead_marker(logs, crash_log=str(log))
    log.write_text("Fatal Python error: Segmentation fault\n")
    refuse_writes_in(logs, monkeypatch)
    trace = CrashTrace(logs)
    ended = trace.begin()
    assert len(ended) == 1 and ended[0].crash_log == log
    assert trace.marker is None
    assert len(trace.problems) == 1 and "Crash tracing is off" in trace.problems[0].message
    assert "Permission denied" in trace.problems[0].message
    trace.end()


def test_a_log_folder_that_is_a_file_says_tracing_is_off(tmp_path):
    logs = tmp_path / "logs"
    logs.write_text("not a folder")
    trace = CrashTrace(logs)
    assert trace.begin() == []
    assert "Crash tracing is off" in trace.problems[0].message and "it is a file" in trace.problems[0].message
    trace.end()
    assert logs.read_text() == "not a folder"


def test_what_a_transcript_holds_on_the_disk_is_counted(tmp_path):
    transcript = tmp_path / "t.jsonl"
    assert saved_sentences(transcript) is None
    transcript.write_text("")
    assert saved_sentences(transcript) == 0
    lines = [{"type": "final", "utterance_id": i, "text": "Hi."} for i in (1, 2, 2)]
    transcript.write_text("".join(json.dumps(line) + "\n" for line in lines) + '{"type": "fin')
    assert saved_sentences(transcript) == 2  # a redo's second final is the same sentence; a line cut short is none
    fifo = tmp_path / "fifo.jsonl"
    os.mkfifo(fifo)
    assert saved_sentences(fifo) is None
