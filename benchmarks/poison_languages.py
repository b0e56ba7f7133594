"""The poisoning attacks written in another language than English, one by one, that lint does
not report as errors (issue 41, item 3): by the level found (nothing, a warning only), the
place (a whole tool written in the language, or a sentence in a tool otherwise English: the
rest of the tool's strings English to CLD2), the script of the wording and the field it sits
in; then the totals of every set named.

    python benchmarks/poison_languages.py                 # every development set
    python benchmarks/poison_languages.py fresh9 fresh16  # these sets

Never name a held-out set here (fresh7, fresh8): it prints their misses.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import unicodedata
from collections import Counter
from pathlib import Path
from typing import Any

from poison_accuracy import fresh_entries, messages, verdicts

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from toolcat import languages  # noqa: E402

DATA = REPO / "benchmarks" / "data" / "poison"
DEV = ("fresh", "fresh2", "fresh3", "fresh4", "fresh5", "fresh6", *(
    f"fresh{n}" for n in range(9, 20)))


def script(text: str) -> str:
    """The Unicode script most of the letters of `text` are written in (LATIN, CYRILLIC...)."""
    found = Counter(unicodedata.name(c, "?").split()[0] for c in text if c.isalpha())
    return found.most_common(1)[0][0] if found else "?"


def prose(value: Any) -> list[str]:
    """Every string of a tool's definition but its name, types and required lists."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for key, item in value.items() if key not in ("name", "type", "required")
                for s in prose(item)]
    if isinstance(value, list):
        return [s for item in value for s in prose(item)]
    return []


def place(entry: dict[str, Any], texts: list[str]) -> str:
    """"sentence" when the rest of the entry's tool is English to CLD2, else "whole"."""
    rest = " ".join(" ".join(prose(entry["tool"])).split())
    for text in texts:
        rest = rest.replace(" ".join(text.split()), " ")
    return "sentence" if languages.english(rest) else "whole"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sets", nargs="*", default=DEV, help="set names (default: the dev sets)")
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for name in args.sets:
            for entry, catalog in fresh_entries(DATA / f"{name}.yaml", Path(folder)):
                if entry["class"] == "benign" or entry.get("lang", "en") == "en":
                    continue
                levels = set().union(*verdicts(catalog).values())
                level = "error" if "error" in levels else "warning" if levels else "none"
                texts = entry["text"] if isinstance(entry["text"], list) else [entry["text"]]
                found = messages(catalog, catalog.ident(catalog.tools[0]))
                rows.append((level, place(entry, texts), script(" ".join(texts)), entry, found))
    for level in ("none", "warning"):
        chosen = sorted((row for row in rows if row[0] == level),
                        key=lambda row: (row[1], row[2], row[3]["lang"]))
        print(f"== {level}: {len(chosen)}")
        for _, where, written, entry, found in chosen:
            text = " | ".join(entry["text"] if isinstance(entry["text"], list)
                              else [entry["text"]])
            print(f"{entry['id']} {entry['lang']} {written} {where} at={entry['at']} "
                  f"class={entry['class']}: {text[:160]!r}")
            for message in found:
                print(f"      {message[:200]}")
        print(f"  by place and script: {dict(Counter((r[1], r[2]) for r in chosen))}\n")
    print(f"other-language attacks: {len(rows)}, "
          f"{dict(Counter(row[0] for row in rows))}")


if __name__ == "__main__":
    main()
