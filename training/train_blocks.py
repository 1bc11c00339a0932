"""Train the main-text line model: ``python -m training.train_blocks``.

Deterministic: the same datasets give the same model file.  Reads the
licensed development sets (``training.corpus.TRAIN_SETS``) from
``../shared/datasets``, labels every visible line of every page against the
page's gold text, fits gradient-boosted trees (LightGBM, a training-time
dependency only: ``pip install ".[train]"``) and writes the trees as JSON to
``scrapy_contentex/models/blocks.json``, which :mod:`scrapy_contentex.core.trees`
evaluates with numpy at run time.

Labels: a line is main text when most of its 4-token shingles occur in the
gold text (lines of fewer than four tokens: when the line's tokens occur in
the gold text in that order).  Each page weighs the same in training (a
line's weight is its share of the page's tokens), as each page weighs the
same in the metrics.

    python -m training.train_blocks [--limit N] [--out PATH]
    python -m training.train_blocks --cv 5   # grouped CV of the line decision (minutes, not the full benchmark)
    python -m training.train_blocks --cv 5 --fold-seed 1   # another grouped split: the figures' noise
    python -m training.train_blocks --cv 5 --worst 30 --types collection,listing   # where a page type loses
"""

from __future__ import annotations

import argparse
import json
import pickle
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from benchmarks.common import group_folds
from scrapy_contentex.core.document import Document
from scrapy_contentex.core.lang import tokens
from scrapy_contentex.core.text.block_features import (
    CONTEXT_NAMES,
    FEATURE_NAMES,
    PageLines,
    context_features,
    page_lines,
)
from scrapy_contentex.core.text.combined import Params
from scrapy_contentex.core.text.region import PageBlocks, page_blocks

from .corpus import TRAIN_SETS, load_corpus

ROOT = Path(__file__).resolve().parent.parent
MODEL_PATH = ROOT / "scrapy_contentex" / "models" / "blocks.json"
LGB_PARAMS = {
    "objective": "binary",
    "learning_rate": 0.15,
    "num_leaves": 16,
    "max_depth": 5,
    "min_child_samples": 40,
    "feature_fraction": 0.8,
    "bagging_fraction": 0.8,
    "bagging_freq": 1,
    "lambda_l2": 1.0,
    "seed": 7,
    "deterministic": True,
    "force_row_wise": True,
    "num_threads": 1,
    "verbose": -1,
}
ROUNDS = 100
#: Probability a line needs to be kept: chosen among 0.40-0.60 on the grouped
#: cross-validated predictions (0.45 balances the sets best).
THRESHOLD = 0.45


def line_labels(texts: list[str], gold: str) -> np.ndarray:
    """1 where a line's text is (mostly) in the gold text, else 0.

    Lines of four tokens or more: when most of their 4-token shingles occur
    in the gold.  Shorter lines ("News", "Share", "Page 2") occur by chance
    inside any long gold text, so they count only when a gold line is made
    of them (a heading, a date line) or holds them with a few tokens more.
    """
    gold_tokens = [t.lower() for t in tokens(gold or "")]
    shingles = {tuple(gold_tokens[i:i + 4]) for i in range(len(gold_tokens) - 3)}
    short_lines = set()
    for line in (gold or "").split("\n"):
        toks = [t.lower() for t in tokens(line)]
        if 0 < len(toks) <= 6:
            short_lines.add("\x01" + "\x01".join(toks) + "\x01")
    out = np.zeros(len(texts), np.float32)
    for k, text in enumerate(texts):
        toks = [t.lower() for t in tokens(text)]
        if not toks:
            continue
        if len(toks) >= 4:
            grams = [tuple(toks[i:i + 4]) for i in range(len(toks) - 3)]
            out[k] = sum(g in shingles for g in grams) >= 0.5 * len(grams)
        else:
            key = "\x01" + "\x01".join(toks) + "\x01"
            out[k] = any(key in line for line in short_lines)
    return out


def page_parts(html: str, url: str | None) -> tuple[PageBlocks, PageLines] | None:
    """The page's element table and its lines with their feature rows (what the extractor sees)."""
    prm = Params()
    doc = Document(html, url=url)
    pb = page_blocks(doc.tree, prm.region)
    if not pb.els:
        return None
    lines = page_lines(pb, prm)
    return (pb, lines) if lines.texts else None


def page_rows(html: str, url: str | None) -> PageLines | None:
    """The page's lines and their feature rows."""
    parts = page_parts(html, url)
    return parts[1] if parts else None


def build(sets: tuple[str, ...], limit: int | None = None, log=print, keep_texts: bool = False,
          extra: Callable[[PageBlocks, PageLines, str, str | None], object] | None = None) -> dict:
    """Feature rows, labels, weights and page/group ids of every line of the sets.

    ``extra``: a function of each kept page's element table, lines, html
    and url whose results are kept in ``data["extra"]`` (a study's page
    figures, read in the same parse).
    """
    xs, ys, ws, pages, groups, names, kept, ctx, extras = [], [], [], [], [], [], [], [], []
    corpus = load_corpus(sets, limit)
    started = time.perf_counter()
    for k, (set_name, record, html, group) in enumerate(corpus):
        try:
            parts = page_parts(html, record.get("url"))
        except Exception as exc:  # a page we cannot parse teaches nothing
            log(f"skip {set_name}/{record['id']}: {type(exc).__name__}: {exc}")
            continue
        if parts is None:
            continue
        pb, lines = parts
        if extra is not None:
            extras.append(extra(pb, lines, html, record.get("url")))
        texts, feats = lines.texts, lines.features
        ctx.append((lines.order, lines.ranges, lines.templates))
        labels = line_labels(texts, record.get("body") or "")
        ntok = feats[:, FEATURE_NAMES.index("line_tokens")] + 1.0
        xs.append(feats)
        ys.append(labels)
        ws.append(ntok / ntok.sum())
        pages.append(np.full(len(texts), len(names), np.int32))
        groups.append(group)
        names.append(f"{set_name}/{record['id']}")
        if keep_texts:
            kept.append((texts, record.get("body") or "", record.get("page_type")))
        if (k + 1) % 500 == 0:
            log(f"  {k + 1}/{len(corpus)} pages, {time.perf_counter() - started:.0f} s")
    return {
        "X": np.concatenate(xs), "y": np.concatenate(ys), "w": np.concatenate(ws),
        "page": np.concatenate(pages), "groups": groups, "names": names, "texts": kept, "ctx": ctx,
        "extra": extras,
    }


def cached_build(path: Path | None, limit: int | None = None,
                 extra: Callable[[PageBlocks, PageLines, str, str | None], object] | None = None) -> dict:
    """:func:`build` of the training sets with their texts, read from the pickle ``path`` when it exists.

    The studies refit the model many times on the same rows; building them
    takes minutes, so they keep them between runs.  ``path`` None: built.
    """
    if path is not None and path.exists():
        return pickle.loads(path.read_bytes())
    data = build(TRAIN_SETS, limit, keep_texts=True, extra=extra)
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(pickle.dumps(data))
    return data


def _fit_trees(X: np.ndarray, y: np.ndarray, w: np.ndarray, names: list[str]):
    import lightgbm as lgb

    data = lgb.Dataset(X, y, weight=w * 1000.0, feature_name=names, free_raw_data=False)
    return lgb.train(LGB_PARAMS, data, num_boost_round=ROUNDS)


def _page_slices(page: np.ndarray) -> list[slice]:
    starts = np.flatnonzero(np.r_[True, page[1:] != page[:-1]])
    ends = np.r_[starts[1:], len(page)]
    return [slice(a, b) for a, b in zip(starts, ends, strict=True)]


def _context(data: dict, pages: np.ndarray, p: np.ndarray) -> np.ndarray:
    """Second-stage rows of the given pages (in line order) from first-stage probabilities."""
    slices = _page_slices(data["page"])
    rows = []
    for k in pages:
        sl = slices[k]
        order, ranges, templates = data["ctx"][k]
        rows.append(context_features(data["X"][sl], order, ranges, templates, p[sl]))
    return np.concatenate(rows) if rows else np.zeros((0, len(CONTEXT_NAMES)), np.float32)


def fit(data: dict, pages: np.ndarray, inner_folds: int = 3):
    """Both stages on the given pages; the second learns from out-of-fold first-stage output.

    The first stage's probabilities on its own training pages would be
    overconfident, so the second stage sees probabilities from first-stage
    models that did not train on those pages' domains (inner grouped folds).
    """
    line_page = data["page"]
    mask = np.isin(line_page, pages)
    X, y, w = data["X"], data["y"], data["w"]
    first = _fit_trees(X[mask], y[mask], w[mask], list(FEATURE_NAMES))
    inner = np.full(len(data["groups"]), -1)
    inner[pages] = group_folds([data["groups"][k] for k in pages], inner_folds)
    oof = np.zeros(len(y))
    for f in range(inner_folds):
        train = mask & (inner[line_page] != f)
        test = mask & (inner[line_page] == f)
        if test.any():
            oof[test] = _fit_trees(X[train], y[train], w[train], list(FEATURE_NAMES)).predict(X[test])
    pages = np.sort(pages)
    X2 = np.hstack([X[mask], _context(data, pages, oof)])
    second = _fit_trees(X2, y[mask], w[mask], [*FEATURE_NAMES, *CONTEXT_NAMES])
    return first, second


def predict(models, data: dict, pages: np.ndarray) -> np.ndarray:
    """Two-stage probabilities for the lines of the given pages (sorted page order)."""
    first, second = models
    pages = np.sort(pages)
    mask = np.isin(data["page"], pages)
    p1 = np.zeros(len(data["y"]))
    p1[mask] = first.predict(data["X"][mask])
    X2 = np.hstack([data["X"][mask], _context(data, pages, p1)])
    return second.predict(X2)


def export(models, path: Path, threshold: float = THRESHOLD) -> None:
    """Both stages' trees and the decision threshold as one JSON file."""
    first, second = models
    payload = {"kind": "line-model", "threshold": threshold, "trained_on": list(TRAIN_SETS),
               "first": trees_payload(first, FEATURE_NAMES),
               "second": trees_payload(second, (*FEATURE_NAMES, *CONTEXT_NAMES))}
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(payload, separators=(",", ":")))


def trees_payload(booster, names: tuple[str, ...]) -> dict:
    """Trees as flat arrays: (feature, threshold, left, right) per split, leaves negative."""
    trees = [_flat_tree(info["tree_structure"]) for info in booster.dump_model()["tree_info"]]
    return {"kind": "gbdt-binary", "features": list(names), "trees": trees}


def _flat_tree(root: dict) -> dict:
    """One LightGBM tree dump as arrays; a child reference ``-1 - k`` is leaf ``k``."""
    splits: list[dict] = []
    index: dict[int, int] = {}
    stack = [root]
    while stack:  # number the splits in visiting order (iterative, no recursion)
        node = stack.pop()
        if "split_index" in node:
            index[id(node)] = len(splits)
            splits.append(node)
            stack.extend((node["right_child"], node["left_child"]))
    values: list[float] = []
    leaves: dict[int, int] = {}

    def ref(child: dict) -> int:
        if "split_index" in child:
            return index[id(child)]
        if id(child) not in leaves:
            leaves[id(child)] = len(values)
            values.append(child["leaf_value"])
        return -1 - leaves[id(child)]

    tree = {"feature": [], "threshold": [], "left": [], "right": [], "value": values}
    for node in splits:
        if node["decision_type"] != "<=":
            raise ValueError(f"unsupported split {node['decision_type']}")
        tree["feature"].append(node["split_feature"])
        tree["threshold"].append(node["threshold"])
        tree["left"].append(ref(node["left_child"]))
        tree["right"].append(ref(node["right_child"]))
    if not splits:  # a stump: one leaf
        values.append(root["leaf_value"])
    return tree


def oof_probabilities(data: dict, folds: int, seed: int | None = None) -> np.ndarray:
    """Two-stage probability of every line from the model of the fold that did not see its domain."""
    all_pages = np.arange(len(data["names"]))
    page_fold = np.asarray(group_folds(data["groups"], folds, seed))
    p = np.zeros(len(data["y"]))
    for k in range(folds):
        test = all_pages[page_fold == k]
        p[np.isin(data["page"], test)] = predict(fit(data, all_pages[page_fold != k]), data, test)
    return p


def score_kept(data: dict, keep: np.ndarray, types: tuple[str, ...] = ()):
    """Each set's metric of the kept lines per set and WCXB page type (``text_cv.Scores``).

    Returns the scores and, for the pages of ``types``, (page, type, kept text, gold).
    """
    from benchmarks.text_cv import Scores, _rows

    scores = Scores()
    rule = FEATURE_NAMES.index("rule_kept")
    pages = []
    for k, sl in enumerate(_page_slices(data["page"])):
        texts, gold, page_type = data["texts"][k]
        kept = keep[sl] if keep[sl].any() else data["X"][sl, rule] > 0  # the extractor's fallback
        set_name = data["names"][k].split("/")[0]
        out = "\n".join(t for t, on in zip(texts, kept, strict=True) if on)
        scores.add(_rows(set_name, {"page_type": page_type}), set_name, out, gold)
        if page_type in types:
            pages.append((k, page_type, out, gold))
    return scores, pages


def score_rows(scores) -> list[str]:
    """The table rows of ``scores``: the sets in training order, each followed by its page types."""
    return sorted({*scores.pairs, *scores.words}, key=lambda r: (TRAIN_SETS.index(r.split(":")[0]), r))


def cross_validate(data: dict, folds: int, seed: int | None = None, worst: int = 0,
                   types: tuple[str, ...] = ()) -> None:
    """Grouped CV of the line decision alone: line accuracy and F1 of the kept lines.

    The kept lines are scored against the gold text with each set's metric
    (as :mod:`benchmarks.text_cv` does), before the post-processing and
    metadata of the whole call: a quick check of a feature or label change
    (the line features are computed once) that ``benchmarks.text_cv``
    then confirms.  ``seed``: another deterministic split by domain
    (``group_folds``), whose spread tells a gain from a lucky split.
    ``worst``: per page of the WCXB ``types``, precision and recall of
    the kept lines, and that many worst pages.
    """
    from benchmarks.common import print_table

    keep = oof_probabilities(data, folds, seed) >= THRESHOLD
    correct = float((keep == (data["y"] > 0.5)) @ data["w"])
    print(f"grouped {folds}-fold weighted line accuracy: {correct / data['w'].sum():.4f}")
    scores, pages = score_kept(data, keep, types)
    split = "" if seed is None else f", fold seed {seed}"
    print_table(["set", "kept lines F1"], [[r, scores.figure(r)] for r in score_rows(scores)],
                title=f"Kept lines before post-processing, {folds}-fold CV grouped by domain{split}")
    if worst and pages:
        _print_losses(data, pages, worst)


def _print_losses(data: dict, pages: list[tuple[int, str, str, str]], worst: int) -> None:
    """Word precision and recall of the kept lines per page type, and the worst pages.

    Tells which side a page type loses on (too much kept, or too little)
    and where to read the gold: the pages that lose most, with their domain.
    """
    from benchmarks.common import print_table, word_scores

    scored = [(word_scores(out, gold), k, page_type, out, gold) for k, page_type, out, gold in pages]
    by_type = {}
    for (precision, recall, f1), _, page_type, _, _ in scored:
        by_type.setdefault(page_type, []).append((precision, recall, f1))
    print_table(["page type", "pages", "precision", "recall", "F1"],
                [[t, len(v), *np.mean(v, axis=0).round(3).tolist()] for t, v in sorted(by_type.items())],
                title="Kept lines per page (means of the pages' word scores)")
    scored.sort(key=lambda row: (row[0][2], data["names"][row[1]]))
    print_table(["page", "domain", "type", "F1", "precision", "recall", "gold words", "kept words"],
                [[data["names"][k], data["groups"][k], page_type, round(f1, 3), round(precision, 3),
                  round(recall, 3), len(gold.split()), len(out.split())]
                 for (precision, recall, f1), k, page_type, out, gold in scored[:worst]],
                title=f"The {worst} worst pages")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--limit", type=int, default=None, help="pages per set (quick runs)")
    ap.add_argument("--out", type=Path, default=MODEL_PATH)
    ap.add_argument("--cv", type=int, default=0, help="grouped folds: report the line decision only (see cross_validate)")
    ap.add_argument("--fold-seed", type=int, default=None, help="with --cv: another deterministic split by domain")
    ap.add_argument("--worst", type=int, default=0, help="with --cv: precision/recall per page of --types, N worst pages")
    ap.add_argument("--types", default="collection,listing", help="WCXB page types for --worst (comma-separated)")
    args = ap.parse_args(argv)
    data = build(TRAIN_SETS, args.limit, keep_texts=bool(args.cv))
    print(f"{len(data['names'])} pages, {len(data['y'])} lines, {data['y'].mean():.3f} main text")
    all_pages = np.arange(len(data["names"]))
    if args.cv:
        cross_validate(data, args.cv, args.fold_seed, args.worst, tuple(args.types.split(",")))
        return 0
    export(fit(data, all_pages), args.out)
    print(f"wrote {args.out} ({args.out.stat().st_size // 1024} KiB, 2 x {ROUNDS} trees)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
