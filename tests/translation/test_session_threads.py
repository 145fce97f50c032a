"""The engine's onnxruntime threads work during a step and rest between them."""

from __future__ import annotations

import os
import threading
import time

from app.translation import DecodeOptions, Translator

from .conftest import family_dir


def native_threads() -> set[int]:
    """The kernel's ids of this process's threads, onnxruntime's own (not Python threads) included."""
    return {int(tid) for tid in os.listdir("/proc/self/task")}


def cpu_ms(threads: set[int]) -> float:
    """CPU time these threads have used, each read from its own CPU clock: the clock id Linux
    makes of a thread id (what pthread_getcpuclockid returns, for threads Python did not start)."""
    total = 0.0
    for tid in threads:
        try:
            total += time.clock_gettime((~tid << 3) | 6)  # MAKE_THREAD_CPUCLOCK(tid, CPUCLOCK_SCHED)
        except OSError:
            pass  # the thread has ended: it uses no more
    return total * 1000


def test_threads_do_not_spin_after_a_translation():
    """Intra-op threads spin inside a run (cheap wake-ups between ops) but must not keep a core
    busy once it ends: beside Whisper and the window that core is needed. With spinning left on
    after the run, this process burned ~45 ms of CPU in the 300 ms below. Only the translator's
    own threads (its sessions' thread pools, and this thread) are measured: other threads of the
    test process, left by earlier tests, do not count."""
    before = native_threads()
    t = Translator.load(str(family_dir("marian-en-zh") / "merged"), "en-zh")  # its own sessions, not a cached one's
    t.translate("The weather will be cold tomorrow.", DecodeOptions(num_beams=2, loop_window=0))
    pools = native_threads() - before
    assert pools, "the sessions started no intra-op threads: nothing here would show them spinning"
    threads = pools | {threading.get_native_id()}
    start = cpu_ms(threads)
    time.sleep(0.3)  # time is what is tested: the CPU the idle threads burn meanwhile
    assert cpu_ms(threads) - start < 10
