"""The engine reproduces transformers' generate() token for token, in every fixture layout,
for greedy and beam search under several generation settings; cached and uncached logits agree."""

from __future__ import annotations

import pytest

from app.shared.glossary import Glossary
from app.translation import DecodeOptions
from app.translation.search import find_loop

from .conftest import all_layout_params, cases, family_dir, generate_settings, translator

PARAMS = all_layout_params()
# With a glossary active the search must still be generate's, token for token, for sentences
# without a term: an empty glossary, and one none of whose terms the references contain (every
# layout; the empty one on the merged layouts, the same code path).
GLOSSARIES = {
    "no-glossary": None,
    "empty-glossary": Glossary(),
    "unmatched-glossary": Glossary.parse("Peking\t北京\nlaptop\t电脑\nespresso\t咖啡\n"),
}
GLOSSARY_PARAMS = [
    pytest.param(*p.values, g, id=f"{p.id}-{g}")
    for p in PARAMS
    for g in GLOSSARIES
    if g != "empty-glossary" or p.values[1] == "merged"
]


@pytest.mark.parametrize("family,layout,direction,glossary", GLOSSARY_PARAMS)
def test_token_ids_equal_generate_reference(family, layout, direction, glossary):
    t = translator(str(family_dir(family) / layout), direction)
    glossary = GLOSSARIES[glossary]
    checked = 0
    for case in cases(family, direction):
        # The loop guard is ours, not generate's: off here, tested on its own below.
        options = DecodeOptions(loop_window=0, glossary=glossary, **generate_settings(case))
        for ref in case["results"]:
            assert t.codec.source_ids(ref["text"]) == ref["input_ids"], "prompt differs from the reference's"
            matches = glossary.matches(ref["text"], direction) if glossary is not None else None
            assert not matches
            result = t.translate_ids(ref["input_ids"], options, matches=matches)
            assert result.token_ids == ref["output_ids"][1:], (case["name"], ref["text"])
            assert result.stop_reason == ref["stop_reason"], (case["name"], ref["text"])
            assert result.translation == t.codec.decode(ref["output_ids"])
            assert "__" not in result.translation and ">>" not in result.translation  # language tokens dropped
            assert result.glossary == [] and not any(step.forced for step in result.steps)
            checked += 1
    assert checked >= 30


@pytest.mark.parametrize("family,layout,direction", PARAMS)
def test_cached_and_uncached_logits_agree(family, layout, direction):
    """Verify mode recomputes every step from the whole prefix without a cache."""
    t = translator(str(family_dir(family) / layout), direction)
    for case in cases(family, direction)[:2]:  # greedy and beam
        for ref in case["results"][:3]:
            result = t.translate_ids(
                ref["input_ids"], DecodeOptions(verify=True, loop_window=0, **generate_settings(case))
            )
            assert len(result.steps) >= 2
            assert all(s.max_abs_diff is not None for s in result.steps)
            assert result.max_abs_diff < 1e-4, result.max_abs_diff
            assert result.token_ids == ref["output_ids"][1:]


@pytest.mark.parametrize("family,layout,direction", [p for p in PARAMS if p.values[1] == "merged"])
def test_loop_guard_only_cuts_references_that_loop(family, layout, direction):
    """With the guard on (the default), greedy output equals the reference unless the
    reference itself ran into a repeated block, where it stops there and says so."""
    t = translator(str(family_dir(family) / layout), direction)
    case = next(c for c in cases(family, direction) if c["name"] == "greedy")
    for ref in case["results"]:
        result = t.translate_ids(ref["input_ids"], DecodeOptions(**generate_settings(case)))
        expected = ref["output_ids"][1:]
        cut = next((n for n in range(1, len(expected) + 1) if find_loop(expected[:n], 12)), None)
        if cut is None or cut == len(expected):
            assert result.token_ids == expected
        else:
            assert result.stop_reason == "loop" and result.token_ids == expected[:cut]
            assert "repeat" in result.loop_detail
