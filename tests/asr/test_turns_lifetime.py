"""Whisper's turns belong to one model and live as long as it does (no process-wide cache holding models)."""

import gc
import weakref

from app.asr.turns import turns_for


class Model:  # any object stands for a model here: turns_for only needs its identity
    pass


def test_recognizers_on_one_model_share_its_turns_and_the_turns_go_with_the_model():
    model, other = Model(), Model()
    assert turns_for(model) is turns_for(model)
    assert turns_for(model) is not turns_for(other)
    gone = weakref.ref(model)
    del model
    gc.collect()  # the test's own check that nothing else holds it
    assert gone() is None
