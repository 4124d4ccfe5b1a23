"""scripts/asr_errors.py: a recogniser's word errors by split, by held-out timbre, and by whether the training
transcripts hold the word, on hand-checked transcripts."""
import json

import pytest

from data.speech import SPEECH_TINY, load_manifest
from tests.helpers import load_script

asr_errors = load_script("asr_errors")


def test_word_errors_by_hand():
    pairs = [{"reference": "the cat sat", "hypothesis": "the bat sat"},
             {"reference": "a dog", "hypothesis": "a dog runs"},
             {"reference": "big cat", "hypothesis": ""}]
    r = asr_errors.word_errors(pairs, {"the", "sat", "a", "dog"})
    assert r["words"] == 7 and r["insertions"] == 1
    # cat substituted, runs inserted, "big cat" -> "<empty>": 1 sub + 1 del
    assert r["wer"] == pytest.approx((1 + 1 + 2) / 7)
    assert r["seen_share"] == pytest.approx(4 / 7) and r["seen_error_rate"] == 0.0
    assert r["unseen_share"] == pytest.approx(3 / 7) and r["unseen_error_rate"] == 1.0  # cat, big, cat


def test_report_from_a_transcripts_file(tmp_path, capsys):
    rows = load_manifest(SPEECH_TINY / "asr")
    test = [r for r in rows if r["split"] == "test"][:3]
    lines = [{"split": "test", "audio": r["audio"], "voice": r["voice"], "reference": "in the beginning",
              "hypothesis": "in the begining" if i else "in the beginning"} for i, r in enumerate(test)]
    lines.append({"split": "human", "audio": "h.flac", "voice": "asterisk:allison", "reference": "one two",
                  "hypothesis": "one"})
    path = tmp_path / "transcripts.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    report = asr_errors.main([str(path), "--data", str(SPEECH_TINY / "asr"), "--json", str(tmp_path / "e.json")])
    assert report["splits"]["test"]["wer"] == pytest.approx(2 / 9) and report["splits"]["human"]["wer"] == 0.5
    assert sum(t["clips"] for t in report["test_timbres"].values()) == 3
    assert set(report["test_timbres"]) == {asr_errors.timbre(r["voice"]) for r in test}
    assert json.loads((tmp_path / "e.json").read_text()) == report
    assert "| test | 3 |" in capsys.readouterr().out
    (tmp_path / "bad.jsonl").write_text('{"split": "test"}\n')
    with pytest.raises(SystemExit, match="missing \\['hypothesis', 'reference', 'voice'\\]"):
        asr_errors.main([str(tmp_path / "bad.jsonl"), "--data", str(SPEECH_TINY / "asr")])
    with pytest.raises(SystemExit, match="no such file"):
        asr_errors.main([str(tmp_path / "none.jsonl"), "--data", str(SPEECH_TINY / "asr")])
