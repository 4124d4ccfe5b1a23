"""scripts/benchmark.py --only whisper: the Whisper section end to end on whisper_micro's width and depth
(--quick), its tables well formed, and the checks that refuse to time sides that disagree."""
import json

import pytest
import torch

from tests.helpers import load_script
from tests.scripts.test_bench_scripts import tables

pytest.importorskip("whisper")
benchmark = load_script("benchmark")


def test_whisper_quick(tmp_path, capsys):
    out = tmp_path / "whisper.json"
    benchmark.main(["--quick", "--only", "whisper", "--whisper-batches", "1", "--whisper-files", "2",
                    "--whisper-long-s", "35", "--json", str(out)])
    text = capsys.readouterr().out
    window, ratios, stages, targets, encoder, decoder, log_mel, short, long = tables(text)
    sides = [row[0] for row in window[1:]]
    assert window[0][:2] == ["side", "s / window"] and sides[:2] == ["ours fp32", "ours fp32 packed"]
    assert {"openai-whisper", "transformers"} <= set(sides)
    assert all(row[-1] == "8" for row in window[1:] if row[0] in ("ours fp32 packed", "openai-whisper"))
    assert ratios[0][0] == "ours" and [row[0] for row in stages[1:]] == ["log-mel", "encoder", "decoding"]
    assert [row[2] for row in targets[1:]] == ["openai-whisper", "transformers", "faster-whisper int8",
                                               "faster-whisper int8"]
    assert targets[3][3] == targets[4][3] == "not measured"  # --quick compiles nothing (bf16 and int8 sides)
    assert encoder[1][0] == decoder[1][0] == "1" and len(log_mel) == 2
    assert [row[0] for row in short[1:]] == ["ours batched", "ours file by file", "openai-whisper file by file"]
    assert long[1][0] == "ours" and long[2][:1] == ["openai-whisper"] and long[1][3] == long[2][3]
    assert long[3][0] == "ours bf16 packed" and long[3][3] == long[1][3]  # bf16 decodes the forced count too
    assert long[0][-1] == "ours bf16 packed speed-up (IQR)" and long[3][-1] == "-" and "x" in long[1][-1]
    saved = json.loads(out.read_text())["whisper"]
    [row] = saved["window"]
    assert row["shape"] == "micro" and row["tokens"] == 8 and row["max_abs_diff"]["logits openai"] < 1e-3
    assert len(row["times"]["ours fp32"]) == 2 and saved["parts"]["rows"][0]["batch"] == 1
    assert saved["transcribe"]["short"]["files"] == 2 and saved["transcribe"]["long"]["audio_s"] == 35


@pytest.fixture(scope="module")
def micro_sides(tmp_path_factory):
    from bench.whisper_refs import build

    with build("micro", tmp_path_factory.mktemp("whisper"), threads=1) as sides:  # its CTranslate2 workers stop after
        yield sides


@pytest.mark.parametrize("side", ["openai-whisper", "transformers"])
def test_a_weight_mismatch_is_refused(micro_sides, side):
    from bench.report import BenchmarkError
    from bench.whisper_refs import check_sides, synthetic_audio
    from data.audio import log_mel_spectrogram, pad_or_trim

    mel = log_mel_spectrogram(pad_or_trim(synthetic_audio(30, seed=0)))
    assert max(check_sides(micro_sides, mel).values()) < 1e-4
    layer = (micro_sides.openai.decoder.blocks[0].mlp[0] if side == "openai-whisper"
             else micro_sides.hf.model.decoder.layers[0].fc1)
    saved = layer.weight.detach().clone()
    with torch.no_grad():
        layer.weight[:8] *= 1.5  # eight rows of one decoder matrix, on one side only
    try:
        with pytest.raises(BenchmarkError, match=f"logits: ours and {side} disagree"):
            check_sides(micro_sides, mel)
    finally:
        with torch.no_grad():
            layer.weight.copy_(saved)


def test_other_tokens_or_counts_are_refused():
    from bench.report import BenchmarkError
    from bench.whisper_sides import ForcedDecoding, same_tokens

    forced = ForcedDecoding(tokens=3, suppress=(5,), prompt=(1,), eot=5)
    assert same_tokens("int8", [[7, 8, 0]], [[7, 8, 9]], forced, exact=False) == 2
    with pytest.raises(BenchmarkError, match="differ from ours at token 2"):
        same_tokens("transformers", [[7, 8, 0]], [[7, 8, 9]], forced, exact=True)
    with pytest.raises(BenchmarkError, match=r"decoded \[2\] tokens"):
        same_tokens("faster-whisper", [[7, 8]], [[7, 8, 9]], forced, exact=False)


def test_a_missing_ctranslate2_is_reported_not_fatal(monkeypatch, tmp_path):
    import sys

    from bench.whisper_refs import load_ct2

    monkeypatch.setitem(sys.modules, "ctranslate2", None)  # import ctranslate2 raises ImportError
    reasons = load_ct2(tmp_path, threads=1)
    assert set(reasons) == {"fp32", "int8"} and all(r.startswith("not installed") for r in reasons.values())


def test_decoder_bytes_count_what_one_token_reads():
    """The ceiling's floor: every decoder weight once (not the cross-attention k/v projections: their output
    is cached), the tied embedding once, one row of the learned positions, the cached keys and values."""
    import zoo
    from bench.whisper_ceiling import decoder_bytes

    model = zoo.create_model("whisper_micro")
    c = model.config
    per_block = (4 * c.dim * c.dim + 3 * c.dim  # self-attention q, k, v, o (k without bias)
                 + 2 * c.dim * c.dim + 2 * c.dim  # cross-attention q and o
                 + 2 * c.dim * c.text_mlp_hidden + c.text_mlp_hidden + c.dim  # MLP
                 + 6 * c.dim)  # three LayerNorms
    want = c.text_depth * per_block + c.vocab_size * c.dim + c.dim + 2 * c.dim  # blocks, embedding, one position, norm
    cache = c.text_depth * 2 * c.audio_ctx * c.dim  # the cross-attention keys and values each token reads
    assert decoder_bytes(model) == 4 * (want + cache)
