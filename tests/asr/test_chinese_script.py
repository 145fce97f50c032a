"""Recognised Chinese in each script the app offers (`--chinese`), on real Whisper base."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from app.asr import StreamingRecognizer
from app.shared.chinese import ChineseScript, to_script

from .conftest import read16k, silence

# "我们去吃饭吧": s2twp and s2hk both write 我們去吃飯吧; "他是我的朋友" has no Traditional form.
PINYIN = "wo3 men5 qu4 chi1 fan4 ba5"


@pytest.fixture(scope="module")
def speech(say):
    return np.concatenate([read16k(say(PINYIN, "cmn-latn-pinyin")), silence(1.0)])


@pytest.mark.parametrize("script", list(ChineseScript))
def test_recognised_chinese_is_written_in_the_chosen_script(base, speech, script):
    text = StreamingRecognizer(base, language="zh", chinese=script).transcribe(speech)
    assert any("\u4e00" <= c <= "\u9fff" for c in text), text
    assert text == to_script(text, script)  # nothing left in another script
    if script is not ChineseScript.SIMPLIFIED:
        assert to_script(text, "simplified") != text, f"no Traditional character in {text!r}"


def test_transcribe_command_takes_the_option(say, tmp_path):
    wav = say(PINYIN, "cmn-latn-pinyin")
    proc = subprocess.run(
        [sys.executable, "-m", "app", "transcribe", str(wav), "--language", "zh", "--chinese", "traditional", "--json"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    finals = [e["text"] for e in map(json.loads, proc.stdout.splitlines()) if e["type"] == "final"]
    assert finals and all(t == to_script(t, "traditional") for t in finals)
    assert any(to_script(t, "simplified") != t for t in finals), finals
