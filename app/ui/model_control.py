"""The window's translation models: each direction's folder found and checked by the model
doctor off the GUI thread (app/ui/model_state.py), shown in the models bar and the status bar,
a missing or broken one said in the banner, and the Models dialog that gets or changes one."""

from __future__ import annotations

from PySide6.QtCore import QObject

from app.shared.languages import Direction
from app.ui import model_state
from app.ui.i18n import translate
from app.ui.model_dialog import ModelDialog
from app.ui.workers import Worker


class ModelControl(QObject):
    def __init__(self, window):
        super().__init__(window)
        self.window = window  # a MainWindow: its settings, models bar, banner, status bar and worker pool
        self.dialog = None  # the last ModelDialog opened

    def refresh(self) -> None:
        """Find the model folder for each direction and check it (off the GUI thread)."""
        window = self.window
        configured = {d.value: window.settings.nmt_dir(d) for d in Direction}
        for direction, path in configured.items():
            window.models_bar.set_checking(direction, path)
        worker = Worker(model_state.find_and_check_all, configured, with_progress=True)
        worker.progress.connect(
            lambda message, _: window.statusBar().showMessage(str(message), 10000)
        )  # translated on the worker
        worker.finished.connect(self._checked)
        window.pool.start(worker)
        window.models_bar.set_asr(window.settings.asr_model)
        self.show_in_status_bar()

    def _checked(self, states: list) -> None:
        for state in states:
            self.window.models_bar.set_state(state)
        self.show_in_status_bar()
        self.warn_if_unusable()

    def warn_if_unusable(self) -> None:
        """The clear state: a missing or broken model for the chosen direction says so at once."""
        alert = self.window.alert
        state = self.window.models_bar.states.get(self.window.direction())
        if state is not None and not state.can_run:
            alert.show_message(state.headline, state.hint, "warning", topic="model")
        else:
            alert.withdraw("model")  # an earlier model warning no longer applies

    def warn_before_start(self) -> None:
        """A session starts: its model's problem said again (it starts anyway: the speech is
        still shown), or the banner cleared of the last session's news."""
        state = self.window.models_bar.states.get(self.window.direction())
        self.window.alert.clear_session_news()  # notices of the app (a crash, the settings file) stay
        if state is not None and not state.can_run:
            self.window.alert.show_message(state.headline, state.hint, "warning", topic="model")

    def show_in_status_bar(self) -> None:
        window = self.window
        state = window.models_bar.states.get(window.direction())
        nmt = state.name if state and state.can_run else translate("MainWindow", "no translation model")
        window.models_label.setText(
            translate("MainWindow", "ASR: Whisper {asr} · MT: {nmt}").format(asr=window.settings.asr_model, nmt=nmt)
        )

    def open_dialog(self, direction: str) -> None:
        """Get or change the model for `direction` (Models ▸ Manage models…, the models bar's buttons)."""
        window = self.window
        dialog = ModelDialog(direction, window.models_bar.states.get(direction), window.settings.hub_endpoint, window)
        dialog.model_chosen.connect(self.use_model)
        dialog.endpoint_changed.connect(lambda url: setattr(window.settings, "hub_endpoint", url))
        dialog.show()
        self.dialog = dialog

    def use_model(self, direction: str, path: str) -> None:
        self.window.settings.set_nmt_dir(direction, path)
        self.window.save_settings()
        self.refresh()
