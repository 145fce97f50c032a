"""The decoder, step by step: table models fed in batches, and the panel that shows them.

Rows are appended to a pending list as events arrive and inserted into the model once per
timer tick, so a burst of decoder steps costs one `beginInsertRows` instead of hundreds; the
row count is capped so a long session cannot grow the table without bound.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt, QTimer, Signal
from PySide6.QtGui import QBrush, QColor, QFont
from PySide6.QtWidgets import QCheckBox, QHBoxLayout, QHeaderView, QLabel, QSplitter, QTableView, QVBoxLayout, QWidget

from app.pipeline.live_meter import LiveTextReading
from app.shared.events import DecodeStep, StopReason
from app.ui.i18n import QT_TRANSLATE_NOOP, translate

WARN_BACKGROUND = QColor("#ffd6d6")
PROVISIONAL_FOREGROUND = QColor("#8a8a8a")
WIDTHS = {"token": 110, "stop": 260, "kind": 90}  # columns whose text is wider than their name
VERIFY_TOLERANCE = 1e-3  # a cached-vs-uncached logit difference above this is worth a red cell


@dataclass(frozen=True)
class Row:
    cells: tuple[str, ...]
    provisional: bool = False
    warn: bool = False  # the whole row stands out (loop guard)
    warn_column: int = -1  # one cell stands out (verify difference too large)


class RowTableModel(QAbstractTableModel):
    """Append-only rows, inserted in batches by `flush()`, oldest dropped beyond `max_rows`."""

    def __init__(self, columns: list[str], max_rows: int, parent=None):
        super().__init__(parent)
        self.columns = columns
        self.max_rows = max_rows
        self.rows: list[Row] = []
        self.pending: list[Row] = []
        self.dropped = 0  # rows removed by the cap, for the panel's counter

    def add(self, row: Row) -> None:
        self.pending.append(row)

    def flush(self) -> int:
        """Move pending rows into the model; returns how many were added."""
        if not self.pending:
            return 0
        new, self.pending = self.pending[-self.max_rows :], []
        overflow = len(self.rows) + len(new) - self.max_rows
        if overflow > 0:
            self.beginRemoveRows(QModelIndex(), 0, overflow - 1)
            del self.rows[:overflow]
            self.endRemoveRows()
            self.dropped += overflow
        first = len(self.rows)
        self.beginInsertRows(QModelIndex(), first, first + len(new) - 1)
        self.rows.extend(new)
        self.endInsertRows()
        return len(new)

    def clear(self) -> None:
        self.beginResetModel()
        self.rows, self.pending, self.dropped = [], [], 0
        self.endResetModel()

    def rowCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.columns)

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return translate("Diagnostics", self.columns[section])
        return None

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        row = self.rows[index.row()]
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            return row.cells[index.column()]
        if role == Qt.ItemDataRole.BackgroundRole and (row.warn or index.column() == row.warn_column):
            return QBrush(WARN_BACKGROUND)
        if role == Qt.ItemDataRole.ForegroundRole and row.provisional:
            return QBrush(PROVISIONAL_FOREGROUND)
        if role == Qt.ItemDataRole.FontRole and row.warn:
            font = QFont()
            font.setBold(True)
            return font
        return None


# --- turning the pipeline's steps and summaries into rows ---------------------------------------------

# Column names in English (the keys of WIDTHS); the headers show them translated.
STEP_COLUMNS = [
    QT_TRANSLATE_NOOP("Diagnostics", "utt"),
    QT_TRANSLATE_NOOP("Diagnostics", "sent"),
    QT_TRANSLATE_NOOP("Diagnostics", "step"),
    QT_TRANSLATE_NOOP("Diagnostics", "token"),
    QT_TRANSLATE_NOOP("Diagnostics", "top alternatives (p)"),
    QT_TRANSLATE_NOOP("Diagnostics", "self kv"),
    QT_TRANSLATE_NOOP("Diagnostics", "cross kv"),
    QT_TRANSLATE_NOOP("Diagnostics", "cache"),
    QT_TRANSLATE_NOOP("Diagnostics", "ms"),
    QT_TRANSLATE_NOOP("Diagnostics", "verify Δ"),
    QT_TRANSLATE_NOOP("Diagnostics", "glossary"),
]
SENTENCE_COLUMNS = [
    QT_TRANSLATE_NOOP("Diagnostics", "utt"),
    QT_TRANSLATE_NOOP("Diagnostics", "kind"),
    QT_TRANSLATE_NOOP("Diagnostics", "encoder ms"),
    QT_TRANSLATE_NOOP("Diagnostics", "decode ms"),
    QT_TRANSLATE_NOOP("Diagnostics", "tokens"),
    QT_TRANSLATE_NOOP("Diagnostics", "tokens/s"),
    QT_TRANSLATE_NOOP("Diagnostics", "stop"),
    QT_TRANSLATE_NOOP("Diagnostics", "translation"),
]


def _fmt(value: Any, digits: int = 1) -> str:
    return "" if value is None else f"{value:.{digits}f}" if isinstance(value, float) else str(value)


def step_row(utterance_id: int, provisional: bool, step: DecodeStep) -> Row:
    alternatives = "  ".join(f"{token} {math.exp(logprob):.2f}" for _, token, logprob in step.top)
    diff = step.max_abs_diff
    cells = (
        str(utterance_id),
        _fmt(step.sentence_index),
        _fmt(step.step),
        step.token,
        alternatives,
        _fmt(step.self_kv_len),
        _fmt(step.cross_kv_len),
        translate("Diagnostics", "yes") if step.used_cache_branch else translate("Diagnostics", "no"),
        _fmt(step.ms, 2),
        "" if diff is None else f"{diff:.1e}",
        translate("Diagnostics", "forced") if step.forced else "",
    )  # part of a glossary term the search is writing
    too_far = diff is not None and diff > VERIFY_TOLERANCE
    return Row(cells, provisional=provisional, warn_column=9 if too_far else 10 if step.forced else -1)


def sentence_row(utterance_id: int, provisional: bool, summary: dict[str, Any]) -> Row:
    tokens = summary.get("tokens")
    if tokens is None:
        tokens = len(summary.get("token_ids") or ())
    stop = str(summary.get("stop_reason", ""))
    if stop == StopReason.LOOP and summary.get("loop_detail"):
        stop = translate("Diagnostics", "loop: {detail}").format(detail=summary["loop_detail"])
    cells = (
        str(utterance_id),
        translate("Diagnostics", "provisional") if provisional else translate("Diagnostics", "final"),
        _fmt(summary.get("encoder_ms")),
        _fmt(summary.get("decode_ms")),
        str(tokens),
        _fmt(summary.get("tokens_per_s")),
        stop,
        str(summary.get("translation", "")),
    )
    return Row(cells, provisional=provisional, warn=summary.get("stop_reason") == StopReason.LOOP)


class DiagnosticsPanel(QWidget):
    """Steps on top, sentence summaries below, a loop-guard banner, the verify switch."""

    verify_toggled = Signal(bool)
    TICK_MS = 100

    def __init__(self, max_step_rows: int = 5000, parent=None):
        super().__init__(parent)
        self.steps = RowTableModel(STEP_COLUMNS, max_step_rows, self)
        self.sentences = RowTableModel(SENTENCE_COLUMNS, 1000, self)
        self.verify = QCheckBox(translate("Diagnostics", "Verify (recompute each step without the cache)"))
        self.verify.setToolTip(
            translate(
                "Diagnostics",
                "Shows the largest cached-vs-uncached logit difference per step; slower, for checking the decoder.",
            )
        )
        self.verify.toggled.connect(self.verify_toggled)
        self.follow = QCheckBox(translate("Diagnostics", "Follow"))
        self.follow.setChecked(True)
        self.counter = QLabel()
        self.live_text = QLabel()  # what the live-text choice costs (show_live_text)
        self.live_text.setToolTip(
            translate(
                "Diagnostics",
                "Early: long utterances (over 2 s) whose translation showed at least 1 s before the final one. "
                "Erasure: characters of live translation taken back, per character of the final translations "
                "(reading mode: of the settled text it shows).",
            )
        )
        self.banner = QLabel()
        self.banner.setWordWrap(True)
        self.banner.setStyleSheet("background:#c62828; color:white; font-weight:bold; padding:4px;")
        self.banner.hide()

        top = QHBoxLayout()
        top.addWidget(self.verify)
        top.addWidget(self.follow)
        top.addStretch()
        top.addWidget(self.live_text)
        top.addWidget(self.counter)
        self.step_view = self._table(self.steps, stretch_column=4)
        self.sentence_view = self._table(self.sentences, stretch_column=7)
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.step_view)
        split.addWidget(self.sentence_view)
        split.setSizes([260, 160])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(top)
        layout.addWidget(self.banner)
        layout.addWidget(split)

        self.timer = QTimer(self)
        self.timer.setInterval(self.TICK_MS)
        self.timer.timeout.connect(self.flush)
        self.timer.start()

    @staticmethod
    def _table(model: RowTableModel, stretch_column: int) -> QTableView:
        view = QTableView()
        view.setModel(model)
        view.verticalHeader().hide()
        view.verticalHeader().setDefaultSectionSize(22)
        view.setWordWrap(False)
        view.setSelectionBehavior(QTableView.SelectionBehavior.SelectRows)
        # Fixed widths: ResizeToContents would measure every row on every insert.
        header = view.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        for column, name in enumerate(model.columns):
            # the header's own words, measured: Chinese characters are about twice as wide as Latin ones
            view.setColumnWidth(
                column,
                WIDTHS.get(name, max(48, view.fontMetrics().horizontalAdvance(translate("Diagnostics", name)) + 20)),
            )
        header.setSectionResizeMode(stretch_column, QHeaderView.ResizeMode.Stretch)
        return view

    # called by the window with pipeline events (GUI thread)
    def add_step(self, utterance_id: int, provisional: bool, step: DecodeStep) -> None:
        self.steps.add(step_row(utterance_id, provisional, step))

    def add_sentence(self, utterance_id: int, provisional: bool, summary: dict[str, Any]) -> None:
        self.sentences.add(sentence_row(utterance_id, provisional, summary))
        if summary.get("stop_reason") == StopReason.LOOP:
            detail = summary.get("loop_detail") or translate("Diagnostics", "a token or short cycle kept repeating")
            self.banner.setText(
                translate(
                    "Diagnostics",
                    "⚠ Loop guard stopped the decoder on utterance {utterance}: {detail}. "
                    "The translation was cut there.",
                ).format(utterance=utterance_id, detail=detail)
            )
            self.banner.show()

    def show_live_text(self, reading: LiveTextReading) -> None:
        """The session's live-text meter (app.pipeline.live_meter); empty before a final translation."""
        if not reading.utterances:
            self.live_text.clear()
            return
        self.live_text.setText(
            translate(
                "Diagnostics", "Live text: early {early} of {long} · erasure {erasure} (reading mode {reading})"
            ).format(
                early=reading.early,
                long=reading.long,
                erasure=f"{reading.erasure:.2f}",
                reading=f"{reading.reading_erasure:.2f}",
            )
        )

    def flush(self) -> None:
        for model, view in ((self.steps, self.step_view), (self.sentences, self.sentence_view)):
            if model.flush() and self.follow.isChecked():
                view.scrollToBottom()
        if self.steps.dropped:
            text = translate("Diagnostics", "{steps} steps ({dropped} older dropped), {sentences} sentences")
        else:
            text = translate("Diagnostics", "{steps} steps, {sentences} sentences")
        self.counter.setText(
            text.format(steps=len(self.steps.rows), dropped=self.steps.dropped, sentences=len(self.sentences.rows))
        )

    def clear(self) -> None:
        self.steps.clear()
        self.sentences.clear()
        self.banner.hide()
        self.live_text.clear()
        self.flush()
