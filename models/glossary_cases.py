"""Glossary cases that the tests and the benches share (bench/glossary.py, bench/glossary_size.py):
a held-out list of sentences whose glossary term the committed models do not write on their own,
the matching the app did before the automaton (one regular expression per entry per sentence: the
tests' reference and the benches' peer), made-up glossaries of any size, and a thread that
measures how long Python's lock was held from it."""

from __future__ import annotations

import random
import re
import threading
import time
from pathlib import Path

from app.shared.chinese import to_simplified
from app.shared.glossary import Glossary
from app.shared.glossary_match import chinese_key, english_key
from app.shared.languages import Direction, Language

FIXTURES = Path(__file__).resolve().parents[1] / "tests" / "fixtures"
PHRASEBOOK = FIXTURES / "phrasebook"

GLOSSARY = Glossary.parse(
    "\n".join(
        [
            "weather\t天气",
            "Chinese\t中文",
            "meeting\t会议",
            "report\t报告",
            "everyone\t大家",
            "coffee\t茶",
            "morning\t晚上",
            "computer\t老师",  # phrasebook: targets its vocabulary can write, not its answers
            "Peking\t北京",
            "laptop\t电脑",
            "espresso\t咖啡",
            "fellow\t朋友",
        ]
    )
)

# (model folder, direction, held-out sentence, the targets that must appear)
HELD_OUT = [
    *[
        (FIXTURES / "nmt" / f / "merged", "en-zh", text, targets)
        for f in ("marian-en-zh", "m2m100")
        for text, targets in [
            ("The weather is nice today.", ["天气"]),
            ("I am learning Chinese.", ["中文"]),
            ("Hello, everyone.", ["大家"]),
            (
                "Good morning, everyone, and welcome to the meeting; today we will talk about the report.",
                ["晚上", "大家", "会议", "报告"],
            ),
        ]
    ],
    *[
        (FIXTURES / "nmt" / f / "merged", "zh-en", text, targets)
        for f in ("marian-zh-en", "m2m100")
        for text, targets in [
            ("今天天气很好。", ["weather"]),
            ("我在学中文。", ["Chinese"]),
            ("欢迎参加会议。", ["meeting"]),
            ("报告写完了，请把文件发给我。", ["report"]),
        ]
    ],
    (PHRASEBOOK / "en-zh", "en-zh", "She likes coffee.", ["茶"]),
    (PHRASEBOOK / "en-zh", "en-zh", "I drink tea every morning.", ["晚上"]),
    (PHRASEBOOK / "en-zh", "en-zh", "The computer is broken.", ["老师"]),
    (PHRASEBOOK / "zh-en", "zh-en", "我来自北京。", ["Peking"]),
    (PHRASEBOOK / "zh-en", "zh-en", "电脑坏了。", ["laptop"]),
    (PHRASEBOOK / "zh-en", "zh-en", "她喜欢咖啡。", ["espresso"]),
    (PHRASEBOOK / "zh-en", "zh-en", "他是我的朋友。", ["fellow"]),
]


def reference_matches(glossary: Glossary, text: str, direction: str) -> list[tuple[str, str, int, int]]:
    """The matching app.shared.glossary did before: one regular expression per entry per sentence."""
    direction = Direction.parse(direction)
    key_of = english_key if direction.source is Language.EN else chinese_key
    chosen = {}
    for entry in glossary.active():
        chosen.setdefault(key_of(entry), entry)
    found = []
    for entry in chosen.values():
        if direction.source is Language.EN:
            words = [re.escape(w) for w in entry.english.split()]
            pattern = r"(?<![A-Za-z0-9])" + r"\s+".join(words) + r"(?![A-Za-z0-9])"
            spans = [(m.start(), m.end()) for m in re.finditer(pattern, text, 0 if entry.case_sensitive else re.I)]
        else:
            term, spans = chinese_key(entry), set()
            for form in dict.fromkeys((term, to_simplified(term))):
                start = text.find(form)
                while form and start >= 0:
                    spans.add((start, start + len(form)))
                    start = text.find(form, start + 1)
            spans = sorted(spans)
        found += [(entry, start, end) for start, end in spans]
    found.sort(key=lambda m: (m[1], -(m[2] - m[1])))
    result, covered_to, used = [], -1, set()
    for entry, start, end in found:
        if start >= covered_to and id(entry) not in used:
            result.append((entry.side(direction.source), entry.side(direction.target), start, end))
            used.add(id(entry))
            covered_to = end
        elif start >= covered_to:
            covered_to = end
    return result


LETTERS = "abcdefghijklmnopqrstuvwxyz"
HAN = "的一是不了人我在有他这中大来上个国到说们为子和你地出道也时年得就那要下以生会"


def big_glossary(entries: int) -> str:
    """Made-up terms, English and Chinese (none of them in the sentences spoken), and one real one."""
    rng = random.Random(42)
    made = (
        "".join(rng.choices(LETTERS, k=rng.randint(5, 12))) + f" x{n}\t" + "".join(rng.choices(HAN, k=5))
        for n in range(entries - 1)
    )
    return "\n".join(made) + "\nKubernetes\t库伯内特斯\n"


class Ticker:
    """A thread that wakes every 5 ms, as recognition's Python code needs Python's lock between
    Whisper passes; the longest it had to wait is the longest any thread was held up."""

    def __init__(self):
        self.longest, self._stop = 0.0, threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        last = time.perf_counter()
        while not self._stop.is_set():
            time.sleep(0.005)
            now = time.perf_counter()
            self.longest, last = max(self.longest, now - last), now

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()
