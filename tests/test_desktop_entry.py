"""Linux desktop integration (app/desktop_entry.py): `python -m app desktop` writes an entry that
Debian's desktop-file-validate (desktop-file-utils, installed by `setup.sh test`) accepts and an
icon the icon theme finds, into a temporary XDG_DATA_HOME; `--remove` (`./setup.sh uninstall`)
takes exactly those away again."""

from __future__ import annotations

import configparser
import os
import shlex
import subprocess
import sys
from pathlib import Path

from app.desktop_entry import exec_line

ROOT = Path(__file__).resolve().parents[1]


def desktop(data_home: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "XDG_DATA_HOME": str(data_home)}
    return subprocess.run(
        [sys.executable, "-m", "app", "desktop", *args], env=env, cwd=ROOT, capture_output=True, text=True, timeout=60
    )


def test_the_entry_validates_starts_this_installation_and_is_removed_again(tmp_path):
    data_home = tmp_path / "share"
    (data_home / "applications").mkdir(parents=True)
    (data_home / "applications" / "someone-else.desktop").write_text("[Desktop Entry]\n", encoding="utf-8")
    done = desktop(data_home)
    assert done.returncode == 0, done.stderr
    entry = data_home / "applications" / "live-translator.desktop"
    icon = data_home / "icons" / "hicolor" / "256x256" / "apps" / "live-translator.png"
    assert entry.is_file() and icon.read_bytes() == (ROOT / "resources" / "icon" / "live-translator.png").read_bytes()

    validated = subprocess.run(["desktop-file-validate", str(entry)], capture_output=True, text=True, timeout=30)
    assert validated.returncode == 0 and "error" not in validated.stdout and "warning" not in validated.stdout, (
        validated.stdout + validated.stderr
    )
    fields = configparser.ConfigParser(interpolation=None)
    fields.optionxform = str  # keys are case-sensitive
    fields.read(entry, encoding="utf-8")
    section = fields["Desktop Entry"]
    assert section["Name"] == "Live Translator" and section["Icon"] == "live-translator"
    assert section["Name[zh_CN]"] == "实时翻译" and section["Name[zh_TW]"] == "即時翻譯"
    # It starts this installation's window: the venv's script beside this interpreter.
    command = shlex.split(section["Exec"])
    assert command == [str(Path(sys.executable).with_name("live-translator"))] and Path(command[0]).is_file()
    started = subprocess.run([*command, "--help"], capture_output=True, text=True, timeout=60)
    assert started.returncode == 0 and "live-translator" in started.stdout

    done = desktop(data_home, "--remove")
    assert done.returncode == 0 and str(entry) in done.stdout
    assert not entry.exists() and not icon.exists()
    assert (data_home / "applications" / "someone-else.desktop").exists()  # only its own files
    again = desktop(data_home, "--remove")
    assert again.returncode == 0 and "nothing to remove" in again.stdout


def test_exec_quotes_a_path_with_spaces_as_the_spec_asks(tmp_path):
    # A checkout in "My Apps" started by `python -m app`: quoted, the spec's escapes applied.
    line = exec_line(["/home/me/My Apps/venv/bin/python", "-m", "app"])
    assert line == '"/home/me/My Apps/venv/bin/python" -m app'
    assert exec_line(["/opt/a$b/run"]) == '"/opt/a\\\\$b/run"'  # \$ inside quotes, the backslash escaped again
    assert exec_line(["/opt/100%/run"]) == '"/opt/100%%/run"'
    entry = tmp_path / "quoted.desktop"
    entry.write_text("[Desktop Entry]\nType=Application\nName=Quoted\nExec=" + line + "\n", encoding="utf-8")
    validated = subprocess.run(["desktop-file-validate", str(entry)], capture_output=True, text=True, timeout=30)
    assert validated.returncode == 0, validated.stdout
