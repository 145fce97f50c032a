"""The glossary file: parsing (comments, malformed lines by number, the third column), conflicts,
merging several files, and matching terms in a sentence."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.shared.errors import LiveTranslatorError
from app.shared.glossary import HAN, Glossary, GlossaryEntry
from models.glossary_cases import reference_matches

TEXT = """# a comment
Beijing\t北京

   # an indented comment
computer\t电脑
a line without a tab
Apple\t苹果\tcase
x\ty\tcase,off
one\ttwo\tthree\tfour
\t空
北京\tBeijing
Computer\t计算机
laptop\t电脑
New York\t紐約
New York Times\t纽约时报
odd\t奇\tshout
"""


def test_malformed_lines_are_reported_by_number_and_the_rest_works():
    g = Glossary.parse(TEXT, "terms.tsv")
    malformed = {p.line: p.message for p in g.problems if not p.message.startswith("conflict")}
    assert sorted(malformed) == [6, 9, 10, 11, 16]
    assert "no TAB" in malformed[6] and "found 4" in malformed[9] and "empty" in malformed[10]
    assert "first column holds Chinese" in malformed[11] and "unknown flag 'shout'" in malformed[16]
    assert str(next(p for p in g.problems if p.line == 6)).startswith("terms.tsv:6: ")
    assert [e.english for e in g.entries] == [
        "Beijing",
        "computer",
        "Apple",
        "x",
        "Computer",
        "laptop",
        "New York",
        "New York Times",
    ]
    apple, x = g.entries[2], g.entries[3]
    assert apple.case_sensitive and apple.enabled and x.case_sensitive and not x.enabled


def test_conflicts_one_source_two_targets_are_reported_and_the_first_is_used():
    g = Glossary.parse(TEXT, "terms.tsv")
    conflicts = {p.line: p.message for p in g.problems if p.message.startswith("conflict")}
    assert sorted(conflicts) == [12, 13]
    assert "English 'Computer' already means '电脑' (line 5)" in conflicts[12]
    assert "Chinese '电脑' already means 'computer' (line 5)" in conflicts[13]
    assert [m.target for m in g.matches("My Computer is new.", "en-zh")] == ["电脑"]
    assert [m.target for m in g.matches("我的电脑", "zh-en")] == ["computer"]
    assert not Glossary.parse("Apple\t苹果\napple\t苹果\n").problems  # the same target is no conflict


def test_several_glossaries_merge_and_conflicts_between_files_are_reported(tmp_path):
    a, b = tmp_path / "a.tsv", tmp_path / "b.tsv"
    a.write_text("Peking\t北京\n", encoding="utf-8")
    b.write_text("\ufeffBeijing\t北京\nlaptop\t电脑\n", encoding="utf-8")  # a BOM is fine
    g = Glossary.load_all([a, b])
    assert [e.english for e in g.entries] == ["Peking", "Beijing", "laptop"]
    assert [str(p) for p in g.problems] == [
        f"{b}:1: conflict: Chinese '北京' already means 'Peking' (line 1 of {a}); 'Beijing' is not used for it"
    ]
    assert g.terms("en") == ["Peking", "Beijing", "laptop"] and g.terms("zh") == ["北京", "电脑"]


def test_unreadable_files_are_clear_errors(tmp_path):
    with pytest.raises(LiveTranslatorError, match="Cannot read the glossary"):
        Glossary.load(tmp_path / "none.tsv")
    latin1 = tmp_path / "latin1.tsv"
    latin1.write_bytes("café\t咖啡\n".encode()[:3] + b"\xe9\t\n")
    with pytest.raises(LiveTranslatorError, match="not UTF-8"):
        Glossary.load(latin1)


def test_english_matches_whole_words_and_case_only_when_asked():
    g = Glossary.parse(TEXT)
    found = g.matches("I love new  york, the New York Times and an apple from Apple; computers, computer.", "en-zh")
    assert [(m.source, m.target) for m in found] == [
        ("New York", "紐約"),
        ("New York Times", "纽约时报"),
        ("Apple", "苹果"),
        ("computer", "电脑"),
    ]
    assert found[0].start == 7 and found[-1].start == len(
        "I love new  york, the New York Times and an apple from Apple; computers, "
    )
    assert g.matches("Xylophone x", "en-zh") == []  # an entry that is off is never used


def test_chinese_matches_exact_characters_in_simplified_too():
    g = Glossary.parse(TEXT)
    found = g.matches("我去纽约和北京，买了电脑。", "zh-en")
    assert [(m.source, m.target) for m in found] == [("紐約", "New York"), ("北京", "Beijing"), ("电脑", "computer")]
    assert g.matches("我去纽", "zh-en") == []


def test_round_trip_through_tsv(tmp_path):
    g = Glossary.parse(TEXT)
    path = tmp_path / "out.tsv"
    g.save(path)
    again = Glossary.load(path)
    assert [(e.english, e.chinese, e.case_sensitive, e.enabled) for e in again.entries] == [
        (e.english, e.chinese, e.case_sensitive, e.enabled) for e in g.entries
    ]


TERM = (
    st.text(
        alphabet=st.characters(codec="utf-8", exclude_categories=("Cc", "Cs", "Zl", "Zp"), exclude_characters="\t#"),
        min_size=1,
        max_size=12,
    )
    .map(str.strip)
    .filter(bool)
)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(TERM.filter(lambda t: not HAN.search(t)), TERM, st.booleans(), st.booleans()), max_size=8))
def test_any_entries_survive_a_round_trip_through_the_file(rows):
    text = "".join(
        f"{en}\t{zh}"
        + (f"\t{','.join(f for f, on in (('case', case), ('off', not on)) if on)}" if case or not on else "")
        + "\n"
        for en, zh, case, on in rows
    )
    g = Glossary.parse(text)
    assert [(e.english, e.chinese, e.case_sensitive, e.enabled) for e in g.entries] == rows
    assert not [p for p in g.problems if not p.message.startswith("conflict")]
    assert Glossary.parse(g.to_tsv()).entries == g.entries


# -- one automaton for every term, the same matches as one expression per entry (issue 27) -----


def ours(glossary, text, direction):
    return [(m.source, m.target, m.start, m.end) for m in glossary.matches(text, direction)]


def test_word_edges_spaces_case_and_overlaps_as_before():
    g = Glossary.parse(
        "new york\t纽约\nNew York Times\t纽约时报\nYork\t约克\tcase\nyork\t約克\na a\t甲\nC++\tC加加\n"
        "e-mail\t电邮\nA1\t甲一\n"
    )
    for text in (
        "New\u00a0 York Times and york, NewYork x2york York",
        "a a a a",
        "C++ and C++x; e-mail e-mails",
        "A1 a1 A10 xA1",
        "",
        "   ",
        "new\n\tyork",
    ):
        assert ours(g, text, "en-zh") == reference_matches(g, text, "en-zh"), text
    z = Glossary.parse("x\t纽约\ny\t紐約\nz\t约\nw\t约约\n")
    for text in ("纽约纽约", "紐約约约约", ""):
        assert ours(z, text, "zh-en") == reference_matches(z, text, "zh-en"), text


WORDY = st.text(alphabet="aAbBcC 1-+.\u00a0", min_size=1, max_size=6).map(str.strip).filter(bool)
HANZI = st.text(alphabet="纽約约北京电脑腦 ", min_size=1, max_size=4).map(str.strip).filter(bool)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.tuples(WORDY, HANZI, st.booleans()), min_size=1, max_size=8),
    st.text(alphabet="aAbBcC 1-+.\n\u00a0x纽約约北京电脑腦", max_size=30),
)
def test_the_automaton_finds_what_one_expression_per_entry_found(rows, text):
    g = Glossary([GlossaryEntry(en, zh, case) for en, zh, case in rows])
    for direction in ("en-zh", "zh-en"):
        assert ours(g, text, direction) == reference_matches(g, text, direction)


def test_a_glossary_file_too_large_is_refused_with_its_size(tmp_path):
    big = tmp_path / "big.tsv"
    with big.open("wb") as f:
        f.truncate(50 << 20)
    with pytest.raises(LiveTranslatorError, match=r"52\.4 MB.*up to 33\.6 MB"):
        Glossary.load(big)


def test_the_automaton_follows_changes_to_the_entries():
    g = Glossary.parse("apple\t苹果\n")
    assert ours(g, "an apple", "en-zh") == [("apple", "苹果", 3, 8)]
    g.entries.append(GlossaryEntry("pear", "梨"))
    g = g.with_entry(0, enabled=False)
    assert ours(g, "an apple and a pear", "en-zh") == [("pear", "梨", 15, 19)]
