"""Hostile input to the translation engine: every value gets a range checked before anything is
allocated, and a bad file or text gives a LiveTranslatorError naming what is wrong and where,
never a traceback (issue 17, items 2, 7 and 9)."""

from __future__ import annotations

import json
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from app.shared.errors import LiveTranslatorError
from app.translation import DecodeOptions, Translator
from app.translation.generation_settings import INT_LIMITS, check_setting, resolve_settings

REPO = Path(__file__).resolve().parents[2]
PHRASEBOOK = REPO / "tests" / "fixtures" / "phrasebook"


def edit_json(folder: Path, name: str, **changes) -> None:
    path = folder / name
    data = json.loads(path.read_text(encoding="utf-8"))
    for key, value in changes.items():
        if value is ...:
            data.pop(key, None)
        else:
            data[key] = value
    path.write_text(json.dumps(data), encoding="utf-8")


def cli(*args: str, limit_memory: bool = False) -> subprocess.CompletedProcess:
    def cap():  # a runaway allocation fails fast instead of taking the machine down
        resource.setrlimit(resource.RLIMIT_AS, (4 * 2**30, resource.getrlimit(resource.RLIMIT_AS)[1]))

    return subprocess.run(
        [sys.executable, "-m", "app", *args],
        cwd=REPO,
        capture_output=True,
        timeout=120,
        preexec_fn=cap if limit_memory else None,
    )


def test_huge_beams_on_the_command_line_are_refused_before_loading(copy_layout):
    done = cli(
        "translate",
        "--model",
        str(PHRASEBOOK / "en-zh"),
        "--direction",
        "en-zh",
        "--beams",
        "1000000",
        "Good morning.",
        limit_memory=True,
    )
    assert done.returncode == 2 and b"Traceback" not in done.stderr
    assert b"--beams: num_beams is 1000000; it must be a whole number from 1 to 16" in done.stderr


def test_huge_beams_in_generation_config_are_named_with_the_file(copy_layout):
    folder = copy_layout("marian-en-zh", "merged")
    edit_json(folder, "generation_config.json", num_beams=1_000_000)
    with pytest.raises(LiveTranslatorError) as caught:
        Translator.load(folder, "en-zh")
    assert f"{folder}/generation_config.json: num_beams is 1000000" in caught.value.message
    assert "from 1 to 16" in caught.value.message and "generation_config.json" in caught.value.hint


@pytest.mark.parametrize(
    "key,value,origin",
    [
        ("length_penalty", "long", "generation_config.json"),  # its hint used to name config.json
        ("max_length", 1, "generation_config.json"),  # leaves no room for a token: empty translations
        ("no_repeat_ngram_size", 10**9, "generation_config.json"),
        ("eos_token_id", None, "config.json"),  # null in generation_config: config.json's is used
        ("decoder_start_token_id", 10**6, "generation_config.json"),  # outside the vocabulary
        ("bad_words_ids", [["x"]], "generation_config.json"),
        ("early_stopping", 3, "generation_config.json"),
    ],
)
def test_each_bad_generation_setting_is_named(copy_layout, key, value, origin):
    folder = copy_layout("marian-en-zh", "merged")
    edit_json(folder, "generation_config.json", **{key: value})
    if value is None:  # null falls back to config.json's value, as transformers does: it loads
        edit_json(folder, "config.json", eos_token_id=None)
    with pytest.raises(LiveTranslatorError) as caught:
        Translator.load(folder, "en-zh")
    message = caught.value.message
    if value is None:
        assert "names the model's eos_token_id" in message
    else:
        assert f"{origin}: {key} is {value!r}" in message, message
        assert origin in caught.value.hint and "config.json of" not in caught.value.hint


def test_a_config_that_is_json_but_not_an_object(copy_layout):
    folder = copy_layout("marian-en-zh", "merged")
    (folder / "config.json").write_text("[1, 2, 3]")
    with pytest.raises(LiveTranslatorError, match="valid JSON but not an object"):
        Translator.load(folder, "en-zh")
    done = cli("translate", "--model", str(folder), "--direction", "en-zh", "hello")
    assert done.returncode == 2 and b"Traceback" not in done.stderr


def test_options_outside_their_range_are_refused_before_the_decode():
    translator = Translator.load(PHRASEBOOK / "en-zh", "en-zh")
    for key, (low, high) in INT_LIMITS.items():
        with pytest.raises(LiveTranslatorError, match=f"{key} is {high + 1}; it must be a whole number from {low}"):
            translator.translate("Good morning.", DecodeOptions(**{key: high + 1}))
    with pytest.raises(LiveTranslatorError, match="the options given"):
        translator.translate("Good morning.", DecodeOptions(length_penalty=float("nan")))


def test_check_setting_accepts_the_real_models_values():
    for key, value in {
        "num_beams": 4,
        "max_length": 512,
        "bad_words_ids": [[65000]],
        "early_stopping": True,
        "renormalize_logits": True,
        "eos_token_id": [0, 2],
        "length_penalty": 1.0,
    }.items():
        check_setting(key, value, "generation_config.json", 65001)
    m2m100 = {
        "decoder_start_token_id": 2,
        "eos_token_id": 2,
        "pad_token_id": 1,
        "max_length": 200,
        "num_beams": 5,
        "early_stopping": True,
        "bos_token_id": 0,
    }
    assert (
        resolve_settings(m2m100, {}, {}, max_positions=1024, forced_bos_token_id=128022, vocab_size=128112).num_beams
        == 5
    )


def test_nul_and_control_characters_do_not_change_the_translation():
    translator = Translator.load(PHRASEBOOK / "en-zh", "en-zh")
    clean = translator.translate("Good morning.").text
    assert clean
    assert translator.translate("Good\x00 morning.\x00").text == clean
    assert translator.translate("Good\x07 mor\x1bning.").text == clean


def test_invalid_utf8_bytes_on_the_command_line_are_replaced_not_a_traceback():
    done = cli(
        "translate",
        "--model",
        str(PHRASEBOOK / "en-zh"),
        "--direction",
        "en-zh",
        "Good morning.",
        b"Good \xff\xfe morning.".decode("utf-8", "surrogateescape"),
    )
    assert done.returncode == 0, done.stderr
    assert b"Traceback" not in done.stderr and b"not UTF-8" in done.stderr
    assert len(done.stdout.decode().splitlines()) == 2


def test_a_folder_given_as_a_recording_is_called_a_folder(tmp_path):
    done = cli("transcribe", str(tmp_path), "--model", "tiny.en")
    assert done.returncode == 2 and b"is a folder, not an audio file" in done.stderr, done.stderr


def test_a_file_given_as_a_model_folder_is_called_a_file():
    with pytest.raises(LiveTranslatorError, match="is a file, not a model folder"):
        Translator.load(PHRASEBOOK / "en-zh" / "config.json", "en-zh")
