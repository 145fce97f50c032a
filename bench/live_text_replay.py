"""Live text rules tried offline on a recorded run: what each rule would have shown.

`bench/live_text.py --keep DIR` saves each run's events. A provisional decode's `sentence`
events say what was translated and when; this decodes those texts again with the same model
(greedy, as the pipeline's provisional decodes are), feeds them through CalmText under each
rule, and scores what would have been shown against the run's own final translations, with
bench/live_text.py's measures (early, erasure, reading). Seconds instead of a 2-minute run per
rule; which partials get translated does not depend on the rule, so the timing is the run's.
(A decode the final cancelled left its sentence events too: it is replayed as if shown.)

    .venv/bin/python bench/live_text_replay.py DIR/neighbours-shipped.jsonl --model neighbours
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.pipeline.calm import RULES, CalmMode, CalmText, ShowRule, decoded_sentences, latin_word_boundary  # noqa: E402
from app.shared.live_text import LiveText  # noqa: E402
from bench.live_text import MODELS, model_folder, summarize  # noqa: E402


def provisional_decodes(events: list[dict]) -> list[dict]:
    """Each provisional decode of the run: utterance, the text translated, when it ended."""
    decodes = []
    for e in events:
        if e["type"] != "sentence" or not e["provisional"]:
            continue
        summary = e["summary"]
        if summary["index"] == 0 or not decodes or decodes[-1]["utterance_id"] != e["utterance_id"]:
            decodes.append({"utterance_id": e["utterance_id"], "sources": [], "at": 0.0})
        decodes[-1]["sources"].append(summary["source"])
        decodes[-1]["at"] = e["emitted_at"]
    return decodes


def provisional(translator, calm: CalmText, uid: int, source: str) -> tuple[str, int] | None:
    """One provisional decode of `source` through CalmText, as the translation stage does it."""
    from app.translation import DecodeOptions, SentenceResult
    from app.translation.translator import join_translations

    items = translator.stream(source, DecodeOptions(num_beams=1), forced=calm.forced(uid))
    results = [r for r in items if isinstance(r, SentenceResult)]
    pieces = [(r.translation, r.token_ids, r.token_p, r.token_ends) for r in results]
    text, _ = join_translations([(r.translation, r.low_confidence) for r in results], translator.joiner, strip=True)
    sentences = decoded_sentences(pieces, translator.joiner, translator.codec.skipped_ids)
    return calm.update(uid, sentences, text, latin_word_boundary if translator.joiner else None)


def replay(events: list[dict], translator, mode: str, rule: ShowRule, witness: bool = False) -> list[dict]:
    """The run's events with its provisional translations replaced by what `rule` shows. With
    `witness`, each decode is preceded by one of its source without the last word, given to
    CalmText as evidence and not shown (an agreement within one partial; not shipped)."""
    calm = CalmText(mode, rule)
    kept = [e for e in events if e["type"] != "translation" or not e["provisional"]]
    finished = {e["utterance_id"]: e["emitted_at"] for e in kept if e["type"] == "translation"}
    shown = []
    for decode in provisional_decodes(events):
        uid, source = decode["utterance_id"], " ".join(decode["sources"])
        if decode["at"] >= finished.get(uid, float("inf")):
            continue
        if witness and len(source.split()) > 2:
            provisional(translator, calm, uid, source.rsplit(maxsplit=1)[0])
        out = provisional(translator, calm, uid, source)
        if out is not None:
            entry = {"type": "translation", "provisional": True, "utterance_id": uid, "emitted_at": decode["at"]}
            shown.append({**entry, "text": out[0], "stable": out[1]})
    for e in kept:
        if e["type"] == "translation":
            calm.finish(e["utterance_id"])
    return kept + shown


def grid() -> dict[str, ShowRule]:
    """The shipped rules, the rule before issue 32, and a grid of others around them."""
    rules = {f"shipped-{choice.value}": rule for choice, rule in RULES.items()}
    rules["before"] = ShowRule(sure_p=0.9, agree_p=1.01, settle_p=0.9, settle_agreements=1)
    for agree, settle, depth in itertools.product((0.0, 0.3, 0.5, 0.7, 1.01), (0.5, 0.9), (1, 2, 3)):
        rules[f"agree{agree}-settle{settle}x{depth}"] = ShowRule(0.9, agree, settle, depth)
    for sure, agree in itertools.product((0.95, 0.99, 1.01), (0.0, 0.3, 0.5, 0.7)):
        rules[f"grow-only-sure{sure}-agree{agree}"] = ShowRule(sure, agree, 0.5, 2, grow_only=True)
    return rules


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("events", type=Path, nargs="+", help="a run's events (bench/live_text.py --keep)")
    parser.add_argument("--model", choices=MODELS, required=True)
    parser.add_argument("--modes", nargs="+", default=["agree"], choices=[m.value for m in CalmMode])
    parser.add_argument("--rules", nargs="*", help="only the rules with these names (default: all of grid())")
    parser.add_argument("--witness", action="store_true", help="a second decode without the last word as evidence")
    args = parser.parse_args(argv)
    from app.translation import Translator

    translator = Translator.load(model_folder(args.model), "en-zh")
    rules = {k: v for k, v in grid().items() if not args.rules or k in args.rules}
    rules["guesses-shown"] = replace(RULES[LiveText.BALANCED], show_guesses=True)
    print(f"{'rule':36} {'mode':6} {'early':>9} {'erasure':>8} {'reading':>8}  (events: {len(args.events)} runs)")
    for path in args.events:
        events = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
        for (name, rule), mode in itertools.product(rules.items(), args.modes):
            r = summarize(replay(events, translator, mode, rule, args.witness))
            print(f"{name:36} {mode:6} {r['early']:>4}/{r['long']:<4} {r['erasure']:8.3f} {r['reading']:8.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
