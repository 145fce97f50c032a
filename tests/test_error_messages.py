"""Every sentence the core shows people is marked for translation, so the window can say it in
Chinese: a LiveTranslatorError's message and hint, a Text (Error events, the optimiser's
progress), read from the source (app/, except app/ui, which calls Qt's translate itself)."""

import ast
import re
from pathlib import Path

import pytest

from app.shared.errors import QT_TRANSLATE_NOOP, LiveTranslatorError, Text

ROOT = Path(__file__).resolve().parents[1]
CORE = sorted(p for p in (ROOT / "app").rglob("*.py") if "ui" not in p.relative_to(ROOT / "app").parts[:1])


def wordless(node: ast.AST) -> bool:
    """A literal that is only placeholders and punctuation ("{folder}/{reason}"): nothing to translate."""
    return (
        isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and not re.search(r"[A-Za-z]", re.sub(r"\{\w+\}", "", node.value))
    )


def is_mark(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "QT_TRANSLATE_NOOP"
        and len(node.args) == 2
        and all(isinstance(a, ast.Constant) and isinstance(a.value, str) for a in node.args)
        and node.args[0].value == "Errors"
    )


class Module:
    def __init__(self, path: Path):
        self.path = path
        self.tree = ast.parse(path.read_text(encoding="utf-8"))
        self.assigned: dict[str, list[ast.AST]] = {}
        self.functions: dict[str, ast.FunctionDef] = {}
        for node in ast.walk(self.tree):
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    names = (
                        target.elts if isinstance(target, ast.Tuple) else [target]
                    )  # message, hint = texts_of(error)
                    for name in names:
                        if isinstance(name, ast.Name):
                            self.assigned.setdefault(name.id, []).append(node.value)
            elif isinstance(node, ast.FunctionDef):
                self.functions[node.name] = node

    def marked(self, node: ast.AST, seen=()) -> bool:
        """`node` (a message or hint) is a marked template, or made only of marked ones."""
        if is_mark(node) or wordless(node):
            return True
        if isinstance(node, ast.Constant) and node.value == "":
            return True  # no hint
        if isinstance(node, ast.IfExp):
            return self.marked(node.body, seen) and self.marked(node.orelse, seen)
        if isinstance(node, ast.BoolOp):
            return all(self.marked(v, seen) for v in node.values)
        if isinstance(node, ast.Attribute) and node.attr in ("text", "hint_text"):
            return True  # another error's Texts, passed on
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            if node.func.id == "Text":
                return bool(node.args) and self.marked(node.args[0], seen)
            if node.func.id in ("texts_of",):
                return True
            if node.func.id in self.functions and node.func.id not in seen:  # a helper: all it returns
                returns = [
                    n.value for n in ast.walk(self.functions[node.func.id]) if isinstance(n, ast.Return) and n.value
                ]
                return bool(returns) and all(self.marked(r, (*seen, node.func.id)) for r in returns)
        if isinstance(node, ast.Subscript):  # texts_of(error)[0], WORDS[language]
            return self.marked(node.value, seen)
        if isinstance(node, ast.Dict):  # a table of marked words
            return bool(node.values) and all(self.marked(v, seen) for v in node.values)
        if isinstance(node, ast.Name) and node.id not in seen:
            values = self.assigned.get(node.id, []) + self.arguments(node.id)
            return bool(values) and all(self.marked(v, (*seen, node.id)) for v in values)
        return False

    def arguments(self, parameter: str) -> list[ast.AST]:
        """What the module's calls pass for a parameter of its functions (`prefix=...` of self._error)."""
        found = []
        for function in self.functions.values():
            names = [a.arg for a in function.args.args + function.args.kwonlyargs]
            if parameter not in names:
                continue
            found.extend(
                d for a, d in zip(function.args.args[::-1], function.args.defaults[::-1]) if a.arg == parameter
            )
            for call in ast.walk(self.tree):
                if (
                    isinstance(call, ast.Call)
                    and getattr(call.func, "attr", getattr(call.func, "id", None)) == function.name
                ):
                    found.extend(k.value for k in call.keywords if k.arg == parameter)
        return found

    def unmarked(self) -> list[str]:
        found = []
        for node in ast.walk(self.tree):
            if not isinstance(node, ast.Call) or not isinstance(node.func, (ast.Name, ast.Attribute)):
                continue
            name = node.func.id if isinstance(node.func, ast.Name) else node.func.attr
            if name == "LiveTranslatorError":
                parts = node.args[:2] + [k.value for k in node.keywords if k.arg in ("message", "hint")]
            elif name == "Text":
                parts = node.args[:1]
            elif (
                name == "of" and isinstance(node.func, ast.Attribute) and getattr(node.func.value, "id", "") == "Error"
            ):
                parts = node.args[1:3]
            elif name == "Error" and any(k.arg in ("text", "hint") for k in node.keywords):
                parts = [k.value for k in node.keywords if k.arg in ("text", "hint")]  # must be Error.of(...)
                found.extend(
                    f"{self.path.relative_to(ROOT)}:{node.lineno}: Error(text=...): use Error.of(stage, Text(...))"
                    for _ in parts[:1]
                )
                continue
            else:
                continue
            found.extend(
                f"{self.path.relative_to(ROOT)}:{p.lineno}: {ast.unparse(p)[:90]}" for p in parts if not self.marked(p)
            )
        return found


def test_every_core_message_is_marked_for_translation():
    mechanism = {
        ROOT / "app" / "shared" / "errors.py",
        ROOT / "app" / "shared" / "events.py",
    }  # Text and Error.of themselves
    unmarked = [line for path in CORE if path not in mechanism for line in Module(path).unmarked()]
    assert unmarked == [], (
        'wrap these in QT_TRANSLATE_NOOP("Errors", ...) with keyword values, no f-strings:\n' + "\n".join(unmarked)
    )


def test_the_scan_sees_an_f_string_and_accepts_marks(tmp_path):
    source = tmp_path / "m.py"
    source.write_text(
        'HINT = QT_TRANSLATE_NOOP("Errors", "Check the path.")\n'
        "def f(path):\n"
        '    raise LiveTranslatorError(QT_TRANSLATE_NOOP("Errors", "No {path}."), HINT, path=path)\n'
        "def g(path):\n"
        '    raise LiveTranslatorError(f"No {path}.", "Check the path.")\n',
        encoding="utf-8",
    )
    module = Module(source)
    module.path = ROOT / "m.py"
    assert [line.split(": ", 1)[1] for line in module.unmarked()] == ["f'No {path}.'", "'Check the path.'"]


def test_an_error_keeps_its_english_and_its_template():
    error = LiveTranslatorError(
        QT_TRANSLATE_NOOP("Errors", "Audio file {path} does not exist."),
        QT_TRANSLATE_NOOP("Errors", "Check the path."),
        path="/x.wav",
    )
    assert (error.message, error.hint, str(error)) == (
        "Audio file /x.wav does not exist.",
        "Check the path.",
        "Audio file /x.wav does not exist.\n  → Check the path.",
    )
    assert (error.template, error.hint_template, dict(error.values)) == (
        "Audio file {path} does not exist.",
        "Check the path.",
        {"path": "/x.wav"},
    )
    plain = LiveTranslatorError("A literal {brace} stays.", "as it is")  # no values: never formatted
    assert (plain.message, plain.template) == ("A literal {brace} stays.", "A literal {brace} stays.")
    nested = Text(QT_TRANSLATE_NOOP("Errors", "Translation failed: {reason}"), {"reason": error.text})
    assert str(nested) == "Translation failed: Audio file /x.wav does not exist."


@pytest.mark.parametrize("path", [p for p in CORE if p.name == "cli.py"], ids=lambda p: str(p.relative_to(ROOT)))
def test_command_lines_mark_their_errors_too(path):
    """The command lines' errors are marked as well (the window may raise the same), though
    the command line itself prints them in English."""
    assert Module(path).unmarked() == []


def test_the_command_line_prints_the_english_sentences_under_a_chinese_locale(tmp_path):
    """Marking changes nothing on the command line: the same English message and hint, word for
    word, even when the system speaks Chinese (only the window is translated)."""
    import os
    import subprocess
    import sys

    env = {**os.environ, "LANG": "zh_CN.UTF-8", "LC_ALL": "zh_CN.UTF-8", "LANGUAGE": "zh_CN"}
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "app",
            "translate",
            "--model",
            str(tmp_path / "nowhere"),
            "--direction",
            "en-zh",
            "Good morning.",
        ],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=120,
    )
    assert done.returncode == 2, done.stderr
    assert f"Model folder {tmp_path / 'nowhere'} does not exist." in done.stderr
    assert "→ Pass the folder that holds config.json and the .onnx files." in done.stderr
    assert not re.search(r"[\u3400-\u9fff]", done.stderr), done.stderr
