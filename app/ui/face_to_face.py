"""Face to face in the window: the direction "Auto (English ⇄ 中文)".

Two people at one table share the microphone; the core decides each utterance's language
(app/asr/language.py). Here: whose turn it was (the language's name, in its colour), keys and
buttons for "the next sentence is English / 中文" and "the last one was the other language"
(the session's next_language and redo_utterance), and the table view: the newest words large,
the Chinese half turned 180° on request for the person across the table.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QKeySequence, QPainter, QShortcut
from PySide6.QtWidgets import QCheckBox, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from app.shared import events as ev
from app.shared.languages import Direction, Language
from app.ui.i18n import translate
from app.ui.workers import Worker

# Blue and red: each side its own look. White on either has a contrast of 5.6:1 or more (WCAG
# AA asks 4.5), and a badge brings its own background: readable in light and dark palettes.
SIDE_COLORS = {Language.EN: "#1565c0", Language.ZH: "#c62828"}
BADGES = {Language.EN: "EN", Language.ZH: "中文"}  # what a transcript row of each side starts with
KEYS = {Language.EN: "Ctrl+1", Language.ZH: "Ctrl+2"}
OTHER_WAY_KEY = "Ctrl+3"


def language_badge(language: Language) -> str:
    """A language's label as rich text: its name, white on its side's colour."""
    return (
        f'<span style="color:white; background-color:{SIDE_COLORS[language]}; font-weight:bold;">'
        f"&nbsp;{BADGES[language]}&nbsp;</span>"
    )


class TurnPanel(QWidget):
    """In the control bar, face to face only: whose turn it was, and the override buttons."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.turn = QLabel()
        self.turn.setToolTip(translate("FaceToFace", "The language the last sentence was heard in"))
        self.next = {
            language: QPushButton(translate("FaceToFace", "Next: {language}").format(language=language.name_in_itself))
            for language in Language
        }
        for language, button in self.next.items():
            button.setToolTip(
                translate("FaceToFace", "The next sentence is {language}, whatever it sounds like ({key})").format(
                    language=language.name_in_itself, key=KEYS[language]
                )
            )
            button.setCheckable(True)
        self.other_way = QPushButton(translate("FaceToFace", "Other way"))
        self.table = QPushButton(translate("FaceToFace", "Table view"))
        self.table.setToolTip(translate("FaceToFace", "The newest words large, for both people at the table"))
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        for widget in (self.turn, *self.next.values(), self.other_way, self.table):
            layout.addWidget(widget)
        self.show_turn(None)
        self.show_other_way(False)

    def show_other_way(self, possible: bool, busy: bool = False) -> None:
        """Other way: enabled when there is a sentence to hear again; its tooltip says why not."""
        self.other_way.setEnabled(possible and not busy)
        if busy:
            tip = translate("FaceToFace", "Hearing the last sentence again the other way…")
        elif possible:
            tip = translate(
                "FaceToFace", "The last sentence was the other language: hear and translate it again ({key})"
            ).format(key=OTHER_WAY_KEY)
        else:
            tip = translate("FaceToFace", "No sentence heard in this session yet: nothing to hear again")
        self.other_way.setToolTip(tip)

    def show_turn(self, language: Language | None) -> None:
        if language is None:
            self.turn.setText("")
            return
        self.turn.setText(language.name_in_itself)
        self.turn.setStyleSheet(f"color: white; background: {SIDE_COLORS[language]}; padding: 2px 8px;")

    def show_chosen(self, language: Language | None) -> None:
        for lang, button in self.next.items():
            button.setChecked(lang is language)


class TextHalf(QWidget):
    """One half of the table view: text drawn large, word-wrapped, upside down on request."""

    def __init__(self, language: Language, parent=None):
        super().__init__(parent)
        self.language = language
        self.text = ""
        self.upside_down = False
        self.setMinimumHeight(120)

    def set_text(self, text: str) -> None:
        self.text = text
        self.update()

    def set_upside_down(self, on: bool) -> None:
        self.upside_down = on
        self.update()

    def paintEvent(self, _event) -> None:  # noqa: N802  (Qt's name)
        painter = QPainter(self)
        painter.fillRect(self.rect(), QColor(SIDE_COLORS[self.language]))
        if self.upside_down:  # readable from the other side of the table
            painter.translate(self.width(), self.height())
            painter.rotate(180)
        font = QFont(self.font())
        font.setPointSize(max(14, self.height() // 8))
        painter.setFont(font)
        painter.setPen(QColor("white"))
        box = QRectF(16, 8, self.width() - 32, self.height() - 16)
        painter.drawText(box, Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap, self.text)
        painter.end()


class TableView(QWidget):
    """The newest words of each language, large: Chinese on top (turned around on request),
    English below. A final translation fills both halves: what was said and what it means."""

    def __init__(self, parent=None):
        super().__init__(parent, Qt.WindowType.Window)
        self.setWindowTitle(translate("FaceToFace", "Table view"))
        self.halves = {Language.ZH: TextHalf(Language.ZH), Language.EN: TextHalf(Language.EN)}
        self.turn_around = QCheckBox(translate("FaceToFace", "Turn the Chinese half around"))
        self.turn_around.toggled.connect(self.halves[Language.ZH].set_upside_down)
        layout = QVBoxLayout(self)
        layout.addWidget(self.halves[Language.ZH], 1)
        layout.addWidget(self.halves[Language.EN], 1)
        layout.addWidget(self.turn_around)
        self.resize(800, 600)

    def show_translation(self, event: ev.Translation) -> None:
        direction = Direction(event.direction)
        self.halves[direction.source].set_text(event.source)
        self.halves[direction.target].set_text(event.text)


class FaceToFace(QObject):
    """The window's face-to-face parts; `on` while the direction chosen is Auto."""

    def __init__(self, window):
        super().__init__(window)
        self.window = window  # a MainWindow: its session control runs the session
        self.on = False
        self.panel = TurnPanel()
        self.table = TableView(window)
        self.last_final: int | None = None  # the current session's latest utterance with text
        self.hearing_again = False  # an utterance is heard again after its session stopped (a worker)
        self.chosen: Language | None = None  # the next sentence's language, chosen by hand
        for language, button in self.panel.next.items():
            button.clicked.connect(lambda _checked=False, lang=language: self.choose_next(lang))
            QShortcut(QKeySequence(KEYS[language]), window, lambda lang=language: self.choose_next(lang))
        self.panel.other_way.clicked.connect(self.other_way)
        # Held down, the key repeats: one press is one redo (the session ignores a redo asked
        # while one for the sentence runs; a repeat after it would flip the sentence back).
        QShortcut(QKeySequence(OTHER_WAY_KEY), window, self.other_way).setAutoRepeat(False)
        self.panel.table.clicked.connect(self.show_table)
        self.set_on(False)

    def set_on(self, on: bool) -> None:
        self.on = on
        self.panel.setVisible(on)
        if not on:
            self.table.hide()

    def new_session(self) -> None:
        self.last_final, self.chosen = None, None
        self.panel.show_turn(None)
        self.panel.show_chosen(None)
        self.panel.show_other_way(False, self.hearing_again)

    def choose_next(self, language: Language) -> None:
        """ "The next sentence is `language`" (chosen again: taken back)."""
        self.chosen = None if self.chosen is language else language
        self.panel.show_chosen(self.chosen)
        session = self.window.session_control.running_session
        if session is not None and self.on:
            session.next_language(self.chosen)

    def other_way(self) -> None:
        """The last sentence was heard in the wrong language: hear and translate it the other way
        (while the session runs, on its recognition thread; once it has stopped, on a worker)."""
        control = self.window.session_control
        if not self.on or self.last_final is None or self.hearing_again:
            return
        if control.running_session is not None:
            control.running_session.redo_utterance(self.last_final)
            return
        if control.latest_session is None:
            return
        self.hearing_again = True
        self.panel.show_other_way(True, busy=True)
        number = control.session_number
        worker = Worker(control.latest_session.redo_stopped, self.last_final)
        worker.finished.connect(lambda events: self._heard_again(events, number))
        worker.failed.connect(lambda error: self._heard_again([], number, error))
        self.window.pool.start(worker)

    def _heard_again(self, events: list, number: int, error: Exception | None = None) -> None:
        """A stopped session's utterance heard again: drawn like the session's own events."""
        self.hearing_again = False
        self.panel.show_other_way(self.last_final is not None)
        if error is not None:
            self.window.alert.show_error(error)
        elif not events:  # only the latest few utterances' audio is kept
            self.window.statusBar().showMessage(
                translate("FaceToFace", "That sentence cannot be heard again: its audio is no longer kept"), 6000
            )
        self.window.event_presenter.on_events(events, number)

    def show_table(self) -> None:
        self.table.show()
        self.table.raise_()

    def observe(self, event: ev.Event, session_number: int) -> None:
        """A session's event: whose turn (partial, final), the table view (final translation)."""
        if not self.on or session_number != self.window.session_control.session_number:
            return
        language = getattr(event, "language", None)
        if isinstance(event, (ev.SourcePartial, ev.SourceFinal)) and language is not None:
            self.panel.show_turn(Language(language))
        if isinstance(event, ev.SourceFinal) and event.text:
            self.last_final, self.chosen = event.utterance_id, None
            self.panel.show_chosen(None)  # a choice by hand lasts one sentence
            self.panel.show_other_way(True, self.hearing_again)
        if isinstance(event, ev.Translation) and not event.provisional:
            self.table.show_translation(event)
