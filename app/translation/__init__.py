"""The ONNX seq2seq translation engine (Qt-free): incremental cached decoder, generate-exact
greedy/beam search, loop guard, per-step diagnostics, verify mode, model-folder inspection."""

from app.translation.inspection import ModelFolderReport, inspect_model_folder
from app.translation.options import DecodeOptions
from app.translation.results import GlossaryUse, SentenceResult, TranslationResult
from app.translation.translator import Translator

__all__ = [
    "Translator",
    "DecodeOptions",
    "GlossaryUse",
    "SentenceResult",
    "TranslationResult",
    "ModelFolderReport",
    "inspect_model_folder",
]
