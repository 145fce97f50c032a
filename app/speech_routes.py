"""Where SpeechOutput's speech is played: each speaker's own output (an app.shared.audio.AudioOutput:
an output device by name, the virtual microphone a call app listens to), else the speakers.
Used on the speech thread; the owner may set `outputs` before a session starts."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from app.shared.audio import AudioOutput, SourceKind
from app.shared.errors import QT_TRANSLATE_NOOP, LiveTranslatorError, Text
from app.shared.events import Error, Event, Speaker, Stage

# The engine's own output (the speakers) reaches the microphone (no headphones) and system audio.
HEARD_FROM_SPEAKERS = frozenset({SourceKind.MICROPHONE, SourceKind.SYSTEM})


class SpeechRoutes:
    """Each speaker's output, which of them failed to open (silent until the next session), and
    the default speakers for an engine that only renders audio (a piper voice)."""

    def __init__(
        self, outputs: Mapping[Speaker | None, AudioOutput] | None, echo_tail_s: float, emit: Callable[[Event], None]
    ):
        # speaker -> where its texts are played (None: every speaker without its own entry);
        # missing: the engine's own output. An output that failed to open stays silent.
        self.outputs: dict[Speaker | None, AudioOutput] = dict(outputs or {})
        self.echo_tail_s = echo_tail_s  # the default speakers' room echo
        self._emit = emit
        self._failed: set[int] = set()  # ids of outputs that failed to open
        self._speakers: AudioOutput | None = None

    def output_for(self, speaker: Speaker | None) -> AudioOutput | None:
        return self.outputs.get(speaker, self.outputs.get(None))

    def heard_by(self, speaker: Speaker | None) -> frozenset[SourceKind]:
        output = self.output_for(speaker)
        return HEARD_FROM_SPEAKERS if output is None else output.heard_by

    def failed(self, output: AudioOutput) -> bool:
        return id(output) in self._failed

    def open_all(self) -> None:
        """Open every output; one that cannot be opened is said (an Error event) and stays silent."""
        for output in set(self.outputs.values()):
            try:
                output.open()
            except LiveTranslatorError as error:  # no sound server, no such device, a module refused
                self._failed.add(id(output))
                self._emit(Error.of(Stage.TTS, error.text, error.hint_text))
            except Exception as error:  # a library failing its own way
                self._failed.add(id(output))
                failed = Text(
                    QT_TRANSLATE_NOOP("Errors", "Speech cannot be played on {device}: {reason}"),
                    {"device": output.name, "reason": error},
                )
                going_on = Text(QT_TRANSLATE_NOOP("Errors", "Translation goes on without speech."))
                self._emit(Error.of(Stage.TTS, failed, going_on))

    def close_all(self) -> None:
        for output in self.outputs.values():
            output.close()
        self._failed.clear()

    def default_speakers(self) -> AudioOutput:
        """The default output device, for an engine that only renders (a piper voice)."""
        if self._speakers is None:
            # lazy: a stage imports app.shared only (ARCHITECTURE.md); the speakers are app.audio's,
            # needed only when a piper voice speaks without a chosen output
            from app.audio.outputs import DefaultSpeakers

            self._speakers = DefaultSpeakers(echo_tail_s=self.echo_tail_s)
        return self._speakers
