"""Final text accuracy of streaming recognition vs faster-whisper's whole-file pass.

For each language, 20+ sentences (not the ones the tests use) are spoken by espeak-ng
(English: en-us; Mandarin: `cmn-latn-pinyin`, reading the sentences' pinyin with tone numbers
from pypinyin) into one 16 kHz file with a
pause after each. The file is then
- transcribed whole by faster-whisper (same model, beam 5, its
  own VAD filter): the peer;
- fed through StreamingRecognizer as fast as it goes, once per variant:
    shipped RecognizerOptions() as it ships (add "+final30s", "+30s", "+minN" or "+beamN": see variant_options)
    today   the final keeps the prefix partials committed, no prompt (the rule before issue 17)
    truth   the final decode is the truth and may revise committed text, no prompt
    truth+context  `truth`, the final decode given context: the utterances before (their audio
            before this one's, RecognizerOptions.context_s) with their final text as the forced
            prefix, and earlier finals
            (200 characters) as the prompt; in every language here (the default gives context
            in English only, from these figures)
    agree+1 like `today`, but one more agreeing hypothesis is needed to commit.

Reported per variant: WER (English) / CER (Mandarin) of the finals against the text spoken,
the whole-file pass's, their difference; how many finals revised committed text; and the
normalized erasure of the source text shown: units (words, or CJK characters) taken back
from one shown text to the next, over the units of the finals. `partials` counts only
partial -> partial changes; `+final` adds the last partial -> final change (a revision).

    .venv/bin/python -m bench.asr_accuracy [--model base] [--languages en zh] [--variants today truth agree+1]
    .venv/bin/python -m bench.asr_accuracy --model tiny.en --languages en --variants shipped --sentences 2  # seconds
"""

from __future__ import annotations

import argparse
import re
import subprocess
import tempfile
import time
from pathlib import Path

import jiwer
import numpy as np
import soundfile as sf

from app.asr import RecognizerOptions, StreamingRecognizer, load_whisper, recognize
from app.asr.units import common_prefix, units_of
from app.audio import SAMPLE_RATE, FileSource
from app.shared.chinese import to_simplified
from app.shared.events import SourceFinal, SourcePartial

ENGLISH = [
    "The shop opens at nine o'clock every morning.",
    "Could you bring me the red folder from my desk?",
    "My brother lives in a small town near the coast.",
    "We missed the last train and had to take a taxi.",
    "Please turn off the lights when you leave the room.",
    "The children played football in the park until dark.",
    "I forgot my umbrella, so I got wet on the way home.",
    "She has been learning to play the piano for three years.",
    "The doctor said I should drink more water.",
    "Our flight was delayed by two hours because of the snow.",
    "Can you tell me how to get to the museum?",
    "He usually reads the newspaper after breakfast.",
    "The meeting has been moved to Thursday afternoon.",
    "There are five apples and four oranges in the basket.",
    "I need to buy some bread and cheese for dinner.",
    "The new library will open next spring.",
    "Remember to send the report before Friday.",
    "Her sister works as a nurse at the city hospital.",
    "We watched an old movie and went to bed early.",
    "The price of vegetables has gone up this month.",
    "Do not forget to water the plants while I am away.",
    "The teacher asked the students to close their books.",
]
MANDARIN = [
    "我们明天早上九点在火车站见面。",
    "请把桌子上的红色文件夹拿给我。",
    "我的哥哥住在海边的一个小城市。",
    "今天下午的会议改到星期四了。",
    "你能告诉我去博物馆怎么走吗？",
    "孩子们在公园里玩到天黑。",
    "医生说我应该多喝水。",
    "因为下雪，我们的航班推迟了两个小时。",
    "离开房间的时候请关灯。",
    "她学习弹钢琴已经三年了。",
    "我忘了带伞，回家的路上淋湿了。",
    "篮子里有五个苹果和四个橘子。",
    "我要去超市买面包和牛奶。",
    "新的图书馆明年春天开放。",
    "请在星期五之前把报告发给我。",
    "她的妹妹在市医院当护士。",
    "这个月蔬菜的价格上涨了。",
    "老师让学生们把书合上。",
    "我每天晚上都会给妈妈打电话。",
    "这家饭馆的饺子非常好吃。",
    "周末我们一起去爬山吧。",
    "他每天早饭以后看报纸。",
]
SETS = {"en": ("en-us", ENGLISH), "zh": ("cmn-latn-pinyin", MANDARIN)}


def spoken(text: str, language: str) -> str:
    """What espeak-ng reads: the text, or for Mandarin its pinyin with tone numbers."""
    if language != "zh":
        return text
    from pypinyin import Style, lazy_pinyin

    syllables = lazy_pinyin(text, style=Style.TONE3, neutral_tone_with_five=True)
    syllables = ["de5" if s == "di1" else s for s in syllables]  # 的: pypinyin reads "我的哥哥" as di1
    return re.sub(
        r"\s+([,.])", r"\1", " ".join({"，": ",", "。": ".", "？": ".", "！": "."}.get(s, s) for s in syllables)
    )


def make_audio(language: str, folder: Path, texts: list[str], gap_s: float = 1.0) -> Path:
    from faster_whisper import decode_audio

    voice = SETS[language][0]
    gap = np.zeros(int(gap_s * SAMPLE_RATE), np.float32)
    parts = [gap[: SAMPLE_RATE // 2]]
    for i, text in enumerate(texts):
        wav = folder / f"{language}{i}.wav"
        subprocess.run(["espeak-ng", "-v", voice, "-w", str(wav), spoken(text, language)], check=True)
        parts += [decode_audio(str(wav), sampling_rate=SAMPLE_RATE), gap]
    path = folder / f"{language}.wav"
    sf.write(str(path), np.concatenate(parts), SAMPLE_RATE)
    return path


def normalize(text: str, language: str) -> str:
    """Words (English: lower case, no punctuation) or characters (Mandarin: Simplified, no punctuation)."""
    if language == "zh":
        return re.sub(r"[\W_]+", "", to_simplified(text))
    text = text.lower().replace("o'clock", "oclock")
    return re.sub(r"\s+", " ", re.sub(r"[^\w\s']", " ", text)).strip()


def error_rate(reference: list[str], hypothesis: str, language: str) -> float:
    ref = " ".join(normalize(t, language) for t in reference)
    hyp = normalize(hypothesis, language)
    if language == "zh":
        return jiwer.cer(ref.replace(" ", ""), hyp)
    return jiwer.wer(ref, hyp)


def erasure(events: list) -> tuple[int, int, int]:
    """(units erased partial->partial, units erased partial->final, units in the finals)."""
    shown: dict[int, list[str]] = {}
    partial_erased = final_erased = final_units = 0
    for e in events:
        if not isinstance(e, (SourcePartial, SourceFinal)):
            continue
        units = units_of(e.text)
        before = shown.get(e.utterance_id)
        if before is not None:
            erased = len(before) - common_prefix(before, units)
            if isinstance(e, SourceFinal):
                final_erased += erased
            else:
                partial_erased += erased
        shown[e.utterance_id] = units
        if isinstance(e, SourceFinal):
            final_units += len(units)
    return partial_erased, final_erased, final_units


def variant_options(name: str) -> RecognizerOptions:
    """A variant's options. Suffixes after a name: "+final30s": the final decode reads Whisper's 30 s
    window (the default before issue 22's windowed finals); "+30s": partials read 30 s too;
    "+minN": every window is at least N s (app.asr.window); "+beamN": the final decode's beam."""
    options = RecognizerOptions()
    while "+" in name and name.rsplit("+", 1)[1] in ("final30s", "30s") or re.search(r"\+(min|beam)\d+$", name):
        name, suffix = name.rsplit("+", 1)
        if suffix == "final30s":
            options.final_window_margin_s = None
        elif suffix == "30s":
            options.partial_window_margin_s = options.final_window_margin_s = None
        elif suffix.startswith("beam"):
            options.final_beam = dict.fromkeys(options.final_beam, int(suffix.removeprefix("beam")))
        else:
            options.min_window_s = float(suffix.removeprefix("min"))
    if name == "shipped":
        return options
    if name in ("today", "agree+1"):
        options.revise_committed, options.context_chars = False, {}
    if name == "agree+1":
        options.agreement = {k: v + 1 for k, v in options.agreement.items()}
    elif name == "truth":
        options.context_chars = {}
    elif name == "truth+context":
        options.context_chars = {"en": 200, "zh": 200}
    elif name != "today":
        raise SystemExit(f"unknown variant {name}")
    return options


def bench_language(model, language: str, path: Path, variants: list[str], texts: list[str]) -> list[dict]:
    beam = 5  # faster-whisper's default for a whole file
    t0 = time.perf_counter()
    segments, _ = model.transcribe(str(path), language=language, beam_size=beam, vad_filter=True)
    whole = " ".join(s.text.strip() for s in segments)
    whole_s = time.perf_counter() - t0
    rows = [
        {
            "language": language,
            "variant": "whole-file",
            "error": error_rate(texts, whole, language),
            "seconds": whole_s,
            "text": whole,
        }
    ]
    for name in variants:
        t0 = time.perf_counter()
        events = list(
            recognize(
                FileSource(path, realtime=False),
                StreamingRecognizer(model, language=language, options=variant_options(name)),
            )
        )
        seconds = time.perf_counter() - t0
        finals = [e for e in events if isinstance(e, SourceFinal)]
        text = " ".join(e.text for e in finals)
        partial_erased, final_erased, units = erasure(events)
        last_partial = {e.utterance_id: e.text for e in events if isinstance(e, SourcePartial)}
        rows.append(
            {
                "language": language,
                "variant": name,
                "error": error_rate(texts, text, language),
                "seconds": seconds,
                "finals": len(finals),
                "revised": sum(bool(e.revised) for e in finals),
                "erasure_partials": partial_erased / max(units, 1),
                "erasure_all": (partial_erased + final_erased) / max(units, 1),
                "text": text,
                "partial_error": error_rate(texts, " ".join(last_partial.values()), language),
            }
        )
    return rows


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="base")
    parser.add_argument("--languages", nargs="+", default=["en", "zh"], choices=sorted(SETS))
    parser.add_argument("--variants", nargs="+", default=["shipped", "shipped+final30s", "shipped+30s"])
    parser.add_argument("--show-text", action="store_true")
    parser.add_argument("--sentences", type=int, help="only the first N sentences of each language (default all)")
    args = parser.parse_args(argv)
    model = load_whisper(args.model)
    rows = []
    chosen = {language: texts[: args.sentences] for language, (_, texts) in SETS.items()}
    with tempfile.TemporaryDirectory() as tmp:
        for language in args.languages:
            path = make_audio(language, Path(tmp), chosen[language])
            rows += bench_language(model, language, path, args.variants, chosen[language])
    print(
        f"\nWhisper {args.model}; {len(chosen['en'])} English / {len(chosen['zh'])} Mandarin sentences (espeak-ng); "
        "error = WER (en) / CER (zh) against the text spoken"
    )
    print(
        f"{'lang':4} {'variant':13} {'error':>6} {'vs whole':>8} {'finals':>6} {'revised':>7} "
        f"{'erasure partials':>16} {'+final':>6} {'seconds':>7} {'last partial error':>18}"
    )
    whole = {}
    for r in rows:
        if r["variant"] == "whole-file":
            whole[r["language"]] = r["error"]
            print(
                f"{r['language']:4} {'whole-file':13} {r['error']:6.3f} {'':>8} {'':>6} {'':>7} {'':>16} {'':>6} "
                f"{r['seconds']:7.1f}"
            )
            continue
        print(
            f"{r['language']:4} {r['variant']:13} {r['error']:6.3f} {r['error'] - whole[r['language']]:+8.3f} "
            f"{r['finals']:6d} {r['revised']:7d} {r['erasure_partials']:16.3f} {r['erasure_all']:6.3f} "
            f"{r['seconds']:7.1f} {r['partial_error']:18.3f}"
        )
    print(
        "last partial error: the last partial of each utterance against the text spoken (what was "
        "shown before the final)"
    )
    if args.show_text:
        for r in rows:
            print(f"\n[{r['language']} {r['variant']}] {r['text']}")


if __name__ == "__main__":
    main()
