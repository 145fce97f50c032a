"""Live text while people speak: how early translated text shows, how much it changes, how late
the final comes, and what recognition costs; the short decode window against Whisper's 30 s
window (the peer) in the same run.

A held-out English talk (24 sentences not used by tests or other benches, espeak-ng, a pause
after each) is fed at speaking speed through `python -m app run --input talk.wav --realtime
--json` (Whisper base; `run` loads the translation model's fp32 graphs, as the window does).
The translation models (`--models`, each measured in turn): `memorised`, a small Marian that
learnt the talk's sentences by heart (the set-up of issue 30; trained once, ~1 min with torch,
then cached), so a final is translated right and a partial sentence gets the model's guess;
`neighbours`, the same recipe on 24 other sentences about the talk's subjects (it knows the
words, not the sentences: it guesses every sentence of the talk); `phrasebook`, the tests'
model, which knows none of the talk. Per model and variant:

- early: of the utterances longer than 2 s, the share whose first provisional translation came
  >= 1 s before the final translation;
- erasure: characters of shown translation taken back from one update to the next, over the
  characters of the finals (reading mode: only the settled part, `stable`, is shown);
- end of speech -> final translation, p50 / p95 (the `latency_ms` of final translations);
- partials and provisional translations per utterance;
- run CPU s per audio s: the `run` process's whole CPU time (loading included);
- recognition CPU s per audio s: StreamingRecognizer alone on the same talk in this process
  (read flat out: partials every 0.5 s of audio), process CPU time over audio seconds.

Variants: `shipped` (partials and finals read the utterance's window), `final30s` (finals read
Whisper's 30 s window with context: the default before), `30s` (partial and final decodes through
faster-whisper's transcribe, 30 s window: the path before issue 22), `sooner` / `smoother` (the
live-text choice and its ShowRule, app/pipeline/calm.py), `guesses` (shipped, but every
provisional translation shown whole) and `force`
(provisional translations settle by forcing the settled prefix, app/pipeline/calm.py, instead of
by agreement). `--busy-cores N` runs N busy-loop processes
beside (a browser, the call app). `--keep DIR` saves each run's events, for trying other
rules on the same timings (bench/live_text_replay.py).

    .venv/bin/python -m bench.live_text [--models memorised neighbours phrasebook] [--variants shipped smoother sooner]
        [--busy-cores 0] [--sentences 24] [--no-cpu] [--keep DIR]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

import numpy as np
import platformdirs
import soundfile as sf

from app.asr import RecognizerOptions, StreamingRecognizer, load_whisper
from app.pipeline import PipelineConfig
from app.pipeline.calm import RULES, CalmMode
from app.shared.audio import SAMPLE_RATE
from app.shared.live_text import LiveText
from bench._common import PHRASEBOOK as PHRASEBOOKS
from bench._common import ROOT, bench_command
from bench.busy import busy_cores

PHRASEBOOK = PHRASEBOOKS / "en-zh"  # the en-zh model of the phrasebook pair
MODELS = ("memorised", "neighbours", "phrasebook")
TALK = [  # (what is said, what the memorised model was taught to answer)
    ("Good afternoon and thank you all for joining this call today.", "下午好，感谢大家今天参加这次电话会议。"),
    ("I want to start with a short update on the warehouse project.", "我想先简单介绍一下仓库项目的最新情况。"),
    (
        "The new shelves arrived on Monday and most of them are already installed.",
        "新货架星期一到了，大部分已经装好了。",
    ),
    ("We still need two more days to finish the loading area.", "我们还需要两天才能完成装货区。"),
    ("After that the team will move the stock from the old building.", "之后团队会把库存从旧楼搬过来。"),
    ("Our main concern right now is the delivery schedule for next month.", "我们现在最担心的是下个月的送货安排。"),
    ("Some suppliers have told us that their trucks will be late.", "有些供应商告诉我们，他们的卡车会晚到。"),
    (
        "So we are looking for a second company that can help us in the meantime.",
        "所以我们正在找第二家公司，在此期间帮助我们。",
    ),
    (
        "If anyone knows a good local carrier, please send me their details.",
        "如果有人知道好的本地承运商，请把他们的联系方式发给我。",
    ),
    ("Next, I would like to talk about the budget.", "接下来，我想谈谈预算。"),
    ("We spent a little more than planned on the electrical work.", "我们在电力工程上的花费比计划的多一点。"),
    ("The good news is that the heating system cost less than expected.", "好消息是供暖系统的费用比预期的少。"),
    (
        "So overall we are still within the limits we agreed on in spring.",
        "所以总的来说，我们仍然在春天商定的范围之内。",
    ),
    ("Let me also say a few words about safety.", "我也想说几句关于安全的话。"),
    ("Everyone who works in the new building must wear a helmet.", "每个在新楼工作的人都必须戴安全帽。"),
    ("There will be a short training session on Wednesday morning.", "星期三上午会有一个简短的培训。"),
    ("It takes about one hour and it is required for all staff.", "培训大约一个小时，所有员工都必须参加。"),
    ("Finally, I want to thank the cleaning crew for their hard work.", "最后，我要感谢清洁人员的辛勤工作。"),
    ("The building looked very clean when the inspectors came last week.", "上周检查员来的时候，大楼看起来非常干净。"),
    ("They were happy with what they saw and we passed the inspection.", "他们对看到的情况很满意，我们通过了检查。"),
    ("Our next meeting will be on the first Friday of the month.", "我们的下一次会议将在本月的第一个星期五举行。"),
    ("Please prepare a short report on your part of the project.", "请就你负责的项目部分准备一份简短的报告。"),
    ("Does anyone have a question before we finish?", "在我们结束之前，有人有问题吗？"),
    ("Thank you, and have a good rest of the day.", "谢谢大家，祝大家今天余下的时间愉快。"),
]
# Another talk on the same subjects, in the talk's words but none of its sentences: a model that
# learnt these knows the vocabulary, like a real model, and has to guess every sentence of TALK.
NEIGHBOURS = [
    ("Good morning and thank you for coming to this meeting.", "早上好，感谢大家来参加这次会议。"),
    ("I want to give you a short update on the budget.", "我想给大家简单介绍一下预算的最新情况。"),
    ("The new office opened on Monday.", "新办公室星期一开业了。"),
    ("We still need more time to finish the report.", "我们还需要更多时间来完成报告。"),
    ("The team will move to the new building next month.", "团队下个月会搬到新楼。"),
    ("Our main concern is the cost of the project.", "我们最担心的是项目的成本。"),
    ("Some of our staff will be late today.", "我们有些员工今天会迟到。"),
    ("Please send me the details before Friday.", "请在星期五之前把详细信息发给我。"),
    ("Next, I would like to talk about safety.", "接下来，我想谈谈安全问题。"),
    ("We spent less than planned on the trucks.", "我们在卡车上的花费比计划的少。"),
    ("The good news is that the inspection went well.", "好消息是检查很顺利。"),
    ("Everyone must attend the training session.", "每个人都必须参加培训。"),
    ("It takes about two days to clean the warehouse.", "清理仓库大约需要两天。"),
    ("I want to thank the team for their hard work.", "我要感谢团队的辛勤工作。"),
    ("Does anyone have a question about the schedule?", "有人对日程安排有问题吗？"),
    ("Have a good weekend.", "周末愉快。"),
    ("The suppliers are happy with the new plan.", "供应商对新计划很满意。"),
    ("Our next report will be ready in the spring.", "我们的下一份报告将在春天准备好。"),
    ("Let me say a few words about the heating system.", "让我说几句关于供暖系统的话。"),
    ("We are looking for a new local company.", "我们正在找一家新的本地公司。"),
    ("The electrical work is almost finished.", "电力工程快完成了。"),
    ("Thank you all for joining today.", "感谢大家今天的参与。"),
    ("Please prepare your questions for the meeting.", "请为会议准备好你们的问题。"),
    ("The loading area is very clean.", "装货区非常干净。"),
]
VARIANTS = ("shipped", "guesses", "final30s", "30s", "sooner", "smoother", "force")


def make_talk(folder: Path, count: int, gap_s: float = 1.2) -> tuple[Path, float]:
    from faster_whisper import decode_audio

    parts = [np.zeros(SAMPLE_RATE // 2, np.float32)]
    for i, (text, _) in enumerate(TALK[:count]):
        clip = folder / f"talk{i}.wav"
        subprocess.run(["espeak-ng", "-v", "en-us", "-s", "165", "-w", str(clip), text], check=True)
        parts += [decode_audio(str(clip), sampling_rate=SAMPLE_RATE), np.zeros(int(gap_s * SAMPLE_RATE), np.float32)]
    audio = np.concatenate(parts)
    path = folder / "talk.wav"
    sf.write(path, audio, SAMPLE_RATE)
    return path, len(audio) / SAMPLE_RATE


def trained_model(name: str, phrases: list[tuple[str, str]]) -> Path:
    """An en->zh Marian that learnt `phrases` by heart (models/phrasebook.py's recipe: ~1 min of
    training with torch, then cached under a name and the phrases' digest)."""
    digest = hashlib.sha256(json.dumps(phrases, ensure_ascii=False).encode()).hexdigest()[:12]
    folder = Path(platformdirs.user_cache_dir("live-translator-bench")) / f"{name}-{digest}"
    if not (folder / "en-zh").is_dir():
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "phrases.json").write_text(json.dumps({"phrases": phrases}, ensure_ascii=False), encoding="utf-8")
        train = [sys.executable, "-m", "models.phrasebook", "--out", str(folder), "--directions", "en-zh"]
        subprocess.run([*train, "--phrases", str(folder / "phrases.json")], check=True, cwd=ROOT, capture_output=True)
    return folder / "en-zh"


def model_folder(name: str) -> Path:
    """`memorised`: learnt TALK by heart (the issue's set-up: a final is translated right, a partial
    sentence gets the model's guess); `neighbours`: learnt NEIGHBOURS, the same subjects in other
    sentences; `phrasebook`: the tests' model, 36 everyday phrases, none of the talk."""
    if name == "memorised":
        return trained_model("talk", TALK)
    if name == "neighbours":
        return trained_model("neighbours", NEIGHBOURS)
    return PHRASEBOOK


def child(variant: str, argv: list[str]) -> int:
    """In the `run` process: apply the variant, then run the app's command line as it is."""
    from app.cli import main  # lazy: this module's own main() has the name

    paced = RecognizerOptions.paced
    pace = {"sooner": LiveText.SOONER, "smoother": LiveText.SMOOTHER}.get(variant)

    def variant_paced(self, live_text):
        options = paced(self, pace or live_text)
        if variant == "30s":
            options = replace(options, partial_window_margin_s=None, final_window_margin_s=None)
        elif variant == "final30s":
            options = replace(options, final_window_margin_s=None)
        return options

    RecognizerOptions.paced = variant_paced  # the pipeline builds its recognizer's options through paced()
    if variant in ("force", "guesses") or pace:  # `run` has no switch for them: its PipelineConfig gets them
        post_init = PipelineConfig.__post_init__

        def adjusted(self) -> None:
            post_init(self)
            if variant == "force":
                self.calm = CalmMode.FORCE
            if pace:
                self.live_text = pace  # also shows (sooner) or hides guessed translation tails
            if variant == "guesses":  # as shipped, but the guessed tails of provisional translations shown
                self.show_rule = replace(RULES[LiveText.BALANCED], show_guesses=True)

        PipelineConfig.__post_init__ = adjusted
    return main(argv)


def run_talk(wav: Path, variant: str, model: Path) -> tuple[list[dict], float]:
    """The run's events, and the CPU seconds its process used (loading included)."""
    cmd = [
        *bench_command(__spec__.name),
        "--child",
        variant,
        "run",
        "--input",
        str(wav),
        "--realtime",
        "--json",
        "--direction",
        "en-zh",
        "--nmt-model",
        str(model),
        "--no-tts",
        "--asr-model",
        "base",
    ]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=1800)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{variant}: run failed ({done.returncode}): {done.stderr[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")], cpu


def erased(texts: list[str]) -> int:
    taken, before = 0, ""
    for text in texts:
        same = 0
        for a, b in zip(before, text):
            if a != b:
                break
            same += 1
        taken += len(before) - same
        before = text
    return taken


def summarize(events: list[dict]) -> dict:
    finals = {e["utterance_id"]: e for e in events if e["type"] == "final" and e["text"].strip()}
    translations = [e for e in events if e["type"] == "translation"]
    done = {e["utterance_id"]: e for e in translations if not e["provisional"]}
    long_ids = [u for u, f in finals.items() if f["end"] - f["start"] > 2.0 and u in done]
    early = 0
    erasure = reading = chars = 0
    for u in done:
        live = [e for e in translations if e["utterance_id"] == u and e["provisional"]]
        if u in long_ids and live and done[u]["emitted_at"] - live[0]["emitted_at"] >= 1.0:
            early += 1
        shown = [e["text"] for e in live] + [done[u]["text"]]
        settled = [e["text"][: e["stable"]] for e in live] + [done[u]["text"]]
        erasure, reading, chars = erasure + erased(shown), reading + erased(settled), chars + len(done[u]["text"])
    latency = [e["latency_ms"] / 1000 for e in done.values() if e["latency_ms"] is not None]
    partials = sum(e["type"] == "partial" for e in events)
    provisional = sum(e["provisional"] for e in translations)
    return {
        "utterances": len(finals),
        "long": len(long_ids),
        "early": early,
        "erasure": erasure / max(chars, 1),
        "reading": reading / max(chars, 1),
        "p50": statistics.median(latency) if latency else float("nan"),
        "p95": float(np.percentile(latency, 95)) if latency else float("nan"),
        "partials": partials / max(len(finals), 1),
        "provisional": provisional / max(len(finals), 1),
    }


def recognition_cpu(wav: Path, variant: str) -> float:
    """CPU seconds per audio second of StreamingRecognizer alone, partials every 0.5 s of audio
    (read flat out, so the interval does not stretch)."""

    options = RecognizerOptions()
    if variant == "30s":
        options.partial_window_margin_s = options.final_window_margin_s = None
    elif variant == "final30s":
        options.final_window_margin_s = None
    audio, _ = sf.read(wav, dtype="float32")
    recognizer = StreamingRecognizer(load_whisper("base"), language="en", options=options)
    began = time.process_time()
    for i in range(0, len(audio), 1600):
        recognizer.feed(audio[i : i + 1600])
    recognizer.flush()
    return (time.process_time() - began) / (len(audio) / SAMPLE_RATE)


HEADER = (
    f"{'model':10} {'variant':9} {'early':>9} {'erasure':>8} {'reading':>8} {'p50 s':>6} {'p95 s':>6} "
    f"{'partials/utt':>12} {'prov/utt':>8} {'run cpu s/s':>11} {'asr cpu s/s':>11} {'load':>5}"
)


def measure(wav: Path, seconds: float, name: str, variant: str, cpu: bool, keep: Path | None) -> str:
    """One run of the talk: its row of the table (its events kept in `keep`, for bench/live_text_replay.py)."""
    events, run_cpu = run_talk(wav, variant, model_folder(name))
    if keep is not None:
        keep.mkdir(parents=True, exist_ok=True)
        lines = "".join(json.dumps(e, ensure_ascii=False) + "\n" for e in events)
        (keep / f"{name}-{variant}.jsonl").write_text(lines, encoding="utf-8")
    r = summarize(events)
    # recognition as shipped's, or paced: its CPU is not measured again
    same_recognition = variant in ("guesses", "sooner", "smoother", "force")
    asr = float("nan") if not cpu or same_recognition else recognition_cpu(wav, variant)
    return (
        f"{name:10} {variant:9} {r['early']:>4}/{r['long']:<4} {r['erasure']:8.3f} {r['reading']:8.3f} "
        f"{r['p50']:6.2f} {r['p95']:6.2f} {r['partials']:12.1f} {r['provisional']:8.1f} {run_cpu / seconds:11.2f} "
        f"{asr:11.2f} {os.getloadavg()[0]:5.1f}"
    )


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--child"]:
        return child(argv[1], argv[2:])
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variants", nargs="+", default=["shipped"], choices=VARIANTS)
    parser.add_argument("--busy-cores", type=int, default=0, help="busy-loop processes running beside")
    parser.add_argument("--sentences", type=int, default=len(TALK))
    parser.add_argument("--no-cpu", action="store_true", help="skip the recognition CPU measurement")
    parser.add_argument(
        "--models", nargs="+", choices=MODELS, default=list(MODELS), help="translation models (model_folder)"
    )
    parser.add_argument("--keep", type=Path, metavar="DIR", help="save each run's events as DIR/MODEL-VARIANT.jsonl")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        wav, seconds = make_talk(Path(tmp), args.sentences)
        with busy_cores(args.busy_cores):
            print(
                f"talk: {args.sentences} sentences, {seconds:.0f} s, fed at speaking speed through `run --realtime --json`; "  # noqa: E501
                f"Whisper base; Marian en->zh; {os.cpu_count()} cores; {args.busy_cores} busy-loop "
                f"processes beside; load average {os.getloadavg()[0]:.1f} at start",
                flush=True,
            )
            print(HEADER, flush=True)
            for name in args.models:
                for variant in args.variants:
                    print(measure(wav, seconds, name, variant, not args.no_cpu, args.keep), flush=True)
    print(
        "early: utterances > 2 s whose translated text showed >= 1 s before the final translation. "
        "erasure: shown translation characters taken back / final characters (reading: settled text only). "
        "p50/p95: end of speech -> final translation. run cpu: the `run` process's CPU s (loading included) "
        "per audio s. Targets (issue 32): early >= 80%, erasure <= 0.2 (reading <= 0.05), p50 <= 0.8 s, "
        "p95 <= 1.1 s, run CPU <= 0.5 s/s."
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
