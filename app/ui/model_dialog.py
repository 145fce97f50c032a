"""Getting a translation model: pick a folder (the doctor's finding shown in words) or download.

Both run on worker threads: the doctor opens ONNX sessions, a download can take minutes.
A download is cancelled by closing the dialog (its progress callback raises between chunks).
"""

from __future__ import annotations

import html
import threading

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QFileDialog,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
)

from app.ui import model_state
from app.ui.alerts import describe
from app.ui.i18n import direction_words, translate
from app.ui.model_state import ModelState
from app.ui.workers import Worker, WorkerPool


class ModelDialog(QDialog):
    model_chosen = Signal(str, str)  # direction, folder
    endpoint_changed = Signal(str)  # the hub mirror typed in, to remember

    def __init__(self, direction: str, state: ModelState | None, endpoint: str = "", parent=None):
        super().__init__(parent)
        self.direction = direction

        self.candidate: ModelState | None = None
        self.pool = WorkerPool(self)
        self.cancel = threading.Event()
        self.setWindowTitle(
            translate("ModelDialog", "Translation model: {direction}").format(direction=direction_words(direction))
        )
        self.resize(640, 480)

        self.current = QLabel()
        self.current.setWordWrap(True)
        self.finding = QPlainTextEdit()
        self.finding.setReadOnly(True)
        self.finding.setPlaceholderText(translate("ModelDialog", "The model doctor's finding appears here."))

        self.use = QPushButton(translate("ModelDialog", "Use this model"))
        self.use.setEnabled(False)
        self.use.clicked.connect(self.accept_candidate)
        folder_box = self._folder_box()
        download_box = self._download_box(direction, endpoint)

        layout = QVBoxLayout(self)
        layout.addWidget(self.current)
        layout.addWidget(self.finding, 1)
        layout.addWidget(folder_box)
        layout.addWidget(download_box)
        buttons = QHBoxLayout()
        buttons.addStretch()
        buttons.addWidget(self.use)
        close = QPushButton(translate("ModelDialog", "Close"))
        close.clicked.connect(self.close)
        buttons.addWidget(close)
        layout.addLayout(buttons)
        self.show_state(state, current=True)

    def _folder_box(self) -> QGroupBox:
        """Pick a model folder on this computer; the doctor checks it."""
        self.choose = QPushButton(translate("ModelDialog", "Choose folder…"))
        self.choose.clicked.connect(self.choose_folder)
        folder_box = QGroupBox(translate("ModelDialog", "A model folder on this computer"))
        row = QHBoxLayout(folder_box)
        row.addWidget(QLabel(translate("ModelDialog", "ONNX encoder + decoder, tokenizer files, config")), 1)
        row.addWidget(self.choose)
        return folder_box

    def _download_box(self, direction: str, endpoint: str) -> QGroupBox:
        """Download one of the catalog's models for `direction`, from the hub or a mirror."""
        self.catalog = QComboBox()
        self.download_button = QPushButton(translate("ModelDialog", "Download"))
        self.download_button.clicked.connect(self.download)
        try:
            for key, label in model_state.downloadable(direction):
                self.catalog.addItem(label, key)
        except Exception as error:  # no catalog: picking a folder still works
            self.catalog.addItem(
                translate("ModelDialog", "Downloads unavailable: {reason}").format(reason=describe(error)[0])
            )
        self.download_button.setEnabled(self.catalog.itemData(0) is not None)
        self.progress = QProgressBar()
        self.progress.setRange(0, 100)
        self.progress.setValue(0)
        self.endpoint = QLineEdit(endpoint)
        self.endpoint.setPlaceholderText(translate("ModelDialog", "default Hugging Face Hub; or a mirror's address"))
        download_box = QGroupBox(translate("ModelDialog", "Download (needs access to a model hub)"))
        box = QVBoxLayout(download_box)
        top = QHBoxLayout()
        top.addWidget(self.catalog, 1)
        top.addWidget(self.download_button)
        box.addLayout(top)
        mirror = QHBoxLayout()
        mirror.addWidget(QLabel(translate("ModelDialog", "Hub")))
        mirror.addWidget(self.endpoint, 1)
        box.addLayout(mirror)
        box.addWidget(self.progress)
        return download_box

    def show_state(self, state: ModelState | None, current: bool = False) -> None:
        if state is None:
            self.current.setText(translate("ModelDialog", "Checking the model folder…"))
            return
        where = html.escape(state.path or translate("ModelDialog", "no folder"))
        if current:
            line = (
                translate("ModelDialog", "<b>In use:</b> {folder} — can be used.")
                if state.can_run
                else translate("ModelDialog", "<b>In use:</b> {folder} — cannot be used.")
            )
        else:
            line = (
                translate("ModelDialog", "<b>Checked:</b> {folder} — can be used.")
                if state.can_run
                else translate("ModelDialog", "<b>Checked:</b> {folder} — cannot be used.")
            )
        self.current.setText(line.format(folder=where) + f"<br>{html.escape(state.headline)} {html.escape(state.hint)}")
        self.finding.setPlainText(state.finding or f"{state.headline}\n{state.hint}")

    # --- a folder ---------------------------------------------------------------------------
    def choose_folder(self) -> None:
        path = QFileDialog.getExistingDirectory(self, translate("ModelDialog", "Choose a model folder"))
        if path:
            self.check_folder(path)

    def check_folder(self, path: str) -> None:
        self.use.setEnabled(False)
        self.current.setText(translate("ModelDialog", "Checking {path}…").format(path=path))
        worker = Worker(model_state.check_nmt, self.direction, path)
        worker.finished.connect(self._checked)
        worker.failed.connect(lambda error: self.finding.setPlainText("\n".join(describe(error))))
        self.pool.start(worker)

    def _checked(self, state: ModelState) -> None:
        self.candidate = state
        self.show_state(state)
        self.use.setEnabled(state.can_run)

    def accept_candidate(self) -> None:
        if self.candidate is not None and self.candidate.can_run:
            self.model_chosen.emit(self.direction, self.candidate.path)
            self.close()

    # --- a download -------------------------------------------------------------------------
    def download(self) -> None:
        key = self.catalog.currentData()
        self.cancel.clear()
        self.download_button.setEnabled(False)
        self.progress.setValue(0)
        self.current.setText(translate("ModelDialog", "Downloading {model}…").format(model=self.catalog.currentText()))
        endpoint = self.endpoint.text().strip()
        self.endpoint_changed.emit(endpoint)
        worker = Worker(model_state.download, key, self.cancel, endpoint=endpoint, with_progress=True)
        worker.progress.connect(self._progress)
        worker.finished.connect(self._downloaded)
        worker.failed.connect(self._download_failed)
        self.pool.start(worker)

    def _progress(self, done, total) -> None:
        if total:
            self.progress.setValue(int(100 * done / total))
        else:
            self.progress.setRange(0, 0)  # size unknown: a busy bar

    def _downloaded(self, path: str) -> None:
        self.progress.setRange(0, 100)
        self.progress.setValue(100)
        self.download_button.setEnabled(True)
        self.check_folder(path)

    def _download_failed(self, error: BaseException) -> None:
        self.progress.setRange(0, 100)
        self.download_button.setEnabled(True)
        message, hint = describe(error)
        self.current.setText(
            translate("ModelDialog", "<b>Download failed:</b> {message}").format(message=html.escape(message))
        )
        self.finding.setPlainText(f"{message}\n{hint}")

    def closeEvent(self, event) -> None:
        self.cancel.set()
        self.pool.shutdown()
        super().closeEvent(event)
