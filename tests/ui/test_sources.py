"""The window's source chooser and conversation mode, through a private PulseAudio server
(SoundRoom: `speakers` whose monitor is system audio, `mic` whose monitor is the microphone)."""

import dataclasses

import pytest

from app.audio import list_input_devices
from app.shared import events as ev
from app.ui.main_window import MainWindow
from app.ui.sources import SourceChooser, source_choices
from tests.ui.conftest import phrasebook_translation, speak
from tests.ui.conversation import conversation_window, start_both_sides
from tests.ui.test_window import make_window

pytestmark = pytest.mark.slow


def labels(chooser: SourceChooser) -> list[str]:
    return [chooser.itemText(i) for i in range(chooser.count())]


def test_chooser_lists_microphones_system_audio_and_a_conversation(qtbot, store, sound_room):
    window = make_window(qtbot, store, direction="en-zh")
    chooser = window.controls.device
    qtbot.waitUntil(lambda: "System: Monitor of Speakers" in labels(chooser), timeout=60000)
    names = labels(chooser)
    assert names[0] == "Default microphone"
    assert [n for n in names if n.startswith("Mic: ")] == [f"Mic: {d.name}" for d in list_input_devices()]
    assert "System audio (what the computer plays)" in names
    assert names[-1] == "Conversation: me (mic) + them (system audio)"
    chooser.setCurrentIndex(names.index("System: Monitor of Speakers"))
    assert window.settings.source == "system:speakers.monitor" and window.settings.system_device == "speakers.monitor"
    assert window.controls.spoken.isHidden()
    chooser.setCurrentIndex(names.index("Conversation: me (mic) + them (system audio)"))
    assert not window.controls.spoken.isHidden() and window.controls.spoken.currentData() == "them"
    window.controls.spoken.setCurrentIndex(window.controls.spoken.findData("both"))
    assert window.settings.spoken == "both"
    chooser.setCurrentIndex(names.index("System: Monitor of Speakers"))
    window.close()
    again = MainWindow(store)  # remembered
    qtbot.addWidget(again)
    qtbot.waitUntil(lambda: again.controls.device.choice().key == "system:speakers.monitor", timeout=60000)
    again.close()


def test_no_system_audio_is_said_in_the_chooser(qtbot, sound_room, monkeypatch, tmp_path):
    monkeypatch.setenv("PULSE_SERVER", f"unix:{tmp_path}/no-server")
    sources = source_choices()
    assert sources.system_problem and "System audio cannot be captured" in sources.system_problem
    chooser = SourceChooser()
    qtbot.addWidget(chooser)
    chooser.set_sources(sources, "")
    index = labels(chooser).index(SourceChooser.NO_SYSTEM_AUDIO)
    assert not chooser.model().item(index).isEnabled()
    assert "--source microphone" in chooser.model().item(index).toolTip()
    assert not any(label.startswith("System:") or label.startswith("Conversation") for label in labels(chooser))


def test_conversation_in_the_window_labels_rows_meters_and_exports(qtbot, store, sound_room, tmp_path):
    window = conversation_window(qtbot, store)
    assert window.controls.device.choice().kind == "conversation"
    watch = start_both_sides(qtbot, window)
    assert window.controls.level_them.isVisible() and window.controls.spoken.currentData() == "them"
    assert window.session_control.running_session.config.spoken == {ev.Speaker.THEM}
    watch.wait_hearing(qtbot)
    mine, theirs = "Welcome to the meeting.", "我爱你。"
    sound_room.play_to("mic", speak(tmp_path / "me.wav", mine, "en")).wait(timeout=20)
    qtbot.waitUntil(
        lambda: any(e.speaker == "me" and not e.provisional for e in watch.of(ev.Translation)), timeout=90000
    )
    player = sound_room.play_to("speakers", speak(tmp_path / "them.wav", theirs, "zh"))
    peak_them = 0
    while player.poll() is None:
        qtbot.wait(50)
        peak_them = max(peak_them, window.controls.level_them.value())
    qtbot.waitUntil(
        lambda: any(e.speaker == "them" and not e.provisional for e in watch.of(ev.Translation)), timeout=90000
    )
    assert peak_them > 20, "the system-audio meter did not move while they spoke"
    rows = [window.transcript_view.rows[key] for key in sorted(window.transcript_view.rows)]
    said = [(row.speaker, row.source_text, row.translation) for row in rows if row.source_final]
    heard = said[0][1]  # Whisper's full stop varies; the translation does not
    assert said == [("me", heard, phrasebook_translation(mine, "en-zh")), ("them", said[1][1], said[1][2])]
    assert heard.rstrip(".!") == mine.rstrip(".")
    assert said[1][2] == phrasebook_translation(said[1][1], "zh-en")
    assert "Me:" in rows[0].source.text() and "Them:" in rows[1].target.text()
    window.controls.button.click()  # Stop
    qtbot.waitUntil(lambda: not window.session_control.running() and not window.session_control.stopping, timeout=90000)
    window.transcript_actions.export_to("txt", str(tmp_path / "talk.txt"))
    window.transcript_actions.export_to("srt", str(tmp_path / "talk.srt"))
    text = (tmp_path / "talk.txt").read_text(encoding="utf-8")
    assert f"me: {heard}" in text and f"them: {said[1][1]}" in text
    assert f"[me] {heard}" in (tmp_path / "talk.srt").read_text(encoding="utf-8")


def test_a_window_conversation_keeps_every_setting_on_both_sides(qtbot, store, sound_room, tmp_path, monkeypatch):
    """The user's glossary, Traditional Chinese, verify and beams reach both sides of a conversation."""
    from app.ui import model_state
    from app.ui.glossary_editor import user_glossary_path

    user_glossary_path().parent.mkdir(parents=True, exist_ok=True)
    user_glossary_path().write_text("computer\t老师\nlove\t爱\n", encoding="utf-8")  # the phrasebook says 电脑
    window_config = model_state.pipeline_config

    def with_beams(*args, **kwargs):  # the window has no beams control: set it as a setting would be
        config = window_config(*args, **kwargs)
        return dataclasses.replace(config, num_beams=2, decode_overrides={"max_new_tokens": 60})

    monkeypatch.setattr(model_state, "pipeline_config", with_beams)
    window = conversation_window(qtbot, store, verify=True, chinese="traditional")
    watch = start_both_sides(qtbot, window)
    lanes = window.session_control.running_session.lanes
    for lane in lanes.values():
        assert lane.config.glossary.terms("en") == ["computer", "love"] and lane.config.chinese == "traditional"
        assert lane.config.verify and lane.config.num_beams == 2
        assert lane.config.decode_overrides == {"max_new_tokens": 60}
    watch.wait_hearing(qtbot)
    sound_room.play_to("mic", speak(tmp_path / "me.wav", "The computer is broken.", "en")).wait(timeout=20)
    qtbot.waitUntil(
        lambda: any(e.speaker == "me" and not e.provisional for e in watch.of(ev.Translation)), timeout=90000
    )
    sound_room.play_to("speakers", speak(tmp_path / "them.wav", "我爱你。", "zh")).wait(timeout=20)
    qtbot.waitUntil(
        lambda: any(e.speaker == "them" and not e.provisional for e in watch.of(ev.Translation)), timeout=90000
    )
    window.controls.button.click()  # Stop
    qtbot.waitUntil(lambda: not window.session_control.running() and not window.session_control.stopping, timeout=90000)
    mine = next(e for e in watch.of(ev.Translation) if e.speaker == "me" and not e.provisional)
    assert "老師" in mine.text, mine  # the glossary's term, written in Traditional Chinese
    theirs = next(e for e in watch.of(ev.SourceFinal) if e.speaker == "them" and e.text.strip())
    assert "愛" in theirs.text, theirs  # what they said, recognised and written in Traditional Chinese
    for speaker in ("me", "them"):
        summaries = [e.summary for e in watch.of(ev.SentenceSummary) if e.speaker == speaker and not e.provisional]
        assert summaries and all("max_abs_diff" in s for s in summaries), (speaker, summaries)  # verified
        assert any(use["honoured"] for s in summaries for use in s["glossary"]), (speaker, summaries)


def test_a_sound_server_started_after_portaudio_is_found_by_the_chooser(sound_room, monkeypatch, tmp_path):
    # PortAudio lists devices once, when it starts: started while no sound server answered, its
    # list is empty, and the chooser said "No microphone found" with a microphone there.
    from app.audio import sources as audio_sources

    monkeypatch.setenv("PULSE_SERVER", f"unix:{tmp_path}/nothing-listens-here")
    audio_sources._refresh_portaudio()
    assert list_input_devices() == []  # the stale list
    monkeypatch.setenv("PULSE_SERVER", sound_room.env["PULSE_SERVER"])
    found = source_choices()
    assert found.choices[0].label == "Default microphone" and not found.no_microphone
    assert any(c.label.startswith("Mic: ") for c in found.choices)
