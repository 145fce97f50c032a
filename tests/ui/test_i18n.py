"""The window in the user's language: the real window and its dialogs, offscreen, under zh_CN,
zh_TW and en, with the committed .qm files and Qt's own translations loaded; the Qt Linguist
sources complete, and the .qm files built from them current."""

import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from PySide6.QtCore import QLocale, Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QDialogButtonBox,
    QFontComboBox,
    QGroupBox,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMenu,
    QPlainTextEdit,
    QPushButton,
    QTableView,
    QWidget,
)

from app.cli import build_parser
from app.ui import model_state
from app.ui.i18n import LANGUAGES, choose_language, install_translators, parse_language, system_language, translate
from app.ui.main_window import MainWindow, ShownWindow
from app.ui.settings import load_settings
from tests.ui.conftest import nmt_model

ROOT = Path(__file__).resolve().parents[2]
I18N = ROOT / "resources" / "i18n"
sys.path.insert(0, str(ROOT / "tools"))
import translations  # noqa: E402  (tools/translations.py: the one refresh command)

# Names that stay as they are in every language, and things that are not words.
NAMES = {
    "Whisper",
    "Marian",
    "M2M100",
    "ONNX",
    "English",
    "Hugging",
    "Face",
    "Hub",
    "OBS",
    "SRT",
    "WebVTT",
    "Ctrl",
    "Return",
    "Shift",
    "logit",
    "EN",
    "ZH",
    "opus",
    "mt",
    "MB",
    "GB",
}
NOT_WORDS = [
    r"[?&]\w+=\S*",  # caption page options: ?show=translation|source|both &lines=N
    r"\*\.\w+",  # file patterns
    r"#[0-9a-fA-F]{6}",  # colours
    r"<[^>]+>",  # rich-text markup
    r"&\w+;",  # HTML entities
    r"\b(int8|fp32|\d+M)\b",  # model precisions and sizes
]
CJK = re.compile(r"[\u3400-\u9fff\u3000-\u303f\uff00-\uffef]")


@pytest.fixture
def language(request):
    install_translators(request.param)
    yield request.param
    install_translators("en")


def make_window(qtbot, store) -> MainWindow:
    store.setValue("tts_enabled", False)
    for direction in ("en-zh", "zh-en"):
        store.setValue("nmt_" + direction.replace("-", "_"), str(nmt_model(direction)))
    window = MainWindow(store)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitUntil(lambda: len(window.models_bar.states) == 2, timeout=60000)
    return window


def texts_of(widget: QWidget) -> list[str]:
    """What a widget shows or says about itself."""
    out = [widget.toolTip(), widget.accessibleName(), widget.whatsThis()]
    if widget.isWindow():
        out.append(widget.windowTitle())
    if isinstance(widget, QLabel):
        out.append(widget.text())
    elif isinstance(widget, QAbstractButton):
        out.append(widget.text())
    elif isinstance(widget, QComboBox) and not isinstance(widget, QFontComboBox):  # a font's name is data
        out.append(widget.currentText())
    elif isinstance(widget, QGroupBox):
        out.append(widget.title())
    elif isinstance(widget, QLineEdit):
        out.append(widget.placeholderText())
    elif isinstance(widget, QPlainTextEdit):
        out.append(widget.placeholderText())
    if isinstance(widget, QAbstractSpinBox):
        out += [
            widget.prefix() if hasattr(widget, "prefix") else "",
            widget.suffix() if hasattr(widget, "suffix") else "",
        ]
    if isinstance(widget, QTableView) and widget.model() is not None:
        model = widget.model()
        out += [str(model.headerData(c, Qt.Orientation.Horizontal) or "") for c in range(model.columnCount())]
    return out


def menu_texts(menu: QMenu) -> list[tuple[object, str]]:
    found = []
    for action in menu.actions():
        found += [(action, action.text()), (action, action.toolTip())]
        if action.menu() is not None:
            found += menu_texts(action.menu())
    return found


def shown(root: QWidget) -> list[tuple[object, str]]:
    """(widget or action, text) for everything visible in `root` and its menus."""
    found = [(root, t) for t in texts_of(root)]
    for widget in root.findChildren(QWidget):
        if widget.isVisibleTo(root) or widget is root:
            found += [(widget, t) for t in texts_of(widget)]
    if hasattr(root, "menuBar"):
        for action in root.menuBar().actions():
            found.append((action, action.text()))
            found += menu_texts(action.menu())
    return [(owner, text) for owner, text in found if text]


def english_words(text: str, data: list[str]) -> list[str]:
    for item in sorted(data, key=len, reverse=True):  # user data: model folders, the Whisper model's name
        if item:
            text = text.replace(item, "")
    for pattern in NOT_WORDS:
        text = re.sub(pattern, "", text)
    text = re.sub(r"Ctrl\+\S+|F\d+|[A-Z]{2}→[A-Z]{2}", "", text)  # shortcuts, EN→ZH labels
    return [w for w in re.findall(r"[A-Za-z]{2,}", text) if w not in NAMES]


def window_data(window: MainWindow) -> list[str]:
    data = [window.settings.asr_model]
    for state in window.models_bar.states.values():
        data += [state.name, state.path or ""]
    return data


def open_everything(window: MainWindow, qtbot):
    """The window with every part shown that can be, and each dialog; returns the roots to walk."""
    from app.ui.glossary_editor import GlossaryEditor
    from app.ui.model_dialog import ModelDialog

    window.controls.set_conversation(True, "them")  # the second meter and the spoken side
    window.transcript_actions.export("txt")  # no transcript yet: the info banner
    window.diagnostics.add_sentence(1, False, {"stop_reason": "loop", "tokens": 3, "translation": "x"})
    window.diagnostics.flush()
    missing = model_state.check_nmt("en-zh", None)
    dialog = ModelDialog("en-zh", missing, "", window)
    dialog.show()
    glossary = GlossaryEditor(parent=window)
    glossary.show()
    window.view_options.open_overlay_settings()
    window.view_options.set_overlay_visible(True)
    window.captions.show()
    roots = [window, dialog, glossary, window.view_options.overlay_dialog, window.view_options.overlay, window.captions]
    for root in roots:
        qtbot.waitExposed(root)
    return roots, missing


@pytest.mark.parametrize("language", ["zh_CN", "zh_TW"], indirect=True)
def test_the_window_and_its_dialogs_speak_chinese(qtbot, store, language):
    window = make_window(qtbot, store)
    roots, missing = open_everything(window, qtbot)
    assert CJK.search(missing.headline) and CJK.search(missing.hint)  # the window's own error messages
    data = window_data(window)
    left = []
    for root in roots:
        for owner, text in shown(root):
            words = english_words(text, data)
            if words:
                left.append((type(owner).__name__, text, words))
    assert left == []
    # Qt's own translations are loaded too: the standard Close button of the overlay settings
    (box,) = window.view_options.overlay_dialog.findChildren(QDialogButtonBox)
    close = box.buttons()
    assert close and all(CJK.search(b.text()) for b in close)
    # the two scripts are written each its own way, not converted
    expected = {"zh_CN": ("文件(&F)", "视图(&V)"), "zh_TW": ("檔案(&F)", "檢視(&V)")}[language]
    assert [a.text() for a in window.menuBar().actions()][0] == expected[0]
    assert expected[1] in [a.text() for a in window.menuBar().actions()]
    for root in roots[1:4]:
        root.close()


@pytest.mark.parametrize("language", ["en"], indirect=True)
def test_the_english_window_has_no_chinese(qtbot, store, language):
    window = make_window(qtbot, store)
    roots, _ = open_everything(window, qtbot)
    # Language and script names are written in themselves in every interface language.
    exempt = {
        window.controls.direction,
        *window.menus.language_actions.values(),
        *window.view_options.script_actions.values(),
    }
    left = []
    for root in roots:
        for owner, text in shown(root):
            if owner in exempt:
                continue
            rest = text.replace("中文", "")  # a language's own name, in the panel titles
            if CJK.search(rest):
                left.append((type(owner).__name__, text))
    assert left == []
    assert window.menuBar().actions()[0].text() == "&File"
    for root in roots[1:4]:
        root.close()


# --- the translation files ------------------------------------------------------------------


def messages(language: str):
    root = ET.parse(I18N / f"live_translator_{language}.ts").getroot()
    for context in root.iter("context"):
        for message in context.iter("message"):
            yield context.find("name").text, message.find("source").text, message.find("translation")


@pytest.mark.parametrize("lang", ["zh_CN", "zh_TW"])
def test_every_message_is_translated_with_its_placeholders(lang):
    found = list(messages(lang))
    assert len(found) > 200
    problems = []
    for context, source, translation in found:
        text = translation.text or ""
        if translation.get("type") in ("unfinished", "obsolete", "vanished") or not text.strip():
            problems.append((context, source, "not translated"))
        elif sorted(re.findall(r"\{\w+\}", source)) != sorted(re.findall(r"\{\w+\}", text)):
            problems.append((context, source, "placeholders differ"))
        elif re.search(r"&\w", source) and not re.search(r"&\w", text) and "(" not in source:
            problems.append((context, source, "menu accelerator lost"))
        elif not CJK.search(text) and source not in ("Whisper",):
            problems.append((context, source, "no Chinese"))
    assert problems == []


def test_the_two_scripts_are_written_each_their_own_way():
    cn = {(c, s): t.text for c, s, t in messages("zh_CN")}
    tw = {(c, s): t.text for c, s, t in messages("zh_TW")}
    assert cn.keys() == tw.keys()
    pairs = [
        ("文件", "檔案"),
        ("设置", "設定"),
        ("默认", "預設"),
        ("麦克风", "麥克風"),
        ("保存", "儲存"),
        ("加载", "載入"),
        ("窗口", "視窗"),
        ("菜单", "選單"),
        ("字体", "字型"),
        ("文件夹", "資料夾"),
        ("音频", "音訊"),
    ]
    for simplified, traditional in pairs:
        cn_hits = [k for k, text in cn.items() if simplified in text]
        assert cn_hits, simplified
        for key in cn_hits:
            assert simplified not in tw[key] and (traditional in tw[key] or simplified == "文件"), (key, tw[key])
    assert all(text != cn[key] for key, text in tw.items() if len(cn[key]) > 8 and re.search("[这们说时]", cn[key]))


def test_the_ts_files_hold_every_string_of_the_window(tmp_path):
    """lupdate over app/ui into a copy finds nothing new and nothing gone."""
    for lang in translations.LANGUAGES:
        copy = tmp_path / f"live_translator_{lang}.ts"
        shutil.copy(I18N / copy.name, copy)
        translations.update(copy)
        assert copy.read_text(encoding="utf-8") == (I18N / copy.name).read_text(encoding="utf-8"), (
            f"{copy.name} is out of date: run .venv/bin/python tools/translations.py"
        )


def test_the_qm_files_are_current(tmp_path):
    for lang in translations.LANGUAGES:
        translations.release(I18N / f"live_translator_{lang}.ts", tmp_path / f"{lang}.qm")
        assert (tmp_path / f"{lang}.qm").read_bytes() == (I18N / f"live_translator_{lang}.qm").read_bytes(), (
            f"live_translator_{lang}.qm is stale: run .venv/bin/python tools/translations.py"
        )


# --- choosing the language ------------------------------------------------------------------


def test_the_language_follows_the_system_unless_chosen(store):
    assert system_language(QLocale("zh_CN")) == "zh_CN"
    assert system_language(QLocale("zh_TW")) == system_language(QLocale("zh_HK")) == "zh_TW"
    assert system_language(QLocale("de_DE")) == system_language(QLocale("en_US")) == "en"
    assert choose_language(None, "", QLocale("zh_TW")) == "zh_TW"
    assert choose_language(None, "zh_CN", QLocale("en_US")) == "zh_CN"  # the setting
    assert choose_language("en", "zh_CN", QLocale("zh_CN")) == "en"  # --lang
    assert parse_language("zh-Hant-TW") == "zh_TW" and parse_language("klingon") == ""
    store.setValue("language", "klingon")  # a hand-edited setting: follow the system
    assert load_settings(store).language == ""
    store.setValue("language", "zh_TW")
    assert load_settings(store).language == "zh_TW"
    assert build_parser(["--lang", "zh_TW"]).parse_args(["--lang", "zh_TW"]).lang == "zh_TW"
    for code in LANGUAGES:
        assert build_parser(["--lang", code]).parse_args(["--lang", code]).lang == code
    with pytest.raises(SystemExit):
        build_parser(["--lang", "fr"]).parse_args(["--lang", "fr"])


def test_the_language_menu_applies_at_once(qtbot, store):
    """With no session running the window is built again in the chosen language, where it was."""
    window = make_window(qtbot, store)
    window.resize(760, 540)  # inside the offscreen screen (800x600): restoreGeometry keeps windows on screen
    size = window.size()
    replaced = []
    window.replaced.connect(replaced.append)
    shown = ShownWindow(window)  # what run_app holds: the replacement, once built
    window.menus.language_actions["zh_TW"].trigger()
    assert load_settings(store).language == "zh_TW"
    (rebuilt,) = [w for w in QApplication.topLevelWidgets() if isinstance(w, MainWindow) and w.isVisible()]
    qtbot.addWidget(rebuilt)
    try:
        assert replaced == [rebuilt] and shown.window is rebuilt and not window.isVisible()
        assert (
            rebuilt.menuBar().actions()[0].text() == "檔案(&F)" and rebuilt.menus.language_actions["zh_TW"].isChecked()
        )
        assert rebuilt.size().height() == size.height()  # where it stood (the width: at least its minimum in Chinese)
        # While a caption page is served the window stays, and says when the change applies.
        rebuilt.captions.port.setValue(free_port())
        rebuilt.captions.set_serving(True)
        assert rebuilt.set_language("en") is rebuilt and rebuilt.alert.isVisible()
        assert load_settings(store).language == "en"
        assert rebuilt.menuBar().actions()[0].text() == "檔案(&F)"
        rebuilt.captions.set_serving(False)
    finally:
        install_translators("en")
        rebuilt.close()


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_the_command_line_opens_the_window_in_the_language_asked(tmp_path):
    """python -m app --lang zh_TW: the window's title in Traditional Chinese (printed by a probe)."""
    probe = (
        "import sys\n"
        "import app.ui.main_window as mw\n"
        "close = mw.MainWindow.closeEvent\n"
        "def report(self, event):\n"
        "    print(self.windowTitle(), self.menuBar().actions()[0].text(), flush=True)\n"
        "    close(self, event)\n"
        "mw.MainWindow.closeEvent = report\n"
        "from app.cli import main; sys.exit(main(['--lang', 'zh_TW']))\n"
    )
    env = {
        "QT_QPA_PLATFORM": "offscreen",
        "HOME": str(tmp_path),
        "LIVE_TRANSLATOR_HOME": str(tmp_path / "home"),
        "PATH": "/usr/bin:/bin",
        "LANG": "C.UTF-8",
        "LIVE_TRANSLATOR_QUIT_AFTER_MS": "2500",
    }
    proc = subprocess.run(
        [sys.executable, "-c", probe], env=env, capture_output=True, text=True, timeout=120, cwd=ROOT, check=False
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["即時翻譯", "檔案(&F)"]


# --- layouts hold ---------------------------------------------------------------------------


def clipped(root: QWidget) -> list[tuple[str, str, int, int]]:
    found = []
    for widget in root.findChildren(QWidget):
        if not widget.isVisible() or not isinstance(widget, (QLabel, QPushButton)):
            continue
        if isinstance(widget, QLabel) and (
            widget.wordWrap() or widget.sizePolicy().horizontalPolicy().name == "Ignored"
        ):
            continue  # wraps or is sized by its window (the overlay): never cut sideways
        text = widget.text()
        if text and widget.sizeHint().width() > widget.width():
            found.append((type(widget).__name__, text, widget.sizeHint().width(), widget.width()))
    for view in root.findChildren(QTableView):  # column headers: each name fits its column
        header = view.horizontalHeader()
        for column in range(header.count()):
            if (
                view.isVisible()
                and header.sectionResizeMode(column) != QHeaderView.ResizeMode.Stretch
                and header.sectionSize(column) < header.sectionSizeHint(column)
            ):
                name = view.model().headerData(column, Qt.Orientation.Horizontal)
                found.append(("header", name, header.sectionSizeHint(column), header.sectionSize(column)))
    return found


@pytest.mark.parametrize("language", ["zh_CN", "en"], indirect=True)
@pytest.mark.parametrize("scale", [1.0, 1.5])
def test_no_label_is_clipped(qtbot, store, language, scale):
    app = QApplication.instance()
    before = QFont(app.font())
    font = QFont(before)
    font.setPointSizeF(before.pointSizeF() * scale)
    app.setFont(font)
    try:
        window = make_window(qtbot, store)
        window.resize(1280, 860)
        from app.ui.glossary_editor import GlossaryEditor
        from app.ui.model_dialog import ModelDialog

        dialog = ModelDialog("en-zh", model_state.check_nmt("en-zh", None), "", window)
        glossary = GlossaryEditor(parent=window)
        window.view_options.open_overlay_settings()
        roots = [window, dialog, glossary, window.view_options.overlay_dialog, window.captions]
        for root in roots:
            root.show()
            qtbot.waitExposed(root)
        qtbot.wait(50)
        problems = [(type(root).__name__, *c) for root in roots for c in clipped(root)]
        assert problems == []
        assert translate("MainWindow", "&File") == ("&File" if language == "en" else "文件(&F)")
        for root in roots[1:]:
            root.close()
    finally:
        app.setFont(before)
