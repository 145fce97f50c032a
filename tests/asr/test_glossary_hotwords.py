"""Glossary terms of the spoken language reach Whisper as hotwords: names come out as written."""

from app.cli import main


def test_transcribe_glossary_terms_are_recognised_as_written(say, tiny_en, tmp_path, capsys):
    path = say("My name is Jon Smyth.")
    assert main(["transcribe", str(path), "--model", "tiny.en"]) == 0
    plain = capsys.readouterr().out
    assert "Jon Smyth" not in plain  # tiny.en writes the usual spelling ("John Smythe")
    glossary = tmp_path / "names.tsv"
    glossary.write_text("# people\nJon Smyth\t乔恩·史密斯\nmalformed line\n", encoding="utf-8")
    assert main(["transcribe", str(path), "--model", "tiny.en", "--glossary", str(glossary)]) == 0
    out = capsys.readouterr()
    assert "Jon Smyth" in out.out
    assert f"{glossary}:3: expected english<TAB>chinese" in out.err  # reported, the rest used
