"""`python -m app run --serve`: a recording through the real pipeline, watched in a real browser."""

from __future__ import annotations

import pytest

from .conftest import SPOKEN_EN, english, expected

pytestmark = pytest.mark.slow

# Test code, not the page's: records every provisional piece of text the page draws, and how.
WATCH_PROVISIONAL = """
window.seen = [];
new MutationObserver(() => {
  for (const el of document.querySelectorAll('.line.provisional .pending')) {
    if (el.textContent) window.seen.push({kind: el.parentElement.classList.contains('translation') ? 'translation'
      : 'source', text: el.textContent, opacity: parseFloat(getComputedStyle(el).opacity)});
  }
  for (const el of document.querySelectorAll('.line.final')) {
    window.seen.push({kind: 'final', text: el.textContent,
                      opacity: parseFloat(getComputedStyle(el.firstChild).opacity)});
  }
}).observe(document, {subtree: true, childList: true, characterData: true, attributes: true});
"""


def test_a_recording_run_with_serve_is_shown_live_in_the_browser(recording, phrasebook, page, app_run):
    wav = recording("serve-en", english())
    run = app_run(
        *("--input", str(wav), "--direction", "en-zh", "--nmt-model", str(phrasebook["en-zh"])),
        *("--no-tts", "--realtime", "--serve", "127.0.0.1:0"),
    )
    url = run.said(r"captions: (http://127\.0\.0\.1:\d+/)$")
    page.add_init_script(WATCH_PROVISIONAL)
    page.goto(url + "?lines=10")
    code, stderr = run.finish(timeout=300)
    assert code == 0, stderr
    lines = run.lines
    finals = [e["text"] for e in lines if e["type"] == "translation" and not e["provisional"]]
    assert finals == expected(SPOKEN_EN, "en-zh")
    # The app has ended: the page says it waits, and keeps every final translation, in order.
    page.wait_for_selector("#status:has-text('Waiting for the app')", timeout=10_000)
    shown = page.eval_on_selector_all(".caption .translation", "ps => ps.map(p => p.textContent)")
    assert shown == finals
    assert page.eval_on_selector_all(".caption .translation", "ps => ps.every(p => p.classList.contains('final'))")
    # While it ran, the page showed provisional text lighter than settled text. (On a loaded
    # machine recognition can fall behind and go straight to final text: then there is none.)
    seen = page.evaluate("window.seen")
    provisional = [s for s in seen if s["kind"] in ("source", "translation")]
    partials = [e for e in lines if e["type"] == "partial" and e["text"] != e["committed"]]
    assert provisional or not partials, f"the page never showed provisional text; the run had {len(partials)}"
    assert all(s["opacity"] < 0.8 for s in provisional)
    assert all(s["opacity"] == 1.0 for s in seen if s["kind"] == "final")
    if any(e["type"] == "translation" and e["provisional"] for e in lines):
        assert any(s["kind"] == "translation" for s in provisional), "provisional translations were not shown"
