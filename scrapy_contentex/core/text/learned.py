"""The default article text extractor: a learned decision for every line of the page.

Rules tuned page by page learn those pages; the decision of which lines are
main text is therefore made by gradient-boosted trees trained on thousands
of pages with gold text from many sites (``training/train_blocks.py``),
over the seeds' signals computed by :mod:`.block_features`.  The rule-based
region choice of :mod:`.combined` is one of those signals, so a thread's
repeated posts, a table, a list or several sections can all be kept where
the model finds them, rather than one region.

The post-processing that measured well stays: seed 001's pattern filters
(copyright, timestamps, post headers, label lines, repeated short lines)
and the headline rule (kept on top of a thread, dropped from an article).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from ..document import Document
from ..trees import TreeEnsemble, read_model
from .block_features import FEATURE_NAMES, PageLines, page_lines
from .code import code_blocks
from .combined import Params, _params, finish
from .comments import article_like, reader_comments
from .rails import teaser_rails
from .region import PageBlocks, page_blocks

#: The model shipped in the package (scrapy_contentex/models/blocks.json).
DEFAULT_MODEL = "blocks"
_RULE_KEPT = FEATURE_NAMES.index("rule_kept")
_QUOTE = [FEATURE_NAMES.index("in_quote"), FEATURE_NAMES.index("name_quote")]
_TOKENS = FEATURE_NAMES.index("line_tokens")
_LINK_SHARE = FEATURE_NAMES.index("block_link_share")


class LineModel:
    """Two stages of trees: each line alone, then each line in its context.

    The second stage reads the first stage's probabilities of the
    neighbouring lines and of the lines in the same sections
    (:func:`.block_features.context_features`).  A file holding a single
    ensemble ("gbdt-binary") is a one-stage model.
    """

    def __init__(self, payload: dict) -> None:
        if payload.get("kind") == "line-model":
            self.first = TreeEnsemble(payload["first"])
            self.second: TreeEnsemble | None = TreeEnsemble(payload["second"])
        else:
            self.first, self.second = TreeEnsemble(payload), None
        self.threshold = float(payload.get("threshold", 0.5))

    def probabilities(self, lines: PageLines) -> np.ndarray:
        p = self.first.predict(lines.features)
        if self.second is None or not len(p):
            return p
        return self.second.predict(np.hstack([lines.features, lines.context(p)]))


@lru_cache(maxsize=8)
def load_line_model(path: str) -> LineModel:
    """The line model in a file, built once per process."""
    return LineModel(read_model(path))


def extract(doc: Document, model: str | LineModel = DEFAULT_MODEL,
            threshold: float | None = None, **params) -> str:
    """Main text of an article, blog post or forum thread; '' when none.

    ``model`` is a model file's path (or a loaded model) to use instead of
    the shipped one; ``threshold`` the probability a line needs to be kept
    (the model's own by default).  Other ``params`` are the rule knobs of
    :class:`.combined.Params`, which shape the features and the filters.
    """
    prm = _params(params)
    line_model = model if isinstance(model, LineModel) else load_line_model(model)
    cut = line_model.threshold if threshold is None else threshold
    pb = page_blocks(doc.tree, prm.region)
    if not pb.els:
        return ""
    lines = page_lines(pb, prm)
    if not lines.texts:
        return ""
    return decide(doc, pb, lines, line_model.probabilities(lines) >= cut, prm)


def decide(doc: Document, pb: PageBlocks, lines: PageLines, keep: np.ndarray, prm: Params) -> str:
    """The text of the lines the model keeps (``keep``), after the rules that follow it.

    Apart from :func:`extract` so that an ablation can score several rule
    settings on one pass of the model.
    """
    if not keep.any():
        # Nothing stands out to the model (a thin page: one paragraph under
        # a title): the rules' region, if any, beats an empty body
        # (measured under grouped CV: forums +0.014, others unchanged).
        keep = lines.features[:, _RULE_KEPT] > 0
    if prm.whole_code_blocks:
        keep |= code_blocks(pb, lines.owners, keep)
    keep &= ~reader_comments(doc, pb, lines, prm.comment_prose_tokens, prm.comment_from_prose,
                             prm.comment_article_tokens, prm.comment_thread_template,
                             prm.comment_declared_article, prm.comment_markup_tokens)
    keep &= ~teaser_rails(keep, lines.templates, lines.features[:, _TOKENS],
                          lines.features[:, _LINK_SHARE], prm.rail_prose_tokens, prm.rail_article_tokens,
                          lambda prose: article_like(doc, pb, lines.owners, prose, prm.comment_declared_article))
    kept = [text for text, k in zip(lines.texts, keep, strict=True) if k]
    in_quote = lines.features[:, _QUOTE].any(axis=1)
    quoted = {text for text, q in zip(lines.texts, in_quote, strict=True) if q}
    return finish(pb, kept, lines.thread, prm, quoted)
