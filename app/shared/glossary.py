"""The user's glossary: English <-> Chinese terms that must come out right.

A glossary file is UTF-8 text, one entry per line, columns separated by a TAB:

    english<TAB>chinese[<TAB>flags]

`#` starts a comment line; blank lines are ignored. The optional third column holds flags
separated by commas: `case` (match the English side case-sensitively) and `off` (keep the
entry but do not use it; the window's editor writes this for unticked entries). One line is
read by `app/shared/glossary_line.py`; a term is at most MAX_TERM_CHARS characters.

A line flagged `heard` is a correction of recognised text, not a translation: `heard<TAB>written
<TAB>heard` (both sides in one language) means "when speech recognition writes the first, write
the second"; the second is also given to Whisper as a hotword (`Glossary.rewrite_heard`). The
window's Correct… dialog writes such lines (`Glossary.with_correction`).

Parsing never fails on a bad line: the line is skipped and reported (`Glossary.problems`, with
its line number), and the rest works. One rule for two entries that disagree, translations and
corrections alike: the first one is used and the later one is reported as a conflict, naming
both lines. Several glossaries merge into one (`Glossary.merge`). Saving edits the file in place
and keeps every other byte (`app/shared/glossary_file.py`).

Matching (`Glossary.matches`, `app/shared/glossary_match.py`): English terms as whole words
(case-insensitive unless `case`, any run of spaces matching a space), Chinese terms as the exact
characters, written as the user wrote them or in Simplified characters. Whisper gets the terms
that fit its prompt (`Glossary.terms`). This module is data only: the translation engine, the
recogniser and the window use it.
"""

from __future__ import annotations

import itertools
import logging
import math
import threading
from dataclasses import dataclass, field, replace
from pathlib import Path

from app.shared import glossary_file
from app.shared.chinese import script_of, to_script, to_simplified
from app.shared.collector import pace, quiet_collector
from app.shared.errors import QT_TRANSLATE_NOOP, Text
from app.shared.glossary_file import MAX_ENTRIES, MAX_GLOSSARY_BYTES
from app.shared.glossary_line import FLAGS, HAN, MAX_TERM_CHARS, GlossaryEntry, language_of, read_line
from app.shared.glossary_match import HeardMatcher, TermMatcher, chinese_key, english_key, longest_first
from app.shared.languages import Direction, Language

log = logging.getLogger(__name__)

__all__ = [
    "FLAGS",
    "HAN",
    "MAX_ENTRIES",
    "MAX_GLOSSARY_BYTES",
    "MAX_TERM_CHARS",
    "Glossary",
    "GlossaryEntry",
    "GlossaryMatch",
]

# Whisper's hotwords: faster-whisper keeps the first 223 tokens of them (half its 448-token
# prompt, less one) and cuts the rest, mid-term. The terms given stay under this many tokens.
HOTWORD_TOKENS = 200
# Whisper (base's tokenizer) took 0.59 tokens per byte of English glossary terms (0.82 at most, a
# short word) and 0.5 per byte of Chinese (1.5 per character; 2 at most); each term one more for
# its separator. Estimated from above, so the terms given fit.
HOTWORD_TOKENS_PER_BYTE = 0.75
_PREPARING = threading.Lock()


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


@dataclass
class Glossary:
    entries: list[GlossaryEntry] = field(default_factory=list)
    problems: list[GlossaryProblem] = field(default_factory=list)

    # -- reading and writing -------------------------------------------------------------------
    @classmethod
    def parse(cls, text: str, origin: str = "<glossary>") -> Glossary:
        glossary = cls()
        for number, line in enumerate(text.splitlines(), start=1):
            if number % 5_000 == 0:
                pace()  # read in the background (a watched file changed): the live threads go on
            read = read_line(line, origin, number)
            if isinstance(read, GlossaryEntry):
                glossary.entries.append(read)
            elif read is not None:
                glossary.problems.append(GlossaryProblem.of(origin, number, read))
        glossary.problems += glossary.conflicts()
        return glossary

    @classmethod
    def load(cls, path: str | Path) -> Glossary:
        """The glossary file at `path`; a LiveTranslatorError when it cannot be read (glossary_file.read_text)."""
        return cls.parse(glossary_file.read_text(path), str(path))

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
        glossary_file.check_count(len(merged.entries))
        merged.problems += merged.conflicts()
        return merged

    def to_tsv(self) -> str:
        return "".join(entry.to_tsv() + "\n" for entry in self.entries)

    def save(self, path: str | Path) -> None:
        """Make the file at `path` hold these entries, editing only their lines: comments, lines
        with a problem and the file's line endings stay (glossary_file.save). A failed save
        raises a LiveTranslatorError and leaves the file byte for byte."""
        glossary_file.save(path, self.entries)

    def export(self, path: str | Path) -> None:
        """A new file at `path` holding these entries (what was there is replaced, in one step)."""
        glossary_file.export(path, self.entries)

    # -- checking ------------------------------------------------------------------------------
    def conflicts(self) -> list[GlossaryProblem]:
        """Enabled entries that give one source two targets, in either direction, and
        corrections that write the same heard words two ways: the first is used."""
        problems = []
        for source, target in ((Language.EN, Language.ZH), (Language.ZH, Language.EN)):
            key_of = english_key if source is Language.EN else chinese_key
            first: dict[str, GlossaryEntry] = {}
            for entry in self.active():
                earlier = first.setdefault(key_of(entry), entry)
                if earlier is not entry and not _same_term(earlier.side(target), entry.side(target)):
                    problems.append(_conflict(entry, earlier, Text(LANGUAGE_WORDS[source]), source, target))
        first = {}
        for entry in self._enabled_corrections():
            earlier = first.setdefault(_heard_key(entry), entry)
            if earlier is not entry and not _same_term(earlier.chinese, entry.chinese):
                problems.append(_conflict(entry, earlier, Text(HEARD_WORDS), Language.EN, Language.ZH))
        return problems

    def active(self) -> list[GlossaryEntry]:
        """The enabled translation entries (corrections of heard text are not translations)."""
        return [e for e in self.entries if e.enabled and not e.heard]

    def corrections(self) -> list[GlossaryEntry]:
        """The corrections of recognised text in use (`heard` lines): enabled ones, the first of
        those that correct the same heard words."""

        def first_of_each() -> list[GlossaryEntry]:
            first: dict[str, GlossaryEntry] = {}
            for entry in self._enabled_corrections():
                first.setdefault(_heard_key(entry), entry)
            return list(first.values())

        return self._cached("corrections", first_of_each)

    def _enabled_corrections(self) -> list[GlossaryEntry]:
        return [e for e in self.entries if e.enabled and e.heard]

    def __bool__(self) -> bool:
        return any(e.enabled for e in self.entries)

    def in_effect(self, entry: GlossaryEntry, spoken: Language | str | None = None) -> GlossaryEntry | None:
        """The entry that now decides what the correction `entry` is about: the correction in
        use for the same heard words (a `heard` entry), or the translation entry in use for the
        same spoken term (a translation entry; `spoken` says which side is heard). None: nothing."""
        index = self._in_effect_index(entry, spoken)
        return None if index is None else self.entries[index]

    def _in_effect_index(self, entry: GlossaryEntry, spoken: Language | str | None) -> int | None:
        if entry.heard:
            same = lambda e: e.heard and _heard_key(e) == _heard_key(entry)  # noqa: E731
        else:
            key_of = english_key if Language(spoken or Language.EN) is Language.EN else chinese_key
            same = lambda e: not e.heard and key_of(e) == key_of(entry)  # noqa: E731
        return next((i for i, e in enumerate(self.entries) if e.enabled and same(e)), None)

    def with_correction(self, entry: GlossaryEntry, spoken: Language | str | None = None) -> Glossary:
        """This glossary with the correction `entry` in use: it takes the place, and the line in
        the file, of the entry in effect for the same words (`in_effect`); without one it is added
        last. Every other entry stays as it is (saving then edits that one line)."""
        entries = list(self.entries)
        index = self._in_effect_index(entry, spoken)
        if index is None:
            entries.append(entry)
        else:
            entries[index] = replace(entry, origin=entries[index].origin, line=entries[index].line)
        return Glossary(entries, [])

    # -- using it ------------------------------------------------------------------------------
    def terms(self, language: Language | str) -> list[str]:
        """Whisper's hotwords in `language`, once each, in the glossary's order: the corrections'
        written sides first, then the translation entries' terms, the newest (last in the file)
        first, as long as they fit in HOTWORD_TOKENS. A glossary of 500,000 entries gives Whisper
        the few dozen terms the prompt holds, not a prompt faster-whisper cuts mid-term."""
        language = Language(language)
        return self._cached(("terms", language), lambda: self._hotwords(language))

    def _hotwords(self, language: Language) -> list[str]:
        size = len(self.entries)
        corrections = [
            (size + n, e.chinese) for n, e in enumerate(self.corrections()) if language_of(e.chinese) is language
        ]
        translations = (
            (n, self.entries[n].side(language))
            for n in range(size - 1, -1, -1)
            if self.entries[n].enabled and not self.entries[n].heard
        )
        chosen: dict[str, int] = {}  # term -> its place (corrections after every translation entry)
        budget = HOTWORD_TOKENS
        for place, term in itertools.chain(reversed(corrections), translations):
            if term in chosen:
                continue
            cost = hotword_tokens(term)
            if cost > budget:
                break  # the newest that fit: not older ones squeezed in after a long one
            chosen[term] = place
            budget -= cost
        return sorted(chosen, key=chosen.__getitem__)

    def rewrite_heard(self, text: str) -> str:
        """Recognised `text` with the corrections applied: each heard form (English as whole
        words, case-insensitive unless `case`; Chinese in any script) written as the correction
        says, Chinese in the script `text` is written in. One pass of an automaton over every
        heard form (HeardMatcher): a text costs about the same with 10,000 corrections as with 10."""
        if not text or not self.corrections():
            return text
        spots = self._heard_matcher().spots(text)
        chinese = any(HAN.search(entry.chinese) for entry, _, _ in spots)
        script = script_of(text) if chinese else None  # None: as the correction writes it
        for entry, start, end in reversed(spots):
            written = to_script(entry.chinese, script) if script and HAN.search(entry.chinese) else entry.chinese
            text = text[:start] + written + text[end:]
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
        return longest_first(found)

    def _heard_matcher(self) -> HeardMatcher:
        return self._cached("heard", lambda: HeardMatcher(self.corrections()))

    def prepare(self) -> Glossary:
        """Build now what a session builds on first use (hotwords, the automata). For a large
        glossary that takes seconds (500,000 entries: docs/glossary.md, 'How large'), so a
        session does it on a thread of its own (app/pipeline/glossary_builder.py)."""
        with _PREPARING, quiet_collector():  # two sides of a conversation offer one glossary: built once
            for language in Language:
                self.terms(language)
                self._matcher(language)
            if self.corrections():
                self._heard_matcher()
        return self

    def _matcher(self, language: Language) -> TermMatcher:
        """The automaton for this glossary's active entries in `language`."""
        return self._cached(("matcher", language), lambda: TermMatcher(self.active(), language))

    def _cached(self, key, build):
        """`build()`, kept until the entries change. Entries are appended while a glossary is read
        and merged, never replaced in place (with_entry makes a new Glossary): the list and its
        length say whether they changed."""
        cache = self.__dict__.get("_cache")
        if cache is None or cache[0] is not self.entries or cache[1] != len(self.entries):
            cache = self.__dict__["_cache"] = (self.entries, len(self.entries), {})
        if key not in cache[2]:
            cache[2][key] = build()
        return cache[2][key]

    def with_entry(self, index: int, **changes) -> Glossary:
        entries = list(self.entries)
        entries[index] = replace(entries[index], **changes)
        return Glossary(entries, list(self.problems))


HEARD_WORDS = QT_TRANSLATE_NOOP("Errors", "heard")  # a correction's conflict: "conflict: heard 'Jon' already means …"


def hotword_tokens(term: str) -> int:
    """Whisper tokens `term` takes among the hotwords, estimated from above (with its separator)."""
    return 1 + math.ceil(len(term.encode("utf-8")) * HOTWORD_TOKENS_PER_BYTE)


def _heard_key(entry: GlossaryEntry) -> str:
    """The heard words a correction is about: English folded (unless `case`), Chinese in Simplified."""
    if language_of(entry.english) is Language.EN:
        return english_key(entry)
    return to_simplified("".join(entry.english.split()))


def _conflict(
    entry: GlossaryEntry, earlier: GlossaryEntry, kind: Text, source: Language, target: Language
) -> GlossaryProblem:
    """`entry` is not used for its source term: `earlier` (line and file named) gives it already."""
    values = {
        "language": kind,
        "term": repr(entry.side(source)),
        "meaning": repr(earlier.side(target)),
        "line": earlier.line,
        "origin": earlier.origin,
        "unused": repr(entry.side(target)),
    }
    template = (
        QT_TRANSLATE_NOOP(
            "Errors", "conflict: {language} {term} already means {meaning} (line {line}); {unused} is not used for it"
        )
        if earlier.origin == entry.origin
        else QT_TRANSLATE_NOOP(
            "Errors",
            "conflict: {language} {term} already means {meaning} (line {line} of {origin}); "
            "{unused} is not used for it",
        )
    )
    return GlossaryProblem.of(entry.origin or "<glossary>", entry.line, Text(template, values))


def _same_term(a: str, b: str) -> bool:
    """Two targets that differ only in spacing or case are the same term."""
    return " ".join(a.split()).casefold() == " ".join(b.split()).casefold() or "".join(a.split()) == "".join(b.split())
