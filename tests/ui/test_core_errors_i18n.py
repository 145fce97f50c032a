"""The core's errors in the window's language: real failures of real parts (a recording that
is not there, a translation-model folder without config.json) shown by the real window,
offscreen, under zh_CN and zh_TW with the committed .qm files; under English, the very
sentences the command line prints."""

import re
import threading

import pytest

from app.audio import FileSource
from app.audio.loop import capture
from app.shared import events as ev
from app.shared.errors import LiveTranslatorError
from app.ui.i18n import error_texts, install_translators
from tests.ui.conftest import nmt_model, speak

CJK = re.compile(r"[\u3400-\u9fff]")
SENTENCE = re.compile(r"[A-Za-z]{2,} [A-Za-z]{2,} [A-Za-z]{2,}")  # three English words in a row


@pytest.fixture
def language(request):
    install_translators(request.param)
    yield request.param
    install_translators("en")


def plain(text: str) -> str:
    return re.sub(r"<[^>]+>", " ", text)


@pytest.mark.parametrize("language", ["zh_CN", "zh_TW"], indirect=True)
def test_a_core_error_is_shown_in_chinese(qtbot, store, tmp_path, language):
    from tests.ui.test_window import make_window

    missing = tmp_path / "nowhere.wav"
    with pytest.raises(LiveTranslatorError) as raised:  # the core raises it in English, as ever
        FileSource(missing).start()
    assert raised.value.message == f"Audio file {missing} does not exist."
    window = make_window(qtbot, store, nmt_en_zh=str(nmt_model("en-zh")), nmt_zh_en=str(nmt_model("zh-en")))
    window.alert.show_error(raised.value)
    shown = plain(window.alert.label.text())
    words = {"zh_CN": ("音频文件", "不存在", "请检查路径"), "zh_TW": ("音訊檔案", "不存在", "請檢查路徑")}[language]
    assert all(w in shown for w in words), shown
    assert str(missing) in shown and not SENTENCE.search(shown.replace(str(missing), "")), shown

    # An Error event the capture loop makes of it carries the same templates.
    (event,) = [e for e in capture(FileSource(missing), threading.Event()) if isinstance(e, ev.Error)]
    assert event.to_json()["text"] == raised.value.message and "message_text" not in event.to_json()
    message, hint = error_texts(event)
    assert words[0] in message and words[2] in hint

    # A glossary's problems (a line without a TAB, a conflict) in the glossary editor.
    from app.ui.glossary_editor import GlossaryEditor

    tsv = tmp_path / "terms.tsv"
    tsv.write_text("apple\t苹果\nno tab here\napple\t平果\n", encoding="utf-8")
    editor = GlossaryEditor(parent=window)
    assert editor.import_file(tsv) == 2
    problems = editor.problems.text().replace(str(tsv), "")
    expected = {"zh_CN": ("应为", "冲突：英文"), "zh_TW": ("應為", "衝突：英文")}[language]
    assert all(w in problems for w in expected) and not SENTENCE.search(problems), problems
    editor.close()


@pytest.mark.parametrize("language", ["zh_CN"], indirect=True)
def test_pipeline_errors_reach_the_window_in_chinese(qtbot, store, tmp_path, language):
    """A model folder without config.json: the pipeline's Error events (the model cannot be
    loaded; each utterance not translated) in the banner and the transcript row, in Chinese,
    the core's reason inside the window's sentence translated too."""
    from tests.ui.test_window import Watcher, finish, make_window, row_of

    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "encoder_model.onnx").write_bytes(b"not a model")
    window = make_window(qtbot, store, direction="en-zh", nmt_en_zh=str(broken), nmt_zh_en=str(nmt_model("zh-en")))
    watch = Watcher(window)
    window.session_control.realtime = False
    window.session_control.play_recording(str(speak(tmp_path / "en.wav", "Thank you very much.", "en")))
    finish(qtbot, window)
    errors = watch.of(ev.Error)
    assert any(
        e.text == f"The en-zh translation model could not be loaded: {broken} has no config.json." for e in errors
    ), errors
    banner = plain(window.alert.label.text())
    assert CJK.search(banner) and not SENTENCE.search(banner.replace(str(broken), "")), banner
    finals = watch.of(ev.SourceFinal)
    assert finals, "the speech is still recognised"
    target = plain(row_of(window, finals[-1].utterance_id).target.text())
    assert "未翻译" in target and "中没有 config.json" in target, target
    assert not SENTENCE.search(target.replace(str(broken), "")), target


@pytest.mark.parametrize("language", ["en"], indirect=True)
def test_the_english_window_shows_the_core_s_own_sentences(qtbot, store, tmp_path, language):
    missing = tmp_path / "nowhere.wav"
    with pytest.raises(LiveTranslatorError) as raised:
        FileSource(missing).start()
    assert (
        error_texts(raised.value)
        == (raised.value.message, raised.value.hint)
        == (f"Audio file {missing} does not exist.", "Check the path.")
    )
