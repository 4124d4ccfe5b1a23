"""`zoo translate` (zoo/cli/translate.py, scripts/translate.py) on a tiny Marian taught for a few seconds to copy
word strings, so that its outputs end (EOS) at different lengths and differ from sentence to sentence: the same
lines from TEXT arguments, a file and stdin; the same translations in any batch size, in input order; one-line
errors for a sentence over the model's positions, a model without a tokenizer or of another family."""
import io
import sys
from pathlib import Path

import pytest
import torch

import zoo
from data.marian_tokenizer import train_joint_vocabulary
from tests.helpers import load_script
from zoo.cli import main as zoo_main
from zoo.cli import translate
from zoo.cli.common import UsageError
from zoo.marian import shift_right

WORDS = ["and", "god", "said", "light", "earth", "the", "was", "day", "night", "waters"]
SENTENCES = ["and god said let there be light", "", "the earth", "god said", "waters",
             "and the evening and the morning were the first day", "light was day"]
MAX_POSITIONS = 40
CORPUS = Path(__file__).resolve().parents[2] / "data" / "corpus" / "parallel"


def copying_marian(directory: Path, steps: int = 120) -> Path:
    """A marian_tiny (MAX_POSITIONS positions) with a joint vocabulary of the shipped corpus, trained `steps`
    steps to copy strings of WORDS, saved with its tokenizer into `directory`."""
    english = (CORPUS / "train.en").read_text(encoding="utf-8").splitlines()[:60]
    spanish = (CORPUS / "train.es").read_text(encoding="utf-8").splitlines()[:60]
    tokenizer = train_joint_vocabulary(english, spanish, directory / "tokenizer", 120)
    torch.manual_seed(0)
    model = zoo.create_model("marian_tiny", vocab_size=tokenizer.vocab_size, pad_id=tokenizer.pad_id,
                             eos_id=tokenizer.eos_id, max_positions=MAX_POSITIONS)
    generator = torch.Generator().manual_seed(0)
    optimizer = torch.optim.Adam(model.parameters(), 3e-3)
    for _ in range(steps):
        lengths = torch.randint(1, 7, (16,), generator=generator).tolist()
        texts = [" ".join(WORDS[i] for i in torch.randint(0, len(WORDS), (n,), generator=generator)) for n in lengths]
        batch = tokenizer.batch(texts, text_target=texts)
        labels = batch["labels"].masked_fill(batch["labels"] == tokenizer.pad_id, -100)
        logits = model(batch["input_ids"], batch["attention_mask"], shift_right(labels, tokenizer.pad_id))
        loss = torch.nn.functional.cross_entropy(logits.flatten(0, 1), labels.flatten(), ignore_index=-100)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    model.eval().tokenizer = tokenizer
    model.save_pretrained(directory / "model")
    return directory / "model"


@pytest.fixture(scope="module")
def marian(tmp_path_factory) -> str:
    return str(copying_marian(tmp_path_factory.mktemp("marian")))


def lines_of(text: str) -> list[str]:
    return text.split("\n")[:-1]  # every line ends with "\n"


def test_arguments_file_and_stdin_give_the_same_lines(marian, tmp_path, monkeypatch, capsys):
    assert zoo_main.main(["translate", "--model", marian, *SENTENCES]) == 0
    from_arguments = lines_of(capsys.readouterr().out)
    assert len(from_arguments) == len(SENTENCES) and from_arguments[1] == ""
    assert all(from_arguments[i] for i in range(len(SENTENCES)) if i != 1)
    assert len(set(from_arguments)) >= 4  # the sentences' translations differ, so their order shows
    (tmp_path / "in.txt").write_text("".join(f"{s}\n" for s in SENTENCES))
    translate.main(["--model", marian, "--input", str(tmp_path / "in.txt"), "--output", str(tmp_path / "out.txt")])
    assert "translating" in capsys.readouterr().err  # the progress bar, on stderr
    assert lines_of((tmp_path / "out.txt").read_text()) == from_arguments
    for argv in ([], ["--input", "-"]):
        monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join(SENTENCES)))  # no final newline: the same lines
        assert translate.main(["--model", marian, *argv]) == from_arguments
        assert lines_of(capsys.readouterr().out) == from_arguments
    assert load_script("translate").main is translate.main


@pytest.mark.parametrize("beams", ["1", "4"])
def test_batching_keeps_translations_and_their_order(marian, beams, capsys):
    one_by_one = [translate.main(["--model", marian, "--beam-size", beams, s])[0] if s else "" for s in SENTENCES]
    for batch_size in ("1", "3"):
        together = translate.main(["--model", marian, "--beam-size", beams, "--batch-size", batch_size, *SENTENCES])
        assert together == one_by_one


def test_the_budget_of_new_tokens():
    assert translate.new_token_budget([3, 9], 40) == 28  # 2 x the longest + 10
    assert translate.new_token_budget([20], 40) == 39  # the decoder's positions less its start token
    assert translate.new_token_budget([20], 40, given=5) == 5
    with pytest.raises(UsageError, match="--max-new-tokens 40: .* 40 positions.* at most 39"):
        translate.new_token_budget([3], 40, given=40)


def test_a_sentence_too_long_is_named_or_cut(marian, tmp_path, capsys):
    long = " ".join(WORDS * 4)
    (tmp_path / "in.txt").write_text(f"god said\n{long}\n")
    with pytest.raises(UsageError, match=r"in.txt line 2 has \d+ tokens .* at most 40: .*--truncate"):
        translate.main(["--model", marian, "--input", str(tmp_path / "in.txt")])
    texts = translate.main(["--model", marian, "--input", str(tmp_path / "in.txt"), "--truncate"])
    assert len(texts) == 2 and all(texts)
    assert "warning: --input" in capsys.readouterr().err


def test_models_and_flags_it_refuses_say_what_is_expected(marian, tmp_path, capsys):
    expected = "expected a Marian directory with its tokenizer"
    zoo.create_model("marian_tiny").save_pretrained(tmp_path / "bare")
    zoo.create_model("gpt_tiny").save_pretrained(tmp_path / "gpt")
    for model, what in [("marian_tiny", "is a preset"), (str(tmp_path / "bare"), "a Marian without its tokenizer"),
                        (str(tmp_path / "gpt"), "holds a gpt model")]:
        assert zoo_main.main(["translate", "--model", model, "x"]) == 2
        err = capsys.readouterr().err
        assert len(err.strip().splitlines()) == 1 and what in err and expected in err
    with pytest.raises(UsageError, match="is a directory"):
        translate.main(["--model", marian, "--output", str(tmp_path), "x"])
    with pytest.raises(SystemExit):
        translate.main(["--model", marian, "--input", str(tmp_path / "in.txt"), "x"])
    assert "not both" in capsys.readouterr().err
    with pytest.raises(UsageError, match="nothing.txt' cannot be read"):
        translate.main(["--model", marian, "--input", str(tmp_path / "nothing.txt")])
