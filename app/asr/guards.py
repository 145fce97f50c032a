"""What one Whisper decode heard, through the guards against what Whisper invents: its phrases on
silence and noise, repetition loops (cut only when the decoder looped: app.asr.guards.decode_looped),
a short utterance said twice, a sentence said again right after itself, decodes it thinks hold no
speech, and English guesses in a Chinese decode. Also where in the text its unsure words are."""

from __future__ import annotations

import re
import zlib
from dataclasses import dataclass, field

from app.asr.units import HAN, HAN_RANGES, drop_prefix, normalized, units_of
from app.shared.chinese import ChineseScript, to_script, to_simplified
from app.shared.languages import Language

# Whisper's well-known inventions on silence and noise (credits from its subtitle training
# data), matched on Simplified text. Dropped whenever they appear: nobody says them to a live
# translator. Plain words such as 字幕 or 订阅 alone are left alone: people do say those.
_ALWAYS_HALLUCINATED = re.compile(
    r"字幕\s*(by|由|提供|制作|志愿)|中文字幕|字幕组|请不吝|点赞.{0,8}订阅|订阅.{0,8}(转发|打赏)|明镜与点点|"
    r"优优独播|YoYo Television|Amara|subtitles? by|captions? by|transcribed by",
    re.IGNORECASE,
)
# These are real phrases, but also what Whisper hears in a breath or a door: kept only when sure.
_WEAK_PHRASES = {
    "thankyou",
    "thankyouverymuch",
    "thanks",
    "thanksforwatching",
    "thankyouforwatching",
    "bye",
    "byebye",
    "you",
    "so",
    "okay",
    "ok",
    "oh",
    "um",
    "uh",
    "hmm",
    "pleasesubscribe",
    "illseeyouinthenextvideo",
    "谢谢",
    "谢谢观看",
    "谢谢大家",
    "感谢观看",
    "谢谢收看",
    "嗯",
    "啊",
    "好",
    "拜拜",
}
_LOOP = re.compile(r"(.{2,40}?)(?:[\s,，、。.]*\1){3,}")  # a phrase said four or more times in a row
_CHAR_LOOP = re.compile(r"(\w)\1{4,}")  # one character five or more times in a row
# Whisper's own measure of a decode that repeats itself: transcribe calls a text that gzips to
# less than 1/2.4 of its size "too repetitive" (faster-whisper's compression_ratio_threshold).
_REPETITIVE = 2.4
# More spoken units (Latin words, Chinese characters, digits: each at least a syllable) per second
# of audio than anyone says: brisk speech is 3-4 words or 5-7 characters a second, espeak-ng's
# voice about 3. A loop Whisper ran (tiny.en: "The Humber 8888…", 61 eights in 4.7 s) is 13 and more.
_MAX_UNITS_PER_S = 10.0
# One word or character (not a digit) said again and again, more times than this a second of
# audio: base's beam wrote "键垫垫垫垫垫垫垫垫垫" (9 垫) for a 2.2 s clip holding "tian1 tian1";
# the eight "ba1" of a phone number it heard as 7 啪 in 4.6 s. Digits are left to the rules above.
_MAX_RUN_PER_S = 3.0
_SPOKEN_UNIT = re.compile(f"[{HAN_RANGES}]|\\d|[^\\W\\d_]+")
# Where a sentence ends (. ! ? … before a space or the end, not 3.5; Chinese 。！？) and where a
# clause does (also , ; before a space, not 3,000; Chinese ，、；).
_SENTENCE_END = re.compile(r"(?<=[.!?…])(?=\s|$)|(?<=[。！？])")
_CLAUSE_END = re.compile(r"(?<=[.!?…,;])(?=\s|$)|(?<=[。！？，、；])")
_ENDS_SENTENCE = re.compile(r"[.!?…。！？]$")
_TAIL = re.compile(r"[\W_]*$")  # a piece's closing punctuation
# A clause said again after a comma counts as a repeat from this many words (Chinese: characters)
# on: "Thank you for coming, thank you for coming" is Whisper's; "no, no", "thank you, thank you"
# and "我爱你，我爱你" are people's.
_MIN_REPEATED_CLAUSE = 4
_DOUBLED = re.compile(r"\s*(\S.{3,}?)(?:[\s,，、]*\1)+\s*")  # the whole text: one phrase (4+ characters), twice or more

# transcribe drops an unsure decode (avg log-prob -1 or less) whose no-speech probability is over
# 0.6. On a short window Whisper base gave silence and noise 0.58-0.81, depending on the CPU's
# instruction set (an unsure "你" on silence at 0.585), and 166 espeak-ng phrases at most 0.39:
# without hotwords (which raise it on speech) the bar is lower there (docs/development.md,
# "Running the suite under another CPU instruction set").
_WINDOW_NO_SPEECH = 0.5


@dataclass
class Heard:
    """One Whisper decode: the text, and the words it was unsure of (word, probability) in order."""

    text: str
    unsure: list[tuple[str, float]] = field(default_factory=list)
    logprob: float = 0.0  # the lowest average log-probability of the segments kept: how sure the decode was


def word_spans(text: str, unsure: list[tuple[str, float]]) -> tuple[tuple[int, int, float], ...]:
    """Character spans of `text` holding the unsure words, found in order (a word the final's
    clean-up removed is skipped). Whisper's Chinese "words" are characters or short runs."""
    spans, cursor = [], 0
    for word, p in unsure:
        at = text.find(word, cursor)
        if at < 0:
            continue
        spans.append((at, at + len(word), p))
        cursor = at + len(word)
    return tuple(spans)


def spoken_units(text: str) -> int:
    """Latin words, Chinese characters and digits in `text`: each takes a syllable or more to say."""
    return len(_SPOKEN_UNIT.findall(text))


def decode_looped(text: str, audio_s: float, hit_budget: bool) -> bool:
    """Whether the decoder ran into a loop, by what it did rather than by what the text says: it
    wrote its whole token budget without ending, or a text Whisper itself calls too repetitive,
    or more than the audio can hold (in all, or one word or character said over and over). A
    repetition without any of these is the speaker's ("88888888", "9 9 9 9", "no, no, no, no"),
    and is left as heard."""
    if hit_budget:
        return True
    raw = text.strip().encode("utf-8")
    if raw and len(raw) / len(zlib.compress(raw)) > _REPETITIVE:
        return True
    seconds = max(audio_s, 1.0)
    return spoken_units(text) > _MAX_UNITS_PER_S * seconds or _longest_run(text) > _MAX_RUN_PER_S * seconds


def _longest_run(text: str) -> int:
    """The most times one word or character other than a digit follows itself in `text`."""
    longest, run, last = 0, 0, None
    for unit in _SPOKEN_UNIT.findall(text.lower()):
        run = run + 1 if unit == last and not unit.isdigit() else 1
        last, longest = unit, max(longest, run)
    return longest


def collapse_loops(text: str) -> str:
    """Cut a repetition loop down to one occurrence (Whisper sometimes repeats until its budget).
    Only for a decode that looped (decode_looped): the same text said is a number or a speaker's."""
    return _LOOP.sub(r"\1", _CHAR_LOOP.sub(r"\1\1\1", text))


def undouble(text: str) -> str:
    """One phrase for a text that is nothing but that phrase said again ("Welcome to the meeting.
    Welcome to the meeting."): on a short window Whisper now and then repeats a short utterance
    whole, where the 30 s window does not (tiny.en, base on "Good morning"). A number said in two
    groups ("8888 8888") is a number: kept."""
    doubled = _DOUBLED.fullmatch(text)
    if not doubled or normalized(doubled.group(1)).isdigit():
        return text
    return " " + doubled.group(1)


def sentences_of(text: str) -> list[str]:
    """`text` cut after each sentence's end; the pieces joined again are `text`."""
    return [piece for piece in _SENTENCE_END.split(text) if piece]


def drop_repeated_sentences(text: str) -> str:
    """No sentence, or run of sentences, right after the same again: Whisper (tiny.en above all)
    now and then says a sentence of the utterance two or three times over, with a full stop or a
    comma between ("Thank you for coming, thank you for coming, thank you for coming"), and the
    repeat would be translated, spoken and saved. Compared as letters and digits (case and
    punctuation aside); a sentence said again later, with another in between, stays, and so does
    a number said in groups ("8888. 8888."): its digits are what was said."""
    pieces = [piece for piece in _CLAUSE_END.split(text) if piece]
    # The text's last piece ends a sentence too: the decode stopped there (a repeat cut short).
    whole = [ends_sentence(p) or i == len(pieces) - 1 for i, p in enumerate(pieces)]
    kept: list[int] = []  # indices into pieces
    for i in range(len(pieces)):
        kept.append(i)
        for length in range(1, len(kept) // 2 + 1):
            run, before = kept[-length:], kept[-2 * length : -length]
            if _repeats([pieces[j] for j in before], [pieces[j] for j in run], all(whole[j] for j in before + run)):
                break
        else:
            # A sentence that only says again how the one before it ended ("… 1 2 3 I love you.
            # I love you": a pause Whisper did not mark between the two).
            if not (len(kept) > 1 and whole[i] and whole[kept[-2]] and _ends_again(pieces[kept[-2]], pieces[i])):
                continue
            length, run = 1, [i]
        del kept[-length:]
        pieces[kept[-1]] = _ending_as(pieces[kept[-1]], pieces[run[-1]])
    said = [pieces[j] for j in kept]
    return "".join(said[: len(said) - _restart_cut_short(said)])


def _ends_again(sentence: str, again: str) -> bool:
    """`again` (three words or characters or more, not all digits) is how `sentence` ended."""
    tail = [normalized(u) for u in units_of(again) if normalized(u)]
    said = [normalized(u) for u in units_of(sentence) if normalized(u)]
    return len(tail) >= 3 and not "".join(tail).isdigit() and said[-len(tail) :] == tail


def _restart_cut_short(pieces: list[str]) -> int:
    """How many of the last `pieces` start over the sentence before and stop short, four words or
    more of it: a repeat the token budget cut ("... the weeds. That frog jumped through"); as a
    forced prefix it went on looping. Shorter, it is left as said ("Good morning. Good")."""
    length = _restart_length(pieces)
    units = [u for piece in pieces[len(pieces) - length :] for u in units_of(piece) if normalized(u)]
    return length if length and len(units) >= _MIN_REPEATED_CLAUSE else 0


def _restart_length(pieces: list[str]) -> int:
    """How many of the last `pieces` (clauses) start over what came before and stop short (0: none):
    the last clause, the clause before it ("Good morning, good"); the unfinished last sentence, the
    sentence before it ("These days, a chicken of a red dish. These days", SNR 5 dB: as the next
    final's prefix it read "a chicken of a red dish." again)."""
    if len(pieces) < 2 or ends_sentence(pieces[-1]):
        return 0
    if _starts_over(pieces[-1], pieces[-2]):
        return 1
    tail = _sentence_start(pieces, len(pieces) - 1)
    if tail == 0:
        return 0
    before = "".join(pieces[_sentence_start(pieces, tail - 1) : tail])
    return len(pieces) - tail if _starts_over("".join(pieces[tail:]), before) else 0


def _sentence_start(pieces: list[str], index: int) -> int:
    """The index of the first piece of the sentence `pieces[index]` is in."""
    while index > 0 and not ends_sentence(pieces[index - 1]):
        index -= 1
    return index


def _starts_over(piece: str, before: str) -> bool:
    """`piece` is an unfinished start of `before` said again ("... with a small pen. Dec")."""
    if ends_sentence(piece):
        return False
    again, said = normalized(piece), normalized(before)
    return bool(again) and again != said and said.startswith(again)


def ends_sentence(text: str) -> bool:
    """`text` ends with a full stop, a question or exclamation mark (Latin or Chinese)."""
    return bool(_ENDS_SENTENCE.search(text.strip()))


def without_restart(text: str) -> str:
    """`text` without a last piece that starts the sentence before it over and stops short, however
    short ("... with a small pen. Dec"). Shown, two words are left as said ("Good morning. Good");
    as the next final's forced prefix even a fragment made the decoder go on from it ("lazed will
    be ready by Monday morning." for "The results will be ready ...", on clean speech)."""
    pieces = [piece for piece in _CLAUSE_END.split(text) if piece]
    return "".join(pieces[: len(pieces) - _restart_length(pieces)])


def _repeats(before: list[str], run: list[str], whole_sentences: bool) -> bool:
    said, again = [normalized(p) for p in before], [normalized(p) for p in run]
    if said != again or not any(said) or "".join(said).isdigit():
        return False  # not the same, or a number said in groups ("8888. 8888."): its digits
    words = [u for p in before for u in units_of(p) if normalized(u)]
    return whole_sentences or len(words) >= _MIN_REPEATED_CLAUSE


def _ending_as(kept: str, dropped: str) -> str:
    """`kept` closed as the dropped repeat was ("coming, coming." -> "coming."); a repeat cut off
    before its end leaves a full stop as it was, a comma not."""
    ending = _TAIL.search(dropped).group()
    own = _TAIL.search(kept)
    if not ending and _ENDS_SENTENCE.search(kept):
        return kept
    return kept[: own.start()] + ending


def is_hallucination(text: str, avg_logprob: float, no_speech_prob: float, sure_logprob: float = -0.4) -> bool:
    text = to_simplified(text)
    if _ALWAYS_HALLUCINATED.search(text):
        return True
    return normalized(text) in _WEAK_PHRASES and (avg_logprob < sure_logprob or no_speech_prob > 0.3)


def off_language(heard: str, language: str) -> bool:
    """No Chinese in a Chinese decode: forced to Chinese on a short stretch, greedy Whisper now
    and then writes an English guess instead ("go to walk"). Not a hypothesis of what was
    said, so not shown or translated; the final decode settles the text."""
    return language == Language.ZH and not HAN.search(heard)


def window_heard_no_speech(no_speech_prob: float, avg_logprob: float, hotwords: str | None) -> bool:
    """A short-window decode that is unsure and more likely silence than speech (see _WINDOW_NO_SPEECH)."""
    return no_speech_prob > (0.6 if hotwords else _WINDOW_NO_SPEECH) and avg_logprob <= -1.0


def heard_in(
    segments: list,
    language: str,
    chinese: ChineseScript,
    *,
    sure_logprob: float,
    no_speech_logprob: float,
    unsure_word_p: float,
    hotwords: str | None,
    prefix: str | None,
    audio_s: float,
    hit_budget: bool,
) -> Heard:
    """The text of Whisper's segments and its unsure words, every guard applied: segments it
    thinks hold no speech and its inventions dropped, the forced `prefix` cut off, loops
    collapsed when the decode looped (`audio_s`: the seconds of audio after the prefix's;
    `hit_budget`: the decoder used its whole token budget; decode_looped), Chinese in the chosen
    script."""
    # Hotwords in the prompt raise Whisper's no-speech probability on short speech (base on
    # Mandarin "我爱你": 0.15 -> 0.62, text unchanged; on silence it still wrote nothing).
    no_speech = 0.8 if hotwords else 0.6
    texts, unsure, logprobs = [], [], []
    for s in segments:
        if s.no_speech_prob > no_speech and s.avg_logprob < no_speech_logprob:
            continue  # Whisper itself thinks there is no speech here
        if is_hallucination(s.text, s.avg_logprob, s.no_speech_prob, sure_logprob):
            continue
        texts.append(s.text)
        logprobs.append(float(s.avg_logprob))
        unsure += [
            (w.word.strip(), round(float(w.probability), 3))
            for w in (s.words or [])
            if w.probability < unsure_word_p and w.word.strip()
        ]
    # A token budget can end inside a character's UTF-8 bytes, which decode as U+FFFD ("键垫垫垫�"
    # under lost frames): a half character is nothing anyone said.
    text = re.sub(r" {2,}", " ", " ".join(t.strip() for t in texts).replace("\ufffd", "")).strip()
    if prefix:  # the segment's text starts with the forced prefix: keep what follows it
        text = drop_prefix(text, prefix)
    # After the prefix is cut: with the previous final forced before it, a doubled utterance
    # ("我每天造康和他 我每天造康和他", telephone band) was not the whole text and went through.
    text = undouble(text).strip()
    looped = decode_looped(text, audio_s, hit_budget)
    text = drop_repeated_sentences(collapse_loops(text) if looped else text)
    if language == Language.ZH:
        text, unsure = to_script(text, chinese), [(to_script(w, chinese), p) for w, p in unsure]
    return Heard(text, unsure, min(logprobs, default=0.0))
