"""Glossary terms of the spoken language reach Whisper as hotwords: names come out as written."""

import numpy as np
import soundfile

from app.cli import main

from .conftest import normalize_chars


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


def test_chinese_hotwords_keep_short_mandarin_speech(say, base, tmp_path, capsys):
    """Chinese terms in the prompt raised Whisper's no-speech probability on short speech, and the
    clip was dropped. Terms that sound like nothing heard are not given at all now (issue 42):
    the glossary changes nothing of what was heard (base writes 哇你 for espeak-ng's 我爱你, with
    or without it; the unrelated terms in the prompt used to make it 我爱你)."""
    path = say("wo3 ai4 ni3.", "cmn-latn-pinyin")
    assert main(["transcribe", str(path), "--language", "zh"]) == 0
    plain = capsys.readouterr().out
    glossary = tmp_path / "zh.tsv"
    glossary.write_text("Peking\t北京\nKubernetes\t库伯内特斯\nXiaomi\t小米\n", encoding="utf-8")
    assert main(["transcribe", str(path), "--language", "zh", "--glossary", str(glossary)]) == 0
    assert normalize_chars(capsys.readouterr().out) == normalize_chars(plain) != ""
    silent = tmp_path / "silence.wav"
    soundfile.write(silent, np.zeros(16000 * 2, np.float32), 16000)
    assert main(["transcribe", str(silent), "--language", "zh", "--glossary", str(glossary)]) == 0
    assert capsys.readouterr().out == ""  # no term invented on silence
