"""Face to face: which signals tell English from Chinese best? The experiment behind app/asr/language.py.

    .venv/bin/python -m bench.language_signals [--model base] [--save FILE] [--load FILE] [--quick]

Two sets of espeak-ng clips (en-us, cmn-latn-pinyin), each talked in turns through the app's
recognizer so that every utterance is cut as `run --direction auto` cuts it:

- tuning: the phrasebook's 36 English and 36 Chinese phrases (models/phrasebook.py), which
  ZH_BIAS was tuned on; every rule's parameters below are chosen on these alone;
- held out: bench/face_to_face.py's 20 + 20 utterances, never used to choose anything.

For each utterance's final audio: the detector's P(zh | en or zh) through several windows (the
decode's: the audio + 3 s, at least 10 s, what the app reads; 5 s; the utterance + 0.5 s;
Whisper's 30 s), and the avg log-prob of two forced greedy decodes (en, zh) with their cost.
Then each rule, tuned on the phrasebook, scored on both sets: each utterance alone, and in turn
(LanguageSides: the side's memory, the floors), as the app decides.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import tempfile
import time
from pathlib import Path

import numpy as np

from app.asr import StreamingRecognizer, load_whisper
from app.asr.language import LanguageReading, LanguageSides
from app.asr.vad import FRAME
from app.asr.window import decode_window, encode_window
from app.shared.audio import SAMPLE_RATE
from bench.face_to_face import EN, ZH, recognise, speak
from models.phrasebook import PHRASES

VOICE_BIASES = (math.log(4.0), 2.75, 3.0, 3.25)  # the app's before, and the plateau tuned on the phrasebook
WINDOWS = {"decode": (3.0, 10.0), "five": (1.0, 5.0), "tight": (0.5, 0.0), "thirty": (0.0, 30.0)}  # margin, min


def final_audio(model, talk: list[tuple[str, str]], folder: Path) -> list[dict]:
    """Each clip through an auto recognizer in turn: the audio and speech length of its last final."""
    captured: list[tuple[np.ndarray, float]] = []
    hear_final = StreamingRecognizer._hear_final

    def capturing(self, audio, u=None):
        if u is not None:
            captured.append((np.array(audio), u.speech_frames * FRAME / SAMPLE_RATE))
        return hear_final(self, audio, u)

    StreamingRecognizer._hear_final = capturing
    try:
        recognizer = StreamingRecognizer(model, language="en", sides=LanguageSides("en"))
        rows = []
        for text, truth in talk:
            captured.clear()
            recognise(recognizer, speak(text, truth, folder))
            rows.append({"text": text, "truth": truth, "audio": captured[-1] if captured else None})
        return rows
    finally:
        StreamingRecognizer._hear_final = hear_final


def raw_reading(model, audio: np.ndarray, margin_s: float, min_s: float) -> tuple[float, float, float]:
    """(P(zh | en or zh) unshifted, weight elsewhere, seconds) of the detector through one window."""
    began = time.perf_counter()
    encoded = encode_window(model, audio, margin_s=margin_s, min_s=min_s)
    probs = {token.strip("<|>"): p for token, p in model.model.detect_language(encoded)[0]}
    both = probs.get("en", 0.0) + probs.get("zh", 0.0)
    return probs.get("zh", 0.0) / both if both else 0.5, 1.0 - both, time.perf_counter() - began


def signals(model, row: dict) -> dict:
    audio, speech_s = row.pop("audio")
    row["speech_s"] = round(speech_s, 2)
    for name, (margin, least) in WINDOWS.items():
        p, elsewhere, seconds = raw_reading(model, audio, margin, least)
        row[f"p_{name}"], row[f"elsewhere_{name}"], row[f"s_{name}"] = p, elsewhere, seconds
    for language in ("en", "zh"):
        began = time.perf_counter()
        budget = int(10 + 6 * len(audio) / SAMPLE_RATE)
        decoded = decode_window(model, audio, language, margin_s=3.0, min_s=10.0, beam_size=1, max_new_tokens=budget)
        row[f"lp_{language}"], row[f"text_{language}"] = decoded.avg_logprob, decoded.text.strip()
        row[f"s_forced_{language}"] = time.perf_counter() - began
    return row


# The held-out sentences again in other voices: does a bias tuned on espeak-ng's en-us and
# cmn-latn-pinyin hold for other English accents and another Mandarin voice and pace?
OTHER_VOICES = {
    "en": [["en-gb"], ["en-gb-scotland"], ["en-029"], ["en-us+f3", "-s", "150"]],
    "zh": [["cmn-latn-pinyin+f3"], ["cmn-latn-pinyin", "-s", "130"]],
}


def other_voices(model, folder: Path) -> list[dict]:
    """The decode window's reading (unshifted) of each held-out sentence in each other voice."""
    from faster_whisper import decode_audio

    rows = []
    for truth, sentences in (("en", EN), ("zh", ZH)):
        for voice in OTHER_VOICES[truth]:
            for text in sentences:
                path = folder / "voice.wav"
                command = ["espeak-ng", "-v", voice[0], *voice[1:], "-w", str(path), text]
                subprocess.run(command, check=True, capture_output=True)
                speech = decode_audio(str(path), sampling_rate=SAMPLE_RATE)
                lead, tail = np.zeros(SAMPLE_RATE // 2, np.float32), np.zeros(SAMPLE_RATE, np.float32)
                p, elsewhere, _ = raw_reading(model, np.concatenate([lead, speech, tail]), *WINDOWS["decode"])
                rows.append({"voice": " ".join(voice), "truth": truth, "text": text, "p_decode": p})
    return rows


def measure(model_name: str, quick: bool = False) -> dict:
    """Every set's signals; `quick`: one English and one Chinese utterance of each set, no other voices."""
    model = load_whisper(model_name)
    size = 2 if quick else None
    sets = {
        "tuning": [item for en, zh in PHRASES for item in ((en, "en"), (zh, "zh"))][:size],
        "held_out": [item for pair in zip(((t, "en") for t in EN), ((t, "zh") for t in ZH)) for item in pair][:size],
    }
    out = {}
    with tempfile.TemporaryDirectory() as folder:
        for name, talk in sets.items():
            rows = final_audio(model, talk, Path(folder))
            out[name] = [signals(model, row) if row["audio"] is not None else {**row, "audio": None} for row in rows]
        if not quick:
            out["voices"] = other_voices(model, Path(folder))
    return out


def logit(p: float) -> float:
    p = min(max(p, 1e-6), 1 - 1e-6)
    return math.log(p / (1 - p))


def rules() -> dict:
    """name -> (score(row, params) as log-odds of Chinese, the parameter grid); each rule's
    parameters are the middle of those that score best on the phrasebook."""
    biases = [b / 4 for b in range(-8, 17)]  # -2 .. 4 in log-odds
    return {
        "detector, decode window, bias ln 4 (the app before)": (lambda r, b: logit(r["p_decode"]) + b, [math.log(4.0)]),
        "detector, decode window, bias tuned (the app now)": (lambda r, b: logit(r["p_decode"]) + b, biases),
        "detector, 5 s window": (lambda r, b: logit(r["p_five"]) + b, biases),
        "detector, utterance + 0.5 s": (lambda r, b: logit(r["p_tight"]) + b, biases),
        "detector, 30 s window": (lambda r, b: logit(r["p_thirty"]) + b, biases),
        "detector, decode + utterance windows": (
            lambda r, b: (logit(r["p_decode"]) + logit(r["p_tight"])) / 2 + b,
            biases,
        ),
        "detector, decode + 5 s windows": (lambda r, b: (logit(r["p_decode"]) + logit(r["p_five"])) / 2 + b, biases),
        "detector, the most Chinese of decode and 5 s": (
            lambda r, b: max(logit(r["p_decode"]), logit(r["p_five"])) + b,
            biases,
        ),
        "forced decodes: avg log-prob zh - en": (lambda r, d: (r["lp_zh"] - r["lp_en"]) * 10 + d, biases),
        "detector, forced decodes when unsure": (unsure_rule, [(lo, d) for lo in (-6, -4, -3, -2, -1) for d in biases]),
    }


def unsure_rule(row: dict, params: tuple[float, float]) -> float:
    """The app's reading, unless it is in the unsure band [lo, 0) of log-odds: then the forced decodes."""
    low, d = params
    shifted = logit(row["p_decode"]) + math.log(4.0)
    if shifted >= 0 or shifted < low:
        return shifted
    return (row["lp_zh"] - row["lp_en"]) * 10 + d


def alone(rows: list[dict], score, param) -> int:
    return sum(row.get("p_decode") is not None and (score(row, param) >= 0) == (row["truth"] == "zh") for row in rows)


def in_turn(rows: list[dict], score, param) -> int:
    """Decided in turn with LanguageSides (the side's memory, floors), as the recognizer does."""
    sides, right = LanguageSides("en"), 0
    for row in rows:
        if row.get("p_decode") is None:
            continue
        p = 1.0 / (1.0 + math.exp(-score(row, param)))
        decision = sides.decide(LanguageReading(p, row["elsewhere_decode"]), row["speech_s"])
        sides.settle(decision)
        right += str(decision.language) == row["truth"]
    return right


def report(data: dict) -> None:
    tuning, held = data["tuning"], data["held_out"]
    print(f"{'rule (parameters tuned on the phrasebook)':52} {'tuning':>7} {'held-out':>9} {'in turn':>8}")
    for name, (score, grid) in rules().items():
        top = max(alone(tuning, score, p) for p in grid)
        plateau = [p for p in grid if alone(tuning, score, p) == top]
        best = plateau[len(plateau) // 2]  # the middle of the best range: no edge chosen by chance
        print(
            f"{name:52} {alone(tuning, score, best):>3}/{len(tuning):<3} {alone(held, score, best):>5}/{len(held):<3}"
            f" {in_turn(held, score, best):>4}/{len(held):<3} {best}"
        )
    if "voices" in data:
        print("The held-out sentences in other voices, the decode window's reading alone, right at each bias:")
        for voice in dict.fromkeys(r["voice"] for r in data["voices"]):
            rows = [r for r in data["voices"] if r["voice"] == voice]
            scores = [
                f"{b:.2f}: {sum((logit(r['p_decode']) + b >= 0) == (r['truth'] == 'zh') for r in rows)}"
                for b in VOICE_BIASES
            ]
            print(f"  {voice:24} ({rows[0]['truth']}, {len(rows)})  " + "  ".join(scores))
    for name in ("decode", "five", "tight", "thirty", "forced_en", "forced_zh"):
        seconds = sorted(r[f"s_{name}"] for r in held if f"s_{name}" in r)
        print(f"  cost of {name}: p50 {1000 * seconds[len(seconds) // 2]:.0f} ms")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="base")
    parser.add_argument("--save", help="write the measured signals to this JSON file")
    parser.add_argument("--load", help="score the rules on signals saved earlier (nothing is measured)")
    parser.add_argument("--add-voices", action="store_true", help="with --load: measure the other voices only")
    parser.add_argument(
        "--quick", action="store_true", help="one English and one Chinese utterance per set, no other voices"
    )
    args = parser.parse_args(argv)
    if args.load:
        data = json.loads(Path(args.load).read_text(encoding="utf-8"))
        if args.add_voices:
            with tempfile.TemporaryDirectory() as folder:
                data["voices"] = other_voices(load_whisper(args.model), Path(folder))
    else:
        before = os.getloadavg()
        data = measure(args.model, quick=args.quick)
        data["load"] = [before, os.getloadavg()]
    if args.save:
        Path(args.save).write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    report(data)
    if "load" in data:
        before, after = data["load"]
        print(f"load average before {before[0]:.2f}, after {after[0]:.2f}")


if __name__ == "__main__":
    main()
