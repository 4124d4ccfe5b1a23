"""Task heads. Each consumes (B, N, D) features and owns its loss."""
from heads.classification import ClassifierHead
from heads.fusion import Projector, splice_images
from heads.lm import CausalLMHead
from heads.mlm import MLMHead
from heads.pooling import mean_pool

__all__ = ["CausalLMHead", "ClassifierHead", "MLMHead", "Projector", "mean_pool", "splice_images"]
