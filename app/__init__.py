"""Live Translator: live speech translation between English and Chinese."""

__version__ = "0.1.0"
