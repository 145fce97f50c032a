"""resolve_settings takes generate's defaults and config.json's generation keys from transformers'
GenerationConfig: on every fixture model, as shipped (generation_config.json) and as an older
save leaves it (the generation settings in config.json only), it resolves what transformers
itself reads."""

from __future__ import annotations

import dataclasses
import json
import shutil
from pathlib import Path

import pytest
from transformers import AutoConfig, GenerationConfig

from app.translation.generation_settings import resolve_settings

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
FOLDERS = [
    FIXTURES / "nmt" / "marian-en-zh" / "merged",
    FIXTURES / "nmt" / "marian-zh-en" / "merged",
    FIXTURES / "nmt" / "m2m100" / "merged",
    FIXTURES / "phrasebook" / "en-zh",
    FIXTURES / "phrasebook" / "zh-en",
]


def ids(value) -> tuple[int, ...]:
    return () if value is None else tuple(value) if isinstance(value, list) else (value,)


def transformers_reads(config: GenerationConfig) -> dict:
    """What generate runs with, in GenerationSettings' terms."""
    eos = ids(config.eos_token_id)
    start = config.decoder_start_token_id
    return {
        "decoder_start_token_id": config.bos_token_id if start is None else start,
        "eos_token_ids": eos,
        "pad_token_id": config.pad_token_id,
        "forced_eos_token_ids": ids(config.forced_eos_token_id),
        # NoBadWordsLogitsProcessor drops a bad word that is an EOS on its own
        "bad_words_ids": tuple(tuple(w) for w in config.bad_words_ids or () if w not in [[e] for e in eos]),
        "max_length": config.max_length,
        "min_length": config.min_length,
        "min_new_tokens": config.min_new_tokens or 0,
        "num_beams": config.num_beams,
        "length_penalty": config.length_penalty,
        "early_stopping": config.early_stopping,
        "no_repeat_ngram_size": config.no_repeat_ngram_size,
        "repetition_penalty": config.repetition_penalty,
        "suppress_tokens": ids(config.suppress_tokens),
        "begin_suppress_tokens": ids(config.begin_suppress_tokens),
        "renormalize_logits": config.renormalize_logits,
    }


def resolved(folder: Path) -> dict:
    generation = folder / "generation_config.json"
    settings = resolve_settings(
        json.loads(generation.read_text(encoding="utf-8")) if generation.is_file() else {},
        json.loads((folder / "config.json").read_text(encoding="utf-8")),
        {},
        max_positions=None,
    )
    return {k: v for k, v in dataclasses.asdict(settings).items() if k in transformers_reads(GenerationConfig())}


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_model_with_generation_config_json_resolves_what_transformers_reads(folder):
    theirs = transformers_reads(GenerationConfig.from_pretrained(folder))
    assert resolved(folder) == theirs
    assert theirs["num_beams"] > 1 or theirs["max_length"] != 20  # the file's values, not the defaults


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_model_with_its_generation_settings_in_config_json_resolves_what_transformers_reads(folder, tmp_path):
    """As models were saved before generation_config.json: the settings among config.json's keys."""
    old = shutil.copytree(folder, tmp_path / "old")
    generation = json.loads((old / "generation_config.json").read_text(encoding="utf-8"))
    config = json.loads((old / "config.json").read_text(encoding="utf-8"))
    config.update({k: v for k, v in generation.items() if k != "transformers_version"})
    (old / "config.json").write_text(json.dumps(config), encoding="utf-8")
    (old / "generation_config.json").unlink()
    theirs = transformers_reads(GenerationConfig.from_model_config(AutoConfig.from_pretrained(old)))
    assert resolved(old) == theirs
    assert resolved(old) == resolved(folder)  # the same settings wherever the file keeps them


@pytest.mark.parametrize("folder", FOLDERS[:1], ids=lambda p: p.parent.name)
def test_settings_neither_file_names_are_generates_defaults(folder, tmp_path):
    bare = shutil.copytree(folder, tmp_path / "bare")
    (bare / "generation_config.json").unlink()
    theirs = transformers_reads(GenerationConfig.from_model_config(AutoConfig.from_pretrained(bare)))
    assert resolved(bare) == theirs
    assert (theirs["num_beams"], theirs["max_length"], theirs["length_penalty"]) == (1, 20, 1.0)
