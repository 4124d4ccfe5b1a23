"""The tiny LLaVA both the parity tests and the speculative ones build: transformers' config at random weights
(a CLIP tower 32 px / patch 8, a 2-layer LLaMA of 97 tokens), a character tokenizer and the processor, and
named prompts with their images."""
import torch
import transformers

from data.llava_processor import LlavaProcessor, clip_transform
from tests.helpers import randomize

VOCAB, IMAGE_ID, PAD, BOS = 97, 96, 0, 1
TOKENS = 16  # per image: 32x32 pixels in 8-pixel patches, class token dropped


def hf_config(layer=-2, strategy="default", tied=False, act="gelu", bias=True):
    vision = transformers.CLIPVisionConfig(hidden_size=48, intermediate_size=96, num_hidden_layers=3,
                                           num_attention_heads=4, image_size=32, patch_size=8)
    text = transformers.LlamaConfig(vocab_size=VOCAB, hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                                    num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=160,
                                    rms_norm_eps=1e-5, bos_token_id=BOS, eos_token_id=None, pad_token_id=PAD,
                                    tie_word_embeddings=tied)
    return transformers.LlavaConfig(vision_config=vision, text_config=text, image_token_id=IMAGE_ID,
                                    image_seq_length=TOKENS + (strategy == "full"), vision_feature_layer=layer,
                                    vision_feature_select_strategy=strategy, projector_hidden_act=act,
                                    multimodal_projector_bias=bias, tie_word_embeddings=tied)


def hf_llava_model(**kwargs):
    ref = randomize(transformers.LlavaForConditionalGeneration(hf_config(**kwargs)), std=0.2)
    ref.generation_config.eos_token_id = None
    ref.generation_config.pad_token_id = PAD
    return ref


class CharTokenizer:
    """Text -> one id per character in 3..94 (never the placeholder 96): enough for the processor."""
    pad_id, bos_id, eos_id = PAD, BOS, 2

    def encode(self, text):
        return [3 + ord(c) % 92 for c in text]


def processor(tokens=TOKENS):
    return LlavaProcessor(CharTokenizer(), IMAGE_ID, tokens, clip_transform(32))


def image(seed):
    return torch.randint(0, 256, (3, 40, 44), dtype=torch.uint8, generator=torch.Generator().manual_seed(seed))


PROMPTS = {  # name -> (prompt, images)
    "one": ("<image>\nwhat colour is the circle?", [image(0)]),
    "two": ("compare <image> with <image> please", [image(1), image(2)]),
    "none": ("a question without images", []),
    "short": ("<image> hi", [image(3)]),
}


def batch(*names, tokens=TOKENS):
    prompts, images = zip(*(PROMPTS[n] for n in names))
    return processor(tokens)(list(prompts), list(images))
