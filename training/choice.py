"""What the date, headline and author choosers share: the fit and the command line.

Each of them picks one of a page's candidates (a date, a headline, a list of
names or "no author"), so each is fitted the same way, as a conditional logit
over the page's candidates (:func:`fit_choice`), and each training script takes
the same options (:func:`choice_arguments`).
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from pathlib import Path

import numpy as np

from scrapy_contentex.core.pagetype_model import LogisticModel


def fit_choice(pages: list[tuple[np.ndarray, np.ndarray]], ridge: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Conditional logit: per page, P(candidate) = softmax of its score, fit to the right ones.

    ``pages``: (feature matrix, right mask) of each page. Loss: the sum over
    pages of -log P(a right candidate), plus ``ridge``/2 |w|^2 on standardised
    features. Newton-like steps with the softmax's covariance as the curvature
    (it bounds the true one from above, so every step lowers the loss), from
    zero weights: deterministic. Returns (mean, scale, weights).
    """
    x = np.vstack([m for m, _ in pages])
    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    scale[scale < 1e-9] = 1.0
    zs = [((m - mean) / scale, right) for m, right in pages]
    w = np.zeros(x.shape[1])
    for _ in range(300):
        grad = ridge * w
        hess = ridge * np.eye(len(w))
        for z, right in zs:
            s = z @ w
            p = np.exp(s - s.max())
            p /= p.sum()
            q = np.where(right, p, 0.0)
            q /= q.sum()
            mu = p @ z
            grad += mu - q @ z
            hess += (z * p[:, None]).T @ z - np.outer(mu, mu)
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-7:
            break
    return mean, scale, w


def model_json(model: LogisticModel) -> str:
    """The model file's exact text."""
    return json.dumps(model.to_json(), indent=1) + "\n"


def choice_arguments(argv: list[str] | None, doc: str | None, misses: str) -> argparse.Namespace:
    """The options every chooser's training script takes (``misses``: what --misses lists)."""
    parser = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="cross-validate only, write nothing")
    parser.add_argument("--misses", action="store_true", help=f"{misses}, write nothing")
    parser.add_argument("--seeds", type=int, default=0, help="also run the CV on N other fold draws, write nothing")
    parser.add_argument("--limit", type=int, default=None)
    return parser.parse_args(argv)


def writes_model(args: argparse.Namespace) -> bool:
    """Only a plain run (no --check, --misses or --seeds) writes the model file."""
    return not (args.check or args.misses or args.seeds)


def run_chooser(args: argparse.Namespace, *, table: Callable[[], None], seeds: Callable[[int], None],
                misses: Callable[[], None], fit: Callable[[], LogisticModel], path: Path) -> int:
    """A chooser script's run: the grouped-CV table, then what the options ask
    (other fold draws, the misses), then the model file on a plain run."""
    table()
    if args.seeds:
        seeds(args.seeds)
    if args.misses:
        misses()
    if writes_model(args):
        path.write_text(model_json(fit()), encoding="utf-8")
        print(f"wrote {path}")
    return 0
