"""Confidence you can see: the words a model was unsure of, underlined, explained on hover.

Functions from (text, spans) to the HTML a QLabel shows and the tooltip it carries, so the
panels and the subtitle overlay mark text the same way; MarkedLabel shows each word's own.
A span is (start, end, p): characters [start, end) of the text, and the probability the model gave them.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

from PySide6.QtCore import QEvent, QPoint, QPointF, Qt
from PySide6.QtGui import QTextCursor, QTextDocument
from PySide6.QtWidgets import QLabel, QToolTip

from app.ui.i18n import translate

UNSURE_STYLE = "text-decoration: underline;"  # subtle: the text keeps its colour and weight


def _valid(text: str, spans: Sequence[Sequence]) -> list[tuple[int, int, float, int]]:
    """Spans inside the text, in order, not overlapping; with their index in `spans`."""
    kept, last_end = [], 0
    for index, span in sorted(enumerate(spans), key=lambda item: item[1][0]):
        start, end, p = int(span[0]), int(span[1]), float(span[2])
        if last_end <= start < end <= len(text):
            kept.append((start, end, p, index))
            last_end = end
    return kept


def _span_line(word: str, p: float, options: Sequence[Sequence] = ()) -> str:
    line = translate("Confidence", "“{word}”: {percent}% sure").format(word=word, percent=round(p * 100))
    shown = [f"{alt.strip()} ({round(q * 100)}%)" for alt, q in options if alt.strip()][:4]
    return line + (
        translate("Confidence", " — or: {alternatives}").format(alternatives=", ".join(shown)) if shown else ""
    )


def marked_html(text: str, spans: Sequence[Sequence], style: str = "", alternatives: Sequence[Sequence] = ()) -> str:
    """`text` escaped, unsure spans underlined, the whole in a span with `style` (if any). Each
    underlined span's title is its own tooltip line (MarkedLabel shows it on hover)."""
    parts, at = [], 0
    for start, end, p, index in _valid(text, spans):
        parts.append(html.escape(text[at:start]))
        word = html.escape(text[start:end])
        title = html.escape(_span_line(text[start:end], p, alternatives[index] if index < len(alternatives) else ()))
        parts.append(f'<span style="{UNSURE_STYLE}" title="{title}">{word}</span>')
        at = end
    parts.append(html.escape(text[at:]))
    body = "".join(parts)
    return f'<span style="{style}">{body}</span>' if style else body


def unsure_tooltip(
    text: str, spans: Sequence[Sequence], alternatives: Sequence[Sequence] = (), who: str | None = None
) -> str:
    """One line per unsure span: the words, how sure the model was, its alternatives."""
    lines = [
        _span_line(text[start:end], p, alternatives[index] if index < len(alternatives) else ())
        for start, end, p, index in _valid(text, spans)
    ]
    if not lines:
        return ""
    who = who if who is not None else translate("Confidence", "the translator")
    return translate("Confidence", "Words {who} was unsure of:").format(who=who) + "\n" + "\n".join(lines)


def clip_spans(
    spans: Sequence[Sequence], start: int, end: int, alternatives: Sequence[Sequence] = ()
) -> tuple[list[tuple[int, int, float]], list]:
    """The spans' parts inside characters [start, end), counted from `start`, with their alternatives."""
    clipped, kept = [], []
    for index, span in enumerate(spans):
        a, b = max(int(span[0]), start), min(int(span[1]), end)
        if a < b:
            clipped.append((a - start, b - start, float(span[2])))
            kept.append(alternatives[index] if index < len(alternatives) else ())
    return clipped, kept


class MarkedLabel(QLabel):
    """A QLabel whose underlined words each show their own tooltip (their `title`); elsewhere
    the label's tooltip (every unsure word of the row)."""

    def event(self, event) -> bool:
        if event.type() == QEvent.Type.ToolTip and self.textFormat() == Qt.TextFormat.RichText:
            tip = self.word_tip(event.pos())
            if tip:
                QToolTip.showText(event.globalPos(), tip, self)
                return True
        return super().event(event)

    def word_tip(self, pos: QPoint) -> str:
        """The title of the text under `pos` (label coordinates), "" if none."""
        area = self.contentsRect()
        doc = QTextDocument()
        doc.setDefaultFont(self.font())
        doc.setDocumentMargin(0)
        doc.setHtml(self.text())
        doc.setTextWidth(area.width())
        at = doc.documentLayout().hitTest(QPointF(pos - area.topLeft()), Qt.HitTestAccuracy.ExactHit)
        if at < 0:
            return ""
        cursor = QTextCursor(doc)
        cursor.setPosition(at + 1)  # the format of the character before the cursor: the one hit
        return cursor.charFormat().toolTip()
