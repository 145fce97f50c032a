"""The notice after a run that ended unexpectedly (app/shared/crash_trace.py), and the crash
trace's other news: markers set aside, tracing off.

It says what is really on the disk: how many sentences the transcript holds, none, or no file
at all, and whether saving failed during that run (what was held in memory then is lost). The
runs it tells of are consumed (their markers removed) once the user has seen the notice: when
they dismiss it, or at the clean end of this run (`CrashTrace.end`); a notice nobody saw is
said again at the next start, and a window built anew (a language switch) says it again.
"""

from __future__ import annotations

from PySide6.QtCore import QObject

from app.shared.crash_trace import UnexpectedEnd
from app.ui.alerts import describe
from app.ui.i18n import translate

TOPIC = "crash"


class CrashNotice(QObject):
    def __init__(self, window):
        super().__init__(window)
        self.window = window  # a MainWindow: its crash trace and banner
        window.alert.dismissed.connect(self._dismissed)

    def tell_trace_news(self) -> None:
        trace = self.window.crash_trace
        if trace is None:
            return
        if trace.told:
            self.tell_unexpected_end(trace.told)
        for number, problem in enumerate(trace.problems):
            self.window.alert.show_message(*describe(problem), "warning", topic=f"crash-trace-{number}")

    def tell_unexpected_end(self, ended: list[UnexpectedEnd]) -> None:
        if self.window.crash_trace is not None:
            self.window.crash_trace.told = list(ended)
        self.window.alert.show_message(*unexpected_end_words(ended[-1]), "warning", topic=TOPIC)

    def _dismissed(self, topic: str) -> None:
        trace = self.window.crash_trace
        if topic == TOPIC and trace is not None:
            trace.consume(trace.told)  # seen: said once
            trace.told = []


def unexpected_end_words(last: UnexpectedEnd) -> tuple[str, str]:
    """The headline and the hints that tell of a run that ended without closing."""
    headline = translate("MainWindow", "The last session (started {started}) ended unexpectedly.").format(
        started=last.started
    )
    hints = transcript_words(last)
    if last.crash_log is not None:
        hints.append(
            translate("MainWindow", "Please attach its crash log to a bug report: {path}").format(path=last.crash_log)
        )
    return headline, " ".join(hints)


def transcript_words(last: UnexpectedEnd) -> list[str]:
    """What that run's transcript holds on the disk, as it is there now."""
    if last.transcript is None:
        return []
    path = last.transcript
    if last.saved is None:
        words = [translate("MainWindow", "Its transcript was not saved: {path} is not on the disk.").format(path=path)]
    elif last.saved == 0:
        words = [translate("MainWindow", "Its transcript {path} holds no sentence.").format(path=path)]
    elif last.transcript_problem:
        words = [
            translate("MainWindow", "Its transcript holds {count} sentences: {path}").format(
                count=last.saved, path=path
            )
        ]
    else:
        saved = translate("MainWindow", "Its transcript is saved up to the last sentence ({count} sentences): {path}")
        words = [saved.format(count=last.saved, path=path)]
    if last.transcript_problem:
        words.append(
            translate(
                "MainWindow",
                "Saving it failed during the session ({problem}): sentences still held in memory when it ended "
                "are lost.",
            ).format(problem=last.transcript_problem)
        )
    return words
