"""How much would a right keep/drop of a page's largest grid gain? A ceiling study (issue 11).

    python -m training.grid_ceiling [--folds 5] [--fold-seed S] [--cache DIR] [--limit N]

On card grids the gold's convention changes from site to site (some keep
every card, some none), so the line model hesitates between the two.  This
script measures, with the line model's out-of-fold decisions
(:func:`training.train_blocks.oof_probabilities`, grouped by domain):

1. the *ceiling*: the F1 of the kept lines when the largest grid of each
   page (:func:`largest_grid`) is kept or dropped whole as the gold's
   majority says (an oracle), everything else as the model decides; and the
   "drop only" oracle (the grid is dropped when the gold drops most of it,
   else left to the model);
2. whether a grid-level learner predicts that majority out of fold: grid
   features (:func:`grid_features`: the items' length, the grid's share of
   the page, prices, images, dates, teaser sentences, link share,
   position, the page's other prose, markup around the grid, and the line
   model's own out-of-fold view of the grid) and LightGBM, folds grouped
   by domain; its accuracy against the majority class and against the line
   model's own majority, and the F1 its decision gives.

A grid (:func:`largest_grid`) is a group of at least :data:`MIN_ITEMS`
sibling elements of one signature (tag and class, digits dropped: what
:meth:`~scrapy_contentex.core.text.region.PageBlocks.signature` reads) that
are not prose blocks (paragraphs, headings, quotes, inline markup), holding
either cards (two lines or more per item) or a link list; the largest is
the one holding the most line tokens.  Only pages whose
largest grid holds at least :data:`MIN_SHARE` of the page's line tokens
take part.

Caveat: the grid learner's training pages carry out-of-fold line
probabilities from line models that may have seen the test fold's domains
(second-order leakage of stacking without nesting); the line model itself
never saw a scored page's domain.

Not a benchmark and nothing here ships.  Needs the ``train`` extra
(LightGBM, scikit-learn) and the datasets: a few minutes per fold draw (``--cache`` keeps the
rows and the probabilities between runs).  docs/text.md has the figures.
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from benchmarks.common import group_folds, print_table, require_datasets
from scrapy_contentex.core.text.block_features import FEATURE_NAMES, PageLines
from scrapy_contentex.core.text.region import PageBlocks

from .train_blocks import THRESHOLD, cached_build, oof_probabilities, score_kept, score_rows

#: A grid has at least this many items.
MIN_ITEMS = 3
#: Ancestor levels climbed from a line's owner to find the items holding it.
LEVELS = 8
#: Items of these tags are prose or inline markup, not cards (the paragraphs of an article).
PROSE_TAGS = frozenset(("p", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "pre", "br", "span",
                        "a", "b", "strong", "em", "i", "font"))
#: Pages whose largest grid holds at least this share of the line tokens.
MIN_SHARE = 0.15
#: A grid the gold keeps less than this share of is dropped; more than 1 minus it, kept whole.
CLEAR = 0.1
_PRICE_RE = re.compile(r"[$€£¥￥₹₩₽]\s?\d|\d[\d.,]*\s?(?:€|元|円|kr|zł|USD|EUR|GBP|CHF)\b")
_DATE_RE = re.compile(
    r"\b(?:19|20)\d\d[-/.]\d{1,2}|\d{1,2}[-/.]\d{1,2}[-/.](?:19|20)?\d\d\b|"
    r"\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.? \d{1,2}\b|"
    r"\b\d{1,2} (?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)|\d{4}年|\d{1,2}月\d{1,2}日|"
    r"\b\d+ (?:minutes?|hours?|days?|weeks?) ago\b", re.I)
_COL = {name: k for k, name in enumerate(FEATURE_NAMES)}
#: Line features averaged over the grid's lines (token-weighted): where it sits and how it is named.
MARKUP = ("in_nav", "in_header", "in_footer", "in_aside", "in_form", "in_list", "in_table", "in_heading",
          "in_article", "name_content", "name_article", "name_post", "name_comment", "name_related",
          "name_product", "name_summary", "name_card", "name_list", "name_sidebar", "name_tag",
          "rule_kept", "rule_region", "up1_score", "up2_score", "page_thread")
GRID_NAMES: tuple[str, ...] = (
    "share", "log_items", "log_item_tokens", "lines_per_item", "link_share", "price_items",
    "date_items", "image_items", "teaser_items", "long_line_share", "first_pos", "last_pos",
    "prose_outside", "log_page_tokens", "heading_items", *(f"m_{name}" for name in MARKUP),
    "p_mean", "p_kept", "p_outside", "p_kept_outside", "index_probability",
)


@dataclass
class Grid:
    """The largest grid of a page: which lines it holds and from which item."""

    lines: np.ndarray  # bool per line
    item: np.ndarray  # item number per line (-1 outside the grid)
    items: int
    images: int  # <img> elements inside the items
    tag: str
    #: The shipped page-type model's probability that the page is an index page
    #: (trained on the pagetype set, not on these pages).
    index_probability: float = 0.5


def largest_grid(pb: PageBlocks, owners: list[int], tokens: np.ndarray, linky: np.ndarray) -> Grid | None:
    """The group of repeated sibling items holding the most line tokens, or None.

    ``owners``: each line's owning element; ``tokens``: its token count;
    ``linky``: whether it is link text.  Every element met on the way up
    from a line's owner is an item of the group (its parent, its
    signature); a group of one-line items counts only when most of its
    tokens are link text (a list of headlines, not a list of facts).
    """
    own = np.asarray(owners, np.int64)
    m = len(own)
    if not m:
        return None
    parent = np.asarray(pb.parent, np.int64)
    items, lines = [], []
    anc = own
    alive = np.ones(m, bool)
    for _ in range(LEVELS):
        up = parent[anc]
        alive &= up >= 0
        if not alive.any():
            break
        items.append(anc[alive])
        lines.append(np.flatnonzero(alive))
        anc = np.where(alive, up, anc)
    if not items:
        return None
    item_of_row = np.concatenate(items)
    line_of_row = np.concatenate(lines)
    # One group id per (parent, signature) of the elements met.
    members, row_member = np.unique(item_of_row, return_inverse=True)
    sig_ids: dict[tuple, int] = {}
    signature, tags = pb.signature, pb.tags
    member_group = np.fromiter(
        (sig_ids.setdefault((int(parent[a]), signature(a)), len(sig_ids)) for a in members.tolist()),
        np.int64, len(members))
    row_group = member_group[row_member]
    n_groups = len(sig_ids)
    count = np.bincount(member_group, minlength=n_groups)
    mass = np.bincount(row_group, weights=tokens[line_of_row], minlength=n_groups)
    link_mass = np.bincount(row_group, weights=(tokens * linky)[line_of_row], minlength=n_groups)
    n_lines = np.bincount(row_group, minlength=n_groups)
    prose = np.fromiter((tags[a] in PROSE_TAGS for a in members.tolist()), bool, len(members))
    ok = (count >= MIN_ITEMS) & (np.bincount(member_group, weights=prose, minlength=n_groups) == 0)
    ok &= (n_lines >= 2 * count) | (link_mass >= 0.5 * np.maximum(mass, 1.0))
    ok &= mass > 0
    if not ok.any():
        return None
    best = int(np.argmax(np.where(ok, mass, -1.0)))
    rows = row_group == best
    grid_members = member_group == best
    item = np.full(m, -1, np.int64)
    item[line_of_row[rows]] = np.cumsum(grid_members)[row_member[rows]] - 1
    kept = members[grid_members].tolist()
    end = pb.end
    images = sum(tags[a:end[a]].count("img") for a in kept)
    return Grid(item >= 0, item, len(kept), images, tags[kept[0]])


def grid_features(grid: Grid, lines: PageLines, p: np.ndarray) -> np.ndarray:
    """The grid's row (:data:`GRID_NAMES`); ``p``: the line model's probabilities of the page's lines."""
    f = lines.features
    tok = f[:, _COL["line_tokens"]].astype(np.float64)
    inside = grid.lines
    t_in = tok[inside]
    mass = max(1.0, float(t_in.sum()))
    page_tok = max(1.0, float(tok.sum()))
    texts = [t for t, on in zip(lines.texts, inside, strict=True) if on]
    item = grid.item[inside]
    n = grid.items

    def items_with(flags) -> float:
        return len({i for i, on in zip(item.tolist(), flags, strict=True) if on}) / n

    link = f[inside, _COL["block_link_share"]]
    punct = f[inside, _COL["line_punct"]]
    teaser = (t_in >= 12) & (link < 0.5) & (punct > 0.05)
    pos = f[inside, _COL["line_pos_tokens"]]
    out = f[~inside]
    prose = float(out[:, _COL["line_tokens"]][(out[:, _COL["line_tokens"]] >= 15)
                                              & (out[:, _COL["block_link_share"]] < 0.3)].sum())
    row = [
        mass / page_tok, np.log(n), np.log1p(mass / n), len(texts) / n,
        float((link > 0.5) @ t_in) / mass,
        items_with(bool(_PRICE_RE.search(t)) for t in texts),
        items_with(bool(_DATE_RE.search(t)) for t in texts),
        min(grid.images / n, 3.0),
        items_with(teaser.tolist()),
        float(t_in[t_in >= 20].sum()) / mass,
        float(pos.min()), float(pos.max()),
        prose / page_tok, np.log1p(page_tok),
        items_with((f[inside, _COL["in_heading"]] > 0).tolist()),
        *(float(f[inside, _COL[name]] @ t_in) / mass for name in MARKUP),
        float(p[inside] @ t_in) / mass,
        float((p[inside] >= THRESHOLD) @ t_in) / mass,
        float(p[~inside] @ tok[~inside]) / max(1.0, float(tok[~inside].sum())),
        float((p[~inside] >= THRESHOLD) @ tok[~inside]) / max(1.0, float(tok[~inside].sum())),
        grid.index_probability,
    ]
    return np.asarray(row, np.float64)


def _grid_of(pb: PageBlocks, lines: PageLines, html: str = "", url: str | None = None) -> Grid | None:
    """The page's largest grid when it holds :data:`MIN_SHARE` of the tokens, with the page-type model's view."""
    tok = lines.features[:, _COL["line_tokens"]]
    grid = largest_grid(pb, lines.owners, tok, lines.features[:, _COL["block_link_share"]] > 0.5)
    if grid is None or tok[grid.lines].sum() < MIN_SHARE * max(1.0, tok.sum()):
        return None
    if html:
        from scrapy_contentex.core.document import Document
        from scrapy_contentex.core.pagetype import classify

        grid.index_probability = classify(Document(html, url=url)).score
    return grid


def gold_share(grid: Grid, y: np.ndarray, tok: np.ndarray) -> float:
    """Token share of the grid's lines the gold keeps."""
    t = tok[grid.lines]
    return float(y[grid.lines] @ t) / max(1.0, float(t.sum()))


def apply(keep: np.ndarray, data: dict, decisions: dict[int, bool], drop_only: bool = False) -> np.ndarray:
    """The kept lines with each decided page's grid kept or dropped whole.

    ``decisions``: page -> keep the grid.  ``drop_only``: a kept grid is
    left to the line model (only drops override it).
    """
    out = keep.copy()
    slices = _slices(data["page"])
    for k, keep_grid in decisions.items():
        if drop_only and keep_grid:
            continue
        sl = slices[k]
        block = out[sl]
        block[data["extra"][k].lines] = keep_grid
        out[sl] = block
    return out


def best_decisions(data: dict, keep: np.ndarray, pages: list[int]) -> dict[int, bool]:
    """Per page, the whole-grid decision (kept, dropped) that beats the line model's lines, if one does.

    The ceiling of any stage that keeps or drops the largest grid whole: the
    page's own metric of the three outcomes, the best one taken.
    """
    slices = _slices(data["page"])
    out = {}
    for k in pages:
        base = keep[slices[k]]
        grid = data["extra"][k].lines
        scores = [(page_f1(data, k, base | grid), True), (page_f1(data, k, base & ~grid), False)]
        best, decision = max(scores)
        if best > page_f1(data, k, base) + 1e-9:
            out[k] = decision
    return out


def page_f1(data: dict, k: int, kept: np.ndarray) -> float:
    """The page's own metric (its set's) of the kept lines of page ``k``."""
    from benchmarks.common import page_scores, word_f1

    from .corpus import SHINGLE_SETS

    texts, gold, _ = data["texts"][k]
    text = "\n".join(t for t, on in zip(texts, kept, strict=True) if on)
    if data["names"][k].split("/")[0] not in SHINGLE_SETS:
        return word_f1(text, gold)
    precision, recall = page_scores(text, gold)
    return 2 * precision * recall / (precision + recall) if precision + recall else 0.0


def _slices(page: np.ndarray) -> list[slice]:
    starts = np.flatnonzero(np.r_[True, page[1:] != page[:-1]])
    ends = np.r_[starts[1:], len(page)]
    return [slice(a, b) for a, b in zip(starts, ends, strict=True)]


def learn(X: np.ndarray, y: np.ndarray, groups: list[str], folds: int, seed: int | None,
          kind: str = "trees") -> np.ndarray:
    """Out-of-fold probability of ``y`` (folds grouped by domain).

    ``kind``: "trees", LightGBM of a small fixed size; "linear", an L2
    logistic regression on standardised features (scikit-learn).
    """
    fold = np.asarray(group_folds(groups, folds, seed))
    out = np.zeros(len(y))
    for f in range(folds):
        train, test = fold != f, fold == f
        out[test] = _fit_predict(kind, X[train], y[train], X[test])
    return out


def _fit_predict(kind: str, X: np.ndarray, y: np.ndarray, X_test: np.ndarray) -> np.ndarray:
    if kind == "linear":
        from sklearn.linear_model import LogisticRegression
        from sklearn.pipeline import make_pipeline
        from sklearn.preprocessing import StandardScaler

        model = make_pipeline(StandardScaler(), LogisticRegression(C=0.1, max_iter=2000))
        return model.fit(X, y).predict_proba(X_test)[:, 1]
    import lightgbm as lgb

    params = {"objective": "binary", "learning_rate": 0.05, "num_leaves": 4, "min_child_samples": 10,
              "feature_fraction": 0.7, "bagging_fraction": 0.8, "bagging_freq": 1, "lambda_l2": 1.0,
              "seed": 7, "deterministic": True, "num_threads": 1, "verbose": -1}
    return lgb.train(params, lgb.Dataset(X, y), num_boost_round=100).predict(X_test)


def _load(cache: Path | None, folds: int, seed: int | None, limit: int | None) -> tuple[dict, np.ndarray]:
    data = cached_build(cache / f"rows{limit or ''}.pkl" if cache else None, limit, extra=_grid_of)
    probs = cache / f"oof{limit or ''}_{folds}_{seed}.npy" if cache else None
    if probs and probs.exists():
        return data, np.load(probs)
    p = oof_probabilities(data, folds, seed)
    if probs:
        np.save(probs, p)
    return data, p


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--fold-seed", type=int, default=None)
    ap.add_argument("--cache", type=Path, default=None)
    ap.add_argument("--limit", type=int, default=None, help="pages per set (quick runs)")
    args = ap.parse_args(argv)
    if not require_datasets():
        return 0
    data, p = _load(args.cache, args.folds, args.fold_seed, args.limit)
    keep = p >= THRESHOLD
    slices = _slices(data["page"])
    tok_all = data["X"][:, _COL["line_tokens"]]
    pages = [k for k, g in enumerate(data["extra"]) if g is not None]
    types = [data["texts"][k][2] or data["names"][k].split("/")[0] for k in pages]
    share = np.asarray([gold_share(data["extra"][k], data["y"][slices[k]], tok_all[slices[k]]) for k in pages])
    X = np.stack([grid_features(data["extra"][k], _lines_view(data, k, slices[k]), p[slices[k]]) for k in pages])
    groups = [data["groups"][k] for k in pages]
    model_share = X[:, GRID_NAMES.index("p_kept")]
    gold, drops = share >= 0.5, share < CLEAR
    learned = {kind: (learn(X, gold.astype(float), groups, args.folds, args.fold_seed, kind),
                      learn(X, drops.astype(float), groups, args.folds, args.fold_seed, kind))
               for kind in ("trees", "linear")}
    _print_accuracy(types, [
        ("majority (gold keeps >= 50%)", gold, model_share >= 0.5,
         {kind: prob >= 0.5 for kind, (prob, _) in learned.items()}),
        (f"gold drops (keeps < {CLEAR:.0%})", drops, model_share < CLEAR,
         {kind: p_drop >= 0.5 for kind, (_, p_drop) in learned.items()}),
    ])
    no_keep = np.zeros(len(pages), bool)

    def whole(keep_grid: np.ndarray, drop_grid: np.ndarray) -> dict[int, bool]:
        return {k: bool(w) for k, d, w in zip(pages, drop_grid, keep_grid, strict=True) if d != w}

    columns = {
        "model": keep,
        "oracle best": apply(keep, data, best_decisions(data, keep, pages)),
        "oracle": apply(keep, data, whole(gold, ~gold)),
        "oracle clear": apply(keep, data, whole(share > 1 - CLEAR, drops)),
        "oracle drops": apply(keep, data, whole(no_keep, drops)),
    }
    for kind, (prob, p_drop) in learned.items():
        columns[kind] = apply(keep, data, whole(prob >= 0.5, prob < 0.5))
        columns[f"{kind} drops"] = apply(keep, data, whole(no_keep, p_drop >= 0.5))
    scored = {name: score_kept(data, kept)[0] for name, kept in columns.items()}
    counts: dict[str, int] = {}
    for k, t in zip(pages, types, strict=True):
        set_name = data["names"][k].split("/")[0]
        for row in {set_name, f"{set_name}:{t}"}:
            counts[row] = counts.get(row, 0) + 1
    split = "" if args.fold_seed is None else f", fold seed {args.fold_seed}"
    print_table(["set", "grid pages", *columns],
                [[r, counts.get(r, 0), *(s.figure(r) for s in scored.values())]
                 for r in score_rows(scored["model"])],
                title=f"Kept lines F1 (before post-processing), largest grid decided whole, "
                      f"{args.folds}-fold CV by domain{split}")
    return 0


def _lines_view(data: dict, k: int, sl: slice) -> PageLines:
    """The stored rows of page ``k`` as the :class:`PageLines` :func:`grid_features` reads."""
    texts = data["texts"][k][0]
    return PageLines(texts, [], data["X"][sl], False)


def _print_accuracy(types: list[str], targets: list[tuple[str, np.ndarray, np.ndarray, dict]]) -> None:
    """Accuracy per target: the majority class, the line model's kept share read the same way, the learners."""
    rows = []
    kinds: list[str] = []
    for target, gold, model, learned in targets:
        kinds = list(learned)
        for name in ("collection", "listing", "*"):
            sel = np.asarray([name == "*" or t == name for t in types])
            if not sel.any():
                continue
            g = gold[sel]
            rows.append([target, name if name != "*" else "all grid pages", int(sel.sum()),
                         round(float(g.mean()), 3), round(float(max(g.mean(), 1 - g.mean())), 3),
                         round(float((model[sel] == g).mean()), 3),
                         *(round(float((pred[sel] == g).mean()), 3) for pred in learned.values())])
    print_table(["target", "pages", "n", "gold rate", "majority class", "line model", *kinds], rows,
                title="Accuracy on the gold's decision of the largest grid (out of fold)")


if __name__ == "__main__":
    sys.exit(main())
