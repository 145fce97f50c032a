"""What `python -m app run` refuses before anything loads: options that do not go together, a
recording, glossary or model that cannot be used. Each option's value was already checked while
parsing (app.shared.arguments; --serve's address in app/pipeline/caption_address.py)."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from app.audio import FileSource
from app.shared.audio import SpeechTarget
from app.shared.collector import quiet_collector
from app.shared.errors import QT_TRANSLATE_NOOP, LiveTranslatorError
from app.shared.languages import AUTO_DIRECTION, Direction, Language


def check_run(args: argparse.Namespace) -> dict[Direction, str]:
    """Refuse a run that cannot work, before any model loads (LiveTranslatorError). The glossary
    files are read (`args.glossary` becomes their Glossary, `args.glossary_files` keeps their
    names). Returns the translation model folder of each direction the run translates."""
    auto = args.direction == AUTO_DIRECTION
    direction = Direction.EN_ZH if auto else Direction.parse(args.direction)
    check_options(args)
    if args.input is not None:  # the check `transcribe` makes, before any model loads
        FileSource(args.input, realtime=False).check()
    # lazy, here: onnxruntime and app.asr load after the checks above, and never for `run --help`
    from app.asr.whisper_models import check_hears_chinese, check_name
    from app.translation.cli import load_glossaries
    from app.translation.folder import check_model_folder

    args.glossary_files = list(args.glossary)
    with quiet_collector():  # read, its entries leave the collector's passes (a pass over 500,000 took 1-3 s)
        args.glossary = load_glossaries(args.glossary)  # a bad file fails before any model loads
    check_name(args.asr_model)  # as transcribe does: said now, not by the recognition thread once models load
    both_ways = args.conversation or auto or args.guest_speech  # guests speak the other way
    if both_ways or direction.source == Language.ZH:  # the window's Pipeline checks the same
        options = " --conversation" * args.conversation + " --guest-speech" * args.guest_speech
        check_hears_chinese(args.asr_model, f"--direction {args.direction}{options}")
    for folder in args.nmt_model:  # one that is not a model would be taken for any direction
        check_model_folder(folder)
    directions = (direction, direction.reverse) if both_ways else (direction,)
    return {d: model_for(d, args.nmt_model) for d in directions}


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
    _check_output_options(args)


def _check_output_options(args: argparse.Namespace) -> None:
    """Where the results go: nothing overwritten, guest speech only with a caption page."""
    if args.guest_speech and not args.serve:
        raise LiveTranslatorError(
            QT_TRANSLATE_NOOP(
                "Errors", "--guest-speech lets listeners speak through the caption page; it needs --serve."
            ),
            QT_TRANSLATE_NOOP(
                "Errors", "Add --serve [HOST:]PORT (0.0.0.0:8765 for phones), or leave --guest-speech out."
            ),
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


def model_for(direction: Direction, folders: list[str]):
    """The first folder given that translates `direction`; without --nmt-model, the installed one."""
    from app.model_store.catalog import default_nmt_dir  # lazy: app.model_store, kept off `run --help`
    from app.translation.folder import folder_directions  # lazy: onnxruntime, kept off `run --help`

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
