"""The fixture builder is reproducible and its pieces are what they claim to be."""

from __future__ import annotations

import json

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from conftest import FIXTURES, references

from models import export, fixtures

FAMILIES = {f.name: f for f in fixtures.FAMILIES}


@pytest.fixture(scope="module")
def rebuilt(tmp_path_factory):
    """Each family's HF model rebuilt from its recorded seed (torch weights are never committed)."""
    built = {}
    root = tmp_path_factory.mktemp("rebuilt")

    def get(name):
        if name not in built:
            family = FAMILIES[name]
            hf_dir = root / name
            built[name] = (hf_dir,) + fixtures.build_hf_model(family, hf_dir, references(name)["seed"])
        return built[name]

    return get


@pytest.mark.parametrize("name", FAMILIES)
def test_rebuilding_gives_the_committed_greedy_references(rebuilt, name):
    hf_dir, model, tokenizer = rebuilt(name)
    committed = references(name)
    again = fixtures.reference_outputs(
        FAMILIES[name], model, tokenizer, committed["seed"], cases={"greedy": fixtures.CASES["greedy"]}
    )
    for direction, committed_direction in zip(again["directions"], committed["directions"]):
        greedy = next(c for c in committed_direction["cases"] if c["name"] == "greedy")
        assert direction["cases"][0] == greedy
    assert fixtures.quality_problems(committed) == []  # the committed references passed the seed check


def test_rebuilt_model_exports_to_the_committed_graphs(rebuilt, tmp_path):
    hf_dir, _, _ = rebuilt("marian-en-zh")
    made = export.export_onnx(hf_dir, tmp_path / "out", layouts=("merged", "legacy"), quantize=True, validate=False)
    assert [(m.layout, m.path.name) for m in made] == [("merged", "merged"), ("legacy", "legacy")]
    assert set(made[0].onnx_files) == {
        "encoder_model.onnx",
        "decoder_model_merged.onnx",
        "encoder_model_quantized.onnx",
        "decoder_model_merged_quantized.onnx",
    }
    assert not list(tmp_path.rglob("*.safetensors")) and not list(tmp_path.rglob("*.bin"))  # no torch weights
    # attention is fused and the self-attention cache shared by default (app.model_store.optimize), before
    # the int8 twin is made from it
    for name in ("decoder_model_merged.onnx", "decoder_model_merged_quantized.onnx"):
        merged = onnx.load(str(tmp_path / "out" / "merged" / name)).graph
        branches = [attr.g for node in merged.node if node.op_type == "If" for attr in node.attribute]
        assert sum(n.op_type == "MultiHeadAttention" for g in branches for n in g.node) == 6, name
        assert sum(n.op_type == "GroupQueryAttention" for g in branches for n in g.node) == 2, name  # shared cache
    ids = np.array([references("marian-en-zh")["directions"][0]["cases"][0]["results"][0]["input_ids"]], np.int64)
    feed = {"input_ids": ids, "attention_mask": np.ones_like(ids)}
    for layout in ("merged", "legacy"):
        fresh = ort.InferenceSession(str(tmp_path / "out" / layout / "encoder_model.onnx"))
        committed = ort.InferenceSession(str(FIXTURES / "marian-en-zh" / layout / "encoder_model.onnx"))
        np.testing.assert_array_equal(fresh.run(None, feed)[0], committed.run(None, feed)[0])
    for name in ("config.json", "generation_config.json", "vocab.json", "tokenizer_config.json"):
        assert json.loads((tmp_path / "out" / "merged" / name).read_text()) == json.loads(
            (FIXTURES / "marian-en-zh" / "merged" / name).read_text()
        ), name


def test_cli_export_writes_the_layouts_asked_for(rebuilt, tmp_path):
    import subprocess
    import sys

    hf_dir, _, _ = rebuilt("marian-en-zh")
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "app",
            "models",
            "export",
            str(hf_dir),
            str(tmp_path / "out"),
            "--layout",
            "split",
            "--no-validate",
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(
        f"split: {tmp_path / 'out'} (encoder_model.onnx, decoder_model.onnx, decoder_with_past_model.onnx)"
    )
    assert (tmp_path / "out" / "source.spm").is_file() and not (tmp_path / "out" / "decoder_model_merged.onnx").exists()


def test_export_refuses_what_it_cannot_do(tmp_path):
    from app.shared.errors import LiveTranslatorError

    with pytest.raises(LiveTranslatorError, match="unknown export layout"):
        export.export_onnx(tmp_path, tmp_path / "out", layouts=("flat",))
    with pytest.raises(LiveTranslatorError, match="no config.json"):
        export.export_onnx(tmp_path, tmp_path / "out")


def test_tokenizer_json_variant_encodes_like_the_marian_tokenizer():
    from tokenizers import Tokenizer
    from transformers import MarianTokenizer

    fast = Tokenizer.from_file(str(FIXTURES / "marian-zh-en" / "tokenizer-json" / "tokenizer.json"))
    slow = MarianTokenizer.from_pretrained(str(FIXTURES / "marian-zh-en" / "merged"))
    texts = [zh for _, zh in fixtures.corpus_pairs()] + fixtures.SOURCES["zh"]
    for text in texts:
        assert fast.encode(text).ids == slow(text)["input_ids"], text


def test_references_record_explicit_settings_and_a_marian_target_token():
    en_zh = references("marian-en-zh")["directions"][0]
    assert en_zh["direction"] == "en-zh"
    vocab = json.loads((FIXTURES / "marian-en-zh" / "merged" / "vocab.json").read_text())
    for case in en_zh["cases"]:
        assert case["settings"]["do_sample"] is False and "max_new_tokens" in case["settings"]
        for result in case["results"]:
            assert result["source"].startswith(">>cmn_Hans<< ")
            assert result["input_ids"][0] == vocab[">>cmn_Hans<<"]
    m2m = references("m2m100")
    assert [d["direction"] for d in m2m["directions"]] == ["en-zh", "zh-en"]
    for direction in m2m["directions"]:
        forced = direction["cases"][0]["settings"]["forced_bos_token_id"]
        for result in direction["cases"][0]["results"]:
            assert result["output_ids"][:2] == [2, forced]  # decoder prefix [</s>, __tgt__]
    long_inputs = [r for r in en_zh["cases"][0]["results"] if len(r["input_ids"]) > 40]
    assert long_inputs, "one long sentence"


def test_export_of_a_tied_model_stores_its_embedding_once_and_reproduces_generate(rebuilt, tmp_path):
    """opus-mt ties its LM head to the embedding; the fixtures do not (their head is drawn larger).
    The same model with the head tied: the fp32 decoder optimum writes holds the table twice,
    ours once (its weights in decoder_model_merged.onnx_data); the int8 twin, made before, keeps
    its own quantized head; and the app decodes generate()'s greedy ids from the folder."""
    from transformers import MarianMTModel

    from app.translation import DecodeOptions, Translator

    hf_dir, _, tokenizer = rebuilt("marian-en-zh")
    model = MarianMTModel.from_pretrained(str(hf_dir), tie_word_embeddings=True).eval()
    assert model.get_output_embeddings().weight.data_ptr() == model.get_input_embeddings().weight.data_ptr()
    tied_dir = tmp_path / "hf-tied"
    model.save_pretrained(str(tied_dir))
    tokenizer.save_pretrained(str(tied_dir))
    for name in ("vocab.json", "source.spm", "target.spm"):
        assert (tied_dir / name).is_file()
    made = export.export_onnx(tied_dir, tmp_path / "out", layouts=("merged",), quantize=True, validate=False)[0]
    assert "decoder_model_merged.onnx_data" in made.onnx_files
    graph = onnx.load(str(made.path / "decoder_model_merged.onnx")).graph
    branches = [attr.g for node in graph.node if node.op_type == "If" for attr in node.attribute]
    assert sum(n.op_type == "FusedMatMul" for g in branches for n in g.node) == 2  # the head, in both branches
    vocab = len(json.loads((tied_dir / "vocab.json").read_text()))
    assert not [
        i.name for i in graph.initializer if list(i.dims)[::-1] == [vocab, model.config.d_model]
    ]  # no [d, vocab]
    twin = onnx.load(str(made.path / "decoder_model_merged_quantized.onnx")).graph
    twin_ops = [
        n.op_type
        for node in twin.node
        for attr in node.attribute
        if attr.type == onnx.AttributeProto.GRAPH
        for n in attr.g.node
    ]
    assert "FusedMatMul" not in twin_ops and "MatMulInteger" in twin_ops
    references_now = fixtures.reference_outputs(
        FAMILIES["marian-en-zh"], model, tokenizer, 0, cases={"greedy": fixtures.CASES["greedy"]}
    )
    translator = Translator.load(made.path, "en-zh")
    case = references_now["directions"][0]["cases"][0]
    options = DecodeOptions(loop_window=0, **{k: v for k, v in case["settings"].items() if k != "do_sample"})
    same = [translator.translate_ids(r["input_ids"], options).token_ids == r["output_ids"][1:] for r in case["results"]]
    assert all(same), same


def test_a_phrasebook_can_learn_other_phrases():
    """bench/live_text.py trains a model on its talk: the training set is those pairs, each as a
    recogniser may write it, and nothing of the tests' phrasebook."""
    from models.phrasebook import MARIAN_LANGUAGE_TOKEN, PHRASES, training_pairs

    talk = [("We still need two more days.", "我们还需要两天。")]
    pairs = training_pairs("en-zh", talk)
    assert {target for _, target in pairs} == {"我们还需要两天。"}
    assert ("we still need two more days", "我们还需要两天。") in pairs
    assert (f"{MARIAN_LANGUAGE_TOKEN} We still need two more days.", "我们还需要两天。") in pairs
    assert {source for source, _ in training_pairs("zh-en", talk)} >= {"我们还需要两天", "我们还需要两天。"}
    assert len(training_pairs("en-zh")) > len(PHRASES) * 4  # the default stays the phrasebook
