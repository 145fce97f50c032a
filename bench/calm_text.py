"""Calm live text: how much shown translation is erased, and how early translated text appears.

A recorded talk (espeak-ng reading 30 sentences of the phrasebook, in utterances of one to three
sentences) is fed at speaking speed through the whole live chain: Silero VAD + Whisper base,
the committed phrasebook en->zh model (tests/fixtures/phrasebook: it has memorised its
sentences and guesses on partial ones), once per calm mode (app/pipeline/calm.py):
`off` (every update shown whole, the behaviour before), `agree`, `force`.

Normalized erasure (Arivazhagan et al. 2020): characters erased across consecutive shown
texts of an utterance (its provisional translations, then its final), divided by the
characters of the final translations. "Early": the share of utterances longer than 2 s whose
first translated text is shown at least 1 s before their final translation. Both for the
text as shown, and for reading mode (settled text only).

Two measurements. "replay" (load-independent, what a quiet machine does): Whisper's partial
and final source texts are recorded once, then every partial is translated in order through the
translation worker's own path (forced prefix, CalmText), as when the machine keeps up; times
are audio times (a partial's text appears when its audio ends; a final at its utterance's end,
decode times ignored, which favours finals). "live" (--live): the real Pipeline at speaking
speed on this machine as it is (it drops provisional translations when recognition falls
behind, see ARCHITECTURE).

    .venv/bin/python -m bench.calm_text [--modes off agree force] [--sentences 30] [--live] [--load N]

--load N runs N busy processes alongside the live run (a loaded machine).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import numpy as np
import soundfile as sf

from app.asr import StreamingRecognizer, load_whisper, recognize
from app.audio import SAMPLE_RATE, FileSource
from app.pipeline import Pipeline, PipelineConfig
from app.pipeline.calm import CalmText, common_prefix, latin_word_boundary
from app.pipeline.translation import calm_sentences
from app.shared.events import SourceFinal, SourcePartial, Translation
from app.translation import DecodeOptions, Translator
from bench._common import PHRASEBOOK, ROOT

GROUPS = (2, 1, 3, 2, 2, 1, 3, 2, 1, 2, 3, 2, 2, 1, 3)  # sentences per utterance: 30 in all


def talk(count: int, folder: Path) -> tuple[Path, list[str]]:
    """A WAV of `count` phrasebook sentences, each utterance read in one go, 1.5 s between."""
    from faster_whisper import decode_audio

    phrases = [en for en, _ in json.loads((ROOT / "tests/fixtures/phrasebook/phrases.json").read_text())["phrases"]]
    parts, utterances, n = [np.zeros(SAMPLE_RATE // 2, np.float32)], [], 0
    for size in GROUPS:
        if n >= count:
            break
        said = phrases[n % len(phrases) : n % len(phrases) + size]
        n += len(said)
        utterances.append(" ".join(said))
        clip = folder / f"u{len(utterances)}.wav"  # one reading: espeak-ng's own short pause between sentences
        subprocess.run(
            ["espeak-ng", "-v", "en-us", "-s", "140", "-g", "2", "-w", str(clip), utterances[-1]], check=True
        )
        parts += [decode_audio(str(clip), sampling_rate=SAMPLE_RATE), np.zeros(int(1.5 * SAMPLE_RATE), np.float32)]
    path = folder / "talk.wav"
    sf.write(path, np.concatenate(parts), SAMPLE_RATE)
    return path, utterances


def erasure(shown: list[str]) -> int:
    return sum(len(a) - common_prefix(a, b) for a, b in zip(shown, shown[1:]))


def measure(wav: Path, mode: str, recognizer) -> dict:
    events: list = []
    lock = threading.Lock()

    def collect(event):
        if isinstance(event, (Translation, SourceFinal)):
            with lock:
                events.append(event)

    config = PipelineConfig(
        direction="en-zh",
        nmt_models={"en-zh": PHRASEBOOK / "en-zh"},
        input_path=wav,
        realtime=True,
        tts_enabled=False,
        emit_steps=False,
        save_transcript=False,
        calm=mode,
    )
    pipeline = Pipeline(config, on_event=collect, recognizer=recognizer)
    pipeline.start()
    pipeline.wait_until_done(900)
    pipeline.stop()
    finals = {e.utterance_id: e for e in events if isinstance(e, SourceFinal) and e.text.strip()}
    result = {
        "utterances": len(finals),
        "provisional": sum(isinstance(e, Translation) and e.provisional for e in events),
    }
    for view in ("shown", "reading"):
        erased = total = long_ = early = 0
        for uid, source in finals.items():
            translations = [e for e in events if isinstance(e, Translation) and e.utterance_id == uid]
            final = next((e for e in translations if not e.provisional), None)
            if final is None:
                continue
            live = [
                (e.text if view == "shown" else e.text[: e.stable or 0], e.emitted_at)
                for e in translations
                if e.provisional
            ]
            erased += erasure([t for t, _ in live] + [final.text])
            total += len(final.text)
            if source.end - source.start > 2.0:
                long_ += 1
                first = next((at for t, at in live if t), None)
                early += first is not None and final.emitted_at - first >= 1.0
        result[view] = {"erasure": erased / max(total, 1), "early": early / max(long_, 1), "long": long_}
    return result


def record_source(wav: Path, recognizer) -> list:
    return [
        e for e in recognize(FileSource(wav, realtime=False), recognizer) if isinstance(e, (SourcePartial, SourceFinal))
    ]


def replay(source_events: list, mode: str) -> dict:
    """Every partial translated in order, as the translation worker does (TranslationStage._translate)."""
    translator = Translator.load(PHRASEBOOK / "en-zh", "en-zh")
    calm = CalmText(mode)
    shown: dict[int, list[tuple[str, float]]] = {}
    finals: dict[int, tuple[str, float, float]] = {}
    ms = []
    for event in source_events:
        provisional = isinstance(event, SourcePartial)
        if not event.text.strip():
            continue
        started = time.perf_counter()
        results = list(
            translator.stream(
                event.text.strip(),
                DecodeOptions(num_beams=1),
                forced=calm.forced(event.utterance_id) if provisional else [],
            )
        )
        ms.append((time.perf_counter() - started) * 1000)
        text = "".join(r.translation.strip() for r in results if r.translation.strip())
        if provisional:
            decoded = calm_sentences(translator, results)  # as TranslationStage hands them to CalmText
            boundary = latin_word_boundary if translator.joiner else None
            update = calm.update(event.utterance_id, decoded, text, boundary, key="en-zh")
            if update is not None:
                shown.setdefault(event.utterance_id, []).append((update[0], update[1], event.end))
        else:
            calm.finish(event.utterance_id, calm_sentences(translator, results), "en-zh")
            finals[event.utterance_id] = (text, event.start, event.end)
    result = {
        "utterances": len(finals),
        "provisional": sum(map(len, shown.values())),
        "ms": float(np.median(ms)) if ms else 0.0,
    }
    for view in ("shown", "reading"):
        erased = total = long_ = early = 0
        for uid, (final, start, end) in finals.items():
            live = [(t if view == "shown" else t[:stable], at) for t, stable, at in shown.get(uid, [])]
            erased += erasure([t for t, _ in live] + [final])
            total += len(final)
            if end - start > 2.0:
                long_ += 1
                first = next((at for t, at in live if t), None)
                early += first is not None and end - first >= 1.0
        result[view] = {"erasure": erased / max(total, 1), "early": early / max(long_, 1), "long": long_}
    return result


def report(mode: str, r: dict) -> None:
    print(
        f"{mode:6s} provisional {r['provisional']:3d}  "
        f"shown: erasure {r['shown']['erasure']:.2f}, early {r['shown']['early']:.0%} of {r['shown']['long']}"
        f"  | reading mode: erasure {r['reading']['erasure']:.2f}, early {r['reading']['early']:.0%}",
        flush=True,
    )


def compare(rows: dict) -> None:
    if "off" in rows:
        for mode in (m for m in rows if m != "off"):
            before, after = rows["off"]["shown"]["erasure"], rows[mode]["shown"]["erasure"]
            ratio = after / before if before else float("nan")
            print(f"  {mode}: erasure {after:.2f} vs {before:.2f} before ({ratio:.2f}x)")


def burn(stop):
    while not stop.is_set():
        sum(i * i for i in range(10000))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--modes", nargs="+", default=["off", "agree", "force"])
    parser.add_argument("--sentences", type=int, default=30)
    parser.add_argument("--live", action="store_true", help="also run the real pipeline at speaking speed")
    parser.add_argument("--load", type=int, default=0, help="busy processes running alongside the live run")
    args = parser.parse_args(argv)

    recognizer = StreamingRecognizer(load_whisper("base"), language="en")
    stop = multiprocessing.Event()
    burners = [multiprocessing.Process(target=burn, args=(stop,), daemon=True) for _ in range(args.load)]
    with tempfile.TemporaryDirectory() as tmp:
        wav, utterances = talk(args.sentences, Path(tmp))
        seconds = sf.info(wav).duration
        print(
            f"talk: {args.sentences} sentences in {len(utterances)} utterances, {seconds:.0f} s;"
            f" Whisper base + phrasebook en-zh; {os.cpu_count()} cores"
        )
        source = record_source(wav, recognizer)
        partials = sum(type(e).__name__ == "SourcePartial" for e in source)
        print(f"replay: {partials} partials, every one translated in order (audio clock)")
        rows = {mode: replay(source, mode) for mode in args.modes}
        for mode, r in rows.items():
            report(mode, r)
        compare(rows)
        if not args.live:
            return 0
        print(f"live: fed at speaking speed, {args.load} busy processes alongside")
        for b in burners:
            b.start()
        try:
            rows = {}
            for mode in args.modes:
                rows[mode] = measure(wav, mode, recognizer)
                report(mode, rows[mode])
            compare(rows)
        finally:
            stop.set()
            for b in burners:
                b.join()
    return 0


if __name__ == "__main__":
    sys.exit(main())
