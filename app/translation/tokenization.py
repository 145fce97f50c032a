"""Tokenizers and the prompt each model family needs for a direction.

Marian (opus-mt): one direction per model; en→zh needs the target token `>>cmn_Hans<<` first
when the vocabulary has one (docs/models.md, 'Marian and M2M100 prompts'). M2M100: source
`[__src__, pieces…, </s>]`, and the target language is forced as the first generated token, so
the decoder prefix is `[</s>, __tgt__]`. Tokenizers come from transformers (sentencepiece files), or from
`tokenizer.json` alone (the tokenizers library) when that is all a folder has.
"""

from __future__ import annotations

import logging
import re
import threading
import warnings
from pathlib import Path

from app.shared import files as careful
from app.shared.errors import QT_TRANSLATE_NOOP, LiveTranslatorError

MARIAN_ZH_TARGET_TOKENS = (">>cmn_Hans<<", ">>zho_Hans<<", ">>cmn<<", ">>zho<<", ">>zh<<")
# Language tokens (M2M100 `__zh__`, Marian `>>cmn_Hans<<`) are prompts, never part of a translation.
LANGUAGE_TOKEN = re.compile(r"^(__[A-Za-z_]{2,12}__|>>[A-Za-z_]{2,12}<<)$")
SENTENCEPIECE_FILES = {
    "marian": ("source.spm", "target.spm", "vocab.json"),
    "m2m_100": ("sentencepiece.bpe.model", "vocab.json"),
}


def tokenizer_files(folder: Path, family: str) -> tuple[str, list[Path]]:
    """("sentencepiece" | "tokenizer.json" | "", files found): what tokenizer a folder offers."""
    spm = [folder / name for name in SENTENCEPIECE_FILES.get(family, ())]
    if spm and all(p.is_file() for p in spm):
        return "sentencepiece", spm
    if (folder / "tokenizer.json").is_file():
        return "tokenizer.json", [folder / "tokenizer.json"]
    return "", spm


class _TransformersBackend:
    def __init__(self, tokenizer):
        self.tok = tokenizer
        self.size = len(tokenizer)

    def encode(self, text: str) -> list[int]:
        return list(self.tok(text, add_special_tokens=False).input_ids)

    def encode_target(self, text: str) -> list[int]:
        """Text in the target language (Marian: the target.spm model)."""
        return list(self.tok(text_target=text, add_special_tokens=False).input_ids)

    def decode(self, ids: list[int]) -> str:
        return self.tok.decode(ids, skip_special_tokens=True)

    def piece(self, token_id: int) -> str:
        return self.tok.convert_ids_to_tokens(int(token_id))

    def tokens(self) -> dict[str, int]:
        return {**self.tok.get_vocab(), **getattr(self.tok, "lang_token_to_id", {})}

    def token_id(self, token: str) -> int | None:
        token_id = self.tok.convert_tokens_to_ids(token)
        return (
            None if token_id is None or token_id == self.tok.unk_token_id and token != self.tok.unk_token else token_id
        )


class _TokenizerJsonBackend:
    def __init__(self, path: Path):
        from tokenizers import Tokenizer

        self.tok = Tokenizer.from_file(str(path))
        self.size = self.tok.get_vocab_size(with_added_tokens=True)

    def encode(self, text: str) -> list[int]:
        return self.tok.encode(text, add_special_tokens=False).ids

    def encode_target(self, text: str) -> list[int]:
        return self.encode(text)  # one tokenizer for both sides

    def decode(self, ids: list[int]) -> str:
        return self.tok.decode(ids, skip_special_tokens=True)

    def piece(self, token_id: int) -> str:
        return self.tok.id_to_token(int(token_id)) or ""

    def tokens(self) -> dict[str, int]:
        return self.tok.get_vocab(with_added_tokens=True)

    def token_id(self, token: str) -> int | None:
        return self.tok.token_to_id(token)


# transformers' lazy module imports are not thread-safe: two threads loading tokenizers at once
# fail with "cannot import name 'MarianTokenizer'" (seen when the window checks one model while
# the pipeline loads another). One lock makes every import from transformers take turns
# (search.generation_defaults takes it too).
TRANSFORMERS_LOCK = threading.Lock()


def _load_transformers(family: str, folder: Path):
    # MarianTokenizer warns about sacremoses on every load; the warning is not actionable here.
    logging.getLogger("transformers").setLevel(logging.ERROR)
    with TRANSFORMERS_LOCK, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if family == "marian":
            from transformers import MarianTokenizer

            return MarianTokenizer.from_pretrained(str(folder))
        from transformers import M2M100Tokenizer

        return M2M100Tokenizer.from_pretrained(str(folder))


TOKENIZER_FILE_NAMES = (
    "tokenizer.json",
    "tokenizer_config.json",
    "special_tokens_map.json",
    "added_tokens.json",
    "vocab.json",
    "source.spm",
    "target.spm",
    "sentencepiece.bpe.model",
)


def _open_backend(folder: Path, family: str):
    """(the tokenizer library's object for the folder, what kind it is); a missing or broken
    tokenizer raises LiveTranslatorError naming it."""
    for name in TOKENIZER_FILE_NAMES:  # what the tokenizer libraries open: a FIFO or /dev/zero is named, not read
        if careful.is_present(folder / name):
            careful.regular_file_size(folder / name, careful.JSON_LIMIT)
    kind, files = tokenizer_files(folder, family)
    try:
        if kind == "sentencepiece":
            name = "MarianTokenizer (sentencepiece)" if family == "marian" else "M2M100Tokenizer (sentencepiece)"
            return _TransformersBackend(_load_transformers(family, folder)), name
        if kind == "tokenizer.json":
            return _TokenizerJsonBackend(files[0]), "tokenizer.json"
        raise LiveTranslatorError(
            QT_TRANSLATE_NOOP("Errors", "No tokenizer in {folder}: expected {files} or tokenizer.json."),
            QT_TRANSLATE_NOOP("Errors", "Copy the tokenizer files of the original model next to config.json."),
            folder=folder,
            files=" + ".join(p.name for p in files),
        )
    except LiveTranslatorError:
        raise
    except Exception as error:
        raise LiveTranslatorError(
            QT_TRANSLATE_NOOP("Errors", "The tokenizer in {folder} could not be loaded ({kind}: {reason})."),
            QT_TRANSLATE_NOOP(
                "Errors",
                "The tokenizer files are damaged or belong to another kind of model: copy them again from the original "  # noqa: E501
                "model.",
            ),
            folder=folder,
            kind=type(error).__name__,
            reason=str(error)[:200],
        ) from None


class PromptCodec:
    """Text <-> token ids for one family and direction, with the family's prompt."""

    def __init__(self, folder: Path, family: str, direction: str, eos_token_id: int):
        self.family = family
        self.source_lang, self.target_lang = direction.split("-")
        self.eos_token_id = eos_token_id
        self.backend, self.kind = _open_backend(folder, family)
        # Not text: language tokens, and the control tokens a bare tokenizer.json may not flag as special.
        self.skipped_ids = {i for t, i in self.backend.tokens().items() if LANGUAGE_TOKEN.match(t)}
        self.skipped_ids |= {self.backend.token_id(t) for t in ("<s>", "</s>", "<pad>")} - {None}
        self._variants: dict[str, tuple[tuple[int, ...], ...]] = {}
        self.source_prefix, self.forced_bos_token_id = self._prompt(folder)

    def _prompt(self, folder: Path) -> tuple[list[int], int | None]:
        """The family's prompt: tokens before the source (Marian into Chinese: the target
        language's token; M2M100: the source language's) and the token forced first (M2M100)."""
        if self.family == "marian" and self.target_lang == "zh":
            for token in MARIAN_ZH_TARGET_TOKENS:
                token_id = self.backend.token_id(token)
                if token_id is not None:
                    return [token_id], None
        if self.family == "m2m_100":
            src, tgt = (self.backend.token_id(f"__{lang}__") for lang in (self.source_lang, self.target_lang))
            if src is None or tgt is None:
                raise LiveTranslatorError(
                    QT_TRANSLATE_NOOP(
                        "Errors", "The M2M100 tokenizer in {folder} has no language token __{source}__ or __{target}__."
                    ),
                    QT_TRANSLATE_NOOP("Errors", "Use the tokenizer files that came with the model."),
                    folder=folder,
                    source=self.source_lang,
                    target=self.target_lang,
                )
            return [src], tgt
        return [], None

    def __len__(self) -> int:
        return self.backend.size

    def source_ids(self, text: str) -> list[int]:
        return self.source_prefix + self.backend.encode(text) + [self.eos_token_id]

    def decode(self, ids: list[int]) -> str:
        return self.backend.decode([int(i) for i in ids if int(i) not in self.skipped_ids]).strip()

    def piece(self, token_id: int) -> str:
        return self.backend.piece(token_id)

    def term_variants(self, term: str) -> tuple[tuple[int, ...], ...]:
        """The target-token sequences that write `term`: as a word on its own (sentencepiece's
        leading "▁" piece), straight after other text without that piece (a Chinese term inside
        a sentence, an English one after a quote), and as it tokenises after a character of
        context. Only sequences without <unk> that decode back to the term; none if the target
        vocabulary cannot write it."""
        cached = self._variants.get(term)
        if cached is not None:
            return cached
        unk = self.backend.token_id("<unk>")
        wanted = "".join(term.split())
        found: list[tuple[int, ...]] = []

        def add(ids) -> None:
            ids = tuple(int(i) for i in ids)
            if (
                ids
                and ids not in found
                and unk not in ids
                and not set(ids) & self.skipped_ids
                and "".join(self.decode(list(ids)).split()) == wanted
            ):
                found.append(ids)

        alone = self.backend.encode_target(term)
        first = self.piece(alone[0]) if alone else ""
        add(alone)
        if first == "▁" and len(alone) > 1:
            add(alone[1:])
        else:
            if first.startswith("▁"):
                bare = self.backend.token_id(first[1:])
                if bare is not None:
                    add([bare] + alone[1:])
        for context in ("的", '"'):
            before = self.backend.encode_target(context)
            after = self.backend.encode_target(context + term)
            if after[: len(before)] == before:
                add(after[len(before) :])
        self._variants[term] = tuple(found)
        return self._variants[term]


def read_json(path: Path) -> dict:
    """A model folder's JSON file as a dict ({} when absent); anything else is named."""
    if not careful.is_present(path):
        return {}
    try:
        data = careful.read_json(path)  # a FIFO, a device, a huge or too deep file: named, not read
    except (OSError, ValueError) as error:
        raise LiveTranslatorError(
            QT_TRANSLATE_NOOP("Errors", "{path} is not valid JSON ({reason})."),
            QT_TRANSLATE_NOOP("Errors", "Copy the file again from the original model."),
            path=path,
            reason=error,
        ) from None
    if not isinstance(data, dict):
        raise LiveTranslatorError(
            QT_TRANSLATE_NOOP("Errors", "{path} is valid JSON but not an object ({{...}}): it holds a {kind}."),
            QT_TRANSLATE_NOOP("Errors", "Copy the file again from the original model."),
            path=path,
            kind=type(data).__name__,
        )
    return data
