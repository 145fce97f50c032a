"""How the window shows a session's events: each batch, on the GUI thread, drawn event by
event by one small handler per event type (`_handlers`: the transcript panels, diagnostics,
meters, status bar, banner), then handed to the caption page and to `shown`'s observers."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, Signal

from app.pipeline.live_meter import LiveTextMeter
from app.shared import events as ev
from app.ui.i18n import QT_TRANSLATE_NOOP, error_texts, translate

# Pipeline states as the status bar names them (translated where shown).
STATE_NAMES = {
    "loading": QT_TRANSLATE_NOOP("MainWindow", "Loading"),
    "running": QT_TRANSLATE_NOOP("MainWindow", "Running"),
    "direction": QT_TRANSLATE_NOOP("MainWindow", "Direction"),
    "finished": QT_TRANSLATE_NOOP("MainWindow", "Finished"),
    "stopped": QT_TRANSLATE_NOOP("MainWindow", "Stopped"),
}


class EventPresenter(QObject):
    shown = Signal(list)  # each batch, after it has been drawn

    def __init__(self, window):
        super().__init__(window)
        self.window = window  # a MainWindow: the panels and status bar drawn on
        self.latencies: list[float] = []  # the current session's final translations', for the median
        self.live_text = LiveTextMeter()  # the current session's live text: early and erasure
        self._draw = self._handlers()

    def new_session(self) -> None:
        """A new session: its latencies and live-text meter start again and the caption page clears."""
        self.latencies = []
        self.live_text = LiveTextMeter()
        self.window.diagnostics.show_live_text(self.live_text.reading())
        self.window.captions.new_session()
        self.window.face_to_face.new_session()
        for them in (False, True):
            self.window.controls.show_room("", them=them)  # an earlier session's room problem is over

    def _handlers(self) -> dict[type, Callable[..., None]]:
        """How each kind of event is drawn: handler(event, session number). Levels are not
        here: the meters show each batch's last (`_show_levels`)."""
        return {
            ev.SourcePartial: self._show_partial,
            ev.SourceFinal: self._show_final,
            ev.Translation: self._show_translation,
            ev.CaptionCorrected: self._show_corrected,
            ev.DecodeStepEvent: self._show_step,
            ev.SentenceSummary: self._show_sentence,
            ev.Status: self._show_status,
            ev.Error: self._show_pipeline_error,
            ev.SentLevel: self._show_sent_level,
            ev.Speech: self._show_speech,
            ev.Room: self._show_room,
        }

    def on_events(self, batch: list, session_number: int) -> None:
        """One batch of a session's events, drawn in order; then handed to the caption page
        (the current session's) and to `shown`'s observers (the window's events_shown: the overlay)."""
        for event in batch:
            if event.speaker is not None and getattr(event, "utterance_id", None) is not None:
                who = event.speaker_name or event.speaker  # a guest by the name they typed
                self.window.transcript_view.set_speaker((session_number, event.utterance_id), who)
            draw = self._draw.get(type(event))
            if draw is not None:
                draw(event, session_number)
            self.window.face_to_face.observe(event, session_number)  # whose turn; the table view
        if session_number == self.window.session_control.session_number:
            self._show_levels(batch)
            self.window.captions.observe(batch)
        self.shown.emit(batch)

    def _show_levels(self, batch: list) -> None:
        """The input meters: the batch's last level of each side (they come ~10 times a second)."""
        last = {event.speaker == ev.Speaker.THEM: event for event in batch if type(event) is ev.Level}
        for them, level in sorted(last.items()):
            self.window.controls.set_level(level.rms, them=them)

    def _show_partial(self, event: ev.SourcePartial, session_number: int) -> None:
        key = (session_number, event.utterance_id)
        self.window.transcript_view.set_language(key, event.language)  # face to face: the row's side
        self.window.transcript_view.show_partial(key, event.text, event.committed)

    def _show_final(self, event: ev.SourceFinal, session_number: int) -> None:
        self._measure_live_text(event, session_number)
        key = (session_number, event.utterance_id)
        self.window.transcript_view.set_language(key, event.language)
        self.window.transcript_view.show_final(key, event.text, event.low_confidence, event.revised)

    def _show_translation(self, event: ev.Translation, session_number: int) -> None:
        key = (session_number, event.utterance_id)
        self.window.transcript_view.show_translation(
            key, event.text, event.provisional, event.low_confidence, event.alternatives, event.stable
        )
        if not event.provisional and event.latency_ms is not None:
            self._show_latency(event.latency_ms)
        self._measure_live_text(event, session_number)

    def _measure_live_text(self, event: ev.SourceFinal | ev.Translation, session_number: int) -> None:
        """The diagnostics panel's live-text meter, for the current session's events."""
        if session_number != self.window.session_control.session_number:
            return
        self.live_text.observe(event)
        if isinstance(event, ev.Translation) and not event.provisional:
            self.window.diagnostics.show_live_text(self.live_text.reading())

    def _show_corrected(self, event: ev.CaptionCorrected, session_number: int) -> None:
        self.window.transcript_view.show_corrected((session_number, event.utterance_id), event.source, event.text)

    def _show_step(self, event: ev.DecodeStepEvent, _session_number: int) -> None:
        self.window.diagnostics.add_step(event.utterance_id, event.provisional, event.step)

    def _show_sentence(self, event: ev.SentenceSummary, _session_number: int) -> None:
        self.window.diagnostics.add_sentence(event.utterance_id, event.provisional, event.summary)

    def _show_sent_level(self, event: ev.SentLevel, _session_number: int) -> None:
        self.window.call_output.show_level(event)

    def _show_room(self, event: ev.Room, session_number: int) -> None:
        """What the input sounds like: the level meter turns amber and says why (its tooltip),
        the status bar says what to do; "ok" puts the meter back."""
        if session_number != self.window.session_control.session_number:
            return
        message, hint = error_texts(event)
        them = event.speaker == ev.Speaker.THEM
        problem = event.problem != ev.RoomProblem.OK
        self.window.controls.show_room(f"{message} {hint}".strip() if problem else "", them=them)
        if problem:
            self.window.statusBar().showMessage(f"{message} {hint}", 10000)

    def _show_speech(self, event: ev.Speech, _session_number: int) -> None:
        self.window.statusBar().showMessage(translate("MainWindow", "Spoke: {text}").format(text=event.text), 4000)

    def _show_latency(self, latency_ms: float) -> None:
        self.latencies.append(latency_ms)
        ordered = sorted(self.latencies)
        median = ordered[len(ordered) // 2]
        self.window.latency_label.setText(
            translate("MainWindow", "latency {last} ms (median {median} ms)").format(
                last=f"{latency_ms:.0f}", median=f"{median:.0f}"
            )
        )

    def _show_status(self, event: ev.Status, session_number: int) -> None:
        if session_number != self.window.session_control.session_number:
            return  # an earlier session's: its stop has been shown already
        if event.state == "finished" and self.window.session_control.running():  # the recording ended
            self.window.session_control.input_finished(
                after=translate("MainWindow", "Finished: the recording has been translated")
            )
        elif event.state == "stopped" and self.window.session_control.running():
            # The session stopped itself (a stage died; its Error is on the banner): the window
            # follows, so Start starts a new one instead of a half-working app waiting for Stop.
            self.window.session_control.stop(after=translate("MainWindow", "Stopped"))
        elif event.state != "stopped":
            # The state's name is the window's; its detail comes from the core, in English.
            name = translate("MainWindow", STATE_NAMES.get(event.state, event.state.capitalize()))
            self.window.state_label.setText(
                translate("MainWindow", "{state}: {detail}").format(state=name, detail=event.detail)
                if event.detail
                else name
            )

    def _show_pipeline_error(self, event: ev.Error, session_number: int) -> None:
        message, hint = error_texts(event)  # the core's templates, in the interface's language
        if event.utterance_id is not None and event.stage == "translation":
            self.window.transcript_view.show_error((session_number, event.utterance_id), message)
        if event.stage == ev.Stage.TRANSCRIPT:  # saving failed; translation goes on
            self.window.alert.show_message(message, hint, "warning", topic="transcript")
            if self.window.crash_trace is not None:
                self.window.crash_trace.note_transcript_problem(message)  # for the notice, if this run crashes
            return
        # Speech output that failed, or a sentence heard again that heard nothing (it stays as it
        # was): the session goes on as before, a warning.
        kind = (
            "warning" if event.stage == "tts" or (event.stage == "asr" and event.utterance_id is not None) else "error"
        )
        self.window.alert.show_message(message, hint, kind)
