"""The real window driving the real pipeline: espeak-ng speech stands in for the microphone,
Whisper base recognises it, the committed phrasebook model translates it, offscreen Qt draws it."""

import re
import shutil
import threading
import time

import numpy as np
import pytest
import soundfile
from PySide6.QtCore import QTimer

from app.audio import SAMPLE_RATE, FileSource, SourceKind
from app.pipeline.live_meter import LiveTextMeter
from app.shared import events as ev
from app.ui.main_window import MainWindow
from tests.ui.conftest import nmt_model, phrasebook_translation, random_model, speak

pytestmark = pytest.mark.slow
PHRASES = {
    "en-zh": ["Good morning.", "Thank you very much."],  # ones espeak-ng + Whisper base
    "zh-en": ["我不知道。", "他是我的朋友。"],
}  # hear back exactly


class Watcher:
    """Everything the window was told, and what its panels looked like after each batch."""

    def __init__(self, window: MainWindow):
        self.window = window
        self.events: list = []
        self.provisional_sources_seen = set()  # utterances drawn grey italic at some point
        self.provisional_targets_seen = set()
        self.meter_peak = 0
        window.events_shown.connect(self.on_batch)  # after the window drew the batch

    def on_batch(self, batch):
        self.events.extend(batch)
        self.meter_peak = max(self.meter_peak, self.window.controls.level.value())
        for (_session, uid), row in self.window.transcript_view.rows.items():
            if not row.source_final and "italic" in row.source.text():
                self.provisional_sources_seen.add(uid)
            if not row.target_final and "italic" in row.target.text():
                self.provisional_targets_seen.add(uid)

    def of(self, kind):
        return [e for e in self.events if isinstance(e, kind)]

    def wait_hearing(self, qtbot, speakers=("me", "them")) -> None:
        """Until every speaker's source has delivered audio (a meter level): a null sink's monitor
        starts ~2 s after it is opened, later on a busy machine, and speech before that is cut."""
        qtbot.waitUntil(lambda: {e.speaker for e in self.of(ev.Level)} >= set(speakers), timeout=60000)


def row_of(window: MainWindow, utterance_id: int):
    """The panels' row of an utterance of the window's latest session."""
    return window.transcript_view.rows[(window.session_control.session_number, utterance_id)]


def make_window(qtbot, store, **settings) -> MainWindow:
    for key, value in settings.items():
        store.setValue(key, value)
    store.setValue("tts_enabled", False)
    window = MainWindow(store)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitUntil(lambda: len(window.models_bar.states) == 2, timeout=60000)
    return window


def finish(qtbot, window, timeout=180000):
    qtbot.waitUntil(
        lambda: not window.session_control.running() and not window.session_control.stopping, timeout=timeout
    )


@pytest.mark.parametrize("direction", ["en-zh", "zh-en"])
def test_recording_is_recognised_translated_and_diagnosed(qtbot, store, tmp_path, direction):
    window = make_window(
        qtbot,
        store,
        direction=direction,
        verify=True,
        **{"nmt_" + direction.replace("-", "_"): str(nmt_model(direction))},
    )
    assert window.models_bar.states[direction].can_run and window.diagnostics.verify.isChecked()
    watch = Watcher(window)
    window.session_control.realtime = False
    phrases = PHRASES[direction]
    window.session_control.play_recording(str(speak(tmp_path / "speech.wav", " ".join(phrases), direction[:2])))
    finish(qtbot, window)

    finals = watch.of(ev.SourceFinal)
    translations = [t for t in watch.of(ev.Translation) if not t.provisional]
    assert len(finals) >= 2 and watch.of(ev.SourcePartial)
    # the source panel showed provisional text grey italic, then the committed text plain
    assert watch.provisional_sources_seen & {f.utterance_id for f in finals}
    for final in finals:
        row = row_of(window, final.utterance_id)
        assert row.source_final and row.source_text == final.text and (final.revised or row.source.text() == final.text)
    # the phrasebook's answers, in order; each beside its source, never redrawn. Whisper hears
    # espeak-ng's English exactly; its Mandarin sometimes as a homophone (他/它), which the
    # phrasebook does not know: then only the language of the translation is checked.
    assert len(translations) == len(phrases)
    for phrase, final, translation in zip(phrases, finals, translations):
        assert translation.utterance_id == final.utterance_id and translation.direction == direction
        expected = phrasebook_translation(final.text, direction)
        if direction == "en-zh" or expected is not None:
            assert translation.text == expected == phrasebook_translation(phrase, direction), final.text
        else:
            assert re.fullmatch(r"[A-Za-z ,.?!']+", translation.text), translation.text
    for translation in translations:
        row = row_of(window, translation.utterance_id)
        assert row.target.text() == translation.text and row.renders["target_after_final"] == 0
    # diagnostics: one row per decoder step, one per sentence, from the same utterances
    window.diagnostics.flush()
    steps = watch.of(ev.DecodeStepEvent)
    assert len(window.diagnostics.steps.rows) == len(steps) > 0
    first = window.diagnostics.steps.rows[0].cells
    assert first[0] == str(steps[0].utterance_id) and first[3] == steps[0].step.token
    assert len(window.diagnostics.sentences.rows) == len(watch.of(ev.SentenceSummary)) > 0
    # verify mode: final translations' steps show the cached-vs-uncached difference, and it is tiny
    verified = [r for r in window.diagnostics.steps.rows if not r.provisional]
    assert verified and all(r.cells[9] and float(r.cells[9]) < 1e-3 for r in verified)
    assert watch.meter_peak > 0, "the level meter moved with the speech"
    assert "latency" in window.latency_label.text() and "ms" in window.latency_label.text()
    assert "MT:" in window.models_label.text() and "Whisper" in window.models_label.text()
    # the live-text meter: what this session's live text cost, counted from the events it was shown
    meter = LiveTextMeter()
    for event in watch.events:
        meter.observe(event)
    reading = meter.reading()
    assert reading.utterances == len(translations)
    shown = window.diagnostics.live_text.text()
    assert f"early {reading.early} of {reading.long}" in shown and f"erasure {reading.erasure:.2f}" in shown, shown

    # the session's transcript exports as text and SRT
    window.transcript_actions.export_to("txt", str(tmp_path / "t.txt"))
    window.transcript_actions.export_to("srt", str(tmp_path / "t.srt"))
    text, srt = (tmp_path / "t.txt").read_text(), (tmp_path / "t.srt").read_text()
    assert finals[0].text in text and translations[0].text in text
    assert srt.startswith("1\n00:00:") and " --> " in srt and finals[0].text in srt


def process_long(thread) -> bool:
    """Threads made once per process and kept for its lifetime, on purpose: tqdm's monitor
    (faster-whisper's progress bars start it) and the pipeline's Whisper loader (CTranslate2
    models run slower once their loading thread has exited)."""
    return type(thread).__name__ == "TMonitor" or thread.name.startswith("whisper-loader")


def python_threads():
    """Threads Python started, less the process-long ones and _DummyThread entries (QThreads
    that ran Python code leave them behind). Process-long threads may appear, once each."""
    threads = [t for t in threading.enumerate() if not isinstance(t, threading._DummyThread)]
    long_lived = [
        t.name.split("_")[0] if t.name.startswith("whisper-loader") else type(t).__name__
        for t in threads
        if process_long(t)
    ]
    assert len(long_lived) == len(set(long_lived)), f"a process-long thread was started twice: {long_lived}"
    return {t for t in threads if not process_long(t)}


def test_closing_mid_sentence_shuts_every_thread_down(qtbot, store, tmp_path):
    window = make_window(qtbot, store, direction="en-zh", nmt_en_zh=str(random_model("en-zh")))
    qtbot.waitUntil(lambda: not window.pool.busy(), timeout=60000)
    baseline = python_threads()
    watch = Watcher(window)
    recording = speak(
        tmp_path / "long.wav",
        "Good morning, everyone, and welcome to the meeting about the "
        "plan for the project and the report that is finished.",
        "en",
    )
    window.session_control.play_recording(str(recording))  # real-time pace: we close while it talks
    assert {t.name for t in python_threads() - baseline} >= {
        "pipeline-capture",
        "pipeline-recognition",
        "pipeline-translation",
    }
    qtbot.waitUntil(lambda: bool(watch.of(ev.SourcePartial)), timeout=120000)
    assert not watch.of(ev.SourceFinal)  # mid-sentence
    window.close()
    assert python_threads() == baseline
    assert not window.pool.threads and not window.session_control.running()


def test_closing_while_a_session_stops_keeps_the_gui_thread_going(qtbot, store):
    """Closing hides the window at once and waits for the stop in a local event loop: a timer
    on the GUI thread still fires meanwhile, and here it is what lets the stop end."""
    window = make_window(qtbot, store, direction="en-zh", nmt_en_zh=str(random_model("en-zh")))
    released, visible_while_stopping = threading.Event(), []

    class SlowToStop:  # a session whose threads take a while to join (a Whisper pass in progress)
        def stop(self, timeout):
            assert released.wait(timeout), "the GUI thread was blocked while the window closed"

    window.session_control.running_session = SlowToStop()
    QTimer.singleShot(300, lambda: (visible_while_stopping.append(window.isVisible()), released.set()))
    window.close()
    assert released.is_set() and visible_while_stopping == [False]
    assert not window.pool.threads and not window.session_control.running()


def test_missing_and_broken_models_are_explained_and_the_window_stays_usable(qtbot, store, tmp_path):
    broken = tmp_path / "broken"
    shutil.copytree(random_model("en-zh"), broken)
    encoder = broken / "encoder_model.onnx"
    encoder.write_bytes(encoder.read_bytes()[:1000])  # a download cut short
    window = make_window(qtbot, store, direction="en-zh", nmt_en_zh=str(broken), nmt_zh_en=str(tmp_path / "nowhere"))
    en_zh, zh_en = window.models_bar.states["en-zh"], window.models_bar.states["zh-en"]
    assert not en_zh.can_run and "encoder_model.onnx" in en_zh.finding
    assert "unusable" in window.models_bar.labels["en-zh"].text()
    assert not zh_en.can_run and "does not exist" in zh_en.headline
    assert "missing" in window.models_bar.labels["zh-en"].text()

    watch = Watcher(window)
    window.session_control.realtime = False
    window.session_control.play_recording(str(speak(tmp_path / "en.wav", "Thank you very much.", "en")))
    assert not window.alert.isHidden() and "cannot be used" in window.alert.message
    finish(qtbot, window)
    finals = watch.of(ev.SourceFinal)
    assert finals, "the speech is still recognised and shown"
    row = row_of(window, finals[-1].utterance_id)
    assert row.source.text() == finals[-1].text and "Not translated" in row.target.text()
    assert not window.alert.isHidden()

    # the way out: pick a good folder in the model dialog; the doctor's finding is shown in words
    window.model_control.open_dialog("en-zh")
    dialog = window.model_control.dialog
    dialog.check_folder(str(broken))
    qtbot.waitUntil(lambda: dialog.candidate is not None, timeout=60000)
    assert not dialog.use.isEnabled() and "cannot run" in dialog.finding.toPlainText()
    dialog.candidate = None
    dialog.check_folder(str(random_model("en-zh")))
    qtbot.waitUntil(lambda: dialog.candidate is not None, timeout=60000)
    assert dialog.use.isEnabled() and "The app can run this model." in dialog.finding.toPlainText()
    dialog.use.click()
    qtbot.waitUntil(
        lambda: window.models_bar.states.get("en-zh") is not None and window.models_bar.states["en-zh"].can_run,
        timeout=60000,
    )
    assert window.settings.nmt_en_zh == str(random_model("en-zh"))
    assert "✔" in window.models_bar.labels["en-zh"].text()


def test_settings_are_remembered_and_shortcuts_work(qtbot, store):
    window = make_window(qtbot, store, direction="en-zh")
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=5000)
    qtbot.keyClick(window, "d", modifier=__import__("PySide6.QtCore").QtCore.Qt.KeyboardModifier.ControlModifier)
    assert window.direction() == "zh-en" and "中文" in window.transcript_view.source_title.text()
    window.controls.tts.setChecked(False)
    window.diagnostics.verify.setChecked(True)
    window.close()
    again = MainWindow(store)
    qtbot.addWidget(again)
    assert again.direction() == "zh-en"
    assert not again.controls.tts.isChecked() and again.diagnostics.verify.isChecked()
    again.close()


class TwoSpeakers:
    """Stands in for the microphone: an English speaker, silence until the test has switched
    the direction, then a Chinese speaker. Each is a real FileSource playing in real time;
    the gate makes the order of switch and speech certain however busy the machine is."""

    def __init__(self, first, second, gate: threading.Event):
        self.parts = [FileSource(first, realtime=True), FileSource(second, realtime=True)]
        self.gate, self.index = gate, 0
        self.kind, self.name, self.realtime = SourceKind.FILE, "two speakers", True
        self.level, self.captured_at, self.overflow_s = (0.0, 0.0), 0.0, 0.0

    def start(self):
        self.parts[0].start()

    @property
    def finished(self):
        return self.index == 1 and self.parts[1].finished

    def read(self, timeout=0.1):
        if self.index == 0 and self.parts[0].finished:
            if not self.gate.is_set():  # the room is quiet while the direction changes
                time.sleep(0.1)  # a quiet room delivers its 0.1 s blocks in real time
                self.level, self.captured_at = (0.0, 0.0), time.monotonic()
                return np.zeros(SAMPLE_RATE // 10, np.float32)
            self.index = 1
            self.parts[1].start()
        part = self.parts[self.index]
        block = part.read(timeout)
        self.level, self.captured_at = part.level, part.captured_at
        return block

    def stop(self):
        for part in self.parts:
            part.stop()


def test_switching_direction_mid_stream(qtbot, store, tmp_path):
    english = speak(tmp_path / "en.wav", "Good morning.", "en")
    chinese = speak(tmp_path / "zh.wav", "他是我的朋友。", "zh")
    audio, rate = soundfile.read(chinese)
    soundfile.write(chinese, np.concatenate([audio, np.zeros(rate)]), rate)  # a pause after it
    gate = threading.Event()

    window = make_window(
        qtbot, store, direction="en-zh", nmt_en_zh=str(nmt_model("en-zh")), nmt_zh_en=str(nmt_model("zh-en"))
    )
    watch = Watcher(window)
    window.session_control.audio_source = TwoSpeakers(english, chinese, gate)
    window.session_control.start()
    qtbot.waitUntil(lambda: bool(watch.of(ev.SourceFinal)), timeout=120000)
    switched_after = len(watch.events)
    window.controls.direction.setCurrentIndex(window.controls.direction.findData("zh-en"))
    assert window.models_bar.states["zh-en"].can_run, window.models_bar.states["zh-en"].finding
    assert (
        window.session_control.running_session.direction == "zh-en"
        and "中文" in window.transcript_view.source_title.text()
    )
    gate.set()  # the Chinese speaker begins
    finish(qtbot, window)

    finals = {e.utterance_id: e for e in watch.of(ev.SourceFinal)}
    translations = [t for t in watch.of(ev.Translation) if not t.provisional]
    first, *later = sorted(finals)
    assert not re.search(r"[\u4e00-\u9fff]", finals[first].text)
    chinese = [u for u in later if re.search(r"[\u4e00-\u9fff]", finals[u].text)]
    assert chinese, "the Chinese part was heard as Chinese"
    by_utterance = {t.utterance_id: t for t in translations}
    assert by_utterance[first].direction == "en-zh"
    assert by_utterance[first].text == phrasebook_translation("Good morning.", "en-zh")
    for uid in chinese:  # English out (the phrasebook's answer when Whisper heard the phrase)
        expected = phrasebook_translation(finals[uid].text, "zh-en")
        assert (
            by_utterance[uid].text == expected if expected else re.fullmatch(r"[A-Za-z ,.?!']+", by_utterance[uid].text)
        )
    for uid in chinese:
        assert by_utterance[uid].direction == "zh-en"
        assert row_of(window, uid).target.text() == by_utterance[uid].text
    after = watch.events[switched_after:]
    assert any(isinstance(e, ev.Status) and e.state == "direction" for e in after)
    # clean: nothing said in Chinese went through the English-to-Chinese model
    assert not [
        t
        for t in after
        if isinstance(t, ev.Translation) and t.direction == "en-zh" and re.search(r"[\u4e00-\u9fff]", t.source)
    ]


def test_a_missing_model_is_downloaded_with_a_progress_bar(qtbot, store, tmp_path):
    from tests.model_store.local_hub import LocalHub  # the model-store tests' stand-in for the Hub

    hub_root = tmp_path / "hub"  # the repos the catalog's en-zh entries name
    for repo in ("Xenova/opus-mt-en-zh", "Helsinki-NLP/opus-mt-en-zh"):
        shutil.copytree(random_model("en-zh").parent / "onnx-subdir", hub_root / repo)
    with LocalHub(hub_root) as hub:
        window = make_window(qtbot, store, direction="en-zh", hub_endpoint=hub.url)
        assert window.models_bar.states["en-zh"].missing
        assert "missing" in window.models_bar.labels["en-zh"].text()
        window.models_bar.buttons["en-zh"].click()  # "Get model…"
        dialog = window.model_control.dialog
        assert dialog.catalog.currentData() == "opus-mt-en-zh-int8"
        seen = []
        dialog.progress.valueChanged.connect(seen.append)
        dialog.download_button.click()
        qtbot.waitUntil(lambda: dialog.candidate is not None, timeout=60000)
    assert seen and seen[-1] == 100 and seen == sorted(seen)
    assert dialog.candidate.can_run and "The app can run this model." in dialog.finding.toPlainText()
    dialog.use.click()
    qtbot.waitUntil(lambda: "✔" in window.models_bar.labels["en-zh"].text(), timeout=60000)
    assert window.models_bar.states["en-zh"].path.endswith("opus-mt-en-zh-int8")


def test_a_missing_microphone_is_explained_and_stop_joins_every_thread(qtbot, store):
    window = make_window(
        qtbot, store, direction="en-zh", nmt_en_zh=str(random_model("en-zh")), input_device="no such microphone"
    )
    qtbot.waitUntil(lambda: not window.pool.busy(), timeout=60000)
    baseline = python_threads()
    watch = Watcher(window)
    window.controls.button.click()  # Start
    assert window.session_control.running() and window.controls.button.text() == "Stop"
    qtbot.waitUntil(lambda: any(e.stage == "capture" for e in watch.of(ev.Error)), timeout=120000)
    # "No microphone found" here; "no such microphone" where the machine has others
    assert not window.alert.isHidden() and "microphone" in window.alert.message.lower()
    window.controls.button.click()  # Stop: joins the stage threads on a worker
    qtbot.waitUntil(
        lambda: not window.session_control.stopping and window.controls.button.text() == "Start", timeout=90000
    )
    qtbot.waitUntil(lambda: not window.pool.threads, timeout=10000)
    assert python_threads() == baseline


def test_each_session_gets_its_own_rows(qtbot, store, tmp_path):
    """A new session numbers its utterances from the start again; its rows must not land on
    (and be swallowed by) the finished rows of the last one."""
    window = make_window(qtbot, store, direction="en-zh", nmt_en_zh=str(nmt_model("en-zh")))
    window.session_control.realtime = False
    recording = str(speak(tmp_path / "thanks.wav", "Thank you very much.", "en"))
    expected = phrasebook_translation("Thank you very much.", "en-zh")
    for session in (1, 2):
        window.session_control.play_recording(recording)
        finish(qtbot, window)
        rows = list(window.transcript_view.rows.values())
        assert len(rows) == session and window.session_control.session_number == session
        assert rows[-1].source_final and rows[-1].target.text() == expected
