"""Speed of the whole public calls, as ratios measured side by side in one run.

    python -m benchmarks.speed [--limit N] [--passes 3] [--no-cold] [--steps] [--build-label TEXT]

What users call is timed, whole: ``extract_article`` against trafilatura
(``trafilatura.extract`` with metadata, default settings) on the article and
forum pages; ``extract_product`` and ``classify_page`` against an lxml parse
of the same pages (the floor any lxml-based extractor pays). Every call gets
the decoded page text, as a crawl hands it over.

Timing: CPU time (``time.process_time``, which other load on a shared
machine disturbs far less than wall time), warm (one untimed pass first),
the sides interleaved page by page in an order that alternates from page to
page (each side runs after itself and after the other equally often: a call
right after a different workload finds the CPU caches filled by it, about 8%
dearer for a classification, see ``common.race``), best of ``--passes``
passes. The cold first call (a fresh process: imports, shipped models,
jieba's dictionary on a Chinese page) is measured apart, in subprocesses,
and shown as a multiple of the same call warm.

``--steps`` splits the warm ``extract_article`` call on the article pages
into its steps (parse, page blocks, lines and their features, the line
model, metadata) beside the whole call, so a speed change
can be aimed at the step that costs most.

The first line names the build timed: pure Python, or how many of the
package's modules were loaded from compiled extensions (the opt-in build of
``setup.py``, docs/compiled.md); ``--build-label`` adds a free text to it.

Exit status 0 whatever the figures; 0 with a note when the datasets are absent.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable

from benchmarks.common import ROOT, load_texts, print_table, race, require_datasets

ARTICLE_SETS = ("articles-en", "articles-zh", "articles-multi", "forums")
PRODUCT_SETS = ("products", "records-books")
PAGETYPE_SETS = ("pagetype",)

Call = Callable[[str, "str | None"], object]


def lxml_parse() -> Call:
    """The floor: lxml.html parsing the page's UTF-8 bytes (what extruct does)."""
    import lxml.html

    parser = lxml.html.HTMLParser(encoding="UTF-8")
    return lambda html, url: lxml.html.fromstring(html.encode("utf-8"), parser=parser)


def trafilatura_call() -> Call:
    import trafilatura

    return lambda html, url: trafilatura.extract(html, url=url, with_metadata=True)


def ours(name: str) -> Call:
    import scrapy_contentex as api

    func = getattr(api, name)
    return lambda html, url: func(html, url)


def pages_of(sets: tuple[str, ...], limit: int | None) -> list[tuple[str, str | None]]:
    return [(html, record.get("url")) for name in sets for record, html in load_texts(name, limit)]


def build_label(extra: str | None = None) -> str:
    """Which build of the package is timed: pure Python, or which modules are compiled."""
    import scrapy_contentex
    from scrapy_contentex.core import metadata, title, trees  # noqa: F401  (load what gets timed)
    from scrapy_contentex.core.text import combined, learned, region  # noqa: F401

    compiled = sorted(name for name, module in sys.modules.items()
                      if name.startswith("scrapy_contentex")
                      and str(getattr(module, "__file__", "")).endswith((".so", ".pyd")))
    where = os.path.dirname(scrapy_contentex.__file__)
    label = (f"compiled build: {len(compiled)} modules from extensions "
             f"({', '.join(n.removeprefix('scrapy_contentex.') for n in compiled)})"
             if compiled else "pure-Python build")
    return f"{label}; package at {where}" + (f"; {extra}" if extra else "")


# -- where the whole extract_article call spends its time ---------------------

def article_steps(pages: list[tuple[str, str | None]], passes: int) -> dict[str, float]:
    """Best-of-``passes`` CPU seconds of each step of ``extract_article`` over ``pages``.

    Each step runs on a fresh Document; "whole call" is the public function
    on another fresh Document. The steps' sum can differ from the whole call
    a little either way: the call also filters the lines and builds the
    Article, but its metadata and text steps share some reads (the title),
    and each figure is its own best pass.
    """
    from scrapy_contentex import extract_article
    from scrapy_contentex.core.document import Document
    from scrapy_contentex.core.metadata import extract_metadata
    from scrapy_contentex.core.text.block_features import page_lines
    from scrapy_contentex.core.text.combined import _params
    from scrapy_contentex.core.text.learned import DEFAULT_MODEL, load_line_model
    from scrapy_contentex.core.text.region import page_blocks

    prm, model = _params({}), load_line_model(DEFAULT_MODEL)
    names = ("parse", "page blocks (region)", "lines + features", "line model", "metadata")
    best: dict[str, float] = {}
    for html, url in pages[:3]:  # warm: imports, models, caches
        extract_article(html, url)
    for _ in range(passes):
        spent = dict.fromkeys((*names, "whole call"), 0.0)
        for html, url in pages:
            doc = Document(html, url)
            started = time.process_time()
            tree = doc.tree
            after_parse = time.process_time()
            pb = page_blocks(tree, prm.region)
            after_blocks = time.process_time()
            lines = page_lines(pb, prm) if pb.els else None
            after_lines = time.process_time()
            if lines is not None and lines.texts:
                model.probabilities(lines)
            after_model = time.process_time()
            extract_metadata(doc)
            after_meta = time.process_time()
            for name, (a, b) in zip(names, ((started, after_parse), (after_parse, after_blocks),
                                            (after_blocks, after_lines), (after_lines, after_model),
                                            (after_model, after_meta)), strict=True):
                spent[name] += b - a
            started = time.process_time()
            extract_article(html, url)
            spent["whole call"] += time.process_time() - started
        best = {k: min(best.get(k, float("inf")), v) for k, v in spent.items()}
    best["sum of the steps"] = sum(best[name] for name in names)
    return best


# -- cold first call ---------------------------------------------------------

COLD_CODE = """
import gzip, json, sys, time
from pathlib import Path
base = Path(sys.argv[3]) / sys.argv[1]
record = json.loads((base / "truth.jsonl").read_text(encoding="utf-8").splitlines()[0])
html = gzip.decompress((base / "pages" / (record["id"] + ".html.gz")).read_bytes())
url = record.get("url")
started = time.process_time()
if sys.argv[2] == "trafilatura":
    import trafilatura
    call = lambda: trafilatura.extract(html, url=url, with_metadata=True)
else:
    import scrapy_contentex
    func = getattr(scrapy_contentex, sys.argv[2])
    call = lambda: func(html, url)
call()
cold = time.process_time() - started
warm = float("inf")
for _ in range(5):
    started = time.process_time()
    call()
    warm = min(warm, time.process_time() - started)
print(json.dumps({"cold": cold, "warm": warm}))
"""


def cold_call(set_name: str, call: str) -> dict[str, float]:
    """First call in a fresh interpreter (import included) and the same call warm.

    The page goes in as its raw bytes (each side decodes it), read without
    importing anything of ours first, so the import is part of the cold call.
    """
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH")) if p)
    done = subprocess.run([sys.executable, "-c", COLD_CODE, set_name, call,
                           str(require_datasets())], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=None, help="pages per set (default: all)")
    parser.add_argument("--passes", type=int, default=3, help="timed passes; the best counts")
    parser.add_argument("--no-cold", action="store_true", help="skip the cold first-call rows")
    parser.add_argument("--build-label", default=None, help="free text added to the build line")
    parser.add_argument("--steps", action="store_true",
                        help="only split extract_article into its steps on the article pages")
    args = parser.parse_args(argv)
    require_datasets()
    print(build_label(args.build_label))
    if args.steps:
        articles = pages_of(ARTICLE_SETS, args.limit)
        steps = article_steps(articles, args.passes)
        whole = steps["whole call"]
        print(f"extract_article by step: CPU time, warm, best of {args.passes} passes per step, "
              f"{len(articles)} pages of {', '.join(ARTICLE_SETS)}")
        print_table(["step", "ms/page", "share of the whole call"],
                    [[name, f"{1000 * sec / max(len(articles), 1):.2f}",
                      f"{100 * sec / whole:.0f}%" if whole else "-"]
                     for name, sec in steps.items()])
        return 0

    articles = pages_of(ARTICLE_SETS, args.limit)
    products = pages_of(PRODUCT_SETS, args.limit)
    typed = pages_of(PAGETYPE_SETS, args.limit)
    parse = lxml_parse()
    art = race(articles, {"ours": ours("extract_article"), "trafilatura": trafilatura_call()},
               args.passes)
    prod = race(products, {"ours": ours("extract_product"), "lxml": parse}, args.passes)
    cls = race(typed, {"ours": ours("classify_page"), "lxml": parse}, args.passes)

    def ms(seconds: float, n: int) -> str:
        return f"{1000 * seconds / max(n, 1):.2f}"

    rows = [
        ["extract_article vs trafilatura.extract (pages/s)", len(articles), ">= 5.0x",
         f"{art['trafilatura'] / art['ours']:.2f}x", ms(art["ours"], len(articles)),
         ms(art["trafilatura"], len(articles)),
         "yes" if art["trafilatura"] >= 5.0 * art["ours"] else "no"],
        ["extract_product vs lxml parse (time)", len(products), "<= 2.5x",
         f"{prod['ours'] / prod['lxml']:.2f}x", ms(prod["ours"], len(products)),
         ms(prod["lxml"], len(products)),
         "yes" if prod["ours"] <= 2.5 * prod["lxml"] else "no"],
        ["classify_page vs lxml parse (time)", len(typed), "<= 1.5x",
         f"{cls['ours'] / cls['lxml']:.2f}x", ms(cls["ours"], len(typed)),
         ms(cls["lxml"], len(typed)),
         "yes" if cls["ours"] <= 1.5 * cls["lxml"] else "no"],
    ]
    print(f"CPU time, warm, best of {args.passes} passes, sides interleaved page by page, order alternating "
          f"(--limit {args.limit or 'all'} pages per set)")
    print(f"articles: {', '.join(ARTICLE_SETS)}; products: {', '.join(PRODUCT_SETS)}; "
          f"page type: {', '.join(PAGETYPE_SETS)}")
    print_table(["call", "pages", "target", "measured", "ours ms/page", "other ms/page", "met"],
                rows)
    if args.no_cold:
        return 0
    cold_rows = []
    for set_name, call in (("articles-en", "extract_article"), ("articles-en", "trafilatura"),
                           ("articles-zh", "extract_article"), ("articles-zh", "trafilatura"),
                           ("products", "extract_product"), ("pagetype", "classify_page")):
        figures = cold_call(set_name, call)
        cold_rows.append([call, f"first page of {set_name}", f"{1000 * figures['cold']:.0f}",
                          f"{1000 * figures['warm']:.1f}",
                          f"{figures['cold'] / figures['warm']:.0f}x"])
    print_table(["call", "page", "cold first call ms (CPU)", "same call warm ms", "cold / warm"],
                cold_rows, title="cold first call in a fresh process (imports, models, jieba "
                "dictionary included), apart from the warm figures")
    return 0


if __name__ == "__main__":
    sys.exit(main())
