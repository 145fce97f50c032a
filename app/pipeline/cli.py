"""`python -m app run`: the live pipeline without a window, on a recording, the microphone or
system audio; `--conversation` listens to the microphone and system audio at once."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from app.audio.cli import StopRequests, add_live_options
from app.shared import arguments
from app.shared.audio import SourceKind, SpeechTarget
from app.shared.chinese import CHINESE_SCRIPTS
from app.shared.console import OutputLost
from app.shared.errors import QT_TRANSLATE_NOOP, LiveTranslatorError
from app.shared.events import (
    DecodeStepEvent,
    Error,
    Event,
    Level,
    Room,
    RoomProblem,
    SentLevel,
    Spoken,
    State,
    Status,
    Translation,
)
from app.shared.languages import AUTO_DIRECTION, DIRECTIONS, Direction

if TYPE_CHECKING:
    from app.pipeline.session import Session

QUIET_IN_JSON = (DecodeStepEvent, Level, SentLevel)  # per-token and meter events: for the window, not for scripts


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser(
        "run",
        help="translate a recording, the microphone or system audio live, without the window",
        description="Recognise speech, translate it and speak the translation. Ctrl-C (or SIGTERM) stops a live "
        "source; what was heard is finalised, translated, printed and saved first.",
    )
    _add_input_options(parser)
    _add_model_options(parser)
    _add_conversation_options(parser)
    _add_speech_options(parser)
    _add_output_options(parser)
    parser.set_defaults(run=run)


def _add_input_options(parser: argparse.ArgumentParser) -> None:
    """What is heard: a recording or a live source."""
    parser.add_argument(
        "--input",
        metavar="FILE.wav",
        type=arguments.recording,
        help="a recording to translate (default: the live --source)",
    )
    add_live_options(parser)


def _add_model_options(parser: argparse.ArgumentParser) -> None:
    """The direction, and the models that recognise and translate it."""
    parser.add_argument(
        "--direction",
        required=True,
        choices=(*DIRECTIONS, AUTO_DIRECTION),
        help="spoken language - translation language; auto: face to face, each sentence's language "
        "(English or Chinese) is decided and it is translated the other way (both models needed)",
    )
    parser.add_argument(
        "--nmt-model",
        metavar="DIR",
        action="append",
        type=arguments.model_folder,
        default=[],
        help="translation model folder (default: the installed one); give it twice for a "
        "conversation's two directions (an M2M100 folder does both)",
    )
    parser.add_argument(
        "--asr-model",
        metavar="NAME|DIR",
        type=arguments.model_name_or_folder,
        default="base",
        help="Whisper size name or folder (default: base)",
    )


def _add_conversation_options(parser: argparse.ArgumentParser) -> None:
    """Two sources at once: me on the microphone, them on system audio."""
    parser.add_argument(
        "--conversation",
        action="store_true",
        help="listen to the microphone (speaker 'me', --direction) and system audio (speaker 'them', "
        "the reverse direction) at once",
    )
    parser.add_argument(
        "--system-device",
        metavar="NAME|ID",
        type=arguments.device_name,
        default=None,
        help="conversation: the system-audio source (default: what the default output plays)",
    )
    parser.add_argument(
        "--speak",
        choices=tuple(Spoken),
        default=None,  # them; given without --conversation it is refused (check_options)
        help="conversation: whose translations are spoken (default: them)",
    )


def _add_speech_options(parser: argparse.ArgumentParser) -> None:
    """Where the spoken translations go."""
    parser.add_argument(
        "--speak-into",
        metavar="speakers|virtual-mic|DEVICE",
        type=arguments.speech_target,
        default=SpeechTarget.SPEAKERS.value,
        help="where speech goes: the speakers (default), virtual-mic (the microphone 'Live "
        "Translator microphone' a call app can pick; Linux) or an output device by name "
        "(python -m app devices), e.g. a virtual cable; in a conversation, where MY translated "
        "speech goes",
    )
    parser.add_argument(
        "--mix-original",
        metavar="LEVEL",
        type=arguments.level,
        default=0.0,
        help="with --speak-into virtual-mic: my own voice under the translation at this level, 0-1 "
        "(default 0), so the other side hears that I am talking",
    )
    parser.add_argument(
        "--tts-out",
        metavar="OUT.wav",
        type=arguments.speech_file,
        help="write the spoken translations into this WAV file",
    )
    parser.add_argument("--no-tts", action="store_true", help="do not speak the translations")


def _add_output_options(parser: argparse.ArgumentParser) -> None:
    """How a recording is fed, what is printed and served, and how the text is written."""
    parser.add_argument(
        "--realtime", action="store_true", help="feed --input at speaking speed (default: as fast as it goes)"
    )
    parser.add_argument("--json", action="store_true", help="one JSON object per event and line")
    parser.add_argument(
        "--serve",
        metavar="[HOST:]PORT",
        type=arguments.serve_address,
        help="show live captions in a browser at http://HOST:PORT/ (default host 127.0.0.1; "
        "any other host gets an access key; IPv6 as [::1]:8765; port 0: any free port)",
    )
    parser.add_argument(
        "--glossary",
        action="append",
        type=arguments.glossary_file,
        default=[],
        metavar="FILE",
        help="a glossary (english<TAB>chinese per line): its terms are heard and translated as it says; "
        "repeatable; edits are picked up between utterances",
    )
    parser.add_argument(
        "--chinese",
        choices=CHINESE_SCRIPTS,
        default="simplified",
        help="script of all Chinese shown, spoken and saved: simplified, traditional (Taiwan), hongkong",
    )


def model_for(direction: Direction, folders: list[str]):
    """The first folder given that translates `direction`; without --nmt-model, the installed one."""
    from app.model_store.catalog import default_nmt_dir
    from app.translation.folder import folder_directions

    for folder in folders:
        try:
            translates = direction in folder_directions(folder)
        except LiveTranslatorError:
            translates = len(folders) == 1  # unreadable: the translation stage says what is wrong with it
        if translates:
            return folder
    model = None if folders else default_nmt_dir(str(direction))
    if model is None:
        hint = QT_TRANSLATE_NOOP(
            "Errors",
            "Pass --nmt-model DIR (once per direction, or an M2M100 folder for both), or install one: "
            "python -m app models download (see docs/models.md, 'Translation models').",
        )
        if folders:
            raise LiveTranslatorError(
                QT_TRANSLATE_NOOP(
                    "Errors",
                    "No translation model for {direction} is installed. None of {folders} translates {direction}.",
                ),
                hint,
                direction=direction,
                folders=", ".join(folders),
            )
        raise LiveTranslatorError(
            QT_TRANSLATE_NOOP("Errors", "No translation model for {direction} is installed."), hint, direction=direction
        )
    return model


def run(args: argparse.Namespace) -> int:
    auto = args.direction == AUTO_DIRECTION
    direction = Direction.EN_ZH if auto else Direction.parse(args.direction)
    check_options(args)
    from app.translation.cli import load_glossaries

    args.glossary_files = list(args.glossary)
    args.glossary = load_glossaries(args.glossary)  # a bad file fails before any model loads
    from app.asr.whisper_models import check_name

    check_name(args.asr_model)  # as transcribe does: said now, not by the recognition thread once models load
    directions = (direction, direction.reverse) if args.conversation or auto else (direction,)
    models = {d: model_for(d, args.nmt_model) for d in directions}
    # Our output keeps the real stdout; libraries that print (pyttsx3's espeak driver says
    # "Audio saved to ...", sometimes from its own thread) are sent to stderr meanwhile.
    out, sys.stdout = sys.stdout, sys.stderr
    try:
        return _run(args, models, out)
    finally:
        sys.stdout = out


def check_options(args: argparse.Namespace) -> None:
    """What no single option's value says: options that do not go together. Each value has been
    checked while parsing (app.shared.arguments)."""
    if args.conversation and args.direction == AUTO_DIRECTION:
        raise LiveTranslatorError(
            QT_TRANSLATE_NOOP(
                "Errors",
                "--direction auto is for one microphone shared face to face; a conversation's sides are fixed.",
            ),
            QT_TRANSLATE_NOOP(
                "Errors", "Give --conversation a direction (en-zh or zh-en), or leave --conversation out."
            ),
        )
    if args.conversation and args.input:
        raise LiveTranslatorError(
            QT_TRANSLATE_NOOP("Errors", "--conversation listens to live sources; it cannot take --input."),
            QT_TRANSLATE_NOOP("Errors", "Leave out --input (or --conversation)."),
        )
    if args.system_device is not None and not args.conversation:
        raise LiveTranslatorError(
            QT_TRANSLATE_NOOP(
                "Errors", "--system-device is the system audio of a conversation; it needs --conversation."
            ),
            QT_TRANSLATE_NOOP(
                "Errors", "Add --conversation, or listen to system audio alone: --source system --device NAME|ID."
            ),
        )
    if args.speak is not None and not args.conversation:
        raise LiveTranslatorError(
            QT_TRANSLATE_NOOP(
                "Errors", "--speak {who} chooses whose translations a conversation speaks; it needs --conversation."
            ),
            QT_TRANSLATE_NOOP(
                "Errors",
                "Add --conversation, or leave --speak out: a single source speaks every translation "
                "(--no-tts speaks none).",
            ),
            who=args.speak,
        )
    if args.mix_original > 0 and args.speak_into != SpeechTarget.VIRTUAL_MIC:
        raise LiveTranslatorError(
            QT_TRANSLATE_NOOP(
                "Errors", "--mix-original mixes my voice into the virtual microphone, but speech goes to {target}."
            ),
            QT_TRANSLATE_NOOP("Errors", "Add --speak-into virtual-mic, or leave --mix-original out."),
            target=args.speak_into,
        )
    if args.tts_out and args.input and _same_file(args.tts_out, args.input):
        raise LiveTranslatorError(
            QT_TRANSLATE_NOOP("Errors", "--tts-out {path} is the --input recording; writing there would replace it."),
            QT_TRANSLATE_NOOP("Errors", "Choose another file for --tts-out, e.g. {suggestion}."),
            path=args.tts_out,
            suggestion=Path(args.input).with_suffix(".spoken.wav").name,
        )


def _same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:  # one of them is not there (yet)
        return False


def _run(args: argparse.Namespace, models: dict, out) -> int:
    """Build the session, run it until its input ends or a stop is asked for, then finish."""
    stop = StopRequests(args.duration)
    from app.pipeline.live_meter import LiveTextMeter

    printer = EventPrinter(  # no one reads: end as Ctrl-C does
        out, as_json=args.json, on_lost=stop.requested.set, label_direction=args.direction == AUTO_DIRECTION
    )
    meter = LiveTextMeter()
    observers = [_start_clock_when_listening(stop), printer, meter.observe]

    def observe(event: Event) -> None:
        for observer in observers:
            observer(event)

    session = _make_session(args, models, observe)
    if args.glossary_files:  # edits reach the session between utterances
        from app.pipeline.glossary_watch import GlossaryWatch

        observers.append(GlossaryWatch(args.glossary_files, session.apply_glossary, printer).on_event)
    captions = None
    with stop:
        try:
            if args.serve:  # listening before the session starts, so a page sees it all
                captions = _start_captions(args.serve)
                observers.append(captions.on_event)
            _run_until_done(session, stop)
        finally:
            _finish(session, captions)
    printer.summary(meter.reading())
    if printer.lost is not None:
        raise printer.lost
    return 1 if printer.errors else 0


class EventPrinter:
    """What `run` prints of each event: a JSON line (--json), or a `source → translation` line per
    final translation and errors on stderr. It keeps the errors: any makes the exit status 1.
    When stdout cannot take a line (OutputLost) it prints no more and calls `on_lost`."""

    def __init__(self, out, as_json: bool, on_lost: Callable[[], object] = lambda: None, label_direction: bool = False):
        """label_direction: start each plain line with its direction ("[EN→ZH] "), face to face."""
        self.out = out
        self.as_json = as_json
        self.label_direction = label_direction
        self.on_lost = on_lost
        self.errors: list[Error] = []
        self.lost: OutputLost | None = None

    def __call__(self, event: Event) -> None:
        if isinstance(event, Error):
            self.errors.append(event)
        if self.lost is not None and (self.as_json or not isinstance(event, Error)):
            return  # stdout is gone; errors still go to stderr
        try:
            self._print(event)
        except OutputLost as lost:
            self.lost = lost
            self.on_lost()

    def summary(self, live_text) -> None:
        """--json's last line: what the session's live text cost (a LiveTextReading)."""
        if not self.as_json or self.lost is not None:
            return
        line = {"type": "summary", "live_text": live_text.to_json()}
        try:
            self.out.write(json.dumps(line) + "\n")
            self.out.flush()
        except OutputLost as lost:
            self.lost = lost

    def _print(self, event: Event) -> None:
        if self.as_json:
            if not isinstance(event, QUIET_IN_JSON):
                self.out.write(json.dumps(event.to_json(), ensure_ascii=False) + "\n")
                self.out.flush()
        elif isinstance(event, Translation) and not event.provisional:
            who = f"[{event.speaker}] " if event.speaker else ""
            way = f"[{event.direction.short_label}] " if self.label_direction else ""
            self.out.write(f"{who}{way}{event.source} → {event.text}\n")
            self.out.flush()
        elif isinstance(event, Error):
            who = f"[{event.speaker}] " if event.speaker else ""
            print(
                f"{who}error ({event.stage}): {event.text}" + (f"\n  → {event.hint}" if event.hint else ""),
                file=sys.stderr,
            )
        elif isinstance(event, Room) and event.problem is not RoomProblem.OK:
            who = f"[{event.speaker}] " if event.speaker else ""
            print(f"{who}input: {event.text}\n  → {event.hint}", file=sys.stderr)


def _start_clock_when_listening(stop: StopRequests):
    def observer(event: Event) -> None:
        if isinstance(event, Status) and event.state is State.RUNNING:
            stop.start_clock()  # --duration counts from when listening begins

    return observer


def _make_session(args: argparse.Namespace, models: dict, on_event) -> Session:
    """A Conversation (--conversation) or a Pipeline, configured from the command line.
    One config for both kinds of session: a conversation's two sides are derived from it."""
    from app.pipeline import Pipeline
    from app.pipeline.conversation import Conversation, ConversationConfig

    config = _pipeline_config(args, models)
    if args.conversation:
        spoken = Spoken(args.speak or Spoken.THEM)
        if args.speak_into != SpeechTarget.SPEAKERS and spoken == Spoken.THEM and not args.no_tts:
            print(
                f"note: --speak-into {args.speak_into} carries my translations, but --speak them speaks only theirs: "
                "add --speak me (or both) for the call set-up",
                file=sys.stderr,
            )
        return Conversation(
            ConversationConfig(pipeline=config, system_device=args.system_device, spoken=spoken.speakers),
            on_event=on_event,
        )
    return Pipeline(config, on_event=on_event)


def _pipeline_config(args: argparse.Namespace, models: dict):
    from app.audio.devices import parse_device
    from app.model_store.optimized import prepare_on_stderr
    from app.pipeline import PipelineConfig

    return PipelineConfig(
        direction=Direction.EN_ZH if args.direction == AUTO_DIRECTION else args.direction,
        auto_direction=args.direction == AUTO_DIRECTION,
        nmt_models=models,
        asr_model=args.asr_model,
        input_path=args.input,
        source=SourceKind(args.source),
        input_device=parse_device(args.device),
        realtime=args.realtime or args.input is None,
        tts_enabled=not args.no_tts,
        tts_out=args.tts_out,
        emit_steps=False,
        glossary=args.glossary,
        chinese=args.chinese,
        prepare_graphs=prepare_on_stderr,
        speak_into=args.speak_into,
        mix_original=args.mix_original,
    )


def _run_until_done(session: Session, stop: StopRequests) -> None:
    session.start()
    while not session.wait_until_done(0.2):
        if stop.requested.is_set():
            session.finish()  # what was heard is finalised, translated, printed and saved
            return


def _finish(session: Session, captions) -> None:
    """Stop the session and the caption server; say where the transcript went."""
    session.stop()
    if captions is not None:
        captions.stop()
    transcript = session.transcript
    if transcript is not None and transcript.unsaved:
        print(
            f"transcript incomplete: {transcript.unsaved} records could not be saved to {transcript.path} "
            f"({transcript.problem})",
            file=sys.stderr,
        )
    elif transcript is not None:
        print(f"transcript saved: {transcript.path}", file=sys.stderr)


def _start_captions(address: arguments.ServeAddress):
    """The caption server of --serve, listening before the pipeline starts."""
    from app.captions import CaptionServer
    from app.pipeline.caption_downloads import caption_writers

    server = CaptionServer(address.host, address.port, writers=caption_writers())
    server.start()
    print(f"captions: {server.url}", file=sys.stderr, flush=True)
    return server
