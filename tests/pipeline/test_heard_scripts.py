"""A correction of heard text written in Simplified corrects the Traditional output the user
chose (issue 35, left open since issue 26): the recogniser writes 我愛你, the correction's heard
side 我爱你 finds it, and its written side comes out in Traditional too. Whisper base on
espeak-ng Mandarin, the phrasebook zh-en model."""

from __future__ import annotations

import pytest

from app.shared.glossary import Glossary

from .conftest import chinese

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("script, written", [("traditional", "我愛妳"), ("simplified", "我爱妳")])
def test_a_simplified_correction_corrects_either_script(recording, run_pipeline, script, written):
    wav = recording("heard-scripts", chinese(["wo3 ai4 ni3."]))
    glossary = Glossary.parse("我爱你\t我爱妳\theard\n")  # written by hand in Simplified
    run = run_pipeline(wav, "zh-en", chinese=script, glossary=glossary)
    finals = [f.text for f in run.finals()]
    assert len(finals) == 1 and finals[0].rstrip("。") == written, finals
