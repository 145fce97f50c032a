"""The selftest recording ("Hello, everyone. Welcome to the meeting.") in every format the app
promises to read: the window's file dialog offers *.wav *.flac *.ogg *.mp3, the error hint says
"WAV, FLAC, MP3 or other file ffmpeg can decode", and phones and browsers record m4a (AAC) and
webm (Opus). Encoded by libsndfile and by the dev venv's full FFmpeg (PyAV), not by the FFmpeg
under test, so a decoder left out of a build cannot hide behind its own encoder."""

from __future__ import annotations

import re
from pathlib import Path

import av
import numpy as np
import soundfile

ROOT = Path(__file__).resolve().parents[2]
RECORDING = ROOT / "resources" / "selftest" / "hello.wav"
HEARD = ["hello", "everyone", "welcome", "to", "the", "meeting"]

# name -> (file suffix, how it is written: libsndfile (format, subtype) or PyAV (container, encoder))
FORMATS = {
    "wav": (".wav", ("sndfile", "WAV", "PCM_16")),
    "flac": (".flac", ("sndfile", "FLAC", "PCM_16")),
    "ogg-vorbis": (".ogg", ("sndfile", "OGG", "VORBIS")),
    "ogg-opus": (".ogg", ("sndfile", "OGG", "OPUS")),
    "mp3": (".mp3", ("sndfile", "MP3", "MPEG_LAYER_III")),
    "m4a-aac": (".m4a", ("pyav", "ipod", "aac")),
    "webm-opus": (".webm", ("pyav", "webm", "libopus")),
}


def dialog_suffixes() -> set[str]:
    """The suffixes the window's "Translate a recording" dialog offers (app/ui/main_window.py)."""
    source = (ROOT / "app" / "ui" / "main_window.py").read_text()
    (patterns,) = re.findall(r'"Audio \(([^)]*)\)', source)
    return {pattern.removeprefix("*") for pattern in patterns.split()}


def write(name: str, folder: Path) -> Path:
    suffix, (writer, container, codec) = FORMATS[name]
    audio, rate = soundfile.read(RECORDING, dtype="int16")
    path = folder / f"hello-{name}{suffix}"
    if writer == "sndfile":
        soundfile.write(path, audio, rate, format=container, subtype=codec)
        return path
    with av.open(str(path), "w", format=container) as out:
        stream = out.add_stream(codec, rate=48000 if codec == "libopus" else rate, layout="mono")
        resampler = av.AudioResampler(format="s16", layout="mono", rate=stream.rate)
        frame = av.AudioFrame.from_ndarray(audio[None, :], format="s16", layout="mono")
        frame.rate = rate
        for part in [*resampler.resample(frame), *resampler.resample(None)]:
            out.mux(stream.encode(part))
        out.mux(stream.encode(None))
    return path


def demuxer_and_decoder(path: Path) -> tuple[str, str]:
    """What FFmpeg needs to read `path`: its demuxer's and its audio codec's names (as the dev venv's FFmpeg says)."""
    with av.open(str(path)) as container:
        return container.format.name.split(",")[0], container.streams.audio[0].codec_context.name


def loudness(samples: np.ndarray) -> float:
    return float(np.sqrt(np.mean(np.square(samples, dtype=np.float64))))
