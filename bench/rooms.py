"""Real rooms and real calls: the app's finals against faster-whisper on degraded audio (issue 41).

Talks (each a file of clips with 1 s pauses):
- en: 16 held-out English sentences, espeak-ng en-us; the reference is the text spoken;
- zh: 10 short Mandarin sentences, espeak-ng `cmn-latn-pinyin` (as bench/asr_accuracy.py
  speaks them); CER against the text spoken. No real Mandarin recording installs here, so
  this is synthetic speech only;
- human: real English voices from Debian's `codec2-examples` (/usr/share/codec2/raw, 8 kHz:
  Harvard sentences, radio calls) and `alsa-utils` (/usr/share/sounds/alsa); no transcript
  ships with them, so the reference is faster-whisper (beam 5) on each clean clip alone.
Each talk goes through every condition of bench/degrade.py (noise at several SNRs, reverb,
a quiet or far speaker, clipping, telephone band, GSM, Opus, lost frames). For each:
- app: the finals of `python -m app run --input talk.wav --json` (the recording path, as fast
  as it goes: its text does not depend on the machine's load), or with `--path recognizer`
  StreamingRecognizer fed the file in this process (the same recognizer and finals, without
  partials: quicker for sweeps of variants);
  `--path microphone` / `--path system` play the degraded talk through a private PulseAudio
  server into the microphone or as system audio (a call's far side) and run `run --source ...`
  on it at speaking speed: the capture path people use;
- whole: faster-whisper's own reading of the whole file, same model, beam 5, its VAD filter
  (the defaults: temperature fallback, previous text as context), in the same run;
- causal (`--causal`): the same reader given each sentence with the audio up to its end only, as
  a live reader has it (bench/causal.py): how much of the gap is the sentences after;
  `--causal N`: up to the end of the N-th sentence after each (a final corrected N sentences later).
WER (en, human; number words up to twelve counted as digits on both sides) / CER (zh); `gap` =
app - whole; `placed`: each final scored against the sentence it was said in (words in another
sentence's final count); `readable` (Mandarin): whole, then the app, CER over the clips Whisper
reads right when clean and alone, what the Mandarin target counts (both texts' errors put in
sentences by aligning them with the references, not by timestamps); `s`: the app's wall time
(with `--path recognizer`, the final decodes: a cost to compare variants by in one sitting).
`--realtime` also runs `run --realtime` (speaking speed) and reports end of speech -> final p50/p95
and live text's early share (load-dependent: the load average is printed). `--non-speech MINUTES`
counts the finals (and live partials) of pink and brown noise, music, typing, a door and dishes
(no one talking); the target is none.

`--set key=value` (repeatable) changes a RecognizerOptions field for the app (a variant), e.g.
`--set pad_s=0.6`; several `--variant NAME:key=value,key=value` compare variants in one run.

    .venv/bin/python -m bench.rooms [--talks en zh human] [--conditions clean "pink 5dB"] [--model base]
    .venv/bin/python -m bench.rooms --quick        # 3 English sentences, clean and pink 5 dB, tiny.en (<1 min)
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, replace
from pathlib import Path

import jiwer
import numpy as np
import soundfile as sf

from app import cli
from app.asr import RecognizerOptions, StreamingRecognizer, load_whisper
from bench import asr_accuracy, causal, degrade
from bench._common import PHRASEBOOK, ROOT, bench_command
from bench.asr_accuracy import normalize, spoken

RATE = degrade.RATE

ENGLISH = [  # held out: in no test and no other bench
    "Thank you for coming to the conference.",
    "Music helps me relax after work.",
    "The museum is closed on Tuesdays.",
    "Please leave your coat by the door.",
    "The bus to the airport leaves every hour.",
    "I would like a cup of tea with milk.",
    "Our team finished the project two days early.",
    "The garden looks beautiful in the summer.",
    "Could you speak a little more slowly, please?",
    "The hotel room has a view of the river.",
    "She forgot her keys at the office again.",
    "We are planning a trip to the mountains next month.",
    "The kitchen needs a new table and four chairs.",
    "He plays the guitar in a small band.",
    "The results will be ready by Monday morning.",
    "Turn left at the bank and walk straight on.",
]
MANDARIN = [  # short: Whisper base can transcribe espeak-ng's Mandarin only when short (FIELD-NOTES 4)
    "我爱你。",
    "这个多少钱？",
    "我不知道。",
    "他是我的朋友。",
    "我们走吧。",
    "我每天早上喝茶。",
    "今天天气很好。",
    "谢谢你的帮助。",
    "请坐。",
    "我想喝水。",
]
CODEC2 = Path("/usr/share/codec2/raw")
ALSA = Path("/usr/share/sounds/alsa")
HUMAN = [CODEC2 / f"{n}.raw" for n in ("hts1a", "hts2a", "mmt1", "morig", "forig", "big_dog", "kristoff")] + [
    CODEC2 / "vk5qi.raw",
    CODEC2 / "cq_ref.raw",
    ALSA / "Front_Center.wav",
    ALSA / "Rear_Left.wav",
]


@dataclass
class Talk:
    name: str
    language: str  # what Whisper is told, and how errors are counted ("zh": CER)
    clips: list[np.ndarray]
    references: list[str]
    direction: str
    # Clips Whisper reads right when clean and alone (faster-whisper beam 5): the Mandarin target
    # counts only those (issue 41: "where Whisper base can transcribe the clean clip"); None: all.
    readable: list[bool] | None = None

    def audio(self, gap_s: float = 1.0) -> np.ndarray:
        gap = np.zeros(int(gap_s * RATE), np.float32)
        parts = [gap[: RATE // 2]]
        for clip in self.clips:
            parts += [clip, gap]
        return np.concatenate(parts)

    def degraded(self, condition: str) -> np.ndarray:
        """The talk through `condition` (bench/degrade.py), the same noise in every run and bench,
        clipped as a sound card delivers it."""
        audio = degrade.CONDITIONS[condition](self.audio(), degrade.speech_power(self.clips), np.random.default_rng(41))
        return np.clip(audio.astype(np.float32), -1.0, 1.0)

    def spans(self, gap_s: float = 1.0) -> list[tuple[float, float]]:
        """Each clip's (start, end) in seconds within `audio(gap_s)`."""
        gap = int(gap_s * RATE)
        start, spans = min(gap, RATE // 2), []
        for clip in self.clips:
            spans.append((start / RATE, (start + len(clip)) / RATE))
            start += len(clip) + gap
        return spans


def espeak(text: str, voice: str, folder: Path, name: str) -> np.ndarray:
    wav = folder / f"{name}.wav"
    subprocess.run(["espeak-ng", "-v", voice, "-w", str(wav), text], check=True)
    return degrade.resample_file(wav)


def human_clip(path: Path) -> np.ndarray:
    if path.suffix == ".wav":
        return degrade.resample_file(path)
    pcm = np.fromfile(path, dtype="<i2").astype(np.float32) / 32768
    with tempfile.TemporaryDirectory() as folder:
        wav = Path(folder) / "clip.wav"
        sf.write(wav, pcm, 8000)
        return degrade.resample_file(wav)


def make_talk(name: str, folder: Path, sentences: int | None, model) -> Talk:
    if name == "en":
        texts = ENGLISH[:sentences]
        clips = [espeak(t, "en-us", folder, f"en{i}") for i, t in enumerate(texts)]
        return Talk(name, "en", clips, texts, "en-zh")
    if name == "zh":
        texts = MANDARIN[:sentences]
        clips = [espeak(spoken(t, "zh"), "cmn-latn-pinyin", folder, f"zh{i}") for i, t in enumerate(texts)]
        return Talk(name, "zh", clips, texts, "zh-en")
    missing = [str(p) for p in HUMAN if not p.exists()]
    if missing:
        raise SystemExit(f"missing {missing[0]}: install Debian's codec2-examples and alsa-utils (./setup.sh test)")
    clips = [human_clip(p) for p in HUMAN[:sentences]]
    references = [whole_file_text(model, clip, "en") for clip in clips]
    return Talk(name, "en", clips, references, "en-zh")


def readable_clips(talk: Talk, model) -> list[bool]:
    """Which clips Whisper reads right when clean and alone (faster-whisper beam 5)."""
    return [
        normalize(whole_file_text(model, clip, talk.language), talk.language) == normalize(said, talk.language)
        for clip, said in zip(talk.clips, talk.references)
    ]


def whole_file_text(model, audio: np.ndarray, language: str) -> str:
    """faster-whisper's own reading of a whole file: beam 5, its VAD filter, its defaults."""
    segments, _ = model.transcribe(audio, language=language, beam_size=5, vad_filter=True)
    return " ".join(text for text in (s.text.strip() for s in segments) if text)


# -- the app ------------------------------------------------------------------------------------


def parse_settings(text: str) -> dict:
    """ "pad_s=0.6,final_beam.en=5" -> {"pad_s": 0.6, "final_beam.en": 5} (values as JSON, else strings)."""
    settings = {}
    for item in filter(None, text.split(",")):
        key, value = item.split("=", 1)
        try:
            settings[key] = json.loads(value)
        except json.JSONDecodeError:
            settings[key] = value
    return settings


def apply_settings(options, settings: dict):
    """RecognizerOptions with `settings` applied ("field.key" sets one entry of a dict field)."""
    for key, value in settings.items():
        name, _, entry = key.partition(".")
        if entry:
            value = {**getattr(options, name), entry: value}
        options = replace(options, **{name: value})
    return options


def child(settings: str, argv: list[str]) -> int:
    """In the `run` process: apply the variant's settings, then the app's command line as it is."""
    paced = RecognizerOptions.paced
    RecognizerOptions.paced = lambda self, live_text: apply_settings(paced(self, live_text), parse_settings(settings))
    return cli.main(argv)


def app_run(wav: Path, talk: Talk, model_name: str, settings: str, realtime: bool) -> list[dict]:
    """The events of `run --json` on `wav` (a variant's settings applied in the child)."""
    cmd = [*bench_command(__spec__.name), "--child", settings, "run", "--input", str(wav), "--json"]
    cmd += ["--direction", talk.direction, "--nmt-model", str(PHRASEBOOK / talk.direction), "--no-tts"]
    cmd += ["--asr-model", model_name] + (["--realtime"] if realtime else [])
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=3600)
    if done.returncode not in (0, 1):
        raise SystemExit(f"run failed ({done.returncode}): {done.stderr[-2000:]}")
    return [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]


def pulse_run(wav: Path, talk: Talk, model_name: str, settings: str, via: str) -> list[dict]:
    """The events of `run --source microphone|system --json` while the talk plays, at speaking
    speed, through a private PulseAudio server: into its `mic` null sink (the microphone) or its
    default sink `speakers` (system audio, a call's far side). The capture path people use:
    PortAudio or the loopback, the device's own blocks and clock."""
    from tests.asr.conftest import SoundRoom  # lazy: the tests' PulseAudio harness, for these paths only

    room = SoundRoom()
    room.start()
    cmd = [*bench_command(__spec__.name), "--child", settings, "run", "--source", via, "--json"]
    cmd += ["--direction", talk.direction, "--nmt-model", str(PHRASEBOOK / talk.direction), "--no-tts"]
    cmd += ["--asr-model", model_name, "--duration", f"{sf.info(str(wav)).duration + 8:.1f}"]
    env = {**os.environ, **room.env, "PYTHONPATH": str(ROOT)}
    child_run = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)
    events: list[dict] = []
    try:
        for line in child_run.stdout:
            if line.startswith("{"):
                events.append(json.loads(line))
                if events[-1].get("state") == "running":
                    break
        time.sleep(2.5)  # a null sink's monitor delivers its first audio ~2 s after it is opened
        played_at = time.monotonic()
        room.play_to("mic" if via == "microphone" else "speakers", wav)
        events += [json.loads(line) for line in child_run.stdout if line.startswith("{")]
        child_run.wait(120)
    finally:
        child_run.kill()
        room.kill()
    tail_pad_s = apply_settings(RecognizerOptions(), parse_settings(settings)).tail_pad_s
    return on_talk_clock(events, played_at, tail_pad_s)


def on_talk_clock(events: list[dict], played_at: float, tail_pad_s: float) -> list[dict]:
    """Finals of a capture with `start` / `end` moved from the capture's clock (its first sample)
    to the talk's (the recording played from `played_at`, monotonic), as the recording path has
    them, so a final is placed in the sentence it was said in. A final's speech ended at
    `speech_end_at` (monotonic, every process's clock) and at `end - tail_pad_s` on the capture's."""
    shifts = [
        e["speech_end_at"] - played_at - (e["end"] - tail_pad_s)
        for e in events
        if e["type"] == "final" and e["text"].strip()
    ]
    if not shifts:
        return events
    shift = statistics.median(shifts)
    return [{**e, "start": e["start"] + shift, "end": e["end"] + shift} if e["type"] == "final" else e for e in events]


def recognizer_finals(audio: np.ndarray, talk: Talk, model, settings: str) -> list[dict]:
    """The finals of StreamingRecognizer fed `audio` in this process, as `run` feeds a recording."""

    # No partials: the final decode is the truth (its text does not depend on them), and a sweep
    # of variants goes three times as fast without them.
    options = apply_settings(RecognizerOptions(partial_interval_s=1e9), parse_settings(settings))
    recognizer = StreamingRecognizer(model, language=talk.language, options=options)
    events = []
    for start in range(0, len(audio), 1600):  # FileSource's 0.1 s blocks
        events += recognizer.feed(audio[start : start + 1600], None)
    events += recognizer.flush()
    return [e.to_json() for e in events]


def finals_text(events: list[dict]) -> str:
    return " ".join(e["text"] for e in events if e["type"] == "final" and e["text"].strip())


_NUMBER_WORDS = "zero one two three four five six seven eight nine ten eleven twelve".split()
_NUMBER_WORD = re.compile(r"\b(" + "|".join(_NUMBER_WORDS) + r")\b", re.IGNORECASE)


def error_rate(references: list[str], text: str, language: str) -> float:
    """WER (English) or CER (Mandarin) of `text` against `references`, English numbers up to twelve
    counted as digits on both sides: Whisper writes "testing 1, 2, 3" as often as "testing one,
    two, three" (the real voices' reference has words, the finals now one, now the other), and
    either is what was said."""
    if language != "zh":
        references, text = [_as_digits(r) for r in references], _as_digits(text)
    return asr_accuracy.error_rate(references, text, language)


def _as_digits(text: str) -> str:
    return _NUMBER_WORD.sub(lambda m: str(_NUMBER_WORDS.index(m.group(1).lower())), text)


def placed_error_rate(talk: Talk, events: list[dict]) -> float:
    """The error rate with each final scored against the sentence (clip) it was said in, the one
    nearest its middle: words a final took from the sentence before or after count here (a
    translation reads them in the wrong sentence), not in the whole text's rate. It means that
    only where each final is one sentence: a final over several (babble fills the pauses) counts
    as one sentence's."""
    spans = talk.spans()
    heard = [[] for _ in talk.clips]
    for e in events:
        if e["type"] == "final" and e["text"].strip():
            middle = (e["start"] + e["end"]) / 2
            heard[causal.nearest_span(spans, middle)].append(e["text"])
    sizes = [len(_units(r, talk.language)) for r in talk.references]
    scored = zip(talk.references, heard, sizes)
    return sum(error_rate([r], " ".join(h), talk.language) * n for r, h, n in scored) / sum(sizes)


def readable_error_rate(talk: Talk, text: str) -> float:
    """The error rate of `text` over the clips Whisper reads right when clean (`talk.readable`),
    each error put in a sentence by aligning `text` with all the references (jiwer): a substituted
    or dropped unit counts in its reference's sentence, an inserted one in the sentence of the unit
    before it. The whole file's reading and the app's finals are scored alike, whatever their
    timestamps say (faster-whisper's word timestamps put characters in the next sentence)."""
    units = [_units(r, talk.language) for r in talk.references]
    owner = [i for i, said in enumerate(units) for _ in said]  # each reference unit's sentence
    reference, heard = [u for said in units for u in said], _units(text, talk.language)
    errors = [0] * len(units)
    if not heard:
        errors = [len(said) for said in units]
    else:
        for chunk in jiwer.process_words(" ".join(reference), " ".join(heard)).alignments[0]:
            if chunk.type in ("substitute", "delete"):
                for at in range(chunk.ref_start_idx, chunk.ref_end_idx):
                    errors[owner[at]] += 1
            elif chunk.type == "insert":
                errors[owner[max(chunk.ref_start_idx - 1, 0)]] += chunk.hyp_end_idx - chunk.hyp_start_idx
    counted = [i for i, readable in enumerate(talk.readable or [True] * len(units)) if readable]
    return sum(errors[i] for i in counted) / sum(len(units[i]) for i in counted)


def _units(text: str, language: str) -> list[str]:
    """Words (English, numbers as digits) or characters (Mandarin), normalized as error_rate counts them."""
    if language == "zh":
        return list(normalize(text, "zh").replace(" ", ""))
    return normalize(_as_digits(text), "en").split()


def live_figures(events: list[dict]) -> dict:
    """End of speech -> final (p50, p95) and live text's early share, from a realtime run's events."""
    waits = [e["emitted_at"] - e["speech_end_at"] for e in events if e["type"] == "final" and e["text"].strip()]
    summary = next((e["live_text"] for e in events if e["type"] == "summary"), {})
    return {
        "p50": statistics.median(waits) if waits else float("nan"),
        "p95": float(np.percentile(waits, 95)) if waits else float("nan"),
        "early": f"{summary.get('early', 0)}/{summary.get('long', 0)}",
    }


def room_events(events: list[dict]) -> str:
    """The room problems told, and any error (a run that failed must not pass for a silent one)."""
    kinds = sorted({e.get("problem", "?") for e in events if e["type"] == "room"})
    errors = [f"ERROR {e['stage']}: {e['text'][:80]}" for e in events if e["type"] == "error"]
    return ",".join(kinds + errors) or "-"


# -- the grid -----------------------------------------------------------------------------------


def bench_talk(talk: Talk, args, model, folder: Path) -> list[dict]:
    rows = []
    for condition in args.conditions:
        audio = talk.degraded(condition)
        wav = folder / f"{talk.name}-{len(rows)}.wav"
        sf.write(wav, audio, RATE, subtype="FLOAT")
        whole = whole_file_text(model, audio, talk.language)
        row = {"talk": talk.name, "condition": condition, "whole": error_rate(talk.references, whole, talk.language)}
        if talk.readable:
            row["whole readable"] = readable_error_rate(talk, whole)
        if args.causal is not None:  # what a live reader can have: each sentence without the ones after it
            so_far = causal.causal_text(model, audio, talk.spans(), talk.language, args.causal)
            row["causal"] = error_rate(talk.references, so_far, talk.language)
            if talk.readable:
                row["causal readable"] = readable_error_rate(talk, so_far)
        for variant, settings in args.variants:
            began = time.perf_counter()
            if args.path == "run":
                events = app_run(wav, talk, args.model, settings, realtime=False)
            elif args.path in ("microphone", "system"):
                events = pulse_run(wav, talk, args.model, settings, args.path)
            else:
                events = recognizer_finals(audio, talk, model, settings)
            text = finals_text(events)
            row[variant] = error_rate(talk.references, text, talk.language)
            row[f"{variant} placed"] = placed_error_rate(talk, events)
            if talk.readable:
                row[f"{variant} readable"] = readable_error_rate(talk, text)
            row[f"{variant} s"] = time.perf_counter() - began
            row[f"{variant} room"] = room_events(events)
            if args.show_text:
                print(f"  [{talk.name} {condition} {variant}] {text}\n  [whole] {whole}", flush=True)
        if args.realtime:
            for variant, settings in args.variants:
                row[f"{variant} live"] = live_figures(app_run(wav, talk, args.model, settings, realtime=True))
        print_row(row, args.variants, flush=True)
        rows.append(row)
    return rows


def print_header(variants: list[tuple[str, str]]) -> None:
    names = " ".join(f"{v:>9} {'gap':>6}" for v, _ in variants)
    print(f"{'talk':5} {'condition':30} {'whole':>6} {names}  room events / live (p50 p95 early)")


def print_row(row: dict, variants: list[tuple[str, str]], flush: bool = False) -> None:
    cells = " ".join(f"{row[v]:9.3f} {row[v] - row['whole']:+6.3f}" for v, _ in variants)
    extra = row[f"{variants[0][0]} room"]
    if "causal" in row:  # faster-whisper with the audio up to each sentence's end only
        readable = f" (readable {row['causal readable']:.3f})" if "causal readable" in row else ""
        extra += f"  causal {row['causal']:.3f}{readable}"
    extra += "  placed " + " ".join(f"{row[f'{v} placed']:.3f}" for v, _ in variants)
    extra += "  s " + " ".join(f"{row[f'{v} s']:.1f}" for v, _ in variants)  # the app's wall time per variant
    if "whole readable" in row:  # whole, then each variant, on the clips Whisper reads right when clean
        extra += "  readable " + " ".join(
            f"{row[k]:.3f}" for k in ["whole readable"] + [f"{v} readable" for v, _ in variants]
        )
    for variant, _ in variants:
        if f"{variant} live" in row:
            live = row[f"{variant} live"]
            extra += f"  {variant} live {live['p50']:.2f} {live['p95']:.2f} {live['early']}"
    print(f"{row['talk']:5} {row['condition']:30} {row['whole']:6.3f} {cells}  {extra}", flush=flush)


def count_non_speech(args, folder: Path) -> None:
    """Finals of `run` on each non-speech sound (no one talking): the target is none."""
    talk = Talk("none", "en", [], [], "en-zh")
    for kind in degrade.NON_SPEECH:
        wav = folder / f"non-speech-{kind}.wav"
        sf.write(wav, degrade.non_speech(kind, args.non_speech * 60, np.random.default_rng(41)), RATE)
        events = app_run(wav, talk, args.model, args.variants[0][1], realtime=False)
        finals = [e["text"] for e in events if e["type"] == "final" and e["text"].strip()]
        partials = [e["text"] for e in events if e["type"] == "partial" and e["text"].strip()]  # live text shown
        print(
            f"non-speech {kind:7} {args.non_speech:g} min: {len(finals)} finals {finals[:3]}"
            f"  {len(partials)} partials {partials[:3]}  room: {room_events(events)}"
        )


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="base")
    parser.add_argument("--talks", nargs="+", default=["en", "zh", "human"], choices=["en", "zh", "human"])
    parser.add_argument("--conditions", nargs="+", default=list(degrade.CONDITIONS), choices=list(degrade.CONDITIONS))
    parser.add_argument("--sentences", type=int, default=None, help="first N clips of each talk")
    parser.add_argument(
        "--path",
        choices=["run", "recognizer", "microphone", "system"],
        default="run",
        help="run: --input, as fast as it goes; recognizer: in this process; microphone/system: played "
        "through a private PulseAudio server at speaking speed",
    )
    parser.add_argument("--set", action="append", default=[], help="key=value for the app's RecognizerOptions")
    parser.add_argument("--variant", action="append", default=[], help="NAME:key=value,... (repeatable)")
    parser.add_argument("--realtime", action="store_true", help="also run at speaking speed: latency, early share")
    parser.add_argument("--non-speech", type=float, default=0.0, metavar="MINUTES")
    parser.add_argument("--show-text", action="store_true")
    parser.add_argument(
        "--causal",
        type=int,
        nargs="?",
        const=0,
        metavar="AFTER",
        help="also faster-whisper with the audio up to each sentence's end (AFTER: the end of the "
        "AFTER-th sentence after it)",
    )
    parser.add_argument("--quick", action="store_true", help="3 English sentences, clean and pink 5 dB, tiny.en")
    args = parser.parse_args(argv)
    if args.quick:
        args.model, args.talks, args.conditions, args.sentences = "tiny.en", ["en"], list(degrade.QUICK), 3
    args.variants = [("app", ",".join(args.set))] + [tuple(v.split(":", 1)) for v in args.variant]
    return args


def main(argv: list[str] | None = None) -> list[dict]:
    args = parse_args(argv)

    model = load_whisper(args.model)
    load = os.getloadavg()
    print(f"Whisper {args.model}, app path: {args.path}; load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}")
    if args.causal:
        print(f"causal: each sentence read up to the end of the {args.causal}. sentence after it")
    print_header(args.variants)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.talks:
            talk = make_talk(name, Path(tmp), args.sentences, model)
            if talk.language == "zh":  # the Mandarin target counts the clips Whisper base can read
                talk.readable = readable_clips(talk, model)
            rows += bench_talk(talk, args, model, Path(tmp))
        if args.non_speech:
            count_non_speech(args, Path(tmp))
    load = os.getloadavg()
    print(f"load average at the end {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}")
    return rows


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--child":
        sys.exit(child(sys.argv[2], sys.argv[3:]))
    main()
