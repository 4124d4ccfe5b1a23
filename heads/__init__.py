"""Task heads. Each consumes (B, N, D) features and owns its loss."""
from heads.classification import ClassifierHead
from heads.lm import CausalLMHead
from heads.mlm import MLMHead

__all__ = ["CausalLMHead", "ClassifierHead", "MLMHead"]
