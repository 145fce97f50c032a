"""Glossary changes reach a running session (issue 26): `apply_glossary` from the next utterance on,
corrections of heard text, and `run --glossary FILE`'s watch of its files (GlossaryWatch)."""

from __future__ import annotations

import threading

import numpy as np
import soundfile

from app.audio import FileSource
from app.pipeline import Pipeline, PipelineConfig
from app.pipeline.conversation import Conversation, ConversationConfig
from app.pipeline.glossary_watch import GlossaryWatch
from app.pipeline.subtitles import export, load
from app.pipeline.transcript import Transcript
from app.shared.events import CaptionCorrected, Error, SourceFinal, SourcePartial, Speaker, Translation
from app.shared.glossary import Glossary

from .conftest import english


def test_edits_to_the_glossary_file_apply_between_utterances_and_garbage_is_refused(
    recording, phrasebook, recognizer, tmp_path
):
    wav = recording("glossary-live", english(["The computer is broken."] * 4))
    path = tmp_path / "terms.tsv"
    path.write_text("# nothing yet\n", encoding="utf-8")
    edits = {1: "computer\t老师\nbroken\tfixed\theard\n".encode(), 2: b"\xff\xfe not a glossary \x00\x01"}
    events, reported, lock = [], [], threading.Lock()
    finals_seen = []

    def edit_the_file(event) -> None:  # the user saves the file while the session runs
        if isinstance(event, SourceFinal) and event.text.strip():
            finals_seen.append(event.utterance_id)
            data = edits.get(len(finals_seen) - 1)
            if data is not None:
                path.write_bytes(data)

    def collect(event) -> None:
        with lock:
            events.append(event)

    observers = [collect, edit_the_file]
    config = PipelineConfig(
        direction="en-zh",
        input_path=wav,
        realtime=False,
        tts_enabled=False,
        nmt_models=dict(phrasebook),
        glossary=Glossary.load(path),
    )
    pipeline = Pipeline(config, on_event=lambda e: [observer(e) for observer in observers], recognizer=recognizer)
    watch = GlossaryWatch([path], pipeline.apply_glossary, reported.append)
    observers.append(watch.on_event)
    pipeline.start()
    assert pipeline.wait_until_done(240)
    pipeline.stop()

    finals = [e for e in events if isinstance(e, SourceFinal) and e.text.strip()]
    translations = [e for e in events if isinstance(e, Translation) and not e.provisional]
    assert len(finals) == 4 and len(translations) == 4, [e.text for e in finals]
    assert "老师" not in translations[0].text  # before the edit: the model's own word
    assert all("老师" in t.text for t in translations[1:]), [t.text for t in translations]
    # The heard correction is saved with utterance 1's final: from utterance 2 on, "broken" is written "fixed",
    # in partials too, and garbage saved at utterance 2 leaves that glossary in force for utterance 3.
    assert "broken" in finals[1].text and all("fixed" in f.text and "broken" not in f.text for f in finals[2:])
    later_partials = [e for e in events if isinstance(e, SourcePartial) and e.utterance_id > finals[2].utterance_id]
    assert all("broken" not in p.text and p.text.startswith(p.committed) for p in later_partials)
    assert len(reported) == 1 and isinstance(reported[0], Error) and reported[0].stage == "glossary"
    assert "not UTF-8" in reported[0].text and "stays as it was" in reported[0].hint
    assert pipeline.config.glossary.terms("zh") == ["老师"]


def test_a_glossary_with_a_malformed_line_is_refused_and_a_fixed_one_taken(tmp_path):
    path = tmp_path / "terms.tsv"
    path.write_text("computer\t电脑\n", encoding="utf-8")
    applied, reported = [], []
    watch = GlossaryWatch([path], applied.append, reported.append)
    assert not watch.check()  # unchanged: not read again
    path.write_text("computer\t电脑\nhalf a line without a tab\n", encoding="utf-8")
    assert not watch.check() and not applied
    assert "line 2 of" in reported[0].text and "expected english<TAB>chinese" in reported[0].text
    path.write_text("computer\t老师\n", encoding="utf-8")
    assert watch.check() and applied[0].terms("zh") == ["老师"]
    path.unlink()
    assert not watch.check() and "Cannot read the glossary" in reported[-1].text


def test_a_corrected_caption_is_in_the_transcript_and_its_exports(tmp_path):
    transcript = Transcript(tmp_path / "session.jsonl")
    transcript.record(SourceFinal(utterance_id=0, text="Jon is here.", start=0.0, end=1.0, speech_end_at=0.0))
    transcript.record(
        Translation(
            utterance_id=0,
            source="Jon is here.",
            text="乔恩在这里。",
            provisional=False,
            direction="en-zh",
            latency_ms=10.0,
        )
    )
    transcript.record(CaptionCorrected(utterance_id=0, source="John is here.", text="约翰在这里。"))
    transcript.close()
    assert export(load(transcript.path), "txt", bilingual=True) == "John is here.\n约翰在这里。\n"


def test_a_conversation_applies_a_new_glossary_to_both_sides(tmp_path):
    silence = tmp_path / "silence.wav"
    soundfile.write(silence, np.zeros(1600, np.float32), 16000)
    conversation = Conversation(
        ConversationConfig(PipelineConfig(tts_enabled=False, save_transcript=False)),
        sources={s: FileSource(silence) for s in Speaker},
    )
    glossary = Glossary.parse("computer\t老师\n")
    conversation.apply_glossary(glossary)
    assert conversation.config.pipeline.glossary is glossary
    assert all(lane.config.glossary is glossary for lane in conversation.lanes.values())
