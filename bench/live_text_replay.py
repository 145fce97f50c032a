"""Live text rules tried offline on a recorded run: what each rule would have shown.

`bench/live_text.py --keep DIR` saves each run's events. A provisional decode's `sentence`
events say what was translated and when; this decodes those texts again with the same model
(greedy, as the pipeline's provisional decodes are), feeds them through CalmText under each
rule, and scores what would have been shown against the run's own final translations, with
bench/live_text.py's measures (early, erasure, reading). Seconds instead of a 2-minute run per
rule; which partials get translated does not depend on the rule, so the timing is the run's.
(A decode the final cancelled left its sentence events too: it is replayed as if shown.)

    .venv/bin/python -m bench.live_text_replay DIR/neighbours-shipped.jsonl --model neighbours
"""

from __future__ import annotations

import argparse
import fnmatch
import itertools
import json
import time
from dataclasses import dataclass, replace
from pathlib import Path

from app.pipeline.calm import RULES, CalmMode, CalmText, ShowRule, latin_word_boundary
from app.pipeline.translation import WITNESS_DROPS, calm_sentences
from app.shared.live_text import LiveText
from app.translation import DecodeOptions, Translator
from app.translation.results import join_translations
from bench.live_text import MODELS, model_folder, summarize


@dataclass(frozen=True)
class Strategy:
    """What a provisional decode translates, and when a witness decode backs it (for a rule with
    `witness_p` <= 1: the rest ignore a witness).

    source: `text` (the partial, as shipped), `committed` (recognition's committed prefix when
    there is one, else the partial) or `committed-only` (nothing until something is committed);
    witness: `unshown` (while nothing of the utterance is shown and the decode alone would not
    show all: CalmText.wants_witness, as shipped), `first` (the utterance's first provisional
    decode only) or `all`. The witness decodes the source less its last `drop` words (shipped:
    WITNESS_DROPS) or, with `committed_witness`, recognition's committed prefix when shorter."""

    source: str = "text"
    witness: str = "unshown"
    drop: int = WITNESS_DROPS
    committed_witness: bool = False


STRATEGIES = {
    "shipped": Strategy(),
    "committed": Strategy(source="committed"),
    "committed-only": Strategy(source="committed-only"),
    "witness-first": Strategy(witness="first"),
    "witness-all": Strategy(witness="all"),
    "witness-drop1": Strategy(drop=1),
    "witness-first-drop1": Strategy(witness="first", drop=1),
    "witness-committed": Strategy(committed_witness=True),
}


def provisional_decodes(events: list[dict]) -> list[dict]:
    """Each provisional decode of the run: utterance, the text translated, when it ended, and
    the committed prefix of the partial it translated."""
    decodes, partials = [], {}
    for e in events:
        if e["type"] == "partial":
            partials.setdefault(e["utterance_id"], []).append(e)
        if e["type"] != "sentence" or not e["provisional"]:
            continue
        summary = e["summary"]
        if summary["index"] == 0 or not decodes or decodes[-1]["utterance_id"] != e["utterance_id"]:
            decodes.append({"utterance_id": e["utterance_id"], "sources": [], "at": 0.0})
        decodes[-1]["sources"].append(summary["source"])
        decodes[-1]["at"] = e["emitted_at"]
        decodes[-1]["committed"] = committed_of(" ".join(decodes[-1]["sources"]), partials.get(e["utterance_id"], []))
    return decodes


def committed_of(source: str, partials: list[dict]) -> str:
    """The committed prefix of the latest partial whose text is `source` ("" when none is)."""
    words = source.split()
    match = [p for p in partials if p["text"].split() == words]
    return match[-1]["committed"].strip() if match else ""


def decode(translator, calm: CalmText, uid: int, source: str, provisional: bool = True) -> tuple[list, str]:
    """One decode of `source` as the translation stage makes it (greedy, as `run` decodes finals
    too by default; a provisional one with CalmText's forced tokens): (sentences, text)."""

    forced = calm.forced(uid) if provisional else []
    results = list(translator.stream(source, DecodeOptions(num_beams=1), forced=forced))
    text, _ = join_translations([(r.translation, r.low_confidence) for r in results], translator.joiner, strip=True)
    return calm_sentences(translator, results), text


class Replayer:
    """One rule and strategy over a run's provisional decodes, as the translation stage would do them."""

    def __init__(self, translator, mode: str, rule: ShowRule, strategy: Strategy):
        self.translator, self.strategy = translator, strategy
        self.calm = CalmText(mode, rule)
        self.decodes: dict[int, int] = {}  # provisional decodes per utterance
        self.witnesses = 0

    def source(self, decode_: dict) -> str:
        text, committed = " ".join(decode_["sources"]), decode_.get("committed", "")
        if self.strategy.source == "committed-only":
            return committed
        return committed if self.strategy.source == "committed" and committed else text

    def witness_source(self, source: str, committed: str) -> str:
        if self.strategy.committed_witness and committed and len(committed) < len(source):
            return committed
        words = source.split()
        return " ".join(words[: -self.strategy.drop]) if len(words) > self.strategy.drop + 1 else ""

    def wants_witness(self, uid: int, sentences: list) -> bool:
        if self.calm.rule.witness_p > 1:
            return False
        if self.strategy.witness == "first":
            return self.decodes.get(uid, 0) == 0
        return self.strategy.witness == "all" or self.calm.wants_witness(uid, sentences, key="en-zh")

    def finish(self, final: dict) -> None:
        """A final translation is in, as the translation stage finishes it (its source decoded again
        as the final was, for the length it teaches LengthRatio)."""
        sentences, _ = decode(self.translator, self.calm, final["utterance_id"], final["source"], provisional=False)
        self.calm.finish(final["utterance_id"], sentences, "en-zh")

    def shown(self, decode_: dict) -> tuple[tuple[str, int] | None, float]:
        """What this decode shows, and the seconds a witness decode added before it."""
        uid, source = decode_["utterance_id"], self.source(decode_)
        if not source:
            return None, 0.0
        sentences, text = decode(self.translator, self.calm, uid, source)
        witness, spent = None, 0.0
        other = self.witness_source(source, decode_.get("committed", ""))
        if other and self.wants_witness(uid, sentences):
            began = time.perf_counter()
            witness, _ = decode(self.translator, self.calm, uid, other)
            spent = time.perf_counter() - began
            self.witnesses += 1
        self.decodes[uid] = self.decodes.get(uid, 0) + 1
        boundary = latin_word_boundary if self.translator.joiner else None
        return self.calm.update(uid, sentences, text, boundary, witness=witness, key="en-zh"), spent


def replay(events: list[dict], translator, mode: str, rule: ShowRule, strategy: Strategy = Strategy()) -> list[dict]:
    """The run's events with its provisional translations replaced by what `rule` shows under
    `strategy` (a witness decode's own time delays what it backs)."""
    replayer = Replayer(translator, mode, rule, strategy)
    kept = [e for e in events if e["type"] != "translation" or not e["provisional"]]
    finished = {e["utterance_id"]: e["emitted_at"] for e in kept if e["type"] == "translation"}
    finals = sorted((e for e in kept if e["type"] == "translation"), key=lambda e: e["emitted_at"])
    shown = []
    for decode_ in provisional_decodes(events):
        uid = decode_["utterance_id"]
        if decode_["at"] >= finished.get(uid, float("inf")):
            continue
        while finals and finals[0]["emitted_at"] <= decode_["at"]:  # the finals in by then, in order
            replayer.finish(finals.pop(0))
        out, spent = replayer.shown(decode_)
        if out is not None:
            entry = {
                "type": "translation",
                "provisional": True,
                "utterance_id": uid,
                "emitted_at": decode_["at"] + spent,
            }
            shown.append({**entry, "text": out[0], "stable": out[1]})
    for e in finals:
        replayer.finish(e)
    count = sum(e["type"] == "final" for e in events)
    kept.append({"type": "replay", "witnesses_per_utterance": replayer.witnesses / max(count, 1)})
    return kept + shown


def grid() -> dict[str, ShowRule]:
    """The shipped rules, the rule before issue 32, and a grid of others around them."""
    rules = {f"shipped-{choice.value}": rule for choice, rule in RULES.items()}
    rules["before"] = ShowRule(sure_p=0.9, agree_p=1.01, settle_p=0.9, settle_agreements=1)
    balanced, smoother = RULES[LiveText.BALANCED], RULES[LiveText.SMOOTHER]
    for witness in (0.0, 0.3, 0.5, 0.7, 0.8, 0.9, 0.95):
        rules[f"balanced-witness{witness}"] = replace(balanced, witness_p=witness)
        rules[f"smoother-witness{witness}"] = replace(smoother, witness_p=witness)
    for sure in (0.5, 0.7, 0.8):
        rules[f"balanced-sure{sure}"] = replace(balanced, sure_p=sure)
    for agree, settle, depth in itertools.product((0.0, 0.3, 0.5, 0.7, 1.01), (0.5, 0.9), (1, 2, 3)):
        rules[f"agree{agree}-settle{settle}x{depth}"] = ShowRule(0.9, agree, settle_p=settle, settle_agreements=depth)
    for sure, agree in itertools.product((0.95, 0.99, 1.01), (0.0, 0.3, 0.5, 0.7)):
        rules[f"grow-only-sure{sure}-agree{agree}"] = ShowRule(
            sure, agree, settle_p=0.5, settle_agreements=2, grow_only=True
        )
    rules["guesses-shown"] = replace(balanced, show_guesses=True)
    for lead in (0.4, 0.5, 0.6, 0.7, 0.8, 1.0, 1.2):
        rules[f"balanced-lead{lead}"] = replace(balanced, lead=lead)
        rules[f"smoother-lead{lead}"] = replace(smoother, lead=lead)
    for lead, sure, witness in itertools.product((0.5, 0.6, 0.7), (0.5, 0.7, 0.8, 0.9), (0.5, 0.7, 1.01)):
        rules[f"lead{lead}-sure{sure}-witness{witness}"] = replace(balanced, lead=lead, sure_p=sure, witness_p=witness)
    for lead in (0.4, 0.5, 0.6, 0.7):
        rules[f"lead{lead}-guesses"] = replace(balanced, lead=lead, show_guesses=True)
    return rules


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("events", type=Path, nargs="+", help="a run's events (bench/live_text.py --keep)")
    parser.add_argument("--model", choices=MODELS, required=True)
    parser.add_argument("--modes", nargs="+", default=["agree"], choices=[m.value for m in CalmMode])
    parser.add_argument("--rules", nargs="*", help="only grid()'s rules with these names (shell patterns; default all)")
    parser.add_argument(
        "--strategies", nargs="+", default=["shipped"], choices=list(STRATEGIES), help="what is decoded (Strategy)"
    )
    args = parser.parse_args(argv)

    translator = Translator.load(model_folder(args.model), "en-zh")
    rules = {k: v for k, v in grid().items() if not args.rules or any(fnmatch.fnmatch(k, r) for r in args.rules)}
    print(
        f"{'rule':36} {'strategy':26} {'mode':6} {'early':>9} {'erasure':>8} {'reading':>8} {'witness/utt':>11}"
        f"  (events: {len(args.events)} runs)"
    )
    for path in args.events:
        events = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
        print(f"-- {path}")
        for (name, rule), strategy, mode in itertools.product(rules.items(), args.strategies, args.modes):
            if rule.witness_p > 1 and STRATEGIES[strategy].source == "text" and strategy != "shipped":
                continue  # a witness strategy, for a rule that takes no witness: the same as shipped
            replayed = replay(events, translator, mode, rule, STRATEGIES[strategy])
            r = summarize(replayed)
            witnesses = next(e["witnesses_per_utterance"] for e in replayed if e["type"] == "replay")
            print(
                f"{name:36} {strategy:26} {mode:6} {r['early']:>4}/{r['long']:<4} {r['erasure']:8.3f} "
                f"{r['reading']:8.3f} {witnesses:11.1f}",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
