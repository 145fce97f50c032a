"""Voice activity: Silero VAD v6 (the ONNX file that ships inside faster-whisper), run on a stream.

faster-whisper runs the model over a whole file at once; here it runs block by block, carrying
the recurrent state (h, c) and the 64-sample context between calls, so probabilities of a
stream cut into any block sizes equal those of the whole file.

After QUIET_RESET_FRAMES frames in a row below QUIET_PROB the recurrent state starts again from
zero, exactly at that frame (so block sizes still do not matter): a long stretch of a bad input
(clipping, a DC offset, then mains hum) left a state in which the next "Good morning" never rose
above 0.4, and the sentence was lost; from a fresh state it reads 1.0. A pause that long carries
nothing the next utterance needs.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from enum import StrEnum

import numpy as np

FRAME = 512  # samples per probability: 32 ms at 16 kHz
_CONTEXT = 64
QUIET_PROB = 0.1
QUIET_RESET_FRAMES = 94  # 3 s


def _model_path() -> str:
    from faster_whisper.utils import get_assets_path

    return os.path.join(get_assets_path(), "silero_vad_v6.onnx")


class SileroVAD:
    """Speech probability for every 32 ms frame of a 16 kHz stream. One instance per stream."""

    _session = None  # shared by all instances: the session is stateless, the state lives here

    def __init__(self):
        self.reset()

    @classmethod
    def _get_session(cls):
        if cls._session is None:
            import onnxruntime

            opts = onnxruntime.SessionOptions()
            opts.inter_op_num_threads = opts.intra_op_num_threads = 1
            opts.log_severity_level = 4
            cls._session = onnxruntime.InferenceSession(
                _model_path(), sess_options=opts, providers=["CPUExecutionProvider"]
            )
        return cls._session

    def reset(self) -> None:
        self._fresh_state()
        self._context = np.zeros(_CONTEXT, np.float32)
        self._pending = np.zeros(0, np.float32)

    def _fresh_state(self) -> None:
        self._h = np.zeros((1, 1, 128), np.float32)
        self._c = np.zeros((1, 1, 128), np.float32)
        self._quiet_run = 0  # frames in a row below QUIET_PROB

    def __call__(self, audio: np.ndarray) -> np.ndarray:
        """Probabilities of the whole frames completed by `audio`; a remainder waits for the next call."""
        audio = np.concatenate([self._pending, np.asarray(audio, np.float32)])
        count = len(audio) // FRAME
        self._pending = audio[count * FRAME :]
        if count == 0:
            return np.zeros(0, np.float32)
        frames = audio[: count * FRAME].reshape(count, FRAME)
        inputs = np.concatenate([np.concatenate([self._context[None, :], frames[:-1, -_CONTEXT:]]), frames], axis=1)
        self._context = frames[-1, -_CONTEXT:].copy()
        kept: list[np.ndarray] = []
        while len(inputs):
            probs, h, c = self._get_session().run(None, {"input": inputs, "h": self._h, "c": self._c})
            probs = probs.reshape(-1)
            at = self._quiet_reset_at(probs)
            if at is None:
                kept.append(probs)
                self._h, self._c = h, c
                break
            # The frames after `at` are read again from a fresh state (a reset needs no state after it).
            kept.append(probs[: at + 1])
            self._fresh_state()
            inputs = inputs[at + 1 :]
        return np.concatenate(kept)

    def _quiet_reset_at(self, probs: np.ndarray) -> int | None:
        """The frame at which the quiet run reaches QUIET_RESET_FRAMES, if it does; else counts it on."""
        for i, prob in enumerate(probs):
            self._quiet_run = self._quiet_run + 1 if prob < QUIET_PROB else 0
            if self._quiet_run >= QUIET_RESET_FRAMES:
                return i
        return None


class VoiceChange(StrEnum):
    START = "start"  # the first speech frame of an utterance
    SPEECH = "speech"  # speech goes on
    END = "end"  # the pause is long enough: the utterance is over


@dataclass
class VoiceGate:
    """Cuts frame probabilities into utterances, with hysteresis as Silero's own splitter does:
    speech starts at a frame >= threshold and ends after `min_silence_frames` frames below
    neg_threshold (0.15 lower); frames in between keep the current state. The threshold may
    change between frames (narrowband input, app.asr.band)."""

    threshold: float = 0.5
    min_silence_frames: int = 16  # 0.5 s

    in_speech: bool = False
    silence_run: int = 0

    @property
    def neg_threshold(self) -> float:
        return max(self.threshold - 0.15, 0.01)

    def update(self, prob: float) -> VoiceChange | None:
        """What this frame is to the gate; None for silence."""
        if not self.in_speech:
            if prob >= self.threshold:
                self.in_speech, self.silence_run = True, 0
                return VoiceChange.START
            return None
        if prob >= self.threshold or (prob >= self.neg_threshold and self.silence_run == 0):
            self.silence_run = 0
            return VoiceChange.SPEECH
        self.silence_run += 1
        if self.silence_run >= self.min_silence_frames:
            self.in_speech, self.silence_run = False, 0
            return VoiceChange.END
        return None

    def reset(self) -> None:
        self.in_speech, self.silence_run = False, 0
