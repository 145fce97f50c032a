"""Where the transcript panel's rows live: a scrolled column of row widgets, each an
utterance's source and translation side by side, at most `max_rows` of them drawn.

TranscriptView (transcript_view.py) decides what each row says; this class decides which rows
exist, where they sit, when old ones give up their widgets, and whether the panel follows the
newest line. `drawn(key)` answers what a person sees: the row is inside the visible part of
the panel and the panel, grabbed there, shows ink.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtGui import QColor, QImage
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QScrollArea, QVBoxLayout, QWidget

from app.ui.i18n import translate

# Rows drawn as widgets at most. A row costs ~90 KB of Qt widgets (two rich-text labels): a
# meeting of 850 utterances an hour grew the window ~75 MB an hour. Older finished rows keep
# only their text (`earlier`): Copy still copies everything, the saved transcript has it all.
MAX_ROWS = 200
BACKGROUND = {False: "white", True: "#16191c"}  # light and dark theme


@dataclass(frozen=True)
class EarlierRow:
    """A finished row no longer drawn: its words only (for Copy)."""

    key: tuple | int
    source_text: str
    translation: str
    speaker: str
    language: str = ""


@dataclass
class UtteranceRow:
    key: tuple | int  # (session, utterance_id) in the window; any sortable id
    source: QLabel
    target: QLabel
    widget: QWidget  # the row in the panel: source and target side by side
    source_text: str = ""
    translation: str = ""
    source_final: bool = False
    target_final: bool = False
    speaker: str = ""  # "me" / "them" in a conversation
    language: str = ""  # face to face: the language the row's speech was heard in ("en" / "zh")
    corrected: bool = False  # the user corrected it (Correct…)
    renders: dict = field(default_factory=lambda: {"target_after_final": 0})

    def words(self) -> EarlierRow:
        """What is kept of the row once it is no longer drawn."""
        return EarlierRow(self.key, self.source_text, self.translation, self.speaker, self.language)


def ink_share(image: QImage, background: QColor) -> float:
    """The share of `image`'s pixels (sampled every other one) that differ clearly from the
    background: text drawn on it, not a border or an empty panel."""
    seen = inked = 0
    for y in range(0, image.height(), 2):
        for x in range(0, image.width(), 2):
            seen += 1
            inked += abs(image.pixelColor(x, y).lightness() - background.lightness()) > 80
    return inked / seen if seen else 0.0


class TranscriptRows(QScrollArea):
    """The scrolled column of rows; follows the newest row while the view is at the end."""

    def __init__(self, new_label: Callable[[], QLabel], parent=None):
        super().__init__(parent)
        self.new_label = new_label  # the view's label factory: its font, style and context menu
        self.rows: dict = {}  # key -> UtteranceRow, in the order they appeared
        self.earlier: dict = {}  # key -> EarlierRow: finished rows beyond max_rows, no longer drawn
        self.max_rows = MAX_ROWS
        self.dark = False
        self.body = QWidget()
        self.body.setObjectName("transcriptBody")
        # A column of row widgets over a stretch, never a grid aligned to the top: Qt stopped
        # placing a top-aligned QGridLayout's word-wrapped labels from ~128 rows on (every
        # label got an empty geometry and the panel drew blank), and a grid keeps the rows of
        # removed widgets, so it only ever grows.
        self.column = QVBoxLayout(self.body)
        self.column.setSpacing(0)
        self.placeholder = QLabel(
            translate("TranscriptView", "Press Start (Ctrl+Return) and speak, or choose File ▸ Translate a recording…")
        )
        self.placeholder.setStyleSheet("color:#90a4ae; font-size:14pt; padding:24px;")
        self.placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.column.addWidget(self.placeholder)
        self.earlier_note = QLabel()  # how many earlier lines are only in Copy and the saved transcript
        self.earlier_note.setStyleSheet("color:#90a4ae; padding:6px 4px;")
        self.earlier_note.hide()
        self.column.addWidget(self.earlier_note)
        self.column.addStretch(1)  # rows stay at the top while they fill less than the panel
        self.set_dark(False)
        self.setWidgetResizable(True)
        self.setWidget(self.body)
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.following = True
        bar = self.verticalScrollBar()
        bar.valueChanged.connect(lambda v: setattr(self, "following", v >= bar.maximum() - 4))
        bar.rangeChanged.connect(lambda _lo, hi: bar.setValue(hi) if self.following else None)

    def set_dark(self, dark: bool) -> None:
        self.dark = dark
        self.body.setStyleSheet(f"#transcriptBody {{ background: {BACKGROUND[dark]}; }}")

    def row(self, key) -> UtteranceRow:
        """The row of `key`, made at the end of the column the first time it is asked for."""
        row = self.rows.get(key)
        if row is None:
            self.placeholder.hide()
            widget = QWidget()
            line = QHBoxLayout(widget)
            line.setContentsMargins(0, 0, 0, 0)
            line.setSpacing(24)
            row = UtteranceRow(key, self.new_label(), self.new_label(), widget)
            line.addWidget(row.source, 1)  # equal halves, as the panels' titles are
            line.addWidget(row.target, 1)
            self.column.insertWidget(self.column.count() - 1, widget)  # above the stretch
            self.rows[key] = row
            self._retire_oldest()
        return row

    def _retire_oldest(self) -> None:
        """Keep at most max_rows rows drawn: the oldest finished ones keep only their words."""
        while len(self.rows) > self.max_rows:
            oldest = next((r for r in self.rows.values() if r.source_final and r.target_final), None)
            if oldest is None:
                return  # every row still changes: keep drawing them
            del self.rows[oldest.key]
            self.earlier[oldest.key] = oldest.words()
            self._remove(oldest)
        self.earlier_note.setText(
            translate(
                "TranscriptView",
                "{count} earlier lines: in Copy and in the saved transcript (File ▸ Export transcript)",
            ).format(count=len(self.earlier))
        )
        self.earlier_note.setVisible(bool(self.earlier))

    def _remove(self, row: UtteranceRow) -> None:
        self.column.removeWidget(row.widget)
        row.widget.deleteLater()  # its labels with it

    def clear(self) -> None:
        for row in self.rows.values():
            self._remove(row)
        self.rows.clear()
        self.earlier.clear()
        self.earlier_note.hide()
        self.following = True
        self.placeholder.show()

    def drawn(self, key) -> bool:
        """Whether a person sees the row of `key` now: its labels have a place inside the
        panel's visible part, and a grab of the panel there shows text."""
        row = self.rows.get(key)
        if row is None or not row.widget.isVisible() or row.source.height() <= 0:
            return False
        viewport = self.viewport()
        area = QRect(row.widget.mapTo(viewport, QPoint(0, 0)), row.widget.size()).intersected(viewport.rect())
        if area.height() < row.source.fontMetrics().height():
            return False
        return ink_share(viewport.grab(area).toImage(), QColor(BACKGROUND[self.dark])) > 0.002
