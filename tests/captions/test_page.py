"""The caption page in a real browser (Debian's Chromium via Playwright), fed real pipeline events."""

from __future__ import annotations

import os
from pathlib import Path

from app.captions import CaptionServer

from .conftest import final, partial, translation

TIMEOUT_MS = 10_000


def captions(page) -> list[dict]:
    """What the page shows, caption by caption, in page order (captions past the last `lines`
    keep their place, invisible, while the page follows the live end)."""
    return page.eval_on_selector_all(
        ".caption",
        """rows => rows.filter(row => row.checkVisibility(
            {visibilityProperty: true})).map(row => {
        const line = kind => { const p = row.querySelector('.' + kind);
            return p && p.checkVisibility() ? p.textContent : null; };
        return {id: Number(row.dataset.id), source: line('source'), translation: line('translation'),
                speaker: row.querySelector('.speaker').hidden ? null : row.querySelector('.speaker').textContent};
    })""",
    )


def wait_text(page, text: str) -> None:
    page.wait_for_function(
        "t => document.querySelector('#captions').textContent.includes(t)", arg=text, timeout=TIMEOUT_MS
    )


def opacity(page, selector: str) -> float:
    return float(page.eval_on_selector(selector, "e => getComputedStyle(e).opacity"))


def test_late_joiner_sees_the_session_then_live_updates_provisional_lighter(serve, page):
    server = serve()
    server.on_event(partial(0, "Good mor", "Good"))
    server.on_event(final(0, "Good morning."))
    server.on_event(translation(0, "Good morning.", "早上好。"))
    page.goto(server.url)  # joins late: /transcript first
    wait_text(page, "早上好。")
    assert captions(page) == [{"id": 0, "source": "Good morning.", "translation": "早上好。", "speaker": None}]
    assert page.is_hidden("#status")

    server.on_event(partial(1, "How are you", "How"))
    server.on_event(translation(1, "How are you", "你好吗", provisional=True))
    wait_text(page, "你好吗")
    row = ".caption[data-id='1']"
    assert page.get_attribute(f"{row} .translation", "class") == "line translation provisional"
    assert page.text_content(f"{row} .translation .pending") == "你好吗"  # nothing settled yet: all lighter
    assert page.text_content(f"{row} .source .settled") == "How"
    assert page.text_content(f"{row} .source .pending") == " are you"
    assert opacity(page, f"{row} .translation .pending") < 0.8
    assert opacity(page, ".caption[data-id='0'] .translation .settled") == 1.0

    server.on_event(partial(2, "hm", ""))  # noise: a row appears, then goes when its final is empty
    page.wait_for_selector(".caption[data-id='2']", timeout=TIMEOUT_MS)
    server.on_event(final(2, ""))
    page.wait_for_selector(".caption[data-id='2']", state="detached", timeout=TIMEOUT_MS)
    server.on_event(final(1, "How are you doing?"))
    server.on_event(translation(1, "How are you doing?", "你好吗？"))
    page.wait_for_selector(f"{row} .translation.final", timeout=TIMEOUT_MS)
    assert [c["translation"] for c in captions(page)] == ["早上好。", "你好吗？"]
    assert page.text_content(f"{row} .translation .pending") == ""


def test_settled_text_never_moves_and_speaker_is_shown(serve, page):
    server = serve()
    server.on_event(translation(0, "I think that", "我认为那个", provisional=True, stable=3, speaker="them"))
    page.goto(server.url)
    settled = ".caption[data-id='0'] .translation .settled"
    page.wait_for_function("s => document.querySelector(s)?.textContent === '我认为'", arg=settled, timeout=TIMEOUT_MS)
    assert captions(page)[0]["speaker"] == "them"
    # Mark the settled text's DOM node and remember where it is drawn.
    page.eval_on_selector(settled, "e => { e.firstChild.marked = true; }")
    before = page.eval_on_selector(settled, "e => { const r = e.getClientRects()[0]; return [r.x, r.y]; }")
    server.on_event(translation(0, "I think that we", "我认为我们应该", provisional=True, stable=5, speaker="them"))
    page.wait_for_function(
        "s => document.querySelector(s).textContent === '我认为我们'", arg=settled, timeout=TIMEOUT_MS
    )
    assert page.eval_on_selector(settled, "e => e.firstChild.marked === true && e.firstChild.data === '我认为'")
    assert page.eval_on_selector(settled, "e => { const r = e.getClientRects()[0]; return [r.x, r.y]; }") == before
    assert page.text_content(".caption[data-id='0'] .translation .pending") == "应该"


def test_query_options(serve, page):
    server = serve()
    for uid in range(5):
        server.on_event(final(uid, f"line {uid}"))
        server.on_event(translation(uid, f"line {uid}", f"第{uid}行"))
    page.goto(server.url + "?show=translation&lines=2&size=60&font=serif&bg=transparent")
    wait_text(page, "第4行")
    assert captions(page) == [
        {"id": 3, "source": None, "translation": "第3行", "speaker": None},
        {"id": 4, "source": None, "translation": "第4行", "speaker": None},
    ]
    assert page.eval_on_selector("#captions", "e => getComputedStyle(e).fontSize") == "60px"
    assert "serif" in page.eval_on_selector("body", "e => getComputedStyle(e).fontFamily")
    assert page.eval_on_selector("body", "e => getComputedStyle(e).backgroundColor") == "rgba(0, 0, 0, 0)"
    page.goto(server.url + "?show=source&lines=1")
    wait_text(page, "line 4")
    assert captions(page) == [{"id": 4, "source": "line 4", "translation": None, "speaker": None}]
    page.goto(server.url)  # defaults: both, the last four, big
    wait_text(page, "第4行")
    assert [c["id"] for c in captions(page)] == [1, 2, 3, 4]
    assert float(page.eval_on_selector("#captions", "e => parseFloat(getComputedStyle(e).fontSize)")) >= 40
    page.set_viewport_size({"width": 390, "height": 800})  # a phone: smaller, but still big
    assert float(page.eval_on_selector("#captions", "e => parseFloat(getComputedStyle(e).fontSize)")) >= 28


def test_the_page_waits_for_the_app_and_reconnects_after_a_restart(serve, page):
    first = serve()
    first.on_event(translation(0, "before", "之前"))
    page.goto(first.url)
    wait_text(page, "之前")
    first.stop()
    page.wait_for_selector("#status:has-text('Waiting for the app')", timeout=TIMEOUT_MS)
    assert "之前" in page.text_content("#captions")  # what was shown stays while waiting
    second = serve(port=first.port)  # the app comes back on the same port: a new session
    second.on_event(final(0, "after"))
    second.on_event(translation(0, "after", "之后"))
    wait_text(page, "之后")
    page.wait_for_selector("#status", state="hidden", timeout=TIMEOUT_MS)
    assert captions(page) == [{"id": 0, "source": "after", "translation": "之后", "speaker": None}]
    second.on_event(translation(1, "live", "直播"))  # and the live stream works again
    wait_text(page, "直播")


def test_a_new_session_clears_the_page(serve, page):
    server = serve()
    server.on_event(translation(0, "one", "一"))
    page.goto(server.url)
    wait_text(page, "一")
    server.new_session()
    server.on_event(translation(0, "two", "二"))
    wait_text(page, "二")
    assert [c["translation"] for c in captions(page)] == ["二"]


def test_the_page_with_and_without_the_key(serve, page):
    server = serve(host="0.0.0.0")
    server.on_event(translation(0, "secret", "机密字幕"))
    url = f"http://127.0.0.1:{server.port}/"
    response = page.goto(url)
    assert response.status == 401 and "机密字幕" not in page.content()
    page.goto(url + "?key=" + server.key)
    wait_text(page, "机密字幕")  # the page's script, style and streams came with the key
    assert page.eval_on_selector("#captions", "e => parseFloat(getComputedStyle(e).fontSize)") >= 40
    page.context.clear_cookies()
    response = page.goto(url + "?key=wrong")
    assert response.status == 403 and "机密字幕" not in page.content()


def test_screenshot(serve, page, tmp_path):
    """The page as people see it (LT_CAPTIONS_SCREENSHOT=docs/captions.png writes docs/captions.md's)."""
    server: CaptionServer = serve()
    lines = [
        ("Good morning, everyone.", "大家早上好。"),
        ("Thank you for coming today.", "谢谢你们今天来。"),
        ("Where is the train station?", "火车站在哪里？"),
    ]
    for uid, (source, text) in enumerate(lines):
        server.on_event(final(uid, source))
        server.on_event(translation(uid, source, text))
    server.on_event(partial(3, "Let us begin with the", "Let us begin"))
    server.on_event(translation(3, "Let us begin with the", "让我们从", provisional=True, stable=2))
    page.goto(server.url)
    wait_text(page, "让我们从")
    out = Path(os.environ.get("LT_CAPTIONS_SCREENSHOT") or tmp_path / "captions.png")
    page.screenshot(path=str(out))
    assert out.stat().st_size > 10_000
