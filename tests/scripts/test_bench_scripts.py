"""scripts/benchmark.py and scripts/benchmark_generation.py: thin command lines over bench that print
well-formed Markdown tables and write their measurements as JSON."""
import ast
import json
import re
import subprocess
import sys

import pytest
import torch

from backbones.inference.torch_private import mkldnn_bf16_supported
from bench import llava as llava_bench
from bench.config import ModelBench
from tests.helpers import ROOT, eager_compiled_steps, load_script
from tests.helpers import markdown_tables as tables

benchmark = load_script("benchmark")
benchmark_generation = load_script("benchmark_generation")


@pytest.fixture
def dynamo_limit():
    """main() raises dynamo's recompile limit for the process: put it back after the test."""
    with torch._dynamo.config.patch(recompile_limit=torch._dynamo.config.recompile_limit):
        yield


def test_no_script_imports_another_script():
    scripts = {p.stem for p in (ROOT / "scripts").glob("*.py")}
    for name in ("benchmark", "benchmark_generation"):
        tree = ast.parse((ROOT / "scripts" / f"{name}.py").read_text())
        imported = {alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import)
                    for alias in node.names}
        imported |= {node.module.split(".")[0] for node in ast.walk(tree)
                     if isinstance(node, ast.ImportFrom) and node.module}
        assert not imported & scripts, f"scripts/{name}.py imports {imported & scripts}"


def test_benchmark_generation_context(tmp_path, capsys, dynamo_limit):
    out = tmp_path / "gen.json"
    results = benchmark_generation.main(["--quick", "--gen-sections", "context", "--context-positions", "4", "12",
                                         "--context-steps", "2", "--threads", "1", "--json", str(out)])
    text = capsys.readouterr().out
    [context] = tables(text)
    assert context[0][:2] == ["model", "ms/step at ~4"] and context[1][0] == "gpt_tiny"
    assert "\nMachine: " in text and "generation benchmark took" in text
    saved = json.loads(out.read_text())
    assert set(saved) == {"machine", "others_cpu_share_at_start", "context", "others_cpu_share", "wall_s"}
    assert saved["context"]["ratio"] == pytest.approx(results["context"]["ratio"]) and saved["context"]["ratio"] > 0
    assert len(saved["context"]["times"]["long"]) == 2


def test_benchmark_forward_and_train(tmp_path, capsys):
    out = tmp_path / "bench.json"
    benchmark.main(["--quick", "--only", "forward", "train", "--models", "gpt_tiny", "--dtypes", "fp32",
                    "--seq", "8", "--warmup", "0", "--repeats", "2", "--train-repeats", "2", "--threads", "1",
                    "--json", str(out)])
    forward, train = tables(capsys.readouterr().out)
    assert forward[0][:3] == ["model", "dtype", "ours tok/s"] and forward[1][:2] == ["gpt_tiny", "fp32"]
    assert train[0][:3] == ["model", "dtype", "ours steps/s"] and len(train) == 2
    saved = json.loads(out.read_text())
    assert saved["settings"]["models"] == ["gpt_tiny"] and saved["settings"]["gen_models"] is None
    [row] = saved["forward"]
    assert len(row["times"]["ours"]) == len(row["packed"]["times"]["packed"]) == 2 and row["ceiling"] > 0
    assert saved["train"][0]["loss_diff"] < 1e-3


def test_benchmark_ast_quick(tmp_path, capsys):
    """The AST section: ours and packed against transformers' ASTForAudioClassification, checked equal first."""
    out = tmp_path / "bench.json"
    benchmark.main(["--quick", "--only", "ast", "--dtypes", "fp32", "--repeats", "2", "--train-repeats", "2",
                    "--threads", "1", "--json", str(out)])
    forward, train = tables(capsys.readouterr().out)
    assert forward[0][:3] == ["batch", "dtype", "ours clips/s"] and [r[0] for r in forward[1:]] == ["1", "4"]
    assert train[0][:2] == ["dtype", "ours clips/s"] and train[1][0] == "fp32"
    saved = json.loads(out.read_text())["ast"]
    assert saved["model"] == "ast_tiny" and all(r["max_abs_diff"] <= 1e-3 for r in saved["forward"])


def test_benchmark_llava_quick(tmp_path, capsys, dynamo_limit):
    """The LLaVA section: prefill and generation with an image against transformers' Llava on the same weights,
    logits close and tokens identical before anything is timed."""
    out = tmp_path / "bench.json"
    benchmark.main(["--quick", "--only", "llava", "--repeats", "2", "--threads", "1", "--json", str(out)])
    prefill, generate = tables(capsys.readouterr().out)
    assert prefill[0][:2] == ["batch", "ours prompts/s"] and [r[0] for r in prefill[1:]] == ["1", "4"]
    assert generate[0][:2] == ["batch", "ours new tok/s"] and [r[0] for r in generate[1:]] == ["1", "4"]
    saved = json.loads(out.read_text())["llava"]
    assert saved["image_tokens"] == 16 and all(r["max_abs_diff"] <= 1e-4 for r in saved["prefill"])
    column = prefill[0].index("ceiling")   # transformers' time over its GEMM/conv/attention kernels' time
    assert [r[column] for r in prefill[1:]] == [f"{r['ceiling']:.2f}x" for r in saved["prefill"]]
    assert all(r["ceiling"] > 0 and r["ref_matmul_s"] > 0 for r in saved["prefill"])
    assert all(r["ours_tok_s"] > 0 and r["ref_tok_s"] > 0 for r in saved["generate"])


@pytest.mark.skipif(not mkldnn_bf16_supported(), reason="the bf16 table is timed only where oneDNN runs bf16 natively")
def test_benchmark_generation_decode_bf16_quick(tmp_path, capsys, monkeypatch, dynamo_limit):
    """decode_bf16: ours in bf16 (as created, packed, packed+compiled) against transformers cast to bf16, batch 1
    and 8, for a GPT and a LLaMA; compile=True's steps run eagerly here (compiling is the slow test's)."""
    steps = eager_compiled_steps(monkeypatch)
    out = tmp_path / "gen.json"
    benchmark_generation.main(["--quick", "--gen-sections", "decode_bf16", "--gen-models", "gpt_tiny", "llama_tiny",
                               "--gen-repeats", "2", "--threads", "1", "--json", str(out)])
    [bf16] = tables(capsys.readouterr().out)
    header, rows = bf16[0], bf16[1:]
    assert header[:6] == ["model", "batch", "ours bf16 new tok/s", "packed bf16 new tok/s",
                          "packed+compiled bf16 new tok/s", "transformers bf16 new tok/s"]
    assert header[9:] == ["target", "met", "first new token differing (ours, packed, packed+compiled)",
                          "first compiled call"]
    assert [r[:2] for r in rows] == [["gpt_tiny", "1"], ["gpt_tiny", "8"], ["llama_tiny", "1"], ["llama_tiny", "8"]]
    differing = r"(none|\d+ of 32 \(row \d\))"
    for row in rows:
        assert all(float(cell.replace(",", "")) > 0 for cell in row[2:6]), row
        assert all(re.fullmatch(r"\*\*\d+\.\d{3}x\*\* \(\d+\.\d\d-\d+\.\d\d\)", cell) for cell in row[6:9]), row
        assert row[10] in ("yes", "no") and re.fullmatch(rf"{differing}(, {differing}){{2}}", row[11]), row
    saved = json.loads(out.read_text())["decode_bf16"]["rows"]
    assert all(len(r["packed+compiled"]["times"]["bf16 packed+compiled"]) == 2 and r["ref_tok_s"] > 0 for r in saved)
    assert steps  # packed+compiled went through generate(compile=True)'s fixed-shape steps


def test_llava_generation_table_times_batch_8():
    """The full run times batch 1, 4 and 8 (--quick 1 and 4, above); batch 8 runs here at --quick's shapes."""
    assert llava_bench.BATCHES == (1, 4, 8) and llava_bench.QUICK_BATCHES == (1, 4)
    config = ModelBench(models=(), dtypes=("fp32",), batch=1, seq=8, attention_mask="none", warmup=0, repeats=2,
                        train_repeats=2, fused_adamw=False)
    result = llava_bench.run(config, quick=True, batches=(1, 8))
    prefill, generate = tables(llava_bench.report(result))
    assert [r[0] for r in prefill[1:]] == [r[0] for r in generate[1:]] == ["1", "8"]
    assert all(r["ours_tok_s"] > 0 and r["ref_tok_s"] > 0 for r in result["generate"])


@pytest.mark.slow  # compiles the decoding step (about a minute on 2 cores)
def test_benchmark_generation_quick_decode_context_command(tmp_path):
    out = tmp_path / "gen.json"
    run = subprocess.run([sys.executable, str(ROOT / "scripts" / "benchmark_generation.py"), "--quick",
                          "--gen-sections", "decode", "context", "--gen-batches", "1", "--gen-repeats", "1",
                          "--json", str(out)], capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 0, run.stderr[-2000:]
    decode, context = tables(run.stdout)
    assert decode[1][:2] == ["gpt_tiny", "1"] and len(context) == 2
    saved = json.loads(out.read_text())
    assert [r["batch"] for r in saved["decode"]] == [1] and saved["context"]["model"] == "gpt_tiny"


def test_benchmark_backends_quick(tmp_path):
    """scripts/benchmark_backends.py --quick on the CPU: the attention sweep says why xformers cannot run,
    every model row is checked against its reference before timing, and the files are written."""
    script = load_script("benchmark_backends")
    results = script.main(["--quick", "--lengths", "64", "--models", "gpt_tiny", "--dtypes", "fp32",
                           "--out", str(tmp_path)])
    notes = {r["backend"]: r.get("note") for r in results["attention"]}
    assert notes["xformers"] == "xformers has no kernels for device cpu" and notes["sdpa"] is None
    assert all(r["forward_s"] > 0 and r["train_s"] > 0 for r in results["attention"] if r["backend"] != "xformers")
    sides = {(r["kind"], r["side"]) for r in results["models"]}
    assert sides == {(kind, side) for kind in ("forward", "train") for side in ("sdpa", "math", "ref")}
    for name in ("attention.md", "models.md"):
        [table] = tables((tmp_path / name).read_text())
        assert len(table) > 1
    assert json.loads((tmp_path / "models.json").read_text()) == json.loads(json.dumps(results["models"]))
    assert (tmp_path / "attention.png").stat().st_size > 0


@pytest.mark.slow
def test_benchmark_scale_quick(tmp_path, capsys):
    """--only scale --quick: the memory probe (fresh processes), compile on gpt_tiny, 1 vs 2 processes."""
    out = tmp_path / "scale.json"
    benchmark.main(["--quick", "--only", "scale", "--threads", "1", "--json", str(out)])
    printed = capsys.readouterr().out
    assert "Activation checkpointing saves" in printed and "scaling efficiency" in printed
    scale = json.loads(out.read_text())["scale"]
    # (gpt_tiny at 256 tokens holds too little activation memory for checkpointing to show; gpt2 at 1024 does)
    assert scale["memory"]["plain"]["step_peak_mib"] > 0 and scale["memory"]["checkpointed"]["step_peak_mib"] > 0
    assert scale["compile"][0]["model"] == "gpt_tiny" and scale["processes"]["2 processes"] > 0


def test_benchmark_generation_quantized_quick(tmp_path, capsys, monkeypatch, dynamo_limit):
    """quantized: ours bf16 / int8 / int4 against CTranslate2 int8 (its own process) and transformers, batch 1 and
    2 on llama_tiny, with the three target ratios; compile=True's steps run eagerly here."""
    pytest.importorskip("ctranslate2")
    steps = eager_compiled_steps(monkeypatch)
    out = tmp_path / "gen.json"
    benchmark_generation.main(["--quick", "--gen-sections", "quantized", "--gen-models", "llama_tiny", "--gen-batches",
                               "1", "2", "--gen-new-tokens", "8", "--gen-repeats", "2", "--threads", "1",
                               "--json", str(out)])
    speeds, targets = tables(capsys.readouterr().out)
    assert speeds[0][:7] == ["model", "batch", "bf16 tok/s", "int8 tok/s", "int4 tok/s", "CTranslate2 int8 tok/s",
                             "transformers fp32 tok/s"]
    assert [r[:2] for r in speeds[1:]] == [["llama_tiny", "1"], ["llama_tiny", "2"]]
    assert all(float(cell.replace(",", "")) > 0 for row in speeds[1:] for cell in row[2:7])
    assert targets[0][2:] == ["int8/bf16 (target 1.5x)", "int8/CTranslate2 int8 (target 2.0x)",
                              "int4/int8 (target 1.3x)"]
    assert all(re.fullmatch(r"\d+\.\d\dx (yes|no)", cell) for row in targets[1:] for cell in row[2:])
    saved = json.loads(out.read_text())["quantized"]["rows"]
    assert saved[0]["weight_bytes"]["int4"] < saved[0]["weight_bytes"]["int8"] < saved[0]["weight_bytes"]["fp32"]
    assert steps


def test_quantized_accuracy_report_holds_each_figure_to_its_target():
    from bench import quantized_accuracy

    result = {"perplexity": {"steps": 10, "ppl": {"fp32": 100.0, "int8": 100.5, "int4": 106.0}},
              "embeddings": {"sentences": 3, "int8": {"min": 0.985, "mean": 0.995}, "float": {"min": 0.999,
                                                                                               "mean": 0.9995}},
              "wer": {"skipped": "no recordings"},
              "memory": {"weight_bytes": {"fp32": 400, "bf16": 200, "int8": 180, "int4": 160,
                                          "int8, tables too": 100, "int4, tables too": 60},
                         "peak_rss": {"import zoo alone": 1000, "fp32": 1400, "bf16": 1200, "int8": 1100,
                                      "int4": 1060, "int8, tables too": 1050, "int4, tables too": 1040}}}
    measures, memory = tables(quantized_accuracy.report(result))
    verdicts = {row[0]: row[3] for row in measures[1:]}
    assert list(verdicts.values()) == ["yes", "no", "no", "yes", "-", "no", "yes"]
    assert "+0.50%" in measures[1][1] and "skipped: no recordings" in measures[5][1]
    assert [row[1] for row in measures[6:]] == ["45.0%", "25.0%"]
    assert [row[0] for row in memory[1:]] == ["import zoo alone", "fp32", "bf16", "int8", "int4", "int8, tables too",
                                              "int4, tables too"]
