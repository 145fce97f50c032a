"""Long input, live diagnostics, cancellation, and the `translate` command line."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from pathlib import Path

from app.shared.events import DecodeStep
from app.translation import DecodeOptions, SentenceResult
from app.translation.sentences import split_sentences

from .conftest import family_dir, references, translator

ROOT = Path(__file__).resolve().parents[2]


def en_zh():
    return translator(str(family_dir("marian-en-zh") / "merged"), "en-zh")


def test_sentences_split_at_end_punctuation_in_both_languages():
    assert split_sentences("Hello there. How are you?\n我很好。你呢？Fine!") == [
        "Hello there.",
        "How are you?",
        "我很好。",
        "你呢？",
        "Fine!",
    ]
    assert split_sentences("Mr. Smith paid 3.5 dollars") == ["Mr.", "Smith paid 3.5 dollars"]  # no word list: says so


def test_ten_thousand_characters_are_all_translated_never_cut():
    t = en_zh()
    sentences = [r["text"] for c in references("marian-en-zh")["directions"][0]["cases"][:1] for r in c["results"]]
    text = ""
    while len(text) < 10_000:
        text += " ".join(sentences) + "\n"
    text = text[:10_000]
    pieces = t.split(text)
    limit = t.source_limit()
    assert all(len(t.codec.source_ids(p)) <= limit for p in pieces)
    assert "".join(pieces).replace(" ", "") == "".join(text.split())  # nothing dropped
    result = t.translate(text, DecodeOptions(num_beams=1, max_new_tokens=4))
    assert [s.source for s in result.sentences] == pieces
    assert all(s.token_ids and s.stop_reason in ("eos", "length", "loop") for s in result.sentences)
    assert len(result.text) > 0


def test_a_sentence_longer_than_the_model_takes_is_cut_into_chunks_that_fit():
    t = en_zh()
    long_sentence = " ".join(["the project report that is finished and the flight that was delayed"] * 12)
    assert len(t.codec.source_ids(long_sentence)) > t.source_limit()
    pieces = t.split(long_sentence)
    assert len(pieces) > 1 and " ".join(pieces) == long_sentence
    assert all(len(t.codec.source_ids(p)) <= t.source_limit() for p in pieces)
    zh = translator(str(family_dir("marian-zh-en") / "merged"), "zh-en")
    no_break = "我们需要更多时间" * 40  # no punctuation, no spaces: cut between characters
    assert len(zh.codec.source_ids(no_break)) > zh.source_limit()
    pieces = zh.split(no_break)
    assert len(pieces) > 1 and "".join(pieces) == no_break
    assert all(len(zh.codec.source_ids(p)) <= zh.source_limit() for p in pieces)


def in_order(translator, *args, **kwargs) -> list:
    """The steps (handed to on_step) and the sentences (yielded) of a stream, in the order they came."""
    seen = []
    for sentence in translator.stream(*args, on_step=seen.append, **kwargs):
        seen.append(sentence)
    return seen


def test_steps_stream_before_their_sentence_result_with_diagnostics():
    t = en_zh()
    items = iter(
        in_order(t, "The weather is nice today. Can you help me?", DecodeOptions(num_beams=1, max_new_tokens=8))
    )
    first = next(items)
    assert isinstance(first, DecodeStep) and first.step == 0 and first.sentence_index == 0
    rest = [first] + list(items)
    kinds = [type(i).__name__ for i in rest]
    assert kinds.count("SentenceResult") == 2 and kinds[-1] == "SentenceResult"
    result = next(i for i in rest if isinstance(i, SentenceResult))
    assert result.steps == [i for i in rest[: kinds.index("SentenceResult")]]
    assert result.encoder_ms > 0 and result.decode_ms > 0 and result.tokens_per_s > 0
    for step in result.steps:
        assert step.token == t.codec.piece(step.token_id) and step.ms > 0
        assert 1 <= len(step.top) <= 5 and step.top[0][0] == step.token_id
        assert all(a[2] >= b[2] for a, b in zip(step.top, step.top[1:]))
        assert step.cross_kv_len == len(result.source_ids)
    assert [s.self_kv_len for s in result.steps] == list(range(1, len(result.steps) + 1))
    assert [s.used_cache_branch for s in result.steps] == [False] + [True] * (len(result.steps) - 1)


def test_cancel_between_steps():
    t = en_zh()
    cancel = threading.Event()
    seen = []

    def step(item: DecodeStep) -> None:
        seen.append(item)
        if item.step == 2:
            cancel.set()

    for item in t.stream(
        "The weather is nice today. Can you help me?", DecodeOptions(num_beams=1, loop_window=0), cancel, on_step=step
    ):
        seen.append(item)
    assert [type(i).__name__ for i in seen] == ["DecodeStep"] * 3 + ["SentenceResult"]
    assert seen[-1].stop_reason == "cancelled" and len(seen[-1].token_ids) == 3
    result = t.translate("Can you help me?", cancel=cancel)  # already cancelled: nothing decoded
    assert result.stop_reason == "cancelled" and result.steps == []


def run_cli(*args):
    return subprocess.run(
        [sys.executable, "-m", "app", "translate", *args], capture_output=True, text=True, timeout=300, cwd=ROOT
    )


def test_cli_json_and_plain():
    model = str(family_dir("marian-en-zh") / "split")
    texts = ["The weather is nice today.", "Can you help me?"]
    done = run_cli(
        "--model", model, "--direction", "en-zh", "--beams", "2", "--max-new-tokens", "6", "--verify", "--json", *texts
    )
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(lines) == 2
    t = translator(model, "en-zh")
    for text, obj in zip(texts, lines):
        expected = t.translate(text, DecodeOptions(num_beams=2, max_new_tokens=6))
        assert obj["translation"] == expected.text and obj["token_ids"] == expected.token_ids
        assert obj["stop_reason"] == expected.stop_reason and obj["encoder_ms"] > 0 and obj["decode_ms"] > 0
        for step in obj["steps"]:
            assert {"token_id", "token", "top", "self_kv_len", "cross_kv_len", "ms", "max_abs_diff"} <= set(step)
            assert step["max_abs_diff"] < 1e-4
    plain = run_cli("--model", model, "--direction", "en-zh", "--beams", "2", "--max-new-tokens", "6", *texts)
    assert plain.returncode == 0 and plain.stdout.splitlines() == [o["translation"] for o in lines]


def test_cli_errors_say_what_and_what_to_do():
    done = run_cli("--model", str(family_dir("marian-en-zh") / "merged"), "--direction", "zh-en", "你好")
    assert done.returncode != 0 and "cannot translate zh-en" in done.stderr and "→" in done.stderr
    done = run_cli("--model", "/nonexistent/model", "--direction", "en-zh", "hello")
    assert done.returncode != 0 and "does not exist" in done.stderr


def test_two_threads_can_load_tokenizers_at_once():
    # transformers' lazy imports race when two threads load tokenizers together; the engine
    # must serialise that (the window checks a model while the pipeline loads one).
    code = (
        "import threading, sys\n"
        "from app.translation import Translator\n"
        "errors = []\n"
        "def load(folder, direction):\n"
        "    try: Translator.load(folder, direction)\n"
        "    except Exception as e: errors.append(repr(e))\n"
        f"jobs = [({str(family_dir('marian-en-zh') / 'merged')!r}, 'en-zh'), ({str(family_dir('m2m100') / 'merged')!r}, 'zh-en'),"  # noqa: E501
        f" ({str(family_dir('marian-zh-en') / 'merged')!r}, 'zh-en')]\n"
        "threads = [threading.Thread(target=load, args=j) for j in jobs]\n"
        "[t.start() for t in threads]; [t.join() for t in threads]\n"
        "print(errors); sys.exit(1 if errors else 0)\n"
    )
    # A fresh interpreter: the race only exists before transformers' modules are imported.
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
