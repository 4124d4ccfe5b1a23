"""Everything before the model: tokenizers, text corpora, datasets, collators, batch streams.

Modules are imported by name (nothing is re-exported here, so `import data.audio`
does not pull in the tokenizers library and vice versa):

    data.tokenization  train_bpe, train_wordpiece, load_tokenizer, Tokenizer
    data.text          read_documents, brown_documents, brown_split, KJV_EXTRACT, BROWN_EXTRACT
    data.lm_dataset    tokenize_to_file, PackedLMDataset, train_val_split
    data.collate       MLMCollator, ClassificationCollator, pad_sequences
    data.loader        BatchStream, iterate_once, default_stack
    data.audio         log_mel_spectrogram, pad_or_trim, mel_filters, SAMPLE_RATE, N_SAMPLES, N_FRAMES
                       (and load_audio, load_audio_batch from data.audio_io)

data/corpus/ holds the small text extracts shipped with the repo (see its
README for provenance and licences); scripts/get_data.sh fetches the full
corpora into data/full/.
"""
