"""app.model_store.optimized: a user's plain optimum folder is optimised on first load, in the
cache, checked against the original on a probe, reused, invalidated on change, never written."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import onnx
import pytest

from app.model_store.optimized import prepare
from app.shared.errors import LiveTranslatorError
from app.translation import DecodeOptions, Translator
from models.export import quantize_like_transformers_js, tie_head_by_transpose
from models.fixtures import tie_head_to_embedding

from .conftest import FIXTURES

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def cache(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("LIVE_TRANSLATOR_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache" / "optimized"


def user_copy(tmp_path, family: str, layout: str) -> Path:
    folder = tmp_path / "user" / family / layout
    shutil.copytree(FIXTURES / family / layout, folder)
    return folder


def fingerprint(folder: Path) -> dict[str, tuple[str, int]]:
    """Every file of a folder: content hash and modification time."""
    return {
        str(p.relative_to(folder)): (hashlib.sha256(p.read_bytes()).hexdigest(), p.stat().st_mtime_ns)
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def reference_sources(family: str, direction: str) -> list[str]:
    refs = json.loads((FIXTURES / family / "references.json").read_text(encoding="utf-8"))
    cases = next(d for d in refs["directions"] if d["direction"] == direction)["cases"]
    return [r["text"] for r in cases[0]["results"]]


def ops(path: Path) -> set[str]:
    model = onnx.load(str(path))
    found = {n.op_type for n in model.graph.node}
    return found | {
        n.op_type
        for node in model.graph.node
        for a in node.attribute
        if a.type == onnx.AttributeProto.GRAPH
        for n in a.g.node
    }


def transformers_js_twins(folder: Path) -> None:
    """Remake the folder's int8 twins the way transformers.js makes them (every plain graph
    under onnx/ has a twin in these fixtures)."""
    quantize_like_transformers_js(folder / "onnx")


CASES = [
    ("marian-en-zh", "merged", "en-zh", False),
    ("marian-zh-en", "split", "zh-en", False),
    ("marian-zh-en", "onnx-subdir", "zh-en", True),
    ("m2m100", "onnx-subdir", "en-zh", True),
    ("m2m100", "merged", "zh-en", False),
]


@pytest.mark.parametrize("family,layout,direction,quantized", CASES)
def test_the_optimised_graphs_give_the_original_token_ids_and_the_folder_is_untouched(
    tmp_path, family, layout, direction, quantized
):
    folder = user_copy(tmp_path, family, layout)
    before = fingerprint(folder)
    done = prepare(folder, direction, prefer_quantized=quantized)
    assert done.optimized, done.reason
    assert done.reason == "" and not done.reused
    for stem, path in done.graphs.items():
        assert path.is_relative_to(done.entry) and folder not in path.parents
        assert (stem + ("_quantized" if quantized else "")) == path.stem
        assert stem == "encoder_model" or "MultiHeadAttention" in ops(path)
        # weights outside the graph: onnxruntime maps them instead of copying them
        assert path.with_name(path.name + "_data").stat().st_size > 10_000
    assert "encoder_model" in done.graphs
    assert any("GroupQueryAttention" in ops(p) for p in done.graphs.values())  # the cached step shares its cache
    original = Translator.load(folder, direction, prefer_quantized=quantized)
    optimised = Translator.load(folder, direction, prefer_quantized=quantized, graphs=done.graphs)
    assert optimised.model.decoders.first_sig != original.model.decoders.first_sig or len(done.graphs) == 1
    for beams in (1, 4):
        for text in reference_sources(family, direction):
            options = DecodeOptions(num_beams=beams, max_new_tokens=24)
            assert optimised.translate(text, options).token_ids == original.translate(text, options).token_ids, text
    assert fingerprint(folder) == before


def test_later_loads_reuse_the_cache_and_a_changed_graph_is_optimised_again(tmp_path, cache):
    folder = user_copy(tmp_path, "marian-en-zh", "merged")
    first = prepare(folder, "en-zh")
    made = {stem: path.stat().st_mtime_ns for stem, path in first.graphs.items()}
    again = prepare(folder, "en-zh")
    assert again.reused and again.graphs == first.graphs
    assert {stem: path.stat().st_mtime_ns for stem, path in again.graphs.items()} == made  # not rewritten
    # The user replaces the decoder (a re-download, another export): same name, other bytes.
    decoder = folder / "decoder_model_merged.onnx"
    model = onnx.load(str(decoder))
    model.doc_string = "re-exported"
    onnx.save(model, str(decoder))
    changed = prepare(folder, "en-zh")
    assert changed.optimized and not changed.reused and changed.entry != first.entry
    assert not first.entry.exists()  # the entry made from the old graph is gone
    assert sorted(p.name for p in cache.iterdir()) == [changed.entry.name]
    # Touching the file (same bytes, new time) counts as a change too: the key is cheap, not clever.
    os.utime(decoder, ns=(decoder.stat().st_atime_ns, decoder.stat().st_mtime_ns + 10**9))
    assert not prepare(folder, "en-zh").reused


@pytest.mark.parametrize(
    "family,layout,direction,why",
    [
        ("marian-en-zh", "merged-fused", "en-zh", "already optimised"),
        ("marian-en-zh", "legacy", "en-zh", "no attention block the rewrite knows"),
    ],
)
def test_a_graph_the_rewrite_does_not_apply_to_is_used_as_it_is_with_a_reason(
    tmp_path, caplog, family, layout, direction, why
):
    caplog.set_level("INFO", logger="app.model_store.optimized")
    folder = user_copy(tmp_path, family, layout)
    before = fingerprint(folder)
    done = prepare(folder, direction)
    assert not done.optimized and why in done.reason
    assert why in caplog.text
    assert prepare(folder, direction).reused  # the decision is kept: no second attempt
    assert fingerprint(folder) == before
    assert Translator.load(folder, direction, graphs=done.graphs).translate("Hello.").text  # runs as it is


def agreement(a: list[int], b: list[int]) -> float:
    return sum(x == y for x, y in zip(a, b)) / max(len(a), len(b), 1)


def test_transformers_js_int8_twins_are_optimised_when_the_probe_agrees(tmp_path):
    # Their attention ran on 8-bit scores and probabilities; fused, it runs in float. So the ids
    # are the original's on the probe (or the rewrite would not be used), and elsewhere at least
    # as close to the fp32 model's as the original int8 graph's were.
    folder = user_copy(tmp_path, "marian-zh-en", "onnx-subdir")
    transformers_js_twins(folder)
    assert "MatMulInteger" in ops(folder / "onnx" / "decoder_model_merged_quantized.onnx")
    done = prepare(folder, "zh-en", prefer_quantized=True)
    assert done.optimized, done.reason
    fused = ops(done.graphs["decoder_model_merged"])
    assert {"MultiHeadAttention", "GroupQueryAttention"} <= fused
    fp32 = Translator.load(folder, "zh-en")
    original = Translator.load(folder, "zh-en", prefer_quantized=True)
    optimised = Translator.load(folder, "zh-en", prefer_quantized=True, graphs=done.graphs)
    options = DecodeOptions(max_new_tokens=24)
    scores = {"original": 0.0, "optimised": 0.0}
    for text in reference_sources("marian-zh-en", "zh-en"):
        want = fp32.translate(text, options).token_ids
        scores["original"] += agreement(original.translate(text, options).token_ids, want)
        scores["optimised"] += agreement(optimised.translate(text, options).token_ids, want)
    assert scores["optimised"] >= scores["original"], scores


def test_a_rewrite_whose_ids_differ_on_the_probe_is_not_used(tmp_path, caplog):
    # transformers.js' int8 attention quantizes the scores and the softmax to 8 bits; the fused
    # attention computes them in float. On this random-weight model that changes a token on the
    # probe, so the original is kept, and the log says why.
    folder = user_copy(tmp_path, "m2m100", "onnx-subdir")
    transformers_js_twins(folder)
    done = prepare(folder, "en-zh", prefer_quantized=True)
    assert not done.optimized
    assert "other token ids on the probe" in done.reason and "other token ids on the probe" in caplog.text
    assert prepare(folder, "en-zh", prefer_quantized=True).reused
    assert Translator.load(folder, "en-zh", prefer_quantized=True, graphs=done.graphs).translate("Hello.").token_ids


def test_translate_optimises_on_first_load_and_says_so_on_stderr(tmp_path, cache):
    folder = user_copy(tmp_path, "marian-en-zh", "onnx-subdir")
    env = {**os.environ, "LIVE_TRANSLATOR_CACHE": str(cache.parent)}
    command = [
        sys.executable,
        "-m",
        "app",
        "translate",
        "--model",
        str(folder),
        "--direction",
        "en-zh",
        "--quantized",
        "--json",
        "Hello, everyone.",
    ]

    def run(*extra):
        done = subprocess.run(
            command[:-1] + list(extra) + command[-1:], cwd=REPO, env=env, capture_output=True, text=True, timeout=120
        )
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout), done.stderr

    first, first_err = run()
    assert "Optimising onnx-subdir" in first_err and "optimised in" in first_err
    assert len(list(cache.iterdir())) == 1
    second, second_err = run()
    assert "Optimising" not in second_err
    plain, _ = run("--no-optimize")
    ids = [s["token_ids"] for s in first["sentences"]]
    assert ids == [s["token_ids"] for s in second["sentences"]] == [s["token_ids"] for s in plain["sentences"]]


def test_a_cache_that_cannot_be_written_leaves_the_model_running_as_it_is(tmp_path, monkeypatch):
    folder = user_copy(tmp_path, "marian-en-zh", "merged")
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the cache should be", encoding="utf-8")
    monkeypatch.setenv("LIVE_TRANSLATOR_CACHE", str(blocker))
    done = prepare(folder, "en-zh")
    assert not done.optimized and done.reason.startswith("optimisation failed")
    assert Translator.load(folder, direction="en-zh", graphs=done.graphs).translate("Hello.").text


def test_a_config_that_is_not_an_object_is_left_to_the_loader_to_report(tmp_path):
    folder = user_copy(tmp_path, "marian-en-zh", "merged")
    (folder / "config.json").write_text("[1, 2]", encoding="utf-8")
    done = prepare(folder, "en-zh")
    assert not done.optimized and "not a JSON object" in done.reason


@pytest.mark.parametrize("family,layout,direction", [("marian-en-zh", "merged", "en-zh"), ("m2m100", "split", "zh-en")])
def test_a_tied_embedding_is_stored_once_in_the_cache_and_the_ids_stay(tmp_path, caplog, family, layout, direction):
    # The fixtures' heads are untied; a copy whose heads are the embedding's transpose is what
    # optimum writes for opus-mt and m2m100.
    caplog.set_level("INFO", logger="app.model_store.optimized")
    folder = user_copy(tmp_path, family, layout)
    for path in folder.glob("decoder*.onnx"):
        tie_head_to_embedding(path)
    untied = prepare(user_copy(tmp_path / "untied", family, layout), direction)
    done = prepare(folder, direction)
    assert done.optimized, done.reason
    assert "the tied embedding stored once" in caplog.text
    for stem, path in done.graphs.items():
        if stem == "encoder_model":
            continue
        assert "FusedMatMul" in ops(path) and "FusedMatMul" not in ops(untied.graphs[stem])
        graph = onnx.load(str(path), load_external_data=False).graph
        vocab, width = next(list(i.dims) for i in graph.initializer if i.name.endswith(".lm_head"))
        # the same graph as the untied model's, less one [vocab, d] table
        saved = untied.graphs[stem].with_name(untied.graphs[stem].name + "_data").stat().st_size
        assert path.with_name(path.name + "_data").stat().st_size <= saved - vocab * width * 4
    original = Translator.load(folder, direction)
    optimised = Translator.load(folder, direction, graphs=done.graphs)
    for beams in (1, 4):
        for text in reference_sources(family, direction)[:6]:
            options = DecodeOptions(num_beams=beams, max_new_tokens=24)
            assert optimised.translate(text, options).token_ids == original.translate(text, options).token_ids, text


def test_a_copy_whose_encoder_is_broken_is_not_served_the_cached_good_encoder(tmp_path):
    good = user_copy(tmp_path, "marian-en-zh", "merged")
    assert prepare(good, "en-zh").graphs.get("encoder_model")  # the cache now holds a laid-out encoder
    broken = tmp_path / "broken"
    shutil.copytree(good, broken)  # same decoder, same times: only the encoder differs
    encoder = broken / "encoder_model.onnx"
    encoder.write_bytes(encoder.read_bytes()[:1000])  # a download cut short
    done = prepare(broken, "en-zh")
    assert done.graphs.get("encoder_model") != prepare(good, "en-zh").graphs.get("encoder_model")
    with pytest.raises(LiveTranslatorError, match="encoder_model"):  # the broken encoder is what loads, and is named
        Translator.load(broken, direction="en-zh", graphs=done.graphs)


# -- the cache heals itself (issue 27) --------------------------------------------------------


def _weights(entry: Path) -> Path:
    return max((p for p in entry.iterdir() if p.name != "optimized.json"), key=lambda p: p.stat().st_size)


DAMAGE = {
    "overwritten": lambda p: p.write_bytes(os.urandom(p.stat().st_size)),
    "truncated": lambda p: p.write_bytes(b""),
    "cut short": lambda p: p.write_bytes(p.read_bytes()[: p.stat().st_size // 2]),
    "middle overwritten": lambda p: _overwrite_middle(p),
    "removed": lambda p: p.unlink(),
}


def _overwrite_middle(path: Path) -> None:
    with path.open("r+b") as f:
        f.seek(path.stat().st_size // 2)
        f.write(os.urandom(256 << 10))


@pytest.mark.parametrize("how", DAMAGE)
def test_a_damaged_cached_copy_is_detected_and_made_again(tmp_path, caplog, how):
    folder = user_copy(tmp_path, "marian-en-zh", "merged")
    first = prepare(folder, "en-zh")
    assert first.optimized, first.reason
    DAMAGE[how](_weights(first.entry))
    again = prepare(folder, "en-zh")
    assert again.optimized and not again.reused  # made again, not handed out damaged
    assert "damaged" in caplog.text
    original = Translator.load(folder, "en-zh")
    healed = Translator.load(folder, "en-zh", graphs=again.graphs)
    assert healed.translate("Good morning.").token_ids == original.translate("Good morning.").token_ids
    assert prepare(folder, "en-zh").reused


def test_a_record_naming_a_file_outside_its_entry_is_not_opened(tmp_path, caplog):
    folder = user_copy(tmp_path, "marian-en-zh", "merged")
    first = prepare(folder, "en-zh")
    outside = tmp_path / "elsewhere.onnx"
    outside.write_bytes(b"not a graph")
    record_path = first.entry / "optimized.json"
    record = json.loads(record_path.read_text(encoding="utf-8"))
    stem = next(iter(record["graphs"]))
    record["graphs"][stem] = str(outside)
    record["files"][str(outside)] = {
        "size": outside.stat().st_size,
        "sampled": hashlib.sha256(b"not a graph").hexdigest(),
    }
    record_path.write_text(json.dumps(record), encoding="utf-8")
    again = prepare(folder, "en-zh")
    assert all(path.is_relative_to(again.entry) for path in again.graphs.values())
    assert "not a file of the entry" in caplog.text


def test_copies_that_do_not_load_fall_back_to_the_folders_own_graphs(tmp_path, caplog):
    # Damage the checks cannot see (a few bytes): the copy fails to load, the folder's graphs run.
    folder = user_copy(tmp_path, "marian-en-zh", "merged")
    done = prepare(folder, "en-zh")
    decoder = done.graphs["decoder_model_merged"]
    decoder.write_bytes(b"\0" * decoder.stat().st_size)
    translator = Translator.load(folder, "en-zh", graphs=done.graphs)
    assert (
        translator.translate("Good morning.").token_ids
        == Translator.load(folder, "en-zh").translate("Good morning.").token_ids
    )
    assert "do not load" in caplog.text and "folder's own graphs" in caplog.text


def test_translate_and_doctor_with_a_damaged_cache(tmp_path, cache):
    folder = user_copy(tmp_path, "marian-en-zh", "merged")
    env = {**os.environ, "LIVE_TRANSLATOR_CACHE": str(cache.parent)}
    entry = prepare(folder, "en-zh").entry
    _overwrite_middle(_weights(entry))  # the doctor reads every byte
    doctor = subprocess.run(
        [sys.executable, "-m", "app", "models", "doctor", str(folder)],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert doctor.returncode == 0, doctor.stderr
    assert "optimised copy in the cache" in doctor.stdout and "was damaged" in doctor.stdout
    assert not entry.exists()
    DAMAGE["cut short"](_weights(prepare(folder, "en-zh").entry))
    done = subprocess.run(
        [sys.executable, "-m", "app", "translate", "--model", str(folder), "--direction", "en-zh", "Good morning."],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() and "download" not in done.stderr.lower()  # the model is fine: no re-download
    assert "damaged; making it again" in done.stderr
    whole = subprocess.run(
        [sys.executable, "-m", "app", "models", "doctor", str(folder)],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert "is whole" in whole.stdout


CONCURRENT = """
import sys
from app.model_store.optimized import prepare
from app.translation import Translator
done = prepare(sys.argv[1], "en-zh")
assert done.optimized, done.reason
print(done.entry, Translator.load(sys.argv[1], "en-zh", graphs=done.graphs).translate("Good morning.").token_ids)
"""


@pytest.mark.slow
def test_concurrent_first_loads_of_one_folder_agree(tmp_path, cache):
    folder = user_copy(tmp_path, "marian-en-zh", "merged")
    env = {**os.environ, "LIVE_TRANSLATOR_CACHE": str(cache.parent), "PYTHONPATH": str(REPO)}
    runs = [
        subprocess.Popen(
            [sys.executable, "-c", CONCURRENT, str(folder)],
            cwd=REPO,
            env=env,
            text=True,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        for _ in range(4)
    ]
    outputs = [run.communicate(timeout=300) for run in runs]
    assert all(run.returncode == 0 for run in runs), [err for _, err in outputs]
    assert len({out for out, _ in outputs}) == 1  # one entry, the same ids
    assert [p.name for p in cache.iterdir() if p.is_dir()] == [Path(outputs[0][0].split()[0]).name]


@pytest.mark.parametrize("weights_only", [True, False])
def test_both_kinds_of_int8_twin_get_the_fast_head_and_keep_the_ids(tmp_path, caplog, weights_only):
    # The head tied as optimum writes it with accelerate (onnx-community): MatMul(x, Transpose(E)).
    # Weights-only twins then dequantized the whole table every step; both kinds now run one
    # int8 MatMul over the table, and the ids are the downloaded twin's, greedy and beam.
    caplog.set_level("INFO", logger="app.model_store.optimized")
    folder = user_copy(tmp_path, "marian-zh-en", "onnx-subdir")
    merged = folder / "onnx" / "decoder_model_merged.onnx"
    tie_head_to_embedding(merged)
    assert tie_head_by_transpose(merged) == 2
    quantize_like_transformers_js(folder / "onnx", weights_only=weights_only)
    done = prepare(folder, "zh-en", prefer_quantized=True)
    assert done.optimized, done.reason
    assert ("weights only" if weights_only else "all MatMuls") in caplog.text
    assert "DynamicQuantizeMatMul" in ops(done.graphs["decoder_model_merged"])
    original = Translator.load(folder, "zh-en", prefer_quantized=True)
    optimised = Translator.load(folder, "zh-en", prefer_quantized=True, graphs=done.graphs)
    for beams in (1, 4):
        for text in reference_sources("marian-zh-en", "zh-en")[:6]:
            options = DecodeOptions(num_beams=beams, max_new_tokens=24)
            assert optimised.translate(text, options).token_ids == original.translate(text, options).token_ids, text


def test_the_doctor_names_the_kind_of_int8_twin(tmp_path):
    from app.model_store.doctor import int8_findings

    folder = user_copy(tmp_path, "marian-zh-en", "onnx-subdir")
    assert "weights only" in int8_findings(folder)[0]  # the fixtures' twins: models export --quantize
    transformers_js_twins(folder)
    (line,) = int8_findings(folder)
    assert line.startswith("int8 twin (onnx/decoder_model_merged_quantized.onnx): all MatMuls")
    assert "per channel, reduced range" in line


def give_the_head_an_outlier_feature(merged: Path) -> None:
    """One feature of the head's input 1000x larger and its row of the tied table 1000x smaller,
    as trained models have outlier features: the float model's logits are as before, but a head
    whose input is quantized per tensor loses every other feature."""
    import numpy as np
    from onnx import numpy_helper

    from app.model_store.graph_tools import all_graphs

    model = onnx.load(str(merged))
    graphs = all_graphs(model.graph)
    tensors = {i.name: i for g in graphs for i in g.initializer}
    # small weights are Constant nodes in the If branches (the merge puts them there)
    tensors.update(
        {
            n.output[0]: n.attribute[0].t
            for g in graphs
            for n in g.node
            if n.op_type == "Constant" and n.attribute and n.attribute[0].name == "value" and n.output[0] not in tensors
        }
    )
    producers = {o: n for g in graphs for n in g.node for o in n.output}
    heads = [n for g in graphs for n in g.node if n.op_type == "MatMul" and n.input[1] in tensors]
    head = max(heads, key=lambda n: tensors[n.input[1]].dims[1])  # [d, vocab]: the widest
    table = next(
        n.input[0]
        for g in graphs
        for n in g.node
        if n.op_type == "Gather"
        and n.input[0] in tensors
        and list(tensors[n.input[0]].dims) == list(tensors[head.input[1]].dims)[::-1]
    )
    norm = producers[head.input[0]]
    assert norm.op_type == "LayerNormalization"

    def source(name: str) -> str:  # the merge reads shared weights through Identity nodes
        while name not in tensors and producers[name].op_type == "Identity":
            name = producers[name].input[0]
        return name

    for name, factor, transposed in (
        (source(norm.input[1]), 1000.0, False),
        (source(norm.input[2]), 1000.0, False),
        (head.input[1], 1e-3, False),
        (table, 1e-3, True),
    ):
        values = numpy_helper.to_array(tensors[name]).copy()
        view = values.T if transposed else values
        view[0] *= np.float32(factor)  # feature 0: of the LayerNorm, the head's row, the table's column
        tensors[name].CopyFrom(numpy_helper.from_array(values, tensors[name].name))
    onnx.save(model, str(merged))


def test_a_weights_only_twin_whose_int8_head_changes_the_ids_keeps_its_own_head(tmp_path, caplog):
    # The probe fails with the int8 head (its input quantized per tensor loses all but the
    # outlier); the optimiser tries again without it and keeps the fused attention.
    caplog.set_level("INFO", logger="app.model_store.optimized")
    folder = user_copy(tmp_path, "marian-zh-en", "onnx-subdir")
    merged = folder / "onnx" / "decoder_model_merged.onnx"
    tie_head_to_embedding(merged)
    give_the_head_an_outlier_feature(merged)
    assert tie_head_by_transpose(merged) == 2
    quantize_like_transformers_js(folder / "onnx", weights_only=True)
    done = prepare(folder, "zh-en", prefer_quantized=True)
    assert "with the int8 head; trying again without it" in caplog.text
    assert done.optimized, done.reason  # the attention's rewrite is kept
    assert not [
        n for g in all_graphs_of(done.graphs["decoder_model_merged"]) for n in g.node if n.name.endswith("_from_table")
    ]  # the twin's own head
    original = Translator.load(folder, "zh-en", prefer_quantized=True)
    optimised = Translator.load(folder, "zh-en", prefer_quantized=True, graphs=done.graphs)
    for text in reference_sources("marian-zh-en", "zh-en")[:4]:
        assert optimised.translate(text).token_ids == original.translate(text).token_ids, text


def all_graphs_of(path: Path) -> list:
    from app.model_store.graph_tools import all_graphs

    return all_graphs(onnx.load(str(path), load_external_data=False).graph)
