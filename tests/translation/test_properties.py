"""Property-based tests (Hypothesis) over what people and files can hand the translation engine:
mutated config.json / generation_config.json (every field: wrong type, null, out of range,
missing), tokenizer files swapped or cut, and text of any Unicode (with lone surrogates, which
is what undecodable command-line bytes become) and invalid bytes on the command line.

The invariant: a LiveTranslatorError with a message, or a correct result; never another
exception. Memory stays bounded because every size-like setting has a range checked before
the decoder allocates (a violation would show as a slow example or MemoryError here).
Examples are few and small so the module runs in well under a minute.
"""

from __future__ import annotations

import json
import math
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.shared.errors import LiveTranslatorError
from app.translation import DecodeOptions, Translator, inspect_model_folder
from app.translation.sentences import clean_text

from .conftest import family_dir

REPO = Path(__file__).resolve().parents[2]
PHRASEBOOK = REPO / "tests" / "fixtures" / "phrasebook"
BOUNDED = settings(
    max_examples=25,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

GENERATION_KEYS = [
    "bad_words_ids",
    "bos_token_id",
    "decoder_start_token_id",
    "eos_token_id",
    "forced_eos_token_id",
    "max_length",
    "num_beams",
    "pad_token_id",
    "renormalize_logits",
    "length_penalty",
    "min_length",
    "no_repeat_ngram_size",
    "repetition_penalty",
    "early_stopping",
    "max_new_tokens",
    "suppress_tokens",
    "begin_suppress_tokens",
    "forced_bos_token_id",
    "min_new_tokens",
]
CONFIG_KEYS = [
    "model_type",
    "vocab_size",
    "decoder_vocab_size",
    "max_position_embeddings",
    "eos_token_id",
    "pad_token_id",
    "decoder_start_token_id",
    "d_model",
    "decoder_layers",
    "_name_or_path",
    "num_beams",
    "max_length",
]
HUGE = 10**12
BAD_VALUES = st.one_of(
    st.just("<missing>"),
    st.none(),
    st.booleans(),
    st.text(max_size=8),
    st.integers(-HUGE, HUGE),
    st.sampled_from([0, 1, -1, 2**31, 2**63, 1_000_000, 65_000, 538, 539]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.lists(st.integers(-5, 600), max_size=4),
    st.lists(st.lists(st.integers(-5, 600), max_size=3), max_size=3),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
)


def mutate(path: Path, original: dict, changes: dict) -> None:
    data = dict(original)
    for key, value in changes.items():
        if value == "<missing>":
            data.pop(key, None)
        else:
            data[key] = value
    path.write_text(json.dumps(data), encoding="utf-8")  # NaN/Infinity as JSON5 tokens, as Python writes them


def outcome(folder: Path, direction: str = "en-zh") -> str:
    """Load and translate; only LiveTranslatorError may escape (as a message)."""
    try:
        translator = Translator.load(folder, direction)
        result = translator.translate("Good morning.", DecodeOptions(max_new_tokens=8))
    except LiveTranslatorError as error:
        assert error.message.strip(), "an error without a message"
        return "refused"
    assert isinstance(result.text, str) and len(result.token_ids) <= 8 * 2
    return "translated"


@pytest.fixture(scope="module")
def scratch(tmp_path_factory):
    """A copy of the random-weight Marian fixture whose files each example rewrites."""
    folder = tmp_path_factory.mktemp("mutated") / "model"
    shutil.copytree(family_dir("marian-en-zh") / "merged", folder)
    return folder


@BOUNDED
@given(file=st.sampled_from(["config.json", "generation_config.json"]), data=st.data())
def test_mutated_model_json_gives_a_message_or_a_translation(scratch, file, data):
    original_texts = {
        name: (scratch / name).read_text(encoding="utf-8") for name in ("config.json", "generation_config.json")
    }
    keys = CONFIG_KEYS if file == "config.json" else GENERATION_KEYS
    changes = data.draw(st.dictionaries(st.sampled_from(keys), BAD_VALUES, min_size=1, max_size=3))
    try:
        mutate(scratch / file, json.loads(original_texts[file]), changes)
        outcome(scratch)
        report = inspect_model_folder(scratch)  # the doctor never raises either
        assert isinstance(report.text, str)
    finally:
        for name, text in original_texts.items():
            (scratch / name).write_text(text, encoding="utf-8")


NOT_AN_OBJECT = ["[]", "null", "3", '"config"', "{", "", "\x00", "[{}]"]


@BOUNDED
@given(
    json_text=st.sampled_from(NOT_AN_OBJECT),
    file=st.sampled_from(["config.json", "generation_config.json", "tokenizer_config.json"]),
)
def test_model_json_that_is_not_an_object_is_refused_naming_the_file(scratch, json_text, file):
    original = (scratch / file).read_bytes()
    try:
        (scratch / file).write_text(json_text, encoding="utf-8")
        with pytest.raises(LiveTranslatorError) as caught:
            Translator.load(scratch, "en-zh")
        assert f"{scratch / file} is" in caught.value.message, caught.value.message
    finally:
        (scratch / file).write_bytes(original)


@BOUNDED
@given(json_text=st.sampled_from(NOT_AN_OBJECT + ['{"a": NaN}']))
def test_a_vocabulary_that_is_not_one_is_refused_naming_the_tokenizer(scratch, json_text):
    """vocab.json is read by transformers' tokenizer: its failure names the tokenizer's folder."""
    original = (scratch / "vocab.json").read_bytes()
    try:
        (scratch / "vocab.json").write_text(json_text, encoding="utf-8")
        with pytest.raises(LiveTranslatorError) as caught:
            Translator.load(scratch, "en-zh")
        assert f"The tokenizer in {scratch} could not be loaded" in caught.value.message, caught.value.message
    finally:
        (scratch / "vocab.json").write_bytes(original)


TOKENIZER_FILES = ["source.spm", "target.spm", "vocab.json", "tokenizer_config.json", "special_tokens_map.json"]


@settings(
    max_examples=15,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    action=st.sampled_from(["swap", "cut", "garbage", "delete", "empty"]),
    file=st.sampled_from(TOKENIZER_FILES),
    fraction=st.floats(0.0, 0.99),
    garbage=st.binary(max_size=64),
)
def test_tokenizer_files_swapped_or_cut_give_a_message_or_a_translation(scratch, action, file, fraction, garbage):
    originals = {name: (scratch / name).read_bytes() for name in TOKENIZER_FILES if (scratch / name).exists()}
    try:
        path = scratch / file
        if action == "swap":
            (scratch / "source.spm").write_bytes(originals["target.spm"])
            (scratch / "target.spm").write_bytes(originals["source.spm"])
        elif action == "cut":
            path.write_bytes(originals[file][: int(len(originals[file]) * fraction)])
        elif action == "garbage":
            path.write_bytes(garbage)
        elif action == "delete":
            path.unlink()
        else:
            path.write_bytes(b"")
        outcome(scratch)
    finally:
        for name, content in originals.items():
            (scratch / name).write_bytes(content)


@pytest.fixture(scope="module")
def phrasebook_translator():
    return Translator.load(PHRASEBOOK / "en-zh", "en-zh")


ANY_TEXT = st.text(
    alphabet=st.one_of(
        st.characters(),
        st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF),
        st.sampled_from("\x00\x07\x1b\u200b\ufeff\u202e\n\t 。."),
    ),
    max_size=120,
)


@settings(
    max_examples=40,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(text=ANY_TEXT)
def test_text_of_any_unicode_translates(phrasebook_translator, text):
    result = phrasebook_translator.translate(text, DecodeOptions(max_new_tokens=16))
    assert isinstance(result.text, str)
    assert all(s.stop_reason is not None for s in result.sentences)
    if not clean_text(text).strip():
        assert result.text == ""  # nothing to translate: nothing made up


@settings(max_examples=30, deadline=None, derandomize=True)
@given(text=ANY_TEXT)
def test_cleaning_is_idempotent_and_leaves_no_control_characters(text):
    cleaned = clean_text(text)
    assert clean_text(cleaned) == cleaned
    assert not any(ord(c) < 32 and c not in "\t\n\r" for c in cleaned)
    assert not any(0xD800 <= ord(c) <= 0xDFFF for c in cleaned)
    cleaned.encode("utf-8")  # always encodable


@settings(max_examples=4, deadline=None, derandomize=True)
@given(raw=st.binary(min_size=1, max_size=24).filter(lambda b: b"\x00" not in b))
def test_any_bytes_on_the_command_line(raw):
    argument = raw.decode("utf-8", "surrogateescape")
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "app",
            "translate",
            "--model",
            str(PHRASEBOOK / "en-zh"),
            "--direction",
            "en-zh",
            "--max-new-tokens",
            "8",
            argument,
        ],
        cwd=REPO,
        capture_output=True,
        timeout=120,
    )
    assert b"Traceback" not in done.stderr, done.stderr
    assert done.returncode == 0


@settings(max_examples=20, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    key=st.sampled_from(
        [
            "num_beams",
            "max_new_tokens",
            "max_length",
            "min_length",
            "min_new_tokens",
            "no_repeat_ngram_size",
            "repetition_penalty",
            "length_penalty",
            "loop_window",
            "early_stopping",
            "bad_words_ids",
        ]
    ),
    value=BAD_VALUES.filter(lambda v: v != "<missing>"),
)
def test_any_decode_option_gives_a_message_or_a_translation(phrasebook_translator, key, value):
    try:
        result = phrasebook_translator.translate("Good morning.", DecodeOptions(**{key: value}))
    except LiveTranslatorError as error:
        assert key in error.message
        return
    assert isinstance(result.text, str)
    if isinstance(value, float) and not math.isfinite(value):
        pytest.fail(f"{key}={value} was accepted")
