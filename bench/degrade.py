"""Rooms and calls, applied to clean 16 kHz speech: the conditions bench/rooms.py reads through.

Each condition is a function (clean audio, speech power, random generator) -> degraded audio,
all 16 kHz mono float32. Noise is scaled against the power of the speech alone (not of the
pauses), so "SNR 5 dB" means what a listener hears while someone talks. Reverberation, the
telephone band and GSM go through sox (Debian's `sox`); Opus through PyAV's libopus (PyAV comes
with faster-whisper). Non-speech sounds (no one talking) are made here too, for counting
phantom finals.
"""

from __future__ import annotations

import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path

import numpy as np
import soundfile as sf

RATE = 16000
Condition = Callable[[np.ndarray, float, np.random.Generator], np.ndarray]


def speech_power(clips: list[np.ndarray]) -> float:
    """Mean power of the speech itself: the clips' samples above -50 dBFS-ish silence."""
    joined = np.concatenate(clips)
    voiced = joined[np.abs(joined) > 1e-3]
    return float(np.mean(voiced**2)) if voiced.size else 1e-8


def coloured_noise(n: int, rng: np.random.Generator, exponent: float) -> np.ndarray:
    """Noise with power ∝ 1/f**exponent (0 white, 1 pink, 2 brown), unit power."""
    spectrum = np.fft.rfft(rng.standard_normal(n))
    f = np.fft.rfftfreq(n, 1 / RATE)
    f[0] = f[1]
    shaped = spectrum / f ** (exponent / 2)
    shaped[np.fft.rfftfreq(n, 1 / RATE) < 20] = 0  # below hearing: every microphone cuts it
    noise = np.fft.irfft(shaped, n)
    noise -= noise.mean()
    return (noise / np.sqrt(np.mean(noise**2))).astype(np.float32)


def fan_hum(n: int, rng: np.random.Generator) -> np.ndarray:
    """A fan: brown rumble plus a 100 Hz motor hum and its harmonics, unit power."""
    t = np.arange(n) / RATE
    hum = sum(np.sin(2 * np.pi * 100 * k * t + k) / k for k in (1, 2, 3, 4))
    noise = coloured_noise(n, rng, 1.5) + 0.8 * hum / np.sqrt(np.mean(hum**2))
    return (noise / np.sqrt(np.mean(noise**2))).astype(np.float32)


_babble_cache: dict[int, np.ndarray] = {}


def babble(n: int, rng: np.random.Generator) -> np.ndarray:
    """A café: four other voices (espeak-ng variants) talking at once, looped to length, unit power."""
    if n not in _babble_cache:
        lines = [
            ("en-us+m3", "So I told him the train would be late again, and he just laughed about it."),
            ("en-gb+f2", "Have you tried the new place on the corner? The soup is really rather good."),
            ("en-us+f4", "We should book the tickets soon, the prices go up every single week now."),
            ("en-gb+m5", "My sister moved to the city last year and she still cannot find a flat."),
        ]
        mix = np.zeros(n, np.float32)
        with tempfile.TemporaryDirectory() as folder:
            for i, (voice, text) in enumerate(lines):
                wav = Path(folder) / f"b{i}.wav"
                subprocess.run(["espeak-ng", "-v", voice, "-s", "150", "-w", str(wav), text * 3], check=True)
                voice_audio = resample_file(wav)
                voice_audio = np.roll(np.resize(voice_audio, n), int(rng.integers(0, n)))
                mix += voice_audio / (np.sqrt(np.mean(voice_audio**2)) + 1e-9)
        _babble_cache[n] = mix / np.sqrt(np.mean(mix**2))
    return _babble_cache[n]


def add_noise(kind: str, snr_db: float) -> Condition:
    def condition(audio: np.ndarray, power: float, rng: np.random.Generator) -> np.ndarray:
        n = len(audio)
        noise = {
            "pink": lambda: coloured_noise(n, rng, 1.0),
            "brown": lambda: coloured_noise(n, rng, 2.0),
            "babble": lambda: babble(n, rng),
            "fan": lambda: fan_hum(n, rng),
        }[kind]()
        return audio + noise * np.sqrt(power / 10 ** (snr_db / 10))

    return condition


def sox(audio: np.ndarray, *effects: str, via: str = "wav", rate: int | None = None) -> np.ndarray:
    """`audio` through `sox in.wav [-r rate] out.<via> effects...` and back to 16 kHz mono."""
    with tempfile.TemporaryDirectory() as folder:
        src, mid = Path(folder) / "in.wav", Path(folder) / f"mid.{via}"
        sf.write(src, audio, RATE, subtype="FLOAT")
        rate_args = ["-r", str(rate)] if rate else []
        subprocess.run(["sox", "-V1", "-R", str(src), *rate_args, "-c", "1", str(mid), *effects], check=True)
        return resample_file(mid)[: len(audio)]


def resample_file(path: Path) -> np.ndarray:
    from faster_whisper import decode_audio

    return decode_audio(str(path), sampling_rate=RATE).astype(np.float32)


def reverb(reverberance: int, damping: int, room: int) -> Condition:
    def condition(audio: np.ndarray, power: float, rng: np.random.Generator) -> np.ndarray:
        wet = sox(audio, "reverb", str(reverberance), str(damping), str(room))
        return wet * (np.max(np.abs(audio)) / max(np.max(np.abs(wet)), 1e-9))  # same peak as the dry talk

    return condition


def gain(db: float) -> Condition:
    return lambda audio, power, rng: audio * 10 ** (db / 20)


def clipped(over_db: float) -> Condition:
    """An overdriven microphone: peaks `over_db` above full scale, cut flat at ±1."""

    def condition(audio: np.ndarray, power: float, rng: np.random.Generator) -> np.ndarray:
        return np.clip(audio / np.max(np.abs(audio)) * 10 ** (over_db / 20), -1.0, 1.0)

    return condition


def telephone(audio: np.ndarray, power: float, rng: np.random.Generator) -> np.ndarray:
    return sox(audio, "sinc", "300-3400", rate=8000)


def gsm(audio: np.ndarray, power: float, rng: np.random.Generator) -> np.ndarray:
    return sox(audio, via="gsm", rate=8000)


def opus(kbps: int) -> Condition:
    """Opus at `kbps` through PyAV's libopus (VoIP mode), 16 kHz."""

    def condition(audio: np.ndarray, power: float, rng: np.random.Generator) -> np.ndarray:
        import av

        with tempfile.TemporaryDirectory() as folder:
            out = Path(folder) / "talk.ogg"
            with av.open(str(out), "w") as container:
                stream = container.add_stream("libopus", rate=RATE)
                stream.bit_rate = kbps * 1000
                stream.layout = "mono"
                stream.options = {"application": "voip"}
                pcm = (np.clip(audio, -1, 1) * 32767).astype(np.int16)
                for start in range(0, len(pcm), 960):
                    frame = av.AudioFrame.from_ndarray(pcm[None, start : start + 960], format="s16", layout="mono")
                    frame.rate = RATE
                    container.mux(stream.encode(frame))
                container.mux(stream.encode(None))
            decoded = resample_file(out)
        return np.pad(decoded, (0, max(0, len(audio) - len(decoded))))[: len(audio)]

    return condition


def frame_loss(share: float, frame_ms: int = 20) -> Condition:
    """A call losing `share` of its 20 ms packets, each lost one silent (no concealment)."""

    def condition(audio: np.ndarray, power: float, rng: np.random.Generator) -> np.ndarray:
        out = audio.copy()
        step = RATE * frame_ms // 1000
        for start in range(0, len(out), step):
            if rng.random() < share:
                out[start : start + step] = 0.0
        return out

    return condition


def chain(*conditions: Condition) -> Condition:
    def condition(audio: np.ndarray, power: float, rng: np.random.Generator) -> np.ndarray:
        for c in conditions:
            audio = c(audio, power, rng)
            power = speech_power([audio])
        return audio

    return condition


CONDITIONS: dict[str, Condition] = {
    "clean": lambda audio, power, rng: audio,
    **{f"pink {snr}dB": add_noise("pink", snr) for snr in (20, 10, 5, 0)},
    **{f"brown {snr}dB": add_noise("brown", snr) for snr in (10, 5)},
    **{f"babble {snr}dB": add_noise("babble", snr) for snr in (10, 5)},
    "fan 5dB": add_noise("fan", 5),
    "reverb room": reverb(40, 50, 30),
    "reverb hall": reverb(70, 50, 100),  # issue 41's "sox reverb 70 50 100"
    "quiet -28dB": gain(-28),
    "far (room, -20dB, pink 20dB)": chain(reverb(50, 50, 60), gain(-20), add_noise("pink", 20)),
    "clipping +12dB": clipped(12),
    "telephone band": telephone,
    "GSM": gsm,
    "Opus 8k": opus(8),
    "Opus 16k": opus(16),
    "5% frames lost": frame_loss(0.05),
}
QUICK = ("clean", "pink 5dB")


def non_speech(kind: str, seconds: float, rng: np.random.Generator) -> np.ndarray:
    """`seconds` of a sound with no one talking, at an ordinary level (peaks about -6 dBFS)."""
    n = int(seconds * RATE)
    t = np.arange(n) / RATE
    if kind in ("pink", "brown"):
        audio = coloured_noise(n, rng, 1.0 if kind == "pink" else 2.0) * 0.1
    elif kind == "music":  # plucked chords: decaying harmonic tones, a new chord every 0.6 s
        audio = np.zeros(n, np.float32)
        for start in range(0, n, int(0.6 * RATE)):
            root = 110 * 2 ** (rng.integers(0, 12) / 12)
            seg = t[: min(int(1.2 * RATE), n - start)]
            for ratio in (1, 1.26, 1.5, 2):
                audio[start : start + len(seg)] += np.sin(2 * np.pi * root * ratio * seg) * np.exp(-3 * seg) * 0.08
    elif kind == "typing":  # key clicks: short filtered bursts at typing rhythm
        audio = coloured_noise(n, rng, 0.0) * 0.002
        for start in np.cumsum(rng.integers(int(0.08 * RATE), int(0.3 * RATE), n // 1000)):
            if start + 400 >= n:
                break
            audio[start : start + 400] += rng.standard_normal(400) * np.exp(-np.arange(400) / 60) * 0.4
    elif kind in ("door", "dishes"):  # a thud every few seconds, or clinks of plates
        audio = coloured_noise(n, rng, 1.0) * 0.003
        hit = int((0.3 if kind == "door" else 0.15) * RATE)
        for start in np.cumsum(rng.integers(int(0.5 * RATE), int(4 * RATE), n // 4000 + 1)):
            if start + hit >= n:
                break
            seg = np.arange(hit) / RATE
            tone = 60 if kind == "door" else rng.uniform(2000, 4500)
            audio[start : start + hit] += (
                np.sin(2 * np.pi * tone * seg) * np.exp(-seg * (15 if kind == "door" else 30)) * 0.5
            )
    else:
        raise ValueError(kind)
    return np.clip(audio, -1, 1).astype(np.float32)


NON_SPEECH = ("pink", "brown", "music", "typing", "door", "dishes")
