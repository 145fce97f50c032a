"""The benchmark's model: full-size opus-mt-en-zh architecture with seeded random weights.

Speed does not depend on weight values, so the benchmark builds the real architecture
(d_model 512, 6+6 layers, 8 heads, ffn 2048, vocab 65001) from a config, with a MarianTokenizer
whose vocab.json is padded to 65001 entries, and derives every engine's copy from the same
weights: our ONNX export (fp32 + dynamic int8), and CTranslate2 (fp32 + int8).

Artefacts are cached under ~/.cache/live-translator-bench (override: LIVE_TRANSLATOR_BENCH_CACHE);
a folder is only used once its `.done` marker exists, so an interrupted build is redone.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from bench._common import ROOT as REPO
from models.export import export_onnx, quantize_like_transformers_js, tie_head_by_transpose

CORPUS = REPO / "models" / "fixture_corpus.txt"
# Bump when the model recipe changes, so stale caches are not reused.
RECIPE = "opus-mt-en-zh-random-v1"
VOCAB_SIZE = 65001
PAD_ID = 65000  # also decoder_start_token_id, as in Helsinki-NLP/opus-mt-en-zh
EOS_ID = 0
UNK_ID = 1
TARGET_TOKEN = ">>cmn_Hans<<"


@dataclass(frozen=True)
class BenchModels:
    hf: Path  # transformers folder (PyTorch + tokenizer)
    onnx: Path  # our export (models.export defaults): merged decoder, fused attention, int8 twins
    onnx_optimum: Path  # optimum's plain split graphs (+ int8 twins), for ORTModelForSeq2SeqLM
    onnx_catalog: Path  # the catalog's layout: optimum's merged graphs (tied head) under onnx/, twins of all MatMuls
    onnx_catalog_copied_head: Path  # optimum's merged graphs without accelerate: the head a transposed copy
    onnx_catalog_q8: Path  # the same graphs, int8 twins of the weights only (quantize_q8, onnx-community)
    ct2_fp32: Path
    ct2_int8: Path


def cache_root() -> Path:
    env = os.environ.get("LIVE_TRANSLATOR_BENCH_CACHE")
    return Path(env) if env else Path.home() / ".cache" / "live-translator-bench"


def _built(path: Path) -> bool:
    return (path / ".done").exists()


def _build_into(path: Path, build) -> Path:
    """Build into a temporary sibling, then rename: a half-built folder is never used."""
    if _built(path):
        return path
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=path.name + ".", dir=path.parent))
    build(tmp)
    (tmp / ".done").write_text("ok\n")
    shutil.rmtree(path, ignore_errors=True)
    tmp.rename(path)
    return path


def _corpus_side(index: int) -> list[str]:
    lines = [line for line in CORPUS.read_text(encoding="utf-8").splitlines() if line and not line.startswith("#")]
    return [line.split("\t")[index] for line in lines]


def _train_spm(sentences: list[str], prefix: Path) -> Path:
    import sentencepiece as spm

    text = prefix.with_suffix(".txt")
    text.write_text("\n".join(sentences) + "\n", encoding="utf-8")
    spm.SentencePieceTrainer.train(
        input=str(text),
        model_prefix=str(prefix),
        vocab_size=400,
        hard_vocab_limit=False,
        model_type="unigram",
        character_coverage=1.0,
        bos_id=-1,
        eos_id=-1,
        unk_id=0,
        minloglevel=2,
    )
    return prefix.with_suffix(".model")


def _build_hf(out: Path) -> None:
    import sentencepiece as spm
    import torch
    from transformers import GenerationConfig, MarianConfig, MarianMTModel, MarianTokenizer

    work = out / "_spm"
    work.mkdir()
    src_model = _train_spm(_corpus_side(0), work / "source")
    tgt_model = _train_spm(_corpus_side(1), work / "target")
    # One vocab for both sides, as in opus-mt: real pieces first, then filler up to 65001.
    vocab = {"</s>": EOS_ID, "<unk>": UNK_ID, TARGET_TOKEN: 2}
    for model_file in (src_model, tgt_model):
        sp = spm.SentencePieceProcessor(model_file=str(model_file))
        for i in range(sp.get_piece_size()):
            vocab.setdefault(sp.id_to_piece(i), len(vocab))
    filler = 0
    while len(vocab) < PAD_ID:
        vocab.setdefault(f"▁x{filler}", len(vocab))
        filler += 1
    vocab["<pad>"] = PAD_ID
    assert len(vocab) == VOCAB_SIZE
    vocab_file = work / "vocab.json"
    vocab_file.write_text(json.dumps(vocab, ensure_ascii=False), encoding="utf-8")
    tokenizer = MarianTokenizer(str(src_model), str(tgt_model), str(vocab_file), source_lang="en", target_lang="zh")
    tokenizer.save_pretrained(out)
    shutil.rmtree(work)

    # The shape of Helsinki-NLP/opus-mt-en-zh's config.json.
    config = MarianConfig(
        vocab_size=VOCAB_SIZE,
        decoder_vocab_size=VOCAB_SIZE,
        d_model=512,
        encoder_layers=6,
        decoder_layers=6,
        encoder_attention_heads=8,
        decoder_attention_heads=8,
        encoder_ffn_dim=2048,
        decoder_ffn_dim=2048,
        max_position_embeddings=512,
        activation_function="swish",
        scale_embedding=True,
        static_position_embeddings=True,
        share_encoder_decoder_embeddings=True,
        tie_word_embeddings=True,
        pad_token_id=PAD_ID,
        decoder_start_token_id=PAD_ID,
        eos_token_id=EOS_ID,
        forced_eos_token_id=EOS_ID,
        bad_words_ids=[[PAD_ID]],
        num_beams=4,
        max_length=512,
    )
    torch.manual_seed(0)
    model = MarianMTModel(config).eval()
    model.generation_config = GenerationConfig(
        bad_words_ids=[[PAD_ID]],
        decoder_start_token_id=PAD_ID,
        eos_token_id=EOS_ID,
        forced_eos_token_id=EOS_ID,
        pad_token_id=PAD_ID,
        num_beams=4,
        max_length=512,
    )
    model.save_pretrained(out, safe_serialization=True)


def int8_problem(onnx_dir: Path) -> str | None:
    """A *_quantized twin that is not smaller than its fp32 file was not really quantized
    (e.g. quantize_dynamic without EnableSubgraph leaves a merged decoder's If branches fp32)."""
    for twin in sorted(onnx_dir.glob("*_quantized.onnx")):
        plain = twin.with_name(twin.name.replace("_quantized", ""))
        if plain.is_file() and twin.stat().st_size > 0.5 * plain.stat().st_size:
            return f"{twin.name} is {twin.stat().st_size >> 20} MB, not int8 (fp32: {plain.stat().st_size >> 20} MB)"
    return None


def _export_ours(hf: Path, out: Path) -> None:
    """What `python -m app models export --quantize` writes: the merged decoder, attention fused,
    int8 twins."""

    export_onnx(hf, out, layouts=("merged",), quantize=True, validate=False)


def _export_plain(hf: Path, out: Path) -> None:
    """optimum's graphs as they come (split decoders, no fusion) for optimum's own runtime."""
    export_onnx(hf, out, layouts=("split",), quantize=True, validate=False, fuse=False)


def _export_catalog(hf: Path, out: Path) -> None:
    """optimum's plain graphs (merged decoder, no fusion) under onnx/, as optimum writes them
    without `accelerate` (the tied head a transposed copy of the embedding), with `_quantized`
    twins of all MatMuls; the base of the catalog replicas (_catalog_replica)."""

    export_onnx(hf, out / "staging", layouts=("merged",), quantize=False, validate=False, fuse=False)
    staged = out / "staging"
    (out / "onnx").mkdir()
    for item in staged.iterdir():
        item.rename(out / "onnx" / item.name if item.suffix == ".onnx" else out / item.name)
    staged.rmdir()
    quantize_like_transformers_js(out / "onnx")


def _catalog_replica(catalog: Path, out: Path, weights_only: bool) -> None:
    """The catalog's download as optimum writes it with `accelerate` installed (the onnx-community
    repos): the plain graphs of `catalog`, the merged decoder's tied LM head reading
    `Transpose(embedding)` (models.export.tie_head_by_transpose), and `_quantized` twins of all
    MatMuls (Xenova) or of the weights only (MatMulConstBOnly: transformers.js' `quantize_q8`,
    onnx-community/opus-mt-zh-en)."""

    (out / "onnx").mkdir()
    for item in catalog.iterdir():
        if item.is_file() and item.name != ".done":
            shutil.copyfile(item, out / item.name)
    for item in (catalog / "onnx").iterdir():
        if not item.stem.endswith("_quantized"):
            shutil.copyfile(item, out / "onnx" / item.name)
    tie_head_by_transpose(out / "onnx" / "decoder_model_merged.onnx")
    quantize_like_transformers_js(out / "onnx", weights_only=weights_only)


def _convert_ct2(hf: Path, out: Path, quantization: str | None) -> None:
    import ctranslate2

    ctranslate2.converters.TransformersConverter(str(hf)).convert(str(out), quantization=quantization, force=True)


def build(log=print) -> BenchModels:
    root = cache_root() / RECIPE
    hf = root / "hf"
    if not _built(hf):
        log(f"building random-weight model in {hf} ...")
    _build_into(hf, _build_hf)
    exports = {}
    for name, export in (
        ("onnx-ours-v3", _export_ours),
        ("onnx-optimum-v2", _export_plain),
        ("onnx-catalog-v1", _export_catalog),
    ):
        if not _built(root / name):
            log(f"exporting ONNX to {root / name} ...")
        exports[name] = _build_into(root / name, lambda tmp, export=export: export(hf, tmp))
    for name, weights_only in (("onnx-catalog-v2", False), ("onnx-catalog-q8-v2", True)):
        if not _built(root / name):
            log(f"making the catalog replica {root / name} ...")
        exports[name] = _build_into(
            root / name, lambda tmp, w=weights_only: _catalog_replica(exports["onnx-catalog-v1"], tmp, w)
        )
    ct2 = {}
    for name, quantization in (("ct2-fp32", None), ("ct2-int8", "int8")):
        if not _built(root / name):
            log(f"converting for CTranslate2 ({name}) ...")
        ct2[name] = _build_into(root / name, lambda tmp, q=quantization: _convert_ct2(hf, tmp, q))
    return BenchModels(
        hf=hf,
        onnx=exports["onnx-ours-v3"],
        onnx_optimum=exports["onnx-optimum-v2"],
        onnx_catalog=exports["onnx-catalog-v2"],
        onnx_catalog_copied_head=exports["onnx-catalog-v1"],
        onnx_catalog_q8=exports["onnx-catalog-q8-v2"],
        ct2_fp32=ct2["ct2-fp32"],
        ct2_int8=ct2["ct2-int8"],
    )


if __name__ == "__main__":
    print(build())
