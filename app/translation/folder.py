"""Model folders: find the ONNX files, open and classify the sessions, and say in plain words
what a folder is (`inspect_model_folder`, used by `python -m app models doctor` and the window).

Accepted: `encoder_model.onnx` + `decoder_model_merged.onnx`, or + `decoder_model.onnx` and
`decoder_with_past_model.onnx`, or + an older decoder (self-attention past only), each
possibly as a `*_quantized.onnx` twin, in the folder itself or in its `onnx/` subfolder;
`config.json` (+ `generation_config.json`) and the tokenizer files beside.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from app.shared.errors import LiveTranslatorError
from app.shared.languages import DIRECTIONS
from app.translation.onnx_model import Decoders, Encoder, choose_decoders, open_session, read_decoder_signature
from app.translation.tokenization import PromptCodec, read_json, tokenizer_files

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
    """"" for a plain graph, else its suffix ("_quantized", "_q4", ...)."""
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
    return sorted(p.name for where in (folder, folder / "onnx") for v in GPU_VARIANTS
                  for p in where.glob(f"encoder_model{v}.onnx"))


def _lang(code: str | None) -> str | None:
    code = (code or "").lower()
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
        return self.decoders.first_sig.vocab_size or self.config.get("vocab_size")

    @property
    def max_positions(self) -> int | None:
        return self.config.get("max_position_embeddings")


def model_root(folder: Path | str) -> Path:
    """The folder itself, or its parent when given the `onnx/` subfolder of a transformers.js repo."""
    folder = Path(folder).expanduser()
    if folder.name == "onnx" and not (folder / "config.json").exists() and (folder.parent / "config.json").exists():
        return folder.parent
    return folder


def load_model(folder: Path | str, prefer_quantized: bool = False, threads: int | None = None,
               graphs: dict[str, Path] | None = None) -> LoadedModel:
    """Open a model folder's sessions; any problem raises LiveTranslatorError naming it.
    `graphs` ({"decoder_model_merged": path, ...}) replaces some of the folder's ONNX files by
    other copies of them (the optimised ones in the cache, app.model_store.optimized)."""
    folder = model_root(folder)
    if not folder.is_dir():
        raise LiveTranslatorError(f"Model folder {folder} does not exist.", "Pass the folder that holds config.json and the .onnx files.")
    config = read_json(folder / "config.json")
    if not config:
        raise LiveTranslatorError(f"{folder} has no config.json.", "Copy config.json of the original model into the folder.")
    family = config.get("model_type")
    if family not in FAMILIES:
        raise LiveTranslatorError(
            f"{folder} holds a {family or 'unknown'} model; this app runs Marian (opus-mt) and M2M100 models.",
            "Use an opus-mt-en-zh / opus-mt-zh-en or m2m100 model.",
        )
    files = find_onnx_files(folder, prefer_quantized)
    files.update({stem: Path(path) for stem, path in (graphs or {}).items() if stem in files})
    if "encoder_model" not in files and gpu_only_variants(folder):
        found = gpu_only_variants(folder)
        raise LiveTranslatorError(
            f"{folder} holds only half-precision graphs ({', '.join(found)}), made for WebGPU in a browser; "
            "onnxruntime on the CPU runs them poorly or not at all.",
            "Download the same repo's int8 files instead (onnx/encoder_model_quantized.onnx and "
            "onnx/decoder_model_merged_quantized.onnx), or its plain fp32 ones (encoder_model.onnx, decoder_model_merged.onnx).",
        )
    if "encoder_model" not in files:
        raise LiveTranslatorError(
            f"No encoder_model.onnx in {folder} or {folder / 'onnx'}.",
            "Export the model (`python -m app models export`) or download a ready ONNX model.",
        )
    stems = set(files)
    if "decoder_model_merged" in stems:
        wanted = ["decoder_model_merged"]
    else:
        wanted = [s for s in ("decoder_model", "decoder_with_past_model") if s in stems]
    if not wanted:
        raise LiveTranslatorError(
            f"No decoder in {files['encoder_model'].parent}: expected decoder_model_merged.onnx, or "
            "decoder_model.onnx + decoder_with_past_model.onnx.",
            "The download or export is incomplete: fetch the decoder files too.",
        )
    encoder = Encoder(open_session(files["encoder_model"], threads), files["encoder_model"])
    candidates = []
    for stem in wanted:
        session = open_session(files[stem], threads)
        candidates.append((session, read_decoder_signature(session, files[stem])))
    decoders = choose_decoders(candidates)
    used = {"encoder_model": files["encoder_model"], **{s: files[s] for s in wanted}}
    return LoadedModel(folder, config, read_json(folder / "generation_config.json"), family, used, encoder,
                       decoders, supported_directions(folder, config))


def check_tokenizer(model: LoadedModel, codec: PromptCodec) -> None:
    """A tokenizer from another model gives ids the model does not have: refuse it."""
    vocab = model.vocab_size
    problem = None
    prompt_ids = codec.source_prefix + [t for t in [codec.forced_bos_token_id] if t is not None]
    if vocab is not None and (len(codec) > vocab or model.family == "marian" and len(codec) != vocab):
        problem = f"has {len(codec)} tokens but the model has {vocab}"
    elif vocab is not None and any(t >= vocab for t in prompt_ids):
        problem = f"gives prompt token ids {prompt_ids} but the model has only {vocab} tokens"
    for key, piece in (("eos_token_id", "</s>"), ("pad_token_id", "<pad>")):
        token_id = model.config.get(key)
        if problem is None and isinstance(token_id, int) and codec.piece(token_id) != piece:
            problem = f"calls token {token_id} {codec.piece(token_id)!r}, but the model's {key} expects {piece!r}"
    if problem:
        raise LiveTranslatorError(
            f"The tokenizer in {model.folder} {problem}: they do not belong together.",
            "Copy the tokenizer files (vocab.json, *.spm / tokenizer.json) of this very model.",
        )


@dataclass
class ModelFolderReport:
    path: Path
    family: str | None = None
    layout: str | None = None
    files: list[str] = field(default_factory=list)
    quantized: bool = False
    quantized_available: bool = False
    tokenizer: str | None = None
    directions: tuple[str, ...] = ()
    missing: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    can_run: bool = False

    @property
    def text(self) -> str:
        lines = [f"Model folder: {self.path}"]
        if self.family:
            lines.append(f"Family: {FAMILIES.get(self.family, self.family)}")
        if self.directions:
            lines.append(f"Translates: {', '.join(self.directions)}")
        if self.layout:
            lines.append(f"Layout: {self.layout}")
        if self.files:
            lines.append(f"Files used: {', '.join(self.files)}")
        lines.append(f"Quantized: {'yes' if self.quantized else 'no'}"
                     + (" (quantized twins are available)" if self.quantized_available and not self.quantized else ""))
        lines.append(f"Tokenizer: {self.tokenizer or 'not found'}")
        lines += [f"Missing: {m}" for m in self.missing]
        lines += [f"Problem: {p}" for p in self.problems]
        lines.append("The app can run this model." if self.can_run else "The app cannot run this model as it is.")
        return "\n".join(lines)


def inspect_model_folder(path: Path | str) -> ModelFolderReport:
    """Look at a folder and say what it is, what is missing and whether the app can run it."""
    report = ModelFolderReport(model_root(path))
    folder = report.path
    config = read_json(folder / "config.json") if folder.is_dir() else {}
    report.family = config.get("model_type")
    onnx = find_onnx_files(folder) if folder.is_dir() else {}
    report.quantized_available = bool(find_onnx_files(folder, prefer_quantized=True)) and any(
        variant_of(p) for p in find_onnx_files(folder, prefer_quantized=True).values())
    if folder.is_dir():
        if not config:
            report.missing.append("config.json")
        if "encoder_model" not in onnx:
            report.missing.append("encoder_model.onnx")
        if not any(s in onnx for s in DECODER_FILES):
            report.missing.append("a decoder (decoder_model_merged.onnx, or decoder_model.onnx + decoder_with_past_model.onnx)")
        kind, files = tokenizer_files(folder, report.family or "")
        report.tokenizer = {"sentencepiece": " + ".join(p.name for p in files), "tokenizer.json": "tokenizer.json"}.get(kind)
        if not kind:
            expected = " + ".join(p.name for p in files) or "sentencepiece files"
            report.missing.append(f"a tokenizer ({expected}, or tokenizer.json)")
    try:
        model = load_model(folder)
    except LiveTranslatorError as error:
        report.problems.append(error.message)
        return report
    report.layout = model.decoders.description
    report.files = [str(p.relative_to(folder)) for p in model.files.values()]
    report.quantized = model.quantized
    report.directions = model.directions
    for direction in model.directions:
        try:
            codec = PromptCodec(folder, model.family, direction, model.config.get("eos_token_id", 2))
            check_tokenizer(model, codec)
        except LiveTranslatorError as error:
            report.problems.append(error.message)
            break
    report.can_run = not report.problems and not report.missing
    return report
