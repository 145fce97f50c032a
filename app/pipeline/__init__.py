"""The live pipeline: microphone or recording -> recognition -> translation -> speech."""

from app.pipeline.pipeline import Pipeline, PipelineConfig
from app.pipeline.transcript import Transcript, TranscriptEntry

__all__ = ["Pipeline", "PipelineConfig", "Transcript", "TranscriptEntry"]
