"""The two languages and the two directions, with the labels people see.

A Direction's value is the string every command line, JSON event and settings file uses
("en-zh", "zh-en"): `Direction("en-zh")`, `json.dumps(Direction.EN_ZH)` and
`f"{Direction.EN_ZH}"` all speak that same string.
"""

from __future__ import annotations

from enum import StrEnum

from app.shared.errors import QT_TRANSLATE_NOOP, LiveTranslatorError


class Language(StrEnum):
    EN = "en"
    ZH = "zh"

    @property
    def name_in_itself(self) -> str:
        """The language's name in that language: what a language chooser shows."""
        return {Language.EN: "English", Language.ZH: "中文"}[self]

    @property
    def english_name(self) -> str:
        return {Language.EN: "English", Language.ZH: "Chinese"}[self]

    @property
    def other(self) -> Language:
        return Language.ZH if self is Language.EN else Language.EN


class Direction(StrEnum):
    EN_ZH = "en-zh"
    ZH_EN = "zh-en"

    @classmethod
    def parse(cls, value: str | Direction) -> Direction:
        """The direction named by `value`; a clear error for anything else."""
        try:
            return cls(value)
        except ValueError:
            raise LiveTranslatorError(
                QT_TRANSLATE_NOOP("Errors", "Unknown direction {value}."),
                QT_TRANSLATE_NOOP("Errors", "Use one of: {choices}."),
                value=repr(value),
                choices=", ".join(d.value for d in cls),
            ) from None

    @classmethod
    def spoken(cls, language: Language | str) -> Direction:
        """The direction that translates speech in `language`."""
        return cls.EN_ZH if Language(language) is Language.EN else cls.ZH_EN

    @property
    def source(self) -> Language:
        """The spoken (or written) language."""
        return Language(self.value.split("-")[0])

    @property
    def target(self) -> Language:
        """The translation's language."""
        return Language(self.value.split("-")[1])

    @property
    def reverse(self) -> Direction:
        return Direction.ZH_EN if self is Direction.EN_ZH else Direction.EN_ZH

    @property
    def label(self) -> str:
        """For the direction chooser: "English → 中文"."""
        return f"{self.source.name_in_itself} → {self.target.name_in_itself}"

    @property
    def short_label(self) -> str:
        """For tight spaces: "EN→ZH"."""
        return f"{self.source.value.upper()}→{self.target.value.upper()}"

    @property
    def words(self) -> str:
        """In a sentence: "English → Chinese"."""
        return f"{self.source.english_name} → {self.target.english_name}"


DIRECTIONS: tuple[str, ...] = tuple(d.value for d in Direction)  # for argparse choices
# Face to face (`run --direction auto`, the window's "Auto (English ⇄ 中文)"): each utterance's
# language is decided, and it is translated the other way.
AUTO_DIRECTION = "auto"
