"""Build the small translation models the tests run on: `python -m models.fixtures --out DIR`
(the tests read them from tests/fixtures/nmt: `--out tests/fixtures/nmt` from a checkout).

No English<->Chinese weights can be installed here (docs/models.md, 'Weights that install
offline'), so each fixture is a tiny
random-weight model built from a config, with real tokenizers trained by sentencepiece on
models/fixture_corpus.txt, exported through models.export in every layout, plus the token ids
transformers' `generate` gives for a list of sentences under several settings (references.json).
Everything is seeded: rebuilding gives the same files' behaviour and the same reference ids.

Random tiny models misbehave in two ways that would make weak fixtures. With the usual small
init the logits are near-uniform, so onnxruntime and torch could rank two tokens differently by
rounding alone; with a large init the decoder collapses onto one token forever. So the network
is drawn at init_std 0.1, the output projection is untied and drawn larger (head_std 0.3: clear
margins; references.json records the smallest greedy margin seen), and EOS gets a boost so that
some sentences stop with EOS and others run to the length limit. Seeds are tried in order and
the first whose references pass `quality_problems` is kept (greedy margin >= 1e-3, some greedy
outputs stopping with EOS, both EOS and length stops over all cases, several distinct tokens).
Torch weights are never kept.
"""

from __future__ import annotations

import argparse
import json
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from models import export

CORPUS = Path(__file__).with_name("fixture_corpus.txt")
MARIAN_LANGUAGE_TOKENS = (">>cmn_Hans<<", ">>cmn_Hant<<", ">>yue_Hans<<")  # like opus-mt-en-zh's vocab
LONG_EN = (
    "Good morning, everyone, and welcome to the meeting; today we will talk about the plan for the "
    "project, the report that is finished, the flight that was delayed, and why we need more time, "
    "so please speak slowly and send me the file after the meeting."
)
LONG_ZH = "大家好，欢迎参加会议。今天我们讨论这个计划，项目进展顺利，但是我们需要更多时间，报告写完了，请把文件发给我，明天见。"  # noqa: E501
SOURCES = {
    "en": ["Hello, everyone.", "The weather is nice today.", "Can you help me?", "I am learning Chinese.", LONG_EN],
    "zh": ["大家好。", "今天天气很好。", "你能帮我吗？", "我在学中文。", LONG_ZH],
}
# Explicit generate() settings; every case also records them in references.json.
CASES = {
    "greedy": dict(num_beams=1, max_new_tokens=40),
    "beam4": dict(num_beams=4, max_new_tokens=40),
    "no_repeat_ngram_3": dict(num_beams=1, max_new_tokens=40, no_repeat_ngram_size=3),
    "repetition_penalty_1.5": dict(num_beams=1, max_new_tokens=40, repetition_penalty=1.5),
    "min_new_tokens_12": dict(num_beams=1, max_new_tokens=30, min_new_tokens=12),
    "beam4_length_penalty_0.5_early": dict(num_beams=4, max_new_tokens=40, length_penalty=0.5, early_stopping=True),
    "beam3_length_penalty_2_never": dict(num_beams=3, max_new_tokens=30, length_penalty=2.0, early_stopping="never"),
}
SMALL = dict(
    d_model=32,
    encoder_layers=2,
    decoder_layers=2,
    encoder_attention_heads=4,
    decoder_attention_heads=4,
    encoder_ffn_dim=64,
    decoder_ffn_dim=64,
)


@dataclass(frozen=True)
class Family:
    name: str  # folder under the fixtures dir
    kind: str  # "marian" | "m2m100"
    directions: tuple  # (source language, target language) pairs it translates
    layouts: tuple
    seeds: tuple = tuple(range(1, 13))  # tried in order; the first whose references are good is kept
    init_std: float = 0.1
    head_std: float = 0.3
    eos_boost: float = 4.0  # Marian: added to final_logits_bias[eos]; M2M100: scales the EOS row


FAMILIES = (
    Family("marian-en-zh", "marian", (("en", "zh"),), ("merged", "split", "both", "onnx-subdir", "legacy")),
    Family("marian-zh-en", "marian", (("zh", "en"),), ("merged", "split", "both", "onnx-subdir", "legacy")),
    Family("m2m100", "m2m100", (("en", "zh"), ("zh", "en")), ("merged", "split", "both", "onnx-subdir"), eos_boost=1.5),
)


def corpus_pairs() -> list[tuple[str, str]]:
    lines = [line for line in CORPUS.read_text(encoding="utf-8").splitlines() if line and not line.startswith("#")]
    return [tuple(line.split("\t")) for line in lines]


def train_spm(
    texts: list[str], prefix: Path, vocab_size: int, model_type: str = "unigram", normalization: str = "identity"
) -> Path:
    import sentencepiece as spm

    text_file = prefix.with_suffix(".txt")
    text_file.write_text("\n".join(texts) + "\n", encoding="utf-8")
    spm.SentencePieceTrainer.train(
        input=str(text_file),
        model_prefix=str(prefix),
        vocab_size=vocab_size,
        model_type=model_type,
        character_coverage=1.0,
        hard_vocab_limit=False,
        num_threads=1,
        minloglevel=2,
        bos_id=-1,
        eos_id=1,
        unk_id=0,
        pad_id=-1,  # like Marian's: <unk> 0, </s> 1, no <s>
        # nmt_nfkc embeds a 240 kB character map in every .spm: only M2M100's single model keeps it,
        # so the fixtures stay small while that normalizer is still exercised.
        normalization_rule_name=normalization,
    )
    return prefix.with_suffix(".model")


def spm_pieces(model_file: Path) -> list[str]:
    import sentencepiece as spm

    processor = spm.SentencePieceProcessor(model_file=str(model_file))
    return [processor.id_to_piece(i) for i in range(processor.get_piece_size())]


def build_marian_tokenizer(work: Path, source: str, target: str, out: Path):
    from transformers import MarianTokenizer

    pairs = corpus_pairs()
    column = {"en": 0, "zh": 1}
    source_spm = train_spm([p[column[source]] for p in pairs], work / f"src_{source}", 300 if source == "en" else 420)
    target_spm = train_spm([p[column[target]] for p in pairs], work / f"tgt_{target}", 300 if target == "en" else 420)
    # One vocabulary for both sides, laid out like opus-mt's: </s> 0, <unk> 1, ..., <pad> last.
    vocab = {"</s>": 0, "<unk>": 1}
    extra = MARIAN_LANGUAGE_TOKENS if target == "zh" else ()
    for piece in list(extra) + spm_pieces(source_spm) + spm_pieces(target_spm):
        vocab.setdefault(piece, len(vocab))
    vocab["<pad>"] = len(vocab)
    (work / "vocab.json").write_text(json.dumps(vocab, ensure_ascii=False), encoding="utf-8")
    tokenizer = MarianTokenizer(
        source_spm=str(source_spm),
        target_spm=str(target_spm),
        vocab=str(work / "vocab.json"),
        source_lang=source,
        target_lang=target,
        model_max_length=512,
    )
    tokenizer.save_pretrained(str(out))
    return tokenizer, len(vocab)


def build_m2m100_tokenizer(work: Path, out: Path):
    from transformers import M2M100Tokenizer

    pairs = corpus_pairs()
    model = train_spm(
        [p[0] for p in pairs] + [p[1] for p in pairs], work / "m2m", 620, model_type="bpe", normalization="nmt_nfkc"
    )
    vocab = {"<s>": 0, "<pad>": 1, "</s>": 2, "<unk>": 3}  # fairseq's dictionary order, as in m2m100
    for piece in spm_pieces(model):
        vocab.setdefault(piece, len(vocab))
    (work / "vocab.json").write_text(json.dumps(vocab, ensure_ascii=False), encoding="utf-8")
    tokenizer = M2M100Tokenizer(vocab_file=str(work / "vocab.json"), spm_file=str(model), src_lang="en", tgt_lang="zh")
    tokenizer.save_pretrained(str(out))
    # vocab + the 100 language tokens (__en__, __zh__, ...) + 8 "madeupword" slots, as in m2m100
    return tokenizer, len(tokenizer.encoder) + len(tokenizer.lang_token_to_id) + tokenizer.num_madeup_words


def marian_ids(vocab_size: int) -> dict:
    """opus-mt's special ids: </s> = 0 ends a sentence (and is forced last), <pad> is the last
    token and starts the decoder."""
    pad = vocab_size - 1
    return {"pad_token_id": pad, "eos_token_id": 0, "decoder_start_token_id": pad, "forced_eos_token_id": 0}


def marian_generation_config(vocab_size: int) -> dict:
    return {  # Helsinki-NLP/opus-mt-en-zh's, with this vocabulary's pad id
        **marian_ids(vocab_size),
        "bad_words_ids": [[vocab_size - 1]],
        "bos_token_id": 0,
        "max_length": 512,
        "num_beams": 4,
        "renormalize_logits": True,
    }


M2M100_GENERATION_CONFIG = {  # facebook/m2m100_418M's
    "bos_token_id": 0,
    "decoder_start_token_id": 2,
    "early_stopping": True,
    "eos_token_id": 2,
    "max_length": 200,
    "num_beams": 5,
    "pad_token_id": 1,
}


def build_hf_model(family: Family, hf_dir: Path, seed: int):
    """Tokenizer + random-weight model saved with save_pretrained in `hf_dir`; returns (model, tokenizer)."""
    import torch
    from transformers import GenerationConfig, M2M100Config, M2M100ForConditionalGeneration, MarianConfig, MarianMTModel

    work = hf_dir / "_tokenizer_work"
    work.mkdir(parents=True, exist_ok=True)
    if family.kind == "marian":
        source, target = family.directions[0]
        tokenizer, vocab_size = build_marian_tokenizer(work, source, target, hf_dir)
        config = MarianConfig(
            vocab_size=vocab_size,
            decoder_vocab_size=vocab_size,
            **marian_ids(vocab_size),
            max_position_embeddings=512,
            init_std=family.init_std,
            tie_word_embeddings=False,
            **SMALL,
        )
        generation = marian_generation_config(vocab_size)
        model_class, eos = MarianMTModel, 0
    else:
        tokenizer, vocab_size = build_m2m100_tokenizer(work, hf_dir)
        config = M2M100Config(
            vocab_size=vocab_size,
            pad_token_id=1,
            bos_token_id=0,
            eos_token_id=2,
            decoder_start_token_id=2,
            max_position_embeddings=512,
            init_std=family.init_std,
            scale_embedding=True,
            tie_word_embeddings=False,
            **SMALL,
        )
        generation = M2M100_GENERATION_CONFIG
        model_class, eos = M2M100ForConditionalGeneration, 2
    shutil.rmtree(work)
    torch.manual_seed(seed)
    model = model_class(config).eval()
    with torch.no_grad():
        if family.kind == "m2m100":  # untied output: give the encoder/decoder inputs their own copy to save
            for side in (model.model.encoder, model.model.decoder):
                side.embed_tokens.weight = torch.nn.Parameter(model.model.shared.weight.clone())
        model.get_output_embeddings().weight.normal_(0.0, family.head_std)
        boost_eos(model, eos, family.eos_boost)
    model.generation_config = GenerationConfig(**generation)
    model.save_pretrained(str(hf_dir))
    # What the exporter will see: the saved model, reloaded (and checked to be the one built).
    saved = model_class.from_pretrained(str(hf_dir)).eval()
    probe = torch.tensor([[5, 6, 7, eos]])
    with torch.no_grad():
        same = torch.equal(
            model(input_ids=probe, decoder_input_ids=probe).logits,
            saved(input_ids=probe, decoder_input_ids=probe).logits,
        )
    if not same:
        raise RuntimeError(f"{family.name}: the saved model does not reload as built (untied weights lost?)")
    return saved, tokenizer


def boost_eos(model, eos: int, boost: float) -> None:
    """Make EOS a real contender (random models otherwise never stop)."""
    if hasattr(model, "final_logits_bias"):  # Marian: a saved buffer added to the logits
        model.final_logits_bias[0, eos] += boost
    else:  # M2M100 has no logits bias: lengthen the EOS row of the output projection
        model.get_output_embeddings().weight[eos] *= 1.0 + boost


def prompt(family: Family, tokenizer, source_lang: str, text: str, target_lang: str) -> tuple[str, list[int]]:
    """The tokenizer input for one direction and its ids (the prompt the engine must build too)."""
    if family.kind == "marian":
        source = f">>cmn_Hans<< {text}" if target_lang == "zh" else text
        return source, tokenizer(source)["input_ids"]
    tokenizer.src_lang = source_lang  # M2M100: [__src__, pieces..., </s>]
    return text, tokenizer(text)["input_ids"]


def reference_outputs(family: Family, model, tokenizer, seed: int, cases: dict | None = None) -> dict:
    """Token ids from transformers' generate for every direction x case x sentence."""
    import torch

    directions = []
    smallest_margin = float("inf")
    for source_lang, target_lang in family.directions:
        forced = {"forced_bos_token_id": tokenizer.get_lang_id(target_lang)} if family.kind == "m2m100" else {}
        cases = []
        for case_name, case in (cases or CASES).items():
            settings = dict(case, do_sample=False, **forced)
            results = []
            for text in SOURCES[source_lang]:
                source, input_ids = prompt(family, tokenizer, source_lang, text, target_lang)
                with torch.no_grad():
                    out = model.generate(
                        torch.tensor([input_ids]),
                        attention_mask=torch.ones(1, len(input_ids), dtype=torch.long),
                        output_scores=True,
                        return_dict_in_generate=True,
                        **settings,
                    )
                ids = out.sequences[0].tolist()
                if settings["num_beams"] == 1:
                    smallest_margin = min(smallest_margin, greedy_margin(out.scores))
                new = ids[1 + len(forced) :]  # after decoder_start (and M2M100's forced target language)
                results.append(
                    {
                        "text": text,
                        "source": source,
                        "input_ids": input_ids,
                        "output_ids": ids,
                        "new_token_ids": new,
                        "stop_reason": stop_reason(ids, model.generation_config, settings),
                        "translation": tokenizer.decode(ids, skip_special_tokens=True),
                    }
                )
            cases.append({"name": case_name, "settings": settings, "results": results})
        directions.append({"direction": f"{source_lang}-{target_lang}", "cases": cases})
    return {
        "family": family.kind,
        "seed": seed,
        "init_std": family.init_std,
        "head_std": family.head_std,
        "eos_boost": family.eos_boost,
        "smallest_greedy_margin": round(smallest_margin, 6),
        "directions": directions,
    }


def stop_reason(output_ids: list[int], generation_config, settings: dict) -> str:
    """ "eos" or "length". forced_eos_token_id (Marian) puts EOS on the last allowed step: that
    is a length stop; without it (M2M100) an EOS on the last step is a real one."""
    generated = len(output_ids) - 1  # after decoder_start_token_id
    if output_ids[-1] != generation_config.eos_token_id or generated == 0:
        return "length"
    forced_at_limit = generation_config.forced_eos_token_id is not None and generated >= settings["max_new_tokens"]
    return "length" if forced_at_limit else "eos"


def greedy_margin(scores) -> float:
    """Smallest gap between the chosen and the runner-up processed score over the greedy steps."""
    import torch

    gaps = []
    for step in scores:
        finite = step[0][torch.isfinite(step[0])]
        if finite.numel() >= 2:
            top = torch.topk(finite, 2).values
            gaps.append(float(top[0] - top[1]))
    return min(gaps) if gaps else float("inf")


# What makes a seed's references worth testing against (see the module docstring).
MIN_MARGIN = 1e-3


def quality_problems(references: dict) -> list[str]:
    problems = []
    if references["smallest_greedy_margin"] < MIN_MARGIN:
        problems.append(f"greedy margin {references['smallest_greedy_margin']} < {MIN_MARGIN}")
    for direction in references["directions"]:
        greedy = next(c for c in direction["cases"] if c["name"] == "greedy")["results"]
        if not any(r["stop_reason"] == "eos" for r in greedy):
            problems.append(f"{direction['direction']}: no greedy output stops with EOS")
        if sum(len(set(r["new_token_ids"])) >= 4 for r in greedy) < 3:
            problems.append(f"{direction['direction']}: fewer than 3 greedy outputs with 4+ distinct tokens")
        stops = {r["stop_reason"] for case in direction["cases"] for r in case["results"]}
        if stops != {"eos", "length"}:
            problems.append(f"{direction['direction']}: stops are only {sorted(stops)}")
    return problems


def choose_model(family: Family, hf_dir: Path):
    """Build seeds in order until one gives good references; returns (tokenizer, references).
    A seed is screened on the greedy case alone (cheap) before all cases are generated."""
    for seed in family.seeds:
        if hf_dir.exists():
            shutil.rmtree(hf_dir)
        model, tokenizer = build_hf_model(family, hf_dir, seed)
        screen = reference_outputs(family, model, tokenizer, seed, cases={"greedy": CASES["greedy"]})
        problems = [p for p in quality_problems(screen) if "stops are only" not in p]
        if not problems:
            references = reference_outputs(family, model, tokenizer, seed)
            problems = quality_problems(references)
            if not problems:
                return tokenizer, references
        print(f"{family.name}: seed {seed} rejected: {'; '.join(problems)}", flush=True)
    raise RuntimeError(f"{family.name}: no seed in {family.seeds} gives usable references")


def build_family(family: Family, out_root: Path, work_root: Path) -> Path:
    hf_dir = work_root / family.name
    tokenizer, references = choose_model(family, hf_dir)
    target = out_root / family.name
    if target.exists():
        shutil.rmtree(target)
    # The plain layouts are optimum's graphs as users download them; merged-fused is ours.
    export.export_onnx(hf_dir, target, layouts=family.layouts, fuse=False)
    fused_variant(target)
    if family.name == "marian-zh-en":
        tokenizer_json_variant(hf_dir, target)
    (target / "references.json").write_text(
        json.dumps(references, ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
    )
    return target


def fused_variant(family_dir: Path) -> Path:
    """The merged layout with its attention fused and its self-attention cache shared (what
    `models export` writes by default)."""
    from app.model_store.optimize import fuse_attention_folder
    from app.model_store.self_cache import share_self_cache_folder

    target = family_dir / "merged-fused"
    shutil.copytree(family_dir / "merged", target)
    fused = fuse_attention_folder(target)
    shared = share_self_cache_folder(target)
    if not all(fused.values()) or not all(shared.values()):
        raise RuntimeError(f"attention fusion matched nothing in {target}: fused {fused}, shared cache {shared}")
    return target


def tie_head_to_embedding(path: Path) -> str:
    """Make the LM head of the decoder graph at `path` the transpose of its token embedding, as
    optimum exports a model whose head is tied (opus-mt, m2m100). The fixtures' heads are untied
    (drawn larger, see above); this makes tied twins of their graphs for the tests of
    `share_tied_embedding`. Returns the name of the head's weight."""
    import numpy as np
    import onnx
    from onnx import numpy_helper

    from app.model_store.graph_tools import all_graphs

    model = onnx.load(str(path))
    graphs = all_graphs(model.graph)
    tensors = {i.name: i for g in graphs for i in g.initializer}
    read_by = {(n.op_type, n.input[k]) for g in graphs for n in g.node for k in (0, 1) if len(n.input) > k}
    tables = [t for name, t in tensors.items() if ("Gather", name) in read_by and len(t.dims) == 2]
    for table in tables:
        head = next(
            (
                t
                for name, t in tensors.items()
                if ("MatMul", name) in read_by and list(t.dims) == list(table.dims)[::-1]
            ),
            None,
        )
        if head is not None:
            head.CopyFrom(numpy_helper.from_array(np.ascontiguousarray(numpy_helper.to_array(table).T), head.name))
            onnx.save(model, str(path))
            return head.name
    raise ValueError(f"{path}: no MatMul weight of the embedding's transposed shape")


def tokenizer_json_variant(hf_dir: Path, family_dir: Path) -> Path:
    """The merged layout with tokenizer.json as its only tokenizer file (onnx-community style)."""
    variant = family_dir / "tokenizer-json"
    variant.mkdir()
    for name in ("encoder_model.onnx", "decoder_model_merged.onnx"):
        shutil.copyfile(family_dir / "merged" / name, variant / name)
    for name in ("config.json", "generation_config.json"):
        shutil.copyfile(hf_dir / name, variant / name)
    marian_tokenizer_json(hf_dir).save(str(variant / "tokenizer.json"))
    return variant


def marian_tokenizer_json(hf_dir: Path):
    """A `tokenizers` Unigram tokenizer equal to MarianTokenizer's source side: the source
    sentencepiece's normalizer and pieces, the joint vocab.json ids, `</s>` appended."""
    from tokenizers import processors
    from transformers.convert_slow_tokenizer import SpmConverter

    vocab = json.loads((hf_dir / "vocab.json").read_text(encoding="utf-8"))

    class Original:  # what SpmConverter reads from a slow tokenizer
        vocab_file = str(hf_dir / "source.spm")

    class MarianSourceConverter(SpmConverter):
        def vocab(self, proto):
            scores = {piece.piece: piece.score for piece in proto.pieces}
            # Pieces only the target side uses must never win a source segmentation.
            return [(piece, scores.get(piece, -1000.0)) for piece in sorted(vocab, key=vocab.get)]

        def unk_id(self, proto):
            return vocab["<unk>"]

        def post_processor(self):
            return processors.TemplateProcessing(
                single="$A </s>", pair="$A $B </s>", special_tokens=[("</s>", vocab["</s>"])]
            )

    return MarianSourceConverter(Original()).converted()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--out",
        type=Path,
        required=True,
        metavar="DIR",
        help="folder to write one subfolder per family into (the tests read tests/fixtures/nmt)",
    )
    parser.add_argument("--only", action="append", choices=[f.name for f in FAMILIES], help="build only these families")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="lt-fixtures-") as work:
        for family in FAMILIES:
            if args.only and family.name not in args.only:
                continue
            folder = build_family(family, args.out, Path(work))
            print(f"built {folder}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
