"""Speech recognition: 16 kHz audio -> Silero VAD -> streaming faster-whisper -> events.

Qt-free. Heavy parts (Whisper weights, the VAD session) load lazily on first use. Audio comes
from app.audio's sources through its capture loop.
"""

from app.asr.live import recognize
from app.asr.options import RecognizerOptions
from app.asr.recognizer import StreamingRecognizer
from app.asr.whisper_models import DEFAULT_MODEL, load_whisper, resolve_model

__all__ = ["recognize", "RecognizerOptions", "StreamingRecognizer", "DEFAULT_MODEL", "load_whisper", "resolve_model"]
