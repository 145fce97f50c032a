"""`translate --glossary FILE` (repeatable) and the `glossary` field of `translate --json`."""

from __future__ import annotations

import json

from .test_glossary_decoding import PHRASEBOOK
from .test_streaming import run_cli


def test_translate_uses_every_glossary_and_lists_matches_per_sentence(tmp_path):
    first, second = tmp_path / "places.tsv", tmp_path / "things.tsv"
    first.write_text("# places\nPeking\t北京\nnot an entry\n", encoding="utf-8")
    second.write_text("laptop\t电脑\nnotebook\t电脑\n", encoding="utf-8")  # one source, two targets
    model = str(PHRASEBOOK / "zh-en")
    done = run_cli(
        "--model",
        model,
        "--direction",
        "zh-en",
        "--glossary",
        str(first),
        "--glossary",
        str(second),
        "--json",
        "我来自北京。电脑坏了。",
        "他是我的朋友。",
    )
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(lines) == 2
    first_input, second_input = lines
    assert [s["glossary"] for s in first_input["sentences"]] == [
        [{"source": "北京", "target": "Peking", "honoured": True}],
        [{"source": "电脑", "target": "laptop", "honoured": True}],
    ]
    assert "Peking" in first_input["translation"] and "laptop" in first_input["translation"]
    assert any(step.get("forced") for step in first_input["steps"])
    assert second_input["sentences"][0]["glossary"] == [] and not any("forced" in s for s in second_input["steps"])
    assert f"{first}:3: expected english<TAB>chinese" in done.stderr
    assert f"{second}:2: conflict: Chinese '电脑' already means 'laptop'" in done.stderr
    plain = run_cli("--model", model, "--direction", "zh-en", "--glossary", str(first), "我来自北京。")
    assert plain.returncode == 0 and "Peking" in plain.stdout


def test_a_missing_glossary_is_a_clear_error(tmp_path):
    done = run_cli(
        "--model", str(PHRASEBOOK / "zh-en"), "--direction", "zh-en", "--glossary", str(tmp_path / "none.tsv"), "你好"
    )
    assert done.returncode == 2 and "Cannot read the glossary" in done.stderr and "→" in done.stderr
    assert done.stdout == ""
