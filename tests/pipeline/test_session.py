"""One session shape: a Pipeline and a Conversation follow app.pipeline.session.Session, and a
conversation's two sides get every setting of the one PipelineConfig it was made from.
(Sessions are built, not started: nothing here loads a model.)"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from app.pipeline import Pipeline, PipelineConfig
from app.pipeline.calm import ShowRule
from app.pipeline.conversation import Conversation, ConversationConfig
from app.pipeline.session import Session
from app.shared.audio import SourceKind
from app.shared.chinese import ChineseScript
from app.shared.events import Speaker, Spoken
from app.shared.glossary import Glossary
from app.shared.languages import Direction
from app.shared.live_text import LiveText
from app.tts import SpeechOutput

# What each side of a conversation sets for itself; every other setting is the shared one's.
PER_SIDE = {
    "direction",
    "input_path",
    "source",
    "input_device",
    "speaker",
    "tts_enabled",
    "save_transcript",
    "transcript_path",
    "speak_into",
    "mix_original",
}


def prepare_graphs(folder, direction, prefer_quantized):
    return {}


def unusual_settings() -> dict:
    """A value for every PipelineConfig field that is not its default."""
    return {
        "direction": Direction.ZH_EN,
        "auto_direction": True,
        "nmt_models": {Direction.EN_ZH: Path("a"), Direction.ZH_EN: Path("b")},
        "asr_model": "tiny",
        "input_path": None,
        "source": SourceKind.MICROPHONE,
        "input_device": "my mic",
        "speaker": None,
        "realtime": False,
        "tts_enabled": True,
        "tts_out": Path("out.wav"),
        "tts_rate": 133,
        "tts_voices": {"en": "gmw/en-gb-scotland"},
        "verify": True,
        "num_beams": 3,
        "decode_overrides": {"max_new_tokens": 17, "repetition_penalty": 1.2},
        "translate_partials": False,
        "emit_steps": False,
        "mute_while_speaking": False,
        "save_transcript": True,
        "transcript_path": Path("talk.jsonl"),
        "audio_queue_blocks": 99,
        "max_pending_finals": 7,
        "glossary": Glossary.parse("computer\t老师\n"),
        "chinese": "traditional",
        "source_confidence": True,
        "calm": "force",
        "show_rule": ShowRule(sure_p=0.5, show_guesses=True),
        "prepare_graphs": prepare_graphs,
        "speak_into": "virtual-mic",
        "mix_original": 0.25,
        "live_text": LiveText.SOONER,
    }


def test_every_setting_of_the_pipeline_config_reaches_both_sides():
    values = unusual_settings()
    names = {f.name for f in dataclasses.fields(PipelineConfig)}
    assert set(values) == names, f"give the new setting(s) {names ^ set(values)} a value in unusual_settings()"
    shared = PipelineConfig(**values)
    config = ConversationConfig(shared, system_device="their speakers", spoken=Spoken.BOTH.speakers)
    conversation = Conversation(config, speech_output=SpeechOutput(enabled=False))
    for speaker, lane in conversation.lanes.items():
        for name in names - PER_SIDE:
            assert getattr(lane.config, name) == getattr(shared, name), f"{speaker}'s side lost {name}"
        assert lane.config.speaker is speaker and lane.config.input_path is None and not lane.config.save_transcript
    me, them = conversation.lanes[Speaker.ME].config, conversation.lanes[Speaker.THEM].config
    assert (me.direction, me.source, me.input_device) == (Direction.ZH_EN, SourceKind.MICROPHONE, "my mic")
    assert (them.direction, them.source, them.input_device) == (Direction.EN_ZH, SourceKind.SYSTEM, "their speakers")
    assert (me.speak_into, me.mix_original) == ("virtual-mic", 0.25)  # my translation into the call
    assert (them.speak_into, them.mix_original) == ("speakers", 0.0)


def test_both_kinds_are_sessions_and_a_conversation_passes_each_switch_to_both_sides():
    shared = PipelineConfig(direction="en-zh", tts_enabled=True)
    single = Pipeline(shared, speech_output=SpeechOutput(enabled=False))
    conversation = Conversation(ConversationConfig(shared), speech_output=SpeechOutput(enabled=False))
    assert isinstance(single, Session) and isinstance(conversation, Session)
    assert single.speakers == frozenset() and conversation.speakers == {Speaker.ME, Speaker.THEM}
    lanes = conversation.lanes.values()
    conversation.set_verify(True)
    conversation.set_chinese(ChineseScript.HONGKONG)
    assert all(lane.config.verify and lane.config.chinese == "hongkong" for lane in lanes)
    conversation.set_spoken(Spoken.ME.speakers)
    assert [lane.config.tts_enabled for lane in lanes] == [True, False]
    conversation.set_tts_enabled(False)
    assert not any(lane.config.tts_enabled for lane in lanes)
    conversation.set_direction("zh-en")
    assert conversation.direction is Direction.ZH_EN
    assert [lane.direction for lane in lanes] == [Direction.ZH_EN, Direction.EN_ZH]


def test_a_session_never_changes_the_config_it_was_given():
    shared = PipelineConfig(direction="en-zh", nmt_models={"en-zh": "folder"})
    assert shared.direction is Direction.EN_ZH and list(shared.nmt_models) == [Direction.EN_ZH]
    single = Pipeline(shared, speech_output=SpeechOutput(enabled=False))
    conversation = Conversation(ConversationConfig(shared), speech_output=SpeechOutput(enabled=False))
    for session in (single, conversation):
        session.set_verify(True)
        session.set_chinese("traditional")
        session.set_tts_enabled(False)
        session.set_direction("zh-en")
    assert (shared.verify, shared.chinese, shared.tts_enabled, shared.direction) == (False, "simplified", True, "en-zh")
    assert single.config.verify and conversation.config.pipeline.chinese == "traditional"
