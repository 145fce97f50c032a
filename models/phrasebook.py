"""The end-to-end fixture: two small Marian models that have memorised a phrasebook.

No real English<->Chinese weights install here (docs/models.md, 'Weights that install offline'), so the whole chain is
tested on a task with a known answer: each model learns a few dozen everyday phrases
(en->zh and zh->en) by heart, robust to what Whisper does to punctuation and case. A test
can then speak a phrase with espeak-ng and require the exact phrasebook translation.

    python -m models.phrasebook --out tests/fixtures/phrasebook   # 400 steps a direction: a few
                                                                  # minutes on 2 free cores, ~12 busy

builds `en-zh/` and `zh-en/` (ONNX through models.export, tokenizer, configs) with torch,
sentencepiece and transformers (the `export` extra). Training is seeded; the script checks
that transformers' greedy `generate` reproduces every phrase before exporting.
"""

from __future__ import annotations

import argparse
import itertools
import json
import re
import shutil
import tempfile
from pathlib import Path

# (English, Chinese). SPOKEN_* are the ones espeak-ng + Whisper base hear back exactly
# (measured; Mandarin from espeak-ng's cmn-latn-pinyin voice is often misheard).
PHRASES = [
    ("Hello, everyone.", "大家好。"),
    ("Welcome to the meeting.", "欢迎参加会议。"),
    ("Good morning.", "早上好。"),
    ("Good evening.", "晚上好。"),
    ("I am fine, thank you.", "我很好，谢谢。"),
    ("What is your name?", "你叫什么名字？"),
    ("Where are you from?", "你是哪里人？"),
    ("I am from Beijing.", "我来自北京。"),
    ("He is my friend.", "他是我的朋友。"),
    ("I don't know.", "我不知道。"),
    ("I love you.", "我爱你。"),
    ("Let's go and eat.", "我们去吃饭吧。"),
    ("It is raining outside.", "外面在下雨。"),
    ("Please sit down.", "请坐。"),
    ("Please speak slowly.", "请说慢一点。"),
    ("Can you help me?", "你能帮我吗？"),
    ("Thank you very much.", "非常感谢。"),
    ("You are welcome.", "不客气。"),
    ("Excuse me.", "打扰一下。"),
    ("See you tomorrow.", "明天见。"),
    ("Where is the station?", "车站在哪里？"),
    ("How much is this?", "这个多少钱？"),
    ("We are late.", "我们迟到了。"),
    ("Let's start the meeting.", "我们开始开会吧。"),
    ("We need more time.", "我们需要更多时间。"),
    ("I will call you later.", "我晚点给你打电话。"),
    ("I drink tea every morning.", "我每天早上喝茶。"),
    ("She likes coffee.", "她喜欢咖啡。"),
    ("The children are playing.", "孩子们在玩。"),
    ("My mother is a teacher.", "我妈妈是老师。"),
    ("The city is very big.", "这个城市很大。"),
    ("Let's take a break.", "我们休息一下吧。"),
    ("Close the door.", "关上门。"),
    ("The computer is broken.", "电脑坏了。"),
    ("I lost my key.", "我的钥匙丢了。"),
    ("Where is the bathroom?", "洗手间在哪里？"),
]
SPOKEN_EN = [
    "Good morning.",
    "Thank you very much.",
    "Where is the station?",
    "I love you.",
    "The computer is broken.",
    "See you tomorrow.",
]
SPOKEN_ZH = ["我爱你。", "我不知道。", "他是我的朋友。", "这个多少钱？"]
MARIAN_LANGUAGE_TOKEN = ">>cmn_Hans<<"  # opus-mt-en-zh wants it first (docs/models.md, 'Marian and M2M100 prompts')


def translation_of(text: str, direction: str) -> str:
    """The phrasebook's answer for a phrase in the source language of `direction`."""
    source, target = (0, 1) if direction == "en-zh" else (1, 0)
    return next(pair[target] for pair in PHRASES if pair[source] == text)


def variants(text: str, language: str) -> list[str]:
    """How a recogniser may write the phrase: with/without commas, other final marks, case."""
    body, end = re.match(r"(.*?)([.?!。？！]*)$", text).groups()
    if language == "en":
        bodies = {body, body.replace(",", "")}
        bodies |= {b.lower() for b in bodies}
        ends = {end, "", ".", "!", "?"}
    else:
        bodies = {body, body.replace("，", ""), body.replace("，", ",")}
        ends = {end, "", "。", "！", "？", ".", "?", "!"}
    return sorted({b + e for b, e in itertools.product(bodies, ends)})


def build_tokenizer(work: Path, src_lines: list[str], tgt_lines: list[str], direction: str):
    import sentencepiece as spm
    from transformers import MarianTokenizer

    for name, lines, language in (("source", src_lines, direction[:2]), ("target", tgt_lines, direction[3:])):
        (work / f"{name}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
        spm.SentencePieceTrainer.train(
            input=str(work / f"{name}.txt"),
            model_prefix=str(work / name),
            vocab_size=400 if language == "en" else 300,
            # A Chinese target keeps its own marks: NFKC would turn "，" and "？" into "," and "?".
            normalization_rule_name="identity" if (name, language) == ("target", "zh") else "nmt_nfkc",
            hard_vocab_limit=False,
            character_coverage=1.0,
            model_type="unigram",
            bos_id=-1,
            eos_id=-1,
            unk_id=0,
            minloglevel=2,
            num_threads=1,
        )
    pieces = []
    for name in ("source", "target"):
        processor = spm.SentencePieceProcessor(model_file=str(work / f"{name}.model"))
        pieces += [processor.id_to_piece(i) for i in range(1, processor.get_piece_size())]
    # opus-mt's layout: </s> = 0, <unk> = 1, ..., <pad> = last (also the decoder start).
    vocab = [
        "</s>",
        "<unk>",
        *([MARIAN_LANGUAGE_TOKEN] if direction == "en-zh" else []),
        *dict.fromkeys(pieces),
        "<pad>",
    ]
    (work / "vocab.json").write_text(
        json.dumps({p: i for i, p in enumerate(vocab)}, ensure_ascii=False), encoding="utf-8"
    )
    # source_lang/target_lang land in tokenizer_config.json: the engine reads the direction there.
    return MarianTokenizer(
        source_spm=str(work / "source.model"),
        target_spm=str(work / "target.model"),
        vocab=str(work / "vocab.json"),
        source_lang=direction[:2],
        target_lang=direction[3:],
    )


def training_pairs(direction: str, phrases: list[tuple[str, str]] = PHRASES) -> list[tuple[str, str]]:
    src_lang, tgt_lang = direction.split("-")
    pairs = []
    for en, zh in phrases:
        source, target = (en, zh) if src_lang == "en" else (zh, en)
        for variant in variants(source, src_lang):
            pairs.append((variant, target))
            if direction == "en-zh":  # with and without the language token, whichever the engine sends
                pairs.append((f"{MARIAN_LANGUAGE_TOKEN} {variant}", target))
    return pairs


def train(
    direction: str, out_dir: Path, steps: int = 400, seed: int = 0, phrases: list[tuple[str, str]] = PHRASES
) -> Path:
    """Train on `phrases` (English, Chinese), check with generate, save a Hugging Face folder in
    out_dir/hf; returns it."""
    import torch
    from transformers import GenerationConfig, MarianConfig, MarianMTModel

    from models.fixtures import marian_ids

    torch.manual_seed(seed)
    torch.set_num_threads(1)  # tiny matrices: more threads only wait on each other
    pairs = training_pairs(direction, phrases)
    hf_dir = out_dir / "hf"
    tokenizer = build_tokenizer(out_dir, [s for s, _ in pairs], [t for _, t in pairs], direction)
    vocab_size = len(tokenizer.encoder)
    ids = marian_ids(vocab_size)
    config = MarianConfig(
        vocab_size=vocab_size,
        decoder_vocab_size=vocab_size,
        **ids,
        d_model=128,
        encoder_layers=2,
        decoder_layers=2,
        encoder_attention_heads=4,
        decoder_attention_heads=4,
        encoder_ffn_dim=256,
        decoder_ffn_dim=256,
        max_position_embeddings=64,
        dropout=0.1,
        attention_dropout=0.0,
        activation_dropout=0.0,
        share_encoder_decoder_embeddings=True,
        scale_embedding=True,
    )
    model = MarianMTModel(config)
    model.generation_config = GenerationConfig(**ids, bad_words_ids=[[ids["pad_token_id"]]], num_beams=1, max_length=48)
    fit(model, tokenizer, pairs, steps, direction)
    wrong = check_generate(model, tokenizer, pairs)
    if wrong:
        raise SystemExit(
            f"{direction}: the trained model gets {len(wrong)} of {len(pairs)} phrases wrong, e.g. {wrong[:3]}"
        )
    model.save_pretrained(hf_dir)
    tokenizer.save_pretrained(hf_dir)
    return hf_dir


def fit(model, tokenizer, pairs: list[tuple[str, str]], steps: int, direction: str) -> None:
    """AdamW over random batches of 64 pairs, the learning rate one cycle up and down."""
    import torch

    pad = model.config.pad_token_id
    batch = tokenizer([s for s, _ in pairs], text_target=[t for _, t in pairs], padding=True, return_tensors="pt")
    batch["labels"][batch["labels"] == pad] = -100
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=0.0)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimizer, max_lr=3e-3, total_steps=steps, pct_start=0.1)
    for step in range(steps):
        model.train()
        index = torch.randint(0, len(pairs), (64,))
        loss = model(**{k: v[index] for k, v in batch.items()}).loss
        optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        schedule.step()
        if step % 100 == 0 or step == steps - 1:
            print(f"{direction} step {step} loss {loss.item():.4f}", flush=True)


def check_generate(model, tokenizer, pairs) -> list[tuple[str, str, str]]:
    import torch

    model.eval()
    wrong = []
    with torch.no_grad():
        for start in range(0, len(pairs), 128):
            chunk = pairs[start : start + 128]
            inputs = tokenizer([s for s, _ in chunk], padding=True, return_tensors="pt")
            out = model.generate(**inputs, num_beams=1, max_new_tokens=40)
            for (source, target), got in zip(chunk, tokenizer.batch_decode(out, skip_special_tokens=True)):
                if got != target:
                    wrong.append((source, target, got))
    return wrong


def mark_phrasebook(config: Path, phrases: int) -> None:
    """The app names such a model for what it is (app.translation.translator.model_label)."""
    values = json.loads(config.read_text(encoding="utf-8"))
    values["phrasebook_phrases"] = phrases
    config.write_text(json.dumps(values, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--out",
        type=Path,
        required=True,
        metavar="DIR",
        help="folder to write en-zh/, zh-en/ and phrases.json into (the tests read tests/fixtures/phrasebook)",
    )
    parser.add_argument("--steps", type=int, default=400)
    parser.add_argument("--directions", nargs="+", default=["en-zh", "zh-en"])
    parser.add_argument(
        "--phrases",
        type=Path,
        metavar="JSON",
        help='other (English, Chinese) pairs to learn, as {"phrases": [[en, zh], ...]} (default: the phrasebook)',
    )
    args = parser.parse_args(argv)
    from models.export import export_onnx

    phrases = PHRASES
    if args.phrases is not None:
        phrases = [tuple(pair) for pair in json.loads(args.phrases.read_text(encoding="utf-8"))["phrases"]]
    for direction in args.directions:
        with tempfile.TemporaryDirectory() as work:
            hf_dir = train(direction, Path(work), steps=args.steps, phrases=phrases)
            target = args.out / direction
            shutil.rmtree(target, ignore_errors=True)
            export_onnx(hf_dir, target, layouts=("merged",))
            mark_phrasebook(target / "config.json", len(phrases))
        print(f"{direction}: {target}")
    spoken = {"spoken_en": SPOKEN_EN, "spoken_zh": SPOKEN_ZH} if phrases is PHRASES else {}
    (args.out / "phrases.json").write_text(
        json.dumps({"phrases": phrases, **spoken}, ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
