"""The natural (piper) English voice against espeak-ng, in one run, on this machine.

A private PulseAudio server of its own (bench/call_latency.py's SoundServer: the user's sound
server is never touched); each voice speaks the same English sentences through a SpeechOutput
to the speakers (its default sink), one at a time, as the app speaks a final translation, while
a recorder on the sink's monitor stamps when sound arrives. Per voice:

- intelligibility: Whisper's word error rate on what was heard on the speakers (Whisper base,
  the app's default recognizer, beam 5; run after the speech, so it takes no CPU from it);
- time from the final translation (`say()`) to the first sound on the speakers;
- CPU seconds (this process and its children: espeak-ng's `aplay`) per second of speech heard;
- memory: this process's resident set after the voice was loaded and spoke, over before.

    .venv/bin/python -m bench.voices [--sentences 12] [--voice piper:en_US-joe-medium --voice gmw/en-us]
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import time

import numpy as np

from app.asr import load_whisper
from app.shared.events import Error, Speech
from app.tts import SpeechOutput
from bench.call_latency import FRAME, RATE, Recorder, SoundServer

SENTENCES = [
    "Good morning, everyone, and welcome to the meeting.",
    "Could you send me the report before Friday?",
    "The train to the airport leaves every hour.",
    "I think we should try a different approach.",
    "My daughter starts school next September.",
    "Please turn left at the second traffic light.",
    "How much does a ticket to the museum cost?",
    "We need more time to finish the project.",
    "The weather will be cold and windy tomorrow.",
    "Thank you very much for your help today.",
    "Let us meet again after lunch.",
    "I have never seen such a beautiful garden.",
]
# espeak-ng first: the memory figure of each is what it adds to the process, piper over the system engine.
VOICES = ["gmw/en-us", "piper:en_US-joe-medium"]


def words(text: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"[^a-z0-9' ]", " ", text.lower())).strip()


def cpu_seconds() -> float:
    """This process's CPU time with its finished children's (espeak-ng plays through aplay)."""
    import psutil

    times = psutil.Process().cpu_times()
    return times.user + times.system + times.children_user + times.children_system


def rss_mb() -> float:
    import psutil

    return psutil.Process().memory_info().rss / 2**20


def voiced_span(audio: np.ndarray, threshold: float = 0.02) -> float:
    """Seconds from the first to the last voiced 20 ms frame."""
    frames = audio[: len(audio) // FRAME * FRAME].reshape(-1, FRAME)
    voiced = np.flatnonzero(np.sqrt(np.mean(frames**2, axis=1)) > threshold)
    return float((voiced[-1] - voiced[0] + 1) * FRAME / RATE) if len(voiced) else 0.0


def heard_between(recorder: Recorder, start: float, end: float) -> np.ndarray:
    parts = [
        block for arrived, block in list(recorder.blocks) if start <= arrived - len(block) / RATE and arrived <= end
    ]
    return np.concatenate(parts).astype(np.float32) if parts else np.zeros(0, np.float32)


def last_sound_after(recorder: Recorder, moment: float, threshold: float = 0.02) -> float | None:
    """When the last voiced 20 ms frame recorded after `moment` ended (monotonic seconds)."""
    last = None
    for arrived, block in list(recorder.blocks):
        start = arrived - len(block) / RATE
        for i in range(0, len(block) - FRAME + 1, FRAME):
            at = start + i / RATE
            if at >= moment and np.sqrt(np.mean(block[i : i + FRAME] ** 2)) > threshold:
                last = at + FRAME / RATE
    return last


def wait_for_quiet(recorder: Recorder, since: float, quiet_s: float = 0.5, timeout: float = 60.0) -> float:
    """Until sound was recorded after `since`, then `quiet_s` of silence; returns when the sound ended."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        last = last_sound_after(recorder, since)
        if last is not None and recorder.blocks and recorder.blocks[-1][0] >= last + quiet_s:
            return last
        time.sleep(0.1)
    raise TimeoutError("no sound, or no end of it, on the speakers")


def speak_all(voice: str, sentences: list[str], recorder: Recorder) -> dict:
    """One voice speaks every sentence to the speakers; what it cost, per sentence."""
    events: list = []
    before = rss_mb()
    output = SpeechOutput(voices={"en": voice}, on_event=events.append, echo_tail_s=0.0)
    output.start()
    loaded = time.monotonic()
    output.say("One moment, please.", "en")  # loads the engine and the voice: not a translation's latency
    assert output.wait_idle(120)
    wait_for_quiet(recorder, loaded)
    loaded = time.monotonic() - loaded
    result = {"voice": voice, "load_s": loaded, "latency": [], "cpu_per_s": [], "audio": []}
    for sentence in sentences:
        cpu, said = cpu_seconds(), time.monotonic()
        output.say(sentence, "en")
        assert output.wait_idle(120)
        ended = wait_for_quiet(recorder, said)
        cpu = cpu_seconds() - cpu
        audio = heard_between(recorder, said, ended + 0.2)
        spoken = voiced_span(audio)
        result["latency"].append(recorder.first_sound_after(said) - said)
        result["cpu_per_s"].append(cpu / spoken if spoken else float("nan"))
        result["audio"].append(audio)
    output.stop()
    result["rss_mb"] = rss_mb() - before
    result["voices_used"] = sorted({e.voice for e in events if isinstance(e, Speech)})
    result["errors"] = [e.text for e in events if isinstance(e, Error)]
    return result


def word_error_rates(results: list[dict], sentences: list[str]) -> None:
    import jiwer

    model = load_whisper("base")
    for result in results:
        result["heard"], result["wer"] = [], []
        for sentence, audio in zip(sentences, result["audio"]):
            segments, _ = model.transcribe(audio, language="en", beam_size=5, condition_on_previous_text=False)
            heard = words(" ".join(s.text for s in segments))
            result["heard"].append(heard)
            result["wer"].append(jiwer.wer(words(sentence), heard or "(nothing)"))


def report(results: list[dict], sentences: list[str], load: tuple) -> None:
    print(f"\n{len(sentences)} sentences per voice; load average {load[0]:.2f} at the start, {load[1]:.2f} at the end")
    print(
        "| voice | WER (Whisper base) | translation → first sound, p50 (max) | CPU s per spoken s, p50 | RSS + | load |"
    )
    print("|---|---|---|---|---|---|")
    for r in results:
        total = statistics.fmean(r["wer"])
        print(
            f"| {r['voice']} | {total:.3f} ({sum(w == 0 for w in r['wer'])}/{len(r['wer'])} exact) "
            f"| {1000 * statistics.median(r['latency']):.0f} ms ({1000 * max(r['latency']):.0f} ms) "
            f"| {statistics.median(r['cpu_per_s']):.2f} | {r['rss_mb']:.0f} MB | {r['load_s']:.1f} s |"
        )
    for r in results:
        print(f"\n{r['voice']} (spoken by {r['voices_used']}, errors {r['errors']}):")
        for sentence, heard, wer in zip(sentences, r["heard"], r["wer"]):
            if wer:
                print(f"  {wer:.2f}  said {words(sentence)!r}, heard {heard!r}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sentences", type=int, default=len(SENTENCES))
    parser.add_argument("--voice", action="append", help=f"a voice to measure (default: {' and '.join(VOICES)})")
    args = parser.parse_args(argv)
    sentences = SENTENCES[: args.sentences]
    load_start = os.getloadavg()[0]
    with SoundServer():
        recorder = Recorder("speakers.monitor")
        recorder.start()
        recorder.ready.wait(10)
        results = [speak_all(voice, sentences, recorder) for voice in args.voice or VOICES]
        recorder.quit.set()
    load_end = os.getloadavg()[0]
    word_error_rates(results, sentences)
    report(results, sentences, (load_start, load_end))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
