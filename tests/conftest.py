"""Every test runs with the app's folders (settings, transcripts, cache, downloaded models)
under one temporary home, so the suite never reads or writes the user's own."""

import os
import shutil
import sys
import tempfile

import pytest

from tests.app_run import AppRun

pytest_plugins = ["cpu_isa"]  # --cpu-isa PROFILE: Whisper as on another x86-64 CPU (tests/cpu_isa.py)

# Set at import, before any test module imports the app: subprocesses inherit it too. A home
# given by the person running the tests is kept; one a pytest process made is not shared: each
# xdist worker (which inherits the controller's environment) makes its own.
_MADE_HOME = "LT_TESTS_MADE_HOME"
_GIVEN_HOME = os.environ.get("LIVE_TRANSLATOR_HOME")
_OWN_HOME = None
if not _GIVEN_HOME or _GIVEN_HOME == os.environ.get(_MADE_HOME):
    _OWN_HOME = tempfile.mkdtemp(prefix="live-translator-tests-")
    os.environ["LIVE_TRANSLATOR_HOME"] = os.environ[_MADE_HOME] = _OWN_HOME

# The app's commands set USE_TORCH=0 (app/cli.py) so transformers leaves torch alone. Tests
# that call app.cli.main in this process must not pass that on: transformers decides once, at
# its first import, and the export tooling's tests (and their child processes) need torch.
_TORCH_SWITCHES = ("USE_TORCH", "TRANSFORMERS_NO_ADVISORY_WARNINGS")
import transformers.utils.import_utils  # noqa: E402, F401  (decided here, with torch when installed)


@pytest.fixture(autouse=True)
def _keep_the_torch_switches():
    before = {name: os.environ.get(name) for name in _TORCH_SWITCHES}
    yield
    for name, value in before.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value


@pytest.fixture(autouse=True)
def _a_tests_widgets_are_deleted_in_its_teardown():
    """pytest-qt closes a test's widgets with deleteLater, which Qt carries out in the next event
    loop: the next test's first wait, while that test's own workers load models. Two fresh-clone
    CI runs crashed there (in the main thread's event loop, after the call-output test's window).
    Here the deletion happens in the test that made them, after pytest-qt closed them."""
    yield
    if "PySide6.QtCore" in sys.modules:
        from PySide6.QtCore import QCoreApplication, QEvent

        if QCoreApplication.instance() is not None:
            QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)


@pytest.fixture
def app_run():
    """app_run(*args, env=None) -> an AppRun: `python -m app run *args --json` in the background
    (tests/app_run.py); whatever is still running at teardown is killed."""
    runs: list[AppRun] = []

    def start(*args: str, env: dict[str, str] | None = None) -> AppRun:
        runs.append(AppRun(*args, env=env))
        return runs[-1]

    yield start
    for run in runs:
        run.kill()


@pytest.fixture(scope="session")
def browser():
    """Debian's Chromium driven by Playwright (nothing is downloaded), one for the whole run: the
    caption page's tests and the window's (a second Playwright in one process is refused)."""
    from playwright.sync_api import sync_playwright

    chromium = os.environ.get("LT_TEST_CHROMIUM", "/usr/bin/chromium")
    assert os.path.isfile(chromium), f"Debian's Chromium is missing at {chromium}: ./setup.sh test installs it"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        yield browser
        browser.close()


def pytest_collection_modifyitems(config, items):
    from tests import workers  # which tests share a worker, and their order (tests/workers.py)

    workers.check(items)
    if os.environ.get("PYTEST_XDIST_WORKER"):
        workers.order(items)


@pytest.hookimpl(optionalhook=True)  # a hook of pytest-xdist (a dev extra), unknown without it
def pytest_xdist_make_scheduler(config, log):
    from tests import workers

    return workers.Scheduler(config, log)


def pytest_collection_finish(session):
    from tests import head_start  # the packaged build and the refcount probes, started now (tests/head_start.py)

    head_start.start(session)


def pytest_unconfigure(config):
    if _OWN_HOME:
        shutil.rmtree(_OWN_HOME, ignore_errors=True)
