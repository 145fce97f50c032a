"""The audio-only FFmpeg recipe (packaging/lean_ffmpeg.py) keeps what the app's formats need.

Compiling it takes minutes (docs/packaging.md, "Size"), too long for CI; these checks are cheap:
real files of each promised format, written by libsndfile and the dev venv's full FFmpeg, say
which demuxer and decoder they need, and the recipe must enable both. The built lean app decodes
them all in tests/packaging/test_packaged_build.py (LIVE_TRANSLATOR_LEAN_FFMPEG=1).
"""

from __future__ import annotations

import sys
from pathlib import Path

import av
import pytest

from tests.packaging.recordings import FORMATS, demuxer_and_decoder, dialog_suffixes, write

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "packaging"))
import lean_ffmpeg  # noqa: E402


def test_every_suffix_the_window_offers_is_among_the_formats_checked():
    assert dialog_suffixes() <= {suffix for suffix, _ in FORMATS.values()}


@pytest.mark.parametrize("name", FORMATS)
def test_recipe_enables_the_demuxer_and_decoder_of(name, tmp_path):
    demuxer, decoder = demuxer_and_decoder(write(name, tmp_path))
    flags = lean_ffmpeg.configure_flags(tmp_path)
    assert f"--enable-demuxer={demuxer}" in flags
    assert f"--enable-decoder={decoder}" in flags


def test_recipe_is_audio_only_and_offline(tmp_path):
    flags = lean_ffmpeg.configure_flags(tmp_path)
    # --disable-everything must come before the enables, or it turns them off again
    first_enable = min(i for i, flag in enumerate(flags) if flag.startswith("--enable-demuxer="))
    assert flags.index("--disable-everything") < first_enable
    assert {"--disable-network", "--disable-autodetect", "--disable-programs"} <= set(flags)
    for name in lean_ffmpeg.DECODERS:
        assert av.Codec(name, "r").type == "audio", name
    assert "--enable-encoder" not in " ".join(flags) and "--enable-muxer" not in " ".join(flags)


def test_cached_builds_follow_the_recipe(tmp_path, monkeypatch):
    source = tmp_path / "ffmpeg_5.1.9.orig.tar.xz"
    before = lean_ffmpeg.recipe_hash(source)
    monkeypatch.setattr(lean_ffmpeg, "DECODERS", (*lean_ffmpeg.DECODERS, "wavpack"))
    assert lean_ffmpeg.recipe_hash(source) != before
    monkeypatch.setattr(lean_ffmpeg, "PYAV", "av==12.2.0")
    assert lean_ffmpeg.recipe_hash(source) != before


def test_a_missing_compiler_tool_is_named_before_anything_is_built(monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))  # no cc, make, nasm nor pkg-config here
    monkeypatch.setattr(lean_ffmpeg, "CACHE", tmp_path / "cache")
    with pytest.raises(SystemExit) as stop:
        lean_ffmpeg.ensure()
    assert "cc, make, nasm, pkg-config not found" in str(stop.value)
    assert "apt-get install build-essential nasm pkg-config" in str(stop.value)
    assert not (tmp_path / "cache").exists()
