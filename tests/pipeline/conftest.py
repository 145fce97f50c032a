"""Fixtures for the pipeline tests: the phrasebook models, real Whisper weights (loaded once),
recordings made with espeak-ng, and a runner that collects a pipeline's events."""

from __future__ import annotations

import subprocess
import threading
from pathlib import Path

import numpy as np
import pytest
import soundfile as sf
from asr.conftest import sound_room  # noqa: F401  (a fixture: a PulseAudio server with speakers and a microphone)

from app.asr import StreamingRecognizer, load_whisper
from app.audio import SAMPLE_RATE, FileSource
from app.pipeline import Pipeline, PipelineConfig
from app.shared.audio import SourceKind
from app.shared.events import Error, SourceFinal, Translation
from models.phrasebook import SPOKEN_EN, SPOKEN_ZH, translation_of

VOICES = {"en": "en-us", "zh": "cmn-latn-pinyin"}
# The committed phrasebook models (built by `python -m models.phrasebook --out tests/fixtures/phrasebook`).
PHRASEBOOK = Path(__file__).resolve().parents[1] / "fixtures" / "phrasebook"


@pytest.fixture(autouse=True)
def transcripts_in_tmp(tmp_path, monkeypatch):
    monkeypatch.setenv("LIVE_TRANSLATOR_TRANSCRIPTS", str(tmp_path / "transcripts"))


@pytest.fixture(scope="session")
def phrasebook() -> dict[str, Path]:
    folders = {d: PHRASEBOOK / d for d in ("en-zh", "zh-en")}
    for folder in folders.values():
        assert (folder / "decoder_model_merged.onnx").is_file(), (
            f"missing fixture {folder}: python -m models.phrasebook --out {PHRASEBOOK}"
        )
    return folders


@pytest.fixture(scope="session")
def whisper_base():
    return load_whisper("base")


@pytest.fixture
def recognizer(whisper_base):
    return StreamingRecognizer(whisper_base, language="en")


def read16k(path: Path) -> np.ndarray:
    from faster_whisper import decode_audio

    return decode_audio(str(path), sampling_rate=SAMPLE_RATE)


@pytest.fixture(scope="session")
def recording(tmp_path_factory):
    """recording(name, [(text, language), ...], gap_s) -> a 16 kHz WAV of espeak-ng speech with pauses."""
    folder = tmp_path_factory.mktemp("speech")

    def make(name: str, lines: list[tuple[str, str]], gap_s: float = 1.2) -> Path:
        parts = [np.zeros(int(0.5 * SAMPLE_RATE), np.float32)]
        for i, (text, language) in enumerate(lines):
            clip = folder / f"{name}-{i}.wav"
            subprocess.run(["espeak-ng", "-v", VOICES[language], "-w", str(clip), text], check=True)
            parts += [read16k(clip), np.zeros(int(gap_s * SAMPLE_RATE), np.float32)]
        path = folder / f"{name}.wav"
        sf.write(path, np.concatenate(parts), SAMPLE_RATE)
        return path

    return make


def english(phrases=SPOKEN_EN) -> list[tuple[str, str]]:
    return [(p, "en") for p in phrases]


def chinese(phrases=SPOKEN_ZH) -> list[tuple[str, str]]:
    return [(p, "zh") for p in phrases]


def expected(phrases: list[str], direction: str) -> list[str]:
    return [translation_of(p, direction) for p in phrases]


class Run:
    """A Pipeline with its events collected; `finals()` and `translations()` read them."""

    def __init__(self, config: PipelineConfig, **parts):
        self.events: list = []
        self.lock = threading.Lock()
        self.pipeline = Pipeline(config, on_event=self.collect, **parts)

    def collect(self, event) -> None:
        with self.lock:
            self.events.append(event)

    def of(self, kind) -> list:
        with self.lock:
            return [e for e in self.events if isinstance(e, kind)]

    def finals(self) -> list[SourceFinal]:
        return [e for e in self.of(SourceFinal) if e.text.strip()]

    def translations(self, provisional: bool = False) -> list[Translation]:
        return [e for e in self.of(Translation) if e.provisional == provisional]

    def errors(self, stage: str | None = None) -> list[Error]:
        return [e for e in self.of(Error) if stage is None or e.stage == stage]

    def run(self, timeout: float = 240) -> Run:
        self.pipeline.start()
        finished = self.pipeline.wait_until_done(timeout)
        self.pipeline.stop()
        assert finished, "the pipeline did not finish the recording in time"
        return self


@pytest.fixture
def run_pipeline(phrasebook, recognizer):
    """run_pipeline(input_path, direction, **config) -> a finished Run (recording fed flat out)."""

    def make(input_path, direction="en-zh", parts=None, **config) -> Run:
        config.setdefault("tts_enabled", False)
        config.setdefault("nmt_models", dict(phrasebook))
        cfg = PipelineConfig(direction=direction, input_path=input_path, realtime=False, **config)
        return Run(cfg, **{"recognizer": recognizer, **(parts or {})}).run()

    return make


class EndlessRecording(FileSource):
    """A recording, then a quiet room that never ends, as a live source: the session keeps
    running after the speech (`kind`: which live source it stands for)."""

    def __init__(self, path, kind: SourceKind = SourceKind.FILE):
        super().__init__(path, realtime=False)
        self.kind = kind

    @property
    def finished(self) -> bool:
        return False

    def read(self, timeout=0.1):
        samples = super().read(timeout)
        if samples is None:
            threading.Event().wait(timeout)
        return samples
