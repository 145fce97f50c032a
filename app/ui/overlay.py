"""The subtitle overlay: the last lines of translation in a frameless, always-on-top,
translucent window, over whatever people are watching.

It observes the same event batches as the main window (MainWindow.events_shown) and keeps one
line per utterance: the newest `lines` of them are shown, provisional text lighter, words the
translator was unsure of underlined. Drag it anywhere, resize it by its corner; where it was is
remembered. In click-through mode the mouse goes to the window below (Qt's
WindowTransparentForInput); the main window's application-wide shortcut leaves it. Its look
(font, size, colours, background opacity, line count, source above) is OverlaySettings,
kept in the same settings store as the window's, under "overlay/".
"""

from __future__ import annotations

import dataclasses
from collections import OrderedDict
from dataclasses import dataclass

from PySide6.QtCore import QByteArray, QPoint, QSettings, Qt, Signal
from PySide6.QtGui import QColor, QFont, QMouseEvent, QPainter
from PySide6.QtWidgets import QLabel, QSizeGrip, QSizePolicy, QVBoxLayout, QWidget

from app.shared import events as ev
from app.shared.events import State
from app.ui.confidence import clip_spans, marked_html, unsure_tooltip
from app.ui.i18n import translate

PREFIX = "overlay/"


@dataclass
class OverlaySettings:
    visible: bool = False
    font_family: str = "Noto Sans"
    font_size: int = 26
    text_color: str = "#ffffff"
    source_color: str = "#cfd8dc"
    background: str = "#000000"
    opacity: float = 0.6  # of the background; the text stays opaque
    lines: int = 2  # utterances shown, 1..3
    show_source: bool = False  # the source text above each translation
    click_through: bool = False
    geometry: QByteArray | None = None

    def __post_init__(self):
        self.lines = max(1, min(3, int(self.lines)))
        self.opacity = max(0.0, min(1.0, float(self.opacity)))
        self.font_size = max(8, min(96, int(self.font_size)))


def load_overlay_settings(store: QSettings) -> OverlaySettings:
    values = {}
    for f in dataclasses.fields(OverlaySettings):
        key = PREFIX + f.name
        if not store.contains(key):
            continue
        value = store.value(key)
        if f.type == "bool":
            value = value in (True, "true", "1", 1)
        values[f.name] = value
    try:
        return OverlaySettings(**values)
    except (TypeError, ValueError):  # a hand-edited store: start from the defaults
        return OverlaySettings()


def save_overlay_settings(settings: OverlaySettings, store: QSettings) -> None:
    for f in dataclasses.fields(OverlaySettings):
        value = getattr(settings, f.name)
        if value is not None:
            store.setValue(PREFIX + f.name, value)
    store.sync()


@dataclass
class _Line:
    translation: str = ""
    source: str = ""
    provisional: bool = True
    stable: int = 0
    spans: tuple = ()
    alternatives: tuple = ()
    corrected: bool = False  # the user corrected it (Correct…): marked with a check


class SubtitleOverlay(QWidget):
    click_through_changed = Signal(bool)

    def __init__(self, store: QSettings, parent=None):
        # No parent: a top-level window of its own, kept off the taskbar (Tool).
        super().__init__(
            parent, Qt.WindowType.FramelessWindowHint | Qt.WindowType.WindowStaysOnTopHint | Qt.WindowType.Tool
        )
        self.store = store
        self.settings = load_overlay_settings(store)
        self.setWindowTitle(translate("Overlay", "Live Translator subtitles"))
        self.setAccessibleName(translate("Overlay", "Subtitle overlay"))
        self.setAttribute(Qt.WidgetAttribute.WA_TranslucentBackground)
        self.setMinimumSize(240, 60)
        self.reading_mode = False
        self.lines: OrderedDict[tuple, _Line] = OrderedDict()
        self._session = 0
        self._drag_from: QPoint | None = None

        self.label = QLabel()
        self.label.setAccessibleName(translate("Overlay", "Subtitles"))
        self.label.setWordWrap(True)
        self.label.setTextFormat(Qt.TextFormat.RichText)
        self.label.setAlignment(Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignBottom)
        self.label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Ignored)  # the window decides
        self.grip = QSizeGrip(self)
        self.grip.setAccessibleName(translate("Overlay", "Resize subtitles"))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(18, 10, 18, 4)
        layout.addWidget(self.label, 1)
        layout.addWidget(self.grip, 0, Qt.AlignmentFlag.AlignBottom | Qt.AlignmentFlag.AlignRight)
        self.apply_settings()
        if self.settings.geometry is not None and not self.restoreGeometry(self.settings.geometry):
            self.settings.geometry = None
        if self.settings.geometry is None:
            self.resize(900, 150)

    # --- look ---------------------------------------------------------------------------------
    def apply_settings(self) -> None:
        """Font, colours, line count, click-through: from self.settings, redrawn at once."""
        font = QFont()
        font.setFamilies(
            [self.settings.font_family, "Noto Sans", "DejaVu Sans", "Noto Sans CJK SC", "Noto Sans CJK TC"]
        )
        font.setPointSize(self.settings.font_size)
        self.label.setFont(font)
        self.set_click_through(self.settings.click_through)
        self.render()
        self.update()

    def paintEvent(self, event) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        color = QColor(self.settings.background)
        color.setAlphaF(self.settings.opacity)
        painter.setBrush(color)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.drawRoundedRect(self.rect(), 10, 10)

    def _color(self, name: str, alpha: float) -> str:
        color = QColor(name)
        return f"rgba({color.red()},{color.green()},{color.blue()},{alpha:.2f})"

    def render(self) -> None:
        """The newest lines as rich text: settled text solid, the provisional rest lighter."""
        shown = list(self.lines.values())[-self.settings.lines :]
        blocks, tips = [], []
        solid, light = self._color(self.settings.text_color, 1.0), self._color(self.settings.text_color, 0.55)
        for line in shown:
            parts = []
            if self.settings.show_source and line.source:
                style = f"color:{self._color(self.settings.source_color, 0.9)}; font-size:small;"
                parts.append(f'<span style="{style}">{marked_html(line.source, ())}</span><br>')
            text = line.translation
            if line.provisional:
                stable = max(0, min(line.stable, len(text)))
                head, head_alts = clip_spans(line.spans, 0, stable, line.alternatives)
                settled = marked_html(text[:stable], head, f"color:{solid};", head_alts)
                tail, tail_alts = clip_spans(line.spans, stable, len(text), line.alternatives)
                rest = "" if self.reading_mode else marked_html(text[stable:], tail, f"color:{light};", tail_alts)
                parts.append(settled + rest)
            else:
                parts.append(marked_html(text, line.spans, f"color:{solid};", line.alternatives))
            if line.corrected:
                parts.append(f' <span style="color:{light}; font-size:small;">✓</span>')
            blocks.append("".join(parts))
            tip = unsure_tooltip(text, line.spans, line.alternatives)
            if tip:
                tips.append(tip)
        blocks = [b for b in blocks if b]
        self.label.setText("<br>".join(blocks))
        # Too tall for the window: the oldest lines go, so the newest is always whole.
        while len(blocks) > 1 and self.label.heightForWidth(self.label.width()) > self.label.height() > 0:
            blocks = blocks[1:]
            self.label.setText("<br>".join(blocks))
        self.label.setToolTip("\n\n".join(tips))

    # --- events -------------------------------------------------------------------------------
    def on_events(self, batch: list) -> None:
        """A batch of pipeline events, as the main window drew it."""
        changed = False
        for event in batch:
            if isinstance(event, ev.Status) and event.state is State.LOADING and "direction" in event.detail:
                self._session += 1  # a new session numbers its utterances afresh
            elif isinstance(event, ev.Translation):
                line = self._line(event.utterance_id)
                if not line.provisional:
                    continue  # finals never change
                line.translation, line.provisional = event.text, event.provisional
                line.stable = len(event.text) if event.stable is None else event.stable
                line.spans, line.alternatives = tuple(event.low_confidence), tuple(event.alternatives)
                line.source = line.source or event.source
                changed = True
            elif isinstance(event, ev.CaptionCorrected):
                if (self._session, event.utterance_id) not in self.lines:
                    continue  # no longer shown: nothing to correct here
                line = self._line(event.utterance_id)
                line.source, line.translation = event.source, event.text or line.translation
                line.provisional, line.spans, line.alternatives, line.corrected = False, (), (), True
                line.stable = len(line.translation)
                changed = True
            elif isinstance(event, (ev.SourcePartial, ev.SourceFinal)) and self.settings.show_source:
                self._line(event.utterance_id).source = event.text
                changed = True
        if changed:
            while len(self.lines) > 3:  # never more than the largest line count is kept
                self.lines.popitem(last=False)
            self.render()

    def _line(self, utterance_id: int) -> _Line:
        key = (self._session, utterance_id)
        if key not in self.lines:
            self.lines[key] = _Line()
        return self.lines[key]

    def clear(self) -> None:
        self.lines.clear()
        self.render()

    # --- click-through, moving, remembering --------------------------------------------------
    def set_click_through(self, on: bool) -> None:
        """The mouse passes through to the window below (leave with the main window's shortcut)."""
        if (
            on == bool(self.windowFlags() & Qt.WindowType.WindowTransparentForInput)
            and on == self.settings.click_through
        ):
            return
        self.settings.click_through = on
        visible = self.isVisible()
        self.setWindowFlag(Qt.WindowType.WindowTransparentForInput, on)
        self.grip.setVisible(not on)
        if visible:
            self.show()  # changing window flags hides a window
        self.click_through_changed.emit(on)

    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            self._drag_from = event.globalPosition().toPoint() - self.frameGeometry().topLeft()
            event.accept()

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        if self._drag_from is not None and event.buttons() & Qt.MouseButton.LeftButton:
            self.move(event.globalPosition().toPoint() - self._drag_from)
            event.accept()

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        self._drag_from = None
        self.remember()

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self.render()
        self.remember()

    def moveEvent(self, event) -> None:
        super().moveEvent(event)
        self.remember()

    def remember(self) -> None:
        self.settings.geometry = self.saveGeometry()
        save_overlay_settings(self.settings, self.store)

    def showEvent(self, event) -> None:
        super().showEvent(event)
        self.settings.visible = True
        self.remember()

    def hideEvent(self, event) -> None:
        super().hideEvent(event)
        if not self._closing_with_app:
            self.settings.visible = False
        self.remember()

    def close_with_app(self) -> None:
        """The main window closes: the overlay closes too, and is remembered as shown (it comes
        back next time), unlike when the user closes the overlay alone."""
        self._closing_with_app = True
        self.close()

    _closing_with_app = False
