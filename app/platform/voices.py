"""The system's own voices per OS: SAPI5 (Windows) and NSSpeechSynthesizer (macOS) reach natural
voices, Chinese included; on Linux pyttsx3 speaks through espeak-ng, intelligible but robotic, so
a natural (piper) voice, where installed, is the better default (app/speech_engines.py)."""

from __future__ import annotations

from app.platform import System, current


def system_voices_are_robotic() -> bool:
    return current() is System.LINUX
