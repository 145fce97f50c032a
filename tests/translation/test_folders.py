"""Model folders: every layout the app accepts, and bad folders giving messages that name the problem."""

from __future__ import annotations

import json
import shutil

import pytest

from app.model_store.doctor import run_doctor
from app.shared.errors import LiveTranslatorError
from app.translation import DecodeOptions, Translator, inspect_model_folder

from .conftest import cases, family_dir, generate_settings, translator
from .graph_edits import add_unused_input


def test_layouts_are_read_from_the_sessions():
    expected = {
        "merged": "merged decoder",
        "both": "merged decoder",
        "onnx-subdir": "merged decoder",
        "split": "decoder + decoder_with_past",
        "legacy": "older decoder",
        "merged-fused": "merged decoder, cache shared in place",
    }
    for layout, words in expected.items():
        t = translator(str(family_dir("marian-en-zh") / layout), "en-zh")
        assert words in t.model_name, (layout, t.model_name)
        assert ("shared in place" in t.model_name) == (layout == "merged-fused")
    subdir = translator(str(family_dir("marian-en-zh") / "onnx-subdir"), "en-zh")
    assert all(p.parent.name == "onnx" and not p.stem.endswith("_quantized") for p in subdir.model.files.values())
    # pointing at the onnx/ subfolder itself finds config and tokenizer one level up
    assert (
        Translator.load(family_dir("marian-en-zh") / "onnx-subdir" / "onnx", "en-zh").model.files == subdir.model.files
    )


def test_the_model_is_named_by_its_hub_origin_else_by_the_folder_holding_config(copy_layout):
    folder = copy_layout("marian-en-zh", "onnx-subdir")
    assert Translator.load(folder / "onnx", "en-zh").model_name.startswith("marian-en-zh-onnx-subdir (merged decoder")
    config = json.loads((folder / "config.json").read_text(encoding="utf-8"))
    for origin, name in (
        ("Helsinki-NLP/opus-mt-en-zh", "Helsinki-NLP/opus-mt-en-zh"),
        ("/tmp/lt-export-x/hf", "marian-en-zh-onnx-subdir"),  # a local path says nothing
        ("", "marian-en-zh-onnx-subdir"),
    ):
        (folder / "config.json").write_text(json.dumps(dict(config, _name_or_path=origin)), encoding="utf-8")
        assert Translator.load(folder, "en-zh").model_name.startswith(f"{name} ("), origin


def test_quantized_twins_are_used_when_preferred():
    folder = family_dir("marian-en-zh") / "onnx-subdir"
    t = Translator.load(folder, "en-zh", prefer_quantized=True)
    assert "quantized" in t.model_name
    assert all(p.stem.endswith("_quantized") for p in t.model.files.values())
    result = t.translate("The weather is nice today.", DecodeOptions(num_beams=1, max_new_tokens=10, verify=True))
    assert result.steps and result.stop_reason in ("eos", "length", "loop")
    # Dynamic int8 picks activation scales per tensor, so one token and a whole prefix are
    # quantized differently: cached and uncached agree only to a few hundredths (0.035-0.069
    # measured, logits spanning ~11), not to fp32's 1e-4.
    assert result.sentences[0].max_abs_diff < 0.15


def test_tokenizer_json_only_folder_matches_the_sentencepiece_one():
    folder = family_dir("marian-zh-en") / "tokenizer-json"
    assert not (folder / "vocab.json").exists()
    t = translator(str(folder), "zh-en")
    assert t.codec.kind == "tokenizer.json"
    for ref in cases("marian-zh-en", "zh-en")[0]["results"]:
        assert t.codec.source_ids(ref["text"]) == ref["input_ids"]


def test_decoder_without_any_cache_recomputes_every_step(copy_layout):
    folder = copy_layout("marian-en-zh", "split")
    (folder / "decoder_with_past_model.onnx").unlink()
    t = Translator.load(folder, "en-zh")
    assert "without cache" in t.model_name
    case = cases("marian-en-zh", "en-zh")[0]
    for ref in case["results"][:3]:
        result = t.translate_ids(ref["input_ids"], DecodeOptions(loop_window=0, **generate_settings(case)))
        assert result.token_ids == ref["output_ids"][1:]
        assert {(s.self_kv_len, s.used_cache_branch) for s in result.steps} == {(0, False)}


def test_marian_folder_refuses_the_other_direction_and_m2m100_does_both():
    with pytest.raises(LiveTranslatorError, match="cannot translate zh-en"):
        Translator.load(family_dir("marian-en-zh") / "merged", "zh-en")
    for direction in ("en-zh", "zh-en"):
        assert translator(str(family_dir("m2m100") / "merged"), direction).direction == direction


def _load_error(folder, direction="en-zh") -> LiveTranslatorError:
    with pytest.raises(LiveTranslatorError) as error:
        Translator.load(folder, direction)
    assert error.value.hint  # always says what to do
    report = inspect_model_folder(folder)
    assert not report.can_run and error.value.message in report.text
    assert run_doctor(folder) == 1
    return error.value


def test_missing_decoder(copy_layout):
    folder = copy_layout("marian-en-zh", "merged")
    (folder / "decoder_model_merged.onnx").unlink()
    assert "No decoder" in _load_error(folder).message
    assert any("decoder" in m for m in inspect_model_folder(folder).missing)


def test_missing_encoder_config_and_tokenizer(copy_layout):
    folder = copy_layout("marian-en-zh", "merged")
    (folder / "encoder_model.onnx").unlink()
    assert "encoder_model.onnx" in _load_error(folder).message
    folder = copy_layout("marian-en-zh", "split")
    (folder / "config.json").unlink()
    assert "config.json" in _load_error(folder).message
    folder = copy_layout("marian-zh-en", "merged")
    (folder / "target.spm").unlink()
    error = _load_error(folder, "zh-en")
    assert "No tokenizer" in error.message and "target.spm" in error.message


def test_truncated_onnx_file(copy_layout):
    folder = copy_layout("marian-en-zh", "merged")
    path = folder / "decoder_model_merged.onnx"
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    error = _load_error(folder)
    assert "decoder_model_merged.onnx" in error.message and "damaged" in error.hint


def test_mismatched_tokenizer(copy_layout):
    """The zh-en model's tokenizer files dropped into the en-zh folder."""
    folder = copy_layout("marian-en-zh", "merged")
    other = family_dir("marian-zh-en") / "merged"
    for name in ("vocab.json", "source.spm", "target.spm"):
        shutil.copyfile(other / name, folder / name)
    error = _load_error(folder)
    assert "tokenizer" in error.message and "do not belong together" in error.message


def test_wrong_input_names(copy_layout):
    folder = copy_layout("marian-en-zh", "split")
    add_unused_input(folder / "decoder_with_past_model.onnx", "decoder_position_ids")
    error = _load_error(folder)
    assert "decoder_position_ids" in error.message and "decoder_with_past_model.onnx" in error.message
    folder = copy_layout("marian-en-zh", "merged")
    add_unused_input(folder / "encoder_model.onnx", "token_type_ids")
    assert "token_type_ids" in _load_error(folder).message


def test_doctor_describes_a_good_folder(capsys):
    assert run_doctor(family_dir("marian-en-zh") / "onnx-subdir") == 0
    text = capsys.readouterr().out
    for words in (
        "Marian",
        "en-zh",
        "merged decoder",
        "onnx/encoder_model.onnx",
        "quantized twins are available",
        "source.spm",
        "The app can run this model.",
    ):
        assert words in text, words
    report = inspect_model_folder(family_dir("m2m100") / "split")
    assert report.can_run and report.family == "m2m_100" and report.directions == ("en-zh", "zh-en")
    assert "decoder + decoder_with_past" in report.text
