"""Glossary terms in the decoder (lexically constrained search): on the fixture and phrasebook
models, a held-out list of sentences whose glossary term the model does not write on its own;
with the glossary, every translation contains the term, greedy and beam 4. Sentences without
a term decode exactly as without a glossary (tests/translation/test_reference_parity.py runs
generate's references with a glossary active)."""

from __future__ import annotations

import pytest

from app.shared.chinese import ChineseScript
from app.shared.glossary import Glossary
from app.translation import DecodeOptions, Translator
from models.glossary_cases import GLOSSARY, HELD_OUT, PHRASEBOOK

from .conftest import family_dir, translator


def _id(case) -> str:
    folder, direction, text, _ = case
    return f"{folder.parent.name}-{direction}-{text[:12]}"


@pytest.mark.parametrize("folder,direction,text,targets", HELD_OUT, ids=[_id(c) for c in HELD_OUT])
def test_every_translation_contains_the_glossary_term(folder, direction, text, targets):
    t = translator(str(folder), direction)
    for beams in (1, 4):
        plain = t.translate(text, DecodeOptions(num_beams=beams))
        assert all(target not in plain.text for target in targets), ("held out: the model writes it itself", plain.text)
        result = t.translate(text, DecodeOptions(num_beams=beams, glossary=GLOSSARY))
        assert all(target in result.text for target in targets), (beams, result.text)
        uses = [u for s in result.sentences for u in s.glossary]
        assert sorted(u.target for u in uses) == sorted(targets) and all(u.honoured for u in uses), uses
        assert any(step.forced for step in result.steps)  # the diagnostics show where the glossary decided
        assert all(step.to_json().get("forced", False) == step.forced for step in result.steps)
        assert result.stop_reason in ("eos", "length")


def test_a_sentence_without_a_term_decodes_as_without_a_glossary():
    t = translator(str(family_dir("marian-en-zh") / "merged"), "en-zh")
    text = "Can you help me? The weather is nice today."  # the glossary matches the second sentence only
    for beams in (1, 4):
        plain = t.translate(text, DecodeOptions(num_beams=beams))
        result = t.translate(text, DecodeOptions(num_beams=beams, glossary=GLOSSARY))
        assert result.sentences[0].token_ids == plain.sentences[0].token_ids
        assert [s.token_id for s in result.sentences[0].steps] == [s.token_id for s in plain.sentences[0].steps]
        assert result.sentences[0].glossary == [] and not any(s.forced for s in result.sentences[0].steps)
        assert "天气" in result.sentences[1].translation and "天气" not in plain.sentences[1].translation


def test_terms_the_target_vocabulary_cannot_write_are_reported_not_honoured():
    t = translator(str(PHRASEBOOK / "en-zh"), "en-zh")
    glossary = Glossary.parse("coffee\t拿铁\n")  # characters the phrasebook's vocabulary lacks
    plain = t.translate("She likes coffee.", DecodeOptions())
    result = t.translate("She likes coffee.", DecodeOptions(glossary=glossary))
    assert result.token_ids == plain.token_ids
    assert [u.to_json() for u in result.sentences[0].glossary] == [
        {"source": "coffee", "target": "拿铁", "honoured": False}
    ]


def test_a_term_written_in_traditional_chinese_is_honoured():
    t = Translator.load(PHRASEBOOK / "en-zh", direction="en-zh", chinese=ChineseScript.TRADITIONAL)
    result = t.translate("The computer is broken.", DecodeOptions(glossary=GLOSSARY))
    assert "老師" in result.text and "老师" not in result.text, result.text
    assert [u.to_json() for u in result.sentences[0].glossary] == [
        {"source": "computer", "target": "老师", "honoured": True}
    ]


def test_term_variants_cover_word_start_and_inside_text():
    t = translator(str(family_dir("m2m100") / "merged"), "zh-en")
    pieces = [[t.codec.piece(i) for i in v] for v in t.codec.term_variants("Peking")]
    assert ["▁P", "ek", "ing"] in pieces and ["P", "ek", "ing"] in pieces
    zh = translator(str(family_dir("marian-en-zh") / "merged"), "en-zh")
    assert all(zh.codec.decode(list(v)) == "电脑" for v in zh.codec.term_variants("电脑"))
    assert zh.codec.term_variants("Peking") == ()  # no Latin letters in this target vocabulary
