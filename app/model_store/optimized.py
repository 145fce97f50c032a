"""A user's model folder, optimised for onnxruntime on first load, in the cache.

Models from the catalog are plain optimum exports (Xenova, onnx-community), with int8 twins that
transformers.js made. They run 1.2-2x slower than the graphs `models export` writes. On first
load `prepare` applies the same rewrites to the decoder graphs the app would load (attention
fused, self-attention cache shared in place, a tied embedding stored once:
app.model_store.optimize), writes the results to cache_dir()/optimized/<key>/, and checks them
on a probe against the originals: the same token ids, greedy and beam 4. If a rewrite does not
apply or the ids differ, the folder's own graphs are used and the reason is logged and kept.
The user's folder is only read.

The key is a hash of each source graph's name, size, modification time and first and last MiB,
with the rewrite's version: a changed graph gets a new entry (and the old one is removed), an
unchanged one is found again without reading more than that.

The cache heals itself (its entries: app.model_store.optimized_cache): an entry that fails the
check on load (overwritten, cut short, a name outside the entry) is removed and made again. One
first load of a folder runs at a time across processes; the others wait and reuse it.
"""

from __future__ import annotations

import dataclasses
import hashlib
import logging
import os
import shutil
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from app.model_store.graph_tools import all_graphs, externalize
from app.model_store.int8_twins import describe, int8_head_from_table
from app.model_store.optimize import fuse_attention
from app.model_store.optimized_cache import (
    VERSION,
    Preparation,
    keep_decision,
    optimized_root,
    process_lock,
    read_record,
    thread_lock,
)
from app.model_store.self_cache import share_self_cache
from app.model_store.tied_embedding import share_tied_embedding
from app.shared import files as careful
from app.shared.errors import QT_TRANSLATE_NOOP, LiveTranslatorError, Text
from app.shared.languages import Direction, Language
from app.translation import DecodeOptions, Translator
from app.translation.folder import find_onnx_files, model_root

log = logging.getLogger(__name__)

HEAD_BYTES = 1 << 20
# Probe sentences per source language: decoded greedy and with 4 beams, forced to PROBE_TOKENS
# tokens (EOS cannot end it early), by the original graphs and by the rewritten ones.
PROBES = {
    Language.EN: ("Could you please tell me where the nearest train station is?", "Good morning, everyone."),
    Language.ZH: ("请问最近的火车站在哪里？", "大家早上好。"),
}
PROBE_TOKENS = 16

Progress = Callable[[Text], None]  # a line for people: str() is English, the window translates it


@dataclass
class _Job:
    """One prepare(): the folder, the graphs to rewrite, the cache entry, whom to tell."""

    folder: Path
    config: dict
    direction: Direction | str
    prefer_quantized: bool
    graphs: dict[str, Path]  # stem -> the folder's decoder graph
    encoder: Path | None  # laid out again beside the rewritten decoders
    entry: Path
    say: Progress


def graphs_to_load(folder: Path, prefer_quantized: bool) -> dict[str, Path]:
    """The decoder graphs `load_model` would open for this folder (the ones worth rewriting)."""
    files = find_onnx_files(folder, prefer_quantized)
    if "decoder_model_merged" in files:
        return {"decoder_model_merged": files["decoder_model_merged"]}
    return {s: files[s] for s in ("decoder_model", "decoder_with_past_model") if s in files}


def source_key(graphs: dict[str, Path]) -> str:
    digest = hashlib.sha256(f"v{VERSION} onnxruntime {_ort_version()}".encode())
    for stem, path in sorted(graphs.items()):
        for part in [path, *_external_data(path)]:
            stat = part.stat()
            digest.update(f"{stem} {part.name} {stat.st_size} {stat.st_mtime_ns}".encode())
            with part.open("rb") as f:
                digest.update(f.read(HEAD_BYTES))
                if stat.st_size > 2 * HEAD_BYTES:
                    f.seek(-HEAD_BYTES, os.SEEK_END)
                    digest.update(f.read())
    return digest.hexdigest()[:32]


def prepare(
    folder: Path | str, direction: Direction | str, prefer_quantized: bool = False, progress: Progress | None = None
) -> Preparation:
    """The optimised graphs for `folder` (made now on first load, else taken from the cache), or
    the reason the folder's own graphs are to be used. Never raises for a graph it cannot
    rewrite; a folder the app cannot load at all gives an empty Preparation (loading it then
    reports what is wrong)."""
    folder = model_root(folder)
    say = progress or (lambda message: None)
    try:
        graphs = graphs_to_load(folder, prefer_quantized)
        config = careful.read_json(folder / "config.json")
    except (OSError, ValueError, LiveTranslatorError):  # loading the folder names it
        return Preparation(reason="not a model folder the app can load")
    if not isinstance(config, dict):  # loading the folder names this problem to the user
        return Preparation(reason="config.json is not a JSON object")
    if not graphs:
        return Preparation(reason="no decoder graph")
    # The key covers every graph the entry may stand in for: the decoders it rewrites and the
    # encoder it lays out again (a folder whose encoder changed must not get a cached one).
    encoder = _encoder_file(folder, prefer_quantized)
    key = source_key({**graphs, **({"encoder_model": encoder} if encoder else {})})
    entry = optimized_root() / key
    with thread_lock(key):
        try:
            held = process_lock(entry)
        except OSError as error:  # the cache cannot be written (or the lock not taken): run as it is
            return Preparation(reason=f"optimisation failed ({type(error).__name__}: {error})")
        try:
            return _find_or_make(_Job(folder, config, direction, prefer_quantized, graphs, encoder, entry, say))
        finally:
            held.release()


def _find_or_make(job: _Job) -> Preparation:
    """prepare()'s work, with the entry's lock held."""
    folder, entry = job.folder, job.entry
    if entry.exists():
        found, damage = read_record(entry, job.graphs)
        if found is not None:
            if found.reason:
                log.info("%s: using the folder's own graphs (%s; decided on first load)", folder, found.reason)
            return found
        log.warning("%s: the optimised copy in the cache is damaged (%s); it is made again", folder, damage)
        job.say(
            Text(
                QT_TRANSLATE_NOOP("Errors", "{name}: the optimised copy in the cache is damaged; making it again…"),
                {"name": folder.name},
            )
        )
        shutil.rmtree(entry, ignore_errors=True)
    return _make(job)


def _make(job: _Job) -> Preparation:
    """Optimise now (first load, or the cached copy was damaged) and say how it went."""
    folder, say = job.folder, job.say
    say(
        Text(
            QT_TRANSLATE_NOOP("Errors", "Optimising {name} for this computer (first load only)…"), {"name": folder.name}
        )
    )
    started = time.monotonic()
    try:
        result = _optimise(dataclasses.replace(job, direction=Direction.parse(job.direction)))
    except Exception as error:  # the cache cannot be written, a graph cannot be read...: run as it is
        log.debug("optimising %s failed", folder, exc_info=True)
        result = Preparation(reason=f"optimisation failed ({type(error).__name__}: {error})")
    if result.reason and all(n.endswith("already optimised") for n in result.reason.split("; ")):
        log.info("%s: %s", folder, result.reason)
        say(Text(QT_TRANSLATE_NOOP("Errors", "{name}: already optimised."), {"name": folder.name}))
    elif result.reason:
        log.warning("%s: not optimised, using its own graphs: %s", folder, result.reason)
        say(
            Text(
                QT_TRANSLATE_NOOP("Errors", "{name}: not optimised ({reason}); using it as it is."),
                {"name": folder.name, "reason": result.reason},
            )
        )
    else:
        log.info("%s: optimised in %.1f s into %s", folder, time.monotonic() - started, job.entry)
        say(
            Text(
                QT_TRANSLATE_NOOP("Errors", "{name}: optimised in {seconds} s."),
                {"name": folder.name, "seconds": f"{time.monotonic() - started:.0f}"},
            )
        )
    return result


def load_translator(
    folder: Path | str,
    direction: Direction | str,
    prefer_quantized: bool = False,
    threads: int | None = None,
    optimize: bool = True,
    progress: Progress | None = None,
):
    """Translator.load on the optimised graphs when there are some (see prepare)."""
    graphs = prepare(folder, direction, prefer_quantized, progress).graphs if optimize else {}
    return Translator.load(
        folder, direction=direction, prefer_quantized=prefer_quantized, threads=threads, graphs=graphs
    )


def prepare_graphs(folder: Path | str, direction: Direction | str, prefer_quantized: bool = False) -> dict[str, Path]:
    """prepare() as PipelineConfig.prepare_graphs wants it: the graphs to load instead, or none."""
    return prepare(folder, direction, prefer_quantized).graphs


def prepare_on_stderr(
    folder: Path | str, direction: Direction | str, prefer_quantized: bool = False
) -> dict[str, Path]:
    """prepare() for a command: progress lines on stderr (stdout is the command's output)."""
    import sys

    return prepare(folder, direction, prefer_quantized, progress=lambda m: sys.stderr.write(f"{m}\n")).graphs


# -- the work ---------------------------------------------------------------------------------


def _optimise(job: _Job) -> Preparation:
    graphs, entry, say = job.graphs, job.entry, job.say
    heads = job.config.get("decoder_attention_heads") or job.config.get("num_attention_heads")
    if not heads:
        return keep_decision(entry, graphs, {}, "config.json names no decoder_attention_heads")
    work = entry.with_name(f"{entry.name}.partial-{os.getpid()}-{threading.get_ident()}")
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    try:
        rewritten, notes, tied = {}, [], set()
        without_int8_head = {}  # stem -> its graph before the int8 head's rewrite (other numbers)
        for stem, source in graphs.items():
            say(Text(QT_TRANSLATE_NOOP("Errors", "Rewriting {file}…"), {"file": source.name}))
            result = _rewrite(source, work, int(heads))
            if result.note:
                notes.append(result.note)
                continue
            rewritten[stem] = result.path
            if result.tied:
                tied.add(stem)
            if result.before_int8_head:
                without_int8_head[stem] = result.before_int8_head
        if not rewritten:
            shutil.rmtree(work, ignore_errors=True)
            return keep_decision(entry, graphs, {}, "; ".join(notes))
        # Weights in external-data files, which onnxruntime maps instead of copying (the
        # encoder too, unchanged otherwise): a loaded model then holds its weights about once.
        say(Text(QT_TRANSLATE_NOOP("Errors", "Laying out the weights for a lean load…")))
        for stem, path in rewritten.items():
            if stem not in tied:  # the tied-head rewrites wrote their graph that way already
                externalize(path)
        if job.encoder is not None:
            rewritten["encoder_model"] = externalize(job.encoder, work / job.encoder.name)
        say(Text(QT_TRANSLATE_NOOP("Errors", "Checking the optimised model against the original…")))
        mismatch = _checked(job, rewritten, without_int8_head)
        if mismatch:
            shutil.rmtree(work, ignore_errors=True)
            return keep_decision(entry, graphs, {}, mismatch)
        return keep_decision(entry, graphs, rewritten, "", work=work)
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise


@dataclass
class _Rewritten:
    """One decoder graph after the rewrites: its copy in the work folder, or why it is not used."""

    path: Path | None = None
    note: str = ""  # why the folder's own graph stays ("" when rewritten)
    tied: bool = False  # its tied head now reads the embedding's table (written with external data)
    before_int8_head: Path | None = None  # the copy before the int8 head's rewrite, to fall back to


def _rewrite(source: Path, work: Path, heads: int) -> _Rewritten:
    """Copy `source` (and its external data) into `work` and apply the rewrites in order:
    attention fused, self-attention cache shared, then the tied head (fp32: it reads the
    embedding table; an int8 twin's: an int8 MatMul of its table, app.model_store.int8_twins)."""
    copy = work / source.name
    for part in [source, *_external_data(source)]:
        shutil.copyfile(part, work / part.name)
    result = _Rewritten(path=copy)
    try:
        twin = describe(source)
        log.info("%s: %s", source.name, twin.text)
        fused = fuse_attention(copy, heads)
        shared = share_self_cache(copy) if fused else 0
        if fused and share_tied_embedding(copy):
            result.tied = True
        elif fused and twin.head_from_table:
            before = shutil.copyfile(copy, work / f"{copy.name}.before-int8-head")
            if int8_head_from_table(copy):
                result.tied, result.before_int8_head = True, Path(before)
            else:
                Path(before).unlink()
    except Exception as error:  # a graph the rewrite trips on: keep the original
        log.debug("rewriting %s failed", source, exc_info=True)
        return _Rewritten(note=f"{source.name}: the rewrite failed ({type(error).__name__}: {error})")
    if fused:
        log.info(
            "%s: %d attention blocks fused, %d self-attention caches shared%s",
            source.name,
            fused,
            shared,
            ", the tied embedding stored once" if result.tied else "",
        )
        return result
    if _has_fused_attention(copy):
        return _Rewritten(note=f"{source.name}: already optimised")
    return _Rewritten(note=f"{source.name}: no attention block the rewrite knows (another exporter's graph?)")


def _checked(job: _Job, rewritten: dict, without_int8_head: dict) -> str:
    """_probe's answer ("" when the ids match). A weights-only twin's head was float: when the
    int8 head's numbers are what differs, the probe runs again with the twin's own head."""
    mismatch = _probe(job.folder, job.direction, job.prefer_quantized, rewritten)
    if mismatch and without_int8_head:
        log.info("%s: %s with the int8 head; trying again without it", job.folder.name, mismatch)
        for stem, before in without_int8_head.items():
            Path(before).replace(rewritten[stem])
            externalize(rewritten[stem])
        mismatch = _probe(job.folder, job.direction, job.prefer_quantized, rewritten)
    for before in without_int8_head.values():
        Path(before).unlink(missing_ok=True)
    return mismatch


def _probe(folder: Path, direction: Direction, prefer_quantized: bool, rewritten: dict[str, Path]) -> str:
    """ "" when the rewritten graphs give the originals' token ids on every probe, else what
    differed. One model at a time: the first load's memory peak stays that of one model."""
    cases = [(beams, text) for beams in (1, 4) for text in PROBES[direction.source]]
    ids = {}
    for which, graphs in (("original", None), ("rewritten", rewritten)):
        try:
            translator = Translator.load(
                folder, direction=direction, prefer_quantized=prefer_quantized, threads=1, graphs=graphs
            )
        except Exception as error:
            return f"the {which} graphs do not load ({type(error).__name__}: {error})"
        try:
            for beams, text in cases:
                options = DecodeOptions(
                    num_beams=beams, max_new_tokens=PROBE_TOKENS, min_new_tokens=PROBE_TOKENS, loop_window=0
                )
                ids[which, beams, text] = [s.token_ids for s in translator.translate(text, options).sentences]
        except Exception as error:
            return f"the probe failed on the {which} graphs ({type(error).__name__}: {error})"
        del translator
    for beams, text in cases:
        if ids["original", beams, text] != ids["rewritten", beams, text]:
            return f"the rewritten graphs gave other token ids on the probe ({beams} beam(s), {text!r})"
    return ""


def _encoder_file(folder: Path, prefer_quantized: bool) -> Path | None:
    return find_onnx_files(folder, prefer_quantized).get("encoder_model")


def _external_data(path: Path) -> list[Path]:
    """The external-data files beside a graph (`x.onnx_data`, `x.onnx.data`, `x.onnx_data_1`…)."""
    return sorted(
        p
        for p in path.parent.glob(f"{path.name}*")
        if p != path and p.is_file() and p.name[len(path.name) :].startswith(("_data", ".data"))
    )


def _has_fused_attention(path: Path) -> bool:
    import onnx

    model = onnx.load(str(path), load_external_data=False)
    ops = {n.op_type for g in all_graphs(model.graph) for n in g.node}
    return bool(ops & {"MultiHeadAttention", "GroupQueryAttention", "Attention"})


def _ort_version() -> str:
    import onnxruntime

    return onnxruntime.__version__
