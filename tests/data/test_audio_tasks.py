"""data.audio_tasks: the Whisper training set feeds the encoder what zoo.transcribe feeds it."""
import torch

import zoo
from data.audio_tasks import SpeechSet, normalize_text, select, waveforms
from data.speech import SPEECH_TINY, load_manifest
from data.whisper_vocab import train_whisper_tokenizer


def test_speech_set_mel_is_what_transcribe_encodes():
    root = SPEECH_TINY / "asr"
    rows = select(load_manifest(root), "test")[:2]
    tokenizer = train_whisper_tokenizer([normalize_text(r["text"]) for r in rows], 256)
    model = zoo.create_model("whisper_micro", vocab_size=tokenizer.vocab_size).eval()
    model.tokenizer = tokenizer
    seen, encode = [], model.encode
    model.encode = lambda mel: seen.append(mel) or encode(mel)
    zoo.transcribe(model, waveforms(rows, root), temperature=0.0, without_timestamps=True, sample_len=2,
                   condition_on_previous_text=False, compression_ratio_threshold=None, logprob_threshold=None,
                   no_speech_threshold=None)
    data = SpeechSet(rows, root, tokenizer, 2 * model.config.audio_ctx, model.config.n_mels, model.config.text_ctx)
    # the rest of the window is zeros in both (the old set put the log-mel floor of padded silence there)
    assert data.mels[:, :, -1].abs().max() == 0
    torch.testing.assert_close(data.mels, seen[0], rtol=0, atol=1e-5)


def test_speech_set_spec_augment_masks_the_training_mels_only_as_they_are_read():
    from data.audio_tasks import ASR_SPEC_AUGMENT, SpecAugment

    root = SPEECH_TINY / "asr"
    rows = select(load_manifest(root), "train")[:2]
    tokenizer = train_whisper_tokenizer([normalize_text(r["text"]) for r in rows], 256)
    plain = SpeechSet(rows, root, tokenizer, 1000, 80, 64)
    masked = SpeechSet(rows, root, tokenizer, 1000, 80, 64, spec_augment=SpecAugment(**ASR_SPEC_AUGMENT))
    torch.manual_seed(0)
    item = masked[0]
    assert item["tokens"] == plain[0]["tokens"] and torch.equal(masked.mels, plain.mels)  # the stored mels stay
    mel, reference = item["mel"], plain[0]["mel"]  # (80, frames)
    n = masked.frames[0]
    assert 0 < n < 1000 and reference[:, n:].abs().max() == 0 and torch.equal(mel[:, n:], reference[:, n:])
    mel, reference = mel[:, :n], reference[:, :n]  # the clip's frames: the masks go there
    changed = mel != reference
    bins = changed.all(1)                 # frequency masks: whole bins
    frames = changed[~bins].all(0)        # time masks: whole frames of the other bins
    assert changed.any() and bins.sum() <= 2 * ASR_SPEC_AUGMENT["freq_width"]
    assert frames.sum() <= 2 * ASR_SPEC_AUGMENT["time_width"]
    # no time shift: outside the masks every value is where it was
    assert not changed[~bins][:, ~frames].any()
    torch.manual_seed(0)
    assert torch.equal(masked[0]["mel"][:, :n], mel)  # the global generator decides: a resumed run draws the same
    # frequency and time are not swapped: time masks only (wider than the 80 bins) change whole frames
    time_only = SpeechSet(rows, root, tokenizer, 1000, 80, 64,
                          spec_augment=SpecAugment(shift=0, masks=1, freq_width=0, time_width=n))
    torch.manual_seed(1)
    changed = time_only[0]["mel"] != plain[0]["mel"]
    assert changed.any() and torch.equal(changed, changed.any(0, keepdim=True).expand_as(changed))


def test_lm_corpus_leaves_out_the_transcripts_scored():
    from data.audio_tasks import lm_corpus
    from data.speech_text import kjv_sentences
    from data.text import BROWN_EXTRACT, KJV_EXTRACT

    every = lm_corpus([], KJV_EXTRACT, BROWN_EXTRACT)
    assert len(every) == len(set(every)) > 5000 and all(s == normalize_text(s) for s in every)
    spoken = kjv_sentences(KJV_EXTRACT)[:3]  # as the speech builder picks them: "In the beginning God ..."
    assert all(normalize_text(s) in every for s in spoken)
    rest = lm_corpus(spoken, KJV_EXTRACT, BROWN_EXTRACT)
    assert set(every) - set(rest) == {normalize_text(s) for s in spoken}


def test_speech_set_limit_reads_only_the_first_clips_kept():
    import pytest

    from data.audio_tasks import transcript_tokens

    root = SPEECH_TINY / "asr"
    rows = select(load_manifest(root), "train")[:12]
    tokenizer = train_whisper_tokenizer([normalize_text(r["text"]) for r in rows], 256)
    lengths = [len(transcript_tokens(tokenizer, normalize_text(r["text"]))[0]) for r in rows]
    text_ctx = sorted(lengths)[len(lengths) // 2]  # about half the rows are too long: dropped
    full = SpeechSet(rows, root, tokenizer, 1000, 80, text_ctx)
    assert 3 <= len(full) < len(rows) and full.dropped == len(rows) - len(full)
    limited = SpeechSet(rows, root, tokenizer, 1000, 80, text_ctx, limit=3)
    assert limited.rows == full.rows[:3] and limited.tokens == full.tokens[:3]
    assert torch.equal(limited.mels, full.mels[:3]) and limited.frames == full.frames[:3]
    read = rows.index(full.rows[2]) + 1  # it stops after the third row kept
    assert limited.dropped == read - 3 == sum(n > text_ctx for n in lengths[:read])
    assert len(SpeechSet(rows, root, tokenizer, 1000, 80, text_ctx, limit=100)) == len(full)
    with pytest.raises(ValueError, match="limit must be at least 0"):
        SpeechSet(rows, root, tokenizer, 1000, 80, text_ctx, limit=-1)
