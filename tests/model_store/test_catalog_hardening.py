"""The catalog against the real hub's ways: pinned commits, only the files the app reads,
external-data graphs fetched with their graph, and transformers.js' other weight variants."""

from __future__ import annotations

import shutil

import onnx
import pytest

from app.model_store import catalog
from app.model_store.download import download, files_for
from app.shared.errors import LiveTranslatorError
from app.translation import Translator, inspect_model_folder

from .conftest import FIXTURES


def test_every_catalog_file_is_fetched_at_its_repos_pinned_commit(local_hub, tmp_path):
    download("opus-mt-en-zh-int8", tmp_path / "m", endpoint=local_hub.url)
    asked = {path for _, path, _ in local_hub.requests}
    assert (
        f"Xenova/opus-mt-en-zh/resolve/{catalog.PINNED['Xenova/opus-mt-en-zh']}/onnx/encoder_model_quantized.onnx"
        in asked
    )
    assert f"Helsinki-NLP/opus-mt-en-zh/resolve/{catalog.PINNED['Helsinki-NLP/opus-mt-en-zh']}/source.spm" in asked
    assert not any("/resolve/main/" in p for p in asked)


def test_a_repo_outside_the_catalog_is_fetched_at_main(local_hub, tmp_path):
    download("someone/opus-mt-zh-en-onnx", tmp_path / "m", endpoint=local_hub.url)
    files = [path for _, path, _ in local_hub.requests if path]  # "": the root, asked whether the hub answers at all
    assert files and all("/resolve/main/" in path for path in files)


def test_a_pinned_file_of_another_size_is_refused_before_anything_is_fetched(local_hub, tmp_path, monkeypatch):
    key = ("Xenova/opus-mt-en-zh", "onnx/decoder_model_merged_quantized.onnx")
    real = catalog.PINNED_SIZES[key]
    monkeypatch.setitem(catalog.PINNED_SIZES, key, real + 1)
    with pytest.raises(LiveTranslatorError) as caught:
        download("opus-mt-en-zh-int8", tmp_path / "m", endpoint=local_hub.url)
    assert f"{real:,} bytes" in caught.value.message and f"{real + 1:,}" in caught.value.message
    assert "PINNED_SIZES" in caught.value.hint
    assert not any(method == "GET" for method, _, _ in local_hub.requests)
    assert not (tmp_path / "m" / "onnx").exists()


def test_the_recorded_sizes_belong_to_catalog_files_and_agree_with_the_labels():
    files = {(f.repo, f.path) for item in catalog.CATALOG for f in item.files}
    assert set(catalog.PINNED_SIZES) <= files
    for item in catalog.CATALOG:
        known = sum(catalog.PINNED_SIZES.get((f.repo, f.path), 0) for f in item.files) / 1e6
        assert known <= item.size_mb * 1.05, item.key  # the label never claims less than is known
        assert f"~{item.size_mb} MB" in item.label or f"~{item.size_mb / 1000:.1f} GB" in item.label, item.label


def test_a_pinned_commit_the_hub_no_longer_has_is_named(local_hub, tmp_path, monkeypatch):
    monkeypatch.setitem(catalog.PINNED, "Xenova/opus-mt-en-zh", "f" * 40)
    with pytest.raises(LiveTranslatorError) as caught:
        download("opus-mt-en-zh-int8", tmp_path / "m", endpoint=local_hub.url)
    assert "f" * 40 in caught.value.message and "PINNED" in caught.value.hint
    assert not (tmp_path / "m" / "onnx").exists()  # checked before anything was downloaded


def test_every_catalog_repo_is_pinned_to_a_full_commit_id():
    repos = {f.repo for item in catalog.CATALOG for f in item.files}
    assert repos == set(catalog.PINNED)
    for repo, commit in catalog.PINNED.items():
        assert len(commit) == 40 and int(commit, 16) >= 0, repo


def test_opus_mt_zh_en_does_not_fetch_the_tokenizer_json_it_never_reads():
    for key in ("opus-mt-zh-en", "opus-mt-zh-en-int8"):
        paths = [f.path for f in catalog.entry(key).files]
        assert "tokenizer.json" not in paths and {"source.spm", "target.spm", "vocab.json"} <= set(paths)


def test_every_graph_is_followed_by_its_optional_external_data():
    for files in [catalog.entry(item.key).files for item in catalog.CATALOG] + [files_for("someone/repo")]:
        graphs = [f for f in files if f.path.endswith(".onnx")]
        assert graphs
        for graph in graphs:
            data = next(f for f in files if f.path == graph.path + "_data")
            assert data.optional and data.repo == graph.repo


def test_an_external_data_graph_downloads_with_its_data_and_runs(local_hub, hub_root, tmp_path):
    repo = hub_root / "someone" / "opus-mt-zh-en-onnx" / "onnx"
    model = onnx.load(str(repo / "decoder_model_merged.onnx"))
    onnx.save(
        model,
        str(repo / "decoder_model_merged.onnx"),
        save_as_external_data=True,
        all_tensors_to_one_file=True,
        location="decoder_model_merged.onnx_data",
        size_threshold=0,
    )
    dest = download("someone/opus-mt-zh-en-onnx", tmp_path / "zh-en", endpoint=local_hub.url)
    assert (dest / "onnx" / "decoder_model_merged.onnx_data").stat().st_size > 100_000
    graph = onnx.load(str(dest / "onnx" / "decoder_model_merged.onnx"), load_external_data=False)
    assert all(t.data_location == onnx.TensorProto.EXTERNAL for t in graph.graph.initializer)  # the weights are outside
    reference = Translator.load(FIXTURES / "marian-zh-en" / "onnx-subdir", "zh-en").translate("你好")
    assert Translator.load(dest, "zh-en").translate("你好").token_ids == reference.token_ids


def only_variant(tmp_path, suffix: str, source_suffix: str = "_quantized"):
    folder = tmp_path / f"variant{suffix}"
    shutil.copytree(FIXTURES / "marian-en-zh" / "onnx-subdir", folder)
    for graph in list((folder / "onnx").glob("*.onnx")):
        if graph.stem.endswith(source_suffix) or not source_suffix and "_quantized" not in graph.stem:
            base = graph.stem[: len(graph.stem) - len(source_suffix)] if source_suffix else graph.stem
            graph.rename(graph.with_name(base + suffix + ".onnx"))
        else:
            graph.unlink()
    return folder


@pytest.mark.parametrize("suffix", ["_int8", "_uint8"])
def test_integer_variants_are_used_on_the_cpu(tmp_path, suffix):
    folder = only_variant(tmp_path, suffix)
    report = inspect_model_folder(folder)
    assert report.can_run, report.text
    assert report.quantized and all(f.endswith(suffix + ".onnx") for f in report.files), report.files
    twin = Translator.load(FIXTURES / "marian-en-zh" / "onnx-subdir", "en-zh", prefer_quantized=True)
    assert Translator.load(folder, "en-zh").translate("Hello.").token_ids == twin.translate("Hello.").token_ids


@pytest.mark.parametrize("suffix", ["_fp16", "_q4f16"])
def test_half_precision_variants_are_refused_naming_what_to_download(tmp_path, suffix):
    folder = only_variant(tmp_path, suffix, source_suffix="")
    with pytest.raises(LiveTranslatorError) as caught:
        Translator.load(folder, "en-zh")
    assert f"encoder_model{suffix}.onnx" in caught.value.message
    assert "encoder_model_quantized.onnx" in caught.value.hint
    report = inspect_model_folder(folder)
    assert not report.can_run and any("half-precision" in p for p in report.problems)
