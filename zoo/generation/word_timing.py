"""Word-level timestamps from cross-attention: openai-whisper's method (its timing.py) on our Whisper.

    timings = align_words(model, tokenizer, [WindowText(features, text_tokens, sot_sequence, frames, language)])
    place_words(segments, timings[0], time_offset=12.5, last_speech=10.2)   # segments gain "words"

Some cross-attention heads of Whisper's decoder follow which audio frame each text token speaks of (the
"alignment heads", listed with each checkpoint; otherwise every head of the last half of the decoder's layers,
as openai-whisper does). For one window, the decoder reads [sot sequence, <|notimestamps|>, text tokens, EOT]
teacher-forced, once; a pre-hook on those layers' cross-attention keeps its input, and only the alignment
heads' softmax(q k^T / sqrt(Dh)) are computed from it and the keys the pass left in its cross-attention cache.
Each head's weights over the window's audio tokens are standardised over the tokens, median-filtered along
time (width 7), averaged over the heads, and dynamic time warping finds the monotonic path through them: each
text token starts where the path first reaches it. Tokens are grouped into words (at spaces, or at whole
unicode characters for languages written without them), punctuation joins its neighbour, and the words get
the segment-level adjustments openai-whisper makes (long words around sentence ends and pauses trimmed,
segment starts and ends moved to their words).

Checked against openai-whisper 20250625's timing.py (tests/zoo/test_word_timestamps.py: the same words and
times on the same weights). Differences: the window's audio features are reused, not recomputed; several
windows align in one decoder pass (right-padded: the decoder is causal, so padding changes nothing before it);
DTW runs over anti-diagonals in numpy instead of numba (the same float32 costs and tie rules).

Legend: B windows, L alignment layers' heads h, T tokens, N audio tokens, Dh head width.
"""
from __future__ import annotations

import functools
import string
from dataclasses import dataclass

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from data.audio import FRAMES_PER_SECOND, INPUT_STRIDE
from data.whisper_tokenizer import WhisperTokenizer

TOKENS_PER_SECOND = FRAMES_PER_SECOND // INPUT_STRIDE  # audio tokens per second: 50 (20 ms each)
MEDIAN_FILTER_WIDTH = 7
PREPEND_PUNCTUATIONS = "\"'“¿([{-"
APPEND_PUNCTUATIONS = "\"'.。,，!！?？:：”)]}、"
SENTENCE_END_MARKS = ".。!！?？"
# Written without spaces between words: split at every whole unicode character instead (openai-whisper's list).
UNSPACED_LANGUAGES = frozenset({"zh", "ja", "th", "lo", "my", "yue"})


@dataclass
class WordTiming:
    """A word (its text as decoded, leading space included), its tokens, start and end in seconds from the
    window's start, and the mean probability of its tokens."""
    word: str
    tokens: list[int]
    start: float
    end: float
    probability: float


@dataclass(frozen=True)
class WindowText:
    """What one window's alignment needs: its encoder output (N, D), the text tokens of its segments (no
    timestamps), the sot sequence it was decoded with, its mel frames of audio, and the language (word split)."""
    features: torch.Tensor
    text_tokens: list[int]
    sot_sequence: list[int]
    frames: int
    language: str


# ----------------------------------------------------------------------------- which heads

def alignment_heads(model: nn.Module) -> list[tuple[int, int]]:
    """The (decoder layer, head) pairs to align with, sorted: the checkpoint's, else every head of the last
    half of the decoder's layers. Raises ValueError naming word_timestamps where they do not fit the decoder."""
    blocks = model.decoder.blocks
    heads = [block.cross_attn.num_heads if block.cross_attn is not None else 0 for block in blocks]
    pairs = sorted(tuple(pair) for pair in model.config.alignment_heads)
    if not pairs:
        pairs = [(layer, head) for layer in range(len(blocks) // 2, len(blocks)) for head in range(heads[layer])]
    bad = [list(p) for p in pairs if not (0 <= p[0] < len(blocks) and 0 <= p[1] < heads[p[0]])]
    if not pairs:
        raise ValueError(f"word_timestamps=True needs alignment heads, and none can be derived: the model names "
                         f"none and its decoder has {len(blocks)} layers of {heads} cross-attention heads")
    if bad:
        raise ValueError(f"word_timestamps=True: alignment heads {bad} (decoder layer, head) are outside the "
                         f"decoder's {len(blocks)} layers of {heads} cross-attention heads")
    return pairs


def _head_queries(proj: nn.Module, x: torch.Tensor, heads: list[int], head_dim: int) -> torch.Tensor:
    """The query projection of `heads` only: x (B, T, D) -> (B, h, T, Dh)."""
    rows = torch.cat([torch.arange(h * head_dim, (h + 1) * head_dim, device=x.device) for h in heads])
    if isinstance(proj, nn.Linear):
        q = F.linear(x, proj.weight[rows], None if proj.bias is None else proj.bias[rows])
    else:  # a quantized or packed projection: all heads, then the ones wanted
        q = proj(x)[..., rows]
    b, t, _ = x.shape
    return q.view(b, t, len(heads), head_dim).transpose(1, 2)  # (B, h, T, Dh)


def alignment_scores(model: nn.Module, tokens: torch.Tensor, features: torch.Tensor,
                     pairs: list[tuple[int, int]]) -> tuple[torch.Tensor, torch.Tensor]:
    """One teacher-forced decoder pass over tokens (B, T) with features (B, N, D) -> (logits (B, T, V),
    the alignment heads' pre-softmax cross-attention scores q k^T / sqrt(Dh) (B, heads, T, N), float32)."""
    layers = sorted({layer for layer, _ in pairs})
    inputs: dict[int, torch.Tensor] = {}

    def keep(layer: int):
        def hook(module, args):
            inputs[layer] = args[0]  # (B, T, D): the cross-attention's normalised input
        return hook

    blocks = model.decoder.blocks
    hooks = [blocks[layer].cross_attn.register_forward_pre_hook(keep(layer)) for layer in layers]
    cache = model.make_cache(tokens.shape[0], tokens.shape[1])
    try:
        logits = model.decode(tokens, features, input_pos=0, cache=cache)  # (B, T, V)
    finally:
        for hook in hooks:
            hook.remove()
    scores = []
    for layer in layers:
        attn = blocks[layer].cross_attn
        heads = [head for l_, head in pairs if l_ == layer]
        q = _head_queries(attn.q_proj, inputs[layer], heads, attn.head_dim).float()  # (B, h, T, Dh)
        group = attn.num_heads // attn.num_kv_heads
        k = cache.layers[layer].cross.k[:, [h // group for h in heads]].float()  # (B, h, N, Dh)
        scores.append((q @ k.transpose(-2, -1)) * attn.head_dim ** -0.5)  # (B, h, T, N)
    return logits, torch.cat(scores, dim=1)


# ----------------------------------------------------------------------------- filtering and warping

def median_filter(x: torch.Tensor, width: int) -> torch.Tensor:
    """The running median of odd `width` along the last axis, edges reflected; x unchanged when that axis
    is too short to reflect (width // 2 or fewer).

    The `width` shifted copies of x go through a sorting network cut down to its middle output (_median_network):
    elementwise minima and maxima, so the values are exactly the median's (a NaN in a window gives NaN, as
    torch.median does), at about a fifth of the time of unfold + median, which sorts each window (Whisper base's
    alignment heads over a window, 6 x 120 x 1500: 11 ms against 57 ms on a 2-core AVX2 EPYC)."""
    if width < 1 or width % 2 == 0:
        raise ValueError(f"median filter width must be a positive odd number, got {width}")
    half = width // 2
    if x.shape[-1] <= half:
        return x
    shape, n = x.shape, x.shape[-1]
    flat = x.reshape(-1, 1, n)  # (rows, 1, frames): reflect padding wants a channel axis
    padded = F.pad(flat, (half, half), mode="reflect")[:, 0]  # (rows, frames + width - 1)
    wires = [padded[:, i:i + n] for i in range(width)]  # wire i: each frame's i-th neighbour
    for i, j, low, high in _median_network(width):
        a, b = wires[i], wires[j]
        if low:
            wires[i] = torch.minimum(a, b)
        if high:
            wires[j] = torch.maximum(a, b)
    return wires[half].reshape(shape)


@functools.lru_cache(maxsize=None)
def _median_network(width: int) -> tuple[tuple[int, int, bool, bool], ...]:
    """Odd-even transposition sort of `width` wires (`width` rounds of neighbour compare-exchanges), keeping only
    what the middle wire's value depends on: each (i, i + 1, whether wire i's minimum is needed, whether wire
    i + 1's maximum is). For width 7: 18 of the 21 exchanges, 30 of their 42 minima and maxima."""
    exchanges = [(i, i + 1) for step in range(width) for i in range(step % 2, width - 1, 2)]
    needed, kept = {width // 2}, []
    for i, j in reversed(exchanges):
        low, high = i in needed, j in needed
        if low or high:
            kept.append((i, j, low, high))
            needed |= {i, j}
    return tuple(reversed(kept))


def dtw(cost: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The cheapest monotonic path through cost (N, M) from (0, 0) to (N-1, M-1), each step one down, right,
    or both -> (row indices, column indices) along it.

    As openai-whisper's (Sakoe-Chiba's recurrence): accumulated costs kept in float32, a diagonal step taken
    only when strictly cheaper than both others, then a step down only when strictly cheaper than both,
    else right. Filled by anti-diagonals (cell (i, j) needs the two before it), each one a vector op."""
    n, m = cost.shape
    total = np.full((n + 1, m + 1), np.inf, dtype=np.float32)
    total[0, 0] = 0
    move = np.zeros((n + 1, m + 1), dtype=np.int8)  # 0 diagonal, 1 down (i - 1), 2 right (j - 1)
    for d in range(2, n + m + 1):
        i = np.arange(max(1, d - m), min(n, d - 1) + 1)
        j = d - i
        diag, down, right = total[i - 1, j - 1], total[i - 1, j], total[i, j - 1]
        step = np.where((diag < down) & (diag < right), 0, np.where((down < diag) & (down < right), 1, 2))
        best = np.choose(step, (diag, down, right))
        total[i, j] = cost[i - 1, j - 1] + best  # float64 sum, stored as float32
        move[i, j] = step
    move[0, :], move[:, 0] = 2, 1
    path = []
    i, j = n, m
    while i > 0 or j > 0:
        path.append((i - 1, j - 1))
        step = move[i, j]
        i, j = (i - 1, j - 1) if step == 0 else (i - 1, j) if step == 1 else (i, j - 1)
    rows, cols = np.array(path[::-1]).T
    return rows, cols


# ----------------------------------------------------------------------------- words

def split_on_unicode(tokenizer: WhisperTokenizer, tokens: list[int]) -> tuple[list[str], list[list[int]]]:
    """Tokens grouped so that each group decodes to whole unicode characters."""
    full = tokenizer.decode_with_timestamps(tokens)
    words, groups, current, offset = [], [], [], 0
    for token in tokens:
        current.append(token)
        text = tokenizer.decode_with_timestamps(current)
        # An incomplete character decodes to U+FFFD; one that is U+FFFD in the whole text is complete.
        if "\ufffd" not in text or full[offset + text.index("\ufffd")] == "\ufffd":
            words.append(text)
            groups.append(current)
            current = []
            offset += len(text)
    return words, groups


def split_on_spaces(tokenizer: WhisperTokenizer, tokens: list[int]) -> tuple[list[str], list[list[int]]]:
    """Whole characters joined into words: a new word at a leading space, a special token or punctuation."""
    words: list[str] = []
    groups: list[list[int]] = []
    for piece, piece_tokens in zip(*split_on_unicode(tokenizer, tokens)):
        # `in string.punctuation` is a substring test, as openai-whisper's (white space alone passes it)
        starts = piece_tokens[0] >= tokenizer.eot or piece.startswith(" ") or piece.strip() in string.punctuation
        if starts or not words:
            words.append(piece)
            groups.append(list(piece_tokens))
        else:
            words[-1] += piece
            groups[-1].extend(piece_tokens)
    return words, groups


def split_to_words(tokenizer: WhisperTokenizer, tokens: list[int], language: str) -> tuple[list[str], list[list[int]]]:
    """openai-whisper's split_to_word_tokens: spaces, or unicode characters for UNSPACED_LANGUAGES."""
    if language in UNSPACED_LANGUAGES:
        return split_on_unicode(tokenizer, tokens)
    return split_on_spaces(tokenizer, tokens)


# ----------------------------------------------------------------------------- alignment

def _token_path(scores: torch.Tensor, frames: int, sot_len: int) -> tuple[np.ndarray, np.ndarray]:
    """One window's scores (heads, T, N) -> the DTW path's (token rows, audio tokens) over the rows from
    <|notimestamps|> to the last text token (each row predicts the next token)."""
    weights = scores[:, :, :frames // INPUT_STRIDE].softmax(dim=-1)  # (h, T, n): over the window's audio only
    std, mean = torch.std_mean(weights, dim=-2, keepdim=True, correction=0)
    weights = median_filter((weights - mean) / std, MEDIAN_FILTER_WIDTH)
    matrix = weights.mean(dim=0)[sot_len:-1]  # (text + 1, n)
    return dtw(-matrix.double().cpu().numpy())


def _window_words(tokenizer: WhisperTokenizer, window: WindowText, logits: torch.Tensor,
                  scores: torch.Tensor) -> list[WordTiming]:
    """One window's words, from its rows of the pass (logits (T, V), scores (heads, T, N), T its tokens)."""
    text, sot_len = window.text_tokens, len(window.sot_sequence)
    words, groups = split_to_words(tokenizer, text + [tokenizer.eot], window.language)
    if len(groups) <= 1:  # EOT alone
        return []
    probs = logits[sot_len:sot_len + len(text), :tokenizer.eot].float().softmax(dim=-1)
    token_probs = probs[torch.arange(len(text), device=probs.device), torch.tensor(text, device=probs.device)].tolist()
    rows, cols = _token_path(scores, window.frames, sot_len)
    first_steps = np.pad(np.diff(rows), (1, 0), constant_values=1).astype(bool)  # where each row is reached
    token_times = cols[first_steps] / TOKENS_PER_SECOND  # s: where each token (and EOT) starts
    bounds = np.pad(np.cumsum([len(g) for g in groups[:-1]]), (1, 0))  # each word's first token
    return [WordTiming(word, group, token_times[a], token_times[b], np.mean(token_probs[a:b]))
            for word, group, a, b in zip(words, groups, bounds[:-1], bounds[1:])]  # EOT's word left out


@torch.inference_mode()
def align_words(model: nn.Module, tokenizer: WhisperTokenizer, windows: list[WindowText]) -> list[list[WordTiming]]:
    """Each window's words with their times (s from the window's start) and probabilities; the windows with
    text go through the decoder together, in one teacher-forced pass."""
    found: list[list[WordTiming]] = [[] for _ in windows]
    todo = [i for i, w in enumerate(windows) if w.text_tokens]
    if not todo:
        return found
    pairs = alignment_heads(model)
    rows = [windows[i].sot_sequence + [tokenizer.no_timestamps] + windows[i].text_tokens + [tokenizer.eot]
            for i in todo]
    longest = max(len(r) for r in rows)
    device = windows[todo[0]].features.device
    tokens = torch.tensor([r + [tokenizer.eot] * (longest - len(r)) for r in rows], device=device)  # (B, T)
    features = torch.stack([windows[i].features for i in todo])  # (B, N, D)
    logits, scores = alignment_scores(model, tokens, features, pairs)
    for row, (i, r) in enumerate(zip(todo, rows)):
        found[i] = _window_words(tokenizer, windows[i], logits[row, :len(r)], scores[row, :, :len(r)])
    return found


def merge_punctuations(words: list[WordTiming], prepended: str = PREPEND_PUNCTUATIONS,
                       appended: str = APPEND_PUNCTUATIONS) -> None:
    """Join opening punctuation to the word after it and closing punctuation to the word before it, in place:
    the emptied entries stay, with word "" and no tokens (openai-whisper's merge_punctuations)."""
    following = len(words) - 1
    for i in range(len(words) - 2, -1, -1):  # right to left: a run of openers all reach the next word
        before, after = words[i], words[following]
        if before.word.startswith(" ") and before.word.strip() in prepended:
            after.word, after.tokens = before.word + after.word, before.tokens + after.tokens
            before.word, before.tokens = "", []
        else:
            following = i
    previous = 0
    for j in range(1, len(words)):  # left to right: a run of closers all reach the word before
        before, after = words[previous], words[j]
        if not before.word.endswith(" ") and after.word in appended:
            before.word, before.tokens = before.word + after.word, before.tokens + after.tokens
            after.word, after.tokens = "", []
        else:
            previous = j


def _seconds(value: float) -> float:
    """Rounded to 10 ms the way openai-whisper's numpy times round (np.round: scale, round half to even, unscale)."""
    return float(np.round(np.float64(value), 2))


def _limit_sentence_ends(words: list[WordTiming], max_duration: float) -> None:
    """A sentence-end mark, or the word after one, lasts at most max_duration (it soaks up the pause)."""
    for i in range(1, len(words)):
        if words[i].end - words[i].start > max_duration:
            if words[i].word in SENTENCE_END_MARKS:
                words[i].end = words[i].start + max_duration
            elif words[i - 1].word in SENTENCE_END_MARKS:
                words[i].start = words[i].end - max_duration


def _fit_segment(segment: dict, words: list[dict], median: float, last_speech: float) -> None:
    """openai-whisper's segment-boundary hacks, in place: the first words after a pause are shortened to twice
    the median word length; a first or last word that overruns the segment's timestamp by more than half a
    second is cut to it; otherwise the segment's start and end move to its words'."""
    longest = median * 2
    first = words[0]
    if first["end"] - last_speech > median * 4 and (
            first["end"] - first["start"] > longest
            or (len(words) > 1 and words[1]["end"] - first["start"] > longest * 2)):
        if len(words) > 1 and words[1]["end"] - words[1]["start"] > longest:
            boundary = max(words[1]["end"] / 2, words[1]["end"] - longest)
            first["end"] = words[1]["start"] = boundary
        first["start"] = max(0, first["end"] - longest)
    if segment["start"] < first["end"] and segment["start"] - 0.5 > first["start"]:
        first["start"] = max(0, min(first["end"] - median, segment["start"]))
    else:
        segment["start"] = first["start"]
    last = words[-1]
    if segment["end"] > last["start"] and segment["end"] + 0.5 < last["end"]:
        last["end"] = max(last["start"] + median, segment["end"])
    else:
        segment["end"] = last["end"]


def place_words(segments: list[dict], timings: list[WordTiming], *, eot: int, time_offset: float,
                last_speech: float, prepend_punctuations: str = PREPEND_PUNCTUATIONS,
                append_punctuations: str = APPEND_PUNCTUATIONS) -> None:
    """Give each of one window's segments its "words" [{"word", "start", "end", "probability"}] (s from the
    audio's start), in place, and adjust the segments' start and end to them (openai-whisper's
    add_word_timestamps after find_alignment). timings: align_words' for the window's text; eot: the
    tokenizer's (tokens from it on are not text); time_offset: s,
    where the window starts; last_speech: s, the end of the last word before this window."""
    durations = np.array([t.end - t.start for t in timings])
    durations = durations[durations.nonzero()]
    median = min(0.7, float(np.median(durations))) if len(durations) else 0.0
    if len(durations):
        _limit_sentence_ends(timings, median * 2)
    merge_punctuations(timings, prepend_punctuations, append_punctuations)
    index = 0
    for segment in segments:
        text_tokens = [t for t in segment["tokens"] if t < eot]
        taken, words = 0, []
        while index < len(timings) and taken < len(text_tokens):
            timing = timings[index]
            if timing.word:
                words.append({"word": timing.word, "start": _seconds(time_offset + timing.start),
                              "end": _seconds(time_offset + timing.end), "probability": float(timing.probability)})
            taken += len(timing.tokens)
            index += 1
        if words:
            _fit_segment(segment, words, median, last_speech)
            last_speech = segment["end"]
        segment["words"] = words
