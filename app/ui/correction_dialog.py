"""Correct…: "always write X as Y", asked about words selected in the source or translation panel.

Selected in the source panel (what was heard): a correction of recognised text, saved as a
`heard` line of the glossary (X is rewritten as Y in what Whisper recognises, and Y becomes a
hotword). Selected in the translation panel: a glossary entry, "the spoken term S is always
translated as Y" (S is asked for: the panels do not know which words translated which), and X
is replaced by Y in this caption. Either way the entry is checked as a glossary line would be,
and an empty side is refused here, before anything is saved.

A correction of words the glossary already decides (the same heard words, the same spoken
term) takes the place of that entry, on its line (Glossary.with_correction): the dialog says
which line it replaces and what that line says now, before it is saved.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QFormLayout, QLabel, QLineEdit, QVBoxLayout

from app.shared.errors import LiveTranslatorError
from app.shared.glossary import HAN, Glossary, GlossaryEntry
from app.shared.languages import Language
from app.ui.glossary_editor import user_glossary_path
from app.ui.i18n import translate, translate_text


class CorrectionKind(StrEnum):
    HEARD = "source"  # words of the source panel: what speech recognition wrote
    TRANSLATION = "target"  # words of the translation panel


@dataclass(frozen=True)
class Correction:
    kind: CorrectionKind
    wrong: str  # the words as they were written (replaced in the corrected caption)
    right: str  # how to write them from now on
    spoken: str = ""  # a translation's correction: the spoken term that is translated as `right`

    @property
    def spoken_language(self) -> Language:
        return Language.ZH if HAN.search(self.spoken) else Language.EN

    def entry(self) -> GlossaryEntry:
        """The glossary line this correction adds."""
        if self.kind is CorrectionKind.HEARD:
            return GlossaryEntry(self.wrong, self.right, heard=True)
        if self.spoken_language is Language.ZH:  # heard in Chinese, translated into English
            return GlossaryEntry(self.right, self.spoken)
        return GlossaryEntry(self.spoken, self.right)

    def added_to(self, glossary: Glossary) -> Glossary:
        """`glossary` with this correction, replacing what it overrides (Glossary.with_correction)."""
        return glossary.with_correction(self.entry(), self.spoken_language)

    def fix(self, text: str) -> str:
        """`text` of the corrected caption, with the correction applied."""
        if self.kind is CorrectionKind.HEARD:
            fixed = Glossary([self.entry()]).rewrite_heard(text)
            if fixed != text:
                return fixed
        return text.replace(self.wrong, self.right)  # part of a word, or a translation's words


class CorrectionDialog(QDialog):
    """Asks how to write the selected words from now on; `correction()` once accepted."""

    def __init__(self, kind: CorrectionKind | str, selected: str, parent=None, glossary: Glossary | None = None):
        """`glossary`: the one the correction goes into (None: the user's glossary file)."""
        super().__init__(parent)
        self.kind = CorrectionKind(kind)
        self._glossary = glossary
        self.setWindowTitle(translate("CorrectionDialog", "Correct"))
        self.setMinimumWidth(440)
        self.wrong = QLineEdit(selected)
        self.right = QLineEdit(selected)
        self.spoken = QLineEdit()
        self.problem = QLabel()
        self.problem.setStyleSheet("color:#c62828;")
        self.problem.setWordWrap(True)
        self.problem.hide()
        self.note = QLabel()  # the glossary line this correction replaces
        self.note.setStyleSheet("color:#a15c00;")
        self.note.setWordWrap(True)
        self.note.hide()
        form = QFormLayout()
        if self.kind is CorrectionKind.HEARD:
            explain = translate(
                "CorrectionDialog",
                "Speech recognition will write these words as you say, for "
                "the rest of this session and from now on (saved in the glossary).",
            )
            form.addRow(translate("CorrectionDialog", "Always write:"), self.wrong)
            form.addRow(translate("CorrectionDialog", "as:"), self.right)
        else:
            explain = translate(
                "CorrectionDialog",
                "The translation will use your words whenever the speaker says this term (saved in the glossary).",
            )
            form.addRow(translate("CorrectionDialog", "Wrong in the translation:"), self.wrong)
            form.addRow(translate("CorrectionDialog", "When the speaker says:"), self.spoken)
            form.addRow(translate("CorrectionDialog", "always translate it as:"), self.right)
        self.wrong.setAccessibleName(translate("CorrectionDialog", "Written now"))
        self.right.setAccessibleName(translate("CorrectionDialog", "Write it as"))
        self.spoken.setAccessibleName(translate("CorrectionDialog", "Spoken term"))
        intro = QLabel(explain)
        intro.setWordWrap(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText(translate("CorrectionDialog", "Correct"))
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addLayout(form)
        layout.addWidget(self.note)
        layout.addWidget(self.problem)
        layout.addWidget(buttons)
        (self.right if self.kind is CorrectionKind.HEARD else self.spoken).setFocus()
        for field in (self.wrong, self.right, self.spoken):
            field.textChanged.connect(self.show_replaced)
        self.show_replaced()

    def glossary(self) -> Glossary:
        if self._glossary is None:
            path = user_glossary_path()
            try:
                self._glossary = Glossary.load(path) if path.is_file() else Glossary()
            except LiveTranslatorError:  # said when the correction is saved (the file is not replaced)
                self._glossary = Glossary()
        return self._glossary

    def replaced(self) -> GlossaryEntry | None:
        """The glossary entry this correction would replace: the one in effect for the same
        words, when it says something else (not only in the case of its English)."""
        correction = self.correction()
        if (
            not correction.wrong
            or not correction.right
            or (self.kind is CorrectionKind.TRANSLATION and not correction.spoken)
        ):
            return None
        entry = correction.entry()
        old = self.glossary().in_effect(entry, correction.spoken_language)
        same = old is not None and (old.english.casefold(), old.chinese) == (entry.english.casefold(), entry.chinese)
        return None if same else old

    def show_replaced(self) -> None:
        old = self.replaced()
        if old is None:
            self.note.hide()
            return
        if self.kind is CorrectionKind.HEARD:
            text = translate(
                "CorrectionDialog",
                "Line {line} of the glossary writes “{heard}” as “{written}”: this correction replaces that line.",
            ).format(line=old.line, heard=old.english, written=old.chinese)
        else:
            spoken = self.correction().spoken_language
            target = Language.ZH if spoken is Language.EN else Language.EN
            text = translate(
                "CorrectionDialog",
                "Line {line} of the glossary translates “{term}” as “{target}”: this correction replaces that line.",
            ).format(line=old.line, term=old.side(spoken), target=old.side(target))
        self.note.setText("⚠ " + text)
        self.note.show()

    def correction(self) -> Correction:
        return Correction(self.kind, self.wrong.text().strip(), self.right.text().strip(), self.spoken.text().strip())

    def accept(self) -> None:
        """Refused, with the reason shown, while a side is empty or the entry is not a glossary line."""
        refusal = self.refusal()
        self.problem.setText(refusal)
        self.problem.setVisible(bool(refusal))
        if not refusal:
            super().accept()

    def refusal(self) -> str:
        correction = self.correction()
        sides = [correction.wrong, correction.right] + (
            [correction.spoken] if self.kind is CorrectionKind.TRANSLATION else []
        )
        if not all(sides):
            return translate("CorrectionDialog", "Fill in both sides: an empty word cannot be corrected.")
        if correction.wrong == correction.right and self.kind is CorrectionKind.HEARD:
            return translate("CorrectionDialog", "Write the words differently from how they are written now.")
        problems = Glossary.parse(correction.entry().to_tsv()).problems
        return translate_text(problems[0].text) if problems else ""
