"""data.parallel: diatheke output parsed and cleaned, verses aligned by reference, the book split, the files."""
from __future__ import annotations

import pytest

from data.parallel import (
    BOOKS,
    EXTRACT_HELD_OUT_PAIRS,
    EXTRACT_TRAIN_BOOKS,
    PARALLEL_EXTRACT,
    SPLITS,
    TEST_BOOKS,
    VALID_BOOKS,
    ParallelCorpusError,
    align_verses,
    check_split,
    clean_verse,
    in_place,
    main,
    parse_diatheke,
    parse_ref,
    read_pairs,
    read_refs,
    split_of,
    strip_rv1909_additions,
    write_corpus,
)

# What `diatheke -f plain` prints: a stale psalm title before each verse, leading and trailing spaces,
# a pilcrow, a USFM \nd marker, Strong's numbers, blank lines, the module's name at the end.
DIATHEKE_SAMPLE = (
    "\n\nA Psalm of David, when he fled from Absalom his son.\n"
    "   Psalms 3:1: LORD, how are they increased that trouble me! many are they that rise up against me. \n"
    "\n"
    "A Psalm of David, when he fled from Absalom his son.\n"
    "   Exodus 6:3: And I appeared unto Abraham, by my name \\nd JEHOVAH was I not known to them.  \n"
    "Genesis 1:6: \u00b6 And God said, Let there be a firmament in the midst of the waters.\n"
    "Genesis 1:30: en que hay vida <H2416>, toda hierba verde <H3418> les será para comer: y fué así.\n"
    "I Peter 1:1: Pedro, apóstol de Jesucristo <G5547>,  á los extranjeros   \n"
    "Jonah 1:17: \n"
    "(engKJV2006eb)\n"
)

# Ruth 1:1-6 and 2:1-3 as the two modules print them (cleaned): real lengths for the length check.
RUTH_EN = {
    ("Ruth", 1, 1): "Now it came to pass in the days when the judges ruled, that there was a famine in the land. "
                    "And a certain man of Beth-lehem-judah went to sojourn in the country of Moab, he, and his "
                    "wife, and his two sons.",
    ("Ruth", 1, 2): "And the name of the man was Elimelech, and the name of his wife Naomi, and the name of his "
                    "two sons Mahlon and Chilion, Ephrathites of Beth-lehem-judah. And they came into the country "
                    "of Moab, and continued there.",
    ("Ruth", 1, 3): "And Elimelech Naomi’s husband died; and she was left, and her two sons.",
    ("Ruth", 1, 4): "And they took them wives of the women of Moab; the name of the one was Orpah, and the name "
                    "of the other Ruth: and they dwelled there about ten years.",
    ("Ruth", 1, 5): "And Mahlon and Chilion died also both of them; and the woman was left of her two sons and "
                    "her husband.",
    ("Ruth", 1, 6): "Then she arose with her daughters in law, that she might return from the country of Moab: "
                    "for she had heard in the country of Moab how that the LORD had visited his people in giving "
                    "them bread.",
    ("Ruth", 2, 1): "And Naomi had a kinsman of her husband’s, a mighty man of wealth, of the family of "
                    "Elimelech; and his name was Boaz.",
    ("Ruth", 2, 2): "And Ruth the Moabitess said unto Naomi, Let me now go to the field, and glean ears of corn "
                    "after him in whose sight I shall find grace. And she said unto her, Go, my daughter.",
    ("Ruth", 2, 3): "And she went, and came, and gleaned in the field after the reapers: and her hap was to light "
                    "on a part of the field belonging unto Boaz, who was of the kindred of Elimelech.",
}
RUTH_ES = {
    ("Ruth", 1, 1): "Y ACONTECIÓ en los días que gobernaban los jueces, que hubo hambre en la tierra. Y un varón "
                    "de Beth-lehem de Judá, fué á peregrinar en los campos de Moab, él y su mujer, y dos hijos "
                    "suyos.",
    ("Ruth", 1, 2): "El nombre de aquel varón era Elimelech, y el de su mujer Noemi; y los nombres de sus dos "
                    "hijos eran, Mahalón y Chelión, Ephrateos de Beth-lehem de Judá. Llegaron pues á los campos "
                    "de Moab, y asentaron allí.",
    ("Ruth", 1, 3): "Y murió Elimelech, marido de Noemi, y quedó ella con sus dos hijos;",
    ("Ruth", 1, 4): "Los cuales tomaron para sí mujeres de Moab, el nombre de la una Orpha, y el nombre de la "
                    "otra Ruth; y habitaron allí unos diez años.",
    ("Ruth", 1, 5): "Y murieron también los dos, Mahalón y Chelión, quedando así la mujer desamparada de sus dos "
                    "hijos y de su marido.",
    ("Ruth", 1, 6): "Entonces se levantó con sus nueras, y volvióse de los campos de Moab: porque oyó en el campo "
                    "de Moab que Jehová había visitado á su pueblo para darles pan.",
    ("Ruth", 2, 1): "Y TENÍA Noemi un pariente de su marido, varón poderoso y de hecho, de la familia de "
                    "Elimelech, el cual se llamaba Booz.",
    ("Ruth", 2, 2): "Y Ruth la Moabita dijo á Noemi: Ruégote que me dejes ir al campo, y cogeré espigas en pos "
                    "de aquel á cuyos ojos hallare gracia. Y ella le respondió: Ve, hija mía.",
    ("Ruth", 2, 3): "Fué pues, y llegando, espigó en el campo en pos de los segadores: y aconteció por ventura, "
                    "que la suerte del campo era de Booz, el cual era de la parentela de Elimelech.",
}


def test_parse_diatheke_keeps_verses_and_strips_markup():
    verses = parse_diatheke(DIATHEKE_SAMPLE)
    assert verses == {
        ("Psalms", 3, 1): "LORD, how are they increased that trouble me! many are they that rise up against me.",
        ("Exodus", 6, 3): "And I appeared unto Abraham, by my name JEHOVAH was I not known to them.",
        ("Genesis", 1, 6): "And God said, Let there be a firmament in the midst of the waters.",
        ("Genesis", 1, 30): "en que hay vida, toda hierba verde les será para comer: y fué así.",
        ("I Peter", 1, 1): "Pedro, apóstol de Jesucristo, á los extranjeros",
        ("Jonah", 1, 17): "",
    }
    assert list(verses)[:2] == [("Psalms", 3, 1), ("Exodus", 6, 3)]   # the order printed


def test_clean_verse_and_refs():
    assert clean_verse("a <w lemma=\"x\">b</w>\u00b6  c\u0301 ") == "a b ć"   # tags gone, NFC, spaces
    assert parse_ref("I Peter 1:1") == ("I Peter", 1, 1)
    assert parse_ref("Revelation of John 22:21") == ("Revelation of John", 22, 21)
    with pytest.raises(ValueError, match="not a reference"):
        parse_ref("1 Peter 1:1")


def test_parse_diatheke_rejects_a_verse_printed_twice():
    with pytest.raises(ValueError, match="line 2: Ruth 1:1 printed twice"):
        parse_diatheke("Ruth 1:1: a\nRuth 1:1: b\n")


def test_strip_rv1909_additions():
    verses = {
        ("Psalms", 3, 1): "Salmo de David, cuando huía de delante de Absalom su hijo. ¡OH Jehová, cuánto se han "
                          "multiplicado mis enemigos!",
        ("Psalms", 25, 1): "Salmo de David. A TI, oh Jehová, levantaré mi alma.",
        ("Psalms", 1, 1): "BIENAVENTURADO el varón que no anduvo en consejo de malos,",
        ("Psalms", 146, 1): "Aleluya. ALABA, oh alma mía, á Jehová.",   # the KJV has "Praise ye the LORD."
        ("Psalms", 119, 9): "BETH ¿Con qué limpiará el joven su camino?",
        ("Psalms", 119, 10): "Con todo mi corazón te he buscado:",
        ("Philippians", 4, 22): "Todos los santos os saludan. Amén.",
        ("Philippians", 4, 23): "La gracia de nuestro Señor Jesucristo sea con todos vosotros. Amén. Escrita de "
                                "Roma con Epafrodito.",
    }
    out, removed = strip_rv1909_additions(verses)
    assert out[("Psalms", 3, 1)] == "¡OH Jehová, cuánto se han multiplicado mis enemigos!"
    assert out[("Psalms", 25, 1)] == "A TI, oh Jehová, levantaré mi alma."
    assert out[("Psalms", 1, 1)] == verses[("Psalms", 1, 1)]
    assert out[("Psalms", 146, 1)] == verses[("Psalms", 146, 1)]
    assert out[("Psalms", 119, 9)] == "¿Con qué limpiará el joven su camino?"
    assert out[("Psalms", 119, 10)] == verses[("Psalms", 119, 10)]
    assert out[("Philippians", 4, 22)] == verses[("Philippians", 4, 22)]   # not the last verse
    assert out[("Philippians", 4, 23)] == "La gracia de nuestro Señor Jesucristo sea con todos vosotros. Amén."
    assert removed == {"psalm superscriptions": 2, "Psalm 119 letter headings": 1, "epistle subscriptions": 1}


def test_align_verses_by_reference():
    alignment = align_verses(RUTH_EN, RUTH_ES)
    assert [ref for ref, _, _ in alignment.pairs] == list(RUTH_EN)
    assert alignment.pairs[2] == (("Ruth", 1, 3), RUTH_EN[("Ruth", 1, 3)], RUTH_ES[("Ruth", 1, 3)])
    assert not any(alignment.dropped().values())


def test_align_verses_with_a_verse_missing_on_one_side():
    target = {ref: text for ref, text in RUTH_ES.items() if ref != ("Ruth", 1, 4)}
    alignment = align_verses(RUTH_EN, target)
    assert alignment.source_only == [("Ruth", 1, 4)]
    assert [ref for ref, _, _ in alignment.pairs] == [ref for ref in RUTH_EN if ref != ("Ruth", 1, 4)]
    swapped = align_verses(target, RUTH_EN)
    assert swapped.target_only == [("Ruth", 1, 4)] and len(swapped.pairs) == 8


def test_an_empty_verse_drops_its_chapter_and_the_next():
    # As the RV 1909 leaves Jonah 1:17 empty and starts Jonah 2 with its text: the numbering differs there.
    target = {**RUTH_ES, ("Ruth", 1, 6): ""}
    alignment = align_verses(RUTH_EN, target)
    assert alignment.empty == [("Ruth", 1, 6)]
    assert alignment.renumbered == [ref for ref in RUTH_EN if ref != ("Ruth", 1, 6)]
    assert alignment.pairs == []


def test_in_place_finds_shifted_verses():
    assert in_place([100, 50, 80, 120, 60, 90], [95, 48, 75, 118, 55, 88], ratio=0.95) == [True] * 6
    # The target merges source verses 1 and 2, so every later verse is one off and its last is empty.
    assert in_place([100, 50, 80, 120, 60, 90], [100, 130, 120, 60, 90, 0]) == [True] + [False] * 5
    assert in_place([], []) == []


def test_split_is_by_book_and_fixed():
    assert TEST_BOOKS == ("Ruth", "Jonah", "Mark", "Philippians", "James")
    assert VALID_BOOKS == ("Esther", "Joel", "Colossians", "I Peter", "Titus")
    assert len(BOOKS) == len(set(BOOKS)) == 66
    by_split = {split: {book for book in BOOKS if split_of(book) == split} for split in SPLITS}
    assert by_split["test"] == set(TEST_BOOKS)
    assert by_split["valid"] == set(VALID_BOOKS)
    assert by_split["train"] == set(BOOKS) - set(TEST_BOOKS) - set(VALID_BOOKS)
    with pytest.raises(ValueError, match="unknown book '1 Peter'"):
        split_of("1 Peter")


def test_write_and_read_round_trip(tmp_path):
    pairs = [(ref, RUTH_EN[ref], RUTH_ES[ref]) for ref in RUTH_EN]
    pairs.append((("Genesis", 1, 1), "In the beginning God created the heaven and the earth.",
                  "EN el principio crió Dios los cielos y la tierra."))
    assert write_corpus(tmp_path, pairs) == {"train": 1, "valid": 0, "test": 9}
    assert read_pairs(tmp_path, "test")[2] == (RUTH_EN[("Ruth", 1, 3)], RUTH_ES[("Ruth", 1, 3)])
    assert read_pairs(tmp_path, "train", source="es", target="en")[0][0].startswith("EN el principio")
    assert read_refs(tmp_path, "test") == list(RUTH_EN)
    assert read_pairs(tmp_path, "valid") == []
    with pytest.raises(ValueError, match="Ruth 1:1: a verse must be one non-empty line"):
        write_corpus(tmp_path, [(("Ruth", 1, 1), "a\nb", "c")])


def test_line_count_mismatch_names_both_files(tmp_path):
    (tmp_path / "test.en").write_text("one\ntwo\nthree\n", encoding="utf-8")
    (tmp_path / "test.es").write_text("uno\ndos\n", encoding="utf-8")
    with pytest.raises(ParallelCorpusError, match=r"test\.en' has 3 lines but .*test\.es' has 2"):
        read_pairs(tmp_path, "test")
    assert issubclass(ParallelCorpusError, ValueError)


def test_missing_file_is_named_with_what_is_expected(tmp_path):
    (tmp_path / "valid.en").write_text("one\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"valid\.es' is missing: a parallel corpus folder holds valid\.en, valid\.es"):
        read_pairs(tmp_path, "valid")
    with pytest.raises(ValueError, match=r"valid\.ref' is missing"):
        read_refs(tmp_path, "valid")
    with pytest.raises(ValueError, match="split must be one of"):
        read_pairs(tmp_path, "dev")


def test_shipped_extract_is_aligned_and_split_by_book():
    books = {}
    for split in SPLITS:
        n = check_split(PARALLEL_EXTRACT, split, ("en", "es", "ref"))
        pairs = read_pairs(PARALLEL_EXTRACT, split)
        refs = read_refs(PARALLEL_EXTRACT, split)
        assert n == len(pairs) == len(refs) > 0
        assert all(en and es for en, es in pairs)
        assert len(set(refs)) == len(refs)
        books[split] = {book for book, _, _ in refs}
        assert {split_of(book) for book in books[split]} == {split}
    assert books["train"] == set(EXTRACT_TRAIN_BOOKS)
    assert books["valid"] == set(VALID_BOOKS) and books["test"] == set(TEST_BOOKS)
    assert not (books["train"] & books["valid"] or books["train"] & books["test"] or books["valid"] & books["test"])
    assert len(read_pairs(PARALLEL_EXTRACT, "valid")) == len(VALID_BOOKS) * EXTRACT_HELD_OUT_PAIRS
    assert read_pairs(PARALLEL_EXTRACT, "train")[0] == (
        "In the beginning God created the heaven and the earth.", "EN el principio crió Dios los cielos y la tierra.")
    assert sum(p.stat().st_size for p in PARALLEL_EXTRACT.iterdir()) < 1_000_000


def test_build_command(tmp_path, capsys):
    english = "".join(f"{ref[0]} {ref[1]}:{ref[2]}: {text}  \n" for ref, text in RUTH_EN.items())
    spanish = "".join(f"{ref[0]} {ref[1]}:{ref[2]}: {text}\n" for ref, text in RUTH_ES.items())
    (tmp_path / "en.txt").write_text(english + "(engKJV2006eb)\n", encoding="utf-8")
    (tmp_path / "es.txt").write_text(spanish + "(spaRV1909eb)\n", encoding="utf-8")
    out = tmp_path / "corpus"
    main(["build", "--english", str(tmp_path / "en.txt"), "--spanish", str(tmp_path / "es.txt"), "--out", str(out)])
    assert "pairs: 9 (train 0, valid 0, test 9)" in capsys.readouterr().out
    assert read_pairs(out, "test") == [(RUTH_EN[ref], RUTH_ES[ref]) for ref in RUTH_EN]
    main(["extract", "--full", str(out), "--out", str(tmp_path / "extract")])
    assert read_refs(tmp_path / "extract", "test") == list(RUTH_EN)
