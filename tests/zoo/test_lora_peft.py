"""zoo.save_lora / zoo.load_lora against peft (0.21) on random tiny transformers models of every family with a
transformers counterpart (fp32, max abs logit difference <= 1e-4): our adapters loaded by
peft.PeftModel.from_pretrained over the transformers model, peft's adapters (get_peft_model, random lora_B)
loaded into ours, both ways through GPT-2's fused c_attn; merged equals unmerged; and the errors. The core
layer's math is tests/zoo/test_lora.py."""
import copy
import json
import os
import warnings
from dataclasses import dataclass
from typing import Callable

import pytest
import torch
import transformers

import zoo
from backbones.lora import LoRAError
from tests.helpers import randomize
from tests.llava_cases import batch, hf_llava_model
from tests.zoo.test_marian import hf_marian, padded_source
from tests.zoo.test_parity_ast import hf_config as ast_config
from tests.zoo.test_parity_ast import spectrogram
from tests.zoo.test_parity_audio import hf_ref as whisper_ref
from tests.zoo.test_parity_audio import inputs as whisper_inputs
from tests.zoo.test_parity_clip import hf_vision
from tests.zoo.test_parity_clip import pixels as clip_pixels
from tests.zoo.test_parity_text import bert_ref, gpt2_ref, ids, llama_ref
from tests.zoo.test_parity_vision import hf_config as vit_config
from tests.zoo.test_parity_vision import pixels
from zoo.convert.peft import CONFIG_NAME, WEIGHTS_BIN_NAME, WEIGHTS_NAME
from zoo.lora import adapted_layers

peft = pytest.importorskip("peft")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
transformers.logging.set_verbosity_error()
ATOL = 1e-4


@dataclass(frozen=True)
class Case:
    """A family's tiny transformers model and inputs: ours takes them positionally, transformers by `names` and
    answers ours in its `output`."""
    build: Callable[[], torch.nn.Module]
    inputs: Callable[[], tuple]
    names: tuple[str, ...]
    peft_targets: list[str] | str  # what a peft user would name: a subset of the attention projections
    output: str = "logits"


CASES = {
    "gpt2": Case(gpt2_ref, lambda: (ids(101),), ("input_ids",), ["c_attn"]),
    "llama": Case(lambda: llama_ref(False), lambda: (ids(103),), ("input_ids",), ["q_proj", "v_proj"]),
    "bert": Case(bert_ref, lambda: (ids(107),), ("input_ids",), ["query", "value"]),
    "vit": Case(lambda: randomize(transformers.ViTForImageClassification(vit_config())), lambda: (pixels(32),),
                ("pixel_values",), ["q_proj", "v_proj"]),
    "whisper": Case(whisper_ref, whisper_inputs, ("input_features", "decoder_input_ids"), ["q_proj", "v_proj"]),
    "llava": Case(hf_llava_model, lambda: tuple(batch("one")[k] for k in ("input_ids", "pixel_values",
                                                                                 "attention_mask")),
                  ("input_ids", "pixel_values", "attention_mask"), r".*language_model.*\.(q|v)_proj"),
    "marian": Case(hf_marian, lambda: (*padded_source(), ids(90, b=3, t=6)),
                   ("input_ids", "attention_mask", "decoder_input_ids"), ["q_proj", "out_proj"]),
    "ast": Case(lambda: randomize(transformers.ASTForAudioClassification(ast_config())), lambda: (spectrogram(),),
                ("input_values",), ["q_proj", "v_proj"]),
    "clip": Case(hf_vision, lambda: (clip_pixels(),), ("pixel_values",), ["k_proj", "out_proj"], "pooler_output"),
}


def hf_logits(model, case, inputs):
    with torch.no_grad():
        return getattr(model(**dict(zip(case.names, inputs))), case.output)


def our_logits(model, inputs):
    with torch.no_grad():
        return model(*inputs)


def randomize_lora_B(model, seed=1):
    """Adapters start at B = 0 (no change): give every lora_B values so they change the output."""
    torch.manual_seed(seed)
    with torch.no_grad():
        for name, p in model.named_parameters():
            if "lora_B" in name:
                p.normal_(0, 0.2)
    return model


def peft_adapter(ref, directory, seed=1, safe=True, **config):
    """peft's adapter on a copy of `ref`, lora_B randomised, saved to `directory`; returns the PeftModel."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = peft.get_peft_model(copy.deepcopy(ref), peft.LoraConfig(**config))
    randomize_lora_B(model, seed).eval()
    model.save_pretrained(directory, safe_serialization=safe)
    return model


def peft_load(ref, directory):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return peft.PeftModel.from_pretrained(copy.deepcopy(ref), directory).eval()


def assert_close(got, want):
    assert (got - want).abs().max().item() <= ATOL


@pytest.mark.parametrize("family", list(CASES))
def test_our_adapters_load_in_peft(family, tmp_path):
    """Default targets (every attention's q/k/v/o: GPT-2's c_attn fused, LLaVA's tower too), random B."""
    case = CASES[family]
    ref, inputs = case.build(), case.inputs()
    ours = randomize_lora_B(zoo.add_lora(zoo.from_hf(ref), r=4, alpha=8))
    want = our_logits(ours, inputs)
    assert (want - hf_logits(ref, case, inputs)).abs().max() > 1e-2  # the adapters change the output
    zoo.save_lora(ours, tmp_path)
    assert_close(hf_logits(peft_load(ref, tmp_path), case, inputs), want)
    assert_close(our_logits(zoo.load_lora(zoo.from_hf(ref), tmp_path), inputs), want)


@pytest.mark.parametrize("family", list(CASES))
def test_peft_adapters_load_in_ours_and_merge(family, tmp_path):
    """peft's adapters on a subset of the projections (a list, or a regex: LLaVA's language model only, where a
    list would also adapt the tower's unused last block)."""
    case = CASES[family]
    ref, inputs = case.build(), case.inputs()
    want = hf_logits(peft_adapter(ref, tmp_path, r=4, lora_alpha=8, target_modules=case.peft_targets), case, inputs)
    ours = zoo.load_lora(zoo.from_hf(ref), tmp_path)
    assert_close(our_logits(ours, inputs), want)
    assert_close(our_logits(zoo.merge_lora(ours), inputs), want)


def test_llava_tower_blocks_we_do_not_build_are_skipped(tmp_path):
    """A target list adapts every q_proj, the tower's last block too, which LLaVA never runs and our tower does not
    build: loading skips it as the converter does; the projector saved in full comes along."""
    case = CASES["llava"]
    ref, inputs = case.build(), case.inputs()
    model = peft_adapter(ref, tmp_path, r=2, lora_alpha=4, target_modules=["q_proj"],
                         modules_to_save=["multi_modal_projector"])
    assert any(".vision_tower.encoder.layers.2." in name for name, _ in model.named_parameters())
    with torch.no_grad():
        for p in model.base_model.model.model.multi_modal_projector.modules_to_save.parameters():
            p.normal_(0, 0.1)
    model.save_pretrained(tmp_path)
    ours = zoo.load_lora(zoo.from_hf(ref), tmp_path)
    assert ours.lora_modules_to_save == ("projector",)
    assert all(p.requires_grad for p in ours.projector.parameters())
    assert_close(our_logits(ours, inputs), hf_logits(model, case, inputs))


def test_rank_and_alpha_patterns_rslora_dropout_and_bin_weights(tmp_path):
    """peft's per-module ranks and alphas (patterns matched at a name's end), rank-stabilised scaling, dropout
    (off in eval), and the older adapter_model.bin."""
    case = CASES["llama"]
    ref, inputs = case.build(), case.inputs()
    model = peft_adapter(ref, tmp_path, safe=False, r=4, lora_alpha=8, target_modules=["q_proj", "v_proj", "down_proj"],
                         rank_pattern={"v_proj": 2}, alpha_pattern={r"layers\.1\.self_attn\.q_proj": 32},
                         use_rslora=True, lora_dropout=0.1)
    assert (tmp_path / WEIGHTS_BIN_NAME).is_file() and not (tmp_path / WEIGHTS_NAME).exists()
    ours = zoo.load_lora(zoo.from_hf(ref), tmp_path).eval()
    layers = adapted_layers(ours)
    assert layers["transformer.blocks.0.attn.v_proj"].lora_r == 2
    assert layers["transformer.blocks.1.attn.q_proj"].lora_scaling == pytest.approx(32 / 2)
    assert layers["transformer.blocks.0.ffn.down"].lora_dropout == 0.1
    trainable = {name for name, p in ours.named_parameters() if p.requires_grad}  # every group's adapters
    assert trainable == {f"{name}.lora_{which}" for name in layers for which in "AB"}
    assert_close(our_logits(ours, inputs), hf_logits(model, case, inputs))
    zoo.save_lora(ours, tmp_path / "again")  # and out again: the same patterns
    config = json.loads((tmp_path / "again" / CONFIG_NAME).read_text())
    assert config["use_rslora"] and config["rank_pattern"] == {"v_proj": 2}
    assert config["alpha_pattern"] == {r"1\.self_attn\.q_proj": 32}
    assert_close(hf_logits(peft_load(ref, tmp_path / "again"), case, inputs), our_logits(ours, inputs))


@pytest.mark.parametrize("cls", [transformers.BertForSequenceClassification, transformers.ViTForImageClassification])
def test_classifier_in_modules_to_save(cls, tmp_path):
    """A new classifier trained in full beside the adapters: peft's modules_to_save, both ways."""
    family = "bert" if cls is transformers.BertForSequenceClassification else "vit"
    ref = bert_ref(cls) if family == "bert" else randomize(cls(vit_config()))
    case = CASES[family]
    inputs = case.inputs()
    model = peft_adapter(ref, tmp_path, r=4, lora_alpha=8, target_modules=case.peft_targets,
                         modules_to_save=["classifier"])
    with torch.no_grad():
        for p in model.base_model.model.classifier.modules_to_save.parameters():
            p.normal_(0, 0.5)
    model.save_pretrained(tmp_path)
    want = hf_logits(model, case, inputs)
    ours = zoo.load_lora(zoo.from_hf(ref), tmp_path)
    assert ours.lora_modules_to_save == ("head.fc",) and ours.head.fc.weight.requires_grad
    assert_close(our_logits(ours, inputs), want)
    zoo.save_lora(ours, tmp_path / "again")
    assert json.loads((tmp_path / "again" / CONFIG_NAME).read_text())["modules_to_save"] == ["classifier"]
    assert_close(hf_logits(peft_load(ref, tmp_path / "again"), case, inputs), want)


def test_fused_c_attn_both_ways(tmp_path):
    """GPT-2: q and v only (B zero for k's rows), q/k/v of different ranks (block-diagonal, alpha keeping each
    scaling), read back at their own ranks; peft's c_attn adapter read in is written back as one c_attn adapter of its
    rank."""
    case = CASES["gpt2"]
    ref, inputs = case.build(), case.inputs()
    ours = zoo.add_lora(zoo.from_hf(ref), r=2, alpha=3, target_modules=["q_proj", "v_proj"])
    zoo.add_lora(ours, r=5, alpha=7, target_modules=["k_proj"])
    ours = randomize_lora_B(ours)
    zoo.save_lora(ours, tmp_path / "mixed")
    config = json.loads((tmp_path / "mixed" / CONFIG_NAME).read_text())
    assert config["target_modules"] == ["c_attn"] and config["rank_pattern"] == {}
    assert config["r"] == 9 and config["lora_alpha"] == pytest.approx(3 / 2 * 9)
    assert_close(hf_logits(peft_load(ref, tmp_path / "mixed"), case, inputs), our_logits(ours, inputs))
    back = adapted_layers(zoo.load_lora(zoo.from_hf(ref), tmp_path / "mixed"))  # each projection at its own rank
    assert {n: m.lora_r for n, m in back.items()} == {n: m.lora_r for n, m in adapted_layers(ours).items()}
    only_qv = zoo.add_lora(zoo.from_hf(ref), r=2, target_modules=["q_proj", "v_proj"])
    zoo.save_lora(randomize_lora_B(only_qv), tmp_path / "qv")
    assert sorted(adapted_layers(zoo.load_lora(zoo.from_hf(ref), tmp_path / "qv"))) == sorted(adapted_layers(only_qv))
    for name, layer in adapted_layers(ours).items():  # (k's B is stored under q's scaling: the same s B A)
        assert_close(back[name].delta_weight(), layer.delta_weight())

    want = hf_logits(peft_adapter(ref, tmp_path / "peft", r=4, lora_alpha=8, target_modules=["c_attn"]), case,
                     inputs)
    ours = zoo.load_lora(zoo.from_hf(ref), tmp_path / "peft")
    assert sorted(n.rsplit(".", 1)[1] for n in adapted_layers(ours)) == sorted(["q_proj", "k_proj", "v_proj"] * 2)
    zoo.save_lora(ours, tmp_path / "back")
    config = json.loads((tmp_path / "back" / CONFIG_NAME).read_text())
    assert (config["r"], config["lora_alpha"], config["fan_in_fan_out"]) == (4, 8, True)
    assert_close(hf_logits(peft_load(ref, tmp_path / "back"), case, inputs), want)


def test_tied_head_in_modules_to_save(tmp_path):
    """GPT-2's head is its token embedding: trained in full, it is written as lm_head and as transformer.wte, which
    peft loads into the base, so both ends hold the trained matrix there too."""
    case = CASES["gpt2"]
    ref, inputs = case.build(), case.inputs()
    ours = randomize_lora_B(zoo.add_lora(zoo.from_hf(ref), r=2, alpha=4, modules_to_save=["head"]))
    with torch.no_grad():
        ours.head.proj.weight.mul_(1.5)
    zoo.save_lora(ours, tmp_path)
    assert json.loads((tmp_path / CONFIG_NAME).read_text())["modules_to_save"] == ["lm_head"]
    assert_close(hf_logits(peft_load(ref, tmp_path), case, inputs), our_logits(ours, inputs))
    back = zoo.load_lora(zoo.from_hf(ref), tmp_path)
    assert back.lora_modules_to_save == ("head.proj",)
    assert_close(our_logits(back, inputs), our_logits(ours, inputs))


def test_our_names_where_transformers_has_none(tmp_path):
    """A mean-pooled ViT's head norm has no transformers name: the adapter is written for our model itself, as
    peft writes one it made on a zoo model, and both peft and load_lora read it over our model."""
    base = randomize(zoo.create_model("vit_tiny_patch4_28_gap"))
    x = pixels(28, chans=1)
    ours = randomize_lora_B(zoo.add_lora(copy.deepcopy(base), r=2, alpha=4, modules_to_save=["head"]))
    with torch.no_grad():
        ours.head.norm.weight.add_(0.5)
    zoo.save_lora(ours, tmp_path)
    config = json.loads((tmp_path / CONFIG_NAME).read_text())
    assert config["task_type"] is None and config["modules_to_save"] == ["head"]
    want = our_logits(ours, (x,))
    assert_close(our_logits(peft_load(base, tmp_path), (x,)), want)
    assert_close(our_logits(zoo.load_lora(copy.deepcopy(base), tmp_path), (x,)), want)
    peft_adapter(base, tmp_path / "peft", r=2, target_modules=["q_proj", "fc1"])
    assert_close(our_logits(zoo.load_lora(copy.deepcopy(base), tmp_path / "peft"), (x,)),
                 our_logits(peft_load(base, tmp_path / "peft"), (x,)))


def test_config_fields_peft_reads(tmp_path):
    ours = zoo.add_lora(zoo.from_hf(CASES["llama"].build()), r=4, alpha=8, target_modules=["q_proj"],
                        modules_to_save=["head"])
    zoo.save_lora(ours, tmp_path, base_model_name_or_path="runs/base")
    config = peft.LoraConfig.from_pretrained(tmp_path)
    assert (config.peft_type, config.task_type, config.r, config.lora_alpha) == ("LORA", "CAUSAL_LM", 4, 8)
    assert config.base_model_name_or_path == "runs/base" and config.bias == "none" and not config.use_dora
    assert set(config.target_modules) == {"q_proj"} and config.modules_to_save == ["lm_head"]
    zoo.save_lora(ours, tmp_path / "base", base_class="LlamaModel")
    config = json.loads((tmp_path / "base" / CONFIG_NAME).read_text())
    assert config["task_type"] is None


# ----------------------------------------------------------------------------- errors


@pytest.fixture
def llama_adapter(tmp_path):
    ref = CASES["llama"].build()
    peft_adapter(ref, tmp_path, r=4, lora_alpha=8, target_modules=["q_proj", "v_proj"])
    return ref, tmp_path


def edit_config(directory, **fields):
    path = directory / CONFIG_NAME
    path.write_text(json.dumps({**json.loads(path.read_text()), **fields}))


@pytest.mark.parametrize("fields, message", [
    (dict(peft_type="IA3"), r"peft_type 'IA3'.*expected 'LORA'"),
    (dict(use_dora=True), r"use_dora=True asks for DoRA"),
    (dict(bias="all"), r"bias='all'.*expected 'none'"),
    (dict(init_lora_weights="pissa"), r"init_lora_weights='pissa' also rewrites the base weights"),
])
def test_unsupported_configs_are_named(llama_adapter, fields, message):
    ref, directory = llama_adapter
    edit_config(directory, **fields)
    ours = zoo.from_hf(ref)
    with pytest.raises(LoRAError, match=message):
        zoo.load_lora(ours, directory)
    assert not adapted_layers(ours)


def test_missing_files_are_named(llama_adapter, tmp_path):
    ref, directory = llama_adapter
    with pytest.raises(LoRAError, match=r"has no adapter_config\.json"):
        zoo.load_lora(zoo.from_hf(ref), tmp_path / "nothing")
    (directory / WEIGHTS_NAME).unlink()
    with pytest.raises(LoRAError, match=r"no weights: expected adapter_model\.safetensors or adapter_model\.bin"):
        zoo.load_lora(zoo.from_hf(ref), directory)


def test_shape_and_module_mismatches_are_named(llama_adapter):
    ref, directory = llama_adapter
    wider = zoo.from_hf(llama_ref(False, kv_heads=4))  # k/v of 64 outputs, not 32
    with pytest.raises(LoRAError, match=r"layers\.0\.self_attn\.v_proj\.lora_B\.weight has shape \(32, 4\), expected "
                                        r"\(64, 4\)"):
        zoo.load_lora(wider, directory)
    edit_config(directory, r=2)
    with pytest.raises(LoRAError, match=r"lora_A\.weight has shape \(4, 64\), expected \(2, 64\) \(rank 2"):
        zoo.load_lora(zoo.from_hf(ref), directory)
    edit_config(directory, r=4)
    shallow = zoo.from_hf(transformers.LlamaForCausalLM(transformers.LlamaConfig(
        **{**ref.config.to_dict(), "num_hidden_layers": 1})))
    with pytest.raises(LoRAError, match=r"2 module\(s\) that Llama does not have: \['model\.layers\.1\.self_attn"):
        zoo.load_lora(shallow, directory)
    assert not adapted_layers(shallow) and not adapted_layers(wider)


def test_save_errors():
    ours = zoo.from_hf(CASES["llama"].build())
    with pytest.raises(LoRAError, match="has no LoRA adapter"):
        zoo.save_lora(ours, "unused")
    zoo.add_lora(ours, r=2)
    with pytest.raises(LoRAError, match=r"base_class='BertModel'.*\['LlamaForCausalLM', 'LlamaModel', 'zoo'\]"):
        zoo.save_lora(ours, "unused", base_class="BertModel")
    vit = zoo.add_lora(zoo.create_model("vit_tiny_patch4_28_gap"), r=2, modules_to_save=["head"])
    with pytest.raises(LoRAError, match=r"ViTForImageClassification has no counterpart of \['head\.norm\.weight'"):
        zoo.save_lora(vit, "unused", base_class="ViTForImageClassification")


def test_timm_vit_q_and_v_alone_under_hf_vit_names(tmp_path):
    """timm fuses q/k/v in one `qkv`, so peft cannot adapt q and v alone there; converted, ours can, and the adapter
    is written under HF ViT's names: peft puts each tensor on the matching q / v layer of a transformers ViT of that
    shape, and load_lora reads it back onto the timm-converted model."""
    from timm.models.vision_transformer import VisionTransformer as TimmViT

    base = zoo.from_timm(randomize(TimmViT(img_size=32, patch_size=16, embed_dim=48, depth=2, num_heads=4,
                                           num_classes=7)))
    ours = randomize_lora_B(zoo.add_lora(copy.deepcopy(base), r=2, alpha=4, target_modules=["q_proj", "v_proj"]))
    zoo.save_lora(ours, tmp_path)
    assert json.loads((tmp_path / CONFIG_NAME).read_text())["target_modules"] == ["q_proj", "v_proj"]
    hf = transformers.ViTForImageClassification(transformers.ViTConfig(
        hidden_size=48, num_hidden_layers=2, num_attention_heads=4, intermediate_size=192, image_size=32,
        patch_size=16, num_labels=7))
    peft_model = peft_load(hf, tmp_path)
    layers = dict(peft_model.named_modules())
    for i in range(2):
        for name in ("q_proj", "v_proj"):  # transformers 5's ViT names (4's: attention.attention.query, ...)
            theirs = layers[f"base_model.model.vit.layers.{i}.attention.{name}"]
            mine = ours.get_submodule(f"transformer.blocks.{i}.attn.{name}")
            assert torch.equal(theirs.lora_A["default"].weight, mine.lora_A)
            assert torch.equal(theirs.lora_B["default"].weight, mine.lora_B)
    x = pixels(32)
    assert_close(our_logits(zoo.load_lora(copy.deepcopy(base), tmp_path), (x,)), our_logits(ours, (x,)))
