"""A caption page's download says what `export` says about an utterance whose translation
failed: the error the transcript recorded, not "[not translated]" (issue 35, left open since
issue 26). A real pipeline (Whisper base, the phrasebook model) whose model fails on one phrase."""

from __future__ import annotations

import pytest
from pipeline.conftest import run_pipeline  # noqa: F401  (a fixture)
from pipeline.test_faults import FailingTranslator

from app.pipeline.caption_downloads import caption_writers
from app.pipeline.subtitles import export, load
from app.pipeline.transcript import Transcript
from app.translation import Translator

from .conftest import english, get

pytestmark = pytest.mark.slow
PHRASES = ["Good morning.", "I love you.", "See you tomorrow."]


def test_a_download_writes_the_recorded_error_as_export_does(serve, recording, run_pipeline, phrasebook, tmp_path):
    translator = FailingTranslator(Translator.load(phrasebook["en-zh"], direction="en-zh"), "I love you.")
    run = run_pipeline(
        recording("download-errors", english(PHRASES)), "en-zh", parts={"translators": {"en-zh": translator}}
    )
    failed = run.errors("translation")
    assert len(failed) == 1 and "injected ONNX failure" in failed[0].text
    server = serve(writers=caption_writers())
    transcript = Transcript(tmp_path / "session.jsonl")
    for event in run.events:  # what the window hands its caption server and its transcript
        server.on_event(event)
        transcript.record(event)
    transcript.close()
    for kind, bilingual in (("txt", True), ("txt", False), ("srt", True), ("vtt", False)):
        status, body = get(server, f"/transcript?format={kind}&bilingual={int(bilingual)}")
        assert status == 200 and body.decode() == export(load(transcript.path), kind, bilingual), (kind, bilingual)
    status, body = get(server, "/transcript?format=txt&bilingual=1")
    heard = next(f.text for f in run.finals() if f.utterance_id == failed[0].utterance_id)
    assert f"{heard}\n[{failed[0].text}]" in body.decode() and "[not translated]" not in body.decode()
