"""Does a larger line model, or more weight on card-grid pages, decide lines better? A study (issue 11).

    python -m training.line_model_study [--folds 5] [--fold-seeds default,1] [--cache FILE] [--limit N]

The shipped line model (``training/train_blocks.py``: 100 rounds of 16-leaf
trees, each page weighing the same) was never compared with other sizes,
and collection and listing pages, the types furthest from their targets,
are about a tenth of the training pages.  Each variant below refits both
stages with :func:`training.train_blocks.oof_probabilities` (5 folds grouped
by registered domain) and scores the kept lines with each set's metric
(:func:`training.train_blocks.score_kept`, before the post-processing of
the whole call), on each fold draw, so a gain can be told from the draw's
noise:

* ``shipped``: the training settings as they ship;
* ``200 rounds/31 leaves``: twice the trees, twice the leaves, depth 6,
  learning rate 0.1;
* ``300 rounds/rate 0.05``: three times the trees at a third of the rate;
* ``grid pages x2`` and ``x3``: the shipped settings, the lines of WCXB's
  collection and listing pages weighing two or three times as much.

Not a benchmark and nothing here ships.  Needs the ``train`` extra
(LightGBM) and the datasets; about two minutes per variant and draw
(``--cache`` keeps the line rows between runs, :func:`training.train_blocks.cached_build`).  docs/text.md has the figures.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from unittest import mock

import numpy as np

from benchmarks.common import print_table, require_datasets

from . import train_blocks

#: Name -> (LightGBM settings over the shipped ones, rounds or None, weight factor of grid pages).
VARIANTS: dict[str, tuple[dict, int | None, float]] = {
    "shipped": ({}, None, 1.0),
    "200 rounds/31 leaves": ({"learning_rate": 0.1, "num_leaves": 31, "max_depth": 6}, 200, 1.0),
    "300 rounds/rate 0.05": ({"learning_rate": 0.05}, 300, 1.0),
    "grid pages x2": ({}, None, 2.0),
    "grid pages x3": ({}, None, 3.0),
}
#: The WCXB page types of card grids (index pages of the datasets README).
GRID_TYPES = ("collection", "listing")


def page_weights(data: dict, factor: float, types: tuple[str, ...] = GRID_TYPES) -> np.ndarray:
    """The lines' training weights with the pages of ``types`` weighing ``factor`` times as much."""
    weights = data["w"].copy()
    for k, lines in enumerate(train_blocks._page_slices(data["page"])):
        if data["texts"][k][2] in types:
            weights[lines] *= factor
    return weights


def variant_scores(data: dict, folds: int, seed: int | None, params: dict, rounds: int | None,
                   factor: float) -> dict[str, float]:
    """Each set's and WCXB type's kept-lines F1 with the variant's training, one fold draw."""
    varied = {**data, "w": page_weights(data, factor)}
    with (mock.patch.dict(train_blocks.LGB_PARAMS, params),
          mock.patch.object(train_blocks, "ROUNDS", rounds or train_blocks.ROUNDS)):
        keep = train_blocks.oof_probabilities(varied, folds, seed) >= train_blocks.THRESHOLD
    scores, _ = train_blocks.score_kept(data, keep)
    return {row: scores.figure(row) for row in train_blocks.score_rows(scores)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--fold-seeds", default="default,1", help="fold draws: 'default' or integers, comma-separated")
    ap.add_argument("--cache", type=Path, default=None, help="pickle of the line rows, read or written")
    ap.add_argument("--limit", type=int, default=None, help="pages per set (quick runs)")
    args = ap.parse_args(argv)
    require_datasets()
    data = train_blocks.cached_build(args.cache, args.limit)
    seeds = [None if s == "default" else int(s) for s in args.fold_seeds.split(",")]
    print(f"{len(data['names'])} pages, {len(data['y'])} lines; fold draws: {args.fold_seeds}", flush=True)
    for seed in seeds:
        draw = "default" if seed is None else f"seed {seed}"
        figures = {}
        for name, (params, rounds, factor) in VARIANTS.items():
            figures[name] = variant_scores(data, args.folds, seed, params, rounds, factor)
            print(f"  {name}, {draw}: wcxb-dev {figures[name].get('wcxb-dev', 0.0):.4f}", flush=True)
        rows = [row for row in figures["shipped"] if row != "forums-harvest:forum"]
        print_table(["set", *VARIANTS], [[row, *(f[row] for f in figures.values())] for row in rows],
                    title=f"Kept lines F1 before post-processing, {args.folds}-fold CV grouped by domain, "
                          f"fold draw {draw}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
