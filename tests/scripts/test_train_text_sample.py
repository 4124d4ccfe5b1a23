"""scripts/train_text.py --sample: the sample is printed under a line saying what it is, and a degenerate one
(next to nothing, a word or phrase looping) is withheld with the reason, never shown as a result."""
import pytest

from zoo.cli import train_text  # scripts/train_text.py wraps its main


@pytest.mark.parametrize("text, reason", [
    ("a a a a a a a a", "it repeats 'a' over and over"),
    ("And the cat sat on the mat on the mat on the mat on the mat on the mat.",
     "it repeats 'on the mat' over and over"),
    ("And God said", "only 3 words"),
    ("", "only 0 words"),
    (" ".join(["the LORD said unto him, and"] * 5), "only 6 distinct words in 30"),
])
def test_degenerate_samples_are_named(text, reason):
    assert train_text.degenerate(text) == reason


def test_a_readable_sample_is_printed_indented_under_its_label(capsys):
    text = "And God said, Behold, the earth is good.\nAnd the people went out of the city."
    assert train_text.degenerate(text) is None
    train_text.print_sample(text, "80 sampled tokens")
    assert capsys.readouterr().out.splitlines() == [
        "sample (80 sampled tokens):", "  And God said, Behold, the earth is good.",
        "  And the people went out of the city."]


def test_a_degenerate_sample_is_withheld(capsys):
    train_text.print_sample("And God said a a a a a a", "80 sampled tokens")
    assert capsys.readouterr().out == "sample (80 sampled tokens) withheld: it repeats 'a' over and over\n"
