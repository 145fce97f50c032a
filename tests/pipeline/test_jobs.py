"""The job board's rules (app/pipeline/jobs.py: when a recognised text is translated), one by one,
with the events recognition emits and the threads that use the board."""

from __future__ import annotations

import threading

from app.pipeline.jobs import SKIP_PROVISIONAL_BEHIND_S, Job, JobBoard
from app.shared.events import SourceFinal, SourcePartial
from app.shared.languages import Direction

EN_ZH, ZH_EN = Direction.EN_ZH, Direction.ZH_EN


def partial(uid: int, text: str, direction: Direction = EN_ZH) -> Job:
    return Job(SourcePartial(utterance_id=uid, text=text, start=0.0, end=1.0, committed=""), direction)


def final(uid: int, text: str, direction: Direction = EN_ZH) -> Job:
    return Job(SourceFinal(utterance_id=uid, text=text, start=0.0, end=1.0, speech_end_at=0.0), direction)


def board(**options) -> JobBoard:
    return JobBoard(EN_ZH, **{"max_finals": 32, **options})


def taken(jobs: JobBoard) -> list[str]:
    """Every job's text, in the order the worker takes them, once input has ended."""
    jobs.end_input()
    texts = []
    while (running := jobs.take()) is not None:
        texts.append(running.job.event.text)
        jobs.done(running)
    return texts


def test_finals_first_in_order_then_only_the_latest_partial():
    jobs = board()
    jobs.offer_partial(partial(3, "Where"))
    jobs.offer_partial(partial(3, "Where is"))
    jobs.submit_final(final(1, "Good morning."))
    jobs.submit_final(final(2, "I love you."))
    assert taken(jobs) == ["Good morning.", "I love you.", "Where is"]


def test_a_partial_whose_final_is_in_is_never_translated():
    jobs = board()
    jobs.offer_partial(partial(1, "Good"))
    jobs.submit_final(final(1, "Good morning."))  # drops the waiting partial of its utterance
    assert taken(jobs) == ["Good morning."]
    jobs = board()
    jobs.submit_final(final(1, "Good morning."))
    running = jobs.take()
    jobs.done(running)
    jobs.offer_partial(partial(1, "Good morning"))  # late: its final was translated already
    assert taken(jobs) == []


def test_partials_are_dropped_after_a_direction_switch_or_while_recognition_lags():
    jobs = board()
    jobs.offer_partial(partial(1, "Good"))
    jobs.switch_direction(ZH_EN)  # drops the waiting partial...
    jobs.offer_partial(partial(1, "Good morning", EN_ZH))  # ...and any heard in the old direction
    assert taken(jobs) == []
    jobs = board()
    jobs.behind_s = SKIP_PROVISIONAL_BEHIND_S + 0.1
    jobs.offer_partial(partial(1, "Good"))
    jobs.submit_final(final(2, "I love you."))
    assert taken(jobs) == ["I love you."], "finals only while recognition catches up"


def test_partials_are_not_offered_when_the_session_translates_finals_only():
    jobs = board(translate_partials=False)
    jobs.offer_partial(partial(1, "Good"))
    assert taken(jobs) == []


def test_a_final_cancels_a_provisional_decode_unless_it_is_the_same_decode():
    same = lambda provisional, final: provisional.event.text == final.event.text  # noqa: E731
    jobs = board(same_decode=same)
    jobs.offer_partial(partial(1, "Good morning."))
    running = jobs.take()
    jobs.submit_final(final(1, "Good morning."))
    assert not running.cancel.is_set(), "the final waits for its own decode and reuses it"
    jobs.done(running)
    jobs.done(jobs.take())  # the final
    jobs.offer_partial(partial(2, "I love"))
    running = jobs.take()
    jobs.submit_final(final(2, "I love you."))
    assert running.cancel.is_set()


def test_a_direction_switch_cancels_a_provisional_decode_and_close_cancels_any():
    jobs = board()
    jobs.offer_partial(partial(1, "Good"))
    provisional = jobs.take()
    jobs.switch_direction(ZH_EN)
    assert provisional.cancel.is_set()
    jobs.done(provisional)
    jobs.submit_final(final(1, "Good morning."))
    running = jobs.take()
    jobs.switch_direction(EN_ZH)
    assert not running.cancel.is_set(), "a final is finished in the direction it was heard in"
    jobs.close()
    assert running.cancel.is_set() and jobs.take() is None


def test_recognition_waits_for_room_and_close_releases_it():
    jobs = board(max_finals=1)
    jobs.submit_final(final(1, "Good morning."))
    submitted = threading.Event()
    waiting = threading.Thread(target=lambda: (jobs.submit_final(final(2, "I love you.")), submitted.set()))
    waiting.start()
    assert not submitted.wait(0.3), "a second final fits in a board of one"
    first = jobs.take()  # room again
    assert submitted.wait(5) and first.job.event.text == "Good morning."
    jobs.done(first)
    blocked = threading.Thread(target=jobs.submit_final, args=(final(3, "See you."),))  # full again: it waits...
    blocked.start()
    jobs.close()  # ...until the session stops
    blocked.join(5)
    assert not blocked.is_alive()
    waiting.join()
