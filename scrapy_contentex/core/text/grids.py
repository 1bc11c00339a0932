"""The largest grid of a page: its repeated sibling items (cards, teasers, rows) and what they hold.

Listing and collection pages are made of a grid of cards; whether their
main text is the grid (a catalogue, an archive) or something beside it (a
category's prose over its products) changes from site to site.  The grid
is found with no per-site rule: a group of at least :data:`MIN_ITEMS`
sibling elements of one signature (tag and class, digits dropped: what
:meth:`.region.PageBlocks.signature` reads) that are not prose blocks
(paragraphs, headings, quotes, inline markup), holding either cards (two
lines or more per item) or a link list; the largest is the one holding
the most line tokens.

Computed with array operations over the lines' ancestor chains (no walk
of the tree), :data:`LEVELS` levels up from each line's owner.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .region import PageBlocks

#: A grid has at least this many items.
MIN_ITEMS = 3
#: Ancestor levels climbed from a line's owner to find the items holding it.
LEVELS = 8
#: Items of these tags are prose or inline markup, not cards (the paragraphs of an article).
PROSE_TAGS = frozenset(("p", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "pre", "br", "span",
                        "a", "b", "strong", "em", "i", "font"))


@dataclass
class Grid:
    """The largest grid of a page: which lines it holds and from which item."""

    lines: np.ndarray  # bool per line
    item: np.ndarray  # item number per line (-1 outside the grid)
    items: int
    images: int  # <img> elements inside the items
    tag: str


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
