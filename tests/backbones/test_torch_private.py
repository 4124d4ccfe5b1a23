"""backbones/inference/torch_private.py: every private torch API we use exists in the installed torch, and
the inference code reaches private torch only through that file.

A failure here after a torch upgrade names the API that moved: find its new name (or a public
replacement) and update torch_private.py and its CHECKED_ON."""
import re
from pathlib import Path

import torch

from backbones.inference import torch_private

INFERENCE = Path(torch_private.__file__).parent
# torch.<...>._name (a private attribute anywhere under torch), or a private attribute of a tensor or module
PRIVATE = re.compile(r"\btorch(?:\.\w+)*\._\w+|\._(?:version|parameters|buffers|modules)\b|_get_build_directory")


def test_every_private_api_is_in_this_torch():
    missing = torch_private.missing()
    assert not missing, (f"torch {torch.__version__} lacks {missing} (checked on {torch_private.CHECKED_ON}): "
                         "update backbones/inference/torch_private.py")


def test_a_missing_api_is_named(monkeypatch):
    monkeypatch.setitem(torch_private.APIS, "torch.ops.mkldnn._no_such_op", ("test", lambda: True))
    monkeypatch.setitem(torch_private.APIS, "torch.utils.cpp_extension._no_such_fn", ("test", lambda: True))
    assert torch_private.missing() == ["torch.ops.mkldnn._no_such_op", "torch.utils.cpp_extension._no_such_fn"]


def test_inference_code_uses_private_torch_only_through_torch_private():
    found = {path.name: PRIVATE.findall(path.read_text()) for path in INFERENCE.glob("*.py")
             if path.name != "torch_private.py"}
    assert found and not any(found.values()), found
