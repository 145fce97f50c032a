"""Each listener's own captions (issue 26), in a real browser (Debian's Chromium via Playwright):
settings chosen on the page and remembered, each page's Chinese script converted by the app,
scrolling back through the session, downloads written by the export writers, corrections."""

from __future__ import annotations

import io
import json
import os
import urllib.parse
from pathlib import Path

import pytest
import webvtt

from app.pipeline.caption_downloads import caption_writers
from app.pipeline.subtitles import export, load
from app.pipeline.transcript import Transcript
from app.shared.events import CaptionCorrected, SourceFinal

from .conftest import get, translation
from .test_page import TIMEOUT_MS, captions, wait_text

# An utterance the app writes in Simplified; OpenCC s2twp writes Taiwan's word for software.
SOURCE, SIMPLIFIED, TRADITIONAL = "This software is easy to use.", "这个软件很好用。", "這個軟體很好用。"


def said(server, uid: int, source: str, text: str, start: float | None = None) -> None:
    start = float(uid * 2) if start is None else start
    server.on_event(SourceFinal(utterance_id=uid, text=source, start=start, end=start + 1.5, speech_end_at=0.0))
    server.on_event(translation(uid, source, text))


@pytest.fixture
def new_page(browser):
    contexts = []

    def make(**options):
        context = browser.new_context(**{"viewport": {"width": 1000, "height": 560}, **options})
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()


def choose_in_panel(page, show: str | None = None, script: str | None = None, theme: str | None = None) -> None:
    """As a listener does: open the settings with the keyboard, pick, close."""
    if page.evaluate("document.activeElement.id") != "settings-button":
        page.keyboard.press("Tab")  # the first control on the page
    assert page.evaluate("document.activeElement.id") == "settings-button"
    page.keyboard.press("Enter")
    page.wait_for_selector("#settings", state="visible")
    if show:
        page.check(f"#settings input[name=show][value={show}]")
    if script is not None:
        page.select_option("#opt-script", script)
    if theme:
        page.check(f"#settings input[name=theme][value={theme}]")
    page.keyboard.press("Escape")
    page.wait_for_selector("#settings", state="hidden")
    assert page.evaluate("document.activeElement.id") == "settings-button"


def test_two_listeners_each_read_what_they_chose_from_one_session(serve, new_page):
    server = serve()
    said(server, 0, SOURCE, SIMPLIFIED)
    traditional_only = new_page()
    traditional_only.goto(server.url)
    wait_text(traditional_only, SIMPLIFIED)
    choose_in_panel(traditional_only, show="translation", script="traditional")
    wait_text(traditional_only, TRADITIONAL)
    both_simplified = new_page()
    both_simplified.goto(server.url + "?show=both&script=simplified")
    wait_text(both_simplified, SIMPLIFIED)

    server.on_event(translation(1, "Download the software.", "下载软件。"))  # live, after both joined
    wait_text(traditional_only, "下載軟體。")
    wait_text(both_simplified, "下载软件。")
    assert captions(traditional_only) == [
        {"id": 0, "source": None, "translation": TRADITIONAL, "speaker": None},
        {"id": 1, "source": None, "translation": "下載軟體。", "speaker": None},
    ]
    assert captions(both_simplified) == [
        {"id": 0, "source": SOURCE, "translation": SIMPLIFIED, "speaker": None},
        {"id": 1, "source": "Download the software.", "translation": "下载软件。", "speaker": None},
    ]

    traditional_only.reload()  # remembered in the browser
    wait_text(traditional_only, "下載軟體。")
    assert captions(traditional_only)[0] == {"id": 0, "source": None, "translation": TRADITIONAL, "speaker": None}
    assert (
        json.loads(traditional_only.evaluate("localStorage.getItem('live-translator-captions')"))["script"]
        == "traditional"
    )


def test_settings_are_out_of_obs_view_until_hovered_and_both_themes_are_readable(serve, new_page):
    server = serve()
    said(server, 0, SOURCE, SIMPLIFIED)
    page = new_page()
    page.goto(server.url)
    wait_text(page, SIMPLIFIED)
    opacity = "e => getComputedStyle(e).opacity"
    assert page.eval_on_selector("#settings-button", opacity) == "0"  # OBS has no pointer over it
    page.hover("#captions")
    assert page.eval_on_selector("#settings-button", opacity) == "1"
    assert page.get_attribute("#captions", "aria-live") == "polite"
    for theme in ("dark", "light"):
        page.mouse.move(5, 500)
        choose_in_panel(page, theme=theme)
        fg, bg = page.evaluate("""() => [getComputedStyle(document.querySelector('.translation')).color,
                                        getComputedStyle(document.body).backgroundColor]""")
        assert contrast(fg, bg) >= 7.0, (theme, fg, bg)
        dim = page.eval_on_selector(".source", "e => getComputedStyle(e).color")
        assert contrast(dim, bg) >= 4.5, (theme, dim, bg)


def test_phone_taps_the_settings_button(serve, new_page):
    server = serve()
    said(server, 0, SOURCE, SIMPLIFIED)
    phone = new_page(viewport={"width": 390, "height": 780}, is_mobile=True, has_touch=True, device_scale_factor=2)
    phone.goto(server.url)
    wait_text(phone, SIMPLIFIED)
    assert float(phone.eval_on_selector("#settings-button", "e => getComputedStyle(e).opacity")) > 0.5
    phone.tap("#settings-button")
    phone.wait_for_selector("#settings", state="visible")
    phone.tap("#settings input[name=show][value=source]")
    phone.tap("#settings-close")
    assert captions(phone) == [{"id": 0, "source": SOURCE, "translation": None, "speaker": None}]


def contrast(fg: str, bg: str) -> float:
    """WCAG contrast ratio of two CSS rgb() colours."""

    def luminance(css: str) -> float:
        channels = [float(v) / 255 for v in css[css.index("(") + 1 : css.index(")")].split(",")[:3]]
        linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    high, low = sorted((luminance(fg), luminance(bg)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_a_reader_scrolled_back_stays_put_and_back_to_live_returns(serve, page):
    server = serve()
    for uid in range(30):
        said(server, uid, f"Sentence number {uid}.", f"第{uid}句。")
    page.goto(server.url + "?lines=30")
    wait_text(page, "第29句。")
    assert page.is_hidden("#live")
    page.mouse.move(500, 300)
    page.mouse.wheel(0, -900)  # the reader scrolls up
    page.wait_for_selector("#live", state="visible", timeout=TIMEOUT_MS)
    where = """id => { const r = document.querySelector(`.caption[data-id='${id}']`).getBoundingClientRect();
                       return r.top >= 0 && r.bottom <= innerHeight ? r.top : null; }"""
    in_view = [uid for uid in range(30) if page.evaluate(where, uid) is not None]
    assert in_view and in_view[-1] < 29, "scrolling up shows earlier captions"
    watched = in_view[0]
    top = page.evaluate(where, watched)
    scroll_top = page.eval_on_selector("#scroller", "e => e.scrollTop")

    for uid in range(30, 40):  # captions keep arriving, and an earlier one grows above the reader
        said(server, uid, f"Sentence number {uid}.", f"第{uid}句。")
    server.on_event(
        CaptionCorrected(
            utterance_id=max(watched - 3, 0), source="A much longer sentence " * 6, text="一个长得多的句子。" * 6
        )
    )
    wait_text(page, "第39句。")
    page.wait_for_function(
        "() => document.querySelector('#captions').textContent.includes('一个长得多的句子')", timeout=TIMEOUT_MS
    )
    assert abs(page.evaluate(where, watched) - top) < 1  # has not moved (scrollTop is rounded to device pixels)
    assert page.eval_on_selector("#scroller", "e => e.scrollTop") != scroll_top or watched <= 3
    assert page.is_visible("#live")

    page.click("#live")
    page.wait_for_selector("#live", state="hidden", timeout=TIMEOUT_MS)
    assert page.evaluate(where, 39) is not None  # the newest caption is in view again
    assert page.eval_on_selector("#scroller", "e => e.scrollTop + e.clientHeight >= e.scrollHeight - 4")
    said(server, 40, "And on it goes.", "继续。")
    wait_text(page, "继续。")
    assert page.evaluate(where, 40) is not None  # following again


def test_past_captions_come_back_when_the_reader_scrolls_up_on_a_short_session(serve, page):
    server = serve()
    for uid in range(6):
        said(server, uid, f"Line {uid}.", f"第{uid}行")
    page.goto(server.url + "?lines=2")
    wait_text(page, "第5行")
    assert [c["id"] for c in captions(page)] == [4, 5]
    page.mouse.move(500, 300)
    page.mouse.wheel(0, -300)
    page.wait_for_selector("#live", state="visible", timeout=TIMEOUT_MS)
    assert [c["id"] for c in captions(page)] == [0, 1, 2, 3, 4, 5]
    page.click("#live")
    assert [c["id"] for c in captions(page)] == [4, 5]


def parse_subtitles(text: str, kind: str) -> list[tuple[str, str, str]]:
    buffer = io.StringIO(text)
    parsed = webvtt.from_buffer(buffer, format="srt" if kind == "srt" else "vtt")
    return [(c.start, c.end, c.text) for c in parsed.captions]


def test_downloads_from_the_page_match_export_of_the_same_transcript(serve, page, tmp_path):
    server = serve(writers=caption_writers())
    transcript = Transcript(tmp_path / "session.jsonl")
    lines = [("Good morning, everyone.", "大家早上好。"), (SOURCE, SIMPLIFIED), ("See you soon, and well.", "再见。")]
    for uid, (source, text) in enumerate(lines):
        for event in (
            SourceFinal(utterance_id=uid, text=source, start=uid * 3.25, end=uid * 3.25 + 2.5, speech_end_at=0.0),
            translation(uid, source, text),
        ):
            server.on_event(event)
            transcript.record(event)
    transcript.close()
    page.goto(server.url)
    wait_text(page, "再见。")
    page.click("#settings-button")
    for kind in ("srt", "vtt"):
        with page.expect_download() as download:
            page.click(f"#download-{kind}")
        downloaded = open(download.value.path(), encoding="utf-8").read()
        expected = export(load(transcript.path), kind, bilingual=True)
        assert downloaded == expected
        cues = parse_subtitles(downloaded, kind)
        assert [c[2] for c in cues] == [f"{s}\n{t}" for s, t in lines]
        assert cues[1][:2] == ("00:00:03.250", "00:00:05.750")
    page.uncheck("#opt-bilingual")
    page.select_option("#opt-script", "traditional")
    wait_text(page, TRADITIONAL)
    with page.expect_download() as download:
        page.click("#download-txt")
    assert open(download.value.path(), encoding="utf-8").read() == export(load(transcript.path, "traditional"), "txt")
    status, body = get(server, "/transcript?format=vtt&bilingual=0&script=hongkong")
    assert status == 200 and body.decode() == export(load(transcript.path, "hongkong"), "vtt")


@pytest.mark.parametrize(
    "query, named",
    [
        ("script=klingon", "script='klingon'"),
        ("format=pdf", "format='pdf'"),
        ("bilingual=maybe", "bilingual='maybe'"),
    ],
)
def test_unknown_options_get_400_naming_what_is_taken(serve, query, named):
    server = serve(writers=caption_writers())
    said(server, 0, SOURCE, SIMPLIFIED)
    for path in ("/transcript", "/events"):
        status, body = get(server, f"{path}?{query}")
        assert status == 400, (path, query)
        message = body.decode()
        assert named in message and "use" in message
    status, body = get(server, "/transcript?script=traditional")
    assert status == 200 and json.loads(body)["captions"][0]["translation"] == TRADITIONAL


def test_a_server_without_writers_offers_no_downloads(serve):
    server = serve()
    status, body = get(server, "/transcript?format=srt")
    assert status == 400 and b"no downloads" in body


def test_a_corrected_caption_is_sent_again_marked_and_converted(serve, page):
    server = serve()
    said(server, 0, "Jon likes the app.", "乔恩喜欢这个应用。")
    page.goto(server.url + "?script=traditional")
    wait_text(page, "喬恩喜歡這個應用。")
    server.on_event(CaptionCorrected(utterance_id=0, source="John likes the app.", text="约翰喜欢这个应用。"))
    wait_text(page, "約翰喜歡這個應用。")
    assert captions(page) == [
        {"id": 0, "source": "John likes the app.", "translation": "約翰喜歡這個應用。", "speaker": None}
    ]
    assert page.get_attribute(".caption[data-id='0']", "class") == "caption final corrected"
    status, body = get(server, "/transcript?" + urllib.parse.urlencode({"script": "simplified"}))
    caption = json.loads(body)["captions"][0]
    assert caption["corrected"] is True and caption["translation"] == "约翰喜欢这个应用。"


def test_phone_screenshot_with_the_settings_open(serve, new_page, tmp_path):
    """A listener's phone (LT_CAPTIONS_PHONE_SCREENSHOT=docs/captions-phone.png writes the docs' picture)."""
    server = serve(writers=caption_writers())
    lines = [
        ("Good morning, everyone.", "大家早上好。"),
        ("Thank you for coming today.", "谢谢你们今天来。"),
        ("This software is easy to use.", "这个软件很好用。"),
    ]
    for uid, (source, text) in enumerate(lines):
        said(server, uid, source, text)
    phone = new_page(viewport={"width": 390, "height": 780}, is_mobile=True, has_touch=True, device_scale_factor=2)
    phone.goto(server.url + "?script=traditional")
    wait_text(phone, TRADITIONAL)
    phone.tap("#settings-button")
    phone.wait_for_selector("#settings", state="visible")
    out = Path(os.environ.get("LT_CAPTIONS_PHONE_SCREENSHOT") or tmp_path / "captions-phone.png")
    phone.screenshot(path=str(out))
    assert out.stat().st_size > 10_000
    box = phone.eval_on_selector("#settings", "e => { const r = e.getBoundingClientRect(); return [r.left, r.right]; }")
    assert 0 <= box[0] and box[1] <= 390  # the whole panel fits a phone's width


def test_the_page_keeps_as_many_captions_as_transcript_does(serve, page):
    server = serve()
    server.captions.max_captions = 6
    for uid in range(4):
        said(server, uid, f"Line {uid}.", f"第{uid}行")
    page.goto(server.url + "?lines=50")
    wait_text(page, "第3行")
    for uid in range(4, 10):  # live: the oldest go, as they do from /transcript
        said(server, uid, f"Line {uid}.", f"第{uid}行")
    wait_text(page, "第9行")
    assert [c["id"] for c in captions(page)] == list(range(4, 10))
    status, body = get(server, "/transcript")
    assert json.loads(body)["max_captions"] == 6 and len(json.loads(body)["captions"]) == 6
