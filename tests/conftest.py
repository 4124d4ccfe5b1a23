"""Test-wide settings.

The tests run tiny models, where two OpenMP threads cost more in synchronisation
than they gain (a tiny ViT forward: ~1 ms on one thread, ~170 ms on two when the
other core is busy). Benchmarks, not tests, measure speed.
"""
import torch

torch.set_num_threads(1)
