"""scripts/visualize_attention.py: PNGs for a tiny ViT, GPT and Marian, and the weights drawn are attend_math's.

The oracle: the model is run with its attention forced to the math backend and
`backbones.attention.attend_math` wrapped to record what it returns while the model
computes; the script's weights for layer L must equal the L-th recorded call.
"""
import importlib.util
from pathlib import Path

import pytest
import torch

import backbones.attention as attention
import zoo
from data.tokenization import train_bpe, train_wordpiece
from tests.scripts.test_translate import copying_marian
from zoo.cli import translate

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "visualize_attention.py"
spec = importlib.util.spec_from_file_location("visualize_attention", SCRIPT)
visualize = importlib.util.module_from_spec(spec)
spec.loader.exec_module(visualize)

SENTENCES = ["the animal did not cross the street because it was too tired",
             "the street was wide and it was long", "an animal is tired when it runs"] * 4


def weights_seen_by_the_model(model, monkeypatch, run) -> list[torch.Tensor]:
    """Run `run()` with every attention layer on the math backend; return attend_math's weights per layer."""
    recorded = []
    original = attention._attend_math  # what attend()'s math backend and attend_math both run

    def recording(*args, **kwargs):
        out, weights = original(*args, **kwargs)
        recorded.append(weights.detach().clone())
        return out, weights

    monkeypatch.setattr(attention, "_attend_math", recording)
    for module in model.modules():
        if isinstance(module, attention.MultiHeadAttention):
            monkeypatch.setattr(module, "backend", "math")
    with torch.no_grad():
        run()
    monkeypatch.undo()
    return recorded


@pytest.mark.parametrize("layer", [0, -1])
def test_vit_maps_are_attend_math_weights(tmp_path, monkeypatch, layer):
    torch.manual_seed(0)
    model = zoo.create_model("vit_tiny_patch2_8").eval()
    model.save_pretrained(tmp_path / "vit")
    result = visualize.main(["--model", str(tmp_path / "vit"), "--data", "digits", "--index", "3",
                             "--layer", str(layer), "--out", str(tmp_path / "png")])
    (path,) = result["paths"]
    assert path.name == f"vit_layer{layer % 2}.png" and path.stat().st_size > 2000
    weights = result["weights"]  # (H, N, N): 4 heads, 1 class token + 16 patches
    assert weights.shape == (4, 17, 17)
    assert torch.allclose(weights.sum(-1), torch.ones(4, 17), atol=1e-5)
    assert result["maps"].shape == (4, 4, 4)
    assert torch.allclose(result["maps"].flatten(1), weights[:, 0, 1:])  # the class token's row, on the grid

    from data.images import eval_transform, image_split, preprocess_config

    loaded = zoo.load_pretrained(tmp_path / "vit").eval()
    pixels = eval_transform(preprocess_config(loaded.config))(image_split("digits").test_images[3])[None]
    seen = weights_seen_by_the_model(loaded, monkeypatch, lambda: loaded(pixels))
    assert len(seen) == 2
    torch.testing.assert_close(weights, seen[layer][0], rtol=0, atol=1e-6)


def test_gpt_word_row_is_attend_math_weights(tmp_path, monkeypatch, capsys):
    tokenizer = train_bpe(iter(SENTENCES), vocab_size=300)
    torch.manual_seed(0)
    model = zoo.create_model("gpt_tiny", vocab_size=tokenizer.vocab_size, depth=2).eval()
    model.save_pretrained(tmp_path / "gpt")
    tokenizer.save(tmp_path / "gpt")
    text = "the animal did not cross the street because it was too tired"
    result = visualize.main(["--model", str(tmp_path / "gpt"), "--text", text, "--word", "it",
                             "--out", str(tmp_path / "png")])
    assert result["paths"][0].name == "text_layer1_it.png" and result["paths"][0].stat().st_size > 2000
    assert "head 0" in capsys.readouterr().out
    tokens, query, weights = result["tokens"], result["query"], result["weights"]
    assert tokens[query] == "it" and weights.shape == (4, len(tokens), len(tokens))
    assert torch.allclose(weights.sum(-1), torch.ones(4, len(tokens)), atol=1e-5)
    assert weights[:, query, query + 1:].abs().max() == 0  # causal: nothing after "it"

    ids = torch.tensor([tokenizer.encode(text)])
    seen = weights_seen_by_the_model(model, monkeypatch, lambda: model(ids))
    torch.testing.assert_close(weights, seen[-1][0], rtol=0, atol=1e-6)


def test_bert_and_llama_draw_too(tmp_path):
    """Post-LN (BERT, WordPiece with [CLS]/[SEP]) and RoPE + GQA (LLaMA) layers recompute to their outputs."""
    wordpiece = train_wordpiece(iter(SENTENCES), vocab_size=200)
    bert = zoo.create_model("bert_tiny", vocab_size=wordpiece.vocab_size, depth=2).eval()
    bert.save_pretrained(tmp_path / "bert")
    wordpiece.save(tmp_path / "bert")
    result = visualize.main(["--model", str(tmp_path / "bert"), "--text", SENTENCES[0], "--word", "it",
                             "--layer", "0", "--out", str(tmp_path)])
    assert result["tokens"][0] == "[CLS]" and result["weights"][:, result["query"]].min() > 0  # bidirectional
    bpe = train_bpe(iter(SENTENCES), vocab_size=300)
    llama = zoo.create_model("llama_tiny", vocab_size=bpe.vocab_size, depth=2).eval()
    llama.save_pretrained(tmp_path / "llama")
    bpe.save(tmp_path / "llama")
    result = visualize.main(["--model", str(tmp_path / "llama"), "--text", SENTENCES[1], "--word", "it",
                             "--out", str(tmp_path)])
    assert torch.allclose(result["weights"].sum(-1), torch.ones_like(result["weights"][..., 0]), atol=1e-5)


def test_bad_requests_are_clear(tmp_path):
    bpe = train_bpe(iter(SENTENCES), vocab_size=300)
    model = zoo.create_model("gpt_tiny", vocab_size=bpe.vocab_size, depth=2)
    model.save_pretrained(tmp_path / "gpt")
    bpe.save(tmp_path / "gpt")
    with pytest.raises(SystemExit, match="'zebra'.*not one token"):
        visualize.main(["--model", str(tmp_path / "gpt"), "--word", "zebra", "--out", str(tmp_path)])
    with pytest.raises(ValueError, match="--layer 5 is out of range.*2 blocks"):
        visualize.main(["--model", str(tmp_path / "gpt"), "--layer", "5", "--out", str(tmp_path)])
    with pytest.raises(SystemExit, match="--image FILE or --data"):
        visualize.main(["--model", "vit_tiny_patch2_8", "--out", str(tmp_path)])


@pytest.fixture(scope="module")
def marian(tmp_path_factory) -> str:
    return str(copying_marian(tmp_path_factory.mktemp("marian")))


@pytest.mark.parametrize("beams", ["1", "3"])
def test_marian_cross_attention_grid_is_attend_math_weights(marian, tmp_path, monkeypatch, capsys, beams):
    """The grid: a row per target token (EOS included), a column per source piece, each row a distribution; the
    translation is zoo translate's; grid and encoder row are what attend_math computed in the model's forward."""
    text = "and god said let there be light"
    result = visualize.main(["--model", marian, "--text", text, "--word", "said", "--beam-size", beams,
                             "--out", str(tmp_path)])
    assert [p.name for p in result["paths"]] == ["marian_cross_layer1.png", "marian_encoder_layer1_said.png"]
    assert all(p.stat().st_size > 2000 for p in result["paths"])
    assert result["translation"] == translate.main(["--model", marian, "--beam-size", beams, text])[0]
    source, target, grid = result["source_tokens"], result["target_tokens"], result["grid"]
    assert source[-1] == "</s>" and source[result["query"]] == "\u2581said"
    assert grid.shape == (len(target), len(source))
    torch.testing.assert_close(grid.sum(-1), torch.ones(len(target)))
    torch.testing.assert_close(grid, result["cross"].mean(0))
    assert result["weights"].shape == (4, len(source), len(source))

    model = zoo.load_pretrained(marian).eval()
    ids = torch.tensor([model.tokenizer.encode(text)])
    assert model.tokenizer.decode([model.tokenizer.vocab[piece] for piece in target]) == result["translation"]
    # Row t is the decoder position that predicted target token t: the start token, then the targets but the last.
    decoder_input = torch.tensor([[model.config.start_id, *(model.tokenizer.vocab[piece] for piece in target[:-1])]])
    seen = weights_seen_by_the_model(model, monkeypatch, lambda: model(ids, decoder_input_ids=decoder_input))
    assert len(seen) == 2 + 2 * 2  # the encoder's 2 self-attentions, then each decoder block's self and cross
    torch.testing.assert_close(result["weights"], seen[1][0], rtol=0, atol=1e-6)
    torch.testing.assert_close(result["cross"], seen[-1][0], rtol=0, atol=1e-6)


def test_marian_one_head_a_word_by_index_and_its_errors(marian, tmp_path):
    result = visualize.main(["--model", marian, "--text", "god said", "--word", "-1", "--layer", "0", "--head", "2",
                             "--out", str(tmp_path)])
    assert [p.name for p in result["paths"]] == ["marian_cross_layer0_head2.png", "marian_encoder_layer0_1.png"]
    assert result["query"] == len(result["source_tokens"]) - 1
    torch.testing.assert_close(result["grid"], result["cross"][2])
    with pytest.raises(SystemExit, match="--head 4 is out of range.*4 heads"):
        visualize.main(["--model", marian, "--head", "4", "--text", "god said", "--out", str(tmp_path)])
    with pytest.raises(SystemExit, match="--word 99 is out of range"):
        visualize.main(["--model", marian, "--word", "99", "--text", "god said", "--out", str(tmp_path)])
    with pytest.raises(ValueError, match="--layer 2 is out of range: the encoder has 2 blocks"):
        visualize.main(["--model", marian, "--layer", "2", "--text", "god said", "--out", str(tmp_path)])
    with pytest.raises(SystemExit, match="--text has 53 tokens .* at most 40"):  # the default text
        visualize.main(["--model", marian, "--out", str(tmp_path)])
    zoo.create_model("marian_tiny").save_pretrained(tmp_path / "bare")
    with pytest.raises(SystemExit, match="has no tokenizer"):
        visualize.main(["--model", str(tmp_path / "bare"), "--out", str(tmp_path)])
