"""Corrections of heard text in the glossary file (issue 26): the `heard` flag."""

from __future__ import annotations

from app.shared.glossary import Glossary, GlossaryEntry


def test_heard_corrections_rewrite_recognised_text_and_become_hotwords():
    glossary = Glossary.parse("Jon\tJohn\theard\n王伟\t王薇\theard\nteacher\t老师\n")
    assert not glossary.problems
    assert glossary.rewrite_heard("jon met Jonathan and Jon.") == "John met Jonathan and John."
    assert glossary.rewrite_heard("王伟来了，王伟也来了") == "王薇来了，王薇也来了"
    assert glossary.terms("en") == ["teacher", "John"] and glossary.terms("zh") == ["老师", "王薇"]
    assert [e.english for e in glossary.active()] == ["teacher"]  # corrections are not translations
    assert glossary.matches("Jon is a teacher", "en-zh")[0].target == "老师"
    assert Glossary.parse(glossary.to_tsv()).entries == glossary.entries  # written and read back the same


def test_a_heard_correction_across_languages_is_a_problem():
    glossary = Glossary.parse("Jon\t约翰\theard\n")
    assert not glossary.entries and "one language" in glossary.problems[0].message


def test_a_correction_takes_the_place_of_the_entry_in_effect():
    glossary = Glossary.parse("teacher\t老师\nJon\tJohn\theard\nBeijing\t北京\n", "g.tsv")
    fixed = glossary.with_correction(GlossaryEntry("teacher", "教师"), "en")
    assert [(e.english, e.chinese, e.line) for e in fixed.entries] == [
        ("teacher", "教师", 1),  # on the line of the entry it replaces
        ("Jon", "John", 2),
        ("Beijing", "北京", 3),
    ]
    spoken_chinese = fixed.with_correction(GlossaryEntry("Peking", "北京"), "zh")  # 北京 heard: now Peking
    assert [(e.english, e.chinese) for e in spoken_chinese.active()] == [("teacher", "教师"), ("Peking", "北京")]
    again = fixed.with_correction(GlossaryEntry("JON", "Jonny", heard=True))
    assert [(e.english, e.chinese) for e in again.active() + again.corrections()] == [
        ("teacher", "教师"),
        ("Beijing", "北京"),
        ("JON", "Jonny"),
    ]
    new = again.with_correction(GlossaryEntry("Smith", "Smythe", heard=True))  # nothing in effect: added last
    assert new.entries[-1].english == "Smith" and new.entries[-1].line == 0
