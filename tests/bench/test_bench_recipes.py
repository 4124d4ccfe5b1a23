"""bench/recipes.py: each training script's make-demo recipe, run as a user runs it, read back from its
summary.json. The every-section smoke test (tests/scripts/test_bench_document.py, slow) runs all of them."""
import pytest

from bench import recipes
from bench.report import BenchmarkError


def test_quick_overrides_replace_the_recipe_values_in_place():
    text = recipes.RECIPES[0]
    argv = recipes.command(text, quick=True, threads=1)
    assert argv[0] == "scripts/train_text.py" and argv[-1] == "--no-progress"
    for flag in ("--steps", "--warmup", "--eval-every", "--threads"):
        assert argv.count(flag) == 1
    assert argv[argv.index("--steps") + 1] == "8" and argv[argv.index("--threads") + 1] == "1"
    assert recipes.command(text, quick=False, threads=None)[argv.index("--steps") + 1] == "600"


def test_a_later_recipe_starts_from_an_earlier_ones_output():
    stage2 = recipes.RECIPES[-1]
    argv = recipes.command(stage2, quick=True, threads=None)
    assert "<vision-language: stage 1 (captions) --out>" in recipes.shown(argv)
    assert recipes._resolve(argv, {"vision-language: stage 1 (captions)": "/x/4-vl"})[argv.index("--init") + 1] \
        == "/x/4-vl"


def test_the_text_recipe_runs_and_reports(tmp_path):
    [row] = recipes.run(quick=True, threads=1, recipes=recipes.RECIPES[:1], log=lambda line: None, work=tmp_path)
    assert row["steps"] == 8 and 0 < row["wall_s"] <= row["total_s"]
    assert set(row["headline"]) == {"held-out loss", "perplexity"}
    assert 0 < float(row["headline"]["held-out loss"]) < 12
    text = recipes.report([row])
    assert "| text: gpt_tiny on the KJV extract | held-out loss **" in text and row["command"] in text


def test_a_failing_recipe_names_itself(tmp_path):
    broken = recipes.Recipe("broken", "train_text", ("--model", "no_such_preset"), (), recipes._loss)
    with pytest.raises(BenchmarkError, match="recipe 'broken' failed"):
        recipes.run(recipes=(broken,), log=lambda line: None, work=tmp_path)
