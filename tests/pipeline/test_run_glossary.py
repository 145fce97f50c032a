"""`python -m app run --glossary FILE`: the live chain translates the glossary's terms as it says."""

from __future__ import annotations

from tests.app_run import run_cli, translating

from .conftest import english
from .test_run_cli import final_translations


def test_run_translates_glossary_terms_as_the_glossary_says(recording, phrasebook, tmp_path):
    # tiny.en hears this "Good morning." as "God's morning." (with a glossary whose terms went to
    # every decode it wrote "good morning": issue 42); "Welcome to the meeting." it hears right.
    wav = recording("glossary", english(["The computer is broken.", "Welcome to the meeting."]))
    glossary = tmp_path / "terms.tsv"
    glossary.write_text("computer\t老师\nbroken line\n", encoding="utf-8")  # the phrasebook says 电脑
    code, lines, stderr = run_cli(
        *translating(wav, "en-zh", phrasebook),
        "--asr-model",
        "tiny.en",
        "--no-tts",
        "--json",
        "--glossary",
        str(glossary),
    )
    assert code == 0, stderr
    assert f"{glossary}:2: expected english<TAB>chinese" in stderr
    finals = final_translations(lines)
    assert len(finals) == 2 and "老师" in finals[0]["text"] and finals[1]["text"] == "欢迎参加会议。", finals
    sentences = [e for e in lines if e["type"] == "sentence" and not e["provisional"]]
    assert sentences[0]["summary"]["glossary"] == [{"source": "computer", "target": "老师", "honoured": True}]
    assert sentences[-1]["summary"]["glossary"] == []
