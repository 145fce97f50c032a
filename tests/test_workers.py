"""tests/workers.py names test modules by path: a module renamed or moved must be renamed there too
(a stale name would quietly put its tests back among the others)."""

from pathlib import Path

from tests import workers

ROOT = Path(__file__).resolve().parents[1]


def test_every_module_the_workers_name_exists():
    named = workers.SOUND_MODULES | {unit for unit in workers.LONGEST_FIRST if unit != workers.SOUND}
    assert [path for path in sorted(named) if not (ROOT / path).is_file()] == []


def test_a_sound_module_is_handed_out_with_the_other_sound_modules_and_any_other_alone():
    assert workers.unit("tests/audio/test_system.py::test_x[a::b]") == workers.SOUND
    assert workers.unit("tests/asr/test_context.py::Test::test_y") == "tests/asr/test_context.py"
