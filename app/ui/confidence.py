"""Confidence you can see: the words a model was unsure of, underlined, explained on hover.

Pure functions from (text, spans) to the HTML a QLabel shows and the tooltip it carries, so the
panels and the subtitle overlay mark text the same way. A span is (start, end, p): characters
[start, end) of the text, and the probability the model gave them.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

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


def marked_html(text: str, spans: Sequence[Sequence], style: str = "") -> str:
    """`text` escaped, unsure spans underlined, the whole in a span with `style` (if any)."""
    parts, at = [], 0
    for start, end, p, _ in _valid(text, spans):
        parts.append(html.escape(text[at:start]))
        word = html.escape(text[start:end])
        parts.append(f'<span style="{UNSURE_STYLE}" title="{round(p * 100)}%">{word}</span>')
        at = end
    parts.append(html.escape(text[at:]))
    body = "".join(parts)
    return f'<span style="{style}">{body}</span>' if style else body


def unsure_tooltip(text: str, spans: Sequence[Sequence], alternatives: Sequence[Sequence] = (),
                   who: str = "the translator") -> str:
    """One line per unsure span: the words, how sure the model was, its alternatives."""
    lines = []
    for start, end, p, index in _valid(text, spans):
        line = f"“{text[start:end]}”: {round(p * 100)}% sure"
        options = alternatives[index] if index < len(alternatives) else ()
        shown = [f"{alt.strip()} ({round(q * 100)}%)" for alt, q in options if alt.strip()][:4]
        if shown:
            line += " — or: " + ", ".join(shown)
        lines.append(line)
    return f"Words {who} was unsure of:\n" + "\n".join(lines) if lines else ""


def clip_spans(spans: Sequence[Sequence], start: int, end: int) -> list[tuple[int, int, float]]:
    """The spans' parts inside characters [start, end), counted from `start`."""
    clipped = []
    for span in spans:
        a, b = max(int(span[0]), start), min(int(span[1]), end)
        if a < b:
            clipped.append((a - start, b - start, float(span[2])))
    return clipped
