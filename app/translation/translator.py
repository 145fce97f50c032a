"""The translator: text in, each sentence's translation out, every decoder step reported as it
happens. A model folder is loaded for one direction (folder.py, tokenization.py); each sentence
is decoded by decoding.py and read by confidence.py into a SentenceResult (results.py)."""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path

from app.shared.chinese import ChineseScript, to_script, to_simplified
from app.shared.errors import QT_TRANSLATE_NOOP, LiveTranslatorError, Text
from app.shared.events import StopReason
from app.shared.glossary import GlossaryMatch
from app.shared.languages import Direction, Language
from app.translation.confidence import TokenEnds, sure_chars, token_probabilities, unsure_spans
from app.translation.constrained import Constraint
from app.translation.decoding import Decoded, SentenceDecoder, StepSink
from app.translation.folder import LoadedModel, check_tokenizer, load_model
from app.translation.generation_settings import GenerationSettings, resolve_settings
from app.translation.options import DecodeOptions, generation_overrides
from app.translation.results import GlossaryUse, SentenceResult, TranslationResult
from app.translation.search import loop_window_for
from app.translation.sentences import clean_text, split_for_model
from app.translation.tokenization import PromptCodec

log = logging.getLogger(__name__)

# An owner/name repo id, as config.json's _name_or_path holds for Hub models (not a local path).
HUB_REPO_ID = re.compile(r"[A-Za-z0-9][\w.-]*/[A-Za-z0-9][\w.-]*")


def _model_settings(model: LoadedModel, overrides: dict, forced_bos_token_id: int | None = None) -> GenerationSettings:
    """resolve_settings for a loaded model; a bad value in one of its files names the folder too."""
    try:
        return resolve_settings(
            model.generation_config,
            model.config,
            overrides,
            model.max_positions,
            forced_bos_token_id=forced_bos_token_id,
            vocab_size=model.vocab_size,
        )
    except LiveTranslatorError as error:
        if "the options given" in error.message:
            raise
        values = {"folder": model.folder, "reason": error.text}
        if error.message.split(":")[0].endswith(".json"):  # "config.json: ..." becomes "<folder>/config.json: ..."
            raise LiveTranslatorError(
                Text("{folder}/{reason}", values), error.hint_text
            ) from None  # a path: no words to translate
        raise LiveTranslatorError(
            QT_TRANSLATE_NOOP("Errors", "{folder}: {reason}"), error.hint_text, **values
        ) from None


def model_label(model: LoadedModel) -> str:
    """What to call a model: the Hub repo its config.json says it was made from
    (`_name_or_path`, e.g. Helsinki-NLP/opus-mt-en-zh), else the folder that holds config.json.
    The phrasebook test models (the self-test's, the README's example) say what they are: they
    know their phrases by heart and turn anything else into confident nonsense."""
    phrases = model.config.get("phrasebook_phrases")
    if isinstance(phrases, int) and not isinstance(phrases, bool):
        return f"phrasebook test model: translates only its {phrases} phrases"
    origin = model.config.get("_name_or_path")
    if isinstance(origin, str) and HUB_REPO_ID.fullmatch(origin):
        return origin
    return model.folder.name  # load_model resolved it to the folder with config.json (not onnx/)


def _load_model_or_own(
    model_dir: Path | str, prefer_quantized: bool, threads: int | None, graphs: dict[str, Path] | None
) -> LoadedModel:
    """load_model with `graphs` (the optimised copies in the cache); when those do not load (a
    damaged cache), the folder's own graphs: the folder is fine, only the copy is not, so the
    user is never told to download a model again for it. Its error, if any, is the one raised."""
    if not graphs:
        return load_model(model_dir, prefer_quantized=prefer_quantized, threads=threads)
    try:
        return load_model(model_dir, prefer_quantized=prefer_quantized, threads=threads, graphs=graphs)
    except Exception as error:  # any failure of the copy: the folder's own graphs decide
        log.warning(
            "the optimised copies %s do not load (%s); using the folder's own graphs",
            ", ".join(sorted(str(p) for p in graphs.values())),
            error,
        )
        return load_model(model_dir, prefer_quantized=prefer_quantized, threads=threads)


class Translator:
    """A model folder loaded for one direction. Use from one thread at a time."""

    def __init__(
        self,
        model: LoadedModel,
        codec: PromptCodec,
        direction: str,
        chinese: ChineseScript | str = ChineseScript.SIMPLIFIED,
    ):
        self.model = model
        # Translations into Chinese are written in this script (the models write Simplified;
        # OpenCC converts, see app.shared.chinese). May be changed between translations.
        self.chinese = ChineseScript.parse(chinese)
        self.codec = codec
        self.direction = direction
        self.model_name = (
            f"{model_label(model)} ({model.decoders.description}{', quantized' if model.quantized else ''})"
        )
        self.joiner = "" if Direction(direction).target is Language.ZH else " "
        self.decoder = SentenceDecoder(model, codec)
        self.settings()  # a config without start/EOS ids fails at load, not mid-sentence

    @classmethod
    def load(
        cls,
        model_dir: Path | str,
        direction: Direction | str = Direction.EN_ZH,
        prefer_quantized: bool = False,
        threads: int | None = None,
        chinese: ChineseScript | str = ChineseScript.SIMPLIFIED,
        graphs: dict[str, Path] | None = None,
    ) -> Translator:
        """`graphs`: ONNX files to use instead of the folder's own (see folder.load_model)."""
        direction = Direction.parse(direction)
        model = _load_model_or_own(model_dir, prefer_quantized, threads, graphs)
        if direction not in model.directions:
            raise LiveTranslatorError(
                QT_TRANSLATE_NOOP(
                    "Errors", "{folder} holds a {model_direction} model; it cannot translate {direction}."
                ),
                QT_TRANSLATE_NOOP(
                    "Errors", "Use a model made for {direction} (e.g. opus-mt-{direction}) or an M2M100 model."
                ),
                folder=model.folder,
                model_direction=model.directions[0],
                direction=direction,
            )
        # Checked here, before the tokenizer loads: a null or out-of-range eos_token_id is named.
        eos = _model_settings(model, {}).eos_token_ids[0]
        codec = PromptCodec(model.folder, model.family, direction, eos)
        check_tokenizer(model, codec)
        return cls(model, codec, direction, chinese)

    def written(self, text: str) -> str:
        """A decoded translation as the app shows it: Chinese in the chosen script (the models
        write Simplified, which is left exactly as decoded)."""
        if self.chinese is ChineseScript.SIMPLIFIED or not self.direction.endswith("zh"):
            return text
        return to_script(text, self.chinese)

    @property
    def family(self) -> str:
        return self.model.family

    def settings(self, options: DecodeOptions | None = None) -> GenerationSettings:
        """The generation settings a translation uses: the model's, overridden by options."""
        return _model_settings(self.model, generation_overrides(options), self.codec.forced_bos_token_id)

    def source_limit(self) -> int:
        """Largest source length (in tokens) a chunk may have: half the position table, leaving the
        decoder room for its output."""
        return max(8, (self.model.max_positions or 512) // 2)

    def split(self, text: str) -> list[str]:
        limit = self.source_limit()
        return split_for_model(text, lambda s: len(self.codec.source_ids(s)), limit)

    def stream(
        self,
        text: str,
        options: DecodeOptions | None = None,
        cancel: threading.Event | None = None,
        forced: Sequence[Sequence[int]] = (),
        on_step: StepSink | None = None,
    ) -> Iterator[SentenceResult]:
        """Each sentence's SentenceResult as it is finished; each decoder step goes to `on_step`
        as the decoder makes it (before its sentence's result). A set `cancel` ends the stream
        (a sentence it cut short comes out CANCELLED).
        forced[i]: tokens sentence i's translation must begin with (a live translation's settled part)."""
        options = options or DecodeOptions()
        if not isinstance(text, str):
            raise LiveTranslatorError(
                QT_TRANSLATE_NOOP("Errors", "Text to translate must be a string, not {kind}."),
                QT_TRANSLATE_NOOP("Errors", "Pass the text as str (decode bytes first)."),
                kind=type(text).__name__,
            )
        text = clean_text(text)
        if self.direction.startswith("zh"):
            text = to_simplified(text)  # the models read Simplified; recognised text may be Traditional
        for index, sentence in enumerate(self.split(text)):
            if cancel is not None and cancel.is_set():
                return
            result = self.translate_ids(
                self.codec.source_ids(sentence),
                options,
                cancel,
                index,
                sentence,
                matches=options.glossary.matches(sentence, self.direction) if options.glossary else [],
                forced=forced[index] if index < len(forced) else (),
                on_step=on_step,
            )
            yield result
            if result.stop_reason is StopReason.CANCELLED:
                return

    def translate(
        self, text: str, options: DecodeOptions | None = None, cancel: threading.Event | None = None
    ) -> TranslationResult:
        sentences = list(self.stream(text, options, cancel))
        if (
            cancel is not None
            and cancel.is_set()
            and (not sentences or sentences[-1].stop_reason is not StopReason.CANCELLED)
        ):
            sentences.append(SentenceResult(len(sentences), "", "", [], StopReason.CANCELLED, 0.0, 0.0))
        return TranslationResult(sentences, self.joiner)

    def constraints(self, matches: list[GlossaryMatch]) -> list[Constraint]:
        """Each matched term's target as target-token sequences (once per distinct target); a
        term the target vocabulary cannot write gives no constraint."""
        out: dict[str, Constraint] = {}
        for m in matches:
            variants = self.codec.term_variants(m.target)
            if variants and m.target not in out:
                out[m.target] = Constraint(variants, m.target)
        return list(out.values())

    def translate_ids(
        self,
        source_ids: list[int],
        options: DecodeOptions | None = None,
        cancel: threading.Event | None = None,
        index: int = 0,
        source: str = "",
        matches: list[GlossaryMatch] | None = None,
        forced: Sequence[int] = (),
        on_step: StepSink | None = None,
    ) -> SentenceResult:
        """Translate token ids (the family's prompt included), each step to `on_step` as it is
        made. `matches`: glossary entries found in the source; the translation is made to
        contain their targets (lexically constrained search). Without any that the target
        vocabulary can write, the search is exactly `generate`'s."""
        options = options or DecodeOptions()
        matches = matches or []
        settings = loop_window_for(self.settings(options), source_ids)
        constraints = self.constraints(matches)
        decoded = self.decoder.decode(source_ids, settings, options, constraints, forced, index, cancel, on_step)
        return self._result(decoded, settings, index, source, source_ids, matches)

    def _result(
        self,
        decoded: Decoded,
        settings: GenerationSettings,
        index: int,
        source: str,
        source_ids: list[int],
        matches: list[GlossaryMatch],
    ) -> SentenceResult:
        """The finished sentence: its ids, written text, why it stopped, unsure words, glossary use."""
        search, steps = decoded.search, decoded.steps
        token_ids = [int(t) for t in search.sequence[1:]]
        loop_detail = None
        if search.stop_reason is StopReason.LOOP:
            block = " ".join(f"{t} {self.codec.piece(t)!r}" for t in search.loop)
            loop_detail = f"stopped after {len(steps)} steps: the last {settings.loop_window} tokens repeat [{block}]"
        text = self.codec.decode(token_ids)
        forced = len(search.prefix) - 1  # tokens the search was given, not chose
        ends = TokenEnds(token_ids, text, self.codec, self.written, self.chinese)
        result = SentenceResult(
            index=index,
            source=source,
            translation=self.written(text),
            token_ids=token_ids,
            stop_reason=search.stop_reason,
            encoder_ms=decoded.encoder_ms,
            decode_ms=decoded.decode_ms,
            steps=steps,
            loop_detail=loop_detail,
            source_ids=list(source_ids),
            low_confidence=unsure_spans(search, forced, ends, self.written),
            sure_chars=sure_chars(search, forced, ends),
            token_p=token_probabilities(search, token_ids, forced),
            token_ends=ends,
        )
        # The translation is written in the chosen script, and so is the term when it is looked for.
        result.glossary = [
            GlossaryUse(m.source, m.target, contains_term(result.translation, self.written(m.target))) for m in matches
        ]
        return result


def contains_term(translation: str, term: str) -> bool:
    """The term is in the translation (spacing aside: a Chinese term may come out with a space
    inside, an English one across a line break)."""
    return " ".join(term.split()) in " ".join(translation.split()) or "".join(term.split()) in "".join(
        translation.split()
    )
