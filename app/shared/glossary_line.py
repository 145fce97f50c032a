"""One line of a glossary file: the entry it holds, or the problem that keeps it from being one.

    english<TAB>chinese[<TAB>flags]

`#` starts a comment line; blank lines are ignored. Flags (comma-separated): `case` (match the
English side case-sensitively), `off` (keep the entry, do not use it), `heard` (a correction of
recognised text: heard<TAB>written, both in one language). A term is a name or a phrase: at
most MAX_TERM_CHARS characters (a longer one would fill Whisper's prompt and the decoder's
forced tokens by itself).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from app.shared.errors import QT_TRANSLATE_NOOP, Text
from app.shared.languages import Language

FLAGS = ("case", "off", "heard")
MAX_TERM_CHARS = 100  # the longest names and phrases are about 60; Whisper's hotwords hold ~200 tokens in all
HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0002ebef]")


@dataclass(frozen=True)
class GlossaryEntry:
    english: str
    chinese: str
    case_sensitive: bool = False  # the `case` flag: English matched with its exact case
    enabled: bool = True  # False: the `off` flag
    heard: bool = False  # the `heard` flag: `english` is what was recognised, `chinese` how to write it
    origin: str = ""  # the file it came from, for messages (and for saving it back onto its line)
    line: int = 0

    def side(self, language: Language | str) -> str:
        return self.english if Language(language) is Language.EN else self.chinese

    def to_tsv(self) -> str:
        """The entry as a line of the file (without its line ending); equal for equal entries."""
        flags = [
            name for name, on in (("case", self.case_sensitive), ("off", not self.enabled), ("heard", self.heard)) if on
        ]
        return "\t".join([self.english, self.chinese] + ([",".join(flags)] if flags else []))


def language_of(text: str) -> Language:
    return Language.ZH if HAN.search(text) else Language.EN


def read_line(line: str, origin: str = "<glossary>", number: int = 0) -> GlossaryEntry | Text | None:
    """The entry `line` (without its line ending) holds, the problem that keeps it from being
    one, or None for a comment or a blank line."""
    if not line.strip() or line.lstrip().startswith("#"):
        return None
    columns = [c.strip() for c in line.split("\t")]
    problem = _line_problem(columns)
    if problem:
        return problem
    flags = {f.strip().lower() for f in columns[2].split(",") if f.strip()} if len(columns) == 3 else set()
    return GlossaryEntry(columns[0], columns[1], "case" in flags, "off" not in flags, "heard" in flags, origin, number)


def _line_problem(columns: list[str]) -> Text | None:
    if len(columns) < 2:
        return Text(QT_TRANSLATE_NOOP("Errors", "expected english<TAB>chinese (no TAB on this line)"))
    if len(columns) > 3:
        return Text(
            QT_TRANSLATE_NOOP("Errors", "expected 2 or 3 columns separated by TABs, found {count}"),
            {"count": len(columns)},
        )
    english, chinese = columns[0], columns[1]
    if not english or not chinese:
        return Text(QT_TRANSLATE_NOOP("Errors", "the English or the Chinese term is empty"))
    longest = max(len(english), len(chinese))
    if longest > MAX_TERM_CHARS:
        return Text(
            QT_TRANSLATE_NOOP(
                "Errors",
                "a term of {length} characters: a glossary term is a name or a phrase of at most {limit}",
            ),
            {"length": longest, "limit": MAX_TERM_CHARS},
        )
    flags = {f.strip().lower() for f in columns[2].split(",")} if len(columns) == 3 else set()
    if "heard" in flags:  # a correction of recognised text: heard<TAB>written, in one language
        if language_of(english) is not language_of(chinese):
            return Text(
                QT_TRANSLATE_NOOP(
                    "Errors", "a heard correction writes one language as the same language: heard<TAB>written<TAB>heard"
                )
            )
        return _flag_problem(columns)
    if HAN.search(english) and not HAN.search(chinese):
        return Text(QT_TRANSLATE_NOOP("Errors", "the first column holds Chinese: write english<TAB>chinese"))
    if HAN.search(english):
        return Text(
            QT_TRANSLATE_NOOP("Errors", "the English term {term} contains Chinese characters"), {"term": repr(english)}
        )
    return _flag_problem(columns)


def _flag_problem(columns: list[str]) -> Text | None:
    if len(columns) == 3:
        unknown = [f for f in (f.strip().lower() for f in columns[2].split(",")) if f and f not in FLAGS]
        if unknown:
            return Text(
                QT_TRANSLATE_NOOP("Errors", "unknown flag {flag} in the third column (known: {known})"),
                {"flag": repr(unknown[0]), "known": ", ".join(FLAGS)},
            )
    return None
