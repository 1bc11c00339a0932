"""The labelled pages models are trained and cross-validated on, grouped by domain.

Shared by the training scripts and the cross-validated benchmarks, so that
both see the same pages, the same groups and the same folds.

Groups: a page is never scored by a model that saw its domain.  The domain
is the registered part of the page URL (``benchmarks.common.registered_domain``
of the truth's ``url``, else of the page's canonical or og:url link); a page
with no URL is a group of its own.  Folds: ``benchmarks.common.group_folds``.
"""

from __future__ import annotations

import re

from benchmarks.common import load_texts, registered_domain

# Sets whose licence lets a shipped model train on them (datasets README).
TRAIN_SETS = ("wcxb-dev", "forums-harvest", "articles-en", "articles-zh", "articles-multi", "forums")
# Sets for evaluation only (research-use and AGPL licences): never trained on.
HELD_OUT_SETS = ("cleaneval", "dragnet")
# The first sets use the shingle metric (CJK needs it), the second batch WCXB's word F1.
SHINGLE_SETS = ("articles-en", "articles-zh", "articles-multi", "forums")

_LINK_URL_RE = re.compile(
    r"""<(?:link[^>]+rel=["']?canonical|meta[^>]+property=["']?og:url)[^>]*?(?:href|content)=["']([^"']+)""",
    re.I,
)


def page_group(record: dict, html: str) -> str:
    """The grouping key of a page: its domain, else its own id."""
    domain = registered_domain(record.get("url"))
    if domain is None:
        match = _LINK_URL_RE.search(html[:200_000])
        domain = registered_domain(match.group(1)) if match else None
    return domain or f"page:{record['id']}"


def load_corpus(sets: tuple[str, ...], limit: int | None = None) -> list[tuple[str, dict, str, str]]:
    """(set name, truth record, decoded html, group) for every page of the sets."""
    out = []
    for name in sets:
        for record, html in load_texts(name, limit):
            out.append((name, record, html, page_group(record, html)))
    return out
