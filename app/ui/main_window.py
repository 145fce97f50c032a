"""The main window: controls, the source and target panels, diagnostics, models, status.

It observes a session (a `Pipeline`, or a `Conversation` of two; both follow
app.pipeline.session.Session) and holds no pipeline logic. The window builds the panels and
wires its parts:

- `SessionControl` (session_control.py) starts and stops sessions, numbers them and hands
  their events on through one `EventBridge` each; direction and speech switches are calls on it.
- `EventPresenter` (event_presenter.py) draws each batch of events: one handler per event type.
- `ModelControl` (model_control.py): the translation models, checked on a worker;
  `InputsControl` (inputs_control.py): the sources, the call output and the voices;
  `TranscriptActions` (transcript_actions.py): export, corrections, the glossary;
  `WindowMenus` (menus.py): the menu bar, with the reading options of `ViewOptions`.

The pipeline loads its models on its own threads; the window's own slow calls (model doctor,
device scan, voices, download, joining a session's threads) run on worker QThreads, so it
keeps drawing.
"""

from __future__ import annotations

import sys

from PySide6.QtCore import QSettings, Qt, QTimer, Signal
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication, QFileDialog, QLabel, QMainWindow, QSplitter, QVBoxLayout, QWidget

from app.shared import paths
from app.shared.crash_trace import CrashTrace
from app.shared.languages import AUTO_DIRECTION, Direction
from app.ui.alerts import AlertBanner, describe
from app.ui.call_output import CallOutputPanel
from app.ui.captions_panel import CaptionsPanel
from app.ui.controls import Controls
from app.ui.crash_notice import CrashNotice
from app.ui.diagnostics import DiagnosticsPanel
from app.ui.event_presenter import EventPresenter
from app.ui.face_to_face import FaceToFace
from app.ui.i18n import choose_language, install_translators, translate
from app.ui.inputs_control import InputsControl
from app.ui.menus import WindowMenus
from app.ui.model_control import ModelControl
from app.ui.models_panel import ModelsBar
from app.ui.quit_signals import QuitOnSignals
from app.ui.session_control import STOP_TIMEOUT_S, SessionControl
from app.ui.settings import UiSettings, load_settings, qsettings, save_settings, take_settings_problem
from app.ui.transcript_actions import TranscriptActions
from app.ui.transcript_view import TranscriptView
from app.ui.workers import WorkerPool


class MainWindow(QMainWindow):
    events_shown = Signal(list)  # each batch of pipeline events, after the window has drawn it
    replaced = Signal(object)  # the window built again in another interface language

    def __init__(self, store: QSettings | None = None, parent=None, crash_trace: CrashTrace | None = None):
        super().__init__(parent)
        self.crash_trace = crash_trace  # told each session's transcript, for the notice after a crash
        self.store = store or qsettings()
        self.settings: UiSettings = load_settings(self.store)
        self._told_unsaved_settings = False  # the settings file cannot be written: said once
        self.pool = WorkerPool(self)
        self.setWindowTitle(translate("MainWindow", "Live Translator"))
        self._build_panels()
        self._build_status_bar()
        self.session_control = SessionControl(self)
        self.event_presenter = EventPresenter(self)
        self.model_control = ModelControl(self)
        self.transcript_actions = TranscriptActions(self)
        self.inputs = InputsControl(self)
        self.menus = WindowMenus(self)
        self.view_options = self.menus.view_options  # the View menu's reading options
        self._apply_settings()
        self._connect()
        self.model_control.refresh()
        self.inputs.load()
        if (problem := take_settings_problem()) is not None:  # a settings file set aside (a FIFO, a device)
            self.alert.show_message(*describe(problem), "warning", topic="settings-file")
        self.crash_notice = CrashNotice(self)
        self.crash_notice.tell_trace_news()

    # --- set-up -----------------------------------------------------------------------------
    def _build_panels(self) -> None:
        self.controls = Controls()
        self.face_to_face = FaceToFace(self)  # direction Auto: whose turn, the override, the table view
        self.call_output = CallOutputPanel()  # a conversation: my translation into the call (issue 25)
        self.models_bar = ModelsBar()
        self.alert = AlertBanner()
        self.transcript_view = TranscriptView()
        self.diagnostics = DiagnosticsPanel()
        self.captions = CaptionsPanel(self)  # live captions in a browser (issue 16)
        self.split = QSplitter(Qt.Orientation.Vertical)
        self.split.addWidget(self.transcript_view)
        self.split.addWidget(self.diagnostics)
        self.split.setSizes([480, 320])
        central = QWidget()
        layout = QVBoxLayout(central)
        for widget in (self.controls, self.face_to_face.panel, self.call_output, self.models_bar, self.alert):
            layout.addWidget(widget)
        layout.addWidget(self.split, 1)
        self.setCentralWidget(central)

    def _build_status_bar(self) -> None:
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

    def _connect(self) -> None:
        sessions = self.session_control
        sessions.events.connect(self.event_presenter.on_events)
        self.event_presenter.shown.connect(self.events_shown)
        self.models_bar.manage.connect(self.model_control.open_dialog)
        sessions.session_begins.connect(self.model_control.warn_before_start)
        sessions.session_begins.connect(self.event_presenter.new_session)
        sessions.session_started.connect(self._session_started)
        sessions.start_failed.connect(self.alert.show_error)
        sessions.session_stopping.connect(self._session_stopping)
        sessions.session_stopped.connect(self._session_stopped)
        self.controls.start_stop.connect(sessions.toggle)
        self.transcript_view.correction_requested.connect(self.transcript_actions.open_correction)
        self.controls.direction_changed.connect(self.set_direction)
        self.controls.tts_toggled.connect(sessions.set_tts_enabled)
        self.controls.voice_changed.connect(sessions.set_voice)
        self.controls.device_changed.connect(self.inputs.set_source)
        self.controls.spoken_changed.connect(sessions.set_spoken)
        self.call_output.set_choice(self.settings.speak_into)
        self.call_output.changed.connect(self.inputs.set_speak_into)
        self.diagnostics.verify_toggled.connect(sessions.set_verify)

    def _apply_settings(self) -> None:
        s = self.settings
        if s.geometry is not None:
            self.restoreGeometry(s.geometry)
        else:
            self.resize(1200, 820)
        if s.splitter is not None:
            self.split.restoreState(s.splitter)
        self.controls.set_direction(s.direction)
        self.face_to_face.set_on(s.direction == AUTO_DIRECTION)
        self.transcript_view.set_direction(self.controls.current_direction())  # Auto: both named
        self.controls.tts.setChecked(s.tts_enabled)
        self.diagnostics.verify.setChecked(s.verify)

    def set_language(self, code: str) -> MainWindow:
        """Remember the interface language and apply it at once: with no session running, the
        window is built again in that language where it stood (every text is set as it is
        built, so rebuilding is the whole retranslation); during a session, from the next start.
        Returns the window now showing (self, or its replacement)."""
        self.settings.language = code
        self.menus.language_actions[code].setChecked(True)
        sessions = self.session_control
        if sessions.running() or sessions.stopping or self.captions.serving:  # a session or a caption page in use
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
        replacement.session_control.audio_source = sessions.audio_source
        replacement.session_control.realtime = sessions.realtime
        replacement.show()
        self.close()
        self.replaced.emit(replacement)
        return replacement

    def _remember_layout(self) -> None:
        self.settings.geometry = self.saveGeometry()
        self.settings.splitter = self.split.saveState()
        self.settings.direction = self.controls.current_direction()  # "auto" stays auto

    # --- direction and the panels -----------------------------------------------------------
    def direction(self) -> str:
        """The direction chosen; face to face (Auto), the side a session starts from (en-zh)."""
        code = self.controls.current_direction()
        return Direction.EN_ZH.value if code == AUTO_DIRECTION else code

    def set_direction(self, code: str) -> None:
        """The direction chooser's pick. Auto (face to face) takes effect at the next start; a
        fixed direction chosen while a face-to-face session runs says the next sentence's language."""
        self.settings.direction = code
        self.face_to_face.set_on(code == AUTO_DIRECTION)
        direction = self.direction()
        session = self.session_control.running_session
        if session is not None and session.speakers:
            self.transcript_view.set_conversation(direction)
        else:
            self.transcript_view.set_direction(code)
        self.model_control.show_in_status_bar()
        self.inputs.show_voices()
        self.model_control.warn_if_unusable()  # and switch anyway: the speech is still shown
        if code != AUTO_DIRECTION:
            self.session_control.set_direction(direction)

    def swap_direction(self) -> None:
        self.controls.set_direction(Direction(self.direction()).reverse.value)

    def choose_recording(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self,
            translate("MainWindow", "Translate a recording"),
            "",
            translate("MainWindow", "Audio (*.wav *.flac *.ogg *.mp3);;All files (*)"),
        )
        if path:
            self.session_control.play_recording(path)

    def clear(self) -> None:
        self.transcript_view.clear()
        self.diagnostics.clear()

    def toggle_diagnostics(self, visible: bool) -> None:
        self.diagnostics.setVisible(visible)

    def toggle_captions(self, on: bool) -> None:
        self.captions.set_serving(on)
        self.menus.serve_captions.setChecked(self.captions.serving)  # starting can fail (port in use)
        self.captions.show()

    # --- a session's course (SessionControl's signals) --------------------------------------
    def _session_started(self, session) -> None:
        conversation = bool(session.speakers)
        self.controls.set_conversation(conversation, self.settings.spoken)
        self.call_output.setVisible(conversation)
        if conversation:
            self.transcript_view.set_conversation(self.direction())
        self.controls.set_running(True)
        self.state_label.setText(translate("MainWindow", "Loading models…"))

    def _session_stopping(self) -> None:
        self.controls.set_running(False, busy=translate("MainWindow", "Stopping…"))
        self.state_label.setText(translate("MainWindow", "Stopping…"))

    def _session_stopped(self, after: str, error: Exception | None) -> None:
        if not self.session_control.stopping:
            self.controls.set_running(self.session_control.running())
        self.state_label.setText(after or translate("MainWindow", "Stopped"))
        if error is not None:
            self.alert.show_error(error)

    # --- notices ----------------------------------------------------------------------------
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

    # --- closing ----------------------------------------------------------------------------
    def closeEvent(self, event) -> None:
        """Closing mid-session: the session stops on a worker, as with Stop. While anything
        still runs on the window's workers, the window is hidden and the GUI thread waits for
        them in a local event loop, handling events meanwhile, for at most STOP_TIMEOUT_S;
        `shutdown` then joins whatever outlived that (blocking), and the app can quit."""
        self.view_options.window_closing()
        self._remember_layout()
        self.save_settings()
        self.session_control.stop()
        if self.pool.threads:
            self.hide()  # gone for the user at once; a Whisper pass may take a moment
            self.pool.wait_idle(STOP_TIMEOUT_S)
        self.pool.shutdown()
        self.session_control.end_sessions()
        self.captions.shutdown()
        self.diagnostics.timer.stop()
        super().closeEvent(event)


def run_app(argv: list[str] | None = None, overlay: bool = False, lang: str | None = None) -> int:
    """`lang`: python -m app --lang (en, zh_CN, zh_TW); else the setting, else the system locale."""
    app = QApplication.instance() or QApplication(argv if argv is not None else sys.argv)
    app.setApplicationName("Live Translator")
    app.setDesktopFileName("live-translator")  # the menu's entry (python -m app desktop): its icon on Wayland
    install_translators(choose_language(lang, load_settings().language))
    app.setWindowIcon(QIcon(str(paths.resource("icon", "live-translator.png"))))
    shown = ShownWindow(open_window(overlay))
    trace = shown.window.crash_trace  # kept: a language switch replaces the window
    quit_after_ms = paths.quit_after_ms()
    if quit_after_ms is not None:  # smoke test of packaged builds: close as a user would, after N ms
        QTimer.singleShot(quit_after_ms, lambda: shown.window.close())
    signals = QuitOnSignals(lambda: shown.window.close() and app.quit())  # Ctrl-C, SIGTERM: as Close does
    status = app.exec()
    signals.restore()
    trace.end()
    return status


class ShownWindow:
    """The window run_app shows, held while the app runs (a top-level window lives as long as
    Python holds it); a language switch's replacement takes its place."""

    def __init__(self, window: MainWindow):
        self.hold(window)

    def hold(self, window: MainWindow) -> None:
        self.window = window
        window.replaced.connect(self.hold)


def open_window(overlay: bool = False) -> MainWindow:
    """The app's window, shown, with this run traced (app/shared/crash_trace.py) and word of an
    earlier run that ended unexpectedly."""
    trace = CrashTrace()
    ended = trace.begin()  # from here a fatal error's traceback goes to the log folder
    trace.told = ended  # said by the window; consumed once the user has seen it
    window = MainWindow(crash_trace=trace)
    window.show()
    if overlay:  # python -m app --overlay
        window.view_options.set_overlay_visible(True)
    return window
