"""The `zoo` command and its subcommands (setup.py installs `zoo = zoo.cli.main:main`).

    zoo generate --model gpt2_dir --prompt "Hello" --max-new-tokens 40
    zoo transcribe talk.flac --model faster-whisper-base
    zoo export --model vit_tiny_patch2_8 --out runs/export/vit

main.py dispatches; common.py holds what every subcommand shares (the parser with its defaults in --help,
flags under two spellings, --device / --dtype / --threads, the one-line usage error); models.py is the one
model loader (a preset, a save_pretrained, HF or CTranslate2 directory, an openai-whisper .pt). One module per
subcommand; the scripts in the repository's scripts/ call the same `main(argv)`.
"""
