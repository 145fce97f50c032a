"""The window's language: Qt's translation system, the app's .qm files and Qt's own.

Every string the window shows goes through `translate(context, text)` (Qt's
QCoreApplication.translate, under a name pyside6-lupdate recognises), so the Qt Linguist
sources in resources/i18n/ (refreshed by tools/translations.py) list them all. The language
is, first to last: `python -m app --lang`, the window's setting (View -> Interface language),
the system locale. The command line stays English: only the window translates, its own words
and the core's messages (templates marked in app/shared/errors.py; `error_texts`, `translate_text`).
"""

from __future__ import annotations

import logging

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QTranslator

from app.shared import paths
from app.shared.errors import CONTEXT, Text, texts_of

log = logging.getLogger(__name__)

LANGUAGES = ("en", "zh_CN", "zh_TW")  # what --lang and the setting accept
TRANSLATED = ("zh_CN", "zh_TW")  # the ones with a .qm file
# Each language's name in itself, for the language menu (never translated).
NATIVE_NAMES = {"en": "English", "zh_CN": "简体中文", "zh_TW": "繁體中文"}


def translate(context: str, text: str, disambiguation: str | None = None, n: int = -1) -> str:
    """Qt's translation of `text` in `context` (the source text when none is loaded)."""
    return QCoreApplication.translate(context, text, disambiguation, n)


def QT_TRANSLATE_NOOP(context: str, text: str) -> str:  # noqa: N802 - the name lupdate looks for
    """Marks `text` for lupdate where it is defined; translated later where it is shown."""
    return text


def parse_language(value: str | None) -> str:
    """ "zh_CN", "zh-tw", "en_US", ... -> one of LANGUAGES; "" for anything else (follow the system)."""
    code = (value or "").strip().replace("-", "_")
    if not code or code.lower() == "system":
        return ""
    lowered = code.lower()
    if lowered.startswith("zh"):
        traditional = any(part in lowered for part in ("_tw", "_hk", "_mo", "hant"))
        return "zh_TW" if traditional else "zh_CN"
    if lowered.startswith("en"):
        return "en"
    return ""


def system_language(locale: QLocale | None = None) -> str:
    """The system locale's language: Chinese in Traditional script (Taiwan, Hong Kong, Macau)
    -> zh_TW, other Chinese -> zh_CN, anything else -> en."""
    locale = locale or QLocale.system()
    if locale.language() != QLocale.Language.Chinese:
        return "en"
    traditional = locale.script() == QLocale.Script.TraditionalChineseScript or locale.territory() in (
        QLocale.Country.Taiwan,
        QLocale.Country.HongKong,
        QLocale.Country.Macao,
    )
    return "zh_TW" if traditional else "zh_CN"


def choose_language(override: str | None = None, setting: str | None = None, locale: QLocale | None = None) -> str:
    """--lang first, then the setting, then the system locale."""
    return parse_language(override) or parse_language(setting) or system_language(locale)


def qm_path(language: str):
    return paths.resource("i18n", f"live_translator_{language}.qm")


def qt_translations_dir() -> str:
    return QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)


_installed: list[QTranslator] = []


def install_translators(language: str, app: QCoreApplication | None = None) -> list[QTranslator]:
    """Load the app's translation and Qt's own (standard buttons, file dialogs) for
    `language`, replacing any installed before; English installs none."""
    app = app or QCoreApplication.instance()
    for translator in _installed:
        app.removeTranslator(translator)
    _installed.clear()
    QLocale.setDefault(QLocale("en_US" if language == "en" else language))
    if language not in TRANSLATED:
        return []
    ours = QTranslator(app)
    if ours.load(str(qm_path(language))):
        app.installTranslator(ours)
        _installed.append(ours)
    else:
        log.warning("no interface translation for %s at %s", language, qm_path(language))
    qt = QTranslator(app)
    if qt.load(f"qtbase_{language}", qt_translations_dir()):
        app.installTranslator(qt)
        _installed.append(qt)
    else:
        log.info("no Qt translation qtbase_%s in %s", language, qt_translations_dir())
    return list(_installed)


def direction_words(direction) -> str:
    """A direction in a sentence, in the interface's language ("English → Chinese")."""
    words = {"en-zh": translate("Languages", "English → Chinese"), "zh-en": translate("Languages", "Chinese → English")}
    return words[str(direction)]


def translate_text(text: Text | str | None) -> str:
    """A core sentence (app/shared/errors.py Text) in the interface's language: its template
    translated in the "Errors" context and filled in, values that are Texts translated too.
    English when it has no translation, or when the translation breaks the template (a lost
    or misspelt placeholder): never a sentence with a hole in it."""
    if text is None:
        return ""
    if not isinstance(text, Text):
        return str(text)
    if not text.template:
        return ""
    values = {key: translate_text(value) if isinstance(value, Text) else value for key, value in text.values.items()}
    translated = translate(CONTEXT, text.template)
    try:
        return translated.format(**values) if values else translated
    except (KeyError, IndexError, ValueError):
        log.warning("translation of %r does not fit its values; shown in English", text.template)
        return str(text)


def error_line(error) -> str:
    """An error as one text in the interface's language: the message, then "→ hint"."""
    message, hint = error_texts(error)
    return f"{message}\n  → {hint}" if hint else message


def error_texts(error) -> tuple[str, str]:
    """(message, hint) of a LiveTranslatorError or any exception, or of an Error event, in the
    interface's language (the core's English when a sentence carries no template)."""
    if isinstance(error, BaseException):
        message, hint = texts_of(error)
        return translate_text(message), translate_text(hint)
    message = getattr(error, "message_text", None)
    hint = getattr(error, "hint_text", None)
    return (
        translate_text(message) if message else error.text,
        translate_text(hint) if hint is not None else error.hint,
    )
