"""`live-translator --self-test`: check that every part of this install works, then exit.

Made for packaged builds, where it proves that PyInstaller collected what the libraries hide
(onnxruntime's and ctranslate2's libraries, faster-whisper's VAD model, sentencepiece, OpenCC's
data, Qt's platform plugins, the app's resources); it works the same from a source checkout.
Each check prints `ok` or `FAIL` with what it found; the exit code is 0 only when all passed.
It never downloads: translation uses the tiny model in resources/selftest/, recognition the
Whisper model this install finds (one bundled into the build first, then the app's default).
"""

from __future__ import annotations

import json
import os
import re
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from app.shared import paths
from app.shared.errors import LiveTranslatorError
from app.shared.events import Error, SourceFinal, Speech

SELFTEST = paths.resource("selftest")
BUNDLED_WHISPER = paths.bundled_whisper_dir()  # `packaging/build.py --with-whisper DIR` puts a model here


class CheckFailed(Exception):
    """A check ran but its result was wrong."""


@dataclass(frozen=True)
class CheckResult:
    name: str
    ok: bool
    detail: str
    seconds: float


def expected() -> dict:
    """What the bundled inputs must give: see resources/selftest/expected.json."""
    return json.loads((SELFTEST / "expected.json").read_text(encoding="utf-8"))


def recording():
    import soundfile

    audio, rate = soundfile.read(SELFTEST / expected()["recording"], dtype="float32")
    return audio, rate


def check_onnxruntime() -> str:
    import onnxruntime

    from app.asr.vad import FRAME, SileroVAD  # lazy: see CHECKS

    audio, rate = recording()
    probabilities = SileroVAD()(audio)
    speech_s = float((probabilities > 0.5).sum()) * FRAME / rate
    if not speech_s:
        raise CheckFailed(f"Silero VAD heard no speech in the {len(audio) / rate:.1f} s recording")
    return f"onnxruntime {onnxruntime.__version__}; Silero VAD heard {speech_s:.1f} s of speech in {len(audio) / rate:.1f} s"  # noqa: E501


def check_translation() -> str:
    from app.translation import Translator  # lazy: see CHECKS

    want = expected()["translation"]
    translator = Translator.load(SELFTEST / want["model"], direction=want["direction"])
    got = translator.translate(want["source"]).text
    if got != want["target"]:
        raise CheckFailed(f"{want['source']!r} became {got!r}, expected {want['target']!r}")
    return f"{translator.model_name}: {want['source']!r} -> {got!r}"


def check_simplified_chinese() -> str:
    import opencc

    got = opencc.OpenCC("t2s").convert("我們去吃飯吧")
    if got != "我们去吃饭吧":
        raise CheckFailed(f"OpenCC turned 我們去吃飯吧 into {got!r}")
    return f"OpenCC: 我們去吃飯吧 -> {got}"


def whisper_model() -> Path:
    """The first Whisper model this install has: bundled into the build, the app's default, tiny.en."""
    from app.asr.whisper_models import DEFAULT_MODEL, resolve_model  # lazy: see CHECKS

    # Never download here: a missing model must fail fast, not wait on a network.
    os.environ["HF_HUB_OFFLINE"] = "1"
    if "huggingface_hub.constants" in sys.modules:  # already imported: it read the variable then
        sys.modules["huggingface_hub.constants"].HF_HUB_OFFLINE = True
    bundled = sorted(p for p in BUNDLED_WHISPER.iterdir() if p.is_dir()) if BUNDLED_WHISPER.is_dir() else []
    tried = []
    for candidate in [*bundled, DEFAULT_MODEL, "tiny.en"]:
        try:
            return resolve_model(candidate)
        except LiveTranslatorError as error:
            tried.append(f"{candidate}: {error.message}")
    raise CheckFailed(
        "no Whisper model found (" + "; ".join(tried) + "). The app downloads one on first use; "
        "a build can carry one: python packaging/build.py --with-whisper tiny.en"
    )


def words(text: str) -> list[str]:
    return re.findall(r"[a-z']+", text.lower())


def check_recognition() -> str:
    from app.asr import StreamingRecognizer, recognize  # lazy: see CHECKS
    from app.audio import FileSource  # lazy: see CHECKS

    want = expected()["recognition"]
    model = whisper_model()
    recognizer = StreamingRecognizer(model=model, language=want["language"])
    events = list(recognize(FileSource(SELFTEST / expected()["recording"], realtime=False), recognizer))
    errors = [e.text for e in events if isinstance(e, Error)]
    heard = " ".join(e.text for e in events if isinstance(e, SourceFinal)).strip()
    missing = [w for w in words(want["text"]) if w not in words(heard)]
    if errors or missing:
        raise CheckFailed(
            f"Whisper {model.name} heard {heard!r}"
            + (f", missing {missing}" if missing else "")
            + (f"; errors: {errors}" if errors else "")
        )
    return f"faster-whisper, model {model}: heard {heard!r}"


def check_speech_output() -> str:
    import soundfile

    from app.tts import SpeechOutput  # lazy: see CHECKS

    events = []
    with tempfile.TemporaryDirectory(prefix="live-translator-selftest-") as folder:
        path = Path(folder) / "speech.wav"
        speech = SpeechOutput(out_path=path, on_event=events.append)
        speech.start()
        speech.say("Hello, everyone.", "en")
        done = speech.wait_idle(timeout=60)
        speech.stop()
        errors = [e.text for e in events if isinstance(e, Error)]
        if errors or not done:
            raise CheckFailed("; ".join(errors) or "the speech engine did not finish within 60 s")
        info = soundfile.info(path)
        audio, _ = soundfile.read(path, dtype="int16")
    if info.duration < 0.3 or not abs(audio).max():
        raise CheckFailed(f"the speech file holds {info.duration:.2f} s of silence")
    voice = next((e.voice for e in events if isinstance(e, Speech)), None) or "the system's default voice"
    return f"{voice} spoke 'Hello, everyone.' into a WAV file: {info.duration:.1f} s at {info.samplerate} Hz"


def check_qt() -> str:
    from PySide6 import __version__ as pyside_version
    from PySide6.QtGui import QColor, QIcon
    from PySide6.QtWidgets import QApplication, QLabel

    import app.ui.main_window  # noqa: F401  lazy (see CHECKS): every window module and the Qt modules it needs load

    # Off screen: the self-test draws, but never shows a window.
    qt_app = QApplication.instance() or QApplication(["live-translator", "-platform", "offscreen"])
    label = QLabel("Hello 你好")
    label.adjustSize()
    image = label.grab().toImage()
    background = QColor(image.pixel(0, 0))
    drawn = sum(QColor(image.pixel(x, y)) != background for x in range(image.width()) for y in range(image.height()))
    icon = QIcon(str(paths.resource("icon", "live-translator.png")))
    if not drawn or icon.isNull():
        raise CheckFailed(f"Qt drew {drawn} text pixels; app icon {'missing' if icon.isNull() else 'loaded'}")
    return f"PySide6 {pyside_version} on the {qt_app.platformName()} platform: window code loads, text draws ({drawn} px), icon loads"  # noqa: E501


def check_audio_input() -> str:
    from app.audio import list_input_devices  # lazy: see CHECKS

    devices = list_input_devices()  # first: PortAudio starts quietly there (app/audio/quiet.py)
    import sounddevice

    return f"{sounddevice.get_portaudio_version()[1].split(',')[0]}; {len(devices)} input device(s)"


# Each check imports the part it checks inside itself: a part that fails to import (a library a
# packaged build lacks) fails its own check, and the others still run.
CHECKS: list[tuple[str, Callable[[], str]]] = [
    ("onnxruntime + VAD", check_onnxruntime),
    ("translation", check_translation),
    ("simplified Chinese", check_simplified_chinese),
    ("speech recognition", check_recognition),
    ("speech output", check_speech_output),
    ("Qt window", check_qt),
    ("audio input", check_audio_input),
]


def run_check(name: str, check: Callable[[], str]) -> CheckResult:
    started = time.perf_counter()
    try:
        detail, ok = check(), True
    except CheckFailed as failure:
        detail, ok = str(failure), False
    except Exception as error:  # anything else (ImportError in a build, a crash) fails this check only
        detail, ok = f"{type(error).__name__}: {error}", False
        traceback.print_exc(file=sys.stderr)
    return CheckResult(name, ok, detail, time.perf_counter() - started)


def run_self_test() -> int:
    frozen = getattr(sys, "frozen", False)
    print(
        f"Live Translator self-test ({'packaged build' if frozen else 'source'}: {Path(sys.executable).parent})",
        flush=True,
    )
    results = []
    for name, check in CHECKS:
        result = run_check(name, check)
        results.append(result)
        print(f"{'ok  ' if result.ok else 'FAIL'}  {name:<19} {result.detail}  [{result.seconds:.1f} s]", flush=True)
    failed = [r.name for r in results if not r.ok]
    print(
        f"self-test: {len(results) - len(failed)} of {len(results)} checks passed"
        + (f"; failed: {', '.join(failed)}" if failed else ""),
        flush=True,
    )
    return 1 if failed else 0
