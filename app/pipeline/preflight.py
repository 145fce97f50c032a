"""What a pipeline refuses before any thread starts or cache is allocated: the window's Start and
`run` say what is wrong with its settings at once, not once the models have loaded."""

from __future__ import annotations

from app.audio import FileSource
from app.pipeline.config import PipelineConfig
from app.shared.languages import AUTO_DIRECTION, Language


def check_before_start(config: PipelineConfig, recognizer_given: bool) -> None:
    """A recording that cannot be read, decode settings out of range, an English-only Whisper
    where Chinese is heard (not checked for a recognizer given ready-made: its language was
    checked when it was made). Raises LiveTranslatorError."""
    if config.input_path is not None:  # as `transcribe` checks its file
        FileSource(config.input_path, realtime=False).check()
    if not recognizer_given:
        check_speech_model(config)
    from app.translation.generation_settings import check_setting  # lazy: onnxruntime, kept off the window's start

    for key, value in {"num_beams": config.num_beams, **config.decode_overrides}.items():
        if value is not None:
            check_setting(key, value, "the pipeline's settings")


def check_speech_model(config: PipelineConfig) -> None:
    """An English-only Whisper where Chinese is heard: refused now (the window and `run` alike),
    not by every decode once the model has loaded."""
    if config.auto_direction or config.direction.source == Language.ZH:
        from app.asr.whisper_models import check_hears_chinese  # lazy: app.asr stays off the window's start

        heard = AUTO_DIRECTION if config.auto_direction else config.direction
        check_hears_chinese(config.asr_model, f"direction {heard}")
