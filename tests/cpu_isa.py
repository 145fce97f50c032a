"""`pytest --cpu-isa PROFILE`: run the suite as Whisper runs on another kind of x86-64 CPU.

Whisper int8 (CTranslate2) gives other text on marginal audio on other CPUs: CTranslate2's own
kernels dispatch on the instruction set (AVX2 by default, AVX-512 only when asked), and its
matrix products go to Intel MKL on Intel CPUs and to oneDNN elsewhere, which dispatch on their
own. Each profile sets the environment variables that make this CPU compute as that kind of
machine does; child processes (the `python -m app run` tests) inherit them. They are read when
a model first runs, so setting them before any test runs is enough.
docs/development.md, "Running the suite under another CPU instruction set".
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

# profile -> (what it stands for, the environment it sets, CPU flags it needs)
PROFILES = {
    "amd-avx2": (
        "an AVX2-only AMD CPU (EPYC Rome/Milan, Ryzen up to 5000): oneDNN without AVX-512 or VNNI",
        {"CT2_FORCE_CPU_ISA": "AVX2", "CT2_USE_MKL": "0", "ONEDNN_MAX_CPU_ISA": "AVX2"},
        {"avx2"},
    ),
    "avx512": (
        "CTranslate2's own AVX-512 kernels (chosen only when asked for)",
        {"CT2_FORCE_CPU_ISA": "AVX512"},
        {"avx512f", "avx512bw", "avx512dq", "avx512vl"},
    ),
    "intel-mkl": (
        "an Intel CPU: CTranslate2 multiplies through Intel MKL there",
        {"CT2_USE_MKL": "1"},
        {"avx2"},
    ),
    "generic": (
        "no vector extensions: CTranslate2's generic kernels, oneDNN on SSE4.1",
        {"CT2_FORCE_CPU_ISA": "GENERIC", "CT2_USE_MKL": "0", "ONEDNN_MAX_CPU_ISA": "SSE41"},
        {"sse4_1"},
    ),
}
_VARIABLES = ("CT2_FORCE_CPU_ISA", "CT2_USE_MKL", "ONEDNN_MAX_CPU_ISA", "MKL_ENABLE_INSTRUCTIONS")


def cpu_flags() -> set[str]:
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("flags"):
            return set(line.split(":", 1)[1].split())
    return set()


def pytest_addoption(parser):
    parser.addoption(
        "--cpu-isa",
        choices=sorted(PROFILES),
        default=None,
        help="compute Whisper as on another kind of x86-64 CPU: "
        + "; ".join(f"{name}: {about}" for name, (about, _, _) in PROFILES.items()),
    )


def pytest_configure(config):
    name = config.getoption("--cpu-isa")
    if name is None:
        return
    _, environment, needs = PROFILES[name]
    missing = needs - cpu_flags()
    if missing:
        raise pytest.UsageError(
            f"--cpu-isa {name}: this CPU lacks {', '.join(sorted(missing))}. "
            f"Choose a profile it can run ({', '.join(PROFILES)}); lscpu lists its flags."
        )
    os.environ.update(environment)


def pytest_report_header(config):
    chosen = {v: os.environ[v] for v in _VARIABLES if v in os.environ}
    profile = config.getoption("--cpu-isa") or "this CPU's own"
    return f"CPU instruction set: {profile} ({' '.join(f'{k}={v}' for k, v in chosen.items()) or 'library defaults'})"
