"""The caption page face to face (run --direction auto): each line labelled by its language, in
a real browser (Debian's Chromium via Playwright)."""

from __future__ import annotations

import dataclasses

from app.shared.languages import Direction, Language

from .conftest import final, translation
from .test_page import captions, wait_text


def label(page, selector: str) -> str:
    """The language badge drawn before a line (its ::before content), "none" without one."""
    return page.eval_on_selector(selector, "e => getComputedStyle(e, '::before').content")


def test_each_line_says_its_language_and_other_sessions_stay_unlabelled(serve, page):
    server = serve()
    server.on_event(final(0, "Good morning."))  # a fixed direction: no language on its events
    server.on_event(translation(0, "Good morning.", "早上好。"))
    server.on_event(dataclasses.replace(final(1, "我不知道。"), language=Language.ZH, language_confidence=0.99))
    server.on_event(dataclasses.replace(translation(1, "我不知道。", "I don't know."), direction=Direction.ZH_EN))
    page.goto(server.url)  # defaults: source and translation
    wait_text(page, "I don't know.")
    assert label(page, ".caption[data-id='1'] .source") == '"zh"'
    assert label(page, ".caption[data-id='1'] .translation") == '"en"'
    assert label(page, ".caption[data-id='0'] .source") == label(page, ".caption[data-id='0'] .translation") == "none"
    shown = captions(page)  # the badge is drawn, not part of the words people copy
    assert [(c["source"], c["translation"]) for c in shown] == [
        ("Good morning.", "早上好。"),
        ("我不知道。", "I don't know."),
    ]
    colour = page.eval_on_selector(
        ".caption[data-id='1'] .source", "e => getComputedStyle(e, '::before').backgroundColor"
    )
    assert colour == "rgb(198, 40, 40)"  # 中文's red, as in the window
