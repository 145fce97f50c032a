"""What a model folder is, in plain words, and whether the app can run it: the report behind
`python -m app models doctor` and the window's model check. Beyond the files (folder.py) it
translates a short probe sentence each way the model goes, with the real Translator.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from app.shared.errors import QT_TRANSLATE_NOOP, LiveTranslatorError, Text
from app.translation.folder import (
    DECODER_FILES,
    FAMILIES,
    LoadedModel,
    check_tokenizer,
    find_onnx_files,
    load_model,
    model_root,
    variant_of,
)
from app.translation.generation_settings import resolve_settings
from app.translation.options import DecodeOptions
from app.translation.tokenization import PromptCodec, read_json, tokenizer_files
from app.translation.translator import Translator


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
        lines.append(
            f"Quantized: {'yes' if self.quantized else 'no'}"
            + (" (quantized twins are available)" if self.quantized_available and not self.quantized else "")
        )
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
        variant_of(p) for p in find_onnx_files(folder, prefer_quantized=True).values()
    )
    if folder.is_dir():
        if not config:
            report.missing.append("config.json")
        if "encoder_model" not in onnx:
            report.missing.append("encoder_model.onnx")
        if not any(s in onnx for s in DECODER_FILES):
            report.missing.append(
                "a decoder (decoder_model_merged.onnx, or decoder_model.onnx + decoder_with_past_model.onnx)"
            )
        kind, files = tokenizer_files(folder, report.family or "")
        report.tokenizer = {"sentencepiece": " + ".join(p.name for p in files), "tokenizer.json": "tokenizer.json"}.get(
            kind
        )
        if not kind:
            expected = " + ".join(p.name for p in files) or "sentencepiece files"
            report.missing.append(f"a tokenizer ({expected}, or tokenizer.json)")
    model = load_model(folder)
    report.layout = model.decoders.description
    report.files = [str(p.relative_to(folder)) for p in model.files.values()]
    report.quantized = model.quantized
    report.directions = model.directions
    eos = resolve_settings(
        model.generation_config, model.config, {}, model.max_positions, vocab_size=model.vocab_size
    ).eos_token_ids[0]
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
        return sum(
            len(p.replace("\u2581", "")) for p, i in zip(pieces, sp.encode(text), strict=True) if i == sp.unk_id()
        )

    return unknown(src, PROBES[source]) > unknown(tgt, PROBES[source]) and unknown(tgt, PROBES[target]) > unknown(
        src, PROBES[target]
    )


def probe_problems(model: LoadedModel, codec: PromptCodec, direction: str) -> list[Text]:
    """Check that tokenizer and model agree beyond their sizes, and that a short translation
    comes out: the probe sentence is tokenized without unknown pieces, special ids name the
    tokens they should, and greedy decoding of it gives some text before it stops. Each
    problem is a Text (str() is English; the window translates it)."""
    problems = _tokenizer_problems(model, codec, direction)
    if problems:
        return problems
    source = direction.split("-")[0]
    translator = Translator(model, codec, direction)
    result = translator.translate(PROBES[source], DecodeOptions(num_beams=1, max_new_tokens=24, loop_window=0))
    if result.text.strip():
        return []
    settings = translator.settings()
    return [
        Text(
            QT_TRANSLATE_NOOP(
                "Errors",
                "the probe translation of {probe} came out empty (stopped by {reason} "
                "after {count} tokens; max_length {max_length}, {bad} bad_words_ids): "
                "check generation_config.json against the original model's",
            ),
            {
                "probe": repr(PROBES[source]),
                "reason": result.stop_reason,
                "count": len(result.token_ids),
                "max_length": settings.max_length,
                "bad": len(settings.bad_words_ids),
            },
        )
    ]


def _tokenizer_problems(model: LoadedModel, codec: PromptCodec, direction: str) -> list[Text]:
    """What is wrong between the tokenizer and the model, found without decoding."""
    source, target = direction.split("-")
    problems = []
    if (
        model.family == "marian"
        and codec.kind.startswith("MarianTokenizer")
        and swapped_sentencepiece(model.folder, source, target)
    ):
        problems.append(
            Text(
                QT_TRANSLATE_NOOP(
                    "Errors",
                    "source.spm and target.spm are swapped (each fits the other language): exchange the two "
                    "files, or copy them again from the original model",
                )
            )
        )
    unk = codec.backend.token_id("<unk>")
    ids = codec.backend.encode(PROBES[source])
    if unk is not None and ids and ids.count(unk) > len(ids) // 3:
        problems.append(
            Text(
                QT_TRANSLATE_NOOP(
                    "Errors",
                    "the tokenizer does not know the {language} probe sentence ({unknown} of {count} "
                    "pieces unknown): it belongs to another model or language",
                ),
                {"language": source, "unknown": ids.count(unk), "count": len(ids)},
            )
        )
    decoder_start = model.generation_config.get("decoder_start_token_id", model.config.get("decoder_start_token_id"))
    if isinstance(decoder_start, int) and 0 <= decoder_start < len(codec):
        if codec.piece(decoder_start) not in ("<pad>", "</s>", "<s>"):
            problems.append(
                Text(
                    QT_TRANSLATE_NOOP(
                        "Errors",
                        "decoder_start_token_id {token} is {piece} in the tokenizer, "
                        "not a start token (<pad> for Marian, </s> for M2M100): correct generation_config.json",
                    ),
                    {"token": decoder_start, "piece": repr(codec.piece(decoder_start))},
                )
            )
    return problems
