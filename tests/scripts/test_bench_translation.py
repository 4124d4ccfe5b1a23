"""scripts/benchmark.py --only translation: the section end to end on --quick's tiny random Marian (a few
held-out verses, 8 tokens each), its tables well formed and written under benchmarks/<machine>/, ours' fp32
translations those of transformers (and of CTranslate2 fp32); and a missing model directory is named before
anything runs."""
import json

import pytest

from tests.helpers import load_script
from tests.helpers import markdown_tables as tables

pytest.importorskip("ctranslate2")
pytest.importorskip("sacrebleu")
benchmark = load_script("benchmark")

SIDES = ["ours fp32", "ours packed", "ours bf16 packed", "ours int8 packed", "transformers fp32", "CTranslate2 fp32",
         "CTranslate2 int8"]
REFERENCES = ["transformers fp32", "CTranslate2 fp32", "CTranslate2 int8"]


def test_translation_quick(tmp_path, capsys):
    out, stored = tmp_path / "translation.json", tmp_path / "benchmarks"
    benchmark.main(["--quick", "--only", "translation", "--translation-sentences", "5", "--threads", "1",
                    "--json", str(out), "--write-benchmarks", "--benchmarks-dir", str(stored), "--machine-slug", "box"])
    printed = capsys.readouterr().out
    quality, speed, targets = tables(printed)
    assert quality[0] == ["side", "BLEU", "chrF", "translations unlike transformers fp32's (of 5)", "output tokens"]
    assert [row[0] for row in quality[1:]] == SIDES
    assert quality[1][3] == "0" and quality[5][3] == "0"  # ours fp32 translates as transformers does
    assert quality[6][3] == "0"  # and CTranslate2 fp32 (its decoder starts from a zero vector: the <pad> row here)
    assert all(row[4] == "35" for row in quality[1:])  # random weights: 7 tokens each, then the cap (forced EOS)
    assert speed[0] == ["side", "batch", "s", "sentences/s", "tokens/s",
                        *(f"speed-up vs {r} (IQR)" for r in REFERENCES)]
    assert [(row[0], row[1]) for row in speed[1:]] == [(s, b) for b in ("1", "4") for s in SIDES]
    assert all(float(row[3]) > 0 for row in speed[1:])
    assert all(("x (" in row[5]) == (row[0].startswith("ours")) for row in speed[1:])
    assert [(row[0], row[2], row[4]) for row in targets[1:]] == [
        (b, ref, target) for b in ("1", "4") for ref, target in (("transformers fp32", ">= 1.5x"),
                                                                 ("CTranslate2 fp32", ">= 1.0x"))]
    assert {row[5] for row in targets[1:]} <= {"yes", "no"}
    assert printed.count("Machine: ") == 1 and "torch threads 1" in printed
    saved = json.loads(out.read_text())["translation"]
    assert saved["translations"]["ours fp32"] == saved["translations"]["transformers fp32"]
    assert all(len(saved["times"][b][s]) == 2 for b in ("1", "4") for s in SIDES)
    assert {p.name for p in (stored / "box").iterdir()} >= {"translation.md", "translation-1.csv",
                                                           "translation-3.csv", "README.md"}


def test_translation_sides_narrow_the_run(capsys):
    """--translation-sides runs those sides only, with transformers fp32 (what every translation is compared with)
    added; the tables and targets cover the references that ran."""
    benchmark.main(["--quick", "--only", "translation", "--translation-sentences", "3", "--translation-batches", "2",
                    "--translation-repeats", "1", "--threads", "1", "--translation-sides", "CTranslate2 fp32",
                    "ours packed"])
    quality, speed, targets = tables(capsys.readouterr().out)
    assert [row[0] for row in quality[1:]] == ["ours packed", "transformers fp32", "CTranslate2 fp32"]
    assert speed[0][5:] == ["speed-up vs transformers fp32 (IQR)", "speed-up vs CTranslate2 fp32 (IQR)"]
    assert [(row[1], row[2]) for row in targets[1:]] == [("ours packed", "transformers fp32"),
                                                         ("ours packed", "CTranslate2 fp32")]


def test_a_missing_model_is_named_before_any_section_runs(tmp_path, capsys):
    with pytest.raises(SystemExit):
        benchmark.parse_args(["--only", "ceilings", "translation", "--translation-model", str(tmp_path / "none")])
    assert "train-translation" in capsys.readouterr().err
