"""What the user does with what was said: export the session's transcript (File ▸ Export…),
correct a caption's words (Session ▸ Correct…, or a panel's context menu) and edit the
glossary (Models ▸ Glossary…). Corrections and glossary edits go to the user's glossary and
reach the running session through the window's SessionControl."""

from __future__ import annotations

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QFileDialog

from app.pipeline.subtitles import export, write_export
from app.shared import events as ev
from app.shared.errors import LiveTranslatorError
from app.shared.glossary import Glossary
from app.ui.correction_dialog import Correction, CorrectionDialog, CorrectionKind
from app.ui.glossary_editor import GlossaryEditor, user_glossary_path
from app.ui.i18n import translate


class TranscriptActions(QObject):
    def __init__(self, window):
        super().__init__(window)
        self.window = window  # a MainWindow: its transcript view, alert banner, status bar, sessions
        self.correction_dialog: CorrectionDialog | None = None  # the last one opened
        self.glossary_editor = None  # the last GlossaryEditor opened

    # --- export -----------------------------------------------------------------------------
    def export(self, kind: str) -> None:
        """Ask where, then write the latest session's transcript as `kind` (txt, srt, vtt)."""
        window = self.window
        if window.session_control.session_transcript is None:
            window.alert.show_message(
                translate("MainWindow", "There is no transcript yet."),
                translate("MainWindow", "Start a session; the transcript is saved as it goes."),
                "info",
            )
            return
        path, _ = QFileDialog.getSaveFileName(
            window,
            translate("MainWindow", "Export transcript"),
            f"transcript.{kind}",
            translate("MainWindow", "Text (*.txt)")
            if kind == "txt"
            else translate("MainWindow", "Subtitles (*.{kind})").format(kind=kind),
        )
        if path:
            self.export_to(kind, path)

    def export_to(self, kind: str, path: str) -> None:
        transcript = self.window.session_control.session_transcript
        try:
            text = export(transcript.entries, kind, bilingual=True)  # the window's exports: both languages
            write_export(path, text)  # in one step: a failed save leaves the old file as it was
        except Exception as error:
            self.window.alert.show_error(error)
            return
        self.window.statusBar().showMessage(translate("MainWindow", "Saved {path}").format(path=path), 5000)

    # --- corrections ------------------------------------------------------------------------
    def correct_selection(self) -> None:
        """Session ▸ Correct the selected words (Ctrl+E): the words selected in either panel."""
        selected = self.window.transcript_view.selection()
        if selected is None:
            self.window.alert.show_message(
                translate("MainWindow", "Select the words to correct first."),
                translate("MainWindow", "Select them in the speech or the translation panel, then choose Correct…"),
                "info",
            )
            return
        self.open_correction(*selected)

    def open_correction(self, key, column: str, selected: str) -> CorrectionDialog:
        self.correction_dialog = dialog = CorrectionDialog(column, selected, self.window)
        dialog.accepted.connect(lambda: self.apply_correction(key, dialog.correction()))
        dialog.open()
        return dialog

    def apply_correction(self, key, correction: Correction) -> bool:
        """Save the correction in the user's glossary, use it from the running session's next
        utterance on, and send the corrected caption to the panels, the overlay and every caption page."""
        window = self.window
        path = user_glossary_path()
        try:
            glossary = Glossary.load(path) if path.is_file() else Glossary()
            glossary = correction.added_to(glossary)
            glossary.save(path)
        except (LiveTranslatorError, OSError) as error:  # an unreadable file is not overwritten
            window.alert.show_error(error)
            return False
        window.session_control.apply_glossary(glossary)
        row = window.transcript_view.rows.get(key)
        if row is None:
            return True
        session_number, utterance_id = key
        heard = correction.kind is CorrectionKind.HEARD
        event = ev.CaptionCorrected(
            utterance_id=utterance_id,
            speaker=_speaker(row.speaker),
            speaker_name=None if _speaker(row.speaker) is not ev.Speaker.GUEST else row.speaker,
            source=correction.fix(row.source_text) if heard else row.source_text,
            text=row.translation if heard else correction.fix(row.translation),
        )
        # Through the running session's bridge to every observer; once it has ended, to the window and its outputs.
        if not window.session_control.publish_correction(event, session_number):
            window.event_presenter.on_events([event], session_number)
        window.statusBar().showMessage(translate("MainWindow", "Corrected; saved in the glossary."), 5000)
        return True

    # --- the glossary -----------------------------------------------------------------------
    def open_glossary_editor(self) -> None:
        self.glossary_editor = GlossaryEditor(parent=self.window)
        self.glossary_editor.saved.connect(self.window.session_control.apply_glossary)  # from the next utterance on
        self.glossary_editor.show()


def _speaker(label: str) -> ev.Speaker | None:
    """Who a row's label names: me, them, or (any other label: the name a guest typed) a guest."""
    if not label:
        return None
    return ev.Speaker(label) if label in tuple(ev.Speaker) else ev.Speaker.GUEST
