"""The audio tests use the speech-recognition tests' fixtures: Whisper weights, espeak-ng
speech, and the private PulseAudio servers."""

from asr.conftest import say, sound_room, speech_dir, tiny_en  # noqa: F401  (fixtures)
