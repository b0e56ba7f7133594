"""Build the list of software services a request may name (toolcat/search/lists/
software-services.txt) from three public sources: the names of MCP server packages published
on the npm registry and PyPI ("@aashari/mcp-server-atlassian-jira", "mcp-server-datadog",
"zendesk-mcp" each name the service their server reaches), the APIs of the public-apis list
(github.com/public-apis/public-apis, MIT: its README's tables, "| [Sendgrid](...) | ..."),
and the summaries of the packages of both registries where they name a product's API or SDK
("Stripe API wrapper", "Python library for the DeepL API"). Read from package lists
(tab-separated, a header line, the package's name in the first column and its summary in the
last), made once from both registries, and from the list's README at a recorded commit;
nothing here asks a registry or the network.

    python train/software_services.py --npm NPM.tsv --pypi PYPI.tsv --date 2026-11-30 \
        --public-apis README.md --public-apis-commit COMMIT --write

The rule, stated so that nobody picks a name by hand:

1. A package counts when a piece of its name (split at "@", "/", "-", "_", "." and without its
   scope) is "mcp", or begins or ends with it ("jiramcp").
2. Its name, without the scope and without the words every MCP package's name may carry
   (`FILLER`: mcp, server, python, official, ...), must leave one word of letters only, of
   SHORTEST letters or more: the service ("mcp-server-datadog" -> "datadog"); a name that
   leaves none, its scope ("@stripe/mcp" -> "stripe"). A name that leaves two words
   ("atlassian-jira") names no one service and is not read.
3. A word is a service when at least PACKAGES packages leave it, or when two of these three
   sources name it: one MCP package leaves it (rule 2); the public-apis list has an API of
   that one word ("Sendgrid", "Uber"; not "Google Analytics"); API_PACKAGES packages or more
   (MCP or not) write it, with a capital and not all in capitals, right before "API" or "SDK"
   in their summaries ("Stripe API", "Zoom SDK"). One source is not enough ("python" is
   before "API" in thousands of summaries), nor are fewer summaries ("ethereum", a coin:
   one MCP package and five). And, whichever way it came, the summaries of all the listed
   packages (MCP or not), where they write the word other than as a sentence's first, write
   it with a capital (and not all in capitals) more often than not: a product's name ("post
   to Slack", "PagerDuty"), not a word of the trade ("fetch web pages", "deploy your app",
   "an API gateway") nor an acronym of one ("PDF", "SQL", "CSV").
4. Everyday words are dropped: a word as common in general English as EVERYDAY or more on
   wordfreq's Zipf scale ("weather" 4.9, "calendar" 4.3, "notion" 4.2, "time" 6.3) is not a
   service a request names by chance.

With `--products` it also writes lists/software-products.txt: names of products that
toolcat.search.services reads only where a request's form puts a service (`my Instagram
story`, `the nginx container`, `in google analytics`), so one source is enough for them:

5. A product is a piece of the names of MCP packages (rule 1's packages, each piece without
   the FILLER words, letters only, SHORTEST letters or more), or two pieces side by side
   ("mcp-server-google-analytics" -> "google", "analytics" and "google analytics"), that at
   least PRODUCT_PACKAGES packages' names have: "zoom-meetings-mcp" and "osomai-zoom-mcp"
   both name zoom; an author's name, in one or two packages, is not one.
6. One piece is a product's name when the summaries of all packages write it with a capital
   (not all in capitals, not as a sentence's first word) more often than not and it is
   rarer in general English than EVERYDAY_PRODUCT ("Instagram" 4.3, "YouTube" 4.7, not
   "memory" 5.0), or when it is rare whichever way it is written (under RARE_PRODUCT:
   "nginx" 2.2, written in lower case by its users). Two pieces are one when the first is
   written with a capital more often than not ("Google", "Bing": "google analytics", "bing
   webmaster"; not "web search"). The services of rules 1 to 4 are left out: they are read
   anywhere in a request.
"""

from __future__ import annotations

import argparse
import csv
import re
import sys
from collections import Counter, defaultdict
from itertools import pairwise
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "toolcat" / "search" / "lists" / "software-services.txt"
FILLER = frozenset("""mcp mcps server servers mcpserver model context protocol py python node
nodejs js ts typescript official unofficial ai tool tools client cli sdk api lite plugin
integration connector bridge fastmcp stdio sse http remote local the for of and v1 v2 v3 lib
app pro plus toolkit kit core simple basic demo test my community""".split())
SHORTEST = 3  # letters of the shortest service name read
PACKAGES = 2  # packages that must name a word for it to be a service
EVERYDAY = 4.0  # Zipf frequency from which a word is an everyday word
PRODUCT_PACKAGES = 3  # MCP packages whose names must have a product's name (rule 5)
EVERYDAY_PRODUCT = 5.0  # Zipf frequency under which a capitalised piece is a product (rule 6)
RARE_PRODUCT = 3.0  # Zipf frequency under which any piece is one (rule 6)
PRODUCTS = REPO / "toolcat" / "search" / "lists" / "software-products.txt"
API_PACKAGES = 6  # packages whose summaries must write a word before "API" or "SDK" for that
# to count as a source (5 admits "ethereum", a coin, which 27 of metatool's requests name)
_BEFORE_API = re.compile(r"\b([A-Z][A-Za-z]*[a-z][A-Za-z]*) (?:API|SDK|Api)\b")
_PUBLIC_API = re.compile(r"^\| \[([^\]]+)\]")
_ONE_WORD = re.compile(r"[A-Za-z]+")
_PIECES = re.compile(r"[@/\-_.]+")
_SENTENCES = re.compile(r"[.!?:;|()\[\]\-\u2013\u2014]\s|\s[-\u2013\u2014|]\s")
_WORDS = re.compile(r"[A-Za-z]+")


def service_of(name: str) -> str | None:
    """The one service the MCP package `name` names, or None (rules 1 and 2)."""
    scope, bare = name[1:].split("/", 1) if name.startswith("@") and "/" in name \
        else ("", name)
    pieces = [p for p in _PIECES.split(bare.lower()) if p]
    if not any(p.startswith("mcp") or p.endswith("mcp") for p in pieces):
        return None
    left = []
    for piece in pieces:
        if piece.endswith("mcp") and len(piece) > 3:
            piece = piece[:-3]
        elif piece.startswith("mcp") and len(piece) > 3:
            piece = piece[3:]
        if piece not in FILLER:
            left.append(piece)
    if not left and scope:  # "@stripe/mcp": the scope is the service
        left = [p for p in _PIECES.split(scope.lower()) if p and p not in FILLER]
    if len(left) != 1 or not left[0].isalpha() or not left[0].isascii() \
            or len(left[0]) < SHORTEST:
        return None
    return left[0]


def read(path: Path) -> list[tuple[str, str]]:
    """(name, summary) of each package of the list at `path`."""
    csv.field_size_limit(1 << 20)
    with path.open(encoding="utf-8", newline="") as handle:
        rows = csv.reader(handle, delimiter="\t", quoting=csv.QUOTE_NONE)
        next(rows, None)
        return [(row[0], row[-1]) for row in rows if len(row) >= 2]


def public_apis(readme: str) -> set[str]:
    """The one-word names of the APIs the public-apis list's README tables list, in lower
    case ("| [Sendgrid](https://...) | ..." -> "sendgrid")."""
    found = set()
    for line in readme.splitlines():
        match = _PUBLIC_API.match(line)
        if match and _ONE_WORD.fullmatch(name := match.group(1).strip()) \
                and len(name) >= SHORTEST:
            found.add(name.lower())
    return found


def before_api(packages: list[tuple[str, str]]) -> Counter[str]:
    """How many packages' summaries write each word right before "API" or "SDK", with a
    capital and not all in capitals ("Stripe API wrapper" -> stripe)."""
    writers: dict[str, set[str]] = defaultdict(set)
    for name, summary in packages:
        for word in _BEFORE_API.findall(summary):
            writers[word.lower()].add(name.lower())
    return Counter({w: len(names) for w, names in writers.items()})


def services(packages: list[tuple[str, str]], apis: set[str] | None = None) -> list[str]:
    """The services named by `packages` and the public-apis list's `apis` (rules 1 to 4),
    sorted."""
    from wordfreq import zipf_frequency

    named = Counter(w for w in (service_of(name) for name, _ in packages) if w is not None)
    apis = apis or set()
    written_before_api = before_api(packages)
    sourced = Counter({w: (named[w] >= 1) + (w in apis)
                       + (written_before_api[w] >= API_PACKAGES)
                       for w in {*named, *apis, *written_before_api}})
    candidates = {w for w in sourced if (named[w] >= PACKAGES or sourced[w] >= 2)
                  and w.isalpha() and w.isascii() and len(w) >= SHORTEST}
    written: dict[str, Counter[bool]] = defaultdict(Counter)
    for _, summary in packages:
        for sentence in _SENTENCES.split(summary):
            for word in _WORDS.findall(sentence)[1:]:  # not a sentence's first word
                lower = word.lower()
                if lower in candidates:  # "PDF", "SQL": a format or a technique's acronym
                    written[lower][word[:1].isupper() and not word.isupper()] += 1
    return sorted(w for w in candidates if written[w][True] > written[w][False]
                  and zipf_frequency(w, "en") < EVERYDAY)


def _pieces(name: str) -> list[str | None] | None:
    """The pieces of the MCP package `name` (rule 1), each None where it is a FILLER word,
    not letters only or shorter than SHORTEST; None when `name` is no MCP package's."""
    bare = name[1:].split("/", 1)[1] if name.startswith("@") and "/" in name else name
    pieces = [p for p in _PIECES.split(bare.lower()) if p]
    if not any(p.startswith("mcp") or p.endswith("mcp") for p in pieces):
        return None
    left: list[str | None] = []
    for piece in pieces:
        if piece.endswith("mcp") and len(piece) > 3:
            piece = piece[:-3]
        elif piece.startswith("mcp") and len(piece) > 3:
            piece = piece[3:]
        left.append(None if piece in FILLER or not piece.isalpha() or not piece.isascii()
                    or len(piece) < SHORTEST else piece)
    return left


def products(packages: list[tuple[str, str]], listed: set[str]) -> list[str]:
    """The products named by the MCP packages of `packages` (rules 5 and 6), one or two
    words, sorted, without the services `listed` (rules 1 to 4)."""
    from wordfreq import zipf_frequency

    ones: dict[str, set[str]] = defaultdict(set)
    twos: dict[str, set[str]] = defaultdict(set)
    for name, _ in packages:
        left = _pieces(name)
        if left is None:
            continue
        for piece in left:
            if piece is not None:
                ones[piece].add(name.lower())
        for first, second in pairwise(left):
            if first is not None and second is not None:
                twos[f"{first} {second}"].add(name.lower())
    one = {w for w, names in ones.items() if len(names) >= PRODUCT_PACKAGES}
    two = {w for w, names in twos.items() if len(names) >= PRODUCT_PACKAGES}
    asked = one | {w.split()[0] for w in two}
    written: dict[str, Counter[bool]] = defaultdict(Counter)
    for _, summary in packages:
        for sentence in _SENTENCES.split(summary):
            for word in _WORDS.findall(sentence)[1:]:
                if (lower := word.lower()) in asked:
                    written[lower][word[:1].isupper() and not word.isupper()] += 1

    def capital(word: str) -> bool:
        return written[word][True] > written[word][False]

    found = {w for w in one if (capital(w) and zipf_frequency(w, "en") < EVERYDAY_PRODUCT)
             or zipf_frequency(w, "en") < RARE_PRODUCT}
    found |= {w for w in two if capital(w.split()[0])}
    return sorted(found - listed)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--npm", type=Path, required=True, help="the npm registry's packages")
    parser.add_argument("--pypi", type=Path, required=True, help="PyPI's packages")
    parser.add_argument("--date", required=True, help="the day the lists were made")
    parser.add_argument("--public-apis", type=Path, required=True,
                        help="the public-apis list's README.md")
    parser.add_argument("--public-apis-commit", required=True,
                        help="the commit of public-apis/public-apis it was read at")
    parser.add_argument("--write", action="store_true", help=f"write {OUT.relative_to(REPO)}")
    parser.add_argument("--products", action="store_true",
                        help=f"with --write, write {PRODUCTS.relative_to(REPO)} too (rules 5, 6)")
    args = parser.parse_args()
    apis = public_apis(args.public_apis.read_text(encoding="utf-8"))
    packages = [*read(args.npm), *read(args.pypi)]
    found = services(packages, apis)
    head = [
        "# Software services: names of services that MCP server packages reach or whose",
        "# API is public, one a line. Built by train/software_services.py from the names",
        "# and summaries of the npm registry's and PyPI's packages as listed on",
        f"# {args.date} and from the public-apis list (github.com/public-apis/public-apis,",
        f"# commit {args.public_apis_commit}, MIT licence: the names of its APIs), by the",
        "# rule in that script's docstring. Package and API names are facts published by",
        "# their authors; this list is distributed with toolcat under toolcat's licence.",
    ]
    text = "\n".join([*head, *found]) + "\n"
    if args.write:
        OUT.parent.mkdir(exist_ok=True)
        OUT.write_text(text, encoding="utf-8")
    print(f"{len(found)} services", file=sys.stderr)
    if args.products:
        named = products(packages, set(found))
        lines = [
            "# Software products: names of products that MCP server packages reach, one or",
            "# two words a line, read only where a request's form puts a service. Built by",
            "# train/software_services.py --products from the names and summaries of the npm",
            f"# registry's and PyPI's packages as listed on {args.date}, by rules 5 and 6",
            "# of that script's docstring; the services of software-services.txt are left",
            "# out. Package names are facts published by their authors; this list is",
            "# distributed with toolcat under toolcat's licence.",
        ]
        if args.write:
            PRODUCTS.write_text("\n".join([*lines, *named]) + "\n", encoding="utf-8")
        print(f"{len(named)} products", file=sys.stderr)
    if not args.write:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
