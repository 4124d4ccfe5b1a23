"""scripts/train_audio.py (zoo train-audio; the tasks in zoo/training/keywords.py and speech_recognition.py) end
to end on the speech set shipped in data/speech_tiny: the keyword AST and the
Whisper recogniser train on the shared engine, the loss goes down, a resumed run logs the losses of an
uninterrupted one, and the saved model classifies or transcribes through the public API."""
import json
from pathlib import Path

import pytest
import torch

import zoo
from data.ast_features import ast_features
from data.speech import load_manifest
from tests.helpers import ROOT, load_script, stop_after_checkpoint
from zoo.training import speech_recognition

train_audio = load_script("train_audio")
SHIPPED = ROOT / "data" / "speech_tiny"
COMMON = ["--warmup", "2", "--no-progress", "--threads", "1"]  # --data given: not the full set `make data` built


def train_losses(out: Path) -> dict[int, float]:
    return {r["step"]: r["loss"] for r in map(json.loads, (out / "metrics.jsonl").read_text().splitlines())
            if r.get("split", "train") == "train"}


def test_keywords_learn_resume_and_classify(tmp_path, capsys, monkeypatch):
    args = ["--task", "keywords", "--data", str(SHIPPED / "keywords"), *COMMON, "--batch-size", "32", "--lr", "1e-2",
            "--eval-every", "0"]
    straight = tmp_path / "straight"
    summary = train_audio.main([*args, "--steps", "120", "--out", str(straight)])
    losses = train_losses(straight)
    assert sorted(losses) == list(range(1, 121))
    first, last = sum(losses[s] for s in range(1, 11)) / 10, sum(losses[s] for s in range(111, 121)) / 10
    assert last < 0.9 * first, (first, last)  # 14 classes: ln 14 = 2.64 at the start
    assert "test accuracy" in capsys.readouterr().out
    assert summary == json.loads((straight / "summary.json").read_text())
    assert (straight / "confusion_test.png").stat().st_size > 1000

    resumed = tmp_path / "resumed"
    stop_after_checkpoint(monkeypatch, lambda: train_audio.main([*args, "--steps", "120", "--save-every", "70",
                                                                 "--out", str(resumed)]))  # killed at step 70
    assert max(train_losses(resumed)) == 70
    train_audio.main([*args, "--steps", "120", "--out", str(resumed), "--resume"])
    assert train_losses(resumed) == losses  # bit for bit: data order, RNG and optimizer restored

    model_dir = straight / "model"
    labels = json.loads((model_dir / "labels.json").read_text())
    model = zoo.load_pretrained(model_dir).eval()
    assert labels["labels"] == summary["classes"] and model.config.num_classes == len(labels["labels"])
    rows = [r for r in load_manifest(SHIPPED / "keywords") if r["split"] == "test" and r["label"] in labels["labels"]]
    features = ast_features([str(SHIPPED / "keywords" / r["audio"]) for r in rows], max_length=labels["max_length"])
    with torch.no_grad():
        predicted = [labels["labels"][i] for i in model(features).argmax(-1).tolist()]
    accuracy = sum(p == r["label"] for p, r in zip(predicted, rows)) / len(rows)
    assert accuracy == pytest.approx(summary["test_acc"], abs=1e-9)


def test_asr_learns_and_transcribes_through_the_public_api(tmp_path, monkeypatch):
    out = tmp_path / "asr"
    summary = train_audio.main(["--task", "asr", "--data", str(SHIPPED / "asr"), *COMMON, "--steps", "30",
                                "--batch-size", "16", "--lr", "2e-3",
                                "--eval-every", "15", "--eval-limit", "6", "--out", str(out)])
    losses = train_losses(out)
    assert losses[30] < 0.7 * losses[1], losses
    assert 0.0 <= summary["test_wer"] and summary["test_rows"] == 6
    assert 0.0 <= summary["test_ctc_wer"]  # the CTC head's best path (default --ctc-weight 0.3), a diagnostic
    pairs = [json.loads(line) for line in (out / "transcripts.jsonl").read_text().splitlines()]
    model = zoo.load_pretrained(out / "model")
    first = pairs[0]
    again = zoo.transcribe(model, str(SHIPPED / "asr" / first["audio"]), **speech_recognition.decoding_options())
    from data.audio_tasks import normalize_text
    assert normalize_text(again["text"]) == first["hypothesis"]

    # --evaluate rescores the saved model as the run's end did, and keeps the run's own files
    before = {name: (out / name).read_bytes() for name in ("summary.json", "transcripts.jsonl")}
    evaluate = ["--task", "asr", "--data", str(SHIPPED / "asr"), "--eval-limit", "6", "--evaluate", str(out / "model"),
                "--out", str(out)]
    greedy = train_audio.main(evaluate)
    assert greedy["test_wer"] == summary["test_wer"] and greedy["human_wer"] == summary["human_wer"]
    beam = train_audio.main([*evaluate, "--beam-size", "3"])
    assert beam["beam_size"] == 3 and beam["test_rows"] == 6
    assert json.loads((out / "evaluation_beam3.json").read_text())["test_wer"] == beam["test_wer"]
    assert len((out / "evaluation_beam3_transcripts.jsonl").read_text().splitlines()) == 16  # 6 test, 6 human, 4 val
    assert before == {name: (out / name).read_bytes() for name in before}
    assert summary["val_rows"] == 4 and 0.0 <= summary["val_wer"]  # training voices, unseen sentences
    # ... and so does the run's last training checkpoint (its weights with the CTC head), rebuilt from --model
    # and the tokenizer learnt again from the training rows
    kept = train_audio.main([*evaluate[:-3], str(out / "checkpoint.pt"), "--out", str(out)])
    assert {k: kept[k] for k in ("test_wer", "test_ctc_wer", "val_wer")} == \
        {k: summary[k] for k in ("test_wer", "test_ctc_wer", "val_wer")}
    assert (out / "evaluation_checkpoint_greedy.json").exists()
    # ... and with a language model's shallow fusion, fitted on the extracts' sentences less those scored
    from data.audio_tasks import lm_corpus
    from data.text import BROWN_EXTRACT, KJV_EXTRACT
    read = []
    monkeypatch.setattr(speech_recognition, "lm_corpus",
                        lambda exclude: read.append(exclude) or lm_corpus(exclude, KJV_EXTRACT, BROWN_EXTRACT)[:3000])
    fused = train_audio.main([*evaluate, "--lm-weight", "0.3", "--lm-order", "4"])
    assert fused["lm_sentences"] == 3000 and fused["test_rows"] == 6 and 0.0 <= fused["test_wer"]
    scored = [json.loads(line)
              for line in (out / "evaluation_greedy_lm4x0.3_transcripts.jsonl").read_text().splitlines()]
    assert sorted(read[0]) == sorted(r["text"] for r in load_manifest(SHIPPED / "asr") if r["split"] != "train")
    assert len(scored) == 16
    (tmp_path / "not.pt").write_bytes(b"not a checkpoint")
    with pytest.raises(SystemExit, match="not a readable training checkpoint"):
        train_audio.main([*evaluate[:-3], str(tmp_path / "not.pt"), "--out", str(out)])
    with pytest.raises(SystemExit, match="do not fit --model whisper_micro"):
        train_audio.main([*evaluate[:-3], str(out / "checkpoint.pt"), "--text-vocab", "256", "--out", str(out)])

    # --init fine-tunes the saved recogniser with the tokenizer it carries: it starts where the run ended, well below
    # a fresh model on the same two steps. Without the CTC loss: its head is not saved, so both start a random one
    # (which one depends on how much of the random stream building the model took).
    tuned, fresh = tmp_path / "tuned", tmp_path / "fresh"
    short = ["--task", "asr", "--data", str(SHIPPED / "asr"), *COMMON, "--steps", "2", "--batch-size", "16",
             "--lr", "1e-4", "--eval-every", "0", "--eval-limit", "2", "--ctc-weight", "0"]
    train_audio.main([*short, "--init", str(out / "model"), "--out", str(tuned)])
    train_audio.main([*short, "--out", str(fresh)])
    assert train_losses(tuned)[1] < 0.8 * train_losses(fresh)[1], (train_losses(tuned), train_losses(fresh))
    again = zoo.load_pretrained(tuned / "model")
    assert again.tokenizer.encode(" and it was so") == model.tokenizer.encode(" and it was so")
    assert json.loads((tuned / "summary.json").read_text())["model"] == str(out / "model")


def test_wrong_family_is_refused(tmp_path):
    with pytest.raises(SystemExit, match="--lm-weight >= 0.* got 0.3, -1.0, 6 and 0"):
        train_audio.main(["--task", "asr", "--lm-weight", "-1"])
    with pytest.raises(SystemExit, match="--eval-limit >= 0; got 0.3, 0.0, 6 and -1"):  # not all but the last row
        train_audio.main(["--task", "asr", "--eval-limit", "-1"])
    with pytest.raises(SystemExit, match="is a gpt model"):
        train_audio.main(["--task", "asr", "--model", "gpt_tiny"])
    with pytest.raises(SystemExit, match="use it with --task asr"):
        train_audio.main(["--task", "keywords", "--init", str(tmp_path)])
    zoo.create_model("gpt_tiny").save_pretrained(tmp_path / "gpt")
    with pytest.raises(SystemExit, match="not a Whisper"):
        train_audio.main(["--task", "asr", "--init", str(tmp_path / "gpt"), "--out", str(tmp_path / "out")])


def scripted_whisper(tokenizer, script: list[int]):
    """A whisper_micro whose decoder says `script` whatever it hears: its i-th head call (the prefill, then one
    call per token) puts all the probability on script[i]."""
    model = zoo.create_model("whisper_micro", vocab_size=tokenizer.vocab_size).eval()
    model.tokenizer = tokenizer
    calls = iter(script)

    def forward_head(features):  # (B, T, D) -> (B, T, V)
        logits = torch.zeros(*features.shape[:2], tokenizer.vocab_size)
        logits[..., next(calls)] = 20.0
        return logits
    model.forward_head = forward_head
    return model


@pytest.mark.parametrize("text_vocab", [256, 512])  # characters, where every transcript starts with " "; a BPE
def test_scoring_lets_a_learned_vocabulary_write_spaces(text_vocab):
    from data.audio_tasks import normalize_text, select
    from data.whisper_vocab import train_whisper_tokenizer

    rows = load_manifest(SHIPPED / "asr")
    tokenizer = train_whisper_tokenizer([normalize_text(r["text"]) for r in select(rows, "train")], text_vocab)
    row = select(rows, "test")[0]
    reference = normalize_text(row["text"])
    model = scripted_whisper(tokenizer, tokenizer.encode(" " + reference) + [tokenizer.eot])
    wer, pairs = speech_recognition.word_error_rate(model, [row], SHIPPED / "asr", 0)
    # with openai-whisper's rules as written, the bare space (the first token of " -" in these vocabularies) was
    # suppressed: "pansiesare..."
    assert pairs[0]["hypothesis"] == reference and wer == 0.0
    suppressed = set(tokenizer.non_speech_tokens)
    assert tokenizer.encode('"')[0] in suppressed and tokenizer.encode(" ")[0] not in suppressed


def test_fine_tuning_an_openai_checkpoint_keeps_its_tokenizer_and_writes_transformers(tmp_path):
    """--init takes an openai-whisper .pt (multilingual vocabulary, 30 s windows): the fine-tuned model keeps its
    tokenizer and special tokens, and model-hf/ is transformers' directory with the same outputs."""
    import dataclasses

    import transformers

    from tests.helpers import tiny_openai_whisper

    ref, _ = tiny_openai_whisper(51865, eot_scale=20.0)
    checkpoint = tmp_path / "tiny.pt"
    torch.save({"dims": dataclasses.asdict(ref.dims), "model_state_dict": ref.state_dict()}, checkpoint)
    out = tmp_path / "tuned"
    summary = train_audio.main(["--task", "asr", "--data", str(SHIPPED / "asr"), *COMMON, "--steps", "2",
                                "--batch-size", "4", "--lr", "1e-4", "--eval-every", "0", "--eval-limit", "1",
                                "--ctc-weight", "0", "--init", str(checkpoint), "--out", str(out)])
    assert summary["model"] == str(checkpoint) and summary["steps"] == 2
    ours = zoo.load_pretrained(out / "model").eval()
    assert ours.tokenizer.multilingual and ours.tokenizer.sot_sequence("fr") == [50258, 50265, 50359]
    hf = transformers.WhisperForConditionalGeneration.from_pretrained(out / "model-hf").eval()
    again = zoo.load_directory(out / "model-hf").eval()
    mel = torch.randn(1, 80, 3000, generator=torch.Generator().manual_seed(0))
    tokens = torch.tensor([[50258, 50259, 50359, 50363, 440, 2068]])
    with torch.no_grad():
        want = ours(mel, tokens)
        assert (hf(input_features=mel, decoder_input_ids=tokens).logits - want).abs().max() < 1e-4
        assert (again(mel, tokens) - want).abs().max() < 1e-5
    assert again.tokenizer.encode(" and it was so") == ours.tokenizer.encode(" and it was so")
    # --evaluate reads the transformers directory too, scoring only the splits asked for
    scored = train_audio.main(["--task", "asr", "--data", str(SHIPPED / "asr"), "--evaluate", str(out / "model-hf"),
                               "--eval-splits", "human", "--eval-limit", "1", "--out", str(out)])
    assert scored["human_rows"] == 1 and "test_wer" not in scored and "val_wer" not in scored
