"""Download a ready ONNX model from a Hugging Face Hub (or any server speaking its protocol).

`download(key_or_repo, dest, progress=callback, endpoint=None)`: a catalog key fetches that
entry's files (from up to two repos); an `owner/name` repo id fetches the files a model folder
needs from that repo. huggingface_hub does the transfer: it keeps a partial file under
`dest/.cache/huggingface/` and resumes it on the next call, and moves each file into place only
once complete. `progress(done_bytes, total_bytes)` is called as bytes arrive; if it raises, the
download stops there (the partial file stays, to be resumed).

Each file is checked once it has arrived, before the folder is called a model: a `.onnx` must
parse as an ONNX graph, a `.json` as JSON, a `.spm`/`.model` as a SentencePiece model (a server
that answers with an HTML page of the announced size is caught here). A file that fails is
removed, so that running the command again fetches it again.
"""

from __future__ import annotations

import contextlib
import logging
import sys
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path

from app.model_store import catalog
from app.shared import files
from app.shared.errors import QT_TRANSLATE_NOOP, LiveTranslatorError

Progress = Callable[[int, int], None]
REACH_TIMEOUT_S = 3.0  # connecting to the hub; a hub that connects but answers slowly is waited for

# A model folder fetched by repo id: the graphs under onnx/ (merged decoder) plus these.
REPO_SIDE_FILES = (
    "config.json",
    "generation_config.json",
    "tokenizer_config.json",
    "tokenizer.json",
    "special_tokens_map.json",
    "vocab.json",
    "source.spm",
    "target.spm",
    "sentencepiece.bpe.model",
)
REPO_GRAPHS = ("onnx/encoder_model.onnx", "onnx/decoder_model_merged.onnx")


def check_repo_id(repo: str) -> None:
    """An `owner/name` Hub repo id, or a LiveTranslatorError saying what is expected (a path
    such as ../../etc is not one; huggingface_hub's own check would raise HFValidationError)."""
    from huggingface_hub.errors import HFValidationError
    from huggingface_hub.utils import validate_repo_id

    try:
        if repo.count("/") != 1:
            raise HFValidationError("not owner/name")
        validate_repo_id(repo)
    except HFValidationError:
        raise LiveTranslatorError(
            QT_TRANSLATE_NOOP("Errors", "'{repo}' is neither a model this app knows nor a Hub repo id (owner/name)."),
            QT_TRANSLATE_NOOP(
                "Errors",
                "Choose a name from `python -m app models list`, or give a repo id such as Xenova/opus-mt-en-zh.",
            ),
            repo=repo,
        ) from None


def files_for(key_or_repo: str) -> tuple[catalog.HubFile, ...]:
    if "/" not in key_or_repo:
        return catalog.entry(key_or_repo).files
    check_repo_id(key_or_repo)
    side = tuple(catalog.HubFile(key_or_repo, name, optional=True) for name in REPO_SIDE_FILES)
    return side + catalog.with_external_data(tuple(catalog.HubFile(key_or_repo, name) for name in REPO_GRAPHS))


def download(
    key_or_repo: str,
    dest: str | Path | None = None,
    progress: Progress | None = None,
    endpoint: str | None = None,
    revision: str = "main",
) -> Path:
    """Fetch a model folder into `dest` (default: the user model folder); returns `dest`.
    Catalog repos are fetched at their pinned commit (catalog.PINNED); `revision` is for the rest."""
    files = files_for(key_or_repo)  # first: a bad name is refused before any folder is made
    dest = Path(dest) if dest is not None else catalog.model_dest(key_or_repo)
    revisions = {f: catalog.pinned_revision(f.repo) or revision for f in files}
    check_reachable(endpoint)
    with _quiet_retries():
        return _download(files, dest, progress, endpoint, revisions)


def _download(files, dest: Path, progress: Progress | None, endpoint: str | None, revisions: dict) -> Path:
    sizes = {f: _remote_size(f, endpoint, revisions[f]) for f in files}  # also checks all exist, before any download
    for hub_file in files:
        _check_pinned_size(hub_file, sizes[hub_file], endpoint)
    wanted = [f for f in files if sizes[f] is not None]
    total = sum(sizes[f] for f in wanted)
    done = 0
    _make_dest(dest)
    import huggingface_hub.utils.tqdm  # noqa: F401  (loaded, for _bytes_reported)

    for hub_file in wanted:
        with _bytes_reported(lambda n, base=done: progress and progress(base + n, total)):
            fetched = _fetch(hub_file, dest, endpoint, revisions[hub_file])
        _check_content(fetched, hub_file, endpoint)
        done += sizes[hub_file]
        if progress:
            progress(done, total)
    return dest


def check_reachable(endpoint: str | None = None) -> None:
    """One request to the hub with a short timeout and no retry, before huggingface_hub's own:
    they retry a refused or unresolved connection 5 times over 23 s, with two warnings each."""
    import requests
    from huggingface_hub import constants

    where = endpoint or constants.ENDPOINT
    try:
        requests.head(where, timeout=REACH_TIMEOUT_S, allow_redirects=False)
    except requests.exceptions.ReadTimeout:
        return  # it took the connection: slow, not out of reach
    except requests.exceptions.RequestException:
        raise LiveTranslatorError(
            QT_TRANSLATE_NOOP("Errors", "Cannot reach the model hub at {where}."),
            QT_TRANSLATE_NOOP(
                "Errors", "Check the network connection (or --endpoint), then run the same command again."
            ),
            where=where,
        ) from None


@contextlib.contextmanager
def _quiet_retries():
    """huggingface_hub's retry warnings (a connection that breaks mid-download) only with -v:
    what went wrong is said once, in words, when it gives up."""
    retries = logging.getLogger("huggingface_hub.utils._http")
    level = retries.level
    if not logging.getLogger().isEnabledFor(logging.INFO):
        retries.setLevel(logging.ERROR)
    try:
        yield
    finally:
        retries.setLevel(level)


def _make_dest(dest: Path) -> None:
    """The destination folder, made if needed; a file in its place or a folder that cannot be
    written is said in words, before anything is downloaded."""
    if dest.exists() and not dest.is_dir():
        raise LiveTranslatorError(
            QT_TRANSLATE_NOOP("Errors", "{dest} is a file, not a folder to download the model into."),
            QT_TRANSLATE_NOOP("Errors", "Give --dest a folder (it is made if it does not exist)."),
            dest=dest,
        )
    try:
        dest.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=dest):
            pass
    except OSError as error:
        raise LiveTranslatorError(
            QT_TRANSLATE_NOOP("Errors", "Cannot download into {dest}: {reason}."),
            QT_TRANSLATE_NOOP("Errors", "Give --dest a folder you may write to (it is made if it does not exist)."),
            dest=dest,
            reason=error.strerror or error,
        ) from None


def _check_content(path: Path, hub_file: catalog.HubFile, endpoint: str | None) -> None:
    """Raise (and remove the file) when `path` is not what its name says it is."""
    problem = content_problem(path)
    if not problem:
        return
    with open(path, "rb") as f:
        start = f.read(40).decode("utf-8", "replace")
    path.unlink(missing_ok=True)
    raise LiveTranslatorError(
        QT_TRANSLATE_NOOP(
            "Errors", "{where} sent {repo}/{file}, but it is not {kind} ({problem}; it starts with {start})."
        ),
        QT_TRANSLATE_NOOP(
            "Errors",
            "The file was removed. If you use a mirror (--endpoint), check that it serves the model "
            "files themselves (not a web page); then run the same command again.",
        ),
        where=endpoint or "https://huggingface.co",
        repo=hub_file.repo,
        file=hub_file.path,
        kind=_KINDS.get(path.suffix, path.suffix),
        problem=problem,
        start=repr(start),
    )


_KINDS = {".onnx": "an ONNX graph", ".json": "JSON", ".spm": "a SentencePiece model", ".model": "a SentencePiece model"}


def content_problem(path: Path) -> str:
    """'' when a downloaded file parses as what its suffix says (.onnx, .json, .spm, .model;
    other files are not checked), else what is wrong."""
    try:
        if path.suffix == ".onnx":
            import onnx

            onnx.load(str(path), load_external_data=False)  # the graph; external weights are data
        elif path.suffix == ".json":
            files.read_json(path)
        elif path.suffix in (".spm", ".model"):
            import sentencepiece

            sentencepiece.SentencePieceProcessor(model_file=str(path))
    except (LiveTranslatorError, ValueError) as error:
        return str(error).splitlines()[0][:200] if str(error) else type(error).__name__
    except Exception as error:  # protobuf's DecodeError, sentencepiece's RuntimeError, OSError...
        return f"{type(error).__name__}: {str(error).splitlines()[0][:200] if str(error) else 'cannot be parsed'}"
    return ""


def _check_pinned_size(hub_file: catalog.HubFile, size: int | None, endpoint: str | None) -> None:
    """A pinned file announced at another size than the catalog records is not the pinned file."""
    expected = catalog.pinned_size(hub_file.repo, hub_file.path)
    if expected is None or size is None or size == expected:
        return
    raise LiveTranslatorError(
        QT_TRANSLATE_NOOP(
            "Errors", "{where} offers {repo}/{file} with {size} bytes; the file the catalog pins has {expected}."
        ),
        QT_TRANSLATE_NOOP(
            "Errors",
            "Nothing was downloaded. If you use a mirror (--endpoint), check that it mirrors the "
            "Hugging Face Hub; otherwise the catalog's record (app/model_store/catalog.py "
            "PINNED_SIZES) is out of date: please report it.",
        ),
        where=endpoint or "https://huggingface.co",
        repo=hub_file.repo,
        file=hub_file.path,
        size=f"{size:,}",
        expected=f"{expected:,}",
    )


def _remote_size(hub_file: catalog.HubFile, endpoint: str | None, revision: str) -> int | None:
    """Size in bytes from a HEAD request; None for an optional file the repo does not have."""
    from huggingface_hub import get_hf_file_metadata, hf_hub_url

    url = hf_hub_url(hub_file.repo, hub_file.path, revision=revision, endpoint=endpoint)
    with _hub_errors(hub_file, endpoint):
        try:
            return get_hf_file_metadata(url).size or 0
        except Exception as error:
            if hub_file.optional and type(error).__name__ == "EntryNotFoundError":
                return None
            raise


def _fetch(hub_file: catalog.HubFile, dest: Path, endpoint: str | None, revision: str) -> Path:
    from huggingface_hub import hf_hub_download

    with _hub_errors(hub_file, endpoint):
        return Path(hf_hub_download(hub_file.repo, hub_file.path, revision=revision, local_dir=dest, endpoint=endpoint))


def _unreachable(hub_file: catalog.HubFile, where: str) -> LiveTranslatorError:
    return LiveTranslatorError(
        QT_TRANSLATE_NOOP(
            "Errors", "Cannot reach the model hub at {where}, or the connection broke, fetching {repo}/{file}."
        ),
        QT_TRANSLATE_NOOP(
            "Errors",
            "Check the network connection (or --endpoint), then run the same command again: it resumes where it stopped.",  # noqa: E501
        ),
        where=where,
        repo=hub_file.repo,
        file=hub_file.path,
    )


def _no_revision(hub_file: catalog.HubFile) -> LiveTranslatorError:
    if catalog.pinned_revision(hub_file.repo):
        return LiveTranslatorError(
            QT_TRANSLATE_NOOP("Errors", "{repo} no longer has commit {commit}, which the catalog pins."),
            QT_TRANSLATE_NOOP(
                "Errors", "Update the commit in app/model_store/catalog.py PINNED (or download the repo by its id)."
            ),
            repo=hub_file.repo,
            commit=catalog.pinned_revision(hub_file.repo),
        )
    return LiveTranslatorError(
        QT_TRANSLATE_NOOP("Errors", "{repo} has no such revision."),
        QT_TRANSLATE_NOOP("Errors", "Use the default revision (main)."),
        repo=hub_file.repo,
    )


@contextlib.contextmanager
def _hub_errors(hub_file: catalog.HubFile, endpoint: str | None):
    """huggingface_hub's exceptions, said in words with what to do."""
    from huggingface_hub.errors import (
        EntryNotFoundError,
        HfHubHTTPError,
        LocalEntryNotFoundError,
        RepositoryNotFoundError,
        RevisionNotFoundError,
    )
    from requests.exceptions import RequestException

    where = endpoint or "https://huggingface.co"
    try:
        yield
    except RepositoryNotFoundError:
        raise LiveTranslatorError(
            QT_TRANSLATE_NOOP("Errors", "The model hub at {where} has no repository '{repo}'."),
            QT_TRANSLATE_NOOP(
                "Errors", "Check the name (owner/name), or choose a model from `python -m app models list`."
            ),
            where=where,
            repo=hub_file.repo,
        ) from None
    except RevisionNotFoundError:
        raise _no_revision(hub_file) from None
    except LocalEntryNotFoundError:  # (a subclass of EntryNotFoundError) offline and nothing on disk
        raise _unreachable(hub_file, where) from None
    except EntryNotFoundError:
        raise LiveTranslatorError(
            QT_TRANSLATE_NOOP("Errors", "{repo} has no file '{file}', which the model folder needs."),
            QT_TRANSLATE_NOOP("Errors", "The repository may have changed; choose another model or report it."),
            repo=hub_file.repo,
            file=hub_file.path,
        ) from None
    except HfHubHTTPError as error:
        raise LiveTranslatorError(
            QT_TRANSLATE_NOOP("Errors", "The model hub at {where} refused {repo}/{file}: {reason}"),
            QT_TRANSLATE_NOOP("Errors", "Try again later."),
            where=where,
            repo=hub_file.repo,
            file=hub_file.path,
            reason=str(error).splitlines()[0],
        ) from None
    except RequestException:  # refused, timed out, cut mid-file (the partial file is kept)
        raise _unreachable(hub_file, where) from None
    except OSError as error:
        raise LiveTranslatorError(
            QT_TRANSLATE_NOOP("Errors", "Could not write {file}: {reason}"),
            QT_TRANSLATE_NOOP("Errors", "Check the free disk space and that the model folder is writable."),
            file=hub_file.path,
            reason=error,
        ) from None


_patch_lock = threading.Lock()


@contextlib.contextmanager
def _bytes_reported(report: Callable[[int], None]):
    """Report bytes of the current file as huggingface_hub's progress bar advances.

    hf_hub_download has no progress callback. Its byte counter (plain and Xet transfers alike)
    is the tqdm class that huggingface_hub.utils.tqdm._get_progress_bar_context instantiates, so
    a subclass stands in for it during the call (one download at a time: a lock guards it).
    """
    module = sys.modules["huggingface_hub.utils.tqdm"]  # the module, not the class re-exported as utils.tqdm
    base = module.tqdm

    class Reporting(base):
        # No monitor thread: tqdm starts one per bar class, and this class is new per file, so
        # each file downloaded would leave a thread behind for the rest of the process.
        monitor_interval = 0

        def update(self, n=1):
            # Counted here: a disabled bar (no terminal) does not advance its own `n`.
            # The count starts at `initial`: a resumed file starts where it stopped.
            self.done_bytes = getattr(self, "done_bytes", self.n) + (n or 0)
            report(int(self.done_bytes))
            return super().update(n)

    with _patch_lock:
        module.tqdm = Reporting
        try:
            yield
        finally:
            module.tqdm = base
