"""Live captions in a browser: a small web server observing the pipeline (issue 16)."""

from app.captions.server import CaptionServer

__all__ = ["CaptionServer"]
