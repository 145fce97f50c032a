"""Model folders: find the ONNX files, open and classify the sessions, check that the tokenizer
belongs to the model. What a folder is, in plain words: inspection.py (the doctor).

Accepted: `encoder_model.onnx` + `decoder_model_merged.onnx`, or + `decoder_model.onnx` and
`decoder_with_past_model.onnx`, or + an older decoder (self-attention past only), each
possibly as a `*_quantized.onnx` twin, in the folder itself or in its `onnx/` subfolder;
`config.json` (+ `generation_config.json`) and the tokenizer files beside.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from app.shared.errors import QT_TRANSLATE_NOOP, LiveTranslatorError, Text
from app.shared.languages import DIRECTIONS
from app.translation.onnx_model import Encoder, open_session
from app.translation.signatures import Decoders, choose_decoders, read_decoder_signature
from app.translation.tokenization import PromptCodec, read_json

FAMILIES = {"marian": "Marian (opus-mt)", "m2m_100": "M2M100"}
DECODER_FILES = ("decoder_model_merged", "decoder_model", "decoder_with_past_model")
# transformers.js' other weight variants (onnx-community repos of 2024 ship them beside
# `_quantized`). onnxruntime's CPU provider runs the integer ones (MatMulInteger, MatMulNBits,
# MatMulBnb4); they are used, in this order, when a folder has neither plain nor `_quantized`
# files. The half-precision ones are made for WebGPU: refused, naming what to use instead.
INT8_VARIANTS = ("_quantized", "_int8", "_uint8")
CPU_VARIANTS = INT8_VARIANTS + ("_q4", "_bnb4")
GPU_VARIANTS = ("_fp16", "_q4f16")


def variant_of(path: Path) -> str:
    """ "" for a plain graph, else its suffix ("_quantized", "_q4", ...)."""
    return next((v for v in CPU_VARIANTS + GPU_VARIANTS if path.stem.endswith(v)), "")


def find_onnx_files(folder: Path, prefer_quantized: bool = False) -> dict[str, Path]:
    """{"encoder_model": path, "decoder_model_merged": path, ...} for the first of folder, folder/onnx
    that holds an encoder. Plain files win unless prefer_quantized; a lone twin is used either way,
    then the other CPU variants (_int8, _uint8, _q4, _bnb4)."""
    for where in (folder, folder / "onnx"):
        found = {}
        for stem in ("encoder_model",) + DECODER_FILES:
            plain, quantized = where / f"{stem}.onnx", where / f"{stem}_quantized.onnx"
            options = [quantized, plain] if prefer_quantized else [plain, quantized]
            options += [where / f"{stem}{v}.onnx" for v in CPU_VARIANTS[1:]]
            chosen = next((p for p in options if p.is_file()), None)
            if chosen:
                found[stem] = chosen
        if "encoder_model" in found:
            return found
    return {}


def gpu_only_variants(folder: Path) -> list[str]:
    """The half-precision encoder files of a folder that has no CPU variant: what to refuse."""
    return sorted(
        p.name
        for where in (folder, folder / "onnx")
        for v in GPU_VARIANTS
        for p in where.glob(f"encoder_model{v}.onnx")
    )


def _lang(code: str | None) -> str | None:
    code = code.lower() if isinstance(code, str) else ""
    if code.startswith(("en",)):
        return "en"
    if code.startswith(("zh", "cmn", "chi")):
        return "zh"
    return None


def supported_directions(folder: Path, config: dict) -> tuple[str, ...]:
    """Marian models translate one way; read which from tokenizer_config.json or the model's name."""
    if config.get("model_type") == "m2m_100":
        return DIRECTIONS
    tok_config = read_json(folder / "tokenizer_config.json")
    src, tgt = _lang(tok_config.get("source_lang")), _lang(tok_config.get("target_lang"))
    if src and tgt and src != tgt:
        return (f"{src}-{tgt}",)
    for name in (str(config.get("_name_or_path", "")), folder.name, folder.parent.name):
        m = re.search(r"(en|zh)[-_](en|zh)\b", name.lower())
        if m and m.group(1) != m.group(2):
            return (f"{m.group(1)}-{m.group(2)}",)
    return DIRECTIONS  # unknown: let the user decide


def folder_directions(path: Path | str) -> tuple[str, ...]:
    """The directions a model folder translates, from its config and tokenizer files alone
    (nothing is loaded): ("en-zh", "zh-en") for M2M100, one for a Marian model."""
    folder = model_root(path)
    config = read_json(folder / "config.json") if (folder / "config.json").is_file() else {}
    return supported_directions(folder, config)


@dataclass
class LoadedModel:
    folder: Path
    config: dict
    generation_config: dict
    family: str
    files: dict[str, Path]
    encoder: Encoder
    decoders: Decoders
    directions: tuple[str, ...]

    @property
    def quantized(self) -> bool:
        return any(variant_of(p) for p in self.files.values())

    @property
    def vocab_size(self) -> int | None:
        size = self.decoders.first_sig.vocab_size or self.config.get("vocab_size")
        return size if isinstance(size, int) and not isinstance(size, bool) and size > 0 else None

    @property
    def max_positions(self) -> int | None:
        return self.config.get("max_position_embeddings")


def model_root(folder: Path | str) -> Path:
    """The folder itself, or its parent when given the `onnx/` subfolder of a transformers.js repo."""
    folder = Path(folder).expanduser()
    if folder.name == "onnx" and not (folder / "config.json").exists() and (folder.parent / "config.json").exists():
        return folder.parent
    return folder


def load_model(
    folder: Path | str,
    prefer_quantized: bool = False,
    threads: int | None = None,
    graphs: dict[str, Path] | None = None,
) -> LoadedModel:
    """Open a model folder's sessions; any problem raises LiveTranslatorError naming it.
    `graphs` ({"decoder_model_merged": path, ...}) replaces some of the folder's ONNX files by
    other copies of them (the optimised ones in the cache, app.model_store.optimized)."""
    folder = model_root(folder)
    config = _model_config(folder)
    files = find_onnx_files(folder, prefer_quantized)
    files.update({stem: Path(path) for stem, path in (graphs or {}).items() if stem in files})
    wanted = _graphs_to_open(folder, files)
    encoder = Encoder(open_session(files["encoder_model"], threads), files["encoder_model"])
    candidates = []
    for stem in wanted:
        session = open_session(files[stem], threads)
        candidates.append((session, read_decoder_signature(session, files[stem])))
    decoders = choose_decoders(candidates)
    used = {"encoder_model": files["encoder_model"], **{s: files[s] for s in wanted}}
    return LoadedModel(
        folder,
        config,
        read_json(folder / "generation_config.json"),
        config["model_type"],
        used,
        encoder,
        decoders,
        supported_directions(folder, config),
    )


def check_model_folder(path: Path | str) -> None:
    """Refuse, in load_model's own words, a folder that is not a model the app runs: its config
    and graph files are looked at, no session is opened (`run` asks before anything loads)."""
    folder = model_root(path)
    _model_config(folder)
    _graphs_to_open(folder, find_onnx_files(folder))


def _model_config(folder: Path) -> dict:
    """config.json of a folder holding a model family the app runs."""
    if folder.is_file():
        raise LiveTranslatorError(
            QT_TRANSLATE_NOOP("Errors", "{folder} is a file, not a model folder."),
            QT_TRANSLATE_NOOP("Errors", "Pass the folder that holds it: config.json and the .onnx files."),
            folder=folder,
        )
    if not folder.is_dir():
        raise LiveTranslatorError(
            QT_TRANSLATE_NOOP("Errors", "Model folder {folder} does not exist."),
            QT_TRANSLATE_NOOP("Errors", "Pass the folder that holds config.json and the .onnx files."),
            folder=folder,
        )
    config = read_json(folder / "config.json")
    if not config:
        raise LiveTranslatorError(
            QT_TRANSLATE_NOOP("Errors", "{folder} has no config.json."),
            QT_TRANSLATE_NOOP("Errors", "Copy config.json of the original model into the folder."),
            folder=folder,
        )
    family = config.get("model_type")
    if not isinstance(family, str) or family not in FAMILIES:
        raise LiveTranslatorError(
            QT_TRANSLATE_NOOP(
                "Errors", "{folder} holds a {family} model; this app runs Marian (opus-mt) and M2M100 models."
            ),
            QT_TRANSLATE_NOOP("Errors", "Use an opus-mt-en-zh / opus-mt-zh-en or m2m100 model."),
            folder=folder,
            family=family or "unknown",
        )
    return config


def _graphs_to_open(folder: Path, files: dict[str, Path]) -> list[str]:
    """The decoder stems to open beside the encoder: the merged decoder, else the split pair."""
    if "encoder_model" not in files and gpu_only_variants(folder):
        raise LiveTranslatorError(
            QT_TRANSLATE_NOOP(
                "Errors",
                "{folder} holds only half-precision graphs ({found}), made for WebGPU in a browser; "
                "onnxruntime on the CPU runs them poorly or not at all.",
            ),
            QT_TRANSLATE_NOOP(
                "Errors",
                "Download the same repo's int8 files instead (onnx/encoder_model_quantized.onnx and "
                "onnx/decoder_model_merged_quantized.onnx), or its plain fp32 ones (encoder_model.onnx, decoder_model_merged.onnx).",  # noqa: E501
            ),
            folder=folder,
            found=", ".join(gpu_only_variants(folder)),
        )
    if "encoder_model" not in files:
        raise LiveTranslatorError(
            QT_TRANSLATE_NOOP("Errors", "No encoder_model.onnx in {folder} or {subfolder}."),
            QT_TRANSLATE_NOOP(
                "Errors", "Export the model (`python -m app models export`) or download a ready ONNX model."
            ),
            folder=folder,
            subfolder=folder / "onnx",
        )
    if "decoder_model_merged" in files:
        return ["decoder_model_merged"]
    wanted = [s for s in ("decoder_model", "decoder_with_past_model") if s in files]
    if not wanted:
        raise LiveTranslatorError(
            QT_TRANSLATE_NOOP(
                "Errors",
                "No decoder in {folder}: expected decoder_model_merged.onnx, or decoder_model.onnx + "
                "decoder_with_past_model.onnx.",
            ),
            QT_TRANSLATE_NOOP("Errors", "The download or export is incomplete: fetch the decoder files too."),
            folder=files["encoder_model"].parent,
        )
    return wanted


def check_tokenizer(model: LoadedModel, codec: PromptCodec) -> None:
    """A tokenizer from another model gives ids the model does not have: refuse it."""
    vocab = model.vocab_size
    problem = None
    prompt_ids = codec.source_prefix + [t for t in [codec.forced_bos_token_id] if t is not None]
    if vocab is not None and (len(codec) > vocab or model.family == "marian" and len(codec) != vocab):
        problem = Text(
            QT_TRANSLATE_NOOP("Errors", "has {count} tokens but the model has {vocab}"),
            {"count": len(codec), "vocab": vocab},
        )
    elif vocab is not None and any(t >= vocab for t in prompt_ids):
        problem = Text(
            QT_TRANSLATE_NOOP("Errors", "gives prompt token ids {ids} but the model has only {vocab} tokens"),
            {"ids": prompt_ids, "vocab": vocab},
        )
    for key, piece in (("eos_token_id", "</s>"), ("pad_token_id", "<pad>")):
        token_id = model.config.get(key)
        if (
            problem is None
            and isinstance(token_id, int)
            and 0 <= token_id < len(codec)
            and codec.piece(token_id) != piece
        ):
            problem = Text(
                QT_TRANSLATE_NOOP("Errors", "calls token {token} {piece}, but the model's {key} expects {expected}"),
                {"token": token_id, "piece": repr(codec.piece(token_id)), "key": key, "expected": repr(piece)},
            )
    if problem:
        raise LiveTranslatorError(
            QT_TRANSLATE_NOOP("Errors", "The tokenizer in {folder} {problem}: they do not belong together."),
            QT_TRANSLATE_NOOP(
                "Errors", "Copy the tokenizer files (vocab.json, *.spm / tokenizer.json) of this very model."
            ),
            folder=model.folder,
            problem=problem,
        )
