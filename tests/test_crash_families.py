"""Rules that keep whole families of crashes out of the app by construction (issue 31), checked
over its source: a long session must not depend on luck.

- No explicit garbage collection: `gc.collect()` on some thread finalizes every reference cycle
  in the process there, PySide wrappers of the GUI thread's objects included.
- A pyttsx3 engine is made only by the speech thread (app/speech_engines.py), or in the child process that
  lists the voices (app/voice_list.py): a second engine in the process resets espeak's
  process-wide callback under the speech thread's feet.
"""

from __future__ import annotations

import ast
from pathlib import Path

APP = Path(__file__).resolve().parents[1] / "app"


def calls(name: str) -> list[str]:
    """Where `a.b(...)` is called in app/, as "path:line"."""
    owner, attribute = name.split(".")
    found = []
    for path in sorted(APP.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == attribute
                and isinstance(node.func.value, ast.Name)
                and node.func.value.id == owner
            ):
                found.append(f"{path.relative_to(APP.parent)}:{node.lineno}")
    return found


def test_the_app_never_collects_garbage_by_hand():
    assert calls("gc.collect") == []


def test_only_the_speech_thread_and_the_voice_lister_make_a_speech_engine():
    places = {place.split(":")[0] for place in calls("pyttsx3.init")}
    assert places == {"app/speech_engines.py", "app/voice_list.py"}, places
