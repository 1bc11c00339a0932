"""Article metadata (headline, authors, date) against the wcxb-dev truth, beside trafilatura.

    python -m benchmarks.metadata [--limit N] [--no-trafilatura] [--no-speed]
        [--speed-sets articles-en,articles-zh,articles-multi,forums] [--repeat 3]
        [--worst FIELD:N] [--dump FILE]

Match rules (fixed; they decide what "right" means, so they are not tuned):

* headline: normalised equality with the truth's ``title`` (the headline the
  page shows). Normalised = Unicode NFKC, case-folded, every run of
  non-word characters (punctuation, quotes, dashes, blanks) made one space,
  trimmed. So "Foo: Bar’s" == "foo - bar's" but "Foo" != "Foo | Site".
* author: a page is right when one predicted name equals one gold name,
  both normalised as above after removing an honorific in front (Dr, Prof,
  Mr, Mrs, Ms, Mx, Sir). The gold string is split into names on ``,``,
  ``;``, ``&``, ``/``, `` and ``. Scored on the pages whose truth has an author.
* date: ``datePublished`` (first 10 characters, ISO) equals the gold ISO
  date, compared at the gold's precision ("2024-05" compares year and month).
  Scored on the pages whose truth has a date.

"author, first name only" is stricter: only our first name counts (a thread
page that lists every poster cannot score by luck). Two extra rows say how
often a value is given where the truth has none
(an author or a date the page does not show is a wrong answer too).

forums-harvest, a set none of the rules were designed on, checks the same
author and date rules against each thread's first post.

The Chinese set (articles-zh) keeps the checks of ``benchmarks.articles``:
date right at the truth's precision, authors as the same set of names (=)
or at least one name in common (~).

Speed: CPU time (process_time), warm, best of ``--repeat`` passes, on the
same pages in this one run: our whole ``extract_article``, the metadata
step inside it (``extract_metadata`` on an already parsed Document), the
parse, and trafilatura's whole ``extract`` and ``extract_metadata``. Only
ratios are meaningful. Exit status is 0 unless the benchmark itself fails.
"""

from __future__ import annotations

import argparse
import json
import re
import time
import unicodedata
from collections.abc import Callable
from pathlib import Path

from benchmarks.common import group_folds, load_texts, print_table, registered_domain

SET = "wcxb-dev"
SPEED_SETS = ("articles-en", "articles-zh", "articles-multi", "forums")

_NON_WORD = re.compile(r"[\W_]+")
_HONORIFIC = re.compile(r"^(?:dr|prof|mr|mrs|ms|mx|sir)\b\.?\s*", re.I)
_GOLD_SPLIT = re.compile(r"\s*(?:[,;&/]|\band\b)\s*", re.I)
_ZH_SPLIT = re.compile(r"[\s、,，;；/]+")


def norm(text: str | None) -> str:
    """NFKC, case-folded, non-word runs to one space, trimmed (see the module doc)."""
    text = unicodedata.normalize("NFKC", text or "").casefold()
    return _NON_WORD.sub(" ", text).strip()


def norm_name(name: str) -> str:
    return norm(_HONORIFIC.sub("", name.strip()))


def gold_names(value: str | list | None) -> set[str]:
    values = value if isinstance(value, list) else [value or ""]
    names = {norm_name(p) for v in values for p in _GOLD_SPLIT.split(v)}
    return {n for n in names if n}


def headline_ok(predicted: str | None, gold: str) -> bool:
    return bool(predicted) and norm(predicted) == norm(gold)


def author_ok(predicted: list[str], gold: str | list) -> bool:
    return bool({norm_name(p) for p in predicted} & gold_names(gold))


def date_ok(predicted: str | None, gold: str) -> bool:
    gold = gold.strip()[:10]
    return bool(predicted) and predicted[:10][: len(gold)] == gold


# -- extractors ------------------------------------------------------------


def ours_meta(html: str, url: str | None) -> dict:
    from scrapy_contentex.core.document import Document
    from scrapy_contentex.core.metadata import extract_metadata

    meta = extract_metadata(Document(html, url=url))
    return {"headline": meta["headline"], "authors": meta["authors"] or [],
            "date": meta["datePublished"]}


def trafilatura_meta(html: str, url: str | None) -> dict:
    from trafilatura.metadata import extract_metadata

    doc = extract_metadata(html, default_url=url)
    authors = [a.strip() for a in (doc.author or "").split(";") if a.strip()]
    return {"headline": doc.title, "authors": authors, "date": doc.date}


EXTRACTORS: dict[str, Callable[[str, str | None], dict]] = {
    "ours": ours_meta,
    "trafilatura": trafilatura_meta,
}


def run_all(name: str, pages: list[tuple[dict, str]]) -> tuple[dict[str, dict], int]:
    """Predictions keyed by page id; errors are counted (an empty prediction), not raised."""
    out: dict[str, dict] = {}
    errors = 0
    for record, html in pages:
        try:
            out[record["id"]] = EXTRACTORS[name](html, record.get("url"))
        except Exception:  # noqa: BLE001 - a failing page is a counted miss
            errors += 1
            out[record["id"]] = {"headline": None, "authors": [], "date": None}
    return out, errors


def score_wcxb(pages: list[tuple[dict, str]], preds: dict[str, dict]) -> dict[str, tuple[int, int]]:
    """(hits, n) per field, plus (given, n) where the truth has no author / no date."""
    hits = {"headline": [0, 0], "author": [0, 0], "author, first name only": [0, 0], "date": [0, 0],
            "author given, none in truth": [0, 0], "date given, none in truth": [0, 0]}
    for record, _ in pages:
        pred = preds[record["id"]]
        if record.get("title"):
            hits["headline"][0] += headline_ok(pred["headline"], record["title"])
            hits["headline"][1] += 1
        if record.get("author"):
            hits["author"][0] += author_ok(pred["authors"], record["author"])
            hits["author"][1] += 1
            hits["author, first name only"][0] += author_ok(pred["authors"][:1], record["author"])
            hits["author, first name only"][1] += 1
        else:
            hits["author given, none in truth"][0] += bool(pred["authors"])
            hits["author given, none in truth"][1] += 1
        if record.get("date"):
            hits["date"][0] += date_ok(pred["date"], record["date"])
            hits["date"][1] += 1
        else:
            hits["date given, none in truth"][0] += bool(pred["date"])
            hits["date given, none in truth"][1] += 1
    return {k: (v[0], v[1]) for k, v in hits.items()}


def score_zh(pages: list[tuple[dict, str]], preds: dict[str, dict]) -> dict[str, tuple[int, int]]:
    """benchmarks.articles' checks: date at the truth's precision; author = (same set) and ~ (overlap)."""
    from benchmarks.articles import _truth_date

    out = {"date ok": [0, 0], "author =": [0, 0], "author ~": [0, 0]}
    for record, _ in pages:
        pred = preds[record["id"]]
        truth = _truth_date(record.get("date"))
        if truth:
            out["date ok"][0] += (pred["date"] or "")[: len(truth[0])] == truth[0]
            out["date ok"][1] += 1
        if record.get("author"):
            gold = {n.casefold() for n in _ZH_SPLIT.split(record["author"]) if n}
            got = {n.casefold() for a in pred["authors"] for n in _ZH_SPLIT.split(a) if n}
            out["author ="][0] += gold == got
            out["author ~"][0] += bool(gold & got)
            out["author ="][1] += 1
            out["author ~"][1] += 1
    return {k: (v[0], v[1]) for k, v in out.items()}


def score_threads(pages: list[tuple[dict, str]], preds: dict[str, dict]) -> dict[str, tuple[int, int]]:
    """forums-harvest, never used to design or tune anything here: the thread's first post.

    author: its ``user`` when that is a name (many are profile URLs, skipped),
    same rule as wcxb-dev; date: its ``datetime`` day, same rule as wcxb-dev.
    """
    out = {"author (first post's user)": [0, 0], "date (first post's day)": [0, 0]}
    for record, _ in pages:
        posts = record.get("posts") or []
        if not posts:
            continue
        pred = preds[record["id"]]
        user = posts[0].get("user") or ""
        if user and not re.search(r"[/?=]|^https?:", user):
            out["author (first post's user)"][0] += author_ok(pred["authors"], user)
            out["author (first post's user)"][1] += 1
        when = (posts[0].get("datetime") or "")[:10]
        if re.fullmatch(r"\d{4}-\d{2}-\d{2}", when):
            out["date (first post's day)"][0] += date_ok(pred["date"], when)
            out["date (first post's day)"][1] += 1
    return {k: (v[0], v[1]) for k, v in out.items()}


def _cell(hit: tuple[int, int]) -> str:
    return f"{hit[0] / hit[1]:.3f} ({hit[0]}/{hit[1]})" if hit[1] else "-"


# -- cross-validation of tuned values -----------------------------------------

# Values tried for title.H1_MIN_SIMILARITY (None: the <h1> rule off).
H1_GRID = (None, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7)


def cross_validate_headline(pages: list[tuple[dict, str]], folds: int = 5) -> list[list]:
    """Headline accuracy with H1_MIN_SIMILARITY chosen on the other folds (grouped by domain).

    Every page's headline is computed for every grid value; fold k's value is
    the best on the pages of the other folds, and fold k is scored with it.
    A domain's pages are always in one fold.
    """
    from scrapy_contentex.core import title as title_module
    from scrapy_contentex.core.document import Document

    shipped = title_module.H1_MIN_SIMILARITY
    hits: dict[object, list[bool]] = {value: [] for value in H1_GRID}
    groups = group_folds([registered_domain(r.get("url")) or "" for r, _ in pages], folds)
    try:
        for record, html in pages:
            doc = Document(html, url=record.get("url"))
            for value in H1_GRID:
                title_module.H1_MIN_SIMILARITY = value
                # the rule itself: extract_title keeps its first answer on the Document
                hits[value].append(headline_ok(title_module._extract_title(doc), record["title"]))
    finally:
        title_module.H1_MIN_SIMILARITY = shipped
    rows = []
    total = 0
    for k in range(folds):
        train = [i for i, g in enumerate(groups) if g != k]
        test = [i for i, g in enumerate(groups) if g == k]
        best = max(H1_GRID, key=lambda v: (sum(hits[v][i] for i in train), v is None))
        right = sum(hits[best][i] for i in test)
        total += right
        rows.append([f"fold {k}", len(test), "off" if best is None else best, right / len(test)])
    rows.append(["cross-validated", len(pages), "", total / len(pages)])
    for value in H1_GRID:
        rows.append([f"all pages, value {'off' if value is None else value}", len(pages), "",
                     sum(hits[value]) / len(pages)])
    return rows


# -- speed -----------------------------------------------------------------


def best_cpu(work: Callable[[], None], repeat: int) -> float:
    """Smallest CPU time of ``repeat`` passes (the first pass warms caches and lazy imports)."""
    work()
    times = []
    for _ in range(repeat):
        started = time.process_time()
        work()
        times.append(time.process_time() - started)
    return min(times)


def speed(pages: list[tuple[dict, str]], repeat: int, competitors: bool) -> list[list]:
    from scrapy_contentex import extract_article
    from scrapy_contentex.core.document import Document
    from scrapy_contentex.core.metadata import extract_metadata

    def parsed() -> list[Document]:
        docs = [Document(html, url=r.get("url")) for r, html in pages]
        for doc in docs:
            doc.tree  # noqa: B018 - parse outside the timed metadata step
        return docs

    def whole() -> None:
        for record, html in pages:
            extract_article(html, record.get("url"))

    def parse_only() -> None:
        for record, html in pages:
            Document(html, url=record.get("url")).tree  # noqa: B018

    def meta_only() -> None:
        # The Documents are parsed before the clock starts; each pass gets fresh ones
        # so nothing the metadata step caches on a Document carries over.
        docs = parsed()
        started = time.process_time()
        for doc in docs:
            extract_metadata(doc)
        meta_only.seconds = time.process_time() - started  # type: ignore[attr-defined]

    def meta_best() -> float:
        meta_only()
        best = float("inf")
        for _ in range(repeat):
            meta_only()
            best = min(best, meta_only.seconds)  # type: ignore[attr-defined]
        return best

    t_whole = best_cpu(whole, repeat)
    t_parse = best_cpu(parse_only, repeat)
    t_meta = meta_best()
    rows = [
        ["ours: whole extract_article", t_whole, 1.0, ""],
        ["ours: metadata step (extract_metadata)", t_meta, t_meta / t_whole, ""],
        ["ours: parse (Document.tree)", t_parse, t_parse / t_whole, ""],
    ]
    if competitors:
        import trafilatura
        from trafilatura.metadata import extract_metadata as traf_meta

        def traf_whole() -> None:
            for record, html in pages:
                trafilatura.extract(html, url=record.get("url"))

        def traf_meta_only() -> None:
            for record, html in pages:
                traf_meta(html, default_url=record.get("url"))

        t_traf = best_cpu(traf_whole, repeat)
        t_traf_meta = best_cpu(traf_meta_only, repeat)
        rows.append(["trafilatura: whole extract", t_traf, t_traf / t_whole,
                     f"ours is {t_traf / t_whole:.2f}x its pages/s"])
        rows.append(["trafilatura: extract_metadata", t_traf_meta, t_traf_meta / t_whole,
                     f"our metadata is {t_traf_meta / t_meta:.2f}x its pages/s"])
    return rows


# -- main ------------------------------------------------------------------


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--limit", type=int, default=None, help="first N pages of each set")
    parser.add_argument("--no-trafilatura", action="store_true")
    parser.add_argument("--no-speed", action="store_true")
    parser.add_argument("--speed-sets", default=",".join(SPEED_SETS))
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-cv", action="store_true", help="skip the cross-validation of tuned values")
    parser.add_argument("--worst", default=None, help="FIELD:N lists N of our misses (headline, author, date)")
    parser.add_argument("--dump", type=Path, default=None, help="write our predictions as JSON lines")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    names = ["ours"] + ([] if args.no_trafilatura else ["trafilatura"])
    pages = load_texts(SET, args.limit)
    zh_pages = load_texts("articles-zh", args.limit)

    thread_pages = load_texts("forums-harvest", args.limit)

    results, zh_results, thread_results, errors = {}, {}, {}, {}
    for name in names:
        preds, errors[name] = run_all(name, pages)
        zh_preds, zh_errors = run_all(name, zh_pages)
        thread_preds, thread_errors = run_all(name, thread_pages)
        errors[name] += zh_errors + thread_errors
        results[name] = (preds, score_wcxb(pages, preds))
        zh_results[name] = score_zh(zh_pages, zh_preds)
        thread_results[name] = score_threads(thread_pages, thread_preds)

    fields = list(results["ours"][1])
    print_table(["field", *names], [[f, *(_cell(results[n][1][f]) for n in names)] for f in fields],
                title=f"{SET}: metadata against the truth ({len(pages)} pages)")
    print_table(["articles-zh", *names], [[f, *(_cell(zh_results[n][f]) for n in names)]
                                          for f in zh_results["ours"]],
                title=f"articles-zh: date and authors where the truth has them ({len(zh_pages)} pages)")
    print_table(["forums-harvest", *names], [[f, *(_cell(thread_results[n][f]) for n in names)]
                                             for f in thread_results["ours"]],
                title=f"forums-harvest (not used to design the rules): first post ({len(thread_pages)} threads)")
    print("\nerrors (pages whose extraction raised): " + ", ".join(f"{n} {errors[n]}" for n in names))

    if args.dump:
        with open(args.dump, "w", encoding="utf-8") as fh:
            for page_id, pred in sorted(results["ours"][0].items()):
                fh.write(json.dumps({"id": page_id, **pred}, ensure_ascii=False) + "\n")
    if args.worst:
        field, _, count = args.worst.partition(":")
        show_misses(pages, results["ours"][0], field, int(count or 20))

    from scrapy_contentex.core import title as title_module

    if not hasattr(title_module, "H1_MIN_SIMILARITY"):
        print("\ncross-validation skipped: this code has no tuned headline value (H1_MIN_SIMILARITY)")
    elif not args.no_cv:
        print_table(["headline, H1_MIN_SIMILARITY", "pages", "chosen on other folds", "accuracy"],
                    cross_validate_headline(pages),
                    title="cross-validation grouped by domain (5 folds): the <h1> rule's threshold")
        print("The cross-validated line is the honest figure; 'all pages' lines are tuned on the pages they score.")
    if not args.no_cv:
        from training.train_headline import FOLDS, cross_validate, load_pages

        model_pages = load_pages(args.limit)
        names = next(tuple(p.rows[0]) for p in model_pages if p.rows)
        print_table(["headline", "pages", "rule (extract_title)", "model"], cross_validate(model_pages, names),
                    title=f"cross-validation grouped by domain ({FOLDS} folds): the shipped headline model "
                          "(training/train_headline.py), fit on the other folds")
        print("The headline row of the first table is scored by the shipped model, fit on all these pages: "
              "the cross-validated line here is the honest headline figure.")

    if not args.no_cv:
        print_date_cv(args.limit)
        print_author_cv(args.limit)

    if not args.no_speed:
        speed_pages = [p for s in args.speed_sets.split(",") if s for p in load_texts(s, args.limit)]
        rows = speed(speed_pages, args.repeat, not args.no_trafilatura)
        print_table(["step", "CPU s", "share of our call", "note"], rows,
                    title=f"speed: CPU time, warm, best of {args.repeat}, {len(speed_pages)} pages "
                          f"({args.speed_sets}); only ratios mean anything")
    return 0


def print_date_cv(limit: int | None) -> None:
    """The date model against the ordered rule, each page scored by a model fit on the other folds."""
    from training.train_dates import FOLDS, cross_validate, feature_names, load_pages

    print_table(["date", "pages", "rule (rule_date)", "model"], cross_validate(load_pages(limit), feature_names()),
                title=f"cross-validation grouped by domain ({FOLDS} folds): the shipped date model "
                      "(training/train_dates.py), fit on the other folds")
    print("The date row of the first table is scored by the shipped model, fit on all these pages: "
          "the cross-validated line here is the honest date figure.")


def print_author_cv(limit: int | None) -> None:
    """The author model against the ordered rule, each page scored by a model fit on the other folds."""
    from training.train_authors import CV_HEADERS, FOLDS, cross_validate, feature_names, load_pages

    print_table(CV_HEADERS, cross_validate(load_pages(limit), feature_names()),
                title=f"cross-validation grouped by domain ({FOLDS} folds): the shipped author model "
                      "(training/train_authors.py), weights and 'no author' margin fit on the other folds")
    print("The author rows of the first table are scored by the shipped model, fit on all these pages, "
          "and the rule's sources were written from these pages' misses: the model's cross-validated "
          "line here is the honest author figure for the choice (its candidates still come from those rules).")


def show_misses(pages: list[tuple[dict, str]], preds: dict[str, dict], field: str, count: int) -> None:
    """Print gold vs ours for the first ``count`` misses of one field (development aid)."""
    check = {"headline": ("title", "headline", headline_ok), "author": ("author", "authors", author_ok),
             "date": ("date", "date", date_ok)}[field]
    shown = 0
    print(f"\nmisses on {field}:")
    for record, _ in pages:
        gold = record.get(check[0])
        if not gold or check[2](preds[record["id"]][check[1]], gold):
            continue
        print(f"  {record['id']} {record.get('page_type')} {record.get('url')}\n"
              f"    gold: {gold!r}\n    ours: {preds[record['id']][check[1]]!r}")
        shown += 1
        if shown >= count:
            break


if __name__ == "__main__":
    raise SystemExit(main())
