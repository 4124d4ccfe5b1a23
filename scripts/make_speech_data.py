#!/usr/bin/env python
"""Build the speech sets (keywords, ASR) from espeak-ng, flite and the Asterisk prompts: data/speech.py.

    python scripts/make_speech_data.py --kind all --out data/full/speech              # what `make data` builds
    python scripts/make_speech_data.py --kind keywords --out /tmp/kw --voices 6 --per-class 6 --seed 1

--out is the parent folder: each kind goes to <out>/<kind> (manifest.jsonl, FLAC files, build.json),
replaced when complete; a set whose build.json matches the settings and synthesizer versions is
kept as it is (--force rebuilds it). The synthesizers are taken from PATH, else from data/full/speech/tools/bin
(scripts/get_data.sh speech unpacks them there, no root needed); the Asterisk prompts from
data/full/speech/asterisk (--human 0 does without them). The same arguments and synthesizer
versions give byte-identical sets. The shipped tiny sets and their command: data/speech_tiny/README.md.
"""
from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

from data.speech import BUILD, KINDS, SPEECH_FULL, SpeechSetConfig, build_info, build_speech_set
from data.speech_asterisk import ASTERISK_DIR
from data.speech_synth import TOOLS_DIR, find_tools
from data.speech_text import KEYWORDS


def optional_int(text: str) -> int | None:
    return None if text == "all" else int(text)


def parse_args(argv=None) -> argparse.Namespace:
    defaults = SpeechSetConfig()
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--kind", choices=[*KINDS, "all"], default="all")
    p.add_argument("--out", type=Path, default=SPEECH_FULL, help="parent folder; a kind goes to <out>/<kind>")
    p.add_argument("--seed", type=int, default=defaults.seed)
    p.add_argument("--voices", type=int, default=defaults.voices, help="synthetic speakers (a fifth held out)")
    p.add_argument("--per-class", type=int, default=defaults.per_class, help="keywords: utterances per class")
    p.add_argument("--keywords", nargs="+", default=list(KEYWORDS), metavar="CLASS", help="keywords: classes")
    p.add_argument("--sentences", type=int, default=defaults.sentences, help="asr: synthetic sentences")
    p.add_argument("--readings", type=int, default=defaults.readings,
                   help="asr: speakers who say each sentence (a sentence stays in one split)")
    p.add_argument("--min-words", type=int, default=defaults.min_words)
    p.add_argument("--max-words", type=int, default=defaults.max_words)
    p.add_argument("--max-seconds", type=float, default=defaults.max_seconds, help="asr: longest utterance")
    p.add_argument("--human", type=optional_int, default=defaults.human, metavar="N|all",
                   help="Asterisk recordings to add (0: none, so the sounds are not needed)")
    p.add_argument("--augment", type=int, default=defaults.augment, help="augmented copies of each train row")
    p.add_argument("--val-fraction", type=float, default=defaults.val_fraction)
    p.add_argument("--kjv", default=defaults.kjv, help="KJV text, one verse per line")
    p.add_argument("--brown", default=defaults.brown, help="Brown corpus folder (cats.txt + tagged files)")
    p.add_argument("--asterisk-dir", default=str(ASTERISK_DIR))
    p.add_argument("--tools-dir", default=str(TOOLS_DIR), help="where get_data.sh unpacked the synthesizers")
    p.add_argument("--jobs", type=int, default=2, help="utterances rendered at once (the output does not change)")
    p.add_argument("--force", action="store_true", help="rebuild a set whose build.json says it is up to date")
    return p.parse_args(argv)


def main(argv=None) -> int:
    args = parse_args(argv)
    tools = find_tools(args.tools_dir)
    if not tools.engines:
        sys.exit(f"make_speech_data: neither espeak-ng nor flite is on PATH or in {args.tools_dir}/bin: "
                 "run `make data` (or scripts/get_data.sh speech) first; it unpacks them without root")
    human_needed = args.human != 0
    if human_needed and not (Path(args.asterisk_dir) / "core-sounds-en.txt.gz").is_file():
        sys.exit(f"make_speech_data: no Asterisk prompts in {args.asterisk_dir}: run `make data` "
                 "(or scripts/get_data.sh speech) first, or pass --human 0")
    config = SpeechSetConfig(seed=args.seed, voices=args.voices, per_class=args.per_class,
                             keywords=tuple(args.keywords), sentences=args.sentences, readings=args.readings,
                             min_words=args.min_words,
                             max_words=args.max_words, max_seconds=args.max_seconds, human=args.human,
                             augment=args.augment, val_fraction=args.val_fraction, kjv=args.kjv, brown=args.brown,
                             asterisk_dir=args.asterisk_dir)
    for kind in KINDS if args.kind == "all" else (args.kind,):
        done = args.out / kind / BUILD
        if not args.force and done.is_file() and done.read_text(encoding="utf-8") == build_info(kind, config, tools):
            print(f"{kind}: already built with these settings in {args.out / kind} (--force rebuilds it)")
            continue
        start = time.time()
        rows = build_speech_set(kind, args.out / kind, config, tools, jobs=args.jobs)
        splits = Counter(row["split"] for row in rows)
        hours = sum(row["seconds"] for row in rows) / 3600
        print(f"{kind}: {len(rows)} utterances ({', '.join(f'{s} {n}' for s, n in sorted(splits.items()))}), "
              f"{hours:.2f} h of audio, in {args.out / kind} ({time.time() - start:.0f} s; engines "
              f"{', '.join(tools.engines)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
