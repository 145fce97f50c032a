"""One rule for entries that disagree (the first is used, the later one reported naming both
lines), corrections of heard text in any Chinese script, and the bounds on what a glossary
gives Whisper and on the length of a term (issue 35)."""

from __future__ import annotations

import time

import pytest

from app.shared.errors import LiveTranslatorError
from app.shared.glossary import HOTWORD_TOKENS, MAX_ENTRIES, MAX_TERM_CHARS, Glossary, hotword_tokens


def test_two_corrections_of_the_same_heard_words_the_first_is_used_and_both_lines_are_named():
    glossary = Glossary.parse("# people\nJon\tJohn\theard\nteacher\t老师\nJON\tJonathan\theard\n", "g.tsv")
    assert [str(p) for p in glossary.problems] == [
        "g.tsv:4: conflict: heard 'JON' already means 'John' (line 2); 'Jonathan' is not used for it"
    ]
    assert glossary.rewrite_heard("jon is here") == "John is here"
    assert glossary.terms("en") == ["teacher", "John"]  # the unused one is no hotword either
    # translation entries follow the same rule, as they always did
    assert Glossary.parse("Apple\t苹果\napple\t萍果\n").matches("an apple", "en-zh")[0].target == "苹果"


def test_conflicts_between_files_name_the_other_file():
    merged = Glossary.merge(
        [Glossary.parse("王伟\t王薇\theard\n", "a.tsv"), Glossary.parse("王伟\t王为\theard\n", "b.tsv")]
    )
    assert [str(p) for p in merged.problems] == [
        "b.tsv:1: conflict: heard '王伟' already means '王薇' (line 1 of a.tsv); '王为' is not used for it"
    ]


def test_a_correction_written_in_simplified_corrects_traditional_output_in_its_script():
    glossary = Glossary.parse("王伟\t王薇\theard\n软件\t软体\theard\n")
    assert glossary.rewrite_heard("王偉來了，王伟也来了") == "王薇來了，王薇也来了"  # mixed script: as written
    assert glossary.rewrite_heard("我們的軟件") == "我們的軟體"  # Traditional text, Traditional correction
    assert glossary.rewrite_heard("我们的软件") == "我们的软体"
    traditional = Glossary.parse("軟件\t軟體\theard\n")  # and the other way round
    assert traditional.rewrite_heard("我们的软件很好") == "我们的软体很好"


def test_a_term_longer_than_the_limit_is_refused_with_its_length():
    long_term = "x" * (MAX_TERM_CHARS + 1)
    glossary = Glossary.parse(f"ok\t好\n{long_term}\t长\nJon\t{'约' * 54_000}\theard\n")
    assert [e.english for e in glossary.entries] == ["ok"]
    assert [(p.line, p.message) for p in glossary.problems] == [
        (2, f"a term of {MAX_TERM_CHARS + 1} characters: a glossary term is a name or a phrase of at most 100"),
        (3, "a term of 54000 characters: a glossary term is a name or a phrase of at most 100"),
    ]
    assert Glossary.parse(f"{'y' * MAX_TERM_CHARS}\t好\n").entries  # the limit itself is fine


def test_more_entries_than_stay_fast_are_refused_when_read_before_parsing(tmp_path):
    path = tmp_path / "big.tsv"
    path.write_text("# many\n" + big_glossary(MAX_ENTRIES + 1), encoding="utf-8")
    started = time.perf_counter()
    with pytest.raises(LiveTranslatorError, match="holds 500,001 entries; the app reads at most 500,000") as refused:
        Glossary.load(path)
    assert time.perf_counter() - started < 2 and "Keep the terms you need" in refused.value.hint
    half = tmp_path / "half.tsv"
    half.write_text(big_glossary(MAX_ENTRIES // 2 + 1), encoding="utf-8")
    assert len(Glossary.load(half).entries) == MAX_ENTRIES // 2 + 1  # one file is fine, two are too many
    with pytest.raises(LiveTranslatorError, match="The glossaries hold 500,002 entries together"):
        Glossary.load_all([half, half])


def big_glossary(entries: int) -> str:
    return "".join(f"term{n} word{n % 97}\t词{n}\n" for n in range(entries))


def test_hotwords_of_a_huge_glossary_fit_whisper_s_prompt_newest_first_and_corrections_before_all():
    text = big_glossary(500_000) + "Kubernetes\t库伯内特斯\nJon\tJohn\theard\n"
    glossary = Glossary.parse(text)
    started = time.perf_counter()
    english, chinese = glossary.terms("en"), glossary.terms("zh")
    took = time.perf_counter() - started
    assert english[-2:] == ["Kubernetes", "John"] and english[-3] == f"term499999 word{499_999 % 97}"  # the newest
    assert chinese[-1] == "库伯内特斯" and "词499999" in chinese
    for terms in (english, chinese):
        assert sum(map(hotword_tokens, terms)) <= HOTWORD_TOKENS and len(terms) > 10
    assert took < 0.5, took  # the newest few are looked at, not 500,000


def test_a_small_glossary_gives_every_term_in_its_order():
    glossary = Glossary.parse("Peking\t北京\nlaptop\t电脑\nold\t旧\toff\nJon\tJohn\theard\n")
    assert glossary.terms("en") == ["Peking", "laptop", "John"] and glossary.terms("zh") == ["北京", "电脑"]


@pytest.fixture(scope="module")
def whisper_tokenizer():
    """The tokenizer of the Whisper model the app uses by default (base), as faster-whisper builds it."""
    from faster_whisper.tokenizer import Tokenizer

    from app.asr.whisper_models import load_whisper

    model = load_whisper("base")
    return lambda language: Tokenizer(model.hf_tokenizer, True, task="transcribe", language=language)


@pytest.mark.parametrize("language", ["en", "zh"])
def test_the_hotwords_chosen_fit_in_what_faster_whisper_keeps(whisper_tokenizer, language):
    """faster-whisper keeps 223 tokens of hotwords and cuts the rest mid-term: counted with the
    real tokenizer, on real-looking names, jargon and short words (the dearest per byte)."""
    from app.asr.hotwords import hotwords_text

    english = ["NVIDIA GeForce", "Kubernetes", "ok", "Xi", "OpenAI", "Hsinchu", "TSMC", "e-mail", "Jon", "Smythe"]
    chinese = ["北京", "库伯内特斯", "王薇", "中华人民共和国", "鑫", "龘", "台积电", "軟體", "小米", "苹果"]
    rows = [f"{english[n % 10]}{n}\t{chinese[n % 10]}{n}\n" for n in range(5000)]
    rows += [f"{english[n % 10]}\t{chinese[n % 10]}\n" for n in range(10)]
    terms = Glossary.parse("".join(rows)).terms(language)
    tokens = whisper_tokenizer(language).encode(" " + hotwords_text(terms, language))
    assert len(terms) > 10 and len(tokens) <= 223, (len(terms), len(tokens))


def test_corrections_cost_a_text_the_same_with_ten_thousand_of_them():
    """Each correction used to be one regular expression per recognised text (0.36 s a text with
    1,000 of them, recompiled past re's cache); one automaton finds them all."""
    rows = "".join(f"heard{n} word\twritten{n} word\theard\n" for n in range(10_000))
    glossary = Glossary.parse(rows + "王伟\t王薇\theard\n")
    glossary.rewrite_heard("warm up")  # the automaton is built once per glossary
    started = time.perf_counter()
    for _ in range(100):
        fixed = glossary.rewrite_heard("So HEARD9999   word said heard99 word to 王偉, not heard1 words.")
    per_text = (time.perf_counter() - started) / 100
    assert fixed == "So written9999 word said written99 word to 王薇, not heard1 words."
    assert per_text < 0.005, per_text
