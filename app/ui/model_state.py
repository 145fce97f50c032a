"""What the window needs to know about models, in words, from the core's tools.

A thin layer over app.model_store.catalog (where models are) and the model doctor
(app.translation.inspect_model_folder), so the widgets only deal with a small `ModelState`.
Sources (microphones, system audio) are listed by app.ui.sources.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path

from app.model_store import catalog
from app.model_store.catalog import default_nmt_dir, model_dest
from app.model_store.download import download as fetch
from app.pipeline import PipelineConfig
from app.shared.errors import LiveTranslatorError
from app.shared.languages import Direction
from app.shared.live_text import LiveText
from app.ui.i18n import direction_words, error_texts, translate, translate_text

log = logging.getLogger(__name__)

FAMILY_NAMES = {"marian": "Marian", "m2m_100": "M2M100"}


@dataclass(frozen=True)
class ModelState:
    direction: str
    path: str | None  # the folder in use, None when none was found
    can_run: bool
    name: str  # short name for the status bar
    headline: str  # one line, for the banner and the models bar
    hint: str = ""  # what to do about it
    finding: str = ""  # the doctor's full report in words
    missing: bool = False  # no folder at all (as opposed to a folder that is broken)


class DownloadCancelled(LiveTranslatorError):
    """`download` was told to stop (the dialog's Cancel); what arrived stays for the next try."""

    def __init__(self):
        super().__init__(
            translate("ModelDialog", "The download was cancelled."),
            translate("ModelDialog", "Start it again when you are ready."),
        )


def nmt_dir(direction: str, configured: str = "") -> str | None:
    """The folder chosen in the settings, else the installed model the catalog finds."""
    if configured:
        return configured
    found = default_nmt_dir(direction)
    return str(found) if found else None


def find_and_check(direction: str, configured: str = "", progress=None) -> ModelState:
    """The model for `direction` and the doctor's finding on it (slow: use a worker)."""
    try:
        path = nmt_dir(direction, configured)
    except Exception as error:  # the catalog could not look: say so, stay usable
        return ModelState(
            direction,
            None,
            False,
            "missing",
            translate("ModelState", "Could not look for a {direction} model: {error}").format(
                direction=direction_words(direction), error=error_texts(error)[0]
            ),
            translate("ModelState", "Open Models… to choose a model folder."),
            missing=True,
        )
    return check_nmt(direction, path, progress)


def find_and_check_all(configured: dict[str, str], progress=None) -> list[ModelState]:
    """Both directions, one after the other: loading tokenizers from two threads at once
    can fail inside transformers' lazy imports ("cannot import name MarianTokenizer")."""
    return [find_and_check(direction, path, progress) for direction, path in configured.items()]


def check_nmt(direction: str, path: str | None, progress=None) -> ModelState:
    """Run the model doctor on `path`, then optimise a usable model for this computer on its
    first check (app.model_store.optimized; slow: call it on a worker thread). `progress(message,
    None)` hears how the optimisation goes."""
    missing = _missing_folder(direction, path)
    if missing is not None:
        return missing
    from app.translation import inspect_model_folder  # lazy: onnxruntime stays off the window's start

    try:
        report = inspect_model_folder(path)
    except Exception as error:  # the doctor itself failed: still a finding in words
        return ModelState(
            direction,
            path,
            False,
            Path(path).name,
            translate("ModelState", "The {direction} model in {path} cannot be read: {error}").format(
                direction=direction_words(direction), path=path, error=error_texts(error)[0]
            ),
            translate("ModelState", "Choose another folder or download the model again."),
            str(error),
        )
    return _judged(direction, path, report, progress)


def _missing_folder(direction: str, path: str | None) -> ModelState | None:
    """No folder chosen or found, or a path that is not a folder; None when it is one."""
    words = direction_words(direction)
    if not path:
        return ModelState(
            direction,
            None,
            False,
            "missing",
            translate("ModelState", "No translation model for {direction}.").format(direction=words),
            translate("ModelState", "Open Models… to download one or to choose a model folder."),
            missing=True,
        )
    if not Path(path).is_dir():
        problem = (
            translate("ModelState", "The {direction} model folder {path} is a file, not a folder.")
            if Path(path).is_file()
            else translate("ModelState", "The {direction} model folder {path} does not exist.")
        )
        return ModelState(
            direction,
            path,
            False,
            "missing",
            problem.format(direction=words, path=path),
            translate("ModelState", "Open Models… to choose another folder or download a model."),
            missing=True,
        )
    return None


def _judged(direction: str, path: str, report, progress) -> ModelState:
    """The doctor's report in words: usable (then optimised), made for the other direction, or what is wrong."""
    words = direction_words(direction)
    finding = report.text
    name = Path(path).name
    name = f"{FAMILY_NAMES.get(report.family, report.family or translate('ModelState', 'model'))} · {name}"
    if report.can_run and direction in report.directions:
        return ModelState(
            direction, path, True, name, f"{words}: {name}", "", finding + _optimised(path, direction, progress)
        )
    if report.can_run:  # a good model, for the other direction (Marian folders do one)
        return ModelState(
            direction,
            path,
            False,
            name,
            translate("ModelState", "The model in {path} translates {directions}, not {direction}.").format(
                path=path, directions=", ".join(report.directions), direction=direction
            ),
            translate("ModelState", "Choose a model for this direction."),
            finding,
        )
    # The doctor's problems come from the core: their templates (problem_texts) are translated here.
    problems = [translate_text(t) for t in report.problem_texts] or report.problems
    reasons = (
        [translate("ModelState", "missing {files}").format(files=", ".join(report.missing))] if report.missing else []
    ) + problems
    reason = reasons[0] if reasons else translate("ModelState", "see the finding")
    return ModelState(
        direction,
        path,
        False,
        name,
        translate("ModelState", "The {direction} model in {path} cannot be used: {reason}.").format(
            direction=words, path=path, reason=reason
        ),
        translate("ModelState", "Open Models… to choose another folder or download the model again."),
        finding,
    )


def _optimised(path: str, direction: str, progress) -> str:
    """The optimisation's outcome as a line of the finding (made now on first use, else cached)."""
    from app.model_store.optimized import prepare  # lazy: onnxruntime stays off the window's start

    try:
        # Said here, on the worker thread (Qt's translate is thread-safe): a plain str crosses to the window.
        done = prepare(
            path, direction, progress=(lambda message: progress(translate_text(message), None)) if progress else None
        )
    except Exception as error:  # the model still runs as it is
        return "\n" + translate("ModelState", "Optimised copy: none ({error})").format(error=error_texts(error)[0])
    if done.optimized:
        return "\n" + translate("ModelState", "Optimised copy: in the cache")
    return "\n" + translate("ModelState", "Optimised copy: none, runs as it is ({reason})").format(reason=done.reason)


def pipeline_config(
    settings, direction: str, states: dict[str, ModelState], input_path: str | None, realtime: bool = True
):
    # Every folder found goes in, usable or not: a broken one then fails with the engine's own
    # words for each utterance, while the speech is still recognised and shown.
    models = {d: s.path for d, s in states.items() if s.path}
    for d in Direction:
        if d.value not in states:  # still being checked (Start pressed at once): find its folder
            try:  # now; that is quick (the doctor's check is what takes time)
                path = nmt_dir(d.value, settings.nmt_dir(d))
            except Exception as error:  # the pipeline says "no model" for it, as for a missing one
                log.warning("could not look for the %s model: %s", d.value, error)
                path = None
            if path:
                models[d.value] = path
    from app.model_store.optimized import prepare_graphs  # lazy: onnxruntime stays off the window's start

    return PipelineConfig(
        direction=direction,
        nmt_models=models,
        asr_model=settings.asr_model,
        prepare_graphs=prepare_graphs,
        input_path=input_path,
        realtime=realtime,
        tts_enabled=settings.tts_enabled,
        verify=settings.verify,
        input_device=settings.input_device or None,
        chinese=settings.chinese or "simplified",
        source_confidence=settings.mark_unsure_source,
        live_text=LiveText.parse(settings.live_text),
    )


def downloadable(direction: str) -> list[tuple[str, str]]:
    """(key, label) of the catalog's downloadable models for `direction`."""
    return [(entry.key, catalog_label(entry.label)) for entry in catalog.for_direction(direction)]


def catalog_label(label: str) -> str:
    """A catalog entry's label (app.model_store, English) in the interface's language: its
    directions translated, the model names as they are."""
    for english, translated in (
        ("English → Chinese", direction_words("en-zh")),
        ("Chinese → English", direction_words("zh-en")),
        ("both directions", translate("ModelState", "both directions")),
    ):
        label = label.replace(english, translated)
    return label


def download(key: str, cancel, progress, endpoint: str = "") -> str:
    """Download catalog model `key` into the user model folder (from `endpoint`, a hub mirror,
    if given); returns its folder. `cancel` (threading.Event) stops it at the next progress
    report; what arrived stays, and the next download resumes it."""

    def report(done, total=None):
        if cancel.is_set():
            raise DownloadCancelled()
        progress(done, total)

    return str(fetch(key, model_dest(key), progress=report, endpoint=endpoint or None))
