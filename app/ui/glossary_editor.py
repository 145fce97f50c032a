"""The glossary editor: the user's terms (English <-> Chinese) in a table, stored as a TSV file
in the settings folder. Add, edit, remove, import and export a TSV file, switch each entry on
or off. A running session uses the saved glossary from its next utterance on (Pipeline.apply_glossary).

Each row remembers the line of the file it came from, so Save edits only the lines of the rows
changed (Glossary.save): the file's comments and the lines the table cannot show stay. A save
that fails (a full disk) is shown in the dialog, which stays open; the file is as it was."""

from __future__ import annotations

import logging
from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QDialog,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
)

from app.shared import paths
from app.shared.errors import LiveTranslatorError
from app.shared.glossary import Glossary, GlossaryEntry
from app.ui.i18n import QT_TRANSLATE_NOOP, error_line, translate, translate_text

log = logging.getLogger(__name__)

# translated where shown
COLUMNS = (
    QT_TRANSLATE_NOOP("GlossaryEditor", "on"),
    QT_TRANSLATE_NOOP("GlossaryEditor", "English"),
    QT_TRANSLATE_NOOP("GlossaryEditor", "Chinese"),
    QT_TRANSLATE_NOOP("GlossaryEditor", "match case"),
)
ON, ENGLISH, CHINESE, CASE = range(4)
LINE = Qt.ItemDataRole.UserRole  # on a row's English item: the line of the file it came from (0: new)


def user_glossary_path() -> Path:
    return paths.settings_dir() / "glossary.tsv"


def load_user_glossary() -> Glossary:
    """The glossary the window uses (empty when there is none yet); its problems are logged."""
    path = user_glossary_path()
    if not path.is_file():
        return Glossary()
    try:
        glossary = Glossary.load(path)
    except LiveTranslatorError as error:
        log.warning("%s", error)
        return Glossary()
    for problem in glossary.problems:
        log.warning("glossary %s", problem)
    return glossary


def _check_item(checked: bool) -> QTableWidgetItem:
    item = QTableWidgetItem()
    item.setFlags(Qt.ItemFlag.ItemIsUserCheckable | Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable)
    item.setCheckState(Qt.CheckState.Checked if checked else Qt.CheckState.Unchecked)
    return item


class GlossaryEditor(QDialog):
    saved = Signal(object)  # the Glossary written to the settings folder

    def __init__(self, path: Path | None = None, parent=None):
        super().__init__(parent)
        self.path = Path(path) if path is not None else user_glossary_path()
        self.heard: list[GlossaryEntry] = []  # corrections of heard text (Correct…): not in the table, kept as they are
        self.setWindowTitle(translate("GlossaryEditor", "Glossary"))
        self.resize(640, 440)
        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setHorizontalHeaderLabels([translate("GlossaryEditor", c) for c in COLUMNS])
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(ENGLISH, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(CHINESE, QHeaderView.ResizeMode.Stretch)
        for column in (ON, CASE):  # a checkbox under a header as wide as its words, in any language
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        self.table.verticalHeader().setVisible(False)
        self.problems = QLabel()
        self.problems.setWordWrap(True)
        self.problems.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        explain = QLabel(
            translate(
                "GlossaryEditor",
                "Each term on the left is translated as the one on the right (and the other way round); "
                "terms in the spoken language are also given to speech recognition.",
            )
        )
        explain.setWordWrap(True)

        buttons = QHBoxLayout()
        self.buttons = {}
        for name, slot in (
            (QT_TRANSLATE_NOOP("GlossaryEditor", "Add"), self.add_entry),
            (QT_TRANSLATE_NOOP("GlossaryEditor", "Remove"), self.remove_selected),
            (QT_TRANSLATE_NOOP("GlossaryEditor", "Import…"), self.choose_import),
            (QT_TRANSLATE_NOOP("GlossaryEditor", "Export…"), self.choose_export),
        ):
            button = self.buttons[name] = QPushButton(translate("GlossaryEditor", name))
            button.clicked.connect(slot)
            buttons.addWidget(button)
        buttons.addStretch(1)
        for name, slot in (
            (QT_TRANSLATE_NOOP("GlossaryEditor", "Save"), self.save),
            (QT_TRANSLATE_NOOP("GlossaryEditor", "Close"), self.reject),
        ):
            button = self.buttons[name] = QPushButton(translate("GlossaryEditor", name))
            button.clicked.connect(slot)
            buttons.addWidget(button)
        self.buttons["Save"].setDefault(True)

        layout = QVBoxLayout(self)
        layout.addWidget(explain)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.problems)
        layout.addLayout(buttons)
        self.reload()

    def reload(self) -> None:
        """The table from the file (its rows knowing their lines again)."""
        try:
            glossary = Glossary.load(self.path) if self.path.is_file() else Glossary()
        except LiveTranslatorError as error:  # e.g. not UTF-8: say so, start empty; Save will not replace it
            self.set_glossary(Glossary())
            self.show_problems([error_line(error)])
            return
        self.set_glossary(glossary)

    # -- table <-> glossary -------------------------------------------------------------------
    def set_glossary(self, glossary: Glossary) -> None:
        self.table.setRowCount(0)
        self.heard = [e for e in glossary.entries if e.heard]
        for entry in glossary.entries:
            if not entry.heard:
                self.add_entry(entry)
        self.show_problems(glossary.problems)

    def add_entry(self, entry: GlossaryEntry | None = None) -> int:
        entry = entry if isinstance(entry, GlossaryEntry) else GlossaryEntry("", "")
        row = self.table.rowCount()
        self.table.insertRow(row)
        self.table.setItem(row, ON, _check_item(entry.enabled))
        english = QTableWidgetItem(entry.english)
        english.setData(LINE, self._line_of(entry))
        self.table.setItem(row, ENGLISH, english)
        self.table.setItem(row, CHINESE, QTableWidgetItem(entry.chinese))
        self.table.setItem(row, CASE, _check_item(entry.case_sensitive))
        if not entry.english:  # a new, empty row: start typing in it
            self.table.setCurrentCell(row, ENGLISH)
            self.table.editItem(self.table.item(row, ENGLISH))
        return row

    def _line_of(self, entry: GlossaryEntry) -> int:
        """The entry's line in the file this editor saves (0: it is not from there)."""
        return entry.line if entry.origin and Path(entry.origin) == self.path else 0

    def remove_selected(self) -> None:
        for row in sorted({index.row() for index in self.table.selectedIndexes()}, reverse=True):
            self.table.removeRow(row)

    def glossary(self) -> Glossary:
        """The table as a glossary, checked as a file would be (rows left empty are dropped; the
        problems name rows). Each entry keeps the line of the file it came from."""
        lines, file_lines = [], []
        for row in range(self.table.rowCount()):
            english, chinese = (self.table.item(row, c).text().strip() for c in (ENGLISH, CHINESE))
            if not english and not chinese:
                continue
            flags = [
                name
                for name, column in (("case", CASE),)
                if self.table.item(row, column).checkState() == Qt.CheckState.Checked
            ]
            if self.table.item(row, ON).checkState() != Qt.CheckState.Checked:
                flags.append("off")
            lines.append("\t".join([english, chinese] + ([",".join(flags)] if flags else [])))
            file_lines.append(self.table.item(row, ENGLISH).data(LINE) or 0)
        lines += [entry.to_tsv() for entry in self.heard]
        file_lines += [self._line_of(entry) for entry in self.heard]
        rows = Glossary.parse("\n".join(lines), "row")
        entries = [replace(e, origin=str(self.path), line=file_lines[e.line - 1]) for e in rows.entries]
        return Glossary(entries, rows.problems)

    def show_problems(self, problems) -> None:
        """Glossary problems (their templates translated) or lines already said."""
        lines = [
            f"{p.origin}:{p.line}: {translate_text(p.text)}" if getattr(p, "text", None) else str(p) for p in problems
        ]
        self.problems.setText("\n".join(f"⚠ {line}" for line in lines))
        self.problems.setVisible(bool(problems))

    # -- files ----------------------------------------------------------------------------------
    def import_file(self, path: str | Path) -> int:
        """Append a TSV file's entries; returns how many. Its problems are shown."""
        try:
            imported = Glossary.load(path)
        except LiveTranslatorError as error:
            self.show_problems([error_line(error)])
            return 0
        for entry in imported.entries:
            if entry.heard:
                self.heard.append(entry)
            else:
                self.add_entry(entry)
        conflicts = [p for p in self.glossary().problems if p.message.startswith("conflict")]  # by row
        self.show_problems(imported.problems + conflicts)
        return len(imported.entries)

    def export_file(self, path: str | Path) -> bool:
        """Write the table to a new TSV file; False (and the reason shown) when it cannot be written."""
        try:
            self.glossary().export(path)
        except LiveTranslatorError as error:
            self.show_problems([error_line(error)])
            return False
        return True

    def choose_import(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self,
            translate("GlossaryEditor", "Import a glossary"),
            "",
            translate("GlossaryEditor", "Glossary (*.tsv *.txt);;All files (*)"),
        )
        if path:
            self.import_file(path)

    def choose_export(self) -> None:
        path, _ = QFileDialog.getSaveFileName(
            self,
            translate("GlossaryEditor", "Export the glossary"),
            "glossary.tsv",
            translate("GlossaryEditor", "Glossary (*.tsv)"),
        )
        if path:
            self.export_file(path)

    def save(self) -> None:
        """Write the settings folder's glossary and close. Rows that are not entries (a term
        missing, Chinese in the English column) are shown and nothing is written until they are
        fixed; conflicts are shown but saved (the first entry wins). A save that fails is shown
        and the dialog stays open, the file as it was."""
        glossary = self.glossary()
        malformed = [p for p in glossary.problems if not p.message.startswith("conflict")]
        self.show_problems(glossary.problems)
        if malformed:
            return
        try:
            glossary.save(self.path)
            saved = Glossary.load(self.path)
        except LiveTranslatorError as error:
            self.show_problems([error_line(error)])
            return
        self.saved.emit(saved)
        if glossary.problems:  # staying open: the rows learn their new lines
            self.set_glossary(saved)
            self.show_problems(glossary.problems)
        else:
            self.accept()
