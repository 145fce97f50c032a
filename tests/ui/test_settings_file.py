"""settings.ini that is no settings file (issue 35): a FIFO hung the window before it appeared
(Qt's settings constructor blocked reading it). The careful reader checks the file before
QSettings opens it: a FIFO, a link to a device, a folder or a huge file is set aside with a
warning and the window opens with the defaults. And a full disk leaves settings.ini whole."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings

from app.ui.settings import UiSettings, load_settings, qsettings, save_settings, take_settings_problem

REPO = Path(__file__).resolve().parents[2]


def window_env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("LIVE_TRANSLATOR_")}
    env.update(LIVE_TRANSLATOR_HOME=str(home), LIVE_TRANSLATOR_QUIT_AFTER_MS="2000", QT_QPA_PLATFORM="offscreen")
    return env


def test_the_window_opens_with_the_defaults_when_settings_ini_is_a_fifo(tmp_path):
    home = tmp_path / "home"
    (home / "settings").mkdir(parents=True)
    fifo = home / "settings" / "settings.ini"
    os.mkfifo(fifo)
    done = subprocess.run(
        [sys.executable, "-m", "app"], cwd=REPO, env=window_env(home), capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr  # it used to hang in QSettings' constructor, silently
    assert "settings: " in done.stderr and "named pipe (FIFO)" in done.stderr and "Traceback" not in done.stderr
    aside = [p for p in (home / "settings").iterdir() if p.name.startswith("settings.ini.unusable-")]
    assert len(aside) == 1 and aside[0].is_fifo()  # kept, never opened
    saved = QSettings(str(fifo), QSettings.Format.IniFormat)  # the window saved its settings in a real file now
    assert fifo.is_file() and saved.value("direction") == "en-zh"


@pytest.mark.parametrize("kind", ["fifo", "link to /dev/zero", "folder", "huge file"])
def test_each_kind_of_unusable_settings_file_is_set_aside_with_a_reason(tmp_path, monkeypatch, kind):
    monkeypatch.setenv("LIVE_TRANSLATOR_SETTINGS", str(tmp_path))
    path = tmp_path / "settings.ini"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "folder":
        path.mkdir()
    elif kind == "huge file":
        with open(path, "wb") as f:
            f.truncate(2 << 30)  # sparse: 2 GB that QSettings would read whole
    else:
        path.symlink_to("/dev/zero")
    assert load_settings(qsettings()) == UiSettings()
    problem = take_settings_problem()
    assert problem is not None and take_settings_problem() is None  # said once
    reason = {"fifo": "named pipe", "link to /dev/zero": "character device", "folder": "folder", "huge file": "2.1 GB"}
    assert reason[kind] in problem.message and "default settings" in problem.hint
    assert "settings.ini.unusable-" in problem.hint
    assert not path.exists() or path.is_file()


def test_an_ordinary_settings_file_is_read_as_before(tmp_path, monkeypatch):
    monkeypatch.setenv("LIVE_TRANSLATOR_SETTINGS", str(tmp_path))
    (tmp_path / "settings.ini").write_text("[General]\ndirection=zh-en\n", encoding="utf-8")
    assert load_settings(qsettings()).direction == "zh-en" and take_settings_problem() is None
    assert [p.name for p in tmp_path.iterdir()] == ["settings.ini"]


def test_a_settings_file_that_cannot_be_moved_aside_still_opens_the_window_with_defaults(tmp_path, monkeypatch):
    monkeypatch.setenv("LIVE_TRANSLATOR_SETTINGS", str(tmp_path))
    os.mkfifo(tmp_path / "settings.ini")

    def refuse(*_):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(os, "rename", refuse)
    store = qsettings()
    assert Path(store.fileName()) != tmp_path / "settings.ini" and load_settings(store) == UiSettings()
    problem = take_settings_problem()
    assert "named pipe" in problem.message and "last until it closes" in problem.hint


@contextlib.contextmanager
def full_disk(folder: Path):
    folder.mkdir()
    if os.geteuid() != 0:
        pytest.skip("a full disk needs a tmpfs, which only root may mount here")
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(folder)], capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"running as root without mount rights, so no tmpfs can be made: {done.stderr!r}")
    try:
        yield folder
    finally:
        subprocess.run(["umount", str(folder)], check=True)


def test_settings_saved_onto_a_full_disk_leave_the_file_whole(tmp_path):
    with full_disk(tmp_path / "disk") as disk:
        path = disk / "settings.ini"
        store = QSettings(str(path), QSettings.Format.IniFormat)
        assert save_settings(UiSettings(direction="zh-en", voice_en="a" * 8000), store)
        before = path.read_bytes()
        with contextlib.suppress(OSError), open(disk / "filler", "wb") as filler:
            while True:
                filler.write(b"x" * 4096)
                filler.flush()
        again = QSettings(str(path), QSettings.Format.IniFormat)
        assert not save_settings(UiSettings(direction="en-zh", voice_en="b" * 8000), again)  # said: not saved
        assert path.read_bytes() == before  # QSettings writes through a file renamed over it (QSaveFile)


def test_the_window_says_its_settings_file_was_set_aside(qtbot, tmp_path):
    from app.shared.paths import settings_dir
    from app.ui.main_window import MainWindow

    settings_dir().mkdir(parents=True, exist_ok=True)
    os.mkfifo(settings_dir() / "settings.ini")
    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    assert window.alert.isVisible() and "FIFO" in window.alert.message
    assert take_settings_problem() is None  # said once
