"""Traditional Chinese: OpenCC's conversions, on translations (Translator, `translate`)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from app.shared.chinese import ChineseScript, map_offset, to_script, to_simplified
from app.shared.errors import LiveTranslatorError
from app.translation import Translator

PHRASEBOOK = Path(__file__).resolve().parents[1] / "fixtures" / "phrasebook"

# (Simplified, Taiwan, Hong Kong): s2twp also swaps Mainland words for Taiwan ones.
SAMPLES = [
    ("欢迎参加会议。", "歡迎參加會議。", "歡迎參加會議。"),
    ("鼠标和软件", "滑鼠和軟體", "鼠標和軟件"),
    ("我们去吃饭吧", "我們去吃飯吧", "我們去吃飯吧"),
]


@pytest.mark.parametrize("simplified,taiwan,hongkong", SAMPLES)
def test_each_script_is_opencc_standard_configuration(simplified, taiwan, hongkong):
    assert to_script(simplified, "simplified") == simplified
    assert to_script(simplified, ChineseScript.TRADITIONAL) == taiwan
    assert to_script(simplified, "hongkong") == hongkong
    # Whisper's mixed scripts come out in one: Traditional input is normalised first.
    assert to_script(hongkong, "simplified") == simplified
    assert to_script(taiwan, "simplified") == to_simplified(taiwan)  # Taiwan words stay (t2s converts characters)
    assert to_script(hongkong, "traditional") == to_script(simplified, "traditional")


def test_offsets_follow_a_conversion_that_changes_length():
    text = "用U盘看书"  # U盘 -> 隨身碟 in Taiwan: one character longer
    converted = to_script(text, "traditional")
    assert converted == "用隨身碟看書"
    assert converted[map_offset(text, 3, "traditional") :] == "看書"
    assert map_offset(text, 1, "hongkong") == 1  # same length: offsets unchanged


def test_unknown_script_is_a_clear_error():
    with pytest.raises(LiveTranslatorError) as caught:
        ChineseScript.parse("cantonese")
    assert "simplified, traditional, hongkong" in caught.value.hint


@pytest.mark.parametrize("script", list(ChineseScript))
def test_translations_into_chinese_come_in_the_chosen_script(script):
    translator = Translator.load(PHRASEBOOK / "en-zh", direction="en-zh", chinese=script)
    result = translator.translate("Welcome to the meeting.")
    assert result.text == to_script("欢迎参加会议。", script)
    assert result.sentences[0].translation == result.text


def test_english_translations_are_left_alone():
    translator = Translator.load(PHRASEBOOK / "zh-en", direction="zh-en", chinese="traditional")
    assert (
        translator.translate("歡迎參加會議。").text
        == Translator.load(PHRASEBOOK / "zh-en", "zh-en").translate("欢迎参加会议。").text
    )


def test_translate_command_takes_the_option():
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "app",
            "translate",
            "--model",
            str(PHRASEBOOK / "en-zh"),
            "--direction",
            "en-zh",
            "--chinese",
            "hongkong",
            "--json",
            "Welcome to the meeting.",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    ).stdout
    assert json.loads(out)["translation"] == "歡迎參加會議。"
    bad = subprocess.run(
        [
            sys.executable,
            "-m",
            "app",
            "translate",
            "--model",
            str(PHRASEBOOK / "en-zh"),
            "--direction",
            "en-zh",
            "--chinese",
            "klingon",
            "x",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert bad.returncode == 2 and "--chinese" in bad.stderr
