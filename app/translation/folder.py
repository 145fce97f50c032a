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

from app.shared.errors import QT_TRANSLATE_NOOP, LiveTranslatorError, Text
from app.shared.languages import DIRECTIONS
from app.translation.onnx_model import Decoders, Encoder, choose_decoders, open_session, read_decoder_signature
from app.translation.search import resolve_settings
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


def load_model(folder: Path | str, prefer_quantized: bool = False, threads: int | None = None,
               graphs: dict[str, Path] | None = None) -> LoadedModel:
    """Open a model folder's sessions; any problem raises LiveTranslatorError naming it.
    `graphs` ({"decoder_model_merged": path, ...}) replaces some of the folder's ONNX files by
    other copies of them (the optimised ones in the cache, app.model_store.optimized)."""
    folder = model_root(folder)
    if folder.is_file():
        raise LiveTranslatorError(QT_TRANSLATE_NOOP("Errors", "{folder} is a file, not a model folder."),
                                  QT_TRANSLATE_NOOP("Errors", "Pass the folder that holds it: config.json and the .onnx files."), folder=folder)
    if not folder.is_dir():
        raise LiveTranslatorError(QT_TRANSLATE_NOOP("Errors", "Model folder {folder} does not exist."),
                                  QT_TRANSLATE_NOOP("Errors", "Pass the folder that holds config.json and the .onnx files."), folder=folder)
    config = read_json(folder / "config.json")
    if not config:
        raise LiveTranslatorError(QT_TRANSLATE_NOOP("Errors", "{folder} has no config.json."),
                                  QT_TRANSLATE_NOOP("Errors", "Copy config.json of the original model into the folder."), folder=folder)
    family = config.get("model_type")
    if not isinstance(family, str) or family not in FAMILIES:
        raise LiveTranslatorError(
            QT_TRANSLATE_NOOP("Errors", "{folder} holds a {family} model; this app runs Marian (opus-mt) and M2M100 models."),
            QT_TRANSLATE_NOOP("Errors", "Use an opus-mt-en-zh / opus-mt-zh-en or m2m100 model."), folder=folder, family=family or "unknown",
        )
    files = find_onnx_files(folder, prefer_quantized)
    files.update({stem: Path(path) for stem, path in (graphs or {}).items() if stem in files})
    if "encoder_model" not in files and gpu_only_variants(folder):
        found = gpu_only_variants(folder)
        raise LiveTranslatorError(
            QT_TRANSLATE_NOOP("Errors", "{folder} holds only half-precision graphs ({found}), made for WebGPU in a browser; "
                               "onnxruntime on the CPU runs them poorly or not at all."),
            QT_TRANSLATE_NOOP("Errors", "Download the same repo's int8 files instead (onnx/encoder_model_quantized.onnx and "
                               "onnx/decoder_model_merged_quantized.onnx), or its plain fp32 ones (encoder_model.onnx, decoder_model_merged.onnx)."),
            folder=folder, found=", ".join(found),
        )
    if "encoder_model" not in files:
        raise LiveTranslatorError(
            QT_TRANSLATE_NOOP("Errors", "No encoder_model.onnx in {folder} or {subfolder}."),
            QT_TRANSLATE_NOOP("Errors", "Export the model (`python -m app models export`) or download a ready ONNX model."),
            folder=folder, subfolder=folder / "onnx",
        )
    stems = set(files)
    if "decoder_model_merged" in stems:
        wanted = ["decoder_model_merged"]
    else:
        wanted = [s for s in ("decoder_model", "decoder_with_past_model") if s in stems]
    if not wanted:
        raise LiveTranslatorError(
            QT_TRANSLATE_NOOP("Errors", "No decoder in {folder}: expected decoder_model_merged.onnx, or decoder_model.onnx + "
                                        "decoder_with_past_model.onnx."),
            QT_TRANSLATE_NOOP("Errors", "The download or export is incomplete: fetch the decoder files too."), folder=files["encoder_model"].parent,
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
        problem = Text(QT_TRANSLATE_NOOP("Errors", "has {count} tokens but the model has {vocab}"), {"count": len(codec), "vocab": vocab})
    elif vocab is not None and any(t >= vocab for t in prompt_ids):
        problem = Text(QT_TRANSLATE_NOOP("Errors", "gives prompt token ids {ids} but the model has only {vocab} tokens"),
                       {"ids": prompt_ids, "vocab": vocab})
    for key, piece in (("eos_token_id", "</s>"), ("pad_token_id", "<pad>")):
        token_id = model.config.get(key)
        if problem is None and isinstance(token_id, int) and 0 <= token_id < len(codec) and codec.piece(token_id) != piece:
            problem = Text(QT_TRANSLATE_NOOP("Errors", "calls token {token} {piece}, but the model's {key} expects {expected}"),
                           {"token": token_id, "piece": repr(codec.piece(token_id)), "key": key, "expected": repr(piece)})
    if problem:
        raise LiveTranslatorError(
            QT_TRANSLATE_NOOP("Errors", "The tokenizer in {folder} {problem}: they do not belong together."),
            QT_TRANSLATE_NOOP("Errors", "Copy the tokenizer files (vocab.json, *.spm / tokenizer.json) of this very model."),
            folder=model.folder, problem=problem,
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
    problem_texts: list[Text] = field(default_factory=list)  # the same problems as templates, for the window
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


def inspect_model_folder(path: Path | str, probe: bool = True) -> ModelFolderReport:
    """Look at a folder and say what it is, what is missing and whether the app can run it.
    probe: also translate a short sentence each way the model goes (see `probe_problems`)."""
    report = ModelFolderReport(model_root(path))
    try:
        _inspect(report, probe)
    except LiveTranslatorError as error:  # every finding is a problem in the report, never an exception
        report.problems.append(error.message)
        report.problem_texts.append(error.text)
    report.can_run = not report.problems and not report.missing
    return report


def _inspect(report: ModelFolderReport, probe: bool) -> None:
    folder = report.path
    config = read_json(folder / "config.json") if folder.is_dir() else {}
    family = config.get("model_type")
    report.family = family if isinstance(family, str) else None
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
    model = load_model(folder)
    report.layout = model.decoders.description
    report.files = [str(p.relative_to(folder)) for p in model.files.values()]
    report.quantized = model.quantized
    report.directions = model.directions
    eos = resolve_settings(model.generation_config, model.config, {}, model.max_positions,
                           vocab_size=model.vocab_size).eos_token_ids[0]
    for direction in model.directions:
        codec = PromptCodec(folder, model.family, direction, eos)
        check_tokenizer(model, codec)
        if probe and not report.missing:
            found = probe_problems(model, codec, direction)
            report.problems += [str(t) for t in found]
            report.problem_texts += found
        if report.problems:
            break


PROBES = {"en": "The weather is nice today, and we are going to the park.", "zh": "今天天气很好，我们去公园吧。"}


def swapped_sentencepiece(folder: Path, source: str, target: str) -> bool:
    """Marian's source.spm and target.spm exchanged: each then knows the other language's probe
    better than its own (counted in characters its pieces leave unknown)."""
    import sentencepiece

    try:
        src = sentencepiece.SentencePieceProcessor(model_file=str(folder / "source.spm"))
        tgt = sentencepiece.SentencePieceProcessor(model_file=str(folder / "target.spm"))
    except Exception:  # unreadable files are reported by the tokenizer load itself
        return False

    def unknown(sp, text: str) -> int:
        pieces = sp.encode(text, out_type=str)
        return sum(len(p.replace("\u2581", "")) for p, i in zip(pieces, sp.encode(text), strict=True) if i == sp.unk_id())

    return (unknown(src, PROBES[source]) > unknown(tgt, PROBES[source])
            and unknown(tgt, PROBES[target]) > unknown(src, PROBES[target]))


def probe_problems(model: LoadedModel, codec: PromptCodec, direction: str) -> list[Text]:
    """Check that tokenizer and model agree beyond their sizes, and that a short translation
    comes out: the probe sentence is tokenized without unknown pieces, special ids name the
    tokens they should, and greedy decoding of it gives some text before it stops. Each
    problem is a Text (str() is English; the window translates it)."""
    from app.translation.translator import DecodeOptions, Translator  # translator imports this module

    source, target = direction.split("-")
    problems = []
    if model.family == "marian" and codec.kind.startswith("MarianTokenizer") and swapped_sentencepiece(
            model.folder, source, target):
        problems.append(Text(QT_TRANSLATE_NOOP("Errors", "source.spm and target.spm are swapped (each fits the other language): exchange the two "
                                                   "files, or copy them again from the original model")))
    unk = codec.backend.token_id("<unk>")
    ids = codec.backend.encode(PROBES[source])
    if unk is not None and ids and ids.count(unk) > len(ids) // 3:
        problems.append(Text(QT_TRANSLATE_NOOP("Errors", "the tokenizer does not know the {language} probe sentence ({unknown} of {count} "
                                                   "pieces unknown): it belongs to another model or language"),
                             {"language": source, "unknown": ids.count(unk), "count": len(ids)}))
    decoder_start = model.generation_config.get("decoder_start_token_id", model.config.get("decoder_start_token_id"))
    if isinstance(decoder_start, int) and 0 <= decoder_start < len(codec):
        if codec.piece(decoder_start) not in ("<pad>", "</s>", "<s>"):
            problems.append(Text(QT_TRANSLATE_NOOP("Errors", "decoder_start_token_id {token} is {piece} in the tokenizer, "
                                                       "not a start token (<pad> for Marian, </s> for M2M100): correct generation_config.json"),
                                 {"token": decoder_start, "piece": repr(codec.piece(decoder_start))}))
    if problems:
        return problems
    translator = Translator(model, codec, direction)
    result = translator.translate(PROBES[source], DecodeOptions(num_beams=1, max_new_tokens=24, loop_window=0))
    if not result.text.strip():
        settings = translator.settings()
        problems.append(Text(QT_TRANSLATE_NOOP("Errors", "the probe translation of {probe} came out empty (stopped by {reason} "
                                                   "after {count} tokens; max_length {max_length}, {bad} bad_words_ids): "
                                                   "check generation_config.json against the original model's"),
                             {"probe": repr(PROBES[source]), "reason": result.stop_reason, "count": len(result.token_ids),
                              "max_length": settings.max_length, "bad": len(settings.bad_words_ids)}))
    return problems
