"""`toolcat review` at scale (issue 29): N requests against the 43,000-tool catalog that
benchmarks/scale.py builds, side by side with the reference the issue names, `toolcat render`
of one request, times N; and the page it writes, opened in headless chromium.

Rows (each toolcat / reference / ratio, measured in this run):
- CLI: `toolcat review -q N requests -o DIR` in one process against N times one
  `toolcat render QUERY` process (the way a reviewer exported prompts before review);
- in process: the review's own work per request (records, files, comparison, page) against a
  loop doing what `render` does per request (resolve, render) on the same loaded catalog;
- `toolcat review --check DIR` against writing DIR;
- the page: its size, the time chromium takes to load it and draw the first request, to
  switch to another request, and to filter the list (needs playwright and /usr/bin/chromium).

The profile ranks with BM25 (`scorer: bm25`, automatic tool search, the cap by model size):
the default hybrid scorer would first encode 43,000 tools with the embedding model, which is
the same for both sides and measured by benchmarks/scale.py.

    python benchmarks/review_speed.py                 # 1,000 requests, 43,000 tools
    python benchmarks/review_speed.py --requests 100 --tools 5000
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml
from scale import build_catalog, queries

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

PROFILE = {"name": "bm25-large", "scorer": "bm25",
           "model": {"name": "gpt-4o", "tool_calling": True, "size_b": 200}}


def timed(argv: list[str], allowed: tuple[int, ...] = (0,)) -> float:
    started = time.perf_counter()
    done = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, cwd=REPO,
                          text=True)
    elapsed = time.perf_counter() - started
    if done.returncode not in allowed:
        raise SystemExit(f"{' '.join(argv[2:4])} exited {done.returncode}:\n{done.stdout}")
    if done.returncode:
        print(done.stdout[-3000:], flush=True)  # what --check found, to see why
    return elapsed


def row(label: str, ours: float, reference: float, ref_label: str) -> None:
    print(f"{label:<44} {ours:9.2f} s   reference {reference:9.2f} s ({ref_label})   "
          f"ratio {ours / reference:5.2f}", flush=True)


def cli_rows(folder: Path, catalog: Path, requests: Path, profile: Path, texts: list[str],
             runs: int) -> Path:
    toolcat = [sys.executable, "-m", "toolcat"]
    common = ["-c", str(catalog), "-p", str(profile)]
    single = min(timed([*toolcat, "render", texts[0], *common]) for _ in range(runs))
    out = folder / "review"
    ours = timed([*toolcat, "review", *common, "-q", str(requests), "-o", str(out)])
    n = len(texts)
    row(f"review of {n:,} requests (one process)", ours, single * n,
        f"render of one request {single:.2f} s × {n:,}")
    check = timed([*toolcat, "review", "--check", str(out)], allowed=(0, 1))
    row("review --check of that folder", check, ours, "writing it")
    return out


def in_process_rows(folder: Path, catalog_path: Path, profile_path: Path,
                    requests_path: Path) -> None:
    from toolcat.catalog.load import load_catalog
    from toolcat.render.renderer import from_resolution, render
    from toolcat.resolution import Resolver, load_profile
    from toolcat.review.export import write_review
    from toolcat.review.requests import from_query_file
    from toolcat.review.run import Setup

    catalog = load_catalog(catalog_path)
    profile = load_profile(str(profile_path))
    requests = from_query_file(requests_path)
    resolver = Resolver(catalog, profile)
    resolver.resolve(requests[0].text)  # the index is built once for both sides

    def reference_run() -> float:
        started = time.perf_counter()
        for request in requests:
            render(from_resolution(resolver.resolve(request.text), catalog.documents))
        return time.perf_counter() - started

    # the reference before and after the review, averaged: the load of a shared machine drifts
    before = reference_run()
    setup = Setup(catalog, ((profile, None),))
    Resolver(catalog, profile).resolve(requests[0].text)  # the review's index, warm as well
    started = time.perf_counter()
    write_review(folder / "in-process", setup, requests, None, {})
    ours = time.perf_counter() - started
    after = reference_run()
    row(f"review, in process ({len(requests):,} requests)", ours, (before + after) / 2,
        f"resolve + render per request, {before:.1f} s before and {after:.1f} s after")


def page_rows(page: Path) -> None:
    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    size = page.stat().st_size
    print(f"page: {size / 1e6:.1f} MB, {page}")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        print("page timings skipped: playwright is not installed")
        return
    if not Path(chromium).exists():
        print("page timings skipped: no /usr/bin/chromium")
        return
    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=chromium)
        view = browser.new_page(viewport={"width": 1280, "height": 800})
        errors: list[str] = []
        view.on("pageerror", lambda e: errors.append(str(e)))
        started = time.perf_counter()
        view.goto(page.as_uri())
        view.wait_for_selector("#detail h2")
        loaded = time.perf_counter() - started
        count = view.locator("#list li").count()
        started = time.perf_counter()
        view.evaluate("location.hash = '#r' + (document.querySelectorAll('#list li').length - 1)")
        view.wait_for_function("document.querySelector('#list li:last-child.sel') !== null")
        switched = time.perf_counter() - started
        started = time.perf_counter()
        view.fill("#filter", "weather")
        view.evaluate("0")
        filtered = time.perf_counter() - started
        browser.close()
    print(f"page: {count:,} requests listed; load + first request drawn {loaded * 1000:.0f} ms; "
          f"switch to the last request {switched * 1000:.0f} ms; filter keystroke "
          f"{filtered * 1000:.0f} ms; {len(errors)} script errors")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=1000)
    parser.add_argument("--tools", type=int, default=43_000)
    parser.add_argument("--runs", type=int, default=3, help="runs of the one-request render")
    parser.add_argument("--no-in-process", action="store_true",
                        help="skip the in-process row (the page rows need only the CLI run)")
    parser.add_argument("--only-in-process", action="store_true",
                        help="only the in-process row")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temp:
        folder = Path(temp)
        catalog = folder / "catalog.json"
        # build_catalog grows the 5,044 tools of the three sets; a smaller size is a slice
        catalog.write_text(json.dumps(build_catalog(args.tools)[:args.tools]))
        pool = queries(args.requests)  # seal_tools has 700: repeated, each under its own id
        texts = [pool[i % len(pool)] for i in range(args.requests)]
        requests = folder / "requests.jsonl"
        requests.write_text("".join(json.dumps({"id": f"r{i:04d}", "query": t, "relevant": []})
                                    + "\n" for i, t in enumerate(texts)))
        profile = folder / "profile.yaml"
        profile.write_text(yaml.safe_dump(PROFILE))
        print(f"{args.tools:,} tools, {len(texts):,} requests, profile {PROFILE['name']}")
        if args.only_in_process:
            in_process_rows(folder, catalog, profile, requests)
            return
        out = cli_rows(folder, catalog, requests, profile, texts, args.runs)
        if not args.no_in_process:
            in_process_rows(folder, catalog, profile, requests)
        files = sum(1 for p in out.rglob("*") if p.is_file())
        total = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
        print(f"folder: {files:,} files, {total / 1e6:.1f} MB")
        page_rows(out / "index.html")


if __name__ == "__main__":
    main()
