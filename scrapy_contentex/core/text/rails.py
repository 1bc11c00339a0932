"""Teaser rails beside an article: lists of linked headlines outside its prose.

News and blog pages surround the story with lists of other stories ("most
read", "more from", video playlists, tag clouds, a carousel of headlines).
Each item is a line that is all link text, and the items repeat one
template.  The line model keeps some of them, since the same lines are the
content of a listing page.  What tells the two apart is the page around
them: on an article a long run of prose, in other markup, holds the text,
and the list lies wholly before or after it and weighs less than it; on a
listing page the list is the bulk of the text and no such prose exists.
A short post (a photo, a note), or a story under a long carousel of other
stories, may weigh less than its rails; when the page says it is one
article (its structured data, or the prose's own markup: see
:mod:`.comments`) it is no listing page, and a smaller run of prose is
enough, whatever the rails weigh.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .comments import prose_lines

#: A rail item: a line whose block is at least this share link text.
_ITEM_LINK_SHARE = 0.6
#: A rail: at least this many kept items of one template...
_MIN_ITEMS = 4
#: ...holding less than this share of the article prose's tokens.
_MAX_WEIGHT = 0.5


def teaser_rails(keep: np.ndarray, templates: np.ndarray, line_tokens: np.ndarray,
                 link_share: np.ndarray, prose_tokens: int, article_tokens: int = 0,
                 is_article: Callable[[np.ndarray], bool] | None = None) -> np.ndarray:
    """Kept lines of linked-item templates lying wholly outside the article's prose.

    A template is a rail when at least four of its lines are kept, every
    kept one is a link item, they all come before the first or after the
    last prose line of the page (prose: kept lines of ten tokens or more,
    at most 30% link text, outside rails), and together they hold less
    than half the prose's tokens.  Nothing unless the prose holds
    ``prose_tokens`` tokens (0: the rule is off), or ``article_tokens``
    (> 0) tokens when ``is_article`` says the prose lines are an article's;
    on such a page the rails' weight does not matter.
    """
    none = np.zeros(len(keep), bool)
    if prose_tokens <= 0 or not keep.any():
        return none
    kept = np.flatnonzero(keep)
    kept_templates = templates[kept]
    ids, counts = np.unique(kept_templates, return_counts=True)
    linked = link_share[kept] >= _ITEM_LINK_SHARE
    rails = [t for t, n in zip(ids.tolist(), counts.tolist(), strict=True)
             if n >= _MIN_ITEMS and linked[kept_templates == t].all()]
    if not rails:
        return none
    in_rail = np.isin(templates, rails) & keep
    prose = keep & ~in_rail & prose_lines(line_tokens, link_share)
    total = float(line_tokens[prose].sum())
    where = np.flatnonzero(prose)
    article = 0 < article_tokens <= total and is_article is not None and is_article(where)
    if total < prose_tokens and not article:
        return none
    weight = np.inf if article else _MAX_WEIGHT * total
    start, end = where[0], where[-1]
    out = none
    for t in rails:
        items = np.flatnonzero(keep & (templates == t))
        outside = items[-1] < start or items[0] > end
        if outside and line_tokens[items].sum() < weight:
            out[items] = True
    return out
