"""Speech recognition: microphone or recording -> Silero VAD -> streaming faster-whisper -> events.

Qt-free. Heavy parts (Whisper weights, the VAD session) load lazily on first use.
"""

from app.asr.capture import SAMPLE_RATE, FileSource, InputDevice, MicrophoneSource, list_input_devices
from app.asr.live import recognize
from app.asr.recognizer import RecognizerOptions, StreamingRecognizer
from app.asr.whisper_models import DEFAULT_MODEL, load_whisper, resolve_model

__all__ = [
    "SAMPLE_RATE", "FileSource", "InputDevice", "MicrophoneSource", "list_input_devices", "recognize",
    "RecognizerOptions", "StreamingRecognizer", "DEFAULT_MODEL", "load_whisper", "resolve_model",
]
