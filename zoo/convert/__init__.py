"""Converters: the ONLY place that knows foreign parameter names.

`from_hf(obj)` takes a transformers model instance or a local HF-format
directory (config.json + model.safetensors, sharded safetensors, or
pytorch_model.bin) and returns our model with the same weights.
`from_timm(model)` takes a timm VisionTransformer instance.
"""
from zoo.convert.hf import from_hf
from zoo.convert.timm_vit import from_timm

__all__ = ["from_hf", "from_timm"]
