"""`python -m app run`: the live pipeline without a window, on a recording, the microphone or
system audio; `--conversation` listens to the microphone and system audio at once."""

from __future__ import annotations

import argparse
import sys

from app.audio.cli import StopRequests, add_live_options
from app.audio.devices import parse_device
from app.audio.guest import GuestSource
from app.pipeline import caption_address
from app.pipeline.caption_downloads import caption_writers
from app.pipeline.config import PipelineConfig
from app.pipeline.conversation import Conversation, ConversationConfig
from app.pipeline.event_printer import EventPrinter
from app.pipeline.glossary_watch import GlossaryWatch
from app.pipeline.guests import MAX_GUESTS_SPEAKING, WithGuests
from app.pipeline.live_meter import LiveTextMeter
from app.pipeline.pipeline import Pipeline
from app.pipeline.run_checks import check_run
from app.pipeline.session import Session
from app.shared import arguments
from app.shared.audio import SourceKind, SpeechTarget
from app.shared.chinese import CHINESE_SCRIPTS
from app.shared.events import Error, Event, Spoken, Stage, State, Status
from app.shared.languages import AUTO_DIRECTION, DIRECTIONS, Direction


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
    parser.add_argument(
        "--voice",
        metavar="ID",
        action="append",
        default=[],
        help="speak the voice's language with this voice (python -m app voices), e.g. piper:en_US-joe-medium "
        "or gmw/en-us; once per language (default: a natural piper voice for English on Linux when "
        "installed, else the system's best)",
    )


def _add_output_options(parser: argparse.ArgumentParser) -> None:
    """How a recording is fed, what is printed and served, and how the text is written."""
    parser.add_argument(
        "--realtime", action="store_true", help="feed --input at speaking speed (default: as fast as it goes)"
    )
    parser.add_argument(
        "--json", action="store_true", help="one JSON object per event and line (not decode steps or meter levels)"
    )
    parser.add_argument(
        "--serve",
        metavar="[HOST:]PORT",
        type=caption_address.serve_address,
        help="show live captions in a browser at http://HOST:PORT/ (default host 127.0.0.1; "
        "any other host gets an access key; IPv6 as [::1]:8765; port 0: any free port)",
    )
    parser.add_argument(
        "--guest-speech",
        action="store_true",
        help="with --serve: listeners with the speaking link (printed as 'speak: URL', HTTPS on the next "
        "port) may speak through the caption page, their phone a second microphone, heard the other way",
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


def run(args: argparse.Namespace) -> int:
    models = check_run(args)  # before anything loads
    trace = _crash_trace()
    try:
        return _run(args, models, sys.stdout, trace)  # the events are printed to the stream handed on, only
    finally:
        trace.end()


def _crash_trace():
    """`run` is traced as the window is (app/shared/crash_trace.py): a fatal error's traceback in
    the log folder, and a marker the window's next start reports. A log folder that cannot be
    written: one line on stderr, and the run goes on."""
    from app.shared.crash_trace import CrashTrace  # lazy: psutil, kept off `run --help` and the window's start

    trace = CrashTrace()
    trace.begin(look_back=False)  # the window tells of earlier runs; nobody would see it here
    for problem in trace.problems:
        print(f"warning: {problem.message}", file=sys.stderr)
    return trace


def _run(args: argparse.Namespace, models: dict, out, trace) -> int:
    """Build the session, run it until its input ends or a stop is asked for, then finish."""
    stop = StopRequests(args.duration)
    printer = EventPrinter(  # no one reads: end as Ctrl-C does
        out, as_json=args.json, on_lost=stop.requested.set, label_direction=args.direction == AUTO_DIRECTION
    )
    meter = LiveTextMeter()
    observers = [_start_clock_when_listening(stop), printer, meter.observe]

    def observe(event: Event) -> None:
        for observer in observers:
            observer(event)

    places = _guest_places(args)
    session = _make_session(args, models, observe, places)
    observers.append(_transcript_problems(trace))
    if args.glossary_files:  # edits reach the session between utterances
        observers.append(GlossaryWatch(args.glossary_files, session.apply_glossary, printer).on_event)
    captions = None
    with stop:
        try:
            if args.serve:  # listening before the session starts, so a page sees it all
                captions = _start_captions(args.serve, places)
                observers.append(captions.on_event)
            _run_until_done(session, stop, trace)
        finally:
            _finish(session, captions)
    printer.summary(meter.reading())
    if printer.lost is not None:
        raise printer.lost
    return 1 if printer.errors else 0


def _transcript_problems(trace):
    """An observer that tells the crash trace when saving the transcript fails."""

    def observer(event: Event) -> None:
        if isinstance(event, Error) and event.stage == Stage.TRANSCRIPT:
            trace.note_transcript_problem(event.text)

    return observer


def _start_clock_when_listening(stop: StopRequests):
    def observer(event: Event) -> None:
        if isinstance(event, Status) and event.state is State.RUNNING:
            stop.start_clock()  # --duration counts from when listening begins

    return observer


def _guest_places(args: argparse.Namespace) -> list:
    """--guest-speech: the places guests speak from (app.audio.guest.GuestSource), one per guest
    who may speak at once; none without it."""
    if not args.guest_speech:
        return []
    return [GuestSource(f"guest place {n + 1}") for n in range(MAX_GUESTS_SPEAKING)]


def _make_session(args: argparse.Namespace, models: dict, on_event, places: list) -> Session:
    """A Conversation (--conversation) or a Pipeline, configured from the command line, with
    guest lanes around it when there are guest places (--guest-speech)."""
    config = _pipeline_config(args, models)
    if not places:
        return _host_session(args, config, on_event)
    return WithGuests(
        config, lambda host, observer, ids: _host_session(args, host, observer, ids), places, on_event=on_event
    )


def _host_session(args: argparse.Namespace, config, on_event, utterance_ids=None) -> Session:
    """A Conversation (--conversation) or a Pipeline. One config for both kinds of session: a
    conversation's two sides are derived from it."""
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
            utterance_ids=utterance_ids,
        )
    return Pipeline(config, on_event=on_event, utterance_ids=utterance_ids)


def _pipeline_config(args: argparse.Namespace, models: dict) -> PipelineConfig:
    from app.model_store.optimized import prepare_on_stderr  # lazy: kept off `run --help` and the window's start

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
        tts_voices=_voices(args.voice),
        emit_steps=False,
        glossary=args.glossary,
        chinese=args.chinese,
        prepare_graphs=prepare_on_stderr,
        speak_into=args.speak_into,
        mix_original=args.mix_original,
    )


def _voices(chosen: list[str]) -> dict[str, str]:
    """--voice ID...: language -> voice, each checked against the installed voices (listed only when asked)."""
    if not chosen:
        return {}
    from app.voice_list import language_of, list_voices  # lazy: multiprocessing, only for --voice

    installed = list_voices()
    return {language_of(voice, installed): voice for voice in chosen}


def _run_until_done(session: Session, stop: StopRequests, trace) -> None:
    session.start()
    if session.transcript is not None:  # named by the window's notice if this run crashes
        trace.note_transcript(session.transcript.path)
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


def _start_captions(address: arguments.ServeAddress, places: list):
    """The caption server of --serve, listening before the pipeline starts; with guest places, its
    speaking link too (HTTPS on the next port; any free one beside port 0)."""
    from app.captions import CaptionServer  # lazy: aiohttp, loaded only when --serve is given
    from app.captions.guest_speech import GuestSpeech  # lazy: as above

    guests = GuestSpeech(places, port=address.port + 1 if address.port else 0) if places else None
    server = CaptionServer(address.host, address.port, writers=caption_writers(), guest_speech=guests)
    server.start()
    print(f"captions: {server.url}", file=sys.stderr, flush=True)
    if guests is not None:
        print(f"speak: {server.speak_url}", file=sys.stderr, flush=True)
    return server
