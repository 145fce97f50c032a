"""The phrasebook test model says what it is wherever a user meets it (issue 42): it translates
its 36 phrases and turns anything else into confident nonsense. The self-test's line, the
README's example and the window's status bar (all through the model's name) say so."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from app import selftest
from app.translation import Translator

ROOT = Path(__file__).resolve().parents[2]
FOLDERS = [
    ("tests/fixtures/phrasebook/en-zh", "en-zh"),
    ("tests/fixtures/phrasebook/zh-en", "zh-en"),
    ("resources/selftest/translation", "en-zh"),
]


@pytest.mark.parametrize(("folder", "direction"), FOLDERS)
def test_the_phrasebook_model_is_named_for_what_it_is(folder, direction):
    assert Translator.load(ROOT / folder, direction).model_name.startswith(
        "phrasebook test model: translates only its 36 phrases ("
    )


def test_the_self_test_says_its_translation_model_knows_only_its_phrases():
    assert "translates only its 36 phrases" in selftest.check_translation()


def test_the_readme_example_says_the_model_knows_only_its_phrases():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    (example,) = re.findall(r"```python\n(.*?)```", readme, flags=re.S)
    before = readme[: readme.index(example)].rsplit("\n## ", 1)[-1]
    assert "36 phrases" in before and "models download" in before
