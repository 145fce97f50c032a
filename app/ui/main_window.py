"""The main window: controls, the source and target panels, diagnostics, models, status.

It observes a session (a `Pipeline`, or a `Conversation` of two; both follow
app.pipeline.session.Session) through `EventBridge` and holds no pipeline logic: starting,
stopping, direction and speech switches are calls on the session; everything shown comes
from its events. The pipeline loads its models on its own threads; the window's own
slow calls (model doctor, device scan, download) run on worker QThreads, so it keeps drawing.
"""

from __future__ import annotations

import sys
from pathlib import Path

from PySide6.QtCore import QSettings, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QActionGroup, QIcon, QKeySequence, QShortcut
from PySide6.QtWidgets import QApplication, QFileDialog, QLabel, QMainWindow, QSplitter, QVBoxLayout, QWidget

from app.pipeline.session import Session
from app.pipeline.subtitles import export
from app.shared import events as ev
from app.shared import paths
from app.shared.crash_trace import CrashTrace, UnexpectedEnd
from app.shared.errors import LiveTranslatorError
from app.shared.glossary import Glossary
from app.shared.languages import Direction, Language
from app.tts import SpeechOutput
from app.ui import model_state
from app.ui.alerts import AlertBanner
from app.ui.bridge import EventBridge
from app.ui.call_output import CallOutputPanel, list_outputs
from app.ui.captions_panel import CaptionsPanel
from app.ui.controls import Controls
from app.ui.correction_dialog import Correction, CorrectionDialog, CorrectionKind
from app.ui.diagnostics import DiagnosticsPanel
from app.ui.i18n import (
    LANGUAGES,
    NATIVE_NAMES,
    QT_TRANSLATE_NOOP,
    choose_language,
    error_texts,
    install_translators,
    translate,
)
from app.ui.models_panel import ModelsBar
from app.ui.settings import UiSettings, load_settings, qsettings, save_settings
from app.ui.sources import chosen, make_session, source_choices, spoken_side
from app.ui.transcript_view import TranscriptView
from app.ui.view_options import ViewOptions
from app.ui.voices import list_voices
from app.ui.workers import Worker, WorkerPool

# Joining the stage threads waits for a Whisper pass in progress (it cannot be interrupted);
# on a loaded 2-core machine that has taken over 10 s.
STOP_TIMEOUT_S = 60.0
_windows: list = []  # the window run_app shows (or its rebuilt replacement)
# Pipeline states as the status bar names them (translated where shown).
STATE_NAMES = {
    "loading": QT_TRANSLATE_NOOP("MainWindow", "Loading"),
    "running": QT_TRANSLATE_NOOP("MainWindow", "Running"),
    "direction": QT_TRANSLATE_NOOP("MainWindow", "Direction"),
    "finished": QT_TRANSLATE_NOOP("MainWindow", "Finished"),
    "stopped": QT_TRANSLATE_NOOP("MainWindow", "Stopped"),
}


class MainWindow(QMainWindow):
    events_shown = Signal(list)  # each batch of pipeline events, after the window has drawn it
    replaced = Signal(object)  # the window built again in another interface language

    def __init__(self, store: QSettings | None = None, parent=None, crash_trace: CrashTrace | None = None):
        super().__init__(parent)
        self.crash_trace = crash_trace  # told each session's transcript, for the notice after a crash
        self.store = store or qsettings()
        self.settings: UiSettings = load_settings(self.store)
        self.pipeline: Session | None = None  # a Pipeline, or a Conversation (app.pipeline.session)
        self._told_unsaved_settings = False  # the settings file cannot be written: said once
        self.input_path: str | None = None  # a recording played in place of the microphone
        self.audio_source = None  # any AudioSource (tests, demos) instead of the mic
        self.realtime = True  # play recordings at speaking speed
        self.pool = WorkerPool(self)
        self.session = 0  # each start is a session; utterance ids restart
        self.bridges: dict[int, EventBridge] = {}
        self.session_transcript = None
        self.stopping = 0  # stops still joining threads on workers
        self.latencies: list[float] = []

        self.setWindowTitle(translate("MainWindow", "Live Translator"))
        self.controls = Controls()
        self.call_output = CallOutputPanel()  # a conversation: my translation into the call (issue 25)
        self.models_bar = ModelsBar()
        self.alert = AlertBanner()
        self.transcript = TranscriptView()
        self.diagnostics = DiagnosticsPanel()
        self.captions = CaptionsPanel(self)  # live captions in a browser (issue 16)
        self.split = QSplitter(Qt.Orientation.Vertical)
        self.split.addWidget(self.transcript)
        self.split.addWidget(self.diagnostics)
        self.split.setSizes([480, 320])

        central = QWidget()
        layout = QVBoxLayout(central)
        layout.addWidget(self.controls)
        layout.addWidget(self.call_output)
        layout.addWidget(self.models_bar)
        layout.addWidget(self.alert)
        layout.addWidget(self.split, 1)
        self.setCentralWidget(central)

        self.state_label = QLabel(translate("MainWindow", "Stopped"))
        self.latency_label = QLabel(translate("MainWindow", "latency –"))
        self.latency_label.setToolTip(
            translate("MainWindow", "End of speech → final translation: last (median of the session)")
        )
        self.models_label = QLabel()
        status = self.statusBar()
        status.addWidget(self.state_label, 1)
        status.addPermanentWidget(self.latency_label)
        status.addPermanentWidget(self.models_label)

        self._build_menus()
        self._apply_settings()
        self.controls.start_stop.connect(self.toggle)
        self.transcript.correction_requested.connect(self.open_correction)
        self.controls.direction_changed.connect(self.set_direction)
        self.controls.tts_toggled.connect(self.set_tts)
        self.controls.voice_changed.connect(self.set_voice)
        self.controls.device_changed.connect(self.set_source)
        self.controls.spoken_changed.connect(self.set_spoken)
        self.call_output.set_choice(self.settings.speak_into)
        self.call_output.changed.connect(self.set_speak_into)
        self.diagnostics.verify_toggled.connect(self.set_verify)
        self.models_bar.manage.connect(self.open_model_dialog)
        self.voices: dict[str, list[tuple[str, str]]] = {}
        self.refresh_models()
        self._load_devices()
        self._load_voices()

    # --- set-up -----------------------------------------------------------------------------
    def _build_menus(self) -> None:
        file_menu = self.menuBar().addMenu(translate("MainWindow", "&File"))
        self._action(file_menu, translate("MainWindow", "Translate a &recording…"), self.choose_recording, "Ctrl+O")
        file_menu.addSeparator()
        self._action(
            file_menu, translate("MainWindow", "Export transcript as &text…"), lambda: self.export("txt"), "Ctrl+S"
        )
        self._action(
            file_menu, translate("MainWindow", "Export transcript as S&RT…"), lambda: self.export("srt"), "Ctrl+Shift+S"
        )
        self._action(file_menu, translate("MainWindow", "Export transcript as &WebVTT…"), lambda: self.export("vtt"))
        file_menu.addSeparator()
        self._action(file_menu, translate("MainWindow", "&Quit"), self.close, QKeySequence.StandardKey.Quit)
        session = self.menuBar().addMenu(translate("MainWindow", "&Session"))
        self._action(session, translate("MainWindow", "&Start / stop"), self.toggle, "Ctrl+Return")
        self._action(session, translate("MainWindow", "Swap &direction"), self.swap_direction, "Ctrl+D")
        self._action(session, translate("MainWindow", "&Clear panels"), self.clear, "Ctrl+L")
        self._action(session, translate("MainWindow", "Co&rrect the selected words…"), self.correct_selection, "Ctrl+E")
        view = self.menuBar().addMenu(translate("MainWindow", "&View"))
        self.show_diagnostics = self._action(
            view, translate("MainWindow", "&Diagnostics panel"), self.toggle_diagnostics, "Ctrl+I"
        )
        self.show_diagnostics.setCheckable(True)
        self.show_diagnostics.setChecked(True)
        self.serve_captions = self._action(
            view, translate("MainWindow", "Live &captions in a browser"), self.toggle_captions, "Ctrl+B"
        )
        self.serve_captions.setCheckable(True)
        self.captions.serving_changed.connect(self.serve_captions.setChecked)
        self.view_options = ViewOptions(self, view)
        self._build_language_menu(view)
        models = self.menuBar().addMenu(translate("MainWindow", "&Models"))
        self._action(
            models,
            translate("MainWindow", "&Manage models…"),
            lambda: self.open_model_dialog(self.direction()),
            "Ctrl+M",
        )
        self._action(models, translate("MainWindow", "&Glossary…"), self.open_glossary_editor, "Ctrl+G")
        # F5 too: a key that works while a text panel has focus.
        QShortcut(QKeySequence("F5"), self, self.toggle)

    def _build_language_menu(self, view) -> None:
        """View -> Interface language: the system's, or one chosen; used from the next start."""
        menu = view.addMenu(translate("MainWindow", "Interface &language"))
        group = QActionGroup(self)
        self.language_actions: dict[str, QAction] = {}
        for code in ("", *LANGUAGES):
            label = NATIVE_NAMES.get(code) or translate("MainWindow", "Follow the system")
            action = QAction(label, self, checkable=True)
            action.setChecked(code == self.settings.language)
            action.triggered.connect(lambda _=False, c=code: self.set_language(c))
            group.addAction(action)
            menu.addAction(action)
            self.language_actions[code] = action

    def set_language(self, code: str) -> MainWindow:
        """Remember the interface language and apply it at once: with no session running, the
        window is built again in that language where it stood (every text is set as it is
        built, so rebuilding is the whole retranslation); during a session, from the next start.
        Returns the window now showing (self, or its replacement)."""
        self.settings.language = code
        self.language_actions[code].setChecked(True)
        if self.running() or self.stopping or self.captions.serving:  # a session or a caption page in use
            self.save_settings()
            self.alert.show_message(
                translate("MainWindow", "The interface language changes when you restart Live Translator."),
                "",
                "info",
                topic="language",
            )
            return self
        self._remember_layout()
        self.save_settings()
        install_translators(choose_language(None, code))
        replacement = MainWindow(self.store, crash_trace=self.crash_trace)
        replacement.audio_source, replacement.realtime = self.audio_source, self.realtime
        replacement.show()
        _windows[:] = [replacement]  # a top-level window lives as long as Python holds it
        self.close()
        self.replaced.emit(replacement)
        return replacement

    def _remember_layout(self) -> None:
        self.settings.geometry = self.saveGeometry()
        self.settings.splitter = self.split.saveState()
        self.settings.direction = self.direction()

    def _action(self, menu, text, slot, shortcut=None) -> QAction:
        action = QAction(text, self)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        action.triggered.connect(slot)
        menu.addAction(action)
        return action

    def _apply_settings(self) -> None:
        s = self.settings
        if s.geometry is not None:
            self.restoreGeometry(s.geometry)
        else:
            self.resize(1200, 820)
        if s.splitter is not None:
            self.split.restoreState(s.splitter)
        self.controls.set_direction(s.direction)
        self.transcript.set_direction(s.direction)
        self.controls.tts.setChecked(s.tts_enabled)
        self.diagnostics.verify.setChecked(s.verify)

    def _load_devices(self) -> None:
        """PortAudio's device scan can take a moment: do it on a worker."""
        worker = Worker(source_choices)
        worker.finished.connect(self._show_sources)
        self.pool.start(worker)
        outputs = Worker(list_outputs)
        outputs.finished.connect(lambda found: self.call_output.set_outputs(found, self.settings.speak_into))
        self.pool.start(outputs)

    def _show_sources(self, sources) -> None:
        choice = chosen(self.settings)
        self.controls.set_devices(sources, choice.key)
        self.controls.set_conversation(choice.kind == "conversation", self.settings.spoken)
        self.call_output.setVisible(choice.kind == "conversation")

    def set_source(self, key: str) -> None:
        """The source chooser's pick: a microphone, system audio, or a conversation."""
        self.settings.source = key
        kind, _, device = key.partition(":")
        if kind == "microphone":
            self.settings.input_device = device
        elif kind == "system":
            self.settings.system_device = device
        self.controls.set_conversation(kind == "conversation", self.settings.spoken)
        self.call_output.setVisible(kind == "conversation")

    def set_spoken(self, side: str) -> None:
        """A conversation's spoken side: their words (default), mine, or both."""
        self.settings.spoken = side
        if self.pipeline is not None:
            self.pipeline.set_spoken(spoken_side(side).speakers)

    def set_speak_into(self, speak_into: str) -> None:
        """Where my translated speech goes in a conversation ("" = with theirs); from the next start.
        Sending it into the call means my translations are spoken: the spoken side includes me."""
        self.settings.speak_into = speak_into
        if speak_into and self.settings.spoken == "them":
            self.controls.set_conversation(True, "me")
            self.set_spoken("me")

    def _load_voices(self) -> None:
        worker = Worker(list_voices)
        worker.finished.connect(self._show_voices)
        self.pool.start(worker)

    def _show_voices(self, voices: dict | None = None) -> None:
        if voices is not None:
            self.voices = voices
        language = Direction(self.direction()).target
        self.controls.set_voices(self.voices.get(language, []), self.settings.voice(language))

    # --- state ------------------------------------------------------------------------------
    def direction(self) -> str:
        return self.controls.current_direction()

    def running(self) -> bool:
        return self.pipeline is not None

    def refresh_models(self) -> None:
        """Find the model folder for each direction and check it (off the GUI thread)."""
        configured = {d.value: self.settings.nmt_dir(d) for d in Direction}
        for direction, path in configured.items():
            self.models_bar.set_checking(direction, path)
        worker = Worker(model_state.find_and_check_all, configured, with_progress=True)
        worker.progress.connect(
            lambda message, _: self.statusBar().showMessage(str(message), 10000)
        )  # translated on the worker
        worker.finished.connect(self._models_checked)
        self.pool.start(worker)
        self.models_bar.set_asr(self.settings.asr_model)
        self._update_models_label()

    def _models_checked(self, states: list) -> None:
        for state in states:
            self.models_bar.set_state(state)
        self._update_models_label()
        self._warn_if_no_model()

    def _warn_if_no_model(self) -> None:
        """The clear state: a missing or broken model for the chosen direction says so at once."""
        state = self.models_bar.states.get(self.direction())
        if state is not None and not state.can_run:
            self.alert.show_message(state.headline, state.hint, "warning", topic="model")
        elif self.alert.topic == "model":
            self.alert.hide()  # an earlier model warning no longer applies

    def _update_models_label(self) -> None:
        state = self.models_bar.states.get(self.direction())
        nmt = state.name if state and state.can_run else translate("MainWindow", "no translation model")
        self.models_label.setText(
            translate("MainWindow", "ASR: Whisper {asr} · MT: {nmt}").format(asr=self.settings.asr_model, nmt=nmt)
        )

    # --- session ----------------------------------------------------------------------------
    def toggle(self) -> None:
        if self.running():
            self.stop()
        elif not self.stopping:
            self.start()

    def start(self) -> None:
        """Start a session. Returns at once: the pipeline loads its models on its own threads
        and reports progress as Status events, so the window keeps drawing meanwhile."""
        direction = self.direction()
        state = self.models_bar.states.get(direction)
        if state is not None and not state.can_run:  # start anyway: the speech is still shown
            self.alert.show_message(state.headline, state.hint, "warning", topic="model")
        else:
            self.alert.hide()
        config = model_state.pipeline_config(
            self.settings, direction, self.models_bar.states, input_path=self.input_path, realtime=self.realtime
        )
        from app.ui.glossary_editor import load_user_glossary

        config.glossary = load_user_glossary()  # the user's terms: heard as hotwords, translated as written
        bridge = self.new_session()
        try:
            speech = SpeechOutput(
                voices={language: self.settings.voice(language) for language in Language},
                enabled=config.tts_enabled,
                rate=config.tts_rate,
                out_path=config.tts_out,
            )
            if chosen(self.settings).kind == "conversation" and self.input_path is None and self.audio_source is None:
                self.call_output.apply_to(speech)
            # a Pipeline, or a Conversation of two (me: microphone, them: system audio)
            pipeline = make_session(
                self.settings, config, on_event=bridge.on_event, audio_source=self.audio_source, speech_output=speech
            )
            pipeline.start()
        except Exception as error:
            self.alert.show_error(error)
            self.end_session(self.session)
            return
        self.pipeline = pipeline
        self.session_transcript = pipeline.transcript
        if self.crash_trace is not None and pipeline.transcript is not None:
            self.crash_trace.note_transcript(pipeline.transcript.path)
        conversation = bool(pipeline.speakers)
        self.controls.set_conversation(conversation, self.settings.spoken)
        self.call_output.setVisible(conversation)
        if conversation:
            self.transcript.set_conversation(direction)
        self.controls.set_running(True)
        self.state_label.setText(translate("MainWindow", "Loading models…"))

    def new_session(self) -> EventBridge:
        """A bridge for one session's events: rows are keyed by (session, utterance_id), since
        a new pipeline numbers its utterances from the start again."""
        self.session += 1
        self.latencies = []
        self.captions.new_session()
        bridge = self.bridges[self.session] = EventBridge(self)
        bridge.events.connect(lambda batch, session=self.session: self.on_events(batch, session))
        return bridge

    def end_session(self, session: int) -> None:
        """After its pipeline has stopped: deliver what is left, then let the bridge go."""
        bridge = self.bridges.pop(session, None)
        if bridge is not None:
            bridge.drain()
            bridge.stop()
            bridge.deleteLater()

    def stop(self, after: str | None = None) -> None:
        """Stop on a worker: joining the stage threads can wait for a Whisper pass to end."""
        pipeline, self.pipeline = self.pipeline, None
        if pipeline is None:
            return
        after = after if after is not None else translate("MainWindow", "Stopped")
        self.stopping += 1
        self.controls.set_running(False, busy=translate("MainWindow", "Stopping…"))
        self.state_label.setText(translate("MainWindow", "Stopping…"))
        worker = Worker(pipeline.stop, timeout=STOP_TIMEOUT_S)
        session = self.session
        worker.finished.connect(lambda _r: self._stopped(after, session))
        worker.failed.connect(lambda error: (self._stopped(after, session), self.alert.show_error(error)))
        self.pool.start(worker)

    def _stopped(self, after: str, session: int) -> None:
        self.end_session(session)
        self.stopping -= 1
        if not self.stopping:
            self.controls.set_running(self.running())
        self.state_label.setText(after)

    def set_direction(self, direction: str) -> None:
        self.settings.direction = direction
        if self.pipeline is not None and self.pipeline.speakers:
            self.transcript.set_conversation(direction)
        else:
            self.transcript.set_direction(direction)
        self._update_models_label()
        self._show_voices()
        self._warn_if_no_model()  # and switch anyway: the speech is still shown
        if self.pipeline is not None:
            self.pipeline.set_direction(direction)

    def set_voice(self, voice_id: str) -> None:
        language = Direction(self.direction()).target
        self.settings.set_voice(language, voice_id)
        if self.pipeline is not None:
            self.pipeline.speech_output.set_voice(language, voice_id)

    def swap_direction(self) -> None:
        self.controls.set_direction(Direction(self.direction()).reverse.value)

    def set_tts(self, enabled: bool) -> None:
        self.settings.tts_enabled = enabled
        if self.pipeline is not None:
            self.pipeline.set_tts_enabled(enabled)

    def set_verify(self, enabled: bool) -> None:
        self.settings.verify = enabled
        if self.pipeline is not None:  # from the next translation on
            self.pipeline.set_verify(enabled)

    def choose_recording(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self,
            translate("MainWindow", "Translate a recording"),
            "",
            translate("MainWindow", "Audio (*.wav *.flac *.ogg *.mp3);;All files (*)"),
        )
        if path:
            self.play_recording(path)

    def play_recording(self, path: str) -> None:
        """Translate a recording at real-time speed, in place of the microphone."""
        if self.running():
            self.stop()
        self.input_path = path
        self.start()

    def clear(self) -> None:
        self.transcript.clear()
        self.diagnostics.clear()

    def toggle_diagnostics(self, visible: bool) -> None:
        self.diagnostics.setVisible(visible)

    def toggle_captions(self, on: bool) -> None:
        self.captions.set_serving(on)
        self.serve_captions.setChecked(self.captions.serving)  # starting can fail (port in use)
        self.captions.show()

    # --- events from the pipeline (GUI thread, in batches) ----------------------------------
    def on_events(self, batch: list, session: int) -> None:
        level = level_them = None
        for event in batch:
            if event.speaker is not None and getattr(event, "utterance_id", None) is not None:
                self.transcript.set_speaker((session, event.utterance_id), event.speaker)  # a conversation's row
            if isinstance(event, ev.DecodeStepEvent):
                self.diagnostics.add_step(event.utterance_id, event.provisional, event.step)
            elif isinstance(event, ev.SourcePartial):
                self.transcript.show_partial((session, event.utterance_id), event.text, event.committed)
            elif isinstance(event, ev.SourceFinal):
                self.transcript.show_final(
                    (session, event.utterance_id), event.text, event.low_confidence, event.revised
                )
            elif isinstance(event, ev.Translation):
                self.transcript.show_translation(
                    (session, event.utterance_id),
                    event.text,
                    event.provisional,
                    event.low_confidence,
                    event.alternatives,
                    event.stable,
                )
                if not event.provisional and event.latency_ms is not None:
                    self._show_latency(event.latency_ms)
            elif isinstance(event, ev.CaptionCorrected):
                self.transcript.show_corrected((session, event.utterance_id), event.source, event.text)
            elif isinstance(event, ev.SentenceSummary):
                self.diagnostics.add_sentence(event.utterance_id, event.provisional, event.summary)
            elif isinstance(event, ev.Level):
                if event.speaker == "them":
                    level_them = event
                else:
                    level = event
            elif isinstance(event, ev.Status) and session == self.session:
                self._show_status(event)
            elif isinstance(event, ev.Error):
                self._show_pipeline_error(event, session)
            elif isinstance(event, ev.SentLevel):
                self.call_output.show_level(event)
            elif isinstance(event, ev.Speech):
                self.statusBar().showMessage(translate("MainWindow", "Spoke: {text}").format(text=event.text), 4000)
        if level is not None and session == self.session:
            self.controls.set_level(level.rms)
        if level_them is not None and session == self.session:
            self.controls.set_level(level_them.rms, them=True)
        if session == self.session:
            self.captions.observe(batch)
        self.events_shown.emit(batch)

    def _show_latency(self, latency_ms: float) -> None:
        self.latencies.append(latency_ms)
        ordered = sorted(self.latencies)
        median = ordered[len(ordered) // 2]
        self.latency_label.setText(
            translate("MainWindow", "latency {last} ms (median {median} ms)").format(
                last=f"{latency_ms:.0f}", median=f"{median:.0f}"
            )
        )

    def _show_status(self, event: ev.Status) -> None:
        if event.state == "finished" and self.pipeline is not None:  # the recording ended
            self.input_path = None
            self.stop(after=translate("MainWindow", "Finished: the recording has been translated"))
        elif event.state != "stopped":
            # The state's name is the window's; its detail comes from the core, in English.
            name = translate("MainWindow", STATE_NAMES.get(event.state, event.state.capitalize()))
            self.state_label.setText(
                translate("MainWindow", "{state}: {detail}").format(state=name, detail=event.detail)
                if event.detail
                else name
            )

    def _show_pipeline_error(self, event: ev.Error, session: int) -> None:
        message, hint = error_texts(event)  # the core's templates, in the interface's language
        if event.utterance_id is not None and event.stage == "translation":
            self.transcript.show_error((session, event.utterance_id), message)
        if event.stage == ev.Stage.TRANSCRIPT:  # saving failed; translation goes on
            self.alert.show_message(message, hint, "warning", topic="transcript")
            return
        kind = "warning" if event.stage == "tts" else "error"
        self.alert.show_message(message, hint, kind)

    # --- export -----------------------------------------------------------------------------
    def export(self, kind: str) -> None:
        if self.session_transcript is None:
            self.alert.show_message(
                translate("MainWindow", "There is no transcript yet."),
                translate("MainWindow", "Start a session; the transcript is saved as it goes."),
                "info",
            )
            return
        path, _ = QFileDialog.getSaveFileName(
            self,
            translate("MainWindow", "Export transcript"),
            f"transcript.{kind}",
            translate("MainWindow", "Text (*.txt)")
            if kind == "txt"
            else translate("MainWindow", "Subtitles (*.{kind})").format(kind=kind),
        )
        if path:
            self.export_to(kind, path)

    def export_to(self, kind: str, path: str) -> None:
        transcript = self.session_transcript
        try:
            text = export(transcript.entries, kind, bilingual=True)  # the window's exports: both languages
            Path(path).write_text(text, encoding="utf-8")
        except Exception as error:
            self.alert.show_error(error)
            return
        self.statusBar().showMessage(translate("MainWindow", "Saved {path}").format(path=path), 5000)

    # --- corrections ------------------------------------------------------------------------
    def correct_selection(self) -> None:
        """Session ▸ Correct the selected words (Ctrl+E): the words selected in either panel."""
        selected = self.transcript.selection()
        if selected is None:
            self.alert.show_message(
                translate("MainWindow", "Select the words to correct first."),
                translate("MainWindow", "Select them in the speech or the translation panel, then choose Correct…"),
                "info",
            )
            return
        self.open_correction(*selected)

    def open_correction(self, key, column: str, selected: str) -> CorrectionDialog:
        self.correction_dialog = dialog = CorrectionDialog(column, selected, self)
        dialog.accepted.connect(lambda: self.apply_correction(key, dialog.correction()))
        dialog.open()
        return dialog

    def apply_correction(self, key, correction: Correction) -> bool:
        """Save the correction in the user's glossary, use it from the running session's next
        utterance on, and send the corrected caption to the panels, the overlay and every caption page."""
        from app.ui.glossary_editor import user_glossary_path

        path = user_glossary_path()
        try:
            glossary = Glossary.load(path) if path.is_file() else Glossary()
            glossary = correction.added_to(glossary)
            glossary.save(path)
        except (LiveTranslatorError, OSError) as error:  # an unreadable file is not overwritten
            self.alert.show_error(error)
            return False
        if self.pipeline is not None:
            self.pipeline.apply_glossary(glossary)
        row = self.transcript.rows.get(key)
        if row is None:
            return True
        session, utterance_id = key
        heard = correction.kind is CorrectionKind.HEARD
        event = ev.CaptionCorrected(
            utterance_id=utterance_id,
            speaker=ev.Speaker(row.speaker) if row.speaker else None,
            source=correction.fix(row.source_text) if heard else row.source_text,
            text=row.translation if heard else correction.fix(row.translation),
        )
        if self.pipeline is not None and session == self.session:
            self.pipeline.publish_correction(event)  # to every observer, through the session's bridge
        else:
            self.on_events([event], session)  # the session has ended: the window and its outputs
        self.statusBar().showMessage(translate("MainWindow", "Corrected; saved in the glossary."), 5000)
        return True

    # --- models -----------------------------------------------------------------------------
    def open_model_dialog(self, direction: str) -> None:
        from app.ui.model_dialog import ModelDialog

        dialog = ModelDialog(direction, self.models_bar.states.get(direction), self.settings.hub_endpoint, self)
        dialog.model_chosen.connect(self.use_model)
        dialog.endpoint_changed.connect(lambda url: setattr(self.settings, "hub_endpoint", url))
        dialog.show()
        self.model_dialog = dialog

    def open_glossary_editor(self) -> None:
        from app.ui.glossary_editor import GlossaryEditor

        self.glossary_editor = GlossaryEditor(parent=self)
        self.glossary_editor.saved.connect(self._glossary_saved)
        self.glossary_editor.show()

    def _glossary_saved(self, glossary: Glossary) -> None:
        if self.pipeline is not None:  # the running session: from its next utterance on
            self.pipeline.apply_glossary(glossary)

    def use_model(self, direction: str, path: str) -> None:
        self.settings.set_nmt_dir(direction, path)
        self.save_settings()
        self.refresh_models()

    def save_settings(self) -> None:
        """Write the settings; the first time the file cannot be written, say so (once a session)."""
        if save_settings(self.settings, self.store) or self._told_unsaved_settings:
            return
        self._told_unsaved_settings = True
        self.alert.show_message(
            translate("MainWindow", "Your settings cannot be saved: {path} cannot be written.").format(
                path=self.store.fileName()
            ),
            translate(
                "MainWindow",
                "Changes last until you close Live Translator. Make the folder writable, or set "
                "LIVE_TRANSLATOR_SETTINGS to a folder you may write to.",
            ),
            "warning",
            topic="settings",
        )

    def tell_unexpected_end(self, ended: list[UnexpectedEnd]) -> None:
        """The last run ended without closing (killed, a fatal error): say where its words and its crash log are."""
        last = ended[-1]
        headline = translate("MainWindow", "The last session (started {started}) ended unexpectedly.").format(
            started=last.started
        )
        hints = []
        if last.transcript is not None:
            hints.append(
                translate("MainWindow", "Its transcript is saved up to the last sentence: {path}").format(
                    path=last.transcript
                )
            )
        if last.crash_log is not None:
            hints.append(
                translate("MainWindow", "Please attach its crash log to a bug report: {path}").format(
                    path=last.crash_log
                )
            )
        self.alert.show_message(headline, " ".join(hints), "warning", topic="crash")

    # --- closing ----------------------------------------------------------------------------
    def closeEvent(self, event) -> None:
        self.view_options.window_closing()
        self._remember_layout()
        self.save_settings()
        pipeline, self.pipeline = self.pipeline, None
        if pipeline is not None:  # closing mid-sentence: cancel, join every stage thread
            self.hide()  # gone for the user at once; a Whisper pass may take a moment
            pipeline.stop(timeout=STOP_TIMEOUT_S)
        self.pool.shutdown()
        self.captions.shutdown()
        for session in list(self.bridges):
            self.end_session(session)
        self.diagnostics.timer.stop()
        super().closeEvent(event)


def run_app(argv: list[str] | None = None, overlay: bool = False, lang: str | None = None) -> int:
    """`lang`: python -m app --lang (en, zh_CN, zh_TW); else the setting, else the system locale."""
    app = QApplication.instance() or QApplication(argv if argv is not None else sys.argv)
    app.setApplicationName("Live Translator")
    install_translators(choose_language(lang, load_settings().language))
    app.setWindowIcon(QIcon(str(paths.resource("icon", "live-translator.png"))))
    window = open_window(overlay)
    trace = window.crash_trace  # kept: a language switch replaces the window
    quit_after_ms = paths.quit_after_ms()
    if quit_after_ms is not None:  # smoke test of packaged builds: close as a user would, after N ms
        QTimer.singleShot(quit_after_ms, lambda: _windows[0].close())
    status = app.exec()
    trace.end()
    return status


def open_window(overlay: bool = False) -> MainWindow:
    """The app's window, shown, with this run traced (app/shared/crash_trace.py) and word of an
    earlier run that ended unexpectedly."""
    trace = CrashTrace()
    ended = trace.begin()  # from here a fatal error's traceback goes to the log folder
    window = MainWindow(crash_trace=trace)
    _windows[:] = [window]
    window.show()
    if ended:
        window.tell_unexpected_end(ended)
    if overlay:  # python -m app --overlay
        window.view_options.set_overlay_visible(True)
    return window
