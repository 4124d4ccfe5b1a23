"""The zoo: named models on the shared block library.

    import zoo
    model = zoo.create_model("gpt_tiny")
    zoo.list_models("gpt*")
    zoo.generate(model, input_ids, max_new_tokens=32)
    zoo.transcribe(whisper_model, "speech.flac")   # {"text", "segments", "language"}
    zoo.embed(bert_model, tokenizer, ["a sentence"])  # (1, D) with the checkpoint's pooling
"""
from backbones.inference import pack_for_inference
from zoo import ast, bert, clip, gpt, llama, llava, marian, vit, whisper  # noqa: F401  (each registers its family and presets)
from zoo.convert import from_ct2, from_gguf, from_hf, from_timm, from_whisper, load_directory
from zoo.convert.peft import load_lora, save_lora
from zoo.generation import GenerationConfig, generate, stream, transcribe
from zoo.generation.translate import translate
from zoo.lora import add_lora, merge_lora
from zoo.pretrained import load_pretrained, save_pretrained
from zoo.quantize import quantize
from zoo.registry import create_model, list_families, list_models, model_info, register_model
from zoo.sentence_embedding import embed

__all__ = ["GenerationConfig", "add_lora", "create_model", "embed", "from_ct2", "from_gguf", "from_hf", "from_timm",
           "from_whisper", "generate", "list_families", "list_models", "load_directory", "load_lora",
           "load_pretrained", "merge_lora", "model_info", "pack_for_inference", "quantize", "register_model",
           "save_lora", "save_pretrained", "stream", "transcribe", "translate"]
