"""Converters: the ONLY place that knows foreign parameter names.

`from_hf(obj)` takes a transformers model instance or a local HF-format
directory (config.json + model.safetensors, sharded safetensors, or
pytorch_model.bin) and returns our model with the same weights.
"""
from zoo.convert.hf import from_hf

__all__ = ["from_hf"]
