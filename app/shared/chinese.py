"""Which Chinese script the app shows, speaks and saves, and the conversion into it.

Every Chinese text the app produces (Whisper's recognised Chinese, translations into Chinese)
goes through `to_script`. Conversion is OpenCC's, with its standard configurations: the text
is first normalised to Simplified ("t2s": Whisper mixes scripts now and then, the translation
models write Simplified), then converted with "s2twp" (Traditional, Taiwan standard with
Taiwan phrases: 软件 -> 軟體) or "s2hk" (Traditional, Hong Kong variants). A conversion may
change a text's length (U盘 -> 隨身碟), so `map_offset` carries character positions across.
"""

from __future__ import annotations

import functools
from enum import StrEnum

from app.shared.errors import QT_TRANSLATE_NOOP, LiveTranslatorError


class ChineseScript(StrEnum):
    SIMPLIFIED = "simplified"
    TRADITIONAL = "traditional"  # Taiwan: OpenCC s2twp
    HONGKONG = "hongkong"  # Hong Kong: OpenCC s2hk

    @classmethod
    def parse(cls, value: str | ChineseScript | None) -> ChineseScript:
        if value is None or value == "":
            return cls.SIMPLIFIED
        try:
            return cls(value)
        except ValueError:
            raise LiveTranslatorError(
                QT_TRANSLATE_NOOP("Errors", "Unknown Chinese script {value}."),
                QT_TRANSLATE_NOOP("Errors", "Use one of: {choices}."),
                value=repr(value),
                choices=", ".join(s.value for s in cls),
            ) from None

    @property
    def label(self) -> str:
        """For the settings chooser, in the script itself."""
        return {
            ChineseScript.SIMPLIFIED: "简体中文",
            ChineseScript.TRADITIONAL: "繁體中文（台灣）",
            ChineseScript.HONGKONG: "繁體中文（香港）",
        }[self]


CHINESE_SCRIPTS: tuple[str, ...] = tuple(s.value for s in ChineseScript)  # for argparse choices
_CONFIGS = {ChineseScript.TRADITIONAL: "s2twp", ChineseScript.HONGKONG: "s2hk"}


@functools.cache
def _converter(config: str):
    import opencc  # built once per configuration, on first use

    return opencc.OpenCC(config)


def to_simplified(text: str) -> str:
    return _converter("t2s").convert(text) if text else text


def to_script(text: str, script: ChineseScript | str = ChineseScript.SIMPLIFIED) -> str:
    """`text` (Chinese, in any script) written in `script`."""
    if not text:
        return text
    script = ChineseScript.parse(script)
    simplified = to_simplified(text)
    if script is ChineseScript.SIMPLIFIED:
        return simplified
    return _converter(_CONFIGS[script]).convert(simplified)


def map_offset(text: str, offset: int, script: ChineseScript | str, converted: str | None = None) -> int:
    """Where character `offset` of `text` lands in `to_script(text, script)` (`converted`, when
    the caller has it already). Exact when the conversion keeps lengths (nearly always);
    otherwise the converted prefix's length."""
    if converted is None:
        converted = to_script(text, script)
    if len(converted) == len(text):
        return offset
    return min(len(to_script(text[:offset], script)), len(converted))


def script_of(text: str) -> ChineseScript | None:
    """The script `text` is written in, as far as its characters tell: the first whose
    conversion leaves it as it is, of those that would change it; None for text that reads
    the same in every script (no Chinese, or only characters the scripts share)."""
    if not text:
        return None
    forms = {script: to_script(text, script) for script in ChineseScript}
    if all(form == text for form in forms.values()):
        return None
    return next((script for script, form in forms.items() if form == text), None)
