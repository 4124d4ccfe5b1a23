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
    data.ast_features  ast_features (AST's Kaldi fbank input)
    data.whisper_tokenizer, data.whisper_vocab   Whisper's tokenizer; one learned from a corpus
    data.speech        load_manifest, speech_dir, build_speech_set, SpeechSetConfig: speech made offline
                       (speech_synth: voices and espeak-ng / flite; speech_augment; speech_asterisk;
                       speech_text: keyword classes and sentences)
    data.audio_tasks   KeywordSet, SpeechSet, normalize_text: the audio training sets
    data.parallel      read_pairs, the verse-aligned KJV / Reina-Valera 1909 corpus and its split by book
    data.marian_tokenizer  MarianSentencePiece (a Marian directory's tokenizer), train_joint_vocabulary
    data.token_batches TokenBatchStream, PairCollator: sequence pairs batched by token count

data/corpus/ holds the small text extracts shipped with the repo (see its
README for provenance and licences); scripts/get_data.sh fetches the full
corpora, the speech tools and the Asterisk recordings into data/full/; data/speech_tiny/ holds the
small speech sets shipped with the repo (its README says how they were made).
"""
