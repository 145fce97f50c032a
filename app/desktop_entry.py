"""Linux desktop integration: Live Translator in the application menu, and out of it again.

`python -m app desktop` writes a desktop entry (freedesktop.org Desktop Entry Specification)
and the app's icon into the user's XDG data folder ($XDG_DATA_HOME, else ~/.local/share):
`applications/live-translator.desktop` and `icons/hicolor/256x256/apps/live-translator.png`.
`--system` writes them for every user (/usr/local/share: what `./setup.sh app` does as root);
`--remove` takes away exactly what it wrote (`./setup.sh uninstall`). The entry starts this
installation: the venv's `live-translator` script, `python -m app` from a checkout, or the
packaged build's own executable.
"""

from __future__ import annotations

import argparse
import shlex
import shutil
import struct
import sys
from pathlib import Path

from app.platform import folders
from app.shared.errors import QT_TRANSLATE_NOOP, LiveTranslatorError
from app.shared.paths import resource

APP_ID = "live-translator"  # the entry's and the icon's name; the window's desktop file name too
SYSTEM_DATA = Path("/usr/local/share")  # where the administrator's own applications go (XDG_DATA_DIRS)

ENTRY = """[Desktop Entry]
Type=Application
Version=1.4
Name=Live Translator
Name[zh_CN]=实时翻译
Name[zh_TW]=即時翻譯
GenericName=Speech Translator
GenericName[zh_CN]=语音翻译
GenericName[zh_TW]=語音翻譯
Comment=Live speech translation between English and Chinese, offline
Comment[zh_CN]=英语与中文之间的实时语音翻译，可离线使用
Comment[zh_TW]=英語與中文之間的即時語音翻譯，可離線使用
Exec={exec}
TryExec={try_exec}
Icon={icon}
Terminal=false
Categories=Utility;Accessibility;
Keywords=translate;translation;speech;subtitles;captions;Chinese;English;翻译;翻譯;
StartupNotify=true
StartupWMClass=live-translator
"""


def data_home(system: bool) -> Path:
    if system:
        return SYSTEM_DATA
    return folders.xdg_data_home()


def launcher() -> list[str]:
    """The command that starts this installation's window."""
    if getattr(sys, "frozen", False):  # a PyInstaller build: its own executable
        return [sys.executable]
    script = Path(sys.executable).with_name(APP_ID)
    return [str(script)] if script.is_file() else [sys.executable, "-m", "app"]


def exec_line(command: list[str]) -> str:
    """The Exec key's value: each argument quoted as the spec allows (double quotes; `"`, `` ` ``,
    `$` and `\\` escaped), and a literal % doubled."""
    quoted = []
    for argument in command:
        if argument and not any(c in argument for c in " \t\n\"'\\><~|&;$*?#()`%="):
            quoted.append(argument)
            continue
        escaped = "".join("\\" + c if c in '"`$\\' else c for c in argument).replace("%", "%%")
        quoted.append(f'"{escaped}"')
    return " ".join(quoted).replace("\\", "\\\\")  # the string type's own escape, on top


def icon_size(png: Path) -> int:
    width, height = struct.unpack(">II", png.read_bytes()[16:24])  # the IHDR chunk
    return width if width == height else max(width, height)


def places(system: bool) -> tuple[Path, Path, Path]:
    """(the entry, the icon, the icon's source) for this user or every user."""
    source = resource("icon", f"{APP_ID}.png")
    size = icon_size(source)
    home = data_home(system)
    return (
        home / "applications" / f"{APP_ID}.desktop",
        home / "icons" / "hicolor" / f"{size}x{size}" / "apps" / f"{APP_ID}.png",
        source,
    )


def install(system: bool = False) -> list[Path]:
    entry, icon, source = places(system)
    command = launcher()
    text = ENTRY.format(exec=exec_line(command), try_exec=exec_line(command[:1]), icon=APP_ID)
    try:
        icon.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, icon)
        entry.parent.mkdir(parents=True, exist_ok=True)
        entry.write_text(text, encoding="utf-8")
    except OSError as error:
        raise LiveTranslatorError(
            QT_TRANSLATE_NOOP("Errors", "The desktop entry cannot be written to {folder}: {reason}"),
            QT_TRANSLATE_NOOP("Errors", "Run it as the user the menu is for, or with --system as root."),
            folder=str(entry.parent),
            reason=error.strerror or error,
        ) from error
    return [entry, icon]


def remove(system: bool = False) -> list[Path]:
    """Takes away the entry and the icon; the folders stay (they are the desktop's)."""
    removed = []
    for path in places(system)[:2]:
        if path.is_file():
            path.unlink()
            removed.append(path)
    return removed


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser(
        "desktop",
        help="put Live Translator in the Linux application menu (or --remove it)",
        description="Writes a desktop entry and the icon into the XDG data folder "
        "($XDG_DATA_HOME, else ~/.local/share; --system: /usr/local/share), or removes them.",
    )
    parser.add_argument("--remove", action="store_true", help="take the entry and the icon away again")
    parser.add_argument("--system", action="store_true", help="for every user: /usr/local/share (as root)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.remove:
        done = remove(args.system)
        sys.stdout.write("".join(f"removed {path}\n" for path in done) or "nothing to remove\n")
    else:
        done = install(args.system)
        sys.stdout.write("".join(f"wrote {path}\n" for path in done) + f"starts: {shlex.join(launcher())}\n")
    return 0
