"""Code blocks of a documentation page or a post: kept whole or not at all.

A ``<pre>`` block is one line of the page per source line, and most of its
lines are short, unpunctuated and alike ("-d amount=1099 \\", "import x"):
the line model, which reads each line's figures, keeps a few of them and
drops the rest, and the gold texts of documentation pages hold the whole
snippet.  A code block is one unit: when the model keeps any of its lines,
or the block sits inside the stretch of the page the model keeps (between
its first and last kept lines: a snippet between two paragraphs of a
guide), all of its lines are kept.
"""

from __future__ import annotations

import numpy as np

from .region import PageBlocks


def code_blocks(pb: PageBlocks, owners: list[int], keep: np.ndarray) -> np.ndarray:
    """Lines of the ``<pre>`` blocks to keep whole (see the module docstring)."""
    out = np.zeros(len(owners), bool)
    kept = np.flatnonzero(keep)
    tags, end = pb.tags, pb.end
    if not len(kept) or "pre" not in tags:  # a C-level scan: most pages have no code
        return out
    own = np.asarray(owners, np.intp)
    first, last = kept[0], kept[-1]
    outer_end = -1
    for i, tag in enumerate(tags):
        if tag != "pre" or i < outer_end:
            continue  # a <pre> inside a <pre> belongs to the outer block
        outer_end = end[i]
        lines = np.flatnonzero((own >= i) & (own < outer_end))
        if len(lines) and (keep[lines].any() or (first < lines[0] and lines[-1] < last)):
            out[lines] = True
    return out
