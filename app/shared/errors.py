"""The one exception type the app shows to people.

Every failure a user can cause or fix (a broken model folder, no microphone, ...) is raised
as a LiveTranslatorError whose message says what is wrong and whose hint says what to do.
The command line prints both and exits non-zero; the window shows both and keeps running.
"""


class LiveTranslatorError(Exception):
    def __init__(self, message: str, hint: str = ""):
        super().__init__(message)
        self.message = message
        self.hint = hint

    def __str__(self) -> str:
        return f"{self.message}\n  → {self.hint}" if self.hint else self.message
