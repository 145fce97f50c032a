"""Resident memory of the window with everything a session loads: both directions' translation
models (the catalog replica of bench_model.py, optimised as the app loads it) and Whisper base.

    .venv/bin/python -m bench.memory [--precisions fp32,int8,int8-wo] [--asr-model base]
    .venv/bin/python -m bench.memory --small --precisions fp32 --asr-model tiny.en   # seconds: tries the bench

Each precision runs in its own process, with the environment the app sets for itself (no torch
behind transformers' tokenizers): the window shown offscreen, then Whisper loaded, then the
en-zh and zh-en models loaded and one sentence translated by each. Printed: RSS after each
stage and the process's peak, against the weights on disk. The zh-en model is the same
replica with its tokenizer config saying zh -> en (the same architecture and size as the
catalog's opus-mt-zh-en). "int8" is the replica whose twins quantize all MatMuls (Xenova),
"int8-wo" the one whose twins quantize the weights only (onnx-community, quantize_q8).
Run bench/translation_speed.py once first (it builds the replica and
optimises it); otherwise the first load here optimises it, and the peak includes that.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
from pathlib import Path

from bench._common import ROOT, bench_command
from bench.bench_model import add_size_option, build


def rss_mb() -> float:
    return int(Path("/proc/self/statm").read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def zh_en_stand_in(en_zh: Path) -> Path:
    """The replica with its tokenizer config turned round: copied (not linked), with new
    modification times, so that it is optimised into cache files of its own and no memory map
    is shared between the two models (two real models share nothing)."""
    folder = en_zh.parent / (en_zh.name + "-as-zh-en")
    if not (folder / "tokenizer_config.json").is_file():
        shutil.rmtree(folder, ignore_errors=True)
        (folder / "onnx").mkdir(parents=True)
        for item in en_zh.rglob("*"):
            if item.is_file() and item.name != "tokenizer_config.json" and item.name != ".done":
                target = folder / item.relative_to(en_zh)
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(item, target)
        config = json.loads((en_zh / "tokenizer_config.json").read_text(encoding="utf-8"))
        config.update(source_lang="zh", target_lang="en")
        (folder / "tokenizer_config.json").write_text(json.dumps(config), encoding="utf-8")
    return folder


def child(precision: str, asr_model: str, en_zh: Path, zh_en: Path) -> None:
    os.environ["QT_QPA_PLATFORM"] = "offscreen"
    os.environ.setdefault("USE_TORCH", "0")  # as app/cli.py does for the window
    os.environ.setdefault("TRANSFORMERS_NO_ADVISORY_WARNINGS", "1")
    stages = {"python": rss_mb()}
    from PySide6.QtWidgets import QApplication

    from app.ui.main_window import MainWindow  # lazy: imported stage by stage, the memory measured after each

    qt = QApplication([])
    window = MainWindow()
    window.show()
    qt.processEvents()
    stages["window shown"] = rss_mb()
    from app.asr.whisper_models import load_whisper  # lazy: stage by stage, as above

    loaded = [load_whisper(asr_model)]  # kept alive until the end, like the translators
    stages[f"+ Whisper {asr_model}"] = rss_mb()
    from app.model_store.optimized import load_translator  # lazy: stage by stage, as above

    int8 = precision.startswith("int8")
    for folder, direction, text in ((en_zh, "en-zh", "Good morning, everyone."), (zh_en, "zh-en", "大家早上好。")):
        translator = load_translator(folder, direction, prefer_quantized=int8)
        translator.translate(text)
        loaded.append(translator)
        stages[f"+ {direction} model, one sentence"] = rss_mb()
    stages["peak"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps(stages), flush=True)
    # Measured; leave without tearing the window down (its model check may still be running).
    os._exit(0)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--precisions", default="fp32,int8,int8-wo")
    parser.add_argument("--asr-model", default="base")
    parser.add_argument("--child", nargs=4, help=argparse.SUPPRESS)
    add_size_option(parser)
    args = parser.parse_args(argv)
    if args.child:
        precision, asr_model, en_zh, zh_en = args.child
        child(precision, asr_model, Path(en_zh), Path(zh_en))
        return 0

    models = build(log=lambda m: print(m, file=sys.stderr, flush=True), size="small" if args.small else "full")
    os.environ["LIVE_TRANSLATOR_CACHE"] = str(models.hf.parent / "app-cache")  # the same cache as translation_speed.py
    replicas = {"fp32": models.onnx_catalog, "int8": models.onnx_catalog, "int8-wo": models.onnx_catalog_q8}
    print(f"{models.shape.describe()}; load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}\n")
    print("| precision | stage | RSS MB |")
    print("|---|---|---|")
    for precision in args.precisions.split(","):
        en_zh = replicas[precision]
        zh_en = zh_en_stand_in(en_zh)
        int8 = precision.startswith("int8")
        glob = "*_quantized.onnx" if int8 else "*.onnx"
        weights = sum(
            p.stat().st_size for p in (en_zh / "onnx").glob(glob) if int8 or not p.stem.endswith("_quantized")
        )
        done = subprocess.run(
            [*bench_command(__spec__.name), "--child", precision, args.asr_model, str(en_zh), str(zh_en)],
            capture_output=True,
            text=True,
            cwd=ROOT,
        )
        if done.returncode != 0:
            print(f"| {precision} | failed: {done.stderr.strip().splitlines()[-1:]} | |")
            continue
        stages = json.loads(done.stdout.strip().splitlines()[-1])
        for stage, mb in stages.items():
            print(f"| {precision} | {stage} | {mb:.0f} |")
        print(f"| {precision} | (weights on disk: 2 x {weights / 2**20:.0f} MiB translation) | |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
