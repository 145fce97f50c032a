"""Finding glossary terms in a sentence.

Translation entries (`TermMatcher`): every occurrence of every term in one pass of an
Aho-Corasick automaton (pyahocorasick), built once per glossary and language. English terms as
whole words, case-insensitive unless `case`, any run of spaces matching a space; Chinese terms
as the exact characters, as written or in Simplified (the script the translation models read).

Corrections of heard text (`HeardMatcher`): the heard words in a recognised text, English the
same way, Chinese in whichever script the text is written (a correction written in Simplified
also finds Traditional output), with the same automata.
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Iterator
from dataclasses import replace

from app.shared.chinese import ChineseScript, to_script, to_simplified
from app.shared.collector import pace
from app.shared.glossary_line import HAN, GlossaryEntry
from app.shared.languages import Language


def english_key(entry: GlossaryEntry) -> str:
    text = " ".join(entry.english.split())
    return text if entry.case_sensitive else text.casefold()


def chinese_key(entry: GlossaryEntry) -> str:
    return "".join(entry.chinese.split())


class _Lowered(dict):
    """str.translate's table for fold(): each character lowered on its own, looked up once."""

    def __missing__(self, code: int) -> str:
        low = chr(code).lower()
        self[code] = value = low if len(low) == 1 else chr(code)
        return value


_LOWERED = _Lowered()


def fold(text: str) -> str:
    """`text` as case-insensitive matching compares it: each character lowered on its own (one
    that lowering makes longer, like İ, stays), so positions in `text` stay positions in it.
    ASCII text lowers character by character anyway, and str.lower is 5x as fast."""
    return text.lower() if text.isascii() else text.translate(_LOWERED)


# An English term's edges: no ASCII letter or digit may touch it (the same class, with the same
# flags, as the per-entry expressions this replaces: IGNORECASE makes it take e.g. the Kelvin sign).
_WORD_CHAR = {False: re.compile(r"[A-Za-z0-9]"), True: re.compile(r"[A-Za-z0-9]", re.IGNORECASE)}


class TermMatcher:
    """Every occurrence of every term in a sentence, in one pass of an Aho-Corasick automaton
    (pyahocorasick). English: the sentence with each run of whitespace read as one space (and
    folded for the entries without `case`); each hit then checked for whole-word edges in the
    sentence itself. Chinese: the exact characters, as written and in Simplified (with
    `all_scripts`, in each script the app writes too)."""

    def __init__(self, entries: list[GlossaryEntry], language: Language, all_scripts: bool = False):
        self.language = language
        self.all_scripts = all_scripts
        key_of = english_key if language is Language.EN else chinese_key
        chosen: dict[str, GlossaryEntry] = {}
        for part in _parts(entries):  # in parts, each followed by a pause when built in the background
            for entry in part:
                chosen.setdefault(key_of(entry), entry)
        self.rank = {id(entry): n for n, entry in enumerate(chosen.values())}  # ties go to the earlier entry
        terms: dict[bool, dict[str, list[GlossaryEntry]]] = {}  # folded (case-insensitive) or not -> term -> entries
        for part in _parts(list(chosen.values())):
            for entry, keys in zip(part, self._keys(part), strict=True):
                for folded, term in keys:
                    if term:
                        terms.setdefault(folded, {}).setdefault(term, []).append(entry)
        self.automata = {folded: _automata(found) for folded, found in terms.items()}

    def _keys(self, entries: list[GlossaryEntry]) -> list[list[tuple[bool, str]]]:
        """Per entry, the (folded, term) keys it is found by."""
        if self.language is Language.EN:
            spaced = [" ".join(entry.english.split()) for entry in entries]
            return [
                [(False, t)] if e.case_sensitive else [(True, fold(t))] for e, t in zip(entries, spaced, strict=True)
            ]
        terms = [chinese_key(entry) for entry in entries]
        if self.all_scripts:
            return [[(False, form) for form in script_forms(term)] for term in terms]
        simplified = _simplified(terms)
        return [[(False, form) for form in dict.fromkeys(pair)] for pair in zip(terms, simplified, strict=True)]

    def occurrences(self, text: str) -> list[tuple[GlossaryEntry, int, int]]:
        if not self.automata or not text:
            return []
        if self.language is Language.ZH:
            spots = {
                (entry, end + 1 - len(term), end + 1)
                for automaton in self.automata[False]
                for end, (term, entries) in automaton.iter(text)
                for entry in entries
            }
            return sorted(spots, key=lambda s: (self.rank[id(s[0])], s[1]))
        spaced, where = _one_space(text)
        hits: dict[int, list[tuple[int, int]]] = {}
        entries_of: dict[int, GlossaryEntry] = {}
        for folded, automata in self.automata.items():
            haystack = fold(spaced) if folded else spaced
            for end, (term, entries) in itertools.chain.from_iterable(a.iter(haystack) for a in automata):
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


# Terms per automaton. pyahocorasick's make_automaton holds Python's lock for the whole build
# (4.7 s for 200,000 terms at load 10 here): every other thread, recognition too, waits. In
# automata of this many terms each, no wait is longer than ~0.1 s, and a sentence is scanned
# once per automaton (100 automata at 500,000 entries: well under a millisecond a sentence).
TERMS_PER_AUTOMATON = 5_000


def _parts(items: list) -> Iterator[list]:
    """items in parts of TERMS_PER_AUTOMATON; in a background build (app.shared.collector), a
    pause after each gives the live threads Python's lock back."""
    for first in range(0, len(items), TERMS_PER_AUTOMATON):
        yield items[first : first + TERMS_PER_AUTOMATON]
        pace()


def _automata(terms: dict[str, list[GlossaryEntry]]) -> list:
    import ahocorasick

    automata = []
    for part in _parts(list(terms.items())):
        automaton = ahocorasick.Automaton()
        for term, entries in part:
            automaton.add_word(term, (term, entries))
        automaton.make_automaton()
        automata.append(automaton)
    return automata


def _simplified(terms: list[str]) -> list[str]:
    """Each term in Simplified characters: one OpenCC call per TERMS_PER_AUTOMATON terms (a call
    per term took 10x as long on 500,000 entries; one call for all held Python's lock 0.55 s)."""
    simplified = []
    for part in _parts(terms):
        converted = to_simplified("\n".join(part)).split("\n")
        if len(converted) != len(part):  # not expected (terms hold no line breaks): one by one
            converted = [to_simplified(term) for term in part]
        simplified += converted
    return simplified


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


def longest_first(found: list) -> list:
    """Of overlapping matches (anything with entry, start and end) the one that starts first
    (then the longer) wins; an entry is used once."""
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


class HeardMatcher:
    """Where corrections' heard words (their first column) are in a recognised text: English as
    whole words (case-insensitive unless `case`), Chinese in any script; one automaton per
    language (TermMatcher), built once per glossary."""

    def __init__(self, corrections: list[GlossaryEntry]):
        english = [e for e in corrections if not HAN.search(e.english)]
        self.correction_of: dict[int, GlossaryEntry] = {}  # a Chinese heard form's stand-in -> its correction
        chinese = []
        for entry in corrections:
            if HAN.search(entry.english):  # matched as TermMatcher matches a Chinese side
                stand_in = replace(entry, chinese=entry.english)
                self.correction_of[id(stand_in)] = entry
                chinese.append(stand_in)
        self.matchers = [TermMatcher(english, Language.EN), TermMatcher(chinese, Language.ZH, all_scripts=True)]

    def spots(self, text: str) -> list[tuple[GlossaryEntry, int, int]]:
        """(correction, start, end) of the heard words in `text`, in order, not overlapping: of
        overlapping ones the one that starts first (then the longer, then the earlier entry) wins."""
        found = [spot for matcher in self.matchers for spot in matcher.occurrences(text)]
        found.sort(key=lambda spot: (spot[1], -(spot[2] - spot[1])))  # stable: the earlier entry stays first
        spots, covered_to = [], -1
        for entry, start, end in found:
            if start >= covered_to:
                spots.append((self.correction_of.get(id(entry), entry), start, end))
                covered_to = end
        return spots


@functools.lru_cache(maxsize=4096)
def script_forms(term: str) -> tuple[str, ...]:
    """A Chinese term as written, in Simplified, and in each Traditional script the app writes."""
    return tuple(dict.fromkeys([term, to_simplified(term)] + [to_script(term, s) for s in ChineseScript]))
