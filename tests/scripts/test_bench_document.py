"""bench/document.py and scripts/benchmark.py --write-benchmarks (make bench): each run's tables as CSV
files and Markdown under benchmarks/<machine>/, and the block of benchmarks/<machine>/README.md rebuilt between
its markers with everything outside them kept byte for byte; BENCHMARKS.md (the hand-written summary) untouched."""
import csv
import json
import subprocess
import sys

import pytest

from bench.cli import generation_config
from bench.document import Section, machine_slug, write
from bench.report import BenchmarkError, recording, table
from tests.helpers import ROOT, load_script, markdown_tables

benchmark = load_script("benchmark")
MACHINE = {"cpu": "Intel(R) Xeon(R) Processor", "cores": 2, "isa": "AVX512, AMX-BF16", "threads": 2,
           "torch": "2.10.0", "transformers": "5.0.0", "timm": "1.0.0", "python": "3.11.7"}
PREAMBLE = "# Xeon\r\n\r\nHand-written, with CRLF line ends  and trailing spaces  \n\n## Earlier runs\n\nKept.\n"
XEON = "intel-xeon-2c-amx"
CEILINGS = {"quick": False, "probes": {
    "matmul fp32 n=2048": {"median": 150.0, "unit": "GFLOP/s"},
    "matmul fp32 n=4096": {"median": 160.5, "unit": "GFLOP/s"},
    "matmul bf16 n=2048": {"median": 900.0, "unit": "GFLOP/s"}, "copy": {"median": 9.5, "unit": "GB/s"},
    "matvec fp32 torch.mv": {"median": 11.0, "unit": "GB/s"}}}


def section(name: str, *tables: tuple[list, list]) -> Section:
    """A section as a benchmark prints it: a heading and a line before each table."""
    with recording() as recorded:
        text = "\n".join(f"\n### {name} table {i}\n\nSome words.\n\n" + table(headers, rows)
                         for i, (headers, rows) in enumerate(tables, 1))
    return Section(name, text, recorded, wall_s=12.0, others_share=0.03)


def write_run(tmp_path, sections, machine=MACHINE, **kwargs):
    return write(sections, machine, command="python scripts/benchmark.py --only x", order=["forward", "train"],
                 benchmarks_dir=tmp_path / "benchmarks", date="2026-12-01", **kwargs)


def readme(tmp_path, slug=XEON) -> str:
    return read(tmp_path / "benchmarks" / slug / "README.md")


def read(path) -> str:
    with open(path, newline="") as f:
        return f.read()


def csv_rows(path) -> list[list[str]]:
    with open(path, newline="") as f:
        return list(csv.reader(f))


def test_recording_keeps_every_table_and_changes_nothing_printed():
    rows = [["gpt2", 1.5], ["bert", "**2x**"]]
    plain = table(["model", "ratio"], rows)
    with recording() as outer:
        with recording() as inner:
            assert table(["model", "ratio"], rows) == plain == (
                "| model | ratio |\n|---|---|\n| gpt2 | 1.5 |\n| bert | **2x** |")
        table(["a"], [[1]])
    assert [t.headers for t in outer] == [["model", "ratio"], ["a"]] and len(inner) == 1
    assert inner[0].rows == [["gpt2", "1.5"], ["bert", "**2x**"]] and inner[0].markdown == plain
    table(["b"], [[2]])
    assert len(outer) == 2


def test_machine_slug():
    assert machine_slug(MACHINE) == "intel-xeon-2c-amx"
    assert machine_slug({"cpu": "AMD EPYC 7R13 Processor", "cores": 2}) == "amd-epyc-7r13-2c"
    # one model name, two bf16 tiers: two folders
    assert machine_slug({"cpu": "AMD EPYC", "cores": 2, "isa": "AVX2"}) == "amd-epyc-2c-avx2"
    assert machine_slug({"cpu": "AMD EPYC", "cores": 2, "isa": "AVX512, AVX512-BF16"}) == "amd-epyc-2c-avx512-bf16"
    # an AVX-512 host limited to AVX2 (scripts/benchmark.py --isa avx2) is not an AVX2 host: a folder of its own
    assert machine_slug({"cpu": "AMD EPYC", "cores": 2, "isa": "AVX2, forced"}) == "amd-epyc-2c-avx2-forced"
    assert machine_slug({"cpu": "Intel(R) Xeon(R) Platinum 8488C CPU @ 2.40GHz", "cores": 4}) == \
        "intel-xeon-platinum-8488c-4c"
    assert machine_slug({"cpu": "AMD EPYC 9654 96-Core Processor", "cores": 8}) == "amd-epyc-9654-8c"


def test_csv_round_trip_and_well_formed_markdown(tmp_path):
    first = (["model", "tok/s", "note"], [["gpt2", "1,073", 'says "hi", twice'], ["bert", "**1.2x**", ""]])
    second = (["k", "speed-up"], [[2, "1.5x"]])
    folder = write_run(tmp_path, [section("forward", first, second)], ceilings=CEILINGS)
    assert folder == tmp_path / "benchmarks" / XEON
    assert csv_rows(folder / "forward-1.csv") == [first[0], ["gpt2", "1,073", 'says "hi", twice'], ["bert", "1.2x", ""]]
    assert csv_rows(folder / "forward-2.csv") == [["k", "speed-up"], ["2", "1.5x"]]
    index = json.loads((folder / "index.json").read_text())
    entry = index["sections"]["forward"]
    assert [c["title"] for c in entry["csv"]] == ["Some words.", "Some words."]
    assert entry["command"] == "python scripts/benchmark.py --only x" and entry["date"] == "2026-12-01"
    text = readme(tmp_path)
    assert [t[0] for t in markdown_tables(text, strict=False)] == [first[0], second[0]]
    assert text.startswith(f"<!-- bench:begin {XEON} -->\n## Intel(R) Xeon(R) Processor, 2 cores (AVX512")
    assert text.endswith(f"<!-- bench:end {XEON} -->\n")
    assert "#### forward table 1" in text and "[forward-1.csv](forward-1.csv)" in text  # beside the README
    assert "fp32 matmul **160.5** GFLOP/s, bf16 matmul **900.0** GFLOP/s, copy **9.5** GB/s" in text
    assert "torch 2.10.0, transformers 5.0.0, timm 1.0.0" in text and "`python scripts/benchmark.py --only x`" in text


def test_text_outside_the_markers_is_kept_byte_for_byte(tmp_path):
    folder = tmp_path / "benchmarks" / XEON
    folder.mkdir(parents=True)
    other = "<!-- bench:begin amd-epyc-2c -->\nAMD's tables\n<!-- bench:end amd-epyc-2c -->\n"
    epilogue = "\n## Older runs\r\n\r\nBy hand.  \n"
    (folder / "README.md").write_bytes((PREAMBLE + other + epilogue).encode())
    write_run(tmp_path, [section("forward", (["a"], [[1]]))])
    first = readme(tmp_path)
    assert first.startswith(PREAMBLE + other + epilogue + f"\n<!-- bench:begin {XEON} -->\n")
    # The block moved by hand between the others: a re-run rewrites it there and leaves the rest alone.
    block = first[len(PREAMBLE + other + epilogue) + 1:]
    (folder / "README.md").write_bytes((PREAMBLE + block + other + epilogue).encode())
    write_run(tmp_path, [section("forward", (["a"], [[2]]))])
    second = readme(tmp_path)
    assert second.startswith(PREAMBLE + f"<!-- bench:begin {XEON} -->\n")
    assert second.endswith(other + epilogue)
    assert "| 2 |" in second and "| 1 |" not in second


def test_the_summary_is_never_written(tmp_path):
    """BENCHMARKS.md beside benchmarks/ is the hand-written summary: a run leaves it as it is."""
    summary = tmp_path / "BENCHMARKS.md"
    summary.write_bytes(PREAMBLE.encode())
    write_run(tmp_path, [section("forward", (["a"], [[1]]))])
    assert summary.read_bytes() == PREAMBLE.encode()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["BENCHMARKS.md", "benchmarks"]


def test_a_rerun_replaces_only_the_sections_it_ran(tmp_path):
    write_run(tmp_path, [section("train", (["x"], [["old train"]])),
                         section("forward", (["x"], [["old 1"]]), (["y"], [["old 2"]]))])
    folder = tmp_path / "benchmarks" / XEON
    before = readme(tmp_path)
    assert before.index("### forward") < before.index("### train")  # in `order`, not in the order they ran
    write_run(tmp_path, [section("forward", (["x"], [["fresh"]]))])
    after = readme(tmp_path)
    assert "old train" in after and "fresh" in after and "old 1" not in after and "old 2" not in after
    assert sorted(p.name for p in folder.glob("*.csv")) == ["forward.csv", "train.csv"]
    assert csv_rows(folder / "forward.csv") == [["x"], ["fresh"]] and csv_rows(folder / "train.csv")[1] == ["old train"]
    assert after[after.index("### train"):] == before[before.index("### train"):]


def test_a_second_machine_gets_its_own_folder(tmp_path):
    write_run(tmp_path, [section("forward", (["x"], [["xeon"]]))])
    first = readme(tmp_path)
    epyc = {**MACHINE, "cpu": "AMD EPYC 7R13 Processor", "isa": "AVX2"}
    write_run(tmp_path, [section("forward", (["x"], [["epyc"]]))], machine=epyc)
    write_run(tmp_path, [section("train", (["x"], [["named"]]))], machine=epyc, slug="my-box")
    assert readme(tmp_path) == first
    epyc_readme = readme(tmp_path, "amd-epyc-7r13-2c-avx2")
    assert "epyc" in epyc_readme and "xeon" not in epyc_readme
    assert "named" in readme(tmp_path, "my-box") and "<!-- bench:end my-box -->" in readme(tmp_path, "my-box")
    assert sorted(p.name for p in (tmp_path / "benchmarks").iterdir()) == ["amd-epyc-7r13-2c-avx2", XEON, "my-box"]


def test_broken_markers_stop_before_anything_is_written(tmp_path):
    folder = tmp_path / "benchmarks" / XEON
    folder.mkdir(parents=True)
    (folder / "README.md").write_text(PREAMBLE + f"<!-- bench:begin {XEON} -->\nno end\n")
    with pytest.raises(ValueError, match=f"bench:end {XEON}"):
        write_run(tmp_path, [section("forward", (["x"], [[1]]))])
    assert sorted(p.name for p in folder.iterdir()) == ["README.md"]


def test_the_command_shown_leaves_out_where_results_go():
    argv = ["--only", "forward", "--write-benchmarks", "--benchmarks-dir=out",
            "--json", "r.json", "--machine-slug", "box", "--models", "gpt2", "bert_base"]
    assert benchmark.command_line(argv) == "python scripts/benchmark.py --only forward --models gpt2 bert_base"


def check_written(tmp_path, sections: list[str]) -> dict:
    """Every section in `sections` stored with at least one CSV (rows as long as its header) and its tables
    well formed in the Markdown; returns the index."""
    folder = tmp_path / "benchmarks" / "box"
    index = json.loads((folder / "index.json").read_text())
    assert sorted(index["sections"]) == sorted(sections)
    for name, entry in index["sections"].items():
        assert entry["csv"], name
        for c in entry["csv"]:
            header, *rows = csv_rows(folder / c["file"])
            assert rows and all(len(row) == len(header) for row in rows), c
        assert markdown_tables((folder / f"{name}.md").read_text(), strict=False), name
    text = read(folder / "README.md")
    assert len(markdown_tables(text, strict=False)) == sum(len(e["csv"]) for e in index["sections"].values())
    assert not (tmp_path / "BENCHMARKS.md").exists()
    return index


def test_write_benchmarks_quick(tmp_path, capsys):
    """--write-benchmarks on the ceilings, attention and forward sections in quick mode: what it prints is what it
    writes, and the attention plot lies beside the CSVs, linked from the machine's README.md."""
    benchmark.main(["--quick", "--only", "ceilings", "attention", "forward", "--models", "gpt_tiny", "--dtypes", "fp32",
                    "--seq", "8", "--warmup", "0", "--repeats", "2", "--threads", "1", "--write-benchmarks",
                    "--benchmarks-dir", str(tmp_path / "benchmarks"), "--machine-slug", "box"])
    printed = capsys.readouterr().out
    index = check_written(tmp_path, ["ceilings", "attention", "forward"])
    assert index["peaks"]["quick"] and index["peaks"]["figures"]["fp32 matmul"]["median"] > 0
    text = readme(tmp_path, "box")
    assert markdown_tables(text, strict=False) == markdown_tables(printed, strict=False)
    assert "python scripts/benchmark.py --quick --only ceilings attention forward --models gpt_tiny" in text
    assert "Quick mode" in text and "Measured peaks (ceilings section" in text
    png = tmp_path / "benchmarks" / "box" / "attention.png"
    assert png.read_bytes()[:4] == b"\x89PNG" and "[attention.png](attention.png)" in text


@pytest.mark.slow  # every section in quick mode: about 7 minutes on 2 cores
def test_write_benchmarks_every_section_quick(tmp_path):
    """scripts/benchmark.py --quick --write-benchmarks, every section: each one stores well-formed tables."""
    run = subprocess.run([sys.executable, str(ROOT / "scripts" / "benchmark.py"), "--quick", "--threads", "1",
                          "--write-benchmarks", "--benchmarks-dir", str(tmp_path / "benchmarks"),
                          "--machine-slug", "box"],
                         capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 0, run.stderr[-3000:]
    check_written(tmp_path, benchmark.SECTIONS)


def test_the_model_table_is_measured_in_parts(tmp_path):
    """Two --only models runs, each timing one preset: the second keeps the preset the first timed (from
    benchmarks/<machine>/models.json), and the table names the run that timed each row and its command."""
    def models_run(timed):
        benchmark.main(["--quick", "--only", "models", "--model-presets", "gpt_tiny", "bert_tiny", "--model-timed",
                        timed, "--model-backends", "math", "--model-warmup", "0", "--model-repeats", "1",
                        "--threads", "1", "--write-benchmarks", "--benchmarks-dir", str(tmp_path / "benchmarks"),
                        "--machine-slug", "box"])
        return json.loads((tmp_path / "benchmarks" / "box" / "models.json").read_text())

    first = {r["model"]: r for r in models_run("gpt_tiny")}
    assert first["gpt_tiny"]["timed"] and not first["bert_tiny"]["timed"]
    second = {r["model"]: r for r in models_run("bert_tiny")}
    assert second["gpt_tiny"] == first["gpt_tiny"] and second["bert_tiny"]["timed"]
    assert "--model-timed bert_tiny" in second["bert_tiny"]["run"]["command"]
    assert "--model-timed gpt_tiny" in second["gpt_tiny"]["run"]["command"]
    text = readme(tmp_path, "box")
    presets = next(t for t in markdown_tables(text, strict=False) if t[0][-1] == "timed")
    timed = {row[0]: row[-1] for row in presets[1:]}
    assert timed == {"gpt_tiny": "yes (run 1)", "bert_tiny": "yes (run 2)"}
    assert "`python scripts/benchmark.py --quick --only models --model-presets gpt_tiny bert_tiny" in text


def test_speculative_decoding_is_its_own_section():
    """scripts/benchmark.py's generation section runs without speculative decoding (`--only speculative` runs
    it); asking the generation section for it alone names the section to use."""
    with pytest.raises(BenchmarkError, match="--only speculative"):
        benchmark.main(["--quick", "--only", "generation", "--gen-sections", "speculative", "--threads", "1"])
    args = benchmark.parse_args(["--quick", "--only", "generation"])
    config = benchmark.generation_sections(generation_config(args))
    assert "speculative" not in config.gen_sections and "decode" in config.gen_sections


@pytest.mark.slow  # trains a gpt and a llama pair for a few steps in child processes (about 2 minutes on 2 cores)
def test_speculative_families_are_measured_in_parts(tmp_path):
    """Two --only speculative runs, one family each: the second keeps the family the first measured (from
    benchmarks/<machine>/speculative.json), and the machine's README.md shows both tables, each naming its run."""
    def spec_run(family):
        benchmark.main(["--quick", "--only", "speculative", "--spec-families", family, "--spec-train-steps", "4",
                        "--spec-k", "2", "--spec-new-tokens", "8", "--spec-prompts", "1", "--spec-repeats", "1",
                        "--spec-train-dtype", "fp32", "--spec-dir", str(tmp_path / "spec"), "--threads", "1",
                        "--write-benchmarks", "--benchmarks-dir", str(tmp_path / "benchmarks"),
                        "--machine-slug", "box"])
        return json.loads((tmp_path / "benchmarks" / "box" / "speculative.json").read_text())["families"]

    first = spec_run("llama")
    second = spec_run("gpt")
    assert list(second) == ["gpt", "llama"] and second["llama"] == first["llama"]
    assert "--spec-families gpt" in second["gpt"]["run"]["command"]
    text = readme(tmp_path, "box")
    for family in ("gpt", "llama"):
        assert f"Speculative decoding (greedy), {family}: target" in text
        assert f"Measured by `python scripts/benchmark.py --quick --only speculative --spec-families {family}" in text
