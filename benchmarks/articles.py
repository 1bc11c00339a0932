"""Every text algorithm by name (the seeds included) against trafilatura and readability, plus metadata.

The default is a model trained on these sets: its row here is measured on
training pages; ``benchmarks.text_cv`` gives its cross-validated figures.

    python -m benchmarks.articles [--sets articles-en,articles-zh,articles-multi,forums]
        [--algorithms default,contentex,twcem,domweight,vsse] [--no-competitors]
        [--worst N] [--worst-algorithm NAME] [--dump DIR] [--dump-algorithm NAME]
        [--limit N] [--no-metadata]

Every page is decoded once (benchmarks.common.load_texts) and every extractor
gets the same decoded text, parses it itself and is timed on the same pages in
the same run, so speed is a ratio, not an absolute figure. Scores use the
datasets README metric (4-token shingles, CJK characters as tokens; see
benchmarks.common.page_scores / f1_of). An algorithm that is missing or
raises shows up as error counts, never as a crash of the benchmark.
"""

from __future__ import annotations

import argparse
import importlib
import re
import resource
import sys
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from benchmarks.common import f1_of, load_texts, page_scores, print_table, require_datasets
from scrapy_contentex.core.document import Document

SETS = ("articles-en", "articles-zh", "articles-multi", "forums")
ALGORITHMS = ("default", "contentex", "twcem", "domweight", "vsse")
COMPETITORS = ("trafilatura", "readability")

Extractor = Callable[[str, str | None], str]


@dataclass
class Run:
    """One extractor on one set: per-page scores, time, errors, peak memory."""

    scores: list[tuple[float, float]] = field(default_factory=list)
    per_page: list[tuple[str, float, float]] = field(default_factory=list)
    predicted: dict[str, str] = field(default_factory=dict)
    seconds: float = 0.0
    errors: int = 0
    first_error: str | None = None


def rss_mb() -> float:
    """Peak resident memory of this process so far, in MB (Linux reports kB)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / 1024 if sys.platform != "darwin" else peak / 2**20


def current_rss_mb() -> float:
    """Resident memory right now (Linux /proc), else the peak: shows leaks between sets."""
    try:
        with open("/proc/self/statm") as fh:
            pages = int(fh.read().split()[1])
        return pages * resource.getpagesize() / 2**20
    except (OSError, ValueError, IndexError):
        return rss_mb()


# -- extractors ------------------------------------------------------------


def ours(algorithm: str) -> Extractor:
    """One of our algorithms; the module is imported lazily so a missing one is an error cell."""

    def run(html: str, url: str | None) -> str:
        from scrapy_contentex.core.text import extract_text

        return extract_text(Document(html, url=url), algorithm)

    return run


def trafilatura_extract(html: str, url: str | None) -> str:
    """Trafilatura as the public benchmark ran it (comments off, tables kept)."""
    import trafilatura

    return trafilatura.extract(
        html, include_comments=False, include_tables=True, favor_precision=False
    ) or ""


def readability_extract(html: str, url: str | None) -> str:
    """readability-lxml summary HTML, turned into text with a newline per block."""
    from lxml import html as lxml_html
    from readability import Document as ReadabilityDocument

    from scrapy_contentex.core.text.common import block_text

    summary = ReadabilityDocument(html).summary(html_partial=True)
    if not summary.strip():
        return ""
    return block_text(lxml_html.fromstring(summary))


def competitor(name: str) -> Extractor | None:
    """The competitor's extractor, or None when its package is not installed."""
    module = {"trafilatura": "trafilatura", "readability": "readability"}[name]
    try:
        importlib.import_module(module)
    except ImportError:
        return None
    return {"trafilatura": trafilatura_extract, "readability": readability_extract}[name]


# -- running ---------------------------------------------------------------


def run_extractor(extract: Extractor, pages: list[tuple[dict, str]], keep: bool) -> Run:
    """Score one extractor on a set's pages; exceptions count as errors (empty output)."""
    run = Run()
    for record, html in pages:
        started = time.perf_counter()
        try:
            predicted = extract(html, record.get("url")) or ""
        except Exception as exc:  # noqa: BLE001 - an extractor's failure is a data point
            predicted = ""
            run.errors += 1
            if run.first_error is None:
                run.first_error = f"{type(exc).__name__}: {exc}"[:160]
                if isinstance(exc, ModuleNotFoundError):
                    # The module does not exist yet: no point timing every page.
                    run.seconds += time.perf_counter() - started
                    run.errors = len(pages)
                    run.scores = [(0.0, 0.0)] * len(pages)
                    break
        run.seconds += time.perf_counter() - started
        p, r = page_scores(predicted, record.get("body") or "")
        run.scores.append((p, r))
        run.per_page.append((record["id"], p, r))
        if keep:
            run.predicted[record["id"]] = predicted
    return run


def dump(directory: Path, set_name: str, algorithm: str, run: Run, pages: list[tuple[dict, str]]) -> None:
    """predicted vs truth text per page, for reading diffs by hand."""
    target = directory / set_name
    target.mkdir(parents=True, exist_ok=True)
    scores = {pid: (p, r) for pid, p, r in run.per_page}
    for record, _ in pages:
        pid = record["id"]
        p, r = scores.get(pid, (0.0, 0.0))
        (target / f"{pid}.{algorithm}.txt").write_text(
            f"# {algorithm} P={p:.3f} R={r:.3f} url={record.get('url')}\n"
            + run.predicted.get(pid, ""),
            encoding="utf-8",
        )
        (target / f"{pid}.truth.txt").write_text(record.get("body") or "", encoding="utf-8")


# -- metadata --------------------------------------------------------------

_NAME_SPLIT = re.compile(r"[\s、,，;；/]+")


def _names(value) -> set[str]:
    values = value if isinstance(value, list) else [value or ""]
    return {n.casefold() for v in values for n in _NAME_SPLIT.split(v) if n}


def _alnum(text: str | None) -> str:
    return re.sub(r"\W+", "", text or "").casefold()


def _truth_date(value: str | None) -> tuple[str, int] | None:
    """Truth date as (prefix to compare, precision in parts): '2005-5-7 21:23' -> ('2005-05-07', 3)."""
    if not value:
        return None
    match = re.match(r"^\s*(\d{4})(?:-(\d{1,2}))?(?:-(\d{1,2}))?", value)
    if not match:
        return None
    parts = [int(g) for g in match.groups() if g]
    text = "-".join([f"{parts[0]:04d}", *(f"{p:02d}" for p in parts[1:])])
    return text, len(parts)


def metadata_rows(set_name: str, pages: list[tuple[dict, str]]) -> tuple[list[list], float, int]:
    """Coverage of every field, and accuracy where the truth has author/date."""
    from scrapy_contentex.core.metadata import extract_metadata

    found = {"headline": 0, "datePublished": 0, "authors": 0, "inLanguage": 0, "description": 0}
    date_n = date_hit = date_found = author_n = author_exact = author_overlap = errors = 0
    in_body = 0
    started = time.perf_counter()
    for record, html in pages:
        try:
            meta = extract_metadata(Document(html, url=record.get("url")))
        except Exception:  # noqa: BLE001
            errors += 1
            continue
        for key in found:
            found[key] += bool(meta.get(key))
        headline_key = _alnum(meta.get("headline"))
        in_body += bool(headline_key) and headline_key in _alnum(record.get("body"))
        truth = _truth_date(record.get("date"))
        if truth:
            date_n += 1
            predicted = meta.get("datePublished") or ""
            date_found += bool(predicted)
            date_hit += predicted[: len(truth[0])] == truth[0]
        if record.get("author"):
            author_n += 1
            gold, pred = _names(record["author"]), _names(meta.get("authors") or [])
            author_exact += gold == pred
            author_overlap += bool(gold & pred)
    seconds = time.perf_counter() - started
    n = len(pages) or 1
    row = [set_name, len(pages), *(v / n for v in found.values()), in_body / n]
    row += [f"{date_hit}/{date_n}" if date_n else "-", f"{date_found}/{date_n}" if date_n else "-"]
    row += [f"{author_exact}/{author_n}" if author_n else "-",
            f"{author_overlap}/{author_n}" if author_n else "-", errors]
    return [row], len(pages) / seconds if seconds else 0.0, errors


# -- main ------------------------------------------------------------------


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sets", default=",".join(SETS))
    parser.add_argument("--algorithms", default=",".join(ALGORITHMS))
    parser.add_argument("--no-competitors", action="store_true")
    parser.add_argument("--no-metadata", action="store_true")
    parser.add_argument("--limit", type=int, default=None, help="first N pages of each set")
    parser.add_argument("--worst", type=int, default=0, help="list the N worst pages per set")
    parser.add_argument("--worst-algorithm", default="default")
    parser.add_argument("--dump", type=Path, default=None, help="write predicted/truth text here")
    parser.add_argument("--dump-algorithm", default="default")
    parser.add_argument(
        "--passes", type=int, default=1,
        help="run everything N times; memory after pass 2 shows whether it stays flat",
    )
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    require_datasets()
    sets = [s.strip() for s in args.sets.split(",") if s.strip()]
    algorithms = [a.strip() for a in args.algorithms.split(",") if a.strip()]
    extractors: dict[str, Extractor] = {a: ours(a) for a in algorithms}
    if not args.no_competitors:
        for name in COMPETITORS:
            extract = competitor(name)
            if extract is None:
                print(f"note: {name} is not installed (pip install -e .[bench]); skipped")
            else:
                extractors[name] = extract

    results: dict[str, dict[str, Run]] = {name: {} for name in extractors}
    memory_rows: list[list] = [["(start)", 0, int(current_rss_mb()), int(rss_mb())]]
    meta_rows: list[list] = []
    meta_speed: list[list] = []
    runs_of_sets = [(n, s) for n in range(1, max(args.passes, 1) + 1) for s in sets]
    for pass_no, set_name in runs_of_sets:
        last_pass = pass_no == max(args.passes, 1)
        try:
            pages = load_texts(set_name, args.limit)
        except FileNotFoundError as exc:
            print(f"set {set_name}: not found ({exc}); skipped")
            continue
        print(f"{set_name}: {len(pages)} pages" + (f" (pass {pass_no})" if args.passes > 1 else ""),
              flush=True)
        for name, extract in extractors.items():
            keep = args.dump is not None and name == args.dump_algorithm
            run = run_extractor(extract, pages, keep)
            results[name][set_name] = run
            if run.first_error:
                print(f"  {name}: {run.errors} error(s), first: {run.first_error}")
            if keep:
                dump(args.dump, set_name, name, run, pages)
        if not args.no_metadata and last_pass:
            rows, speed, _ = metadata_rows(set_name, pages)
            meta_rows.extend(rows)
            meta_speed.append([set_name, speed])
        label = f"{set_name} (pass {pass_no})" if args.passes > 1 else set_name
        memory_rows.append([label, len(pages), int(current_rss_mb()), int(rss_mb())])
        if not last_pass:
            continue
        if args.worst and args.worst_algorithm in results and set_name in results[args.worst_algorithm]:
            run = results[args.worst_algorithm][set_name]
            worst = sorted(run.per_page, key=lambda x: 2 * x[1] * x[2] / (x[1] + x[2] or 1))
            print_table(
                ["id", "P", "R", "url"],
                [[pid, p, r, _url_of(pages, pid)] for pid, p, r in worst[: args.worst]],
                title=f"worst {args.worst} pages of {set_name} for {args.worst_algorithm}",
            )

    done_sets = [s for s in sets if any(s in runs for runs in results.values())]
    print_table(
        ["extractor", *done_sets, "errors"],
        [
            [name, *(_f1(runs.get(s)) for s in done_sets),
             sum(r.errors for r in runs.values())]
            for name, runs in results.items()
        ],
        title="F1 per set (datasets README metric)",
    )
    if "default" in results:
        print("note: the default is a model trained on these four sets, so its row here is "
              "measured on training pages and is not a quality figure; "
              "python -m benchmarks.text_cv scores it cross-validated by domain.")
    detail = []
    for name, runs in results.items():
        for s in done_sets:
            run = runs.get(s)
            if run:
                p, r, f = f1_of(run.scores)
                detail.append([name, s, p, r, f, run.errors])
    print_table(["extractor", "set", "P", "R", "F1", "errors"], detail, title="precision / recall")
    _speed_table(results, done_sets)
    if meta_rows:
        print_table(
            ["set", "pages", "headline", "date", "authors", "lang", "descr", "headline in body",
             "date ok", "date found", "author =", "author ~", "errors"],
            meta_rows,
            title="metadata: share of pages with each field; date/author vs truth where given",
        )
        print(
            "headline in body: the headline is printed in the truth body (only a proxy: some sets'\n"
            "bodies leave the headline out). date ok: same day (or month/year, at the truth's\n"
            "precision). author =: same set of names; author ~: at least one name in common."
        )
        print_table(["set", "pages/s"], meta_speed, title="metadata speed")
    print_table(
        ["after set", "pages", "RSS now MB", "peak RSS MB"],
        memory_rows,
        title="memory after each set (all extractors ran on it); lazy resources such as jieba's "
        "dictionaries load during the first sets: use --passes 2 to see whether it then stays flat",
    )
    return 0


def _f1(run: Run | None) -> float | str:
    if run is None:
        return "-"
    if run.errors and run.errors >= len(run.scores):
        return "error"
    return f1_of(run.scores)[2]


def _url_of(pages: list[tuple[dict, str]], pid: str) -> str:
    for record, _ in pages:
        if record["id"] == pid:
            return (record.get("url") or "")[:60]
    return ""


def _speed_table(results: dict[str, dict[str, Run]], sets: list[str]) -> None:
    """Pages per second over all sets and the ratio to trafilatura."""
    rows = []
    base = None
    totals = {}
    for name, runs in results.items():
        pages = sum(len(r.scores) for r in runs.values() if r.errors < len(r.scores))
        seconds = sum(r.seconds for r in runs.values() if r.errors < len(r.scores))
        totals[name] = pages / seconds if seconds else 0.0
    base = totals.get("trafilatura")
    for name in results:
        ratio = totals[name] / base if base else None
        rows.append([name, totals[name], f"{ratio:.2f}x" if ratio else "-"])
    print_table(
        ["extractor", "pages/s", "vs trafilatura"],
        rows,
        title=f"speed on the same pages, same run ({', '.join(sets)})",
    )


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        sys.exit(130)
    except Exception:  # noqa: BLE001 - a benchmark bug is an error exit with a trace
        traceback.print_exc()
        sys.exit(1)
