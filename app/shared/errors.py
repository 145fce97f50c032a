"""The one exception type the app shows to people.

Every failure a user can cause or fix (a broken model folder, no microphone, ...) is raised
as a LiveTranslatorError whose message says what is wrong and whose hint says what to do.
The command line prints both and exits non-zero; the window shows both and keeps running.

The window speaks Chinese too, so a message is an English *template* marked for Qt's
pyside6-lupdate, with its changing parts as keyword values:

    raise LiveTranslatorError(QT_TRANSLATE_NOOP("Errors", "Audio file {path} does not exist."),
                              QT_TRANSLATE_NOOP("Errors", "Check the path."), path=path)

`.message` / `.hint` / `str()` are the English sentences (the command line's, unchanged);
the window translates `.template` / `.hint_template` and fills in `.values` (app/ui/i18n.py).
This module stays free of Qt: the marker below only returns its text.
"""

from __future__ import annotations

import types
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

CONTEXT = "Errors"  # the Qt translation context of every marked message


def QT_TRANSLATE_NOOP(context: str, text: str) -> str:  # noqa: N802 - the name pyside6-lupdate looks for
    """Marks `text` for lupdate; the window translates it where it shows it."""
    return text


@dataclass(frozen=True)
class Text:
    """A sentence for people: an English template (marked for lupdate) and the values it names.
    A value may itself be a Text (a reason inside a sentence); str() is the English sentence."""

    template: str
    values: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        # Texts travel inside events between threads: their values cannot change afterwards.
        object.__setattr__(self, "values", types.MappingProxyType(dict(self.values)))

    def __str__(self) -> str:
        # Formatted only when there are values, so a plain literal may hold braces as they are.
        return self.template.format(**self.values) if self.values else self.template

    def __bool__(self) -> bool:
        return bool(self.template)


def texts_of(error: BaseException) -> tuple[Text, Text]:
    """An exception's message and hint as Texts: a LiveTranslatorError's templates, else its
    own words (an unexpected error from a library: shown as it is)."""
    if isinstance(error, LiveTranslatorError):
        return error.text, error.hint_text
    return Text(str(error) or type(error).__name__), Text("")


class LiveTranslatorError(Exception):
    def __init__(self, message: str | Text, hint: str | Text = "", **values: Any):
        self.text = message if isinstance(message, Text) else Text(message, values)
        self.hint_text = hint if isinstance(hint, Text) else Text(hint, values)
        self.message = str(self.text)
        self.hint = str(self.hint_text)
        super().__init__(self.message)

    @property
    def template(self) -> str:
        return self.text.template

    @property
    def hint_template(self) -> str:
        return self.hint_text.template

    @property
    def values(self) -> Mapping[str, Any]:
        return self.text.values

    def __str__(self) -> str:
        return f"{self.message}\n  → {self.hint}" if self.hint else self.message
