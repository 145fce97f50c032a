"""The suite on two pytest-xdist workers (`-n 2`, README's test command): which tests may run
beside which, and in what order they are handed out.

- Every test module that uses the machine's sound system in the test's own process (a private
  PulseAudio server, PortAudio's device list, soundcard's connection) runs in one worker, in
  collection order, as in a run without workers: those libraries keep per-process state
  (PortAudio lists the devices once at start; soundcard connects once, at import) that tests
  restart or change on purpose, and two tests playing audio at speaking speed at once would
  share the CPU both need on time. (The 40 sound failures of the first tries with workers were
  soundcard's, under a worker's `python -c`: app/audio/system.py `_a_program_name_soundcard_can_read`.)
- Every other test module is one unit: a worker runs all of it, so module-scoped fixtures (a
  Whisper model, a talk read once) are built once, not once per worker.
- The longest units are handed out first, so the run does not end with one worker waiting for
  the other's last long module.

xdist's own `--dist loadgroup` cannot be used: with pytest 9 it no longer renames the items it
groups (it sets `item._nodeid`, which pytest 9 does not read), so every group is split. The
controller sees only node ids, so the sound modules are listed by name; a test that uses a sound
fixture in a module not listed stops the collection (`check`), in every run, with or without workers.
"""

from __future__ import annotations

import pytest
from xdist.scheduler import LoadScopeScheduling

SOUND = "sound"
SOUND_MODULES = {
    "tests/asr/test_capture.py",
    "tests/asr/test_cli.py",
    "tests/audio/test_speech_output_faults.py",
    "tests/audio/test_system.py",
    "tests/audio/test_virtual_mic.py",
    "tests/pipeline/test_call.py",
    "tests/pipeline/test_feedback.py",
    "tests/pipeline/test_long_run_faults.py",
    "tests/pipeline/test_piper_voice.py",
    "tests/pipeline/test_system_audio.py",
    "tests/platform_layer/test_call_microphone.py",
    "tests/test_refcounts.py",
    "tests/ui/test_call_output.py",
    "tests/ui/test_newcomer.py",
    "tests/ui/test_sources.py",
}
# Fixtures that give a test a sound server of its own, or take PortAudio's away.
SOUND_FIXTURES = {"virtual_mic", "sound_room", "room", "no_sound_devices"}
# Measured (--durations=0, 2026-11-29): the units of a minute or more, longest first.
LONGEST_FIRST = [
    "tests/test_benches.py",  # the benches' smallest runs: their own processes, two at a time
    SOUND,
    "tests/asr/test_context.py",
    "tests/model_store/test_optimized.py",
    "tests/packaging/test_packaged_build.py",
    "tests/asr/test_recognizer.py",
    "tests/translation/test_reference_parity.py",
    "tests/asr/test_window.py",
    "tests/models/test_models_export.py",
]


def unit(nodeid: str) -> str:
    """The unit a test is handed out in: "sound", or its module."""
    module = nodeid.split("::")[0]
    return SOUND if module in SOUND_MODULES else module


def check(items: list[pytest.Item]) -> None:
    """A test that uses the sound system from a module not in SOUND_MODULES stops the run."""
    for item in items:
        uses_sound = SOUND_FIXTURES & set(getattr(item, "fixturenames", ())) or item.get_closest_marker(SOUND)
        if uses_sound and unit(item.nodeid) != SOUND:
            raise pytest.UsageError(
                f"{item.nodeid} uses the sound system in the test's process: add its module to SOUND_MODULES"
                " in tests/workers.py, so that it runs in the worker of every such test"
            )


def order(items: list[pytest.Item]) -> None:
    """The longest units first; the rest keep their order (every worker sorts alike)."""
    rank = {name: i for i, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(unit(item.nodeid), len(rank)))


class Scheduler(LoadScopeScheduling):
    """xdist's scope scheduling with our units, handed out in the workers' collection order."""

    def __init__(self, config: pytest.Config, log=None):
        super().__init__(config, log)
        config.option.loadscopereorder = False  # xdist would sort by the number of tests instead

    def _split_scope(self, nodeid: str) -> str:
        return unit(nodeid)
