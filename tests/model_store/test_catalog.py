"""The catalog, the user folders (app.shared.paths) and `python -m app models list|download|doctor`."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from app.model_store import catalog
from app.shared import paths
from app.shared.errors import LiveTranslatorError

from .conftest import FIXTURES

REPO = Path(__file__).resolve().parents[2]


def test_user_folders_follow_the_environment(tmp_path, monkeypatch):
    for name in ("LIVE_TRANSLATOR_MODELS", "LIVE_TRANSLATOR_SETTINGS", "LIVE_TRANSLATOR_TRANSCRIPTS"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LIVE_TRANSLATOR_HOME", str(tmp_path / "home"))
    assert paths.user_models_dir() == tmp_path / "home" / "models"
    assert paths.settings_dir() == tmp_path / "home" / "settings"
    assert paths.transcripts_dir() == tmp_path / "home" / "transcripts"
    monkeypatch.setenv("LIVE_TRANSLATOR_MODELS", str(tmp_path / "m"))  # the specific one wins
    assert paths.user_models_dir() == tmp_path / "m"
    monkeypatch.delenv("LIVE_TRANSLATOR_HOME")
    assert "live-translator" in str(paths.transcripts_dir())  # platformdirs' per-user folder


def test_catalog_entries_are_complete_model_folders():
    for item in catalog.CATALOG:
        names = {f.path for f in item.files if not f.optional}
        assert "config.json" in names and "generation_config.json" in names, item.key
        assert any(n.endswith("encoder_model.onnx") or n.endswith("encoder_model_quantized.onnx") for n in names)
        assert any("decoder_model_merged" in n for n in names), item.key
        has_spm = {"source.spm", "target.spm", "vocab.json"} <= names or "sentencepiece.bpe.model" in names
        assert has_spm or "tokenizer.json" in names, item.key
        assert item.directions and set(item.directions) <= set(catalog.DIRECTIONS)
    assert [e.key for e in catalog.for_direction("zh-en")][0] == "opus-mt-zh-en-int8"
    assert catalog.entry("m2m100-418M-int8").repo == "Xenova/m2m100_418M"
    with pytest.raises(LiveTranslatorError):
        catalog.entry("nope")


def test_default_model_per_direction_from_installed_folders(models_home):
    assert catalog.default_nmt_dir("en-zh") is None  # nothing installed: no guess
    models_home.mkdir()
    shutil.copytree(FIXTURES / "m2m100" / "merged", models_home / "my-m2m100")
    shutil.copytree(FIXTURES / "marian-zh-en" / "onnx-subdir", catalog.model_dest("opus-mt-zh-en"))
    shutil.copy(FIXTURES / "marian-zh-en" / "tokenizer-json" / "tokenizer.json", catalog.model_dest("opus-mt-zh-en"))
    # a catalog folder with a file missing (an interrupted download) is not offered
    partial = catalog.model_dest("opus-mt-en-zh-int8")
    shutil.copytree(FIXTURES / "marian-en-zh" / "onnx-subdir", partial)
    (partial / "onnx" / "decoder_model_merged_quantized.onnx").unlink()

    found = {m.path.name: m for m in catalog.installed_models()}
    assert set(found) == {"my-m2m100", "opus-mt-zh-en"}
    assert found["my-m2m100"].directions == ("en-zh", "zh-en") and found["my-m2m100"].key is None
    assert catalog.default_nmt_dir("zh-en") == catalog.model_dest("opus-mt-zh-en")  # catalog models first
    assert catalog.default_nmt_dir("en-zh") == models_home / "my-m2m100"
    with pytest.raises(LiveTranslatorError):
        catalog.default_nmt_dir("en-fr")


def test_a_model_bundled_with_the_build_is_found_after_the_user_folder(models_home, tmp_path):
    bundled = tmp_path / "bundled"
    shutil.copytree(FIXTURES / "marian-en-zh" / "merged", bundled / "phrasebook-en-zh")
    assert catalog.default_nmt_dir("en-zh", bundled_dir=bundled) == bundled / "phrasebook-en-zh"
    assert catalog.default_nmt_dir("zh-en", bundled_dir=bundled) is None
    models_home.mkdir()
    shutil.copytree(FIXTURES / "m2m100" / "merged", models_home / "my-m2m100")
    assert catalog.default_nmt_dir("en-zh", bundled_dir=bundled) == models_home / "my-m2m100"  # the user's own first


def test_folder_directions_read_from_the_tokenizer_config():
    assert catalog.folder_directions(FIXTURES / "marian-en-zh" / "merged") == ("en-zh",)
    assert catalog.folder_directions(FIXTURES / "marian-zh-en" / "legacy") == ("zh-en",)


def run_app(*args, env=None):
    return subprocess.run(
        [sys.executable, "-m", "app", "models", *args], cwd=REPO, capture_output=True, text=True, timeout=300, env=env
    )


def test_cli_doctor_exit_codes(tmp_path):
    good = run_app("doctor", str(FIXTURES / "marian-en-zh" / "legacy"))
    assert good.returncode == 0 and "can run" in good.stdout
    broken = tmp_path / "broken"
    shutil.copytree(FIXTURES / "marian-en-zh" / "merged", broken)
    (broken / "decoder_model_merged.onnx").unlink()
    bad = run_app("doctor", str(broken))
    assert bad.returncode != 0 and "decoder" in bad.stdout


def test_cli_list_and_download(tmp_path, local_hub):
    import os

    env = dict(os.environ, LIVE_TRANSLATOR_MODELS=str(tmp_path / "um"))
    listing = run_app("list", env=env)
    assert listing.returncode == 0 and "opus-mt-en-zh-int8" in listing.stdout and "(none)" in listing.stdout
    # The download runs in a child process: it is told the stand-in's sizes as the pinned ones.
    child = (
        f"import sys; from app.model_store import catalog; catalog.PINNED_SIZES = {local_hub.sizes_to_pin()!r}; "
        "from app.cli import main; sys.exit(main(sys.argv[1:]))"
    )
    got = subprocess.run(
        [sys.executable, "-c", child, "models", "download", "opus-mt-en-zh-int8", "--endpoint", local_hub.url],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )
    assert got.returncode == 0, got.stderr
    assert Path(got.stdout.strip()) == tmp_path / "um" / "opus-mt-en-zh-int8"
    assert "100%" in got.stderr
    listing = run_app("list", env=env)
    assert "installed" in listing.stdout and "en-zh" in listing.stdout.split("Installed in")[1]
    missing = run_app("download", "nobody/nothing", "--endpoint", local_hub.url, "--dest", str(tmp_path / "x"), env=env)
    assert missing.returncode == 2 and "no repository 'nobody/nothing'" in missing.stderr
