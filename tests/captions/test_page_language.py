"""The caption page's own words (its controls and status lines) in the listener's language, in a
real browser (Debian's Chromium via Playwright): English, Simplified or Traditional Chinese, from
the browser's languages, switched on the page and remembered there. The captions' Chinese script
follows the browser too (zh-TW Traditional, zh-HK and zh-MO Hong Kong's), unless the listener or
the page's address chose one."""

from __future__ import annotations

import json
import re

import pytest

from .conftest import translation
from .test_listeners import new_page  # noqa: F401  (fixture)
from .test_page import TIMEOUT_MS, captions, wait_text

STORE = "live-translator-captions"
# What stays in Latin letters in every language: the formats' names and the languages' own names.
LATIN_NAMES = {"SRT", "WebVTT", "English"}


def open_settings(page) -> None:
    page.click("#settings-button")
    page.wait_for_selector("#settings", state="visible")


def page_words(page) -> dict:
    """What a listener reads of the page's own words (the captions left out)."""
    return page.evaluate(
        """() => ({
        lang: document.documentElement.lang,
        title: document.title,
        button: document.querySelector('#settings-button').getAttribute('aria-label'),
        captions: document.querySelector('#captions').getAttribute('aria-label'),
        panel: document.querySelector('#settings').innerText,
        options: [...document.querySelectorAll('#settings option')].map(o => o.textContent),
        live: document.querySelector('#live').textContent,
        status: document.querySelector('#status').textContent,
    })"""
    )


def latin_words(words: dict) -> set[str]:
    text = " ".join(
        [words["title"], words["button"], words["captions"], words["panel"], words["live"], *words["options"]]
    )
    return set(re.findall(r"[A-Za-z]{2,}", text)) - LATIN_NAMES


def page_with_a_caption(serve, new_page, locale: str):
    """A browser in `locale` showing a page whose session has said one thing (早上好。)."""
    server = serve()
    server.on_event(translation(0, "Good morning.", "早上好。"))
    page = new_page(locale=locale)
    page.goto(server.url)
    wait_text(page, "早上好。")
    return page


@pytest.mark.parametrize(
    ("locale", "lang", "settings", "close", "show"),
    [
        ("zh-CN", "zh-Hans", "字幕设置", "关闭", "显示"),
        ("zh-TW", "zh-Hant", "字幕設定", "關閉", "顯示"),
        ("zh-HK", "zh-Hant", "字幕設定", "關閉", "顯示"),
        ("en-US", "en", "Caption settings", "Close", "Show"),
        ("fr-FR", "en", "Caption settings", "Close", "Show"),  # no words in French: English
    ],
)
def test_the_page_speaks_the_browsers_language(serve, new_page, locale, lang, settings, close, show):  # noqa: F811
    page = page_with_a_caption(serve, new_page, locale)
    open_settings(page)
    words = page_words(page)
    assert (words["lang"], words["button"], page.text_content("#settings-close")) == (lang, settings, close)
    assert page.text_content("#settings legend") == show
    assert page.eval_on_selector("#opt-language", "e => e.value") == lang
    if lang != "en":
        assert latin_words(words) == set(), f"English left on a {lang} page"
        assert words["title"] != "Live captions" and words["captions"] != "Live captions"
    assert captions(page)[0]["translation"] == "早上好。", "the captions themselves are not the page's words"
    assert page.evaluate(f"localStorage.getItem('{STORE}')") is None, "nothing chosen, nothing stored"


def test_a_listener_switches_the_language_and_it_is_remembered(serve, new_page):  # noqa: F811
    page = page_with_a_caption(serve, new_page, "en-GB")
    open_settings(page)
    page.select_option("#opt-language", "zh-Hant")
    assert (
        page.text_content("#settings-close") == "關閉" and page.evaluate("document.documentElement.lang") == "zh-Hant"
    )
    assert latin_words(page_words(page)) == set()
    page.check("#settings input[name=theme][value=light]")  # another choice keeps the language chosen
    assert json.loads(page.evaluate(f"localStorage.getItem('{STORE}')"))["language"] == "zh-Hant"

    page.reload()  # remembered, over the browser's English
    wait_text(page, "早上好。")
    open_settings(page)
    assert page.text_content("#settings-close") == "關閉"
    assert page.eval_on_selector("#opt-language", "e => e.value") == "zh-Hant"
    page.select_option("#opt-language", "zh-Hans")
    assert page.text_content("#settings-close") == "关闭" and page_words(page)["title"] == "实时字幕"
    page.select_option("#opt-language", "en")
    assert page.text_content("#settings-close") == "Close" and page_words(page)["button"] == "Caption settings"


def test_a_choice_other_than_the_language_leaves_it_to_the_browser(serve, new_page):  # noqa: F811
    page = page_with_a_caption(serve, new_page, "zh-CN")
    open_settings(page)
    page.check("#settings input[name=show][value=translation]")
    assert "language" not in json.loads(page.evaluate(f"localStorage.getItem('{STORE}')"))


def test_the_status_line_follows_the_language(serve, new_page):  # noqa: F811
    server = serve()
    server.on_event(translation(0, "before", "之前"))
    page = new_page(locale="zh-TW")
    page.goto(server.url)
    wait_text(page, "之前")
    server.stop()
    page.wait_for_selector("#status:has-text('正在等待應用程式')", timeout=TIMEOUT_MS)
    open_settings(page)
    page.select_option("#opt-language", "zh-Hans")
    assert page.text_content("#status") == "正在等待应用…"
    page.select_option("#opt-language", "en")
    assert page.text_content("#status") == "Waiting for the app…"


def test_every_language_has_every_word_the_page_uses(serve, new_page):  # noqa: F811
    page = new_page()
    page.goto(serve().url)
    missing = page.evaluate(
        """() => {
        const used = [...document.querySelectorAll('[data-text]')].map(e => e.dataset.text)
            .concat([...document.querySelectorAll('[data-label]')].map(e => e.dataset.label),
                    ['connecting', 'waiting', 'needsKey']);
        const words = window.CAPTION_WORDS, english = Object.keys(words.en);
        const out = [];
        for (const [lang, table] of Object.entries(words)) {
            for (const name of new Set(used.concat(english))) if (!table[name]) out.push(lang + ':' + name);
        }
        return out;
    }"""
    )
    assert missing == []
    assert set(page.evaluate("Object.keys(window.CAPTION_WORDS)")) == {"en", "zh-Hans", "zh-Hant"}


SOFTWARE = {"simplified": "这个软件", "traditional": "這個軟體", "hongkong": "這個軟件"}  # s2twp and s2hk differ


def page_with_software(serve, new_page, locale: str, path: str = ""):
    server = serve()
    server.on_event(translation(0, "This software.", SOFTWARE["simplified"]))
    page = new_page(locale=locale)
    page.goto(server.url + path)
    return page


@pytest.mark.parametrize(
    ("locale", "script"),
    [
        ("zh-TW", "traditional"),
        ("zh-HK", "hongkong"),
        ("zh-MO", "hongkong"),
        ("zh-CN", "simplified"),
        ("en-US", "simplified"),  # the session's choice: Simplified as the app wrote it
    ],
)
def test_the_captions_script_follows_the_browser(serve, new_page, locale, script):  # noqa: F811
    # Failed before: a zh-TW or zh-HK browser got its controls in Traditional, its captions Simplified.
    page = page_with_software(serve, new_page, locale)
    wait_text(page, SOFTWARE[script])
    assert captions(page)[0]["translation"] == SOFTWARE[script]
    open_settings(page)
    assert page.eval_on_selector("#opt-script", "e => e.value") == ("" if script == "simplified" else script)
    assert page.evaluate(f"localStorage.getItem('{STORE}')") is None, "nothing chosen, nothing stored"


def test_the_listeners_script_wins_over_the_browsers_and_is_remembered(serve, new_page):  # noqa: F811
    page = page_with_software(serve, new_page, "zh-TW")
    wait_text(page, SOFTWARE["traditional"])
    open_settings(page)
    page.select_option("#opt-script", "simplified")
    wait_text(page, SOFTWARE["simplified"])
    assert json.loads(page.evaluate(f"localStorage.getItem('{STORE}')"))["script"] == "simplified"
    page.reload()
    wait_text(page, SOFTWARE["simplified"])
    assert captions(page)[0]["translation"] == SOFTWARE["simplified"]


def test_another_choice_leaves_the_script_to_the_browser(serve, new_page):  # noqa: F811
    page = page_with_software(serve, new_page, "zh-HK")
    wait_text(page, SOFTWARE["hongkong"])
    open_settings(page)
    page.check("#settings input[name=theme][value=light]")
    assert "script" not in json.loads(page.evaluate(f"localStorage.getItem('{STORE}')"))


def test_the_addresss_script_wins_over_the_browsers(serve, new_page):  # noqa: F811
    page = page_with_software(serve, new_page, "zh-TW", "?script=simplified")
    wait_text(page, SOFTWARE["simplified"])
    assert captions(page)[0]["translation"] == SOFTWARE["simplified"]
