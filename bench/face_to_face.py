"""Face to face (run --direction auto): is each utterance's language decided right, and what does it cost?

    .venv/bin/python -m bench.face_to_face [--model base] [--json] [--quick]

Held-out alternating talk: English sentences (espeak-ng en-us) and Mandarin ones (espeak-ng
cmn-latn-pinyin) in turns, none of them the phrasebook's phrases that app/asr/language.py's
ZH_BIAS was tuned on, then a Chinese exchange with a short English "OK." in it. Printed, on the
same clips:

- direction right, per method: faster-whisper's own `detect_language` (30 s window) restricted
  to en/zh; our detector's reading of the clip alone (app.asr.language.read_language, the short
  window); and the app's recognizer deciding in turn (StreamingRecognizer with LanguageSides:
  hysteresis and floor), which is what `run --direction auto` does;
- the decision's added cost per utterance: the recognizer's time on a clip in auto minus a
  fixed-direction recognizer's time on the same clip (p50), and the detector calls' own time;
- whether Whisper can transcribe each clip of the talk at all when told its language
  (faster-whisper `transcribe`, language forced, greedy, the clip alone), scored by character
  error rate against the clip's text, and each method's direction accuracy again on only the
  clips it can (CER <= MAX_CER);
- the load average before and after.

espeak-ng's Mandarin is a weak probe: Whisper base hears much of it as something else, so
read the Chinese rows as "how often a poor Mandarin voice still goes the right way", and the
rows on transcribable clips as the decision measured where the recognizer has a chance at all.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

import jiwer
import numpy as np

from app.asr import StreamingRecognizer, load_whisper
from app.asr import recognizer as recognizer_module
from app.asr.language import CLEAR, LanguageSides, read_language
from app.shared.audio import SAMPLE_RATE
from app.shared.chinese import to_simplified
from app.shared.events import SourceFinal

VOICES = {"en": "en-us", "zh": "cmn-latn-pinyin"}
EN = [
    "Do you have any questions?",
    "My name is Anna.",
    "The doctor will see you now.",
    "Please open your mouth.",
    "How long have you had this pain?",
    "I need a glass of water.",
    "Can I pay by card?",
    "The train leaves at six.",
    "I am looking for a hotel.",
    "Is this seat free?",
    "What time is it?",
    "I have a headache.",
    "Turn left at the corner.",
    "This is too expensive.",
    "We will meet again next week.",
    "Where can I buy a ticket?",
    "I would like some rice.",
    "It is very cold today.",
    "Please write it down.",
    "Thank you for your help.",
]
ZH = [
    "你好。",
    "谢谢你。",
    "我很饿。",
    "今天很冷。",
    "我头疼。",
    "多少钱？",
    "我要一杯水。",
    "请等一下。",
    "你会说英语吗？",
    "我明白了。",
    "没问题。",
    "我们走吧。",
    "你几岁？",
    "现在几点？",
    "我喜欢中国菜。",
    "我想去医院。",
    "他在哪里？",
    "我是学生。",
    "太贵了。",
    "再见。",
]
# A Chinese exchange with a short English interjection ("OK." alone is dropped as one of
# Whisper's inventions unless it is sure of it): the side should stay Chinese after it.
INTERJECTION = [("我想去医院。", "zh"), ("All right.", "en"), ("我要一杯水。", "zh")]
# Bad input, after the talk (docs/cli.md says what each does). A sentence mixing both languages,
# spoken as one utterance (the parts 80 ms apart): its truth is the sentence's own language.
MIXED = [
    ([("I would like to order", "en"), ("宫保鸡丁。", "zh")], "en"),
    ([("Let's meet at the", "en"), ("北京饭店。", "zh")], "en"),
    ([("我明天要去", "zh"), ("the airport.", "en")], "zh"),
    ([("这是我的", "zh"), ("laptop.", "en")], "zh"),
]
# A third language (espeak-ng's French, German and Spanish).
THIRD = [
    ("Bonjour, je voudrais un café.", "fr"),
    ("Wo ist der Bahnhof, bitte?", "de"),
    ("¿Dónde está la estación?", "es"),
]
VOICES.update({"fr": "fr", "de": "de", "es": "es"})
NOISE = ["silence", "music", "noise"]  # 4 s each: no speech at all
LEAD_S, TAIL_S, BLOCK_S = 0.5, 1.0, 0.1
# A clip Whisper "can transcribe": its forced transcript within this character error rate. The
# same bound tests/asr/test_recognizer.py holds base's espeak-ng Mandarin to (MAX_CER_ZH); on
# these 2-7 character phrases it allows one wrong character in three, so the words were
# evidently heard in that language, while a phrase heard as other words fails it.
MAX_CER = 0.35


def voice(text: str, language: str, folder: Path) -> np.ndarray:
    """espeak-ng saying `text`, 16 kHz."""
    from faster_whisper import decode_audio

    path = folder / "clip.wav"
    subprocess.run(["espeak-ng", "-v", VOICES[language], "-w", str(path), text], check=True, capture_output=True)
    return decode_audio(str(path), sampling_rate=SAMPLE_RATE)


def padded(speech: np.ndarray) -> np.ndarray:
    silence = np.zeros(int(LEAD_S * SAMPLE_RATE), np.float32)
    return np.concatenate([silence, speech, np.zeros(int(TAIL_S * SAMPLE_RATE), np.float32)])


def speak(text: str, language: str, folder: Path) -> np.ndarray:
    return padded(voice(text, language, folder))


def mixed(parts: list[tuple[str, str]], folder: Path) -> np.ndarray:
    gap = np.zeros(int(0.08 * SAMPLE_RATE), np.float32)
    spoken = [piece for text, language in parts for piece in (voice(text, language, folder), gap)]
    return padded(np.concatenate(spoken[:-1]))


def no_speech(kind: str) -> np.ndarray:
    """Silence, music-like chords (three tones swelling, a little hiss), or white noise: 4 s."""
    t = np.arange(4 * SAMPLE_RATE) / SAMPLE_RATE
    rng = np.random.default_rng(7)
    if kind == "silence":
        return np.zeros(len(t), np.float32)
    if kind == "music":
        chords = sum(0.08 * np.sin(2 * np.pi * f * t) for f in (220.0, 277.2, 329.6)) * (1 + np.sin(t * 3))
        return (chords + 0.01 * rng.standard_normal(len(t))).astype(np.float32)
    return (0.1 * rng.standard_normal(len(t))).astype(np.float32)


def talk_of(pairs: int) -> list[tuple[str, str]]:
    """The held-out talk's first `pairs` English and Mandarin turns, alternating."""
    return [item for pair in zip(((t, "en") for t in EN), ((t, "zh") for t in ZH)) for item in pair][: 2 * pairs]


def clips(folder: Path, pairs: int, bad_input: bool):
    """(label, truth, audio) of every clip, in the order the recognizer hears them: the held-out
    talk, the interjection, then the bad input."""
    for text, truth in talk_of(pairs):
        yield text, truth, speak(text, truth, folder)
    if not bad_input:
        return
    for text, truth in INTERJECTION + THIRD:
        yield text, truth, speak(text, truth, folder)
    for parts, truth in MIXED:
        yield " + ".join(text for text, _ in parts), truth, mixed(parts, folder)
    for kind in NOISE:
        yield kind, "none", no_speech(kind)


def faster_whisper_says(model, audio: np.ndarray) -> str:
    """faster-whisper's own detector (its 30 s window), English or Chinese, whichever it rates higher."""
    _, _, probs = model.detect_language(audio)
    ranked = dict(probs)
    return "zh" if ranked.get("zh", 0.0) > ranked.get("en", 0.0) else "en"


def forced_transcript(model, audio: np.ndarray, language: str) -> str:
    """What Whisper writes for the clip alone when told its language: greedy, deterministic
    (no temperature fallback), no earlier text as a prompt, no VAD."""
    segments, _ = model.transcribe(
        audio,
        language=language,
        beam_size=1,
        temperature=0.0,
        condition_on_previous_text=False,
        without_timestamps=True,
        vad_filter=False,
    )
    return " ".join(s.text.strip() for s in segments)


def comparable(text: str, language: str) -> str:
    """Chinese: Simplified (the app's OpenCC conversion), no punctuation or spaces; English:
    lower case, no punctuation, single spaces."""
    if language == "zh":
        return re.sub(r"[\W_]+", "", to_simplified(text))
    return re.sub(r"\s+", " ", re.sub(r"[^\w\s']", " ", text.lower())).strip()


def char_error(reference: str, heard: str, language: str) -> float:
    """Character error rate of `heard` against `reference` (1.0 when nothing was heard)."""
    hypothesis = comparable(heard, language)
    return jiwer.cer(comparable(reference, language), hypothesis) if hypothesis else 1.0


def recognise(recognizer: StreamingRecognizer, audio: np.ndarray) -> tuple[list[SourceFinal], float]:
    """Feed one clip block by block, flat out, then flush: its finals, and the CPU seconds it took."""
    step = int(BLOCK_S * SAMPLE_RATE)
    began = time.process_time()  # all the process's threads: what the decision costs, not the machine's load
    events = []
    for at in range(0, len(audio), step):
        events += recognizer.feed(audio[at : at + step])
    events += recognizer.flush()
    return [e for e in events if isinstance(e, SourceFinal) and e.text], time.process_time() - began


class TimedDetector:
    """read_language with its calls timed (the recognizer's own, swapped in for this bench)."""

    def __init__(self):
        self.seconds: list[float] = []

    def __call__(self, *args, **kwargs):
        began = time.process_time()
        try:
            return read_language(*args, **kwargs)
        finally:
            self.seconds.append(time.process_time() - began)


def run(model_name: str, pairs: int = len(EN), bad_input: bool = True) -> dict:
    load_before = os.getloadavg()
    model = load_whisper(model_name)
    timed = TimedDetector()
    recognizer_module.read_language = timed
    auto = StreamingRecognizer(model, language="en", sides=LanguageSides("en"))
    fixed = {lang: StreamingRecognizer(model, language=lang) for lang in ("en", "zh")}
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for index, (text, truth, audio) in enumerate(clips(Path(folder), pairs, bad_input)):
            side_before = str(auto.sides.side)
            fw = faster_whisper_says(model, audio)
            reading = read_language(model, audio, margin_s=3.0, min_s=10.0)
            calls = len(timed.seconds)
            finals, auto_s = recognise(auto, audio)
            detect_s = sum(timed.seconds[calls:])
            _, fixed_s = recognise(fixed.get(truth, fixed["en"]), audio)
            said = finals[-1].language if finals else None
            # Only the talk's clips have one language and one reference text to score against.
            forced = forced_transcript(model, audio, truth) if index < 2 * pairs else None
            forced_cer = None if forced is None else round(char_error(text, forced, truth), 3)
            rows.append(
                {
                    "text": text,
                    "truth": truth,
                    "side_before": side_before,
                    "faster_whisper": fw,
                    "reading": str(reading.leaning),
                    "p_zh": round(reading.p_zh, 3),
                    "elsewhere": round(reading.elsewhere, 3),
                    "ours": None if said is None else str(said),
                    "heard": " ".join(f.text for f in finals),
                    "confidence": finals[-1].language_confidence if finals else None,
                    "auto_s": auto_s,
                    "fixed_s": fixed_s,
                    "detect_s": detect_s,
                    "forced_text": forced,
                    "forced_cer": forced_cer,
                    "transcribable": None if forced_cer is None else forced_cer <= MAX_CER,
                }
            )
    return {
        "rows": rows,
        "load_before": load_before,
        "load_after": os.getloadavg(),
        "model": model_name,
        "max_cer": MAX_CER,
        "talk": 2 * pairs,
    }


def right(rows: list[dict], method: str, truth: str | None = None) -> str:
    chosen = [r for r in rows if truth is None or r["truth"] == truth]
    return f"{sum(r[method] == r['truth'] for r in chosen)}/{len(chosen)}"


METHODS = (
    ("faster_whisper", "faster-whisper detect_language, en/zh only"),
    ("reading", "our detector alone (short window, ZH_BIAS)"),
    ("ours", "ours in the recognizer (sides, hysteresis)"),
)


def accuracy_table(rows: list[dict]) -> None:
    print(f"{'method':44} {'all':>7} {'English':>8} {'Chinese':>8}")
    for method, name in METHODS:
        print(f"{name:44} {right(rows, method):>7} {right(rows, method, 'en'):>8} {right(rows, method, 'zh'):>8}")


def report_transcribable(talk: list[dict]) -> None:
    """Each method again on the clips Whisper can transcribe in their own language, and those it cannot."""
    can = [r for r in talk if r["transcribable"]]
    print(
        f"Whisper transcribes, its language forced (CER <= {MAX_CER}): {right_count(talk, 'en')} English and "
        f"{right_count(talk, 'zh')} Chinese clips; direction right on those alone:"
    )
    accuracy_table(can)
    print("Clips it cannot transcribe (what it heard, CER), and who decided them right (fw / reading / ours):")
    for r in talk:
        if not r["transcribable"]:
            calls = " / ".join("right" if r[m] == r["truth"] else "wrong" for m, _ in METHODS)
            print(f"  {r['text']!r} ({r['truth']}) heard {r['forced_text']!r} CER {r['forced_cer']}  {calls}")


def right_count(rows: list[dict], truth: str) -> str:
    chosen = [r for r in rows if r["truth"] == truth]
    return f"{sum(bool(r['transcribable']) for r in chosen)}/{len(chosen)}"


def report(result: dict) -> None:
    talk, extra = result["rows"][: result["talk"]], result["rows"][result["talk"] :]
    print(f"Whisper {result['model']}, {len(talk)} held-out utterances alternating EN/ZH (espeak-ng)")
    accuracy_table(talk)
    added = [1000 * (r["auto_s"] - r["fixed_s"]) for r in talk]
    detect = [1000 * r["detect_s"] for r in talk]
    print(
        f"added CPU time per utterance, auto - fixed: p50 {statistics.median(added):.0f} ms "
        f"(p90 {sorted(added)[int(0.9 * len(added))]:.0f}); the detector's calls (encodes handed over "
        f"to the decodes included) p50 {statistics.median(detect):.0f} ms"
    )
    print("A Chinese exchange with a short English interjection, then bad input (a third language,")
    print("sentences mixing both, no speech); 'side' is whose turn it was before:")
    for r in extra:
        print(
            f"  {r['text']!r:44} spoken {r['truth']:4} side {r['side_before']}  decided {r['ours']}  "
            f"p_zh {r['p_zh']} elsewhere {r['elsewhere']}  heard {r['heard']!r}"
        )
    sure = [r for r in result["rows"] if r["p_zh"] >= CLEAR and r["elsewhere"] <= 0.97]
    print(
        f"Readings sure of Chinese (p_zh >= {CLEAR}): {len(sure)}; heard as English all the same: "
        f"{sum(r['ours'] == 'en' for r in sure)}"
    )
    for r in talk:
        if r["ours"] != r["truth"]:
            print(
                f"  wrong: {r['text']!r} ({r['truth']}) heard as {r['ours']} {r['heard']!r} p_zh {r['p_zh']}; "
                f"forced {r['truth']}: {r['forced_text']!r} CER {r['forced_cer']} "
                f"({'transcribable' if r['transcribable'] else 'not transcribable'})"
            )
    report_transcribable(talk)
    before, after = result["load_before"], result["load_after"]
    cores = os.cpu_count()
    print(f"load average before {before[0]:.2f} {before[1]:.2f}, after {after[0]:.2f} {after[1]:.2f} ({cores} cores)")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="base", help="Whisper size name or folder (default: base)")
    parser.add_argument("--json", action="store_true", help="print the measured rows as JSON too")
    parser.add_argument(
        "--quick", action="store_true", help="one English and one Mandarin utterance, no bad input: tries the bench"
    )
    args = parser.parse_args(argv)
    result = run(args.model, pairs=1, bad_input=False) if args.quick else run(args.model)
    report(result)
    if args.json:
        print(json.dumps(result, ensure_ascii=False))


if __name__ == "__main__":
    main()
