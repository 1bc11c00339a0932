r"""Products and records benchmark: ours vs an extruct + price-parser baseline, and auto kind.

    python -m benchmarks.products [--limit N] [--verbose] [--profile] [--breakdown] [--cv] [--dump FILE]

Metrics as ../shared/datasets/README.md defines them:

* products: per attribute, micro-averaged over pages, one predicted value per
  attribute; precision = correct / predicted, recall = correct / pages with a
  truth value. price equal as Decimal, availability InStock/OutOfStock, sku
  exactly, brand case-insensitively; currency matches the ISO code or the raw
  symbol; mpn/gtin exactly.
* records-books: name accuracy after normalisation, attribute-value recall (a
  true value is found when, normalised, it equals or is contained in one
  extracted additionalProperties value), and properties per page.
* description, on the wcxb-dev pages whose ``page_type`` is product (no
  set has description truth; their gold is the page's main text, which holds
  the description and more). Words are lower-cased ``\w+`` runs, counted as
  bags. filled = share of pages with a description; word precision = share
  of the description's words that are in the gold main text (mean over the
  pages with one); gold coverage = share of the gold's words the description
  holds (mean over all pages, an empty description covers 0); word F1 = the
  two's F1 per page, averaged over all pages (empty: 0).
* auto kind: share of each set's pages guessed as the right kind.

``--cv`` shows the values this code sets by hand (description thresholds,
the reduced-price window) under cross-validation grouped by domain: on each
fold the value that scores best on the other folds is chosen, and the
held-out pages are scored with it; the default's held-out score is printed
beside it. ``--dump FILE`` writes every output of ours as JSON lines (to
compare two versions of the code page by page).

Speed is pages/s of both extractors measured side by side in this run.
``--profile`` runs cProfile over ours only and prints where its time goes;
``--breakdown`` times each side's parse floor next to its whole run.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import Counter
from decimal import Decimal, InvalidOperation

from benchmarks.common import (
    group_folds,
    load_set,
    print_table,
    race,
    registered_domain,
    require_datasets,
)
from scrapy_contentex.core.document import Document, decode_html
from scrapy_contentex.core.price import currency_code

PRODUCT_ATTRS = ("price", "currency", "availability", "sku", "brand", "mpn", "gtin")
RECORD_ATTRS = ("author", "isbn_13", "publisher", "publication_date")
KIND_SETS = (("articles-en", "article"), ("articles-zh", "article"), ("articles-multi", "article"),
             ("forums", "article"), ("products", "product"), ("records-books", "product"))


# ---------------------------------------------------------------------------
# extractors
# ---------------------------------------------------------------------------


def ours(html: str, url: str | None) -> dict:
    from scrapy_contentex.core.product import extract_product_fields

    return extract_product_fields(Document(html, url))


def _first(value):
    if isinstance(value, list):
        return value[0] if value else None
    return value


def baseline(html: str, url: str | None) -> dict:
    """extruct (JSON-LD, microdata, OpenGraph) + price-parser, done plainly.

    The first Product-typed item of JSON-LD, then microdata; offers give
    price/currency/availability, the product gives sku/brand/mpn/gtin/name;
    OpenGraph product tags fill a missing price. No visible-text heuristics.
    """
    import extruct
    from price_parser import Price

    try:
        data = extruct.extract(html, base_url=url, syntaxes=["json-ld", "microdata", "opengraph"],
                               uniform=True, errors="ignore")
    except Exception:  # noqa: BLE001 - the baseline gives up on pages it cannot read
        data = {}
    out: dict = {}
    candidates = []
    for syntax in ("json-ld", "microdata"):
        for item in data.get(syntax, []):
            stack = [item]
            while stack:
                node = stack.pop()
                if isinstance(node, dict):
                    types = node.get("@type")
                    types = types if isinstance(types, list) else [types]
                    if any(str(t).endswith("Product") for t in types if t):
                        candidates.append(node)
                    stack.extend(v for v in node.values() if isinstance(v, (dict, list)))
                elif isinstance(node, list):
                    stack.extend(node)
    if candidates:
        product = candidates[0]
        out["name"] = _first(product.get("name"))
        out["description"] = _first(product.get("description"))
        out["sku"] = _first(product.get("sku"))
        out["mpn"] = _first(product.get("mpn"))
        out["gtin"] = _first(product.get("gtin13") or product.get("gtin") or product.get("gtin12"))
        brand = _first(product.get("brand"))
        out["brand"] = _first(brand.get("name")) if isinstance(brand, dict) else brand
        offer = _first(product.get("offers"))
        if isinstance(offer, dict):
            price = _first(offer.get("price") or offer.get("lowPrice"))
            if price is not None:
                parsed = Price.fromstring(str(price))
                out["price"] = str(parsed.amount) if parsed.amount is not None else None
            out["currency"] = _first(offer.get("priceCurrency"))
            avail = _first(offer.get("availability"))
            if isinstance(avail, str):
                tail = avail.rsplit("/", 1)[-1].lower()
                out["availability"] = ("InStock" if "instock" in tail else
                                       "OutOfStock" if "outofstock" in tail else None)
    og = {}
    for item in data.get("opengraph", []):
        og.update({k: _first(v) for k, v in item.items() if not k.startswith("@")})
    if not out.get("description") and og.get("og:description"):
        out["description"] = og["og:description"]
    if not out.get("price") and og.get("product:price:amount"):
        parsed = Price.fromstring(str(og["product:price:amount"]))
        out["price"] = str(parsed.amount) if parsed.amount is not None else None
        out["currency"] = og.get("product:price:currency")
    return out


# ---------------------------------------------------------------------------
# scoring
# ---------------------------------------------------------------------------


def _decimal(value) -> Decimal | None:
    try:
        return Decimal(str(value).strip())
    except (InvalidOperation, ValueError):
        return None


def matches(attr: str, predicted, truths: list[str], pred_raw=None) -> bool:
    if predicted in (None, ""):
        return False
    for truth in truths:
        if attr == "price":
            a, b = _decimal(predicted), _decimal(truth)
            if a is not None and b is not None and a == b:
                return True
        elif attr in ("brand",):
            if str(predicted).strip().lower() == truth.strip().lower():
                return True
        elif attr == "currency":
            # truth holds what the page shows ("£") or a code; ours is ISO + raw
            t = truth.strip()
            shown = {str(predicted).strip().lower(), str(pred_raw or "").strip().lower()}
            if t.lower() in shown or currency_code(t) == str(predicted).strip().upper():
                return True
        elif str(predicted).strip() == truth.strip():
            return True
    return False


def product_scores(results: list[tuple[dict, dict]]) -> dict[str, tuple[float, float, float]]:
    scores = {}
    for attr in PRODUCT_ATTRS:
        predicted = correct = gold = 0
        for fields, pred in results:
            truths = fields.get(attr)
            value = pred.get(attr)
            if truths:
                gold += 1
            if value not in (None, ""):
                predicted += 1
                if truths and matches(attr, value, truths, pred.get("currencyRaw")):
                    correct += 1
        p = correct / predicted if predicted else 0.0
        r = correct / gold if gold else 0.0
        scores[attr] = (p, r, 2 * p * r / (p + r) if p + r else 0.0)
    return scores


def _norm(text: str) -> str:
    text = re.sub(r"\s+", " ", str(text or "")).strip().lower()
    return text.lstrip(":").strip()


def record_scores(results: list[tuple[dict, dict]]) -> tuple[float, float, float]:
    names = found = total = props = 0
    for truth, pred in results:
        if any(_norm(pred.get("name")) == _norm(n) for n in truth.get("name", [])):
            names += 1
        values = [_norm(p.get("value")) for p in pred.get("additionalProperties") or []]
        props += len(values)
        for attr in RECORD_ATTRS:
            for true_value in truth.get("attributes", {}).get(attr, []):
                total += 1
                t = _norm(true_value)
                if t and any(t == v or t in v for v in values):
                    found += 1
    n = max(len(results), 1)
    return names / n, (found / total if total else 0.0), props / n


_WORD_RE = re.compile(r"\w+")


def _words(text) -> Counter:
    return Counter(_WORD_RE.findall(str(text or "").lower()))


def description_page(predicted, gold: str) -> tuple[float | None, float, float]:
    """(word precision or None when empty, gold coverage, word F1) of one description."""
    pred, truth = _words(predicted), _words(gold)
    if not pred:
        return None, 0.0, 0.0
    common = sum((pred & truth).values())
    precision = common / sum(pred.values())
    coverage = common / sum(truth.values()) if truth else 0.0
    f1 = 2 * precision * coverage / (precision + coverage) if precision + coverage else 0.0
    return precision, coverage, f1


def description_scores(results: list[tuple[str, dict]]) -> tuple[float, float, float, float]:
    """(filled, word precision, gold coverage, word F1) over (gold main text, prediction) pairs."""
    scored = [description_page(pred.get("description"), gold) for gold, pred in results]
    n = max(len(scored), 1)
    precisions = [p for p, _, _ in scored if p is not None]
    return (len(precisions) / n, sum(precisions) / len(precisions) if precisions else 0.0,
            sum(c for _, c, _ in scored) / n, sum(f for _, _, f in scored) / n)


def domain(url: str | None) -> str:
    """The page's registered domain (the grouping key of every cross-validation here)."""
    return registered_domain(url) or ""


# ---------------------------------------------------------------------------
# cross-validation of the values set by hand, grouped by domain
# ---------------------------------------------------------------------------

# (module, constant, values tried, what it is scored on)
CV_KNOBS = (
    ("scrapy_contentex.core.description", "_MIN_TOKENS", (1, 2, 4, 8, 16), "description"),
    ("scrapy_contentex.core.description", "_MAX_LINK_SHARE", (0.2, 0.35, 0.5, 0.7, 1.0), "description"),
    ("scrapy_contentex.core.description", "_PROSE_TOKENS", (10, 15, 25, 40, 60), "description"),
    ("scrapy_contentex.core.description", "_PROSE_WINDOW", (100, 200, 400, 800, 1600), "description"),
    ("scrapy_contentex.core.description", "_NAMED_SHARE", (0.2, 0.34, 0.5, 0.67, 0.8), "description"),
    ("scrapy_contentex.core.product", "_SALE_WINDOW", (0, 4, 8, 12, 24), "price"),
)
CV_FOLDS = 5


def _fold_of(pages: list[tuple[dict, str]], folds: int) -> list[int]:
    """Fold of each page, whole domains in one fold (``benchmarks.common.group_folds``)."""
    return group_folds([domain(r.get("url")) for r, _ in pages], folds)


def _page_score(kind: str, record: dict, pred: dict) -> float:
    if kind == "description":
        return description_page(pred.get("description"), record.get("body", ""))[2]
    truths = record["fields"].get("price")
    if not truths:  # a page with no true price scores 1 when nothing is predicted
        return float(pred.get("price") in (None, ""))
    return float(matches("price", pred.get("price"), truths))


def cross_validate(products: list[tuple[dict, str]], wcxb: list[tuple[dict, str]]) -> None:
    """For each value set by hand: choose it on the training folds, score the held-out fold."""
    import importlib

    rows = []
    for module_name, constant, values, kind in CV_KNOBS:
        module = importlib.import_module(module_name)
        default = getattr(module, constant)
        pages = wcxb if kind == "description" else products
        folds = _fold_of(pages, CV_FOLDS)
        scores: dict = {}
        try:
            for value in sorted(set(values) | {default}):
                setattr(module, value_name := constant, value)
                scores[value] = [_page_score(kind, r, ours(html, r.get("url"))) for r, html in pages]
        finally:
            setattr(module, value_name, default)
        held_out, chosen = [], []
        for fold in range(CV_FOLDS):
            train = [i for i, f in enumerate(folds) if f != fold]
            test = [i for i, f in enumerate(folds) if f == fold]
            if not test:
                continue
            # ties go to the default, then to the smaller value
            best = max(scores, key=lambda v: (sum(scores[v][i] for i in train), v == default, -v))
            chosen.append(best)
            held_out.extend(scores[best][i] for i in test)
        n = max(len(held_out), 1)
        rows.append([f"{module_name.rsplit('.', 1)[1]}.{constant}", kind, len(pages),
                     len({domain(r.get('url')) for r, _ in pages}), default,
                     " ".join(str(v) for v in chosen), sum(held_out) / n,
                     sum(scores[default]) / max(len(pages), 1)])
    print_table(["value", "scored on", "pages", "domains", "default", "chosen per fold",
                 "held-out score (chosen)", "score (default)"], rows,
                title=f"values set by hand under {CV_FOLDS}-fold cross-validation grouped by domain "
                      "(description: word F1 per page; price: share right)")


# ---------------------------------------------------------------------------
# runs
# ---------------------------------------------------------------------------


def run_side_by_side(pages: list[tuple[dict, str]]) -> tuple[list[dict], list[dict], float, float]:
    """Both extractors page by page, alternately, so machine load hits both alike.

    The 2 cores are shared with other jobs; timing one extractor over all
    pages and then the other would let a burst of load land on one side.
    Each side's time includes parsing the page (extruct parses too).
    """
    ours_out, base_out = [], []
    ours_time = base_time = 0.0
    if pages:  # warm-up: imports and lazy tables load outside the timed loop
        ours(pages[0][1], pages[0][0].get("url"))
        baseline(pages[0][1], pages[0][0].get("url"))
    for record, html in pages:
        url = record.get("url")
        start = time.perf_counter()
        ours_out.append(ours(html, url))
        middle = time.perf_counter()
        base_out.append(baseline(html, url))
        ours_time += middle - start
        base_time += time.perf_counter() - middle
    return ours_out, base_out, ours_time, base_time


def kind_table(limit: int | None) -> None:
    from scrapy_contentex.core.kind import guess_kind

    rows = []
    article_wrong = article_total = 0
    for name, expected in KIND_SETS:
        right = total = 0
        for record, raw in load_set(name, limit):
            total += 1
            try:
                right += guess_kind(Document(raw, record.get("url"))) == expected
            except Exception:  # noqa: BLE001 - a crash counts as a wrong guess
                pass
        rows.append([name, expected, total, right / total if total else 0.0])
        if expected == "article":
            article_wrong += total - right
            article_total += total
    print_table(["set", "expected", "pages", "right"], rows, title="auto kind (share guessed right)")
    if article_total:
        print(f"\nwrong 'product' guesses on article pages: {article_wrong} of {article_total} "
              f"({article_wrong / article_total:.1%})")


def profile_ours(limit: int | None, top: int = 30) -> int:
    """cProfile over our extractor on products + records-books: where the time goes."""
    import cProfile
    import pstats

    pages = [(r, decode_html(raw)) for name in ("products", "records-books")
             for r, raw in load_set(name, limit)]
    profiler = cProfile.Profile()
    profiler.enable()
    for record, html in pages:
        ours(html, record.get("url"))
    profiler.disable()
    print(f"cProfile of ours over {len(pages)} pages (products + records-books)")
    stats = pstats.Stats(profiler, stream=sys.stdout)
    stats.sort_stats("cumulative").print_stats(top)
    stats.sort_stats("tottime").print_stats(top)
    return 0


def breakdown(pages: list[tuple[dict, str]], passes: int = 3) -> None:
    """Where each side's time goes, page by page alternately, best of ``passes``.

    The parse rows are the floor of each side: extruct parses the page with
    lxml.html before it reads anything; we parse (UTF-8 bytes, same libxml2)
    and collect the text leaves every later step reads.
    """
    import lxml.html

    from scrapy_contentex.core.document import parse_html
    from scrapy_contentex.core.records import text_leaves

    extruct_parser = lxml.html.HTMLParser(encoding="UTF-8")  # what extruct.utils.parse_html uses
    steps = {
        "baseline: extruct parse only": lambda h, u: lxml.html.fromstring(h, parser=extruct_parser),
        "baseline: whole": baseline,
        "ours: parse only": lambda h, u: parse_html(h),
        "ours: parse + text leaves": lambda h, u: text_leaves(_body(parse_html(h))),
        "ours: whole": ours,
    }
    steps.update(_lexbor_steps())
    best = race([(html, record.get("url")) for record, html in pages], steps, passes)
    n = max(len(pages), 1)
    rows = [[name, 1000 * best[name] / n, best[name] / best["baseline: whole"]] for name in steps]
    print_table(["step", "ms/page (CPU)", "x baseline"], rows,
                title=f"where the time goes, best of {passes} passes over {len(pages)} pages")


def _lexbor_steps() -> dict:
    """The floor on a faster parser (lexbor, through selectolax), when installed.

    Not used by the extractor: these rows show what a port to that parser
    could save. The leaves are what ours collects (each non-blank text with
    the element holding it, code excluded).
    """
    try:
        from selectolax.lexbor import LexborHTMLParser
    except ImportError:
        print("(selectolax not installed: no lexbor rows; pip install selectolax)")
        return {}
    from scrapy_contentex.core.records import _NO_TEXT_TAGS

    def leaves(html: str) -> list:
        body = LexborHTMLParser(html).body
        if body is None:
            return []
        return [(node.text_content, node.parent) for node in body.traverse(include_text=True)
                if node.tag == "-text" and node.text_content and not node.text_content.isspace()
                and node.parent.tag not in _NO_TEXT_TAGS]

    return {"lexbor: parse only": lambda h, u: LexborHTMLParser(h),
            "lexbor: parse + text leaves": lambda h, u: leaves(h)}


def _body(tree):
    body = tree.find(".//body")
    return tree if body is None else body


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--breakdown", action="store_true",
                        help="time each side's parse floor and whole run (CPU, best of 3) instead of scoring")
    parser.add_argument("--profile", action="store_true",
                        help="run cProfile over ours only (no baseline, no scores) and print the top functions")
    parser.add_argument("--cv", action="store_true",
                        help="cross-validate the values set by hand (grouped by domain) instead of scoring")
    parser.add_argument("--dump", default=None, metavar="FILE",
                        help="write every output of ours as JSON lines to FILE")
    args = parser.parse_args(argv)
    require_datasets()
    if args.profile:
        return profile_ours(args.limit)

    products = [(r, decode_html(raw)) for r, raw in load_set("products", args.limit)]
    books = [(r, decode_html(raw)) for r, raw in load_set("records-books", args.limit)]
    wcxb = [(r, decode_html(raw)) for r, raw in load_set("wcxb-dev")
            if r.get("page_type") == "product"][:args.limit]
    pages = products + books
    if args.breakdown:
        breakdown(pages)
        return 0
    if args.cv:
        cross_validate(products, wcxb)
        return 0
    rows = []
    ours_preds, base_preds, ours_time, base_time = run_side_by_side(pages)
    speeds = {"ours": len(pages) / ours_time if ours_time else 0.0,
              "baseline": len(pages) / base_time if base_time else 0.0}
    for label, preds in (("ours", ours_preds), ("baseline", base_preds)):
        prod = product_scores([(r["fields"], p) for (r, _), p in zip(products, preds[:len(products)], strict=True)])
        rec = record_scores([(r, p) for (r, _), p in zip(books, preds[len(products):], strict=True)])
        rows.append([label] + [prod[a][2] for a in PRODUCT_ATTRS] + list(rec) + [speeds[label]])
        if args.verbose and label == "ours":
            for (r, _), p in zip(products, preds[:len(products)], strict=True):
                bad = [f"{a}: {p.get(a)!r} vs {r['fields'][a]}" for a in PRODUCT_ATTRS
                       if r["fields"].get(a) and not matches(a, p.get(a), r["fields"][a], p.get("currencyRaw"))]
                if bad:
                    print(r["url"][:70], "|", "; ".join(bad))
        if label == "ours":
            detail = [[a, *prod[a]] for a in PRODUCT_ATTRS]
            print_table(["attribute", "precision", "recall", "F1"], detail,
                        title="products, ours: per attribute")
    headers = (["extractor"] + [f"{a} F1" for a in PRODUCT_ATTRS]
               + ["book name acc", "book attr recall", "props/page", "pages/s"])
    print_table(headers, rows, title="products (F1 per attribute) and records-books")
    ratio = speeds["ours"] / speeds["baseline"] if speeds.get("baseline") else 0.0
    print(f"\nspeed ratio ours/baseline: {ratio:.2f}x ({len(pages)} pages each)")

    wcxb_ours = [ours(html, r.get("url")) for r, html in wcxb]
    wcxb_base = [baseline(html, r.get("url")) for r, html in wcxb]
    summary = []
    for label, preds, wpreds in (("ours", ours_preds, wcxb_ours), ("extruct + price-parser", base_preds, wcxb_base)):
        prod = product_scores([(r["fields"], p) for (r, _), p in zip(products, preds[:len(products)], strict=True)])
        desc = description_scores([(r.get("body", ""), p) for (r, _), p in zip(wcxb, wpreds, strict=True)])
        filled = sum(bool(p.get("description")) for p in preds[:len(products)]) / max(len(products), 1)
        summary.append([label] + [prod[a][2] for a in ("price", "sku", "availability", "brand")]
                       + [filled, *desc])
    print_table(["extractor", "price F1", "sku F1", "availability F1", "brand F1", "descr. filled (products)",
                 "descr. filled (wcxb)", "descr. word precision", "descr. gold coverage", "descr. word F1"],
                summary, title=f"the issue's five fields, same run: products ({len(products)} pages) and "
                               f"description on wcxb-dev product pages ({len(wcxb)} pages)")
    if args.dump:
        with open(args.dump, "w", encoding="utf-8") as out:
            for name, chunk, preds in (("products", products, ours_preds[:len(products)]),
                                       ("records-books", books, ours_preds[len(products):]),
                                       ("wcxb-dev", wcxb, wcxb_ours)):
                for (r, _), pred in zip(chunk, preds, strict=True):
                    out.write(json.dumps({"set": name, "id": r["id"], "out": pred},
                                         ensure_ascii=False, sort_keys=True) + "\n")
        print(f"\nours' outputs written to {args.dump}")
    kind_table(args.limit)
    return 0


if __name__ == "__main__":
    sys.exit(main())
