"""Every test runs with the app's folders (settings, transcripts, cache, downloaded models)
under one temporary home, so the suite never reads or writes the user's own."""

import os
import shutil
import tempfile

# Set at import, before any test module imports the app: subprocesses inherit it too.
_OWN_HOME = None if os.environ.get("LIVE_TRANSLATOR_HOME") else tempfile.mkdtemp(prefix="live-translator-tests-")
if _OWN_HOME:
    os.environ["LIVE_TRANSLATOR_HOME"] = _OWN_HOME


def pytest_unconfigure(config):
    if _OWN_HOME:
        shutil.rmtree(_OWN_HOME, ignore_errors=True)
