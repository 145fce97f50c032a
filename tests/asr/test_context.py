"""The context a final decode gets (app.asr.context): the last utterances' audio and text, the finals before."""

import functools
import re

import numpy as np
import pytest

from app.asr.context import FinalContext
from app.asr.decoding import Hearing
from app.asr.guards import heard_in, sentences_of
from app.asr.options import RecognizerOptions
from app.asr.units import normalized
from app.asr.window import Decoded, decode_window
from app.shared.chinese import ChineseScript
from app.shared.languages import Language

from .conftest import read16k

RATE = 16000


def tone(seconds: float, value: float) -> np.ndarray:
    return np.full(int(seconds * RATE), value, np.float32)


def test_the_last_utterances_go_first_and_the_finals_before_them_are_the_prompt():
    context = FinalContext()
    assert context.around(tone(1, 0.3), keep=200, seconds=15)[1:] == (None, None, None)  # nothing yet
    for value, text in ((0.1, "One."), (0.2, "Two."), (0.25, "Three.")):
        context.remember(tone(1, value), text, keep=200)
    audio, prompt, prefix, _ = context.around(tone(1, 0.3), keep=200, seconds=15)
    assert (prompt, prefix) == (None, "One. Two. Three.")
    assert len(audio) == 4 * RATE + 3 * RATE  # three utterances, each with a second's gap, then this one
    assert audio[0] == np.float32(0.1) and audio[RATE + 100] == 0.0 and audio[2 * RATE] == np.float32(0.2)
    audio, prompt, prefix, _ = context.around(tone(1, 0.3), keep=200, seconds=5)  # room for one more
    assert (prompt, prefix, len(audio)) == ("One.", "Two. Three.", 5 * RATE)


@pytest.mark.parametrize(
    "way, prompt, prefix, start_s",
    [
        ("prefix", None, "One. Two. Three.", None),
        ("timestamp", "One. Two. Three.", None, 6.0),  # written from this utterance on
    ],
)
def test_each_way_gives_the_same_audio_and_says_where_the_decoder_writes_from(way, prompt, prefix, start_s):
    context = FinalContext()
    for value, text in ((0.1, "One."), (0.2, "Two."), (0.25, "Three.")):
        context.remember(tone(1, value), text, keep=200)
    audio, *given = context.around(tone(1, 0.3), keep=200, seconds=15, way=way)
    assert given == [prompt, prefix, start_s] and len(audio) == 7 * RATE
    assert audio[int(4.0 * RATE)] == np.float32(0.25) and audio[int(4.0 * RATE) - 1] == 0.0  # "Three." starts
    with pytest.raises(ValueError, match="prefix, timestamp"):
        context.around(tone(1, 0.3), keep=200, seconds=15, way="suffix")


def test_the_previous_utterance_goes_first_however_long_within_whispers_window():
    context = FinalContext()
    context.remember(tone(1, 0.1), "One.", keep=200)
    context.remember(tone(20, 0.2), "Two.", keep=200)
    audio, prompt, prefix, _ = context.around(tone(5, 0.3), keep=200, seconds=15)  # 26 s
    assert (prompt, prefix, len(audio)) == ("One.", "Two.", 26 * RATE)


def test_too_long_together_the_previous_text_joins_the_prompt_instead():
    context = FinalContext()
    context.remember(tone(1, 0.1), "One.", keep=200)
    context.remember(tone(20, 0.2), "Two.", keep=200)
    audio, prompt, prefix, _ = context.around(tone(9, 0.3), keep=200, seconds=15)  # 29 s: past Whisper's window
    assert (prompt, prefix, len(audio)) == ("One. Two.", None, 9 * RATE)
    assert context.around(tone(9, 0.3), keep=4, seconds=15)[1] == "Two."  # at most `keep` characters


def test_the_prompt_keeps_the_latest_characters_and_nothing_empty():
    context = FinalContext()
    for text in ("First sentence.", "", "Second one.", *(f"{n}." for n in range(3, 11))):
        context.remember(tone(1, 0.1), text, keep=11)
    assert context.text == "Second one."  # the two before the last eight: their audio is not kept
    assert [said for _, said in context.kept] == [f"{n}." for n in range(3, 11)]
    context.remember(tone(1, 0.1), "Not kept.", keep=0)  # 0: no context in this language
    assert context.kept[-1][1] == "10."
    context.forget()
    assert (context.text, list(context.kept)) == ("", [])


@pytest.mark.parametrize(
    "final, kept",
    [
        ("please leave your coat like the floor", "Please leave your coat like the floor."),
        ("music helps me relax after work.", "Music helps me relax after work."),
        ("Could you speak a little more slowly?", "Could you speak a little more slowly?"),
        ("Good morning. How are", "Good morning. How are"),  # cut mid-sentence: as said
        ("他是我的朋友", "他是我的朋友。"),  # Chinese is closed too
        ("我们走吧！", "我们走吧！"),
    ],
)
def test_a_final_in_lower_case_goes_into_the_prefix_as_a_sentence(final, kept):
    # In noise one final heard in lower case without a full stop made every final after it so.
    context = FinalContext()
    context.remember(tone(1, 0.1), final, keep=200)
    assert context.around(tone(1, 0.3), keep=200, seconds=15)[2] == kept


def test_chinese_finals_are_joined_without_spaces():
    context = FinalContext()
    for text in ("我爱你", "Hello.", "这个多少钱？", "谢谢"):
        context.remember(tone(1, 0.1), text, keep=200)
    assert context.around(tone(1, 0.3), keep=200, seconds=15)[2] == "我爱你。Hello. 这个多少钱？谢谢。"
    assert context.around(tone(1, 0.3), keep=200, seconds=3)[1] == "我爱你。Hello. 这个多少钱？"  # the prompt too


def test_audio_is_kept_for_whispers_window_at_most():
    context = FinalContext()
    for n in range(4):
        context.remember(tone(9, 0.1), f"{n}.", keep=200)
    assert [said for _, said in context.kept] == ["1.", "2.", "3."] and context.text == "0."


@pytest.mark.parametrize(
    "previous, final, echo",
    [
        ("He plays the guitar in a small band.", "He plays the guitar with a small band.", True),  # -6 dB, base
        ("Declazed are guitar with a small pen. Dec", "Declazed are guitar with a small pen.", True),  # 5 dB
        ("Declazed are guitar with a small pen.", "Declazed are guitar with a small pen. Decla", True),
        ("He plays the guitar in a small band.", "The results will be ready by Monday morning.", False),
        ("铁铁铝铝铝", "铁铝铁铝铝铁铝铝铁铝", True),  # Mandarin at SNR 5 dB: the same characters, shuffled
        ("他是我的朋友。", "我们是朋友。", False),
        # Short: only the last sentence again is an echo, read alone (a speaker's "Yes." again is
        # "Yes." again alone); "The Q." for "Front, center." after a radio call, SNR 5 dB
        ("Yes.", "Yes.", True),
        ("Hello, calling the Q. The Q.", "The Q.", True),
        ("Hello, calling the Q. The Q.", "Front, center.", False),
        ("The Q. Over.", "The Q.", False),
        ("We met on Monday.", "We met on Monday and then again on Friday after the talk.", False),
        ("我们下周去北京。", "我们下周去北京。", True),
        # A countdown after a count (codec2-examples' vk5qi): the same digits shuffled, said
        ("Quebec Italy testing 1, 2, 3, 4, 5.", "5 4 3 2 1", False),
        ("Quebec Italy testing 1, 2, 3, 4, 5.", "1, 2, 3, 4, 5.", True),
    ],
)
def test_a_final_that_says_the_previous_one_again_is_an_echo(previous, final, echo):
    context = FinalContext()
    assert not context.echoes(final)  # nothing before: nothing to echo
    context.remember(tone(1, 0.1), previous, keep=200)
    assert context.echoes(final) is echo


def test_a_final_that_says_several_of_the_last_finals_again_is_an_echo():
    # tiny.en, six phrases said four times, given the utterances before: their sentences again.
    context = FinalContext()
    for text in ("The computer is broken.", "See you tomorrow.", "Good morning.", "Thank you.", "I love you."):
        context.remember(tone(1, 0.1), text, keep=200)
    assert context.echoes("The computer is broken. I love you. The computer is broken.")
    assert not context.echoes("The results will be ready by Monday morning.")


def test_a_final_that_says_one_of_the_last_finals_again_is_an_echo():
    # Mandarin at SNR 5 dB, with the finals before as the prompt: 他是你的朋友 four finals after 他是我的朋友.
    context = FinalContext()
    for text in ("他是我的朋友。", "我们走吧。", "我每天早上喝茶。", "天天天气很好。"):
        context.remember(tone(1, 0.1), text, keep=200)
    assert context.echoes("他是你的朋友。") and not context.echoes("谢谢你的帮助。")
    for text in ("谢谢你的帮助。", "请坐。", "我想喝水。", "再见。", "你好吗？"):
        context.remember(tone(1, 0.1), text, keep=200)  # the finals the prefix may hold: the first is out
    assert not context.echoes("他是你的朋友。")
    context.forget()
    assert not context.echoes("谢谢你的帮助。")


def test_a_restart_the_previous_final_ends_with_is_not_forced_as_the_next_prefix():
    context = FinalContext()
    context.remember(tone(1, 0.1), "He plays the guitar in a small band. He pl", keep=200)
    assert context.around(tone(1, 0.3), keep=200, seconds=15)[2] == "He plays the guitar in a small band."
    context.remember(tone(1, 0.1), "Good morning. How are", keep=200)  # not a restart: as said
    assert context.around(tone(1, 0.3), keep=200, seconds=15)[2].endswith("band. Good morning. How are")
    # The sentence started over, not its last clause: given "These days", Whisper base wrote "a
    # chicken of a red dish." again (codec2-examples' Harvard sentences, SNR 5 dB)
    context.forget()
    context.remember(tone(1, 0.1), "These days, a chicken of a red dish. These days", keep=200)
    assert context.around(tone(1, 0.3), keep=200, seconds=15)[2] == "These days, a chicken of a red dish."


def pink(seconds_of: np.ndarray, snr_db: float, seed: int) -> np.ndarray:
    spectrum = np.fft.rfft(np.random.default_rng(seed).standard_normal(len(seconds_of)))
    noise = np.fft.irfft(spectrum / np.sqrt(np.maximum(np.arange(len(spectrum)), 1)), len(seconds_of))
    return (noise * np.sqrt(np.mean(seconds_of**2) / np.mean(noise**2) / 10 ** (snr_db / 10))).astype(np.float32)


def final_in_context(model, previous: tuple[np.ndarray, str], audio: np.ndarray) -> str:
    context = FinalContext()
    context.remember(*previous, keep=200)
    hearing = Hearing(model, RecognizerOptions(), Language.EN, ChineseScript.SIMPLIFIED, True, context)
    return hearing.heard(np.concatenate([tone(0.4, 0.0), audio, tone(0.2, 0.0)])).text


def test_a_final_in_noise_does_not_echo_the_one_before(say, base):
    # Whisper base, given "He plays the guitar ..." as context, read it again for the next
    # sentence under pink noise at -6 dB; as the following prefix such an echo went on.
    before = read16k(say("He plays the guitar in a small band.", "en-us"))
    after = read16k(say("The results will be ready by Monday morning.", "en-us"))
    for snr in (-4, -6, -8):
        text = final_in_context(base, (before, "He plays the guitar in a small band."), after + pink(after, snr, 0))
        assert "guitar" not in text, (snr, text)
    clean = final_in_context(base, (before, "He plays the guitar in a small band."), after)
    assert normalized(clean) == "theresultswillbereadybymondaymorning"  # clean speech keeps its context


def test_a_forced_timestamp_makes_the_decoder_write_from_the_utterance_on(say, base):
    """RecognizerOptions.context_way "timestamp": the context's text is the prompt and one timestamp is
    forced where the utterance starts: the decoder writes the utterance only, not the context's
    audio before it in the window (which it reads without the timestamp)."""
    before = read16k(say("He plays the guitar in a small band.", "en-us"))
    after = read16k(say("The results will be ready by Monday morning.", "en-us"))
    window = np.concatenate([before, tone(1, 0.0), tone(0.4, 0.0), after, tone(0.2, 0.0)])
    start_s = (len(before) + RATE) / RATE
    read = functools.partial(
        decode_window, base, window, "en", margin_s=3.0, beam_size=1, max_new_tokens=60, min_s=10.0
    )
    assert "guitar" in read().text.lower()  # the whole window, as a decoder reads it
    assert normalized(read(start_s=start_s).text) == "theresultswillbereadybymondaymorning"
    prompt = "He plays the guitar in a small band."
    from_there = read(prompt=prompt, start_s=start_s)
    assert normalized(from_there.text) == "theresultswillbereadybymondaymorning"
    assert not from_there.hit_budget
    with pytest.raises(ValueError, match="prompt"):  # the hybrid: base often ended after the forced text
        read(start_s=start_s, prefix=prompt)
    options = RecognizerOptions(context_way={"en": "timestamp"})
    context = FinalContext()
    context.remember(before, prompt, keep=200)
    heard = Hearing(base, options, Language.EN, ChineseScript.SIMPLIFIED, True, context).heard(
        np.concatenate([tone(0.4, 0.0), after, tone(0.2, 0.0)])
    )
    assert normalized(heard.text) == "theresultswillbereadybymondaymorning"


def test_a_final_after_a_long_forced_context_is_written_to_its_end_and_its_budget_is_exact(say, base):
    """CTranslate2 caps a Whisper result (forced tokens included) at half its max_length: with
    `len(prompt) + budget`, three sentences of forced context left a 3 s utterance 10 tokens
    ("... by Monday morning" without "at 9.", and no loop flagged)."""
    said = [
        "Thank you for coming to the conference today.",
        "The museum is closed on Tuesdays and Wednesdays.",
        "Music helps me relax after a long day at work.",
    ]
    now = read16k(say("The results will be ready by Monday morning at nine.", "en-us"))
    window = np.concatenate([part for text in said for part in (read16k(say(text, "en-us")), tone(1, 0.0))] + [now])
    read = functools.partial(decode_window, base, window, "en", margin_s=3.0, beam_size=1, min_s=10.0)
    budget = int(10 + RecognizerOptions().tokens_per_s * len(now) / RATE)  # as app.asr.decoding.decoded counts it
    whole = read(max_new_tokens=budget, prefix=" ".join(said))
    assert re.search("mondaymorningat(9|nine)$", normalized(whole.text)) and not whole.hit_budget, whole
    for prefix in (None, " ".join(said)):  # the budget is what the decoder writes after the forced tokens
        cut = read(max_new_tokens=3, prefix=prefix)
        assert cut.hit_budget, (prefix, cut)
        assert len(cut.text.split()) - len(prefix.split() if prefix else []) == 3, (prefix, cut)


def test_a_final_after_a_restart_does_not_go_on_from_its_fragment(say, base):
    before = read16k(say("He plays the guitar in a small band.", "en-us"))
    after = read16k(say("The results will be ready by Monday morning.", "en-us"))
    text = final_in_context(base, (before, "Declazed are guitar with a small pen. Dec"), after)
    assert normalized(text) == "theresultswillbereadybymondaymorning"  # not "lazed will be ready ..."


@pytest.mark.parametrize(
    "decoded, prefix, heard",
    [
        # A final decoded after its context (telephone band, Mandarin): the utterance said twice.
        (" 我们就怕 我每天造康和他 我每天造康和他", "我们就怕", "我每天造康和他"),
        (
            " Please sit down. Welcome to the meeting. Welcome to the meeting.",
            "Please sit down.",
            "Welcome to the meeting.",
        ),
        (" Please sit down. 8888 8888", "Please sit down.", "8888 8888"),  # a number in two groups: as said
    ],
)
def test_an_utterance_said_twice_after_the_forced_prefix_is_said_once(decoded, prefix, heard):
    segment = Decoded(decoded, avg_logprob=-0.2, no_speech_prob=0.01)
    kwargs = dict(
        sure_logprob=-0.4, no_speech_logprob=-1.0, unsure_word_p=0.5, hotwords=None, audio_s=3.0, hit_budget=False
    )
    language = "zh" if "我" in decoded else "en"
    assert heard_in([segment], language, ChineseScript.SIMPLIFIED, prefix=prefix, **kwargs).text == heard


def test_a_final_that_comes_to_nothing_in_context_is_read_alone(base):
    """bench/rooms.py's real voices, clipped (peaks 12 dB over full scale): a radio call (codec2-
    examples' cq_ref) after "... testing 1, 2, 3, 4, 5. 5 4 3 2 1". Given that utterance's audio and
    text and the finals before as the prompt, Whisper base took the call for the end of "5 4 3 2 1"
    in every decode, the 30 s window's too, and the call was lost. Cut as the app's VAD cut them."""
    from bench import degrade, rooms  # lazy: the bench's reader of the installed recordings

    clips = [rooms.human_clip(path) for path in rooms.HUMAN]
    talk = rooms.Talk("human", "en", clips, [], "en-zh")
    clipped = degrade.CONDITIONS["clipping +12dB"](talk.audio(), 0.0, None).astype(np.float32)
    call_end = round(talk.spans()[rooms.HUMAN.index(rooms.CODEC2 / "cq_ref.raw")][1] * RATE)
    countdown = clipped[call_end - 217248 : call_end - 166560]  # "5 4 3 2 1", the end of vk5qi
    context = FinalContext()
    context.remember(countdown, "5 4 3 2 1", keep=200)
    context.text = "Hi, this is Krista. I'm scammed in November 1. I'll follow my fox. This is Victor Kilo 5."
    context.text += " Quebec Italy Victor Kilo 5. Quebec Italy testing 1, 2, 3, 4, 5."
    hearing = Hearing(base, RecognizerOptions(), Language.EN, ChineseScript.SIMPLIFIED, True, context)
    for end in (call_end, call_end + 6400):  # the VAD's cut moves with the noise: both lost it
        assert "CQ" in hearing.heard(clipped[end - 139136 : end]).text


def finals_of_the_bench_talk(name: str, condition: str, base, tmp_path) -> set[str]:
    """The finals (normalized) of bench/rooms.py's talk `name` ("en" or "zh") under
    `condition`, cut by the app's VAD, with the default options; each final keeps its own sentence's
    words or characters (its placed error rate is the whole text's: none is read in another
    sentence's final)."""
    from bench import degrade, rooms  # lazy: the bench's talk and its conditions

    talk = rooms.make_talk(name, tmp_path, None, base)
    audio = degrade.CONDITIONS[condition](talk.audio(), degrade.speech_power(talk.clips), np.random.default_rng(41))
    events = rooms.recognizer_finals(np.clip(audio, -1, 1).astype(np.float32), talk, base, "")
    finals = [e for e in events if e["type"] == "final" and e["text"].strip()]
    in_order = rooms.error_rate(talk.references, rooms.finals_text(finals), talk.language)
    assert rooms.placed_error_rate(talk, finals) == pytest.approx(in_order)
    return {normalized(e["text"]) for e in finals}


def test_noisy_finals_given_the_utterances_before_hear_as_the_whole_file_does(base, tmp_path):
    """bench/rooms.py's English talk under pink noise at SNR 5 dB, cut by the app's VAD. Given only
    the utterance before as context, Whisper base heard "The kitchen leaves are new table ..." and,
    after a final ending in a restart, "The results will be maybe I can make more of them."; the
    whole file's reading hears both right, and so do finals given the utterances before. Each
    final keeps its sentence's words: with 0.3 s between them, the decoder moved "every hour" into
    the next final."""
    heard = finals_of_the_bench_talk("en", "pink 5dB", base, tmp_path)
    assert "theresultswillbereadybymondaymorning" in heard, heard
    # CPUs differ on the other (an AVX2-only EPYC: "porch air", the whole file's reading there too;
    # "Our team finished the project today early" with only the utterance before)
    assert heard & {"thekitchenneedsanewtableandfourchairs", "ourteamfinishedtheprojecttwodaysearly"}, heard


def test_mandarin_finals_given_the_utterances_before_hear_an_overdriven_microphone(base, tmp_path):
    """bench/rooms.py's Mandarin talk clipped (+12 dB into a hard limit), cut by the app's VAD. With
    only the utterance before as context, Whisper base heard 今天天气很好 as "净净净起饭包" and 请坐 as
    "先坐"; given the utterances before (10 s), as the whole file's reading does, it hears both."""
    heard = finals_of_the_bench_talk("zh", "clipping +12dB", base, tmp_path)
    assert {"今天天气很好", "请坐"} <= heard, heard


def human_finals(condition: str, base) -> tuple[list[dict], tuple[float, float]]:
    """bench/rooms.py's real voices under `condition`, cut by the app's VAD, with the default
    options: the finals (as `run --json` writes them), and where the radio call (codec2-examples'
    cq_ref, 9 s) starts and ends in the talk."""
    from bench import degrade, rooms  # lazy: the bench's reader of the installed recordings

    clips = [rooms.human_clip(path) for path in rooms.HUMAN]
    talk = rooms.Talk("human", "en", clips, [], "en-zh")
    audio = degrade.CONDITIONS[condition](talk.audio(), degrade.speech_power(clips), np.random.default_rng(41))
    events = rooms.recognizer_finals(np.clip(audio, -1, 1).astype(np.float32), talk, base, "")
    finals = [e for e in events if e["type"] == "final" and e["text"].strip()]
    return finals, talk.spans()[rooms.HUMAN.index(rooms.CODEC2 / "cq_ref.raw")]


def assert_the_call_keeps_its_words(finals: list[dict], call: tuple[float, float]) -> str:
    """The finals placed in the call (by their middle, as bench/rooms.py places them) hold a word a
    second or more, and the first final after it ("Front, center.") none of the call's ("CQ", or
    "DQ" as base may hear it). Returns the call's text."""
    start, end = call

    def middle(e) -> float:
        return (e["start"] + e["end"]) / 2

    said = " ".join(e["text"] for e in finals if start <= middle(e) <= end)
    assert len(said.split()) >= end - start, finals
    after = [normalized(e["text"]) for e in finals if middle(e) > end]
    assert after and not any(word in after[0] for word in ("cq", "dq")), after
    return said


def test_a_radio_call_read_only_in_part_is_read_again_so_the_next_final_keeps_its_own_words(base):
    """bench/rooms.py's real voices clipped (+12 dB into a hard limit; 8 kHz, so read narrowband).
    The final of 9 s of a radio call came to nothing in context, and read alone Whisper stopped
    after "CQ, CQ," (the 30 s window) or "CQ CQ" (the short one, an AVX2-only EPYC); the next final,
    "Front, center.", given that as its context, read the rest of the call first. A reading still
    that short is read on from itself: the call keeps its words, "Front, center." its own."""
    said = assert_the_call_keeps_its_words(*human_finals("clipping +12dB", base))
    assert "standingby" in normalized(said), said


def test_a_final_far_shorter_than_its_audio_is_read_alone(base):
    """bench/rooms.py's real voices through a telephone band (300-3400 Hz), cut by the app's VAD.
    Given the utterances before, Whisper base took 9 s of a radio call ("... Quebec Italy testing
    1, 2, 3, 4, 5") for the end of the one before, wrote "trash on the street." and stopped."""
    finals, _ = human_finals("telephone band", base)
    assert any("testing" in e["text"].lower() for e in finals), finals


def test_a_final_that_loops_on_the_short_window_and_stops_short_in_context_is_read_through_30_s(base):
    """bench/rooms.py's real voices under pink noise at SNR 5 dB, cut by the app's VAD. In context
    Whisper base wrote a few words of the radio call (9.4 s: "Hello, the Q. The Q is fine."); alone
    on the short window it looped on "DQ, DQ, DQ" (cut by the loop guard to "Hello, DQ, D"), and the
    finals after it took the call's words ("Front, center." read "DQ,"). A final still far too short
    is read through Whisper's 30 s window too. (CPUs differ in the words: an AVX2-only EPYC reads
    "Hello, CQ. CQ, CQ is on CQ, which is K89Q. ...".)
    No final says again what the one before it ended with: given "These days, a chicken of a red
    dish. These days", the next final began "a chicken of a red dish."; after the call ended "The
    Q.", "Front, center." and "Rear, left." came as "The Q." three times."""
    finals, call = human_finals("pink 5dB", base)
    assert_the_call_keeps_its_words(finals, call)
    assert normalized(" ".join(e["text"] for e in finals)).count("chicken") <= 1, finals  # said once
    for before, after in zip(finals, finals[1:]):
        assert normalized(after["text"]) != normalized(sentences_of(before["text"])[-1]), (before, after)


def test_mandarin_under_other_voices_is_heard_where_whisper_half_thinks_it_is_not_speech(base, tmp_path):
    """bench/rooms.py's Mandarin talk under café babble (four English voices) at SNR 10 dB: the
    voices fill the pauses, so the VAD cut 12-13 s utterances. Whisper base read the first as
    "我爱你,这个……,我不知道,……,我们走吧" with a no-speech probability of 0.64 and an average
    log-prob of -0.74, and the guard dropped it as no speech (its bar was -0.5, not faster-whisper's
    -1.0): the talk's finals were "我爱你," and nothing else."""
    from app.asr.units import units_of
    from bench import degrade, rooms  # lazy: the bench's talk and its conditions

    talk = rooms.make_talk("zh", tmp_path, None, base)
    audio = degrade.CONDITIONS["babble 10dB"](talk.audio(), degrade.speech_power(talk.clips), np.random.default_rng(41))
    finals = rooms.finals_text(rooms.recognizer_finals(np.clip(audio, -1, 1).astype(np.float32), talk, base, ""))
    # most of the talk's 47 characters come through (CPUs differ on a word: 我们走他 with Intel MKL)
    assert "我不知道" in finals and len(units_of(finals)) >= 30, finals
