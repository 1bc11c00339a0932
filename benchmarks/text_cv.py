"""Main text of the whole ``extract_article`` call, cross-validated by domain, vs trafilatura and readability.

    python -m benchmarks.text_cv [--folds 5] [--limit N] [--no-competitors] [--sets a,b]
                                 [--comment-prose N] [--params JSON] [--dump FILE]

The default extractor is a trained model, so no page may be scored by a
model that saw its domain.  The licensed development sets
(``training.corpus.TRAIN_SETS``) are split into folds by registered domain;
for each fold a model is trained on the other folds (the same training code
and settings as the shipped model) and the *whole public call*,
``extract_article`` with its metadata, runs on the fold's pages with it.
cleaneval and dragnet are never trained on (their licences allow evaluation
only): they are scored with a model trained on all the licensed sets, as
shipped.  Competitors run on the same decoded pages in the same process.

Metrics (datasets README): 4-token shingle F1 for articles-en/zh/multi and
forums (CJK characters are tokens), WCXB's word F1 for the other sets.
``--comment-prose N`` adds a column: the same fold models with
``comment_prose_tokens`` set to N (reader comments cut after N tokens of
prose; the default is 300, ``--comment-prose 0`` keeps comments: the
ablation of that rule).  ``--params '{"whole_code_blocks": false}'`` (repeatable)
adds a column with any other knobs of the default extractor set (JSON), the
same way: the ablation of a post-processing rule.  ``--dump FILE`` writes
one JSON line per page (set, id, WCXB type, domain group, and each
extractor's precision, recall and F1 under the set's metric, and the words
it returned): where the figures above come from, page by page.  Speed: CPU time of the whole call on the same pages, as a ratio to
trafilatura's.  Needs the ``bench`` and ``train`` extras (LightGBM trains
the fold models).  Exits 0 whatever the figures.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

import numpy as np

from benchmarks.common import (
    f1_of,
    group_folds,
    page_scores,
    print_table,
    require_datasets,
    word_scores,
)
from training.corpus import HELD_OUT_SETS, SHINGLE_SETS, TRAIN_SETS, load_corpus
from training.train_blocks import MODEL_PATH, build, export, fit


def _ours(model: str, **params):
    from scrapy_contentex import extract_article

    def run(html: str, url: str | None) -> str:
        return extract_article(html, url=url, params={"model": model, **params}).articleBody or ""

    return run


def _rules(html: str, url: str | None) -> str:
    from scrapy_contentex import extract_article

    return extract_article(html, url=url, algorithm="rules").articleBody or ""


def _trafilatura(html: str, url: str | None) -> str:
    """trafilatura 2.x, default settings (as the WCXB figures), metadata included.

    ``bare_extraction`` with metadata is the call that matches ours (text and
    metadata); its text equals what ``trafilatura.extract`` returns.
    """
    import trafilatura

    return trafilatura.bare_extraction(html, url=url, with_metadata=True).text or ""


def _readability(html: str, url: str | None) -> str:
    from benchmarks.articles import readability_extract

    return readability_extract(html, url)


def _timed(fn, html: str, url: str | None) -> tuple[str, float, bool]:
    started = time.process_time()
    try:
        out, failed = fn(html, url) or "", False
    except Exception:  # noqa: BLE001 - a failure is a data point (empty output)
        out, failed = "", True
    return out, time.process_time() - started, failed


def page_figures(set_name: str, predicted: str, gold: str) -> dict:
    """One page's precision, recall and F1 under its set's metric, and the words returned."""
    if set_name in SHINGLE_SETS:
        precision, recall = page_scores(predicted, gold)
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    else:
        precision, recall, f1 = word_scores(predicted, gold)
    return {"precision": precision, "recall": recall, "f1": f1, "words": len(predicted.split())}


class Scores:
    """Per-page scores of one extractor, grouped by row label."""

    def __init__(self) -> None:
        self.pairs: dict[str, list[tuple[float, float]]] = defaultdict(list)
        self.words: dict[str, list[float]] = defaultdict(list)
        self.seconds = 0.0
        self.errors = 0

    def add(self, rows: list[str], set_name: str, predicted: str, gold: str) -> dict:
        """Count one page under each of ``rows``; its :func:`page_figures` (for a per-page dump)."""
        figures = page_figures(set_name, predicted, gold)
        for row in rows:
            if set_name in SHINGLE_SETS:
                self.pairs[row].append((figures["precision"], figures["recall"]))
            else:
                self.words[row].append(figures["f1"])
        return figures

    def figure(self, row: str) -> float | None:
        if self.pairs.get(row):
            return f1_of(self.pairs[row])[2]
        if self.words.get(row):
            return float(np.mean(self.words[row]))
        return None


def _rows(set_name: str, record: dict) -> list[str]:
    rows = [set_name]
    if record.get("page_type"):
        rows.append(f"{set_name}:{record['page_type']}")
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--limit", type=int, default=None, help="pages per set")
    ap.add_argument("--sets", default=",".join(TRAIN_SETS + HELD_OUT_SETS))
    ap.add_argument("--no-competitors", action="store_true")
    ap.add_argument("--comment-prose", type=int, default=None,
                    help="add a column with comment_prose_tokens set to this (0: comments kept)")
    ap.add_argument("--params", type=json.loads, action="append", default=[],
                    help="add a column with these knobs of the default extractor set (JSON object; repeatable)")
    ap.add_argument("--dump", type=Path, default=None, help="write each page's figures per extractor (JSON lines)")
    args = ap.parse_args(argv)
    require_datasets()
    wanted = args.sets.split(",")
    # Ablation columns: the same fold models with some knobs changed.
    variants = {}
    if args.comment_prose is not None:
        variants[f"comment_prose_tokens={args.comment_prose}"] = {"comment_prose_tokens": args.comment_prose}
    for knobs in args.params:
        variants[",".join(f"{k}={v}" for k, v in knobs.items())] = knobs
    names = (["default (CV)", *variants, "rules"]
             + ([] if args.no_competitors else ["trafilatura", "readability"]))
    fns = {"rules": _rules, "trafilatura": _trafilatura, "readability": _readability}
    scores = {n: Scores() for n in names}
    print(f"building line features of {', '.join(TRAIN_SETS)} ...", flush=True)
    data = build(TRAIN_SETS, args.limit, log=lambda *a: None)
    page_fold = np.asarray(group_folds(data["groups"], args.folds))
    all_pages = np.arange(len(page_fold))
    tmp = Path(tempfile.mkdtemp(prefix="contentex-cv-"))
    fold_model: dict[int, str] = {}
    for k in range(args.folds):
        path = tmp / f"fold{k}.json"
        export(fit(data, all_pages[page_fold != k]), path)
        fold_model[k] = str(path)
        print(f"  fold {k}: trained on {int((page_fold != k).sum())} pages", flush=True)
    # A domain's pages share one fold; a page whose domain no training page
    # has (it gave no lines) may take any fold's model.
    fold_of_group = dict(zip(data["groups"], page_fold.tolist(), strict=True))
    corpus = load_corpus(tuple(s for s in wanted if s in TRAIN_SETS + HELD_OUT_SETS), args.limit)
    shipped = str(MODEL_PATH)
    dump = args.dump.open("w", encoding="utf-8") if args.dump else None
    for n, (set_name, record, html, group) in enumerate(corpus):
        if set_name in TRAIN_SETS:
            model = fold_model[fold_of_group.get(group, 0)]
        else:
            model = shipped
        gold = record.get("body") or ""
        rows = _rows(set_name, record)
        line = {"set": set_name, "id": record["id"], "type": record.get("page_type"), "group": group}
        for name in names:
            if name == "default (CV)":
                fn = _ours(model)
            elif name in variants:
                fn = _ours(model, **variants[name])
            else:
                fn = fns[name]
            out, seconds, failed = _timed(fn, html, record.get("url"))
            figures = scores[name].add(rows, set_name, out, gold)
            scores[name].seconds += seconds
            scores[name].errors += failed
            line[name] = {key: round(value, 4) for key, value in figures.items()}
        if dump:
            dump.write(json.dumps(line, ensure_ascii=False) + "\n")
        if (n + 1) % 500 == 0:
            print(f"  {n + 1}/{len(corpus)} pages", flush=True)
    if dump:
        dump.close()
        print(f"wrote {args.dump}", flush=True)
    row_names = sorted({r for s in scores.values() for r in (*s.pairs, *s.words)},
                       key=lambda r: (wanted.index(r.split(":")[0]), r))
    table = [[row, *(scores[n].figure(row) for n in names)] for row in row_names]
    print_table(["set", *names], table,
                title=f"Main text, whole extract_article, {args.folds}-fold CV grouped by domain "
                      "(shingle F1 on the first four sets, word F1 on the others)")
    if "trafilatura" in scores and scores["trafilatura"].seconds:
        base = scores["trafilatura"].seconds
        print_table(["extractor", "CPU s", "speed vs trafilatura", "errors"],
                    [[n, round(s.seconds, 1), f"{base / s.seconds:.2f}x" if s.seconds else "",
                      s.errors] for n, s in scores.items()],
                    title=f"Speed on the same {len(corpus)} pages (CPU time, one run)")
    inference_share(corpus[:: max(1, len(corpus) // 300)])
    return 0


def inference_share(pages: list) -> None:
    """CPU share of the line model's inference in the whole ``extract_article`` call."""
    from scrapy_contentex import extract_article
    from scrapy_contentex.core.text import learned

    model = learned.load_line_model(learned.DEFAULT_MODEL)
    spent = [0.0]
    probabilities = model.probabilities

    def timed(lines):
        started = time.process_time()
        try:
            return probabilities(lines)
        finally:
            spent[0] += time.process_time() - started

    model.probabilities = timed
    whole = 0.0
    try:
        for _, record, html, _ in pages:
            started = time.process_time()
            extract_article(html, url=record.get("url"))
            whole += time.process_time() - started
    finally:
        del model.probabilities
    print(f"\nline model inference: {spent[0]:.2f} of {whole:.2f} CPU s of the whole call "
          f"({100 * spent[0] / whole:.1f} %) on {len(pages)} pages")


if __name__ == "__main__":
    sys.exit(main())
