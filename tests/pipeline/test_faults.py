"""Faults become Error events and the pipeline goes on with the next utterance."""

from __future__ import annotations

import re
import shutil

import pytest

from app.audio import FileSource, SourceKind
from app.pipeline.pipeline import PipelineTranslator
from app.shared.chinese import ChineseScript
from app.shared.errors import LiveTranslatorError
from app.shared.events import Status
from app.translation import Translator
from app.tts import SpeechOutput

from .conftest import english, expected

pytestmark = pytest.mark.slow
PHRASES = ["Good morning.", "Where is the station?", "I love you.", "See you tomorrow."]


def norm(text: str) -> str:
    return re.sub(r"[\W_]+", "", text.lower())


class FailingRecognizer:
    """The real recognizer, raising once from feed() at a chosen block (a stage that crashes)."""

    def __init__(self, real, fail_at_block: int):
        self.real, self.fail_at, self.calls = real, fail_at_block, 0

    def feed(self, block, captured_at=None):
        self.calls += 1
        if self.calls == self.fail_at:
            raise RuntimeError("injected recognizer crash")
        return self.real.feed(block, captured_at=captured_at)

    def __getattr__(self, name):
        return getattr(self.real, name)


class FailingTranslator:
    """The real translator, raising part-way through the decode of one phrase (a model that
    fails mid-sentence): after two decoder steps have been reported."""

    def __init__(self, real: Translator, phrase: str):
        self.real, self.phrase = real, norm(phrase)
        self.joiner, self.codec = real.joiner, real.codec

    @property
    def chinese(self) -> ChineseScript:
        return self.real.chinese

    @chinese.setter
    def chinese(self, script: ChineseScript) -> None:
        self.real.chinese = script

    def stream(self, text, options=None, cancel=None, forced=(), on_step=None):
        def step(item):
            if item.step == 2 and norm(text) == self.phrase:
                raise RuntimeError("injected ONNX failure")
            if on_step is not None:
                on_step(item)

        yield from self.real.stream(text, options=options, cancel=cancel, forced=forced, on_step=step)


class VanishingMicrophone(FileSource):
    """Speech that stops like an unplugged microphone at `vanish_at_s`: read() raises, and a
    later start() carries on where it was (as a replugged microphone would)."""

    def __init__(self, path, vanish_at_s: float):
        super().__init__(path, realtime=False)
        self.kind = SourceKind.MICROPHONE  # it stands in for one: the capture loop retries it
        self.vanish_at = int(vanish_at_s * 16000)
        self.vanished = self.resumed = False

    def start(self):
        if not self._started:  # the first start opens the recording; a restart carries on
            super().start()
        elif self.vanished:
            self.resumed = True

    def read(self, timeout=0.1):
        if not self.vanished and self._pos >= self.vanish_at:
            self.vanished = True
            raise LiveTranslatorError("The microphone is gone.", "Plug it back in.")
        return super().read(timeout)


def test_recognizer_crash_translator_failure_and_no_speech_engine(recording, run_pipeline, recognizer, phrasebook):
    wav = recording("faults", english(PHRASES))
    real = Translator.load(phrasebook["en-zh"], direction="en-zh")
    translator = FailingTranslator(real, "I love you.")
    assert isinstance(real, PipelineTranslator) and isinstance(translator, PipelineTranslator)
    run = run_pipeline(
        wav,
        "en-zh",
        tts_enabled=True,
        parts={
            "recognizer": FailingRecognizer(recognizer, fail_at_block=30),  # 3.0 s: inside the 2nd phrase
            "translators": {"en-zh": translator},
            "speech_output": SpeechOutput(driver="no_such_speech_driver"),
        },
    )
    assert run.errors("asr") and "injected recognizer crash" in run.errors("asr")[0].text
    failed = run.errors("translation")
    assert len(failed) == 1 and "injected ONNX failure" in failed[0].text
    assert [f.text for f in run.finals() if f.utterance_id == failed[0].utterance_id] == ["I love you."]
    assert run.errors("tts") and "unavailable" in run.errors("tts")[0].text
    # The phrases around the faults were translated, in order; the one whose model failed was not.
    texts = [t.text for t in run.translations()]
    assert texts[0] == expected(["Good morning."], "en-zh")[0]
    assert texts[-1] == expected(["See you tomorrow."], "en-zh")[0]
    assert expected(["I love you."], "en-zh")[0] not in texts


def test_microphone_vanishing_mid_utterance(recording, run_pipeline):
    wav = recording("vanish", english(PHRASES[:3]))
    source = VanishingMicrophone(wav, vanish_at_s=3.0)
    run = run_pipeline(None, "en-zh", parts={"audio_source": source})
    assert source.vanished and source.resumed
    assert [e.text for e in run.errors("capture")] == ["The microphone is gone."]
    assert any(s.state == "running" and "resumed" in s.detail for s in run.of(Status))
    texts = [t.text for t in run.translations()]
    assert texts[0] == expected(PHRASES[:1], "en-zh")[0] and texts[-1] == expected(PHRASES[2:3], "en-zh")[0]


def test_broken_model_folder_reports_every_utterance(recording, run_pipeline, phrasebook, tmp_path):
    broken = tmp_path / "en-zh-broken"
    shutil.copytree(phrasebook["en-zh"], broken)
    decoder = broken / "decoder_model_merged.onnx"
    decoder.write_bytes(decoder.read_bytes()[: decoder.stat().st_size // 2])
    wav = recording("broken", english(PHRASES[:2]))
    run = run_pipeline(wav, "en-zh", nmt_models={"en-zh": broken})
    load_errors = [e for e in run.errors("translation") if e.utterance_id is None]
    assert len(load_errors) == 1 and "could not be loaded" in load_errors[0].text
    finals = run.finals()
    assert [norm(f.text) for f in finals] == [norm(p) for p in PHRASES[:2]]
    per_utterance = {e.utterance_id for e in run.errors("translation") if e.utterance_id is not None}
    assert per_utterance == {f.utterance_id for f in finals}, "every utterance is accounted for"
    assert not run.translations()


def test_a_damaged_optimised_copy_leaves_no_utterance_untranslated(recording, run_pipeline, phrasebook, tmp_path):
    # Issue 27: the optimised copy of a healthy model, cut short, handed to the pipeline as its
    # graphs (damage the checks on each load would not see): the folder's own graphs translate.
    # (The phrasebook model is optimised already, so its copy is made here.)
    copy = tmp_path / "cache" / "entry" / "decoder_model_merged.onnx"
    copy.parent.mkdir(parents=True)
    copy.write_bytes((phrasebook["en-zh"] / "decoder_model_merged.onnx").read_bytes()[:1000])
    graphs = {"decoder_model_merged": copy}
    wav = recording("damaged-cache", english(PHRASES[:2]))
    run = run_pipeline(wav, "en-zh", prepare_graphs=lambda folder, direction, quantized: graphs)
    assert not run.errors("translation")
    finals = run.finals()
    assert len(finals) == 2 and {t.utterance_id for t in run.translations()} == {f.utterance_id for f in finals}
