"""The user's glossary: English <-> Chinese terms that must come out right.

A glossary file is UTF-8 text, one entry per line, columns separated by a TAB:

    english<TAB>chinese[<TAB>flags]

`#` starts a comment line; blank lines are ignored. The optional third column holds flags
separated by commas: `case` (match the English side case-sensitively) and `off` (keep the
entry but do not use it; the window's editor writes this for unticked entries).

A line flagged `heard` is a correction of recognised text, not a translation: `heard<TAB>written
<TAB>heard` (both sides in one language) means "when speech recognition writes the first, write
the second"; the second is also given to Whisper as a hotword (`Glossary.rewrite_heard`). The
window's Correct… dialog writes such lines.

Parsing never fails on a bad line: the line is skipped and reported (`Glossary.problems`, with
its line number), and the rest works. Two entries giving one source two targets are reported
as a conflict; the first one is used. Several glossaries merge into one (`Glossary.merge`).

Matching (`Glossary.matches`): English terms as whole words (case-insensitive unless `case`,
any run of spaces matching a space), Chinese terms as the exact characters, written as the
user wrote them or in Simplified characters (the app shows recognised Chinese in Simplified).
This module is data only: the translation engine, the recogniser and the window use it.
"""

from __future__ import annotations

import functools
import logging
import re
from dataclasses import dataclass, field, replace
from pathlib import Path

from app.shared import files
from app.shared.errors import QT_TRANSLATE_NOOP, LiveTranslatorError, Text
from app.shared.languages import Direction, Language

log = logging.getLogger(__name__)

FLAGS = ("case", "off", "heard")
MAX_GLOSSARY_BYTES = 16 << 20  # about 400,000 entries; a larger file is refused with its size
HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0002ebef]")


@dataclass(frozen=True)
class GlossaryEntry:
    english: str
    chinese: str
    case_sensitive: bool = False  # the `case` flag: English matched with its exact case
    enabled: bool = True  # False: the `off` flag
    heard: bool = False  # the `heard` flag: `english` is what was recognised, `chinese` how to write it
    origin: str = ""  # the file it came from, for messages
    line: int = 0

    def side(self, language: Language | str) -> str:
        return self.english if Language(language) is Language.EN else self.chinese

    def to_tsv(self) -> str:
        flags = [
            name for name, on in (("case", self.case_sensitive), ("off", not self.enabled), ("heard", self.heard)) if on
        ]
        return "\t".join([self.english, self.chinese] + ([",".join(flags)] if flags else []))


# A language named inside a problem (its english_name), marked so the window says it in Chinese.
LANGUAGE_WORDS = {
    Language.EN: QT_TRANSLATE_NOOP("Errors", "English"),
    Language.ZH: QT_TRANSLATE_NOOP("Errors", "Chinese"),
}


@dataclass(frozen=True)
class GlossaryProblem:
    """A line that was skipped (malformed) or an entry that conflicts with an earlier one."""

    origin: str  # the file (or "<glossary>")
    line: int
    message: str
    text: Text | None = field(default=None, compare=False)  # `message` as a template, for the window

    @classmethod
    def of(cls, origin: str, line: int, text: Text) -> GlossaryProblem:
        return cls(origin, line, str(text), text)

    def __str__(self) -> str:
        return f"{self.origin}:{self.line}: {self.message}"


@dataclass(frozen=True)
class GlossaryMatch:
    """An entry whose source side occurs in a sentence; `target` must appear in its translation."""

    entry: GlossaryEntry
    source: str  # the term as the entry writes it
    target: str
    start: int  # where it was found in the sentence
    end: int


@functools.lru_cache(maxsize=1)
def _to_simplified():
    try:
        import opencc

        return opencc.OpenCC("t2s").convert
    except Exception:  # noqa: BLE001 - without OpenCC, Chinese terms match as written only
        log.warning("OpenCC is not available: Chinese glossary terms match as written only")
        return lambda text: text


def _english_key(entry: GlossaryEntry) -> str:
    text = " ".join(entry.english.split())
    return text if entry.case_sensitive else text.casefold()


def _chinese_key(entry: GlossaryEntry) -> str:
    return "".join(entry.chinese.split())


@dataclass
class Glossary:
    entries: list[GlossaryEntry] = field(default_factory=list)
    problems: list[GlossaryProblem] = field(default_factory=list)

    # -- reading and writing -------------------------------------------------------------------
    @classmethod
    def parse(cls, text: str, origin: str = "<glossary>") -> Glossary:
        glossary = cls()
        for number, raw in enumerate(text.splitlines(), start=1):
            line = raw.rstrip("\r\n")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            columns = [c.strip() for c in line.split("\t")]
            problem = _line_problem(columns)
            if problem:
                glossary.problems.append(GlossaryProblem.of(origin, number, problem))
                continue
            flags = {f.strip().lower() for f in columns[2].split(",") if f.strip()} if len(columns) == 3 else set()
            glossary.entries.append(
                GlossaryEntry(
                    columns[0], columns[1], "case" in flags, "off" not in flags, "heard" in flags, origin, number
                )
            )
        glossary.problems += glossary.conflicts()
        return glossary

    @classmethod
    def load(cls, path: str | Path) -> Glossary:
        path = Path(path)
        try:
            data = files.read_bytes(path, MAX_GLOSSARY_BYTES)  # too large, a FIFO, a device: named with its size/kind
        except OSError as error:
            raise LiveTranslatorError(
                QT_TRANSLATE_NOOP("Errors", "Cannot read the glossary {path}: {reason}."),
                QT_TRANSLATE_NOOP(
                    "Errors", "Check the path; a glossary is a UTF-8 text file: english<TAB>chinese per line."
                ),
                path=path,
                reason=error.strerror or error,
            ) from None
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as error:
            raise LiveTranslatorError(
                QT_TRANSLATE_NOOP("Errors", "The glossary {path} is not UTF-8 text (byte {byte})."),
                QT_TRANSLATE_NOOP("Errors", "Save it as UTF-8 (a TSV file: english<TAB>chinese per line)."),
                path=path,
                byte=error.start,
            ) from None
        return cls.parse(text, str(path))

    @classmethod
    def load_all(cls, paths) -> Glossary:
        return cls.merge([cls.load(p) for p in paths])

    @classmethod
    def merge(cls, glossaries) -> Glossary:
        """One glossary holding all entries in order; conflicts between files are reported too."""
        merged = cls()
        for g in glossaries:
            merged.entries += g.entries
            merged.problems += [p for p in g.problems if not p.message.startswith("conflict")]
        merged.problems += merged.conflicts()
        return merged

    def to_tsv(self) -> str:
        return "".join(entry.to_tsv() + "\n" for entry in self.entries)

    def save(self, path: str | Path) -> None:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        header = "# Live Translator glossary: english<TAB>chinese[<TAB>case,off]\n"
        path.write_text(header + self.to_tsv(), encoding="utf-8")

    # -- checking ------------------------------------------------------------------------------
    def conflicts(self) -> list[GlossaryProblem]:
        """Enabled entries that give one source two targets, in either direction."""
        problems = []
        for source, target in ((Language.EN, Language.ZH), (Language.ZH, Language.EN)):
            key_of = _english_key if source is Language.EN else _chinese_key
            first: dict[str, GlossaryEntry] = {}
            for entry in self.active():
                earlier = first.setdefault(key_of(entry), entry)
                if earlier is not entry and not _same_term(earlier.side(target), entry.side(target)):
                    values = {
                        "language": Text(LANGUAGE_WORDS[source]),
                        "term": repr(entry.side(source)),
                        "meaning": repr(earlier.side(target)),
                        "line": earlier.line,
                        "origin": earlier.origin,
                        "unused": repr(entry.side(target)),
                    }
                    text = (
                        Text(
                            QT_TRANSLATE_NOOP(
                                "Errors",
                                "conflict: {language} {term} already means {meaning} (line {line}); "
                                "{unused} is not used for it",
                            ),
                            values,
                        )
                        if earlier.origin == entry.origin
                        else Text(
                            QT_TRANSLATE_NOOP(
                                "Errors",
                                "conflict: {language} {term} already means {meaning} (line {line} of {origin}); "
                                "{unused} is not used for it",
                            ),
                            values,
                        )
                    )
                    problems.append(GlossaryProblem.of(entry.origin or "<glossary>", entry.line, text))
        return problems

    def active(self) -> list[GlossaryEntry]:
        """The enabled translation entries (corrections of heard text are not translations)."""
        return [e for e in self.entries if e.enabled and not e.heard]

    def corrections(self) -> list[GlossaryEntry]:
        """The enabled corrections of recognised text (`heard` lines)."""
        return [e for e in self.entries if e.enabled and e.heard]

    def __bool__(self) -> bool:
        return bool(self.active() or self.corrections())

    def with_correction(self, entry: GlossaryEntry, spoken: Language | str | None = None) -> Glossary:
        """This glossary with `entry` added last; the earlier entries it overrides are dropped so
        that it is used: a correction of the same heard text, or (a translation entry, whose
        `spoken` language says which side is heard) a translation of the same spoken term."""
        if entry.heard:
            kept = [e for e in self.entries if not (e.heard and _heard_key(e) == _heard_key(entry))]
        else:
            key_of = _english_key if Language(spoken or Language.EN) is Language.EN else _chinese_key
            kept = [e for e in self.entries if e.heard or key_of(e) != key_of(entry)]
        return Glossary(kept + [entry], [])

    # -- using it ------------------------------------------------------------------------------
    def terms(self, language: Language | str) -> list[str]:
        """The active entries' terms in `language`, once each (for a recogniser's hotwords)."""
        seen = {}
        for entry in self.active():
            seen.setdefault(entry.side(language), None)
        for entry in self.corrections():
            if _language_of(entry.chinese) is Language(language):
                seen.setdefault(entry.chinese, None)
        return list(seen)

    def rewrite_heard(self, text: str) -> str:
        """Recognised `text` with the corrections applied: each heard form (English as whole
        words, case-insensitive unless `case`; Chinese as written or in Simplified) written as
        the correction says."""
        for entry in self.corrections():
            language = _language_of(entry.english)
            spots, covered_to = [], -1
            for start, end in _occurrences(entry, text, language):
                if start >= covered_to:  # two forms of one term may overlap: the first wins
                    spots.append((start, end))
                    covered_to = end
            for start, end in reversed(spots):
                text = text[:start] + entry.chinese + text[end:]
        return text

    def matches(self, text: str, direction: Direction | str) -> list[GlossaryMatch]:
        """The entries whose source side occurs in `text`, in order of appearance; where terms
        overlap, the longer wins. Of two entries with the same source, the first is used.
        One Aho-Corasick automaton over every term finds them (built once per glossary and
        direction): a sentence costs about the same with 100,000 entries as with 10."""
        direction = Direction.parse(direction)
        found = [
            GlossaryMatch(entry, entry.side(direction.source), entry.side(direction.target), start, end)
            for entry, start, end in self._matcher(direction.source).occurrences(text)
        ]
        return _longest_first(found)

    def _matcher(self, language: Language) -> _TermMatcher:
        """The automaton for this glossary's active entries in `language` (rebuilt when the entries change)."""
        # Entries are appended while a glossary is read and merged, never replaced in place
        # (with_entry makes a new Glossary): the list and its length say whether they changed.
        key = (language, len(self.entries))
        cached = self.__dict__.get("_matcher_cache")
        if cached is None or cached[0] != key or cached[1] is not self.entries:
            cached = (key, self.entries, _TermMatcher(self.active(), language))
            self.__dict__["_matcher_cache"] = cached
        return cached[2]

    def with_entry(self, index: int, **changes) -> Glossary:
        entries = list(self.entries)
        entries[index] = replace(entries[index], **changes)
        return Glossary(entries, list(self.problems))


def _language_of(text: str) -> Language:
    return Language.ZH if HAN.search(text) else Language.EN


def _heard_key(entry: GlossaryEntry) -> str:
    return _english_key(entry) if _language_of(entry.english) is Language.EN else _to_simplified()(_chinese_key(entry))


def _longest_first(found: list[GlossaryMatch]) -> list[GlossaryMatch]:
    """Of overlapping occurrences the one that starts first (then the longer) wins; an entry is used once."""
    found.sort(key=lambda m: (m.start, -(m.end - m.start)))
    result, covered_to, used = [], -1, set()
    for m in found:
        if m.start >= covered_to and id(m.entry) not in used:
            result.append(m)
            used.add(id(m.entry))
            covered_to = m.end
        elif m.start >= covered_to:
            covered_to = m.end
    return result


# An English term's edges: no ASCII letter or digit may touch it (the same class, with the same
# flags, as the per-entry expressions this replaces: IGNORECASE makes it take e.g. the Kelvin sign).
_WORD_CHAR = {False: re.compile(r"[A-Za-z0-9]"), True: re.compile(r"[A-Za-z0-9]", re.IGNORECASE)}


def _fold(char: str) -> str:
    """A character as case-insensitive matching compares it (kept when lowering changes its length)."""
    low = char.lower()
    return low if len(low) == 1 else char


class _TermMatcher:
    """Every occurrence of every term in a sentence, in one pass of an Aho-Corasick automaton
    (pyahocorasick). English: the sentence with each run of whitespace read as one space (and
    folded for the entries without `case`); each hit then checked for whole-word edges in the
    sentence itself. Chinese: the exact characters, as written and in Simplified."""

    def __init__(self, entries: list[GlossaryEntry], language: Language):
        self.language = language
        key_of = _english_key if language is Language.EN else _chinese_key
        chosen: dict[str, GlossaryEntry] = {}
        for entry in entries:
            chosen.setdefault(key_of(entry), entry)
        self.rank = {id(entry): n for n, entry in enumerate(chosen.values())}  # ties go to the earlier entry
        self.automata = {}  # folded (case-insensitive) or not -> automaton of term -> entries
        for entry in chosen.values():
            for folded, term in self._keys(entry):
                if term:
                    self.automata.setdefault(folded, {}).setdefault(term, []).append(entry)
        self.automata = {folded: _automaton(terms) for folded, terms in self.automata.items()}

    def _keys(self, entry: GlossaryEntry) -> list[tuple[bool, str]]:
        if self.language is Language.EN:
            term = " ".join(entry.english.split())
            return [(True, "".join(map(_fold, term)))] if not entry.case_sensitive else [(False, term)]
        term = _chinese_key(entry)
        return [(False, form) for form in dict.fromkeys((term, _to_simplified()(term)))]

    def occurrences(self, text: str) -> list[tuple[GlossaryEntry, int, int]]:
        if not self.automata or not text:
            return []
        if self.language is Language.ZH:
            spots = {
                (entry, end + 1 - len(term), end + 1)
                for end, (term, entries) in self.automata[False].iter(text)
                for entry in entries
            }
            return sorted(spots, key=lambda s: (self.rank[id(s[0])], s[1]))
        spaced, where = _one_space(text)
        hits: dict[int, list[tuple[int, int]]] = {}
        entries_of: dict[int, GlossaryEntry] = {}
        for folded, automaton in self.automata.items():
            haystack = "".join(map(_fold, spaced)) if folded else spaced
            for end, (term, entries) in automaton.iter(haystack):
                start, stop = where[end + 1 - len(term)], where[end] + 1
                for entry in entries:
                    if _whole_word(text, start, stop, _WORD_CHAR[not entry.case_sensitive]):
                        hits.setdefault(id(entry), []).append((start, stop))
                        entries_of[id(entry)] = entry
        found = []
        for key, spans in sorted(hits.items(), key=lambda item: self.rank[item[0]]):
            # one entry's hits do not overlap (as re.finditer's do not)
            reach = -1
            for start, stop in sorted(spans):
                if start >= reach:
                    found.append((entries_of[key], start, stop))
                    reach = stop
        return found


def _automaton(terms: dict[str, list[GlossaryEntry]]):
    import ahocorasick

    automaton = ahocorasick.Automaton()
    for term, entries in terms.items():
        automaton.add_word(term, (term, entries))
    automaton.make_automaton()
    return automaton


def _one_space(text: str) -> tuple[str, list[int]]:
    """`text` with each run of whitespace as one space, and for each of its characters the
    index of the character it stands for in `text` (a run: its first character)."""
    chars, where, previous_space = [], [], False
    for index, char in enumerate(text):
        space = char.isspace()
        if not (space and previous_space):
            chars.append(" " if space else char)
            where.append(index)
        previous_space = space
    return "".join(chars), where


def _whole_word(text: str, start: int, stop: int, word_char: re.Pattern) -> bool:
    return not (start > 0 and word_char.match(text, start - 1)) and not (
        stop < len(text) and word_char.match(text, stop)
    )


def _same_term(a: str, b: str) -> bool:
    """Two targets that differ only in spacing or case are the same term."""
    return " ".join(a.split()).casefold() == " ".join(b.split()).casefold() or "".join(a.split()) == "".join(b.split())


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
    flags = {f.strip().lower() for f in columns[2].split(",")} if len(columns) == 3 else set()
    if "heard" in flags:  # a correction of recognised text: heard<TAB>written, in one language
        if _language_of(english) is not _language_of(chinese):
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


def _occurrences(entry: GlossaryEntry, text: str, language: Language) -> list[tuple[int, int]]:
    if entry.heard and language is Language.ZH:  # a Chinese heard form is in the first column
        entry = replace(entry, chinese=entry.english)
    if language is Language.EN:
        words = [re.escape(w) for w in entry.english.split()]
        if not words:
            return []
        pattern = r"(?<![A-Za-z0-9])" + r"\s+".join(words) + r"(?![A-Za-z0-9])"
        flags = 0 if entry.case_sensitive else re.IGNORECASE
        return [(m.start(), m.end()) for m in re.finditer(pattern, text, flags)]
    term = _chinese_key(entry)
    spots = []
    for form in dict.fromkeys((term, _to_simplified()(term))):
        start = text.find(form)
        while form and start >= 0:
            spots.append((start, start + len(form)))
            start = text.find(form, start + 1)
    return sorted(set(spots))
