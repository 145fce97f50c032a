"""The translation models the app knows how to fetch, and the ones already installed.

Each catalog entry names the Hugging Face Hub files of a ready ONNX export
(docs/models.md, 'Ready ONNX repos on the Hub').
Files keep their repo paths inside the model folder (`onnx/...` stays `onnx/...`), which is
a layout the engine reads. Installed models live in `app.shared.paths.user_models_dir()/<key>`.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from app.shared import files
from app.shared.errors import QT_TRANSLATE_NOOP, LiveTranslatorError
from app.shared.paths import bundled_models_dir, user_models_dir

DIRECTIONS = ("en-zh", "zh-en")
# Models a packaged build ships (`packaging/build.py --bundle-models`): read-only, offered
# after the user's own folder.
BUNDLED_MODELS_DIR = bundled_models_dir()


# The commit each catalog repo is fetched at (`revision=` to huggingface_hub), so a repo that
# changes under its `main` cannot change what the app downloads. This build could not reach the
# hub; each id is the one several independent projects pin or hold in their hub cache for that
# repo (docs/models.md, 'Pinned commits'). A commit the hub no longer has is reported by name.
PINNED: dict[str, str] = {
    "Xenova/opus-mt-en-zh": "046f55aec303cdee3e0318604406d4df20f1e8ea",
    "Helsinki-NLP/opus-mt-en-zh": "408d9bc410a388e1d9aef112a2daba955b945255",
    "onnx-community/opus-mt-zh-en": "8e3032ebeebbacda779fe95efa64c03b962f83f3",
    "Xenova/m2m100_418M": "9c374f0b7aca709787cea97b047bfbbd1559d177",
    "facebook/m2m100_418M": "55c2e61bbf05dfb8d7abccdc3fae6fc8512fd636",
}

# Byte sizes of pinned files at their pinned commit, where two independent records agree. The
# download compares them with what the hub announces before fetching anything: another size is
# not the file the catalog pins (a mirror serving something else, a repo rewritten in place).
PINNED_SIZES: dict[tuple[str, str], int] = {
    ("Xenova/opus-mt-en-zh", "onnx/encoder_model_quantized.onnx"): 52_899_742,
    ("Xenova/opus-mt-en-zh", "onnx/decoder_model_merged_quantized.onnx"): 60_212_804,
    ("onnx-community/opus-mt-zh-en", "onnx/encoder_model_quantized.onnx"): 52_875_078,
    ("onnx-community/opus-mt-zh-en", "source.spm"): 804_677,
    ("Xenova/m2m100_418M", "config.json"): 908,
    ("Xenova/m2m100_418M", "onnx/encoder_model_quantized.onnx"): 287_856_370,
    ("Xenova/m2m100_418M", "onnx/decoder_model_merged_quantized.onnx"): 344_128_178,
}


def pinned_revision(repo: str) -> str | None:
    return PINNED.get(repo)


def pinned_size(repo: str, path: str) -> int | None:
    return PINNED_SIZES.get((repo, path))


@dataclass(frozen=True)
class HubFile:
    repo: str
    path: str  # path inside the repo, and inside the model folder
    optional: bool = False  # fetched when present; its absence is not an error


def with_external_data(files: tuple[HubFile, ...]) -> tuple[HubFile, ...]:
    """Each graph followed by its external-data file (`x.onnx_data`, what optimum writes for a
    graph over protobuf's 2 GB limit), fetched when the repo has it."""
    out = []
    for f in files:
        out.append(f)
        if f.path.endswith(".onnx"):
            out.append(HubFile(f.repo, f.path + "_data", optional=True))
    return tuple(out)


@dataclass(frozen=True)
class CatalogEntry:
    key: str  # folder name under the user model folder; `download KEY`
    label: str  # for people: family, direction, precision, size
    directions: tuple[str, ...]
    files: tuple[HubFile, ...]
    size_mb: int  # approximate download size
    source: str  # where the weights come from and their licence

    @property
    def repo(self) -> str:  # the repo holding the ONNX graphs
        return next(f.repo for f in self.files if f.path.endswith(".onnx"))


def _marian(onnx_repo: str, tokenizer_repo: str, quantized: bool, root_files: tuple[str, ...]) -> tuple[HubFile, ...]:
    suffix = "_quantized" if quantized else ""
    graphs = tuple(
        HubFile(onnx_repo, f"onnx/{name}{suffix}.onnx") for name in ("encoder_model", "decoder_model_merged")
    )
    tokenizer = tuple(HubFile(tokenizer_repo, name) for name in root_files)
    return (HubFile(onnx_repo, "config.json"),) + tokenizer + with_external_data(graphs)


_EN_ZH_TOKENIZER = ("source.spm", "target.spm", "vocab.json", "tokenizer_config.json", "generation_config.json")
# (the repo's tokenizer.json is not fetched: with source.spm + target.spm beside it the app never reads it)
_ZH_EN_FILES = ("source.spm", "target.spm", "vocab.json", "generation_config.json")
_M2M100_TOKENIZER = tuple(
    HubFile("facebook/m2m100_418M", name)
    for name in (
        "sentencepiece.bpe.model",
        "vocab.json",
        "tokenizer_config.json",
        "special_tokens_map.json",
        "generation_config.json",
    )
)

CATALOG: tuple[CatalogEntry, ...] = (
    CatalogEntry(
        "opus-mt-en-zh-int8",
        "Marian opus-mt English → Chinese (int8, ~115 MB)",
        ("en-zh",),
        _marian("Xenova/opus-mt-en-zh", "Helsinki-NLP/opus-mt-en-zh", True, _EN_ZH_TOKENIZER),
        115,
        "Helsinki-NLP/opus-mt-en-zh (CC-BY 4.0), ONNX by Xenova/opus-mt-en-zh",
    ),
    CatalogEntry(
        "opus-mt-en-zh",
        "Marian opus-mt English → Chinese (fp32, ~450 MB)",
        ("en-zh",),
        _marian("Xenova/opus-mt-en-zh", "Helsinki-NLP/opus-mt-en-zh", False, _EN_ZH_TOKENIZER),
        450,
        "Helsinki-NLP/opus-mt-en-zh (CC-BY 4.0), ONNX by Xenova/opus-mt-en-zh",
    ),
    CatalogEntry(
        "opus-mt-zh-en-int8",
        "Marian opus-mt Chinese → English (int8, ~250 MB)",
        ("zh-en",),
        _marian("onnx-community/opus-mt-zh-en", "onnx-community/opus-mt-zh-en", True, _ZH_EN_FILES)
        + (HubFile("onnx-community/opus-mt-zh-en", "tokenizer_config.json", True),),
        250,
        "Helsinki-NLP/opus-mt-zh-en (CC-BY 4.0), ONNX by onnx-community/opus-mt-zh-en",
    ),
    CatalogEntry(
        "opus-mt-zh-en",
        "Marian opus-mt Chinese → English (fp32, ~450 MB)",
        ("zh-en",),
        _marian("onnx-community/opus-mt-zh-en", "onnx-community/opus-mt-zh-en", False, _ZH_EN_FILES)
        + (HubFile("onnx-community/opus-mt-zh-en", "tokenizer_config.json", True),),
        450,
        "Helsinki-NLP/opus-mt-zh-en (CC-BY 4.0), ONNX by onnx-community/opus-mt-zh-en",
    ),
    CatalogEntry(
        "m2m100-418M-int8",
        "M2M100 418M, both directions (int8, ~640 MB)",
        ("en-zh", "zh-en"),
        (HubFile("Xenova/m2m100_418M", "config.json"),)
        + _M2M100_TOKENIZER
        + with_external_data(
            tuple(
                HubFile("Xenova/m2m100_418M", f"onnx/{name}_quantized.onnx")
                for name in ("encoder_model", "decoder_model_merged")
            )
        ),
        640,
        "facebook/m2m100_418M (MIT), ONNX by Xenova/m2m100_418M",
    ),
    CatalogEntry(
        "m2m100-418M",
        "M2M100 418M, both directions (fp32, ~2.5 GB)",
        ("en-zh", "zh-en"),
        (HubFile("Xenova/m2m100_418M", "config.json"),)
        + _M2M100_TOKENIZER
        + with_external_data(
            tuple(
                HubFile("Xenova/m2m100_418M", f"onnx/{name}.onnx") for name in ("encoder_model", "decoder_model_merged")
            )
        ),
        2500,
        "facebook/m2m100_418M (MIT), ONNX by Xenova/m2m100_418M",
    ),
)


def entry(key: str) -> CatalogEntry:
    for item in CATALOG:
        if item.key == key:
            return item
    raise LiveTranslatorError(
        QT_TRANSLATE_NOOP("Errors", "'{key}' is not a model this app knows."),
        QT_TRANSLATE_NOOP("Errors", "Known models: {known} (or pass a Hub repo id, owner/name)."),
        key=key,
        known=", ".join(item.key for item in CATALOG),
    )


def for_direction(direction: str) -> list[CatalogEntry]:
    """Catalog entries translating `direction`, in order of preference (small and fast first)."""
    return [item for item in CATALOG if direction in item.directions]


def model_dest(key: str) -> Path:
    """Where catalog model `key` (or a repo id) is installed."""
    return user_models_dir() / key.replace("/", "--")


def is_complete(item: CatalogEntry, folder: Path) -> bool:
    return all((folder / f.path).is_file() for f in item.files if not f.optional)


@dataclass(frozen=True)
class InstalledModel:
    path: Path
    key: str | None  # the catalog entry it came from, if any
    directions: tuple[str, ...]  # what it translates (as far as its files say)


def folder_directions(folder: Path) -> tuple[str, ...]:
    """Directions a model folder translates, from its config and tokenizer config."""
    try:
        config = files.read_json(folder / "config.json")
    except (OSError, ValueError, LiveTranslatorError):
        return ()
    if not isinstance(config, dict):
        return ()
    if config.get("model_type") == "m2m_100":
        return DIRECTIONS
    try:
        tokenizer_config = files.read_json(folder / "tokenizer_config.json")
    except (OSError, ValueError, LiveTranslatorError):
        tokenizer_config = {}
    if not isinstance(tokenizer_config, dict):
        tokenizer_config = {}
    pair = f"{tokenizer_config.get('source_lang', '')}-{tokenizer_config.get('target_lang', '')}"
    if pair in DIRECTIONS:
        return (pair,)
    # opus-mt repos without a tokenizer_config: the name says it (opus-mt-zh-en)
    return tuple(d for d in DIRECTIONS if folder.name.endswith(d) or f"{d}-" in folder.name)


def _has_encoder(folder: Path) -> bool:
    return any(folder.glob("encoder_model*.onnx")) or any(folder.glob("onnx/encoder_model*.onnx"))


def installed_models(root: Path | None = None) -> list[InstalledModel]:
    """Model folders under the user model folder (complete catalog downloads and any other)."""
    root = root or user_models_dir()
    found = []
    if not root.is_dir():
        return found
    keys = {model_dest(item.key).name: item for item in CATALOG}
    for folder in sorted(p for p in root.iterdir() if p.is_dir()):
        item = keys.get(folder.name)
        if item is not None:
            if is_complete(item, folder):
                found.append(InstalledModel(folder, item.key, item.directions))
        elif _has_encoder(folder):
            found.append(InstalledModel(folder, None, folder_directions(folder)))
    return found


def default_nmt_dir(direction: str, bundled_dir: Path | None = None) -> Path | None:
    """The installed model to use for `direction`: in the user model folder, catalog models in
    catalog order, then others; failing that, one bundled with the build."""
    if direction not in DIRECTIONS:
        raise LiveTranslatorError(
            QT_TRANSLATE_NOOP("Errors", "unknown direction '{direction}'"),
            QT_TRANSLATE_NOOP("Errors", "Use one of: {choices}."),
            direction=direction,
            choices=", ".join(DIRECTIONS),
        )
    order = {item.key: i for i, item in enumerate(CATALOG)}
    for root in (None, bundled_dir or BUNDLED_MODELS_DIR):
        installed = [m for m in installed_models(root) if direction in m.directions]
        if installed:
            return min(installed, key=lambda m: order.get(m.key, len(order))).path
    return None
