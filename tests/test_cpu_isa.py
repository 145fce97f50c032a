"""`pytest --cpu-isa PROFILE` (tests/cpu_isa.py) reaches Whisper in a child process, as the
`python -m app run` tests need: CTranslate2 and oneDNN report what they chose."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from cpu_isa import cpu_flags

ROOT = Path(__file__).resolve().parents[1]
CHILD = """
import numpy as np
from app.asr import load_whisper
segments, _ = load_whisper("tiny.en").transcribe(np.zeros(16000, np.float32))
list(segments)
"""
ONEDNN_NAMES = {"AVX2": "Intel AVX2", "SSE41": "Intel SSE4.1"}  # how oneDNN reports what it was held to


def intel() -> bool:
    return "GenuineIntel" in Path("/proc/cpuinfo").read_text()


def test_whisper_in_a_child_process_computes_as_the_chosen_profile():
    env = {**os.environ, "CT2_VERBOSE": "1", "ONEDNN_VERBOSE": "1"}
    done = subprocess.run([sys.executable, "-c", CHILD], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    log = done.stdout + done.stderr
    assert done.returncode == 0, log
    forced = os.environ.get("CT2_FORCE_CPU_ISA")
    isa = forced or ("AVX2" if "avx2" in cpu_flags() else "AVX")  # AVX-512 only when asked for
    assert re.search(rf"Selected ISA: {isa}\b", log), log
    mkl = os.environ.get("CT2_USE_MKL", "1" if intel() else "0") == "1"
    backend = re.search(r"GEMM_S8 backend: (\w+)", log).group(1)
    assert backend == ("MKL" if mkl else "DNNL"), log
    held = ONEDNN_NAMES.get(os.environ.get("ONEDNN_MAX_CPU_ISA", ""))
    if held and not mkl:
        assert f"isa:{held}\n" in log, log  # not its own best (AVX-512 with VNNI on this AMD EPYC)
