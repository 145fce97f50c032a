"""What a StreamingRecognizer can be told: partial pacing, utterance cutting, decode beams and
windows, the guards' thresholds, hotwords, context. Each default says where it was measured."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from app.shared.live_text import LiveText


@dataclass
class RecognizerOptions:
    partial_interval_s: float = 0.5  # re-read the utterance after this much new audio (at least)
    # Partials may keep Whisper busy this share of the time at most: when a decode costs more
    # (a busy machine), the interval stretches to decode cost / share, and shrinks back after.
    partial_share: float = 0.5
    first_partial_s: float = 1.0  # Whisper guesses wildly on less; such guesses must not be committed
    # Audio captured longer ago than this is a backlog: partials are skipped until recognition
    # has caught up (finals never are), so latency cannot creep up however the caller queues.
    max_lag_s: float = 0.3
    # How many successive hypotheses must agree before a prefix is committed, per language:
    # Whisper base on Mandarin rewrites the start of a sentence more often (seen on espeak speech).
    agreement: dict = field(default_factory=lambda: {"en": 2, "zh": 3})
    min_silence_s: float = 0.5  # a pause this long ends an utterance
    max_utterance_s: float = 15.0  # longer speech is cut (at its quietest recent frame) and finalized
    min_speech_s: float = 0.25  # shorter bursts (a cough, a click) are ignored, unless speech follows at once
    pad_s: float = 0.4  # audio kept before the speech Silero found (Whisper misreads tight cuts)
    # Audio kept after the last speech frame. The final decode of an utterance starts as soon as
    # the pause is this long (on exactly that audio), not when the pause has ended it: its
    # result is used if no speech came back before `min_silence_s`.
    tail_pad_s: float = 0.2
    vad_threshold: float = 0.5
    # The threshold for narrowband input (a telephone line, GSM, a headset's 8 kHz microphone:
    # nothing above 4 kHz, app.asr.band), which Silero hears less surely; None: vad_threshold always.
    # bench/rooms.py, real voices (8 kHz): WER through a telephone band 0.532 -> 0.303, their own
    # band 0.193 -> 0.147, mean of 20 conditions 0.349 -> 0.323; wideband input is not touched.
    # docs/performance.md, "Narrowband input".
    narrowband_vad_threshold: float | None = 0.35
    # The final decode's beam, per language (partials are greedy). English finals carry the previous
    # utterance as context, which doubles a beam-5 decode (0.35 -> 0.7 s here) and kept finals
    # 0.9 s behind the speaker; greedy they take 0.4 s at WER 0.058 against 0.048 (30 s finals,
    # the default before: 0.062). Mandarin greedy finals were much worse (CER 0.77 against 0.57).
    # Through the 30 s window (word confidence, a fallback) finals keep beam 5.
    # docs/performance.md, "Recognition window".
    final_beam: dict = field(default_factory=lambda: {"en": 1, "zh": 5})
    # A final whose decode was unsure (a segment's average log-prob below this) is read again with
    # this beam, when its own beam is smaller: greedy English finals in noise, echo and call audio.
    # Greedy finals are sure of much they get wrong (-0.2 for "The most of the airport" at SNR
    # 10 dB), so the bar is high: on clean espeak-ng speech 3 of 16 finals fall below -0.1, at SNR
    # 10 dB most; WER clean 0.087 -> 0.079, SNR 10 dB 0.291 -> 0.205, reverberation 0.118 ->
    # 0.087, GSM 0.291 -> 0.197 (docs/performance.md, "Rooms and calls"). -inf: never.
    # After an unsure final the next is read with this beam at once, until one is sure again.
    unsure_final_logprob: float = -0.1
    unsure_final_beam: int = 5
    # A fixed prompt per language for final decodes given no context of their own, e.g.
    # {"zh": "以下是普通话的句子。"}. Off: on Mandarin finals of Whisper base that sentence kept
    # text in Chinese characters where it came back in Latin letters or English ("Kin-Zian-Zian-
    # Chi-Eun-Pau", "What are you?" for 我爱你; bench/rooms.py, 10 espeak-ng sentences: CER clean
    # 0.532 -> 0.149, SNR 10 dB 0.766 -> 0.596, reverberation 1.319 -> 0.532, GSM 0.234 -> 0.319),
    # but it also lengthened what base invents on backwards speech and, with glossary hotwords,
    # turned 我爱你 into 哇你 (tests/asr): docs/performance.md, "Rooms and calls".
    language_prompt: dict = field(default_factory=dict)
    # The same sentence, only for a final that came back with Latin letters (app.asr.script_reread):
    # read again with it, the reading in characters is kept. bench/rooms.py, Mandarin: CER clean
    # 0.532 -> 0.149 without the failures above (docs/performance.md, "Rooms and calls"). {}: never.
    latin_reread_prompt: dict = field(default_factory=lambda: {"zh": "以下是普通话的句子。"})
    tokens_per_s: float = 12.0  # tokens a decode may write per second of audio after its forced ones: bounds a loop
    # An utterance that is only one of the phrases Whisper invents on silence is dropped unless
    # the decode is sure of it (this avg log-prob or better, and no_speech_prob below 0.3).
    sure_logprob: float = -0.4
    # A decode Whisper thinks more likely no speech (no-speech probability over 0.6) is dropped
    # when its average log-prob is under this, as faster-whisper's transcribe does (its
    # log_prob_threshold). -0.5 until 2026-11-29: Mandarin under other voices (café babble, 10 dB)
    # read as "我爱你,这个……,我不知道,……,我们走吧" at no-speech 0.64, log-prob -0.74, was dropped
    # (CER 0.936 -> 0.468; English babble 5 dB 0.724 -> 0.661; the other 32 rows measured and 18
    # minutes of non-speech unchanged; docs/performance.md, "Speech that Whisper half thinks is none").
    no_speech_logprob: float = -1.0
    # Glossary terms per language ("en", "zh"), given to Whisper as hotwords so that names are
    # recognised as written (faster-whisper puts them in the prompt before the audio).
    hotwords: dict = field(default_factory=dict)
    # Mark the words of a final Whisper gave a probability below unsure_word_p (SourceFinal's
    # low_confidence). Off by default: Whisper's word probabilities need its alignment pass
    # (word_timestamps), which made a final decode of base about 1.7-2.5x as long here.
    word_confidence: bool = False
    unsure_word_p: float = 0.5
    # The final decode may change text that partials committed (SourceFinal.revised says so).
    # False: the final keeps the committed prefix and only appends (more stable, less accurate:
    # see docs/performance.md, "Final text accuracy").
    revise_committed: bool = True
    # Context for the final decode, as a whole-file pass has it: the previous utterance's audio
    # goes before this one's, its final text forced as the decoder's prefix, and up to this
    # many characters of the finals before it are the prompt (same language, this session).
    # 0 = none. It helps English (docs/performance.md, "Final text accuracy"). On Mandarin it made
    # finals worse until a final that echoes an earlier one was read again alone and a context
    # decode's loops were bounded by its own audio (app.asr.context); since, Mandarin CER at SNR
    # 10 dB 0.596 -> 0.362, reverberation 0.574 -> 0.362, GSM 0.340 -> 0.149, clean unchanged
    # (docs/performance.md, "Rooms and calls").
    context_chars: dict = field(default_factory=lambda: {"en": 200, "zh": 200})
    # Seconds a final decode's audio may hold with the utterances before it (their text forced, a
    # second of silence between), per language: the previous one always goes first, the ones before
    # it while the whole is this long at most (0: the previous one only). English, bench/rooms.py:
    # WER clean 0.079 -> 0.039, SNR 5 dB 0.370 -> 0.260, the real voices at or under the whole
    # file in 15 of 20 conditions. Mandarin: 10 s (two or three of its short sentences before); CER
    # clean 0.213 -> 0.191, clipping 0.255 -> 0.085, telephone band 0.319 -> 0.191, mean of the 20
    # conditions 0.313 -> 0.288 (15 s locked on "我是" at SNR 0 dB). The longer window costs: clean
    # finals 0.2-0.3 s later (p50 English 0.59 -> 0.80 s one day, 0.94 -> 1.22 s on a slower one;
    # Mandarin 0.58 -> 0.77 s), 17% more CPU. docs/performance.md, "Rooms and calls".
    context_s: dict = field(default_factory=lambda: {"en": 15.0, "zh": 10.0})
    # How the context's text is given, per language (app.asr.context.CONTEXT_WAYS; absent: "prefix"):
    # "prefix", forced as the decoder's prefix (CTranslate2 runs one decoder step per forced token:
    # ~30 tokens, ~0.35 s of an English final here); "timestamp", as the prompt, with one timestamp
    # forced where the utterance starts in the window, so the decoder writes from there
    # (docs/performance.md, "One forced timestamp").
    context_way: dict = field(default_factory=dict)
    # Whisper reads a window of the audio's length plus this margin of padding (app.asr.window)
    # instead of its whole 30 s; None = the 30 s window. Chosen by measurement
    # (docs/performance.md, "Recognition window"): decodes cost what they hear, and the windowed
    # final was more accurate than the 30 s one in both languages (bench/asr_accuracy.py).
    partial_window_margin_s: float | None = 3.0
    final_window_margin_s: float | None = 3.0
    # The shortest window a decode reads, partial or final: on a 1 s Mandarin phrase a 4 s window
    # made Whisper base repeat or mishear it (我爱你 -> 哇你哇你) where 30 s did not.
    # 10 s still costs the encoder about a fifth of 30 s; finals of at least 15 s or 20 s were
    # less accurate (docs/performance.md, "Recognition window").
    min_window_s: float = 10.0

    def paced(self, live_text: LiveText | str) -> RecognizerOptions:
        """These options for a "live text: smoother <-> sooner" choice: the partial interval,
        and one more agreeing reading before text is committed when smoother."""
        interval, more = _PACE[LiveText(live_text)]
        return replace(
            self, partial_interval_s=interval, agreement={lang: n + more for lang, n in self.agreement.items()}
        )


# Balanced re-reads every 0.7 s: on a quiet machine 0.5 s gave ~6 partials per utterance and the
# whole run 0.56-0.59 CPU s per audio s; 0.7 s gave 0.46-0.47, a quarter to a half less erasure, 0-2 of 24
# long utterances less early text (bench/live_text.py; docs/performance.md, "Third round").
_PACE = {LiveText.SMOOTHER: (1.0, 1), LiveText.BALANCED: (0.7, 0), LiveText.SOONER: (0.3, 0)}
