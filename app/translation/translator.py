"""The translator: text in, translation out, with every decoder step reported as it happens."""

from __future__ import annotations

import dataclasses
import logging
import re
import threading
import time
from collections.abc import Generator, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from app.shared.chinese import ChineseScript, map_offset, to_script, to_simplified
from app.shared.errors import QT_TRANSLATE_NOOP, LiveTranslatorError, Text
from app.shared.events import DecodeStep, StopReason
from app.shared.glossary import Glossary, GlossaryMatch
from app.shared.languages import Direction, Language
from app.translation.constrained import ConstrainedSearch, Constraint, constrained_width
from app.translation.folder import LoadedModel, check_tokenizer, load_model
from app.translation.onnx_model import DecoderRun
from app.translation.search import SURE_P, GenerationSettings, Search, StepRecord, resolve_settings
from app.translation.sentences import clean_text, split_for_model
from app.translation.tokenization import PromptCodec

# An owner/name repo id, as config.json's _name_or_path holds for Hub models (not a local path).
log = logging.getLogger(__name__)

HUB_REPO_ID = re.compile(r"[A-Za-z0-9][\w.-]*/[A-Za-z0-9][\w.-]*")
STOP_PRIORITY = (StopReason.CANCELLED, StopReason.LOOP, StopReason.LENGTH, StopReason.EOS)


@dataclass(frozen=True)
class DecodeOptions:
    """Overrides of the model's generation_config.json (None: keep the model's value)."""

    num_beams: int | None = None
    max_new_tokens: int | None = None
    max_length: int | None = None
    min_length: int | None = None
    min_new_tokens: int | None = None
    length_penalty: float | None = None
    early_stopping: bool | str | None = None
    no_repeat_ngram_size: int | None = None
    repetition_penalty: float | None = None
    bad_words_ids: list[list[int]] | None = None
    loop_window: int | None = None  # loop guard: last N tokens one repeated block of <= 4 -> stop; 0 = off (default 12)
    verify: bool = False  # recompute every step without the cache and report max_abs_diff
    top_k: int = 5  # alternatives reported per step
    glossary: Glossary | None = None  # terms whose translation the decoder must write


NOT_GENERATION_SETTINGS = ("verify", "top_k", "glossary")


@dataclass(frozen=True)
class GlossaryUse:
    """A glossary entry that matched a sentence's source, and whether its target is in the translation."""

    source: str
    target: str
    honoured: bool

    def to_json(self) -> dict:
        return {"source": self.source, "target": self.target, "honoured": self.honoured}


@dataclass(frozen=True)
class Unsure:
    """A stretch of a translation made of tokens the decoder gave a probability below UNSURE_P:
    characters [start, end) of the text, the lowest probability among them, and the decoder's
    alternatives at its least sure token (text, probability), best first."""

    start: int
    end: int
    p: float
    alternatives: tuple[tuple[str, float], ...] = ()

    def shifted(self, by: int) -> Unsure:
        return dataclasses.replace(self, start=self.start + by, end=self.end + by)


def join_translations(
    pieces: list[tuple[str, list[Unsure]]], joiner: str, strip: bool = False
) -> tuple[str, list[Unsure]]:
    """Sentences' translations joined as the app shows them, with their unsure spans moved along."""
    text, spans = "", []
    for piece, unsure in pieces:
        lead = len(piece) - len(piece.lstrip()) if strip else 0
        piece = piece.strip() if strip else piece
        if not piece:
            continue
        if text:
            text += joiner
        spans += [u.shifted(len(text) - lead) for u in unsure if u.start >= lead and u.end - lead <= len(piece)]
        text += piece
    return text, spans


def joined_sure_chars(sentences: list[tuple[str, int | None]], joiner: str) -> int | None:
    """Characters of the sentences' translations joined as join_translations(strip=True) joins
    them, before the first unsure token (each sentence's `sure_chars`); None when all are sure."""
    length = 0
    for piece, sure in sentences:
        body = piece.strip()
        if not body:
            continue
        if length:
            length += len(joiner)
        if sure is not None:
            lead = len(piece) - len(piece.lstrip())
            return length + min(max(sure - lead, 0), len(body))
        length += len(body)
    return None


@dataclass
class SentenceResult:
    index: int
    source: str
    translation: str
    token_ids: list[int]  # generated ids (generate's output without decoder_start_token_id)
    stop_reason: StopReason
    encoder_ms: float
    decode_ms: float
    steps: list[DecodeStep] = field(default_factory=list)
    loop_detail: str | None = None
    source_ids: list[int] = field(default_factory=list)
    glossary: list[GlossaryUse] = field(default_factory=list)
    # Character spans of `translation` the decoder was unsure of (UNSURE_P): the words to double-check
    low_confidence: list[Unsure] = field(default_factory=list)
    # Characters of `translation` before its first token below SURE_P (all of them: None)
    sure_chars: int | None = None
    # Per token of `token_ids`: the probability the decoder gave it (a forced token: 1.0), and the
    # characters of `translation` it ends at (what live text shows of a token prefix)
    token_p: list[float] = field(default_factory=list)
    token_ends: Sequence[int] = field(default_factory=list)  # a TokenEnds: each worked out when asked for

    @property
    def tokens_per_s(self) -> float:
        return len(self.steps) / (self.decode_ms / 1000) if self.decode_ms > 0 else 0.0

    @property
    def max_abs_diff(self) -> float | None:
        diffs = [s.max_abs_diff for s in self.steps if s.max_abs_diff is not None]
        return max(diffs) if diffs else None

    def to_json(self, with_steps: bool = True) -> dict:
        data = {
            k: getattr(self, k)
            for k in (
                "index",
                "source",
                "translation",
                "token_ids",
                "stop_reason",
                "loop_detail",
                "encoder_ms",
                "decode_ms",
                "tokens_per_s",
                "source_ids",
            )
        }
        data["tokens"] = len(self.steps)
        data["glossary"] = [use.to_json() for use in self.glossary]
        if self.max_abs_diff is not None:
            data["max_abs_diff"] = self.max_abs_diff
        if with_steps:
            data["steps"] = [s.to_json() for s in self.steps]
        return data


@dataclass
class TranslationResult:
    sentences: list[SentenceResult]
    joiner: str = ""

    @property
    def text(self) -> str:
        return self.joiner.join(s.translation for s in self.sentences if s.translation)

    @property
    def low_confidence(self) -> list[Unsure]:
        return join_translations([(s.translation, s.low_confidence) for s in self.sentences], self.joiner)[1]

    @property
    def stop_reason(self) -> StopReason:
        reasons = {s.stop_reason for s in self.sentences}
        return next((r for r in STOP_PRIORITY if r in reasons), StopReason.EOS)

    @property
    def token_ids(self) -> list[int]:
        return [t for s in self.sentences for t in s.token_ids]

    @property
    def steps(self) -> list[DecodeStep]:
        return [step for s in self.sentences for step in s.steps]

    @property
    def encoder_ms(self) -> float:
        return sum(s.encoder_ms for s in self.sentences)

    @property
    def decode_ms(self) -> float:
        return sum(s.decode_ms for s in self.sentences)

    def to_json(self) -> dict:
        """The `translate --json` object: one per input text."""
        return {
            "translation": self.text,
            "token_ids": self.token_ids,
            "stop_reason": self.stop_reason,
            "encoder_ms": round(self.encoder_ms, 3),
            "decode_ms": round(self.decode_ms, 3),
            "steps": [s.to_json() for s in self.steps],
            "sentences": [s.to_json(with_steps=False) for s in self.sentences],
            "low_confidence": [[u.start, u.end, u.p] for u in self.low_confidence],
            "alternatives": [[list(a) for a in u.alternatives] for u in self.low_confidence],
        }


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


class TokenEnds(Sequence[int]):
    """Per token of a translation, the characters of its written text (Chinese in the chosen
    script) that the tokens up to it decode to. Each prefix is decoded when first asked for and
    kept: live text cuts a provisional translation at a token or two, unsure spans need their
    tokens' ends, and a final needs no others; decoding every prefix of every translation cost a
    tenth of the decode (O(n²) characters per sentence)."""

    def __init__(self, token_ids: list[int], decoded: str, codec: PromptCodec, written, script):
        self.token_ids, self.decoded, self.codec, self.script = token_ids, decoded, codec, script
        converted = written(decoded)
        self.converted = converted if converted != decoded else None  # None: offsets carry over as they are
        self._lengths = {0: 0, len(token_ids): len(decoded)}

    def decoded_length(self, count: int) -> int:
        """Characters of the decoded text (before any change of script) the first `count` tokens make."""
        if count not in self._lengths:
            self._lengths[count] = len(self.codec.decode(self.token_ids[:count]))
        return self._lengths[count]

    def written_offset(self, offset: int) -> int:
        """Where character `offset` of the decoded text lands in the written text."""
        return offset if self.converted is None else map_offset(self.decoded, offset, self.script, self.converted)

    def __len__(self) -> int:
        return len(self.token_ids)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        count = range(1, len(self) + 1)[index]  # IndexError past the end, as a list
        return self.written_offset(self.decoded_length(count))

    def __eq__(self, other) -> bool:
        return isinstance(other, Sequence) and list(self) == list(other)

    def __repr__(self) -> str:
        return f"TokenEnds({list(self)})"


def unsure_spans(search: Search, forced: int, ends: TokenEnds, written) -> list[Unsure]:
    """Character spans of the (written) translation whose tokens the decoder was unsure of (of
    those after the `forced` first ones, which were not its choice); neighbouring unsure
    tokens (pieces of one word) make one span. `written` turns decoded text into the text shown
    (Chinese in the chosen script)."""
    spans: list[Unsure] = []
    codec, decoded = ends.codec, ends.decoded
    for position, (token, logprob) in enumerate(zip(ends.token_ids[forced:], search.token_logprobs)):
        if position not in search.alternatives or token in codec.skipped_ids:
            continue
        at = forced + position
        start, end = ends.decoded_length(at), ends.decoded_length(at + 1)
        while start < end and decoded[start].isspace():
            start += 1
        if start >= end:
            continue  # a token that adds no character (EOS, a lone space)
        start, end = ends.written_offset(start), ends.written_offset(end)  # Chinese in another script
        p = round(float(np.exp(logprob)), 3)
        alternatives = tuple(
            (written(codec.decode([t])), round(float(np.exp(lp)), 3))
            for t, lp in search.alternatives[position]
            if t != token and t not in codec.skipped_ids
        )
        if spans and spans[-1].end >= start:
            last = spans[-1]
            keep = last.alternatives if last.p <= p else alternatives
            spans[-1] = Unsure(last.start, max(end, last.end), min(last.p, p), keep)
        else:
            spans.append(Unsure(start, end, p, alternatives))
    return spans


def sure_chars(search: Search, forced: int, ends: TokenEnds) -> int | None:
    """Characters of the (written) translation before the first token the decoder gave less
    than SURE_P (the `forced` first tokens were not its choice: sure); None when it was sure
    of every token."""
    for position, (token, logprob) in enumerate(zip(ends.token_ids[forced:], search.token_logprobs)):
        if logprob < np.log(SURE_P) and token not in ends.codec.skipped_ids:
            return ends.written_offset(ends.decoded_length(forced + position))
    return None


def token_probabilities(search: Search, token_ids: list[int], forced: int) -> list[float]:
    """Each token's probability, from the search's own per-step log-probabilities (forced ones
    1.0: the reader has them)."""
    chosen = [float(np.exp(lp)) for lp in search.token_logprobs]
    p = ([1.0] * forced + chosen)[: len(token_ids)]
    return p + [1.0] * (len(token_ids) - len(p))


def generation_overrides(options: DecodeOptions | None) -> dict:
    """The options that are generation settings (None: the model's own)."""
    if options is None:
        return {}
    return {
        f.name: getattr(options, f.name) for f in dataclasses.fields(options) if f.name not in NOT_GENERATION_SETTINGS
    }


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
    ) -> Iterator[DecodeStep | SentenceResult]:
        """Yield each DecodeStep as the decoder makes it, then the SentenceResult of each sentence.
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
            matches = options.glossary.matches(sentence, self.direction) if options.glossary else []
            result = yield from self.stream_ids(
                self.codec.source_ids(sentence),
                options,
                cancel,
                index,
                sentence,
                matches=matches,
                forced=forced[index] if index < len(forced) else (),
            )
            if result.stop_reason is StopReason.CANCELLED:
                return

    def translate(
        self, text: str, options: DecodeOptions | None = None, cancel: threading.Event | None = None
    ) -> TranslationResult:
        sentences = [item for item in self.stream(text, options, cancel) if isinstance(item, SentenceResult)]
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

    def stream_ids(
        self,
        source_ids: list[int],
        options: DecodeOptions | None = None,
        cancel: threading.Event | None = None,
        index: int = 0,
        source: str = "",
        matches: list[GlossaryMatch] | None = None,
        forced: Sequence[int] = (),
    ):
        """Translate token ids (the family's prompt included). Yields DecodeSteps then the
        SentenceResult, which is also the generator's return value. `matches`: glossary entries
        found in the source; the translation is made to contain their targets (lexically
        constrained search). Without any that the target vocabulary can write, the search is
        exactly `generate`'s."""
        options = options or DecodeOptions()
        matches = matches or []
        settings = self.settings(options)
        states, mask, encoder_ms = self._encode(source_ids)
        run, search = self._search(settings, states, mask, self.constraints(matches), options, forced)
        steps: list[DecodeStep] = []
        decode_ms = yield from self._decode(run, search, options, index, cancel, steps)
        result = self._result(
            search, settings, steps, index, source, source_ids, matches, encoder_ms=encoder_ms, decode_ms=decode_ms
        )
        yield result
        return result

    def _encode(self, source_ids: list[int]) -> tuple[np.ndarray, np.ndarray, float]:
        """The encoder's states for the source, its attention mask, and the time it took (ms)."""
        started = time.perf_counter()
        ids = np.array([source_ids], dtype=np.int64)
        mask = np.ones_like(ids)
        try:
            states = self.model.encoder(ids, mask)
        except Exception as error:
            raise LiveTranslatorError(
                QT_TRANSLATE_NOOP("Errors", "The encoder failed on {count} tokens: {reason}"),
                QT_TRANSLATE_NOOP("Errors", "Check that the model folder is complete and consistent."),
                count=len(source_ids),
                reason=str(error)[:300],
            ) from None
        return states, mask, (time.perf_counter() - started) * 1000

    def _search(
        self,
        settings: GenerationSettings,
        states: np.ndarray,
        mask: np.ndarray,
        constraints: list[Constraint],
        options: DecodeOptions,
        forced: Sequence[int],
    ) -> tuple[DecoderRun, Search]:
        """The decoder run and the search over it: constrained when a glossary term must appear,
        else `generate`'s greedy or beam search (beginning with `forced`)."""
        if constraints:
            run = DecoderRun(
                self.model.decoders,
                states,
                mask,
                batch=constrained_width(settings, constraints),
                capacity=settings.max_length,
            )
            return run, ConstrainedSearch(settings, run.advance, run.reorder, constraints, top_k=options.top_k)
        run = DecoderRun(self.model.decoders, states, mask, batch=settings.num_beams, capacity=settings.max_length)
        return run, Search(settings, run.advance, run.reorder, top_k=options.top_k, forced=forced)

    def _decode(
        self,
        run: DecoderRun,
        search: Search,
        options: DecodeOptions,
        index: int,
        cancel: threading.Event | None,
        steps: list[DecodeStep],
    ) -> Generator[DecodeStep, None, float]:
        """Run the search step by step, yielding (and appending to `steps`) each DecodeStep;
        returns the decoding time (ms). A set `cancel` stops it as CANCELLED."""
        decode_ms = 0.0
        records = search.run()
        while True:
            if cancel is not None and cancel.is_set():
                search.stop(StopReason.CANCELLED)
                break
            t0 = time.perf_counter()
            record = _next_record(records, run)
            if record is None:
                break
            ms = (time.perf_counter() - t0) * 1000
            decode_ms += ms
            step = self._step(record, run, options, index, len(steps), ms)
            steps.append(step)
            yield step
        records.close()
        return decode_ms

    def _step(
        self, record: StepRecord, run: DecoderRun, options: DecodeOptions, index: int, number: int, ms: float
    ) -> DecodeStep:
        """The diagnostics of one decoder step (with verify: the cached-vs-uncached difference)."""
        diff = float(np.max(np.abs(run.recompute(record.sequences) - record.logits))) if options.verify else None
        return DecodeStep(
            sentence_index=index,
            step=number,
            token_id=record.token_id,
            token=self.codec.piece(record.token_id),
            top=[(t, self.codec.piece(t), round(lp, 5)) for t, lp in record.top],
            self_kv_len=run.self_kv_len,
            cross_kv_len=run.cross_kv_len,
            used_cache_branch=run.used_cache_branch,
            ms=round(ms, 3),
            max_abs_diff=diff,
            forced=record.forced,
        )

    def _result(
        self,
        search: Search,
        settings: GenerationSettings,
        steps: list[DecodeStep],
        index: int,
        source: str,
        source_ids: list[int],
        matches: list[GlossaryMatch],
        encoder_ms: float,
        decode_ms: float,
    ) -> SentenceResult:
        """The finished sentence: its ids, written text, why it stopped, unsure words, glossary use."""
        token_ids = [int(t) for t in search.sequence[1:]]
        loop_detail = None
        if search.stop_reason is StopReason.LOOP:
            block = " ".join(f"{t} {self.codec.piece(t)!r}" for t in search.loop)
            loop_detail = f"stopped after {len(steps)} steps: the last {settings.loop_window} tokens repeat [{block}]"
        decoded = self.codec.decode(token_ids)
        forced = len(search.prefix) - 1  # tokens the search was given, not chose
        ends = TokenEnds(token_ids, decoded, self.codec, self.written, self.chinese)
        result = SentenceResult(
            index=index,
            source=source,
            translation=self.written(decoded),
            token_ids=token_ids,
            stop_reason=search.stop_reason,
            encoder_ms=round(encoder_ms, 3),
            decode_ms=round(decode_ms, 3),
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


def _next_record(records: Iterator[StepRecord], run: DecoderRun) -> StepRecord | None:
    """The search's next step, None at its end; onnxruntime failing mid-sentence says where."""
    try:
        return next(records)
    except StopIteration:
        return None
    except LiveTranslatorError:
        raise
    except Exception as error:
        raise LiveTranslatorError(
            QT_TRANSLATE_NOOP("Errors", "The decoder failed at step {step} ({kind}: {reason})."),
            QT_TRANSLATE_NOOP("Errors", "Run `python -m app models doctor` on the model folder."),
            step=run.step,
            kind=type(error).__name__,
            reason=str(error)[:300],
        ) from None


def contains_term(translation: str, term: str) -> bool:
    """The term is in the translation (spacing aside: a Chinese term may come out with a space
    inside, an English one across a line break)."""
    return " ".join(term.split()) in " ".join(translation.split()) or "".join(term.split()) in "".join(
        translation.split()
    )
