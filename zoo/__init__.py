"""The zoo: named models on the shared block library.

    import zoo
    model = zoo.create_model("gpt_tiny")
    zoo.list_models("gpt*")
"""
from zoo import bert, gpt, llama, vit  # noqa: F401  (each registers its family and presets)
from zoo.convert import from_hf, from_timm
from zoo.pretrained import load_directory, load_pretrained, save_pretrained
from zoo.registry import create_model, list_families, list_models, model_info, register_model

__all__ = ["create_model", "from_hf", "from_timm", "list_families", "list_models", "load_directory", "load_pretrained",
           "model_info", "register_model", "save_pretrained"]
