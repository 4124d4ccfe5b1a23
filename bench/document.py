"""Each machine's benchmark tables, written from one benchmark run (scripts/benchmark.py --write-benchmarks;
`make bench`).

    run = Capture()
    with run.timed("forward"):
        rows = forward.run(...)
    print(run.render("forward", lambda: forward.report(rows, config)))   # the Markdown, as printed
    write(run.sections, machine(), command=..., benchmarks_dir="benchmarks")

Each machine (named by a slug from its CPU model, core count and bf16 tier, e.g. intel-xeon-2c-amx) keeps its tables in
benchmarks/<slug>/:

    index.json        the machine's facts, its measured peaks, and each stored section's date, command and CSVs
    <section>.md      the section's Markdown as it printed it (headings one level down)
    <section>.csv     its table (<section>-1.csv, <section>-2.csv, ... where it prints several), one row per
                      row, the cells as printed less Markdown emphasis (**)
    README.md         the full tables: one block, between the lines `<!-- bench:begin <slug> -->` and
                      `<!-- bench:end <slug> -->`, composed from all the sections stored there

A run replaces the sections it ran and keeps the machine's others. Everything in README.md outside the markers
(hand-written notes on earlier runs) is kept byte for byte; a README without a block gets one at its end.
BENCHMARKS.md at the repository root is the hand-written summary that links these folders: no run writes it.
"""
from __future__ import annotations

import csv
import datetime
import json
import re
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from bench.machine import cpu_seconds, others_share
from bench.report import Table, recording

# The ceilings probes a machine's heading quotes, as (label, probe-name prefix): the best figure of each.
PEAKS = (("fp32 matmul", "matmul fp32"), ("bf16 matmul", "matmul bf16"), ("copy", "copy"), ("read", "read"),
         ("fp32 matvec", "matvec fp32"), ("bf16 matvec", "matvec bf16"))


@dataclass
class Section:
    """What one benchmark section printed: its Markdown, the tables it built (in order), how long it ran
    and what share of the CPUs other processes used meanwhile (None where it was not timed)."""
    name: str
    text: str
    tables: list[Table] = field(default_factory=list)
    wall_s: float | None = None
    others_share: float | None = None


class Capture:
    """The sections of one run, by name, as they are printed."""

    def __init__(self):
        self.sections: dict[str, Section] = {}
        self._timing: dict[str, tuple[float, float]] = {}

    @contextmanager
    def timed(self, name: str) -> Iterator[None]:
        """Times the block as section `name`'s run (its wall time and the CPU share other processes used)."""
        start = cpu_seconds()
        yield
        self._timing[name] = (time.perf_counter() - start[0], others_share(start))

    def render(self, name: str, report: Callable[[], str]) -> str:
        """report()'s Markdown, kept with the tables it built as section `name`."""
        with recording() as tables:
            text = report()
        wall, share = self._timing.get(name, (None, None))
        self.sections[name] = Section(name, text, list(tables), wall, share)
        return text


def machine_slug(m: dict) -> str:
    """"intel-xeon-2c-amx" for an "Intel(R) Xeon(R) Processor" with 2 cores and AMX: the CPU model without
    trademarks, clock and filler words, the core count, and the instruction set's bf16 tier (amx,
    avx512-bf16, avx512, avx2), since hosts sold under one model name ("AMD EPYC") differ there and their
    bf16 figures differ severalfold."""
    name = re.sub(r"\((R|TM|r|tm)\)|\bwith\b.*$|@.*$|\b(CPU|Processor)\b|\b\d+-Core\b", " ", m["cpu"] or "cpu")
    words = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
    return f"{words or 'cpu'}-{m['cores']}c" + (f"-{isa_tier(m['isa'])}" if m.get("isa") else "")


def isa_tier(isa: str) -> str:
    """"AVX512, AMX-BF16" -> "amx", "AVX512, AVX512-BF16" -> "avx512-bf16", "AVX2" -> "avx2", "AVX2, forced" (an
    AVX-512 host limited to AVX2: bench/machine.py FORCED_ISA) -> "avx2-forced"."""
    parts = [p.strip().lower() for p in isa.split(",")]
    forced = "forced" in parts
    parts = [p for p in parts if p != "forced"]
    return ("amx" if "amx-bf16" in parts else parts[-1]) + ("-forced" if forced else "")


def peaks(ceilings: dict) -> dict[str, dict]:
    """{label: {median, unit, probe}} from a ceilings.run() result: the best probe of each kind in PEAKS."""
    found = {}
    for label, prefix in PEAKS:
        named = {name: f for name, f in ceilings["probes"].items() if name.startswith(prefix)}
        if named:
            best = max(named, key=lambda name: named[name]["median"])
            found[label] = {"median": named[best]["median"], "unit": named[best]["unit"], "probe": best}
    return found


def titles(text: str, tables: list[Table]) -> list[str]:
    """Each table's title: the last line of `text` before it that is not blank and not a table line, without
    Markdown heading marks and emphasis ("" for a table not found in the text)."""
    found, position = [], 0
    for t in tables:
        at = text.find(t.markdown, position)
        if at < 0:
            found.append("")
            continue
        position = at + len(t.markdown)
        before = [line for line in text[:at].splitlines() if line.strip() and not line.startswith("|")]
        found.append(before[-1].lstrip("#").replace("**", "").strip() if before else "")
    return found


def csv_names(section: str, count: int) -> list[str]:
    return [f"{section}.csv"] if count == 1 else [f"{section}-{i}.csv" for i in range(1, count + 1)]


def write_csv(path: Path, t: Table) -> None:
    with open(path, "w", encoding="utf-8", newline="") as f:
        csv.writer(f).writerows([[cell.replace("**", "") for cell in row] for row in [t.headers, *t.rows]])


def demoted(text: str) -> str:
    """The section's Markdown one heading level down (its headings sit under the section's own), trimmed."""
    lines = [("#" + line if re.match(r"#{1,5} ", line) else line) for line in text.strip("\n").splitlines()]
    return "\n".join(lines)


def section_markdown(name: str, entry: dict, body: str) -> str:
    """A stored section: its heading, the command and conditions it ran under, its CSV files, then `body`
    (its stored Markdown)."""
    facts = [f"`{entry['command']}`", f"measured {entry['date']}", f"torch threads {entry['threads']}"]
    if entry.get("wall_s") is not None:
        facts.append(f"{entry['wall_s']:.0f} s")
    if entry.get("others_share") is not None:
        facts.append(f"other processes used {entry['others_share']:.0%} of the CPUs meanwhile")
    files = ", ".join(f"[{c['file']}]({c['file']})" for c in entry["csv"])
    lines = [f"### {name}", "", "; ".join(facts) + "."]
    if files:
        lines += ["", f"CSV: {files}"]
    if "--quick" in entry["command"].split():
        lines += ["", "Quick mode: tiny presets and sizes that check the code; these are not measurements."]
    return "\n".join(lines + ["", body.strip("\n")]) + "\n"


def heading(index: dict) -> str:
    """The machine's heading: CPU, cores, ISA, library versions, the last run's date and the measured peaks."""
    m = index["machine"]
    versions = ", ".join(f"{lib} {m.get(lib) or 'not installed'}" for lib in ("torch", "transformers", "timm"))
    lines = [f"## {m['cpu']}, {m['cores']} cores ({m['isa']})", "",
             f"{versions}, Python {m['python']}; last run {index['updated']}. Each section below names the command "
             f"that produced it; the tables are also in this folder as CSV (`make bench` writes this block).", ""]
    found = index.get("peaks")
    if found:
        figures = ", ".join(f"{label} **{p['median']:.1f}** {p['unit']}" for label, p in found["figures"].items())
        quick = " (quick mode: in cache, not the machine's ceilings)" if found["quick"] else ""
        lines.append(f"Measured peaks (ceilings section, {found['date']}){quick}: {figures}.")
    else:
        lines.append("Measured peaks: not yet (`make bench BENCH_ARGS=\"--only ceilings\"`).")
    return "\n".join(lines) + "\n"


def ordered(names: Iterable[str], order: list[str]) -> list[str]:
    """`names` in `order`, then any others alphabetically."""
    names = set(names)
    return [n for n in order if n in names] + sorted(names - set(order))


def compose(slug: str, index: dict, folder: Path, order: list[str]) -> str:
    """The machine's block, markers included: the heading, then every stored section in `order`."""
    parts = [f"<!-- bench:begin {slug} -->", heading(index)]
    for name in ordered(index["sections"], order):
        body = (folder / f"{name}.md").read_text(encoding="utf-8")
        parts.append(section_markdown(name, index["sections"][name], body))
    return "\n".join(parts + [f"<!-- bench:end {slug} -->"])


def block_span(document: str, slug: str) -> tuple[int, int] | None:
    """Where the machine's block (its marker lines included) lies in `document`; None where it has none."""
    begin, end = f"<!-- bench:begin {slug} -->", f"<!-- bench:end {slug} -->"
    starts = [m.start() for m in re.finditer(rf"^{re.escape(begin)}\r?$", document, re.M)]
    ends = [m.end() for m in re.finditer(rf"^{re.escape(end)}(?=\r?$)", document, re.M)]  # (CRLF files too)
    if not starts and not ends:
        return None
    if len(starts) != 1 or len(ends) != 1 or ends[0] < starts[0]:
        raise ValueError(f"expected one '{begin}' line before one '{end}' line, found {len(starts)} and {len(ends)}")
    return starts[0], ends[0]


def splice(document: str, slug: str, block: str) -> str:
    """`document` with the machine's block replaced by `block`, or `block` appended where it has none."""
    span = block_span(document, slug)
    if span is None:
        return document + ("\n" if document.endswith("\n") else "\n\n" if document else "") + block + "\n"
    return document[:span[0]] + block + document[span[1]:]


def store(section: Section, folder: Path, base: dict) -> dict:
    """Writes the section's CSV files (removing those of its last run) and Markdown; returns its index entry."""
    for old in folder.glob(f"{section.name}*.csv"):
        if re.fullmatch(rf"{re.escape(section.name)}(-\d+)?\.csv", old.name):
            old.unlink()
    names = csv_names(section.name, len(section.tables))
    for name, t in zip(names, section.tables):
        write_csv(folder / name, t)
    entry = {**base, "wall_s": section.wall_s, "others_share": section.others_share,
             "csv": [{"file": n, "title": t} for n, t in zip(names, titles(section.text, section.tables))]}
    (folder / f"{section.name}.md").write_text(demoted(section.text) + "\n", encoding="utf-8")
    return entry


def write(sections: Iterable[Section], machine: dict, *, command: str, benchmarks_dir: str | Path,
          slug: str | None = None, ceilings: dict | None = None, order: list[str] = (),
          date: str | None = None) -> Path:
    """Stores each section's CSV files and Markdown under benchmarks_dir/<slug>/ (slug: machine_slug(machine)
    unless given) and rebuilds that machine's block of its README.md there from every section stored, in
    `order`; `ceilings` (a ceilings.run() result, where that section ran) gives the heading's peaks.
    Returns the folder."""
    slug = slug or machine_slug(machine)
    folder = Path(benchmarks_dir) / slug
    path = folder / "README.md"
    document = ""
    if path.exists():
        with open(path, encoding="utf-8", newline="") as f:  # (newline="": \r\n outside the block stays \r\n)
            document = f.read()
    block_span(document, slug)  # broken markers: stop before anything is written
    folder.mkdir(parents=True, exist_ok=True)
    date = date or datetime.datetime.now(datetime.timezone.utc).date().isoformat()
    index_path = folder / "index.json"
    index = json.loads(index_path.read_text(encoding="utf-8")) if index_path.exists() else {"sections": {}}
    base = {"command": command, "date": date, "threads": machine["threads"]}
    for section in sections:
        index["sections"][section.name] = store(section, folder, base)
    if ceilings is not None:
        index["peaks"] = {"date": date, "quick": bool(ceilings.get("quick")), "figures": peaks(ceilings)}
    index.update(slug=slug, machine=machine, updated=date)
    index_path.write_text(json.dumps(index, indent=1) + "\n", encoding="utf-8")
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write(splice(document, slug, compose(slug, index, folder, list(order))))
    return folder
