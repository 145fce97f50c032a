"""The source and target panels: one row per utterance, the translation beside its source.

Each utterance is one row widget holding its source and its translation side by side (two
columns of equal stretch), so a translation always sits level with the speech it translates
(aligned by utterance_id) however long either text is. Provisional text
is grey italic; committed source text and final translations are plain and dark. A final
translation is set exactly once and never touched again, so it cannot flicker.

In a conversation the rows alternate between speakers as they talk; each row starts with who
spoke ("Me" / "Them", in its own colour) in both panels.

Select words in either panel and choose Correct… (the context menu, or Session ▸ Correct the
selected words): the window asks how to write them from now on (app/ui/correction_dialog.py);
the corrected row is shown again with a check.
"""

from __future__ import annotations

import html
from dataclasses import replace

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFont, QGuiApplication
from PySide6.QtWidgets import QHBoxLayout, QLabel, QMenu, QPushButton, QVBoxLayout, QWidget

from app.asr.units import units_of
from app.shared.languages import AUTO_DIRECTION, Direction, Language
from app.ui.confidence import MarkedLabel, clip_spans, marked_html, unsure_tooltip
from app.ui.face_to_face import language_badge
from app.ui.i18n import QT_TRANSLATE_NOOP, translate
from app.ui.settings import TEXT_SIZES
from app.ui.transcript_rows import TranscriptRows, UtteranceRow

PROVISIONAL_STYLE = "color:#8a8a8a; font-style:italic;"
SETTLED_STYLE = "color:#5f6b73;"  # provisional, but settled: it stays as it is until the final
ERROR_STYLE = "color:#c62828;"
CORRECTED_STYLE = "color:#2e7d32; font-size:small;"  # the check after a corrected row's text
SPEAKER_STYLES = {"me": "color:#1565c0; font-weight:bold;", "them": "color:#2e7d32; font-weight:bold;"}
SPEAKER_NAMES = {
    "me": QT_TRANSLATE_NOOP("TranscriptView", "Me"),
    "them": QT_TRANSLATE_NOOP("TranscriptView", "Them"),
}  # translated where shown
TEXT_POINT_SIZE = 17


def reading_font(point_size: int = TEXT_POINT_SIZE) -> QFont:
    """Large type that reads well in both scripts: Latin first, then Noto CJK for Han."""
    font = QFont()
    font.setFamilies(["Noto Sans", "DejaVu Sans", "Noto Sans CJK SC", "Noto Sans CJK TC"])
    font.setPointSize(point_size)
    return font


def source_html(committed: str, text: str) -> str:
    """A live hypothesis: the committed prefix plain, the still-changing tail grey italic."""
    tail = text[len(committed) :] if text.startswith(committed) else text
    head = committed if text.startswith(committed) else ""
    return f'{html.escape(head)}<span style="{PROVISIONAL_STYLE}">{html.escape(tail)}</span>'


def provisional_html(text: str, stable: int, spans=(), reading_mode: bool = False, alternatives=()) -> str:
    """A live translation: its settled prefix steady, its changing tail grey italic (hidden in
    reading mode, where an unsettled translation shows as "…")."""
    stable = max(0, min(stable, len(text)))
    head = (
        marked_html(text[:stable], *_styled(clip_spans(spans, 0, stable, alternatives), SETTLED_STYLE))
        if stable
        else ""
    )
    if reading_mode:
        return head or f'<span style="{PROVISIONAL_STYLE}">…</span>'
    if stable >= len(text):
        return head
    return head + marked_html(
        text[stable:], *_styled(clip_spans(spans, stable, len(text), alternatives), PROVISIONAL_STYLE)
    )


def _styled(clipped, style):
    spans, alternatives = clipped
    return spans, style, alternatives


REVISED_STYLE = "text-decoration:underline; text-decoration-color:#e0a000;"


def revision_html(text: str, revised: str) -> str:
    """A final that changed committed text: the words that differ from what was shown are
    underlined, so the eye finds the correction (the row keeps its place)."""
    import difflib

    new, old = units_of(text), units_of(revised)
    key = [u.strip().lower() for u in new]
    matcher = difflib.SequenceMatcher(None, [u.strip().lower() for u in old], key, autojunk=False)
    changed = set()
    for op, i1, _i2, j1, j2 in matcher.get_opcodes():
        if op != "equal" and i1 < len(old):  # within what was committed
            changed.update(range(j1, j2))
    parts = []
    for index, unit in enumerate(new):
        space, word = unit[: len(unit) - len(unit.lstrip())], unit.lstrip()
        if index == 0:
            space = ""
        parts.append(
            html.escape(space)
            + (f'<span style="{REVISED_STYLE}">{html.escape(word)}</span>' if index in changed else html.escape(word))
        )
    return "".join(parts)


def plain_text(rows: list, column: str) -> str:
    """The rows' words in `column` ("source" or "target"), a line each; in a conversation each
    line says who spoke, face to face its language ("EN: ", "ZH: ", as the exports write it)."""
    lines = []
    for r in rows:
        text = r.source_text if column == "source" else r.translation
        if r.language and text:
            language = Language(r.language) if column == "source" else Language(r.language).other
            text = f"{language.value.upper()}: {text}"
        if text:
            lines.append(
                f"{translate('TranscriptView', SPEAKER_NAMES.get(r.speaker, r.speaker))}: {text}" if r.speaker else text
            )
    return "\n".join(lines)


def who_html(row, target: bool = False) -> str:
    """What starts a row's text: who spoke (a conversation), and face to face the language of
    that column's text (the row's, or the translation's), each side in its own colour."""
    prefix = ""
    if row.speaker:
        name = translate("TranscriptView", SPEAKER_NAMES.get(row.speaker, row.speaker))
        prefix = f'<span style="{SPEAKER_STYLES.get(row.speaker, "")}">{html.escape(name)}:</span> '
    if row.language:
        prefix += language_badge(Language(row.language).other if target else Language(row.language)) + " "
    return prefix


class TranscriptView(QWidget):
    """Source and target panels with copy and clear; autoscrolls while the view is at the end."""

    correction_requested = Signal(object, str, str)  # row key, "source" / "target", the selected words

    def __init__(self, parent=None):
        super().__init__(parent)
        self.reading_mode = False  # provisional translations: settled text only
        self.source_title = QLabel(translate("TranscriptView", "Speech"))
        self.target_title = QLabel(translate("TranscriptView", "Translation"))
        for title in (self.source_title, self.target_title):
            title.setStyleSheet("font-weight:bold; font-size:13pt; color:#37474f;")
        self.copy_source = QPushButton(translate("TranscriptView", "Copy"))
        self.copy_source.setToolTip(translate("TranscriptView", "Copy every source sentence"))
        self.copy_target = QPushButton(translate("TranscriptView", "Copy"))
        self.copy_target.setToolTip(translate("TranscriptView", "Copy every translation"))
        self.clear_button = QPushButton(translate("TranscriptView", "Clear"))
        self.clear_button.setToolTip(translate("TranscriptView", "Clear both panels (the saved transcript is kept)"))
        self.copy_source.clicked.connect(lambda: self.copy("source"))
        self.copy_target.clicked.connect(lambda: self.copy("target"))
        self.clear_button.clicked.connect(self.clear)

        head = QHBoxLayout()
        head.addWidget(self.source_title, 1)
        head.addWidget(self.copy_source)
        head.addSpacing(16)
        head.addWidget(self.target_title, 1)
        head.addWidget(self.copy_target)
        head.addWidget(self.clear_button)

        self.panel = TranscriptRows(self._label)  # the rows: where they sit, which are drawn
        self.rows, self.earlier = self.panel.rows, self.panel.earlier  # the same dicts, read here

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(head)
        layout.addWidget(self.panel)

    def set_direction(self, direction: str) -> None:
        """The titles name the languages; face to face (AUTO_DIRECTION) both, each row its own."""
        if direction == AUTO_DIRECTION:
            source, target = "English / 中文", "中文 / English"
        else:
            source, target = Direction(direction).source.name_in_itself, Direction(direction).target.name_in_itself
        self.source_title.setText(translate("TranscriptView", "Speech ({language})").format(language=source))
        self.target_title.setText(translate("TranscriptView", "Translation ({language})").format(language=target))

    point_size = TEXT_POINT_SIZE
    dark = False

    def set_point_size(self, points: int) -> None:
        """The panels' text size (View -> Larger / Smaller text)."""
        self.point_size = max(TEXT_SIZES[0], min(TEXT_SIZES[-1], int(points)))
        for row in self.rows.values():
            for label in (row.source, row.target):
                label.setFont(reading_font(self.point_size))

    def set_dark(self, dark: bool) -> None:
        """Colours of the panels' own frame for a dark or light theme (text follows the palette)."""
        self.dark = dark
        self.panel.set_dark(dark)
        for title in (self.source_title, self.target_title):
            title.setStyleSheet(f"font-weight:bold; font-size:13pt; color:{'#b0bec5' if dark else '#37474f'};")
        for row in self.rows.values():
            for label in (row.source, row.target):
                label.setStyleSheet(self._label_style())

    def _label_style(self) -> str:
        return f"QLabel {{ padding: 6px 4px; border-bottom: 1px solid {'#2c3237' if self.dark else '#e3e8ec'}; }}"

    def set_conversation(self, direction: str) -> None:
        """Titles for a conversation: each row says who spoke, in either language."""
        source, target = Direction(direction).source.name_in_itself, Direction(direction).target.name_in_itself
        self.source_title.setText(
            translate("TranscriptView", "Speech (me: {mine}, them: {theirs})").format(mine=source, theirs=target)
        )
        self.target_title.setText(translate("TranscriptView", "Translation"))

    def _label(self) -> QLabel:
        label = MarkedLabel()
        label.setFont(reading_font(self.point_size))
        label.setWordWrap(True)
        label.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        label.setTextInteractionFlags(
            Qt.TextInteractionFlag.TextSelectableByMouse | Qt.TextInteractionFlag.TextSelectableByKeyboard
        )
        label.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)  # Copy and Correct…
        label.customContextMenuRequested.connect(lambda pos, label=label: self._context_menu(label, pos))
        label.setStyleSheet(self._label_style())
        return label

    def row(self, key) -> UtteranceRow:
        return self.panel.row(key)

    # --- events (GUI thread) ----------------------------------------------------------------
    def set_speaker(self, key, speaker: str | None) -> None:
        """Label the row with who spoke (a conversation); before any text is shown in it."""
        if key in self.earlier:
            return  # finished and no longer drawn
        if speaker:
            self.row(key).speaker = str(speaker)

    def set_language(self, key, language: str | None) -> None:
        """Face to face: the language the row's speech was heard in (a redo may change it)."""
        if language and key not in self.earlier:
            self.row(key).language = str(language)

    def _set_marked(self, row: UtteranceRow, label: QLabel, text: str, spans, alternatives, who: str) -> None:
        """Settled text: plain, or with who spoke (a conversation) and its unsure words
        underlined and explained on hover."""
        prefix = who_html(row, label is row.target)
        if spans or prefix:  # rich text for the marks and the label, the words themselves escaped
            label.setTextFormat(Qt.TextFormat.RichText)
            label.setText(prefix + (marked_html(text, spans, "", alternatives) if spans else html.escape(text)))
        else:
            label.setTextFormat(Qt.TextFormat.PlainText)
            label.setText(text)
        label.setToolTip(unsure_tooltip(text, spans, alternatives, who))

    def show_partial(self, key, text: str, committed: str) -> None:
        if key in self.earlier:
            return  # finished and no longer drawn
        row = self.row(key)
        if row.source_final:
            return
        row.source_text = text
        row.source.setTextFormat(Qt.TextFormat.RichText)
        row.source.setText(who_html(row) + source_html(committed, text))

    def show_final(self, key, text: str, low_confidence=(), revised: str = "") -> None:
        """`revised`: committed text the final decode replaced (its changed words are marked)."""
        if key in self.earlier:
            return  # finished and no longer drawn
        row = self.row(key)
        row.source_final, row.source_text = True, text
        if revised:
            row.source.setTextFormat(Qt.TextFormat.RichText)
            row.source.setText(who_html(row) + revision_html(text, revised))
            row.source.setToolTip(
                translate("TranscriptView", "Corrected by the final recognition; the live text read: {text}").format(
                    text=revised
                )
            )
        else:
            self._set_marked(row, row.source, text, low_confidence, (), translate("Confidence", "Whisper"))
        if not row.target_final and not row.translation:  # translating: say so until it lands
            row.target.setTextFormat(Qt.TextFormat.RichText)
            row.target.setText(f'{who_html(row, True)}<span style="{PROVISIONAL_STYLE}">…</span>')

    def show_translation(
        self, key, text: str, provisional: bool, low_confidence=(), alternatives=(), stable: int | None = None
    ) -> None:
        if key in self.earlier:
            return  # finished and no longer drawn: finals do not change
        row = self.row(key)
        if row.target_final:
            row.renders["target_after_final"] += 1  # counted, never drawn: finals do not change
            return
        row.translation = text
        if provisional:
            row.target.setTextFormat(Qt.TextFormat.RichText)
            row.target.setText(
                who_html(row, True)
                + provisional_html(text, stable or 0, low_confidence, self.reading_mode, alternatives)
            )
            row.target.setToolTip(unsure_tooltip(text, low_confidence, alternatives))
        else:
            row.target_final = True
            self._set_marked(
                row, row.target, text, low_confidence, alternatives, translate("Confidence", "the translator")
            )

    def show_corrected(self, key, source: str, translation: str) -> None:
        """The user's correction of a row: its texts replaced, marked as corrected."""
        if key in self.earlier:  # no longer drawn: Copy gives the corrected words
            earlier = self.earlier[key]
            self.earlier[key] = replace(earlier, source_text=source, translation=translation or earlier.translation)
            return
        row = self.row(key)
        row.source_final = row.target_final = row.corrected = True
        row.source_text, row.translation = source, translation or row.translation
        tip = translate("TranscriptView", "Corrected: the glossary now says how to write this")
        for label, text in ((row.source, row.source_text), (row.target, row.translation)):
            label.setTextFormat(Qt.TextFormat.RichText)
            label.setText(
                f'{who_html(row, label is row.target)}{html.escape(text)} <span style="{CORRECTED_STYLE}">✓</span>'
            )
            label.setToolTip(tip)

    def selection(self) -> tuple[object, str, str] | None:
        """(row key, "source" or "target", the selected words) of the panel text selected, if any."""
        for row in self.rows.values():
            for column, label in (("source", row.source), ("target", row.target)):
                if label.hasSelectedText() and label.selectedText().strip():
                    return row.key, column, label.selectedText().strip()
        return None

    def _context_menu(self, label: QLabel, pos) -> None:
        menu = QMenu(label)
        copy = menu.addAction(translate("TranscriptView", "Copy"))
        copy.setEnabled(label.hasSelectedText())
        copy.triggered.connect(lambda: QGuiApplication.clipboard().setText(label.selectedText()))
        correct = menu.addAction(translate("TranscriptView", "Correct…"))
        correct.setEnabled(label.hasSelectedText() and bool(label.selectedText().strip()))
        correct.triggered.connect(self._request_correction)
        menu.popup(label.mapToGlobal(pos))

    def _request_correction(self) -> None:
        selected = self.selection()
        if selected is not None:
            self.correction_requested.emit(*selected)

    def show_error(self, key, message: str) -> None:
        if key in self.earlier:
            return  # finished and no longer drawn
        row = self.row(key)
        if row.target_final:
            return
        row.target_final = True
        row.target.setTextFormat(Qt.TextFormat.RichText)
        row.target.setText(f'<span style="{ERROR_STYLE}">⚠ {html.escape(message)}</span>')

    # --- copy / clear -----------------------------------------------------------------------
    def text(self, column: str) -> str:
        """Every row's words in `column`, drawn or earlier, in order (what Copy copies)."""
        return plain_text([self.rows.get(k) or self.earlier[k] for k in sorted([*self.earlier, *self.rows])], column)

    def copy(self, column: str) -> None:
        QGuiApplication.clipboard().setText(self.text(column))

    def clear(self) -> None:
        self.panel.clear()
