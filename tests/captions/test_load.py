"""A real pipeline run watched by 50 event-stream pages and one that never reads.

The latency comparison with a run without pages is a benchmark (bench/captions_load.py, in
docs/performance.md); here: the pipeline's observer never waits, every reading page gets every final
caption, the page that does not read costs a bounded amount, and the run's results are those
of a run without pages."""

from __future__ import annotations

import time

import pytest
from pipeline.conftest import Run

from app.pipeline import PipelineConfig
from tests.waiting import wait_until

from .conftest import SPOKEN_EN, Readers, english, expected, open_stream

pytestmark = pytest.mark.slow

FINAL_MARK = b'"translation_final": true'


class Timed:
    """Wraps an observer and keeps how long each call took (seconds)."""

    def __init__(self, observer):
        self.observer, self.times = observer, []

    def __call__(self, event) -> None:
        started = time.perf_counter()
        self.observer(event)
        self.times.append(time.perf_counter() - started)


def test_fifty_pages_and_a_dead_one_during_a_run(recording, phrasebook, recognizer, serve):
    wav = recording("load-en", english())
    server = serve(queue_size=32)
    readers = Readers([open_stream(server) for _ in range(50)], mark=FINAL_MARK)
    stuck = open_stream(server, receive_buffer=4096)
    wait_until(lambda: server.stats()["clients"] == 51, "51 pages connected", 10)
    try:
        observer = Timed(server.on_event)
        config = PipelineConfig(
            direction="en-zh", input_path=wav, realtime=False, tts_enabled=False, nmt_models=dict(phrasebook)
        )
        run = Run(config, recognizer=recognizer)
        collect = run.pipeline.on_event
        run.pipeline.on_event = lambda event: (collect(event), observer(event))
        queued = []
        run.pipeline.start()
        while not run.pipeline.wait_until_done(0.2):
            queued.append(server.stats()["queued"])
        run.pipeline.stop()

        finals = [t.text for t in run.translations()]
        assert finals == expected(SPOKEN_EN, "en-zh")
        wait_until(
            lambda: readers.counts == [len(finals)] * 50, "every final on all 50 pages", 20, seen=lambda: readers.counts
        )
        # The pipeline's side of the server: a hand-over to another thread, whatever the pages do
        # (a wait on the dead page would last its 10 s write timeout; the slowest call here is
        # the machine's scheduling noise).
        ordered = sorted(observer.times)
        assert ordered[len(ordered) // 2] < 0.001 and ordered[-1] < 1.0, (ordered[len(ordered) // 2], ordered[-1])
        assert max(queued, default=0) <= 51 * 32
        assert server.stats()["clients"] + server.stats()["dropped"] == 51
    finally:
        readers.close()
        stuck.close()
