"""zoo.convert.ct2_file reads what CTranslate2's own converter writes (ctranslate2 is the reference)."""
from __future__ import annotations

import struct

import pytest
import torch

from zoo.convert.ct2_file import read_ct2_file
from zoo.io import CorruptCheckpointError


@pytest.fixture(scope="module")
def converted(tiny_ct2):
    return tiny_ct2


def _expected(hf) -> dict[str, torch.Tensor]:
    """A few CTranslate2 names and the HF tensors they hold (q, k, v fused on the self-attention)."""
    model = hf.model
    attn = model.decoder.layers[1].self_attn
    return {
        "decoder/embeddings/weight": model.decoder.embed_tokens.weight,
        "decoder/projection/weight": model.decoder.embed_tokens.weight,  # an alias in the file
        "encoder/conv1/weight": model.encoder.conv1.weight,
        "encoder/position_encodings/encodings": model.encoder.embed_positions.weight,
        "decoder/layer_1/self_attention/linear_0/weight": torch.cat(
            [attn.q_proj.weight, attn.k_proj.weight, attn.v_proj.weight]),
        "decoder/layer_1/ffn/linear_1/weight": model.decoder.layers[1].fc2.weight,
    }


@pytest.mark.parametrize("quantization, atol", [("float32", 0), ("float16", 1e-3), ("int8", 2e-2)])
def test_reads_what_ctranslate2_writes(converted, quantization, atol):
    hf, dirs = converted
    file = read_ct2_file(f"{dirs[quantization]}/model.bin")
    assert file.spec == "WhisperSpec"
    assert file.aliases["decoder/projection/weight"] == "decoder/embeddings/weight"  # and equal fresh norms
    weights = file.dequantized()
    assert not any(name.endswith("_scale") for name in weights)
    if quantization == "int8":
        assert file.variables["decoder/layer_1/ffn/linear_1/weight"].dtype == torch.int8
    for name, tensor in _expected(hf).items():
        assert weights[name].shape == tensor.shape, name
        torch.testing.assert_close(weights[name].float(), tensor.detach(), atol=atol, rtol=0, msg=name)


def test_bad_files_name_what_is_wrong(converted, tmp_path):
    data = open(f"{converted[1]['float32']}/model.bin", "rb").read()
    cases = {
        "truncated": (data[:len(data) // 2], r"is truncated: variable '.*' needs \d+ bytes at offset \d+"),
        "version": (struct.pack("<I", 99) + data[4:], "binary version 99"),
        "trailing": (data + b"\0\0", "2 bytes after its last alias"),
        "empty": (b"", "truncated: the binary version"),
    }
    for name, (content, message) in cases.items():
        (tmp_path / name).write_bytes(content)
        with pytest.raises(CorruptCheckpointError, match=message):
            read_ct2_file(tmp_path / name)


def test_reads_the_older_item_size_layout(tmp_path):
    """Binary version 3 (before dtype ids): an item size and an element count, float32 for size 4."""
    def string(text: str) -> bytes:
        return struct.pack("<H", len(text) + 1) + text.encode() + b"\0"
    weight = torch.arange(6, dtype=torch.float32).reshape(2, 3)
    variable = string("w") + struct.pack("<B2IBI", 2, 2, 3, 4, 6) + weight.numpy().tobytes()
    path = tmp_path / "model.bin"
    path.write_bytes(struct.pack("<I", 3) + string("OldSpec") + struct.pack("<II", 2, 1) + variable
                     + struct.pack("<I", 1) + string("v") + string("w"))
    file = read_ct2_file(path)
    assert (file.spec, file.revision, file.aliases) == ("OldSpec", 2, {"v": "w"})
    torch.testing.assert_close(file.variables["w"], weight, atol=0, rtol=0)
    assert torch.equal(file.dequantized()["v"], weight)  # the alias resolves to its target
