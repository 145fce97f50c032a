"""What the window remembers between runs: an INI file in settings_dir() (QSettings).

Before QSettings opens the file, the careful reader checks it (app/shared/files.py): a FIFO
would block Qt's settings constructor forever (the window never appears), a device or a huge
file is no settings file either. Such a file is set aside under another name, with a warning
(`take_settings_problem`), and the window opens with the defaults. QSettings writes the file
itself, through a temporary file renamed over it (QSaveFile): a full disk leaves it whole.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import logging
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QByteArray, QSettings

from app.shared import files
from app.shared.chinese import CHINESE_SCRIPTS
from app.shared.errors import QT_TRANSLATE_NOOP, LiveTranslatorError, Text
from app.shared.events import Spoken
from app.shared.languages import AUTO_DIRECTION, Direction, Language
from app.shared.paths import settings_dir
from app.ui.i18n import parse_language
from app.ui.theme import Theme

log = logging.getLogger(__name__)

TEXT_SIZES = range(9, 49)  # the panels' point sizes (View -> Larger / Smaller text); 0 in the file = the default
# Fields that hold one of a few words: anything else in the file falls back to the default.
CHOICES: dict[str, tuple[str, ...]] = {
    "direction": (*(d.value for d in Direction), AUTO_DIRECTION),  # auto: face to face
    "chinese": CHINESE_SCRIPTS,
    "theme": tuple(t.value for t in Theme),
    "spoken": tuple(s.value for s in Spoken),  # the same words as `run --speak`
}


@dataclass
class UiSettings:
    direction: str = Direction.EN_ZH.value
    input_device: str = ""  # device name; "" = the system default microphone
    source: str = ""  # the chooser's key: "microphone:NAME", "system:ID", "conversation:"; "" = microphone
    system_device: str = ""  # a conversation's system-audio source (id); "" = what the default output plays
    spoken: str = "them"  # a conversation's spoken side: "them", "me" or "both"
    speak_into: str = ""  # a conversation: my speech into "virtual-mic" or an output's id; "" = off
    tts_enabled: bool = True
    voice_en: str = ""  # voice id per target language; "" = the pipeline's choice
    voice_zh: str = ""
    nmt_en_zh: str = ""  # model folder per direction; "" = whatever the catalog finds
    nmt_zh_en: str = ""
    asr_model: str = "base"
    hub_endpoint: str = ""  # a Hugging Face Hub mirror for downloads; "" = the default hub
    verify: bool = False
    chinese: str = "simplified"  # simplified | traditional | hongkong (app.shared.chinese)
    reading_mode: bool = False  # live translations: settled text only
    text_size: int = 0  # panels' point size; 0 = the default
    theme: str = "system"  # system | light | dark
    language: str = ""  # interface: "" = the system's, or en | zh_CN | zh_TW (app.ui.i18n)
    live_text: str = "balanced"  # smoother | balanced | sooner (app.shared.live_text)
    mark_unsure_source: bool = False  # underline words Whisper was unsure of (its alignment pass: slower finals)
    geometry: QByteArray | None = None
    splitter: QByteArray | None = None

    def nmt_dir(self, direction: Direction | str) -> str:
        return getattr(self, _nmt_field(direction))

    def voice(self, language: Language | str) -> str:
        return getattr(self, f"voice_{Language(language).value}")

    def set_voice(self, language: Language | str, voice_id: str) -> None:
        setattr(self, f"voice_{Language(language).value}", voice_id)

    def set_nmt_dir(self, direction: Direction | str, path: str) -> None:
        setattr(self, _nmt_field(direction), path)


def _nmt_field(direction: Direction | str) -> str:
    return "nmt_" + Direction(direction).value.replace("-", "_")


MAX_SETTINGS_BYTES = 1 << 20  # a settings.ini is a few kB (the window's geometry is the largest value)
_problems: list[LiveTranslatorError] = []  # a settings file set aside, until the window says so


def qsettings() -> QSettings:
    """The window's settings file: settings.ini in app.shared.paths.settings_dir(), so
    LIVE_TRANSLATOR_HOME / LIVE_TRANSLATOR_SETTINGS move it like every other folder. One that
    is not an ordinary file of at most MAX_SETTINGS_BYTES is set aside first (never opened)."""
    path = settings_dir() / "settings.ini"
    reason = _refusal(path)
    if reason is not None:
        path = _set_aside(path, reason)
    return QSettings(str(path), QSettings.Format.IniFormat)


def take_settings_problem() -> LiveTranslatorError | None:
    """What was wrong with the settings file this run set aside (once; None when nothing was)."""
    return _problems.pop(0) if _problems else None


def _refusal(path: Path) -> Text | None:
    """Why `path` is no settings file QSettings may open (None: it is one, or there is none)."""
    try:
        files.regular_file_size(path, MAX_SETTINGS_BYTES)  # a FIFO, a device, a folder, a huge file: refused
    except FileNotFoundError:
        return None  # QSettings makes it
    except LiveTranslatorError as error:
        return error.text
    except OSError as error:  # e.g. a link loop
        return Text(f"{path}: {error.strerror or error}")
    return None


def _set_aside(path: Path, reason: Text) -> Path:
    """Move the unusable settings file out of the way (renamed, never opened); the path to use
    instead: the same one, free now, or a fresh file elsewhere when the folder refuses the rename."""
    aside = path.with_name(f"settings.ini.unusable-{dt.datetime.now():%Y%m%d-%H%M%S}")
    try:
        os.rename(path, aside)
    except OSError as error:
        fresh = Path(tempfile.mkdtemp(prefix="live-translator-settings-")) / "settings.ini"
        log.warning("settings: %s (cannot be moved aside: %s); this run keeps its settings in %s", reason, error, fresh)
        hint = QT_TRANSLATE_NOOP(
            "Errors",
            "The window opened with the default settings, which last until it closes. Remove {path} or "
            "make its folder writable.",
        )
        _problems.append(LiveTranslatorError(_UNUSABLE, hint, reason=reason, path=path))
        return fresh
    log.warning("settings: %s; the file is kept as %s and the default settings are used", reason, aside)
    hint = QT_TRANSLATE_NOOP("Errors", "The window opened with the default settings; the old file is kept as {aside}.")
    _problems.append(LiveTranslatorError(_UNUSABLE, hint, reason=reason, aside=aside))
    return path


_UNUSABLE = QT_TRANSLATE_NOOP("Errors", "The settings file cannot be used: {reason}")


def load_settings(store: QSettings | None = None) -> UiSettings:
    """The stored settings, each checked: a value of the wrong kind (a hand-edited or damaged
    file) falls back to its default, with a warning in the log, so the window always opens."""
    store = store or qsettings()
    defaults = UiSettings()
    values = {}
    for f in dataclasses.fields(UiSettings):
        if not store.contains(f.name):
            continue
        raw = store.value(f.name)
        value = _valid(f.name, f.type, raw)
        if value is _INVALID:
            _warn_once(store.fileName(), f.name, raw, getattr(defaults, f.name))
            continue
        values[f.name] = value
    if "language" in values:  # a hand-edited value that is no language: follow the system
        values["language"] = parse_language(str(values["language"]))
    return UiSettings(**values)


_INVALID = object()
_warned: set[tuple[str, str, str]] = set()  # the window reads its settings more than once a run


def _warn_once(file: str, name: str, raw, default) -> None:
    """A bad value's warning, once a run for each file, setting and value."""
    if (file, name, repr(raw)) not in _warned:
        _warned.add((file, name, repr(raw)))
        log.warning("settings: %s=%r in %s is not a valid value; using the default %r", name, raw, file, default)


_TRUE, _FALSE = (True, "true", "1", 1), (False, "false", "0", 0)


def _valid(name: str, kind: str, value):
    """The value as its field's type, or _INVALID."""
    if kind == "bool":
        return True if value in _TRUE else False if value in _FALSE else _INVALID
    if kind == "int":  # text_size, the only one: 0 (the default) or a size the panels show
        try:
            size = int(value)
        except (TypeError, ValueError, OverflowError):
            return _INVALID
        return size if size == 0 or size in TEXT_SIZES else _INVALID
    if kind == "QByteArray | None":
        return value if isinstance(value, QByteArray) and not value.isEmpty() else _INVALID
    if not isinstance(value, str):  # e.g. a list: INI reads "base, tiny.en" as two values
        return _INVALID
    if name in CHOICES:
        return value if value in CHOICES[name] else _INVALID
    if name == "asr_model":
        return value if value.strip() else _INVALID
    if name == "hub_endpoint":
        return value if not value or value.startswith(("http://", "https://")) else _INVALID
    return value


def save_settings(settings: UiSettings, store: QSettings | None = None) -> bool:
    """Write the settings; False when the file cannot be written (the caller tells the user)."""
    store = store or qsettings()
    for f in dataclasses.fields(UiSettings):
        value = getattr(settings, f.name)
        if value is not None:
            store.setValue(f.name, value)
    store.sync()
    if store.status() == QSettings.Status.NoError:
        return True
    log.warning(
        "settings: %s cannot be written (%s); changes last until the app closes", store.fileName(), store.status().name
    )
    return False
