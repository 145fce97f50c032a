"""Fixtures for the speech-recognition tests: real Whisper weights (each loaded once per
session), speech made with espeak-ng into temporary WAV files, and a private PulseAudio
server whose null sink serves as a virtual microphone."""

from __future__ import annotations

import contextlib
import os
import re
import subprocess
import tempfile
from pathlib import Path

import numpy as np
import pytest
import soundfile as sf

from app.asr import StreamingRecognizer, load_whisper
from app.audio import SAMPLE_RATE
from tests.audio.recorder import Recorder  # not audio.recorder: benches import this module outside pytest
from tests.waiting import wait_until

# Sentences with the text espeak-ng reads and the text we expect back.
ENGLISH = [
    "Hello everyone, welcome to the meeting.",
    "The weather is very nice today.",
    "Please open the window before we start.",
    "I would like a cup of coffee with milk.",
    "We will talk about the new project tomorrow.",
    "Thank you for coming to this presentation.",
]
# (expected Simplified Chinese, pinyin that espeak-ng's cmn-latn-pinyin voice reads)
MANDARIN = [
    ("他是我的朋友", "ta1 shi4 wo3 de5 peng2 you3."),
    ("我不知道", "wo3 bu4 zhi1 dao4."),
    ("我爱你", "wo3 ai4 ni3."),
    ("我们去吃饭吧", "wo3 men5 qu4 chi1 fan4 ba5."),
    ("谢谢你的帮助", "xie4 xie4 ni3 de5 bang1 zhu4."),
]


@pytest.fixture(scope="session")
def tiny_en():
    return load_whisper("tiny.en")


@pytest.fixture(scope="session")
def base():
    return load_whisper("base")


@pytest.fixture
def recognizer_en(tiny_en):
    return StreamingRecognizer(tiny_en, language="en")


@pytest.fixture(scope="session")
def speech_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("speech")


def espeak(text: str, voice: str, path: Path, words_per_minute: int | None = None) -> Path:
    speed = ["-s", str(words_per_minute)] if words_per_minute else []  # espeak-ng's default is 175
    subprocess.run(["espeak-ng", "-v", voice, *speed, "-w", str(path), text], check=True)
    return path


def read16k(path: Path) -> np.ndarray:
    from faster_whisper import decode_audio

    return decode_audio(str(path), sampling_rate=SAMPLE_RATE)


def write16k(path: Path, audio: np.ndarray) -> Path:
    sf.write(str(path), audio, SAMPLE_RATE)
    return path


def silence(seconds: float) -> np.ndarray:
    return np.zeros(int(seconds * SAMPLE_RATE), np.float32)


@pytest.fixture(scope="session")
def say(speech_dir):
    """say(text, voice="en", words_per_minute=None) -> WAV path (espeak-ng's own 22 kHz output, so
    reading resamples)."""
    count = iter(range(10**6))

    def make(text: str, voice: str = "en", words_per_minute: int | None = None) -> Path:
        return espeak(text, voice, speech_dir / f"say{next(count)}.wav", words_per_minute)

    return make


@pytest.fixture(scope="session")
def conversation(speech_dir):
    """Build one 16 kHz file of several sentences with pauses between them."""

    def make(name: str, texts: list[str], voice: str, gap_s: float = 1.0) -> Path:
        parts = [silence(0.5)]
        for i, text in enumerate(texts):
            parts += [read16k(espeak(text, voice, speech_dir / f"{name}{i}.wav")), silence(gap_s)]
        return write16k(speech_dir / f"{name}.wav", np.concatenate(parts))

    return make


def normalize_words(text: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"[^\w\s']", " ", text.lower())).strip()


def normalize_chars(text: str) -> str:
    return re.sub(r"[\W_]+", "", text)


# -- a virtual microphone -------------------------------------------------------------------------
def _gone(pid: int) -> bool:
    """The process has exited (a zombie counts: it runs no more)."""
    try:
        os.kill(pid, 0)
        return Path(f"/proc/{pid}/stat").read_text().split()[2] == "Z"
    except (ProcessLookupError, FileNotFoundError):
        return True


class VirtualMic:
    """A PulseAudio server of our own (own runtime dir and socket, so nothing else is touched)
    with a null sink `vmic`; its monitor is the default source, which ALSA's `pulse` device records."""

    def __init__(self):
        self.runtime = tempfile.mkdtemp(prefix="lt-pulse-")
        self.env = {**os.environ, "PULSE_RUNTIME_PATH": self.runtime, "PULSE_SERVER": f"unix:{self.runtime}/native"}
        self.pid: int | None = None

    def start(self) -> None:
        subprocess.run(
            [
                "pulseaudio",
                "--daemonize=yes",
                "--exit-idle-time=-1",
                "-n",
                "--use-pid-file=yes",
                "--load=module-null-sink sink_name=vmic",
                f"--load=module-native-protocol-unix socket={self.runtime}/native auth-anonymous=1",
            ],
            env=self.env,
            check=True,
            capture_output=True,
        )
        wait_until(
            lambda: subprocess.run(["pactl", "info"], env=self.env, capture_output=True).returncode == 0,
            "the private PulseAudio server to answer `pactl info`",
            timeout=10,
        )
        subprocess.run(["pactl", "set-default-sink", "vmic"], env=self.env, check=True)
        subprocess.run(["pactl", "set-default-source", "vmic.monitor"], env=self.env, check=True)
        self.pid = int(Path(self.runtime, "pid").read_text())

    def kill(self) -> None:
        """The sound server vanishes, as an unplugged microphone does."""
        if self.pid is not None:
            os.kill(self.pid, 9)
            wait_until(lambda: _gone(self.pid), "the killed PulseAudio server to exit", timeout=5, every=0.02)
            self.pid = None
            # A killed server leaves its pid file and socket behind; the next start must not see them.
            for name in ("pid", "native"):
                Path(self.runtime, name).unlink(missing_ok=True)

    def play(self, path: Path) -> subprocess.Popen:
        return subprocess.Popen(
            ["paplay", str(path)], env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )


@pytest.fixture
def virtual_mic(monkeypatch):
    mic = VirtualMic()
    # libpulse (behind ALSA's pulse device) reads these when a stream opens.
    monkeypatch.setenv("PULSE_RUNTIME_PATH", mic.runtime)
    monkeypatch.setenv("PULSE_SERVER", mic.env["PULSE_SERVER"])
    mic.start()
    yield mic
    mic.kill()


# -- speakers and a microphone ----------------------------------------------------------------------
class SoundRoom(VirtualMic):
    """A private PulseAudio server with two null sinks: `speakers` (the default sink: what the
    computer plays, so its monitor is "system audio", and where our speech output goes) and
    `mic` (its monitor is the default source: what the microphone hears)."""

    def start(self) -> None:
        super().start()  # the server, with VirtualMic's `vmic` sink (left unused)
        self.modules = {}
        for sink, description in (("speakers", "Speakers"), ("mic", "Microphone")):
            self.modules[sink] = self.load(
                "module-null-sink", f"sink_name={sink}", f"sink_properties=device.description={description}"
            )
        self.pactl("set-default-sink", "speakers")
        self.pactl("set-default-source", "mic.monitor")

    def pactl(self, *args: str) -> str:
        return subprocess.run(["pactl", *args], env=self.env, check=True, capture_output=True, text=True).stdout.strip()

    def load(self, module: str, *args: str) -> int:
        return int(self.pactl("load-module", module, *args))

    def unload(self, sink: str) -> None:
        """The output device disappears (unplugged headphones, a closed virtual device)."""
        self.pactl("unload-module", str(self.modules.pop(sink)))

    def unplug_mic(self) -> None:
        """The microphone unplugged: its monitor, the default source, vanishes with it."""
        self.unload("mic")

    def plug_mic_back(self) -> None:
        self.modules["mic"] = self.load(
            "module-null-sink", "sink_name=mic", "sink_properties=device.description=Microphone"
        )
        self.pactl("set-default-source", "mic.monitor")

    def wait_heard(self, *sources: str, streams: int = 1, timeout: float = 60) -> None:
        """Until `streams` recording streams (the app's) read each of `sources` and they deliver audio.
        A null sink's monitor sends its first audio ~2 s after a stream opens (later on a busy
        machine), and speech played before then is cut. A monitor hands each chunk to every stream
        at once: recorders of our own opened after the app's have their first blocks when the app
        has audio too (all of them opened together, so the sources' ~2 s pass at the same time)."""
        for source in sources:
            wait_until(
                lambda s=source: self._streams_reading(s) >= streams, f"{streams} stream(s) recording {source}", timeout
            )
        with contextlib.ExitStack() as stack:
            recorders = [stack.enter_context(Recorder(source)) for source in sources]
            for recorder in recorders:
                recorder.wait_for_audio(timeout)

    def _streams_reading(self, source: str) -> int:
        index = {name: i for i, name, *_ in self._rows("sources")}[source]
        return sum(row[1] == index for row in self._rows("source-outputs"))

    def _rows(self, kind: str) -> list[list[str]]:
        return [line.split("\t") for line in self.pactl("list", "short", kind).splitlines()]

    def echo_speakers_into_mic(self) -> None:
        """No headphones: what the speakers play reaches the microphone too."""
        self.modules["echo"] = self.load("module-loopback", "source=speakers.monitor", "sink=mic", "latency_msec=60")

    def play_to(self, sink: str, path: Path) -> subprocess.Popen:
        return subprocess.Popen(
            ["paplay", f"--device={sink}", str(path)],
            env=self.env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )


@pytest.fixture
def sound_room(monkeypatch):
    room = SoundRoom()
    monkeypatch.setenv("PULSE_RUNTIME_PATH", room.runtime)
    monkeypatch.setenv("PULSE_SERVER", room.env["PULSE_SERVER"])
    room.start()
    yield room
    room.kill()
