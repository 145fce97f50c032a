"""The benchmark's model: full-size opus-mt-en-zh architecture with seeded random weights.

Speed does not depend on weight values, so the benchmark builds the real architecture
(d_model 512, 6+6 layers, 8 heads, ffn 2048, vocab 65001) from a config, with a MarianTokenizer
whose vocab.json is padded to 65001 entries, and derives every engine's copy from the same
weights: our ONNX export (fp32 + dynamic int8), and CTranslate2 (fp32 + int8).

Artefacts are cached under ~/.cache/live-translator-bench (override: LIVE_TRANSLATOR_BENCH_CACHE);
a folder is only used once its `.done` marker exists, so an interrupted build is redone.
Each copy is built the first time a bench asks for it (a bench that runs only our export does
not wait for CTranslate2's). `size="small"` builds the same recipe at a few percent of the size
(d_model 64, 2+2 layers, vocab 1001): what the benches' smallest runs in tests/test_benches.py
load, so they run in seconds; its figures say nothing about the real model's speed.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from bench._common import ROOT as REPO
from models.export import export_onnx, quantize_like_transformers_js, tie_head_by_transpose

CORPUS = REPO / "models" / "fixture_corpus.txt"
# Bump when the model recipe changes, so stale caches are not reused.
RECIPE = "opus-mt-en-zh-random-v1"
EOS_ID = 0
UNK_ID = 1
TARGET_TOKEN = ">>cmn_Hans<<"


@dataclass(frozen=True)
class Shape:
    """The architecture's sizes; the vocabulary's last id is pad, also the decoder start token, as in
    Helsinki-NLP/opus-mt-en-zh (65000)."""

    recipe: str  # the cache folder's name
    vocab_size: int
    d_model: int
    layers: int  # each of encoder and decoder
    heads: int
    ffn: int

    @property
    def pad_id(self) -> int:
        return self.vocab_size - 1

    def describe(self) -> str:
        if self.recipe == RECIPE:
            return "the full-size opus-mt-en-zh architecture"
        sizes = f"d_model {self.d_model}, {self.layers}+{self.layers} layers, vocab {self.vocab_size}"
        return f"the small model ({sizes}; its figures are not the real model's)"


SHAPES = {
    "full": Shape(RECIPE, vocab_size=65001, d_model=512, layers=6, heads=8, ffn=2048),  # opus-mt-en-zh's
    "small": Shape("opus-mt-en-zh-random-small-v1", vocab_size=1001, d_model=64, layers=2, heads=4, ffn=128),
}
FULL = SHAPES["full"]


@dataclass(frozen=True)
class BenchModels:
    """Every engine's copy of one set of weights, each built (and cached) when first asked for."""

    root: Path
    shape: Shape = FULL
    log: object = print

    def _folder(self, name: str, build, note: str) -> Path:
        if not _built(self.root / name):
            self.log(f"{note} {self.root / name} ...")
        return _build_into(self.root / name, build)

    @cached_property
    def hf(self) -> Path:
        """transformers folder (PyTorch + tokenizer)"""
        return self._folder("hf", lambda tmp: _build_hf(tmp, self.shape), "building random-weight model in")

    @cached_property
    def onnx(self) -> Path:
        """our export (models.export defaults): merged decoder, fused attention, int8 twins"""
        return self._folder("onnx-ours-v3", lambda tmp: _export_ours(self.hf, tmp), "exporting ONNX to")

    @cached_property
    def onnx_optimum(self) -> Path:
        """optimum's plain split graphs (+ int8 twins), for ORTModelForSeq2SeqLM"""
        return self._folder("onnx-optimum-v2", lambda tmp: _export_plain(self.hf, tmp), "exporting ONNX to")

    @cached_property
    def onnx_catalog_copied_head(self) -> Path:
        """optimum's merged graphs without accelerate: the head a transposed copy"""
        return self._folder("onnx-catalog-v1", lambda tmp: _export_catalog(self.hf, tmp), "exporting ONNX to")

    @cached_property
    def onnx_catalog(self) -> Path:
        """the catalog's layout: optimum's merged graphs (tied head) under onnx/, twins of all MatMuls"""
        return self._replica("onnx-catalog-v2", weights_only=False)

    @cached_property
    def onnx_catalog_q8(self) -> Path:
        """the same graphs, int8 twins of the weights only (quantize_q8, onnx-community)"""
        return self._replica("onnx-catalog-q8-v2", weights_only=True)

    @cached_property
    def ct2_fp32(self) -> Path:
        return self._folder("ct2-fp32", lambda tmp: _convert_ct2(self.hf, tmp, None), "converting for CTranslate2")

    @cached_property
    def ct2_int8(self) -> Path:
        return self._folder("ct2-int8", lambda tmp: _convert_ct2(self.hf, tmp, "int8"), "converting for CTranslate2")

    def _replica(self, name: str, weights_only: bool) -> Path:
        catalog = self.onnx_catalog_copied_head
        build = lambda tmp: _catalog_replica(catalog, tmp, weights_only)  # noqa: E731
        return self._folder(name, build, "making the catalog replica")


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


def _build_hf(out: Path, shape: Shape = FULL) -> None:
    import sentencepiece as spm
    import torch
    from transformers import GenerationConfig, MarianConfig, MarianMTModel, MarianTokenizer

    work = out / "_spm"
    work.mkdir()
    src_model = _train_spm(_corpus_side(0), work / "source")
    tgt_model = _train_spm(_corpus_side(1), work / "target")
    # One vocab for both sides, as in opus-mt: real pieces first, then filler up to the vocab size.
    vocab = {"</s>": EOS_ID, "<unk>": UNK_ID, TARGET_TOKEN: 2}
    for model_file in (src_model, tgt_model):
        sp = spm.SentencePieceProcessor(model_file=str(model_file))
        for i in range(sp.get_piece_size()):
            vocab.setdefault(sp.id_to_piece(i), len(vocab))
    filler = 0
    while len(vocab) < shape.pad_id:
        vocab.setdefault(f"▁x{filler}", len(vocab))
        filler += 1
    vocab["<pad>"] = shape.pad_id
    assert len(vocab) == shape.vocab_size
    vocab_file = work / "vocab.json"
    vocab_file.write_text(json.dumps(vocab, ensure_ascii=False), encoding="utf-8")
    tokenizer = MarianTokenizer(str(src_model), str(tgt_model), str(vocab_file), source_lang="en", target_lang="zh")
    tokenizer.save_pretrained(out)
    shutil.rmtree(work)

    # Helsinki-NLP/opus-mt-en-zh's config.json, at the shape's sizes.
    pad = shape.pad_id
    config = MarianConfig(
        vocab_size=shape.vocab_size,
        decoder_vocab_size=shape.vocab_size,
        d_model=shape.d_model,
        encoder_layers=shape.layers,
        decoder_layers=shape.layers,
        encoder_attention_heads=shape.heads,
        decoder_attention_heads=shape.heads,
        encoder_ffn_dim=shape.ffn,
        decoder_ffn_dim=shape.ffn,
        max_position_embeddings=512,
        activation_function="swish",
        scale_embedding=True,
        static_position_embeddings=True,
        share_encoder_decoder_embeddings=True,
        tie_word_embeddings=True,
        pad_token_id=pad,
        decoder_start_token_id=pad,
        eos_token_id=EOS_ID,
        forced_eos_token_id=EOS_ID,
        bad_words_ids=[[pad]],
        num_beams=4,
        max_length=512,
    )
    torch.manual_seed(0)
    model = MarianMTModel(config).eval()
    model.generation_config = GenerationConfig(
        bad_words_ids=[[pad]],
        decoder_start_token_id=pad,
        eos_token_id=EOS_ID,
        forced_eos_token_id=EOS_ID,
        pad_token_id=pad,
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


def add_size_option(parser) -> None:
    """`--small`: the bench on the small model, a run of seconds that tries the bench, not the model."""
    parser.add_argument(
        "--small",
        action="store_true",
        help="bench_model.py's small model instead of the full-size one: seconds, but not the real model's figures",
    )


def build(log=print, size: str = "full") -> BenchModels:
    """The models of `size` (SHAPES), each copy built when first used."""
    shape = SHAPES[size]
    return BenchModels(cache_root() / shape.recipe, shape, log)


if __name__ == "__main__":
    every = build()
    print(
        {
            name: getattr(every, name)
            for name in ("hf", "onnx", "onnx_optimum", "onnx_catalog", "onnx_catalog_q8", "ct2_fp32", "ct2_int8")
        }
    )
