"""Per-line features of a whole page, for the learned main-text decision.

The unit the model decides on is a *line* of the page's visible text (a
paragraph, a list item, a table row, a heading), as the text writer of the
default extractor emits it, together with the *block* that owns it (the
block-level element whose own text holds the line's first character).
Lines are what the gold texts are made of, so a kept or dropped line is
exactly what the metric sees.

The features are the seeds' signals, computed once per page by
:class:`~.region.PageBlocks`, read at the owning block and at its
ancestors, plus what the rule-based region choice of :mod:`.combined`
makes of the page (the rules become one voice among the features):

* token and link counts, punctuation density (seed 000's vvtc), the block
  weight words-minus-links-minus-cost (seeds 001 and 003);
* share of the page's tokens, link density and subtree score of the
  ancestors 1-4 levels up (seed 003's subtree weight; seed 001's link
  table grows upward the same way);
* boilerplate and main-text class/id vocabulary, hidden markup, dialogs
  (``<dialog>``, role=dialog, aria-modal: consent banners and pop-ups),
  and the enclosing tags (nav, header, footer, aside, form, list, table,
  heading);
* overlap with the <title> (seed 002's title similarity), position in the
  page, repetition of the line, the neighbours' figures;
* whether the rule-chosen region holds the line, how far it is from it.

The second stage of the model (:func:`context_features`) reads the first
stage's probabilities in context: neighbours, sections (ancestors), the
line's template (its sibling cards or posts: mean, best and kept share),
the best line of its nearest sections, the link-list text beside it, and
the page's own scale (line length against the median, probability
against the page's best).

Everything is computed with array operations over the element table (the
walk of :class:`PageBlocks` is the only pass over the tree), so the cost
grows with the number of lines, not with pages' nesting.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from itertools import compress, repeat

import numpy as np

from ..lang import TOKEN_RE
from .combined import Params, _lines, _segments, _skipped, choose_regions, is_thread
from .region import (
    _ASCII_PUNCT_BYTES,
    _ASCII_WORDS_RE,
    _DIGITS_RE,
    _HINT_SPLIT_RE,
    _WORD_BYTES,
    PUNCT_RE,
    PageBlocks,
)

# Enclosing-tag groups: one bit each, inherited down the subtree.
_TAG_GROUPS: tuple[tuple[str, frozenset[str]], ...] = (
    ("in_nav", frozenset(("nav", "menu"))),
    ("in_header", frozenset(("header",))),
    ("in_footer", frozenset(("footer",))),
    ("in_aside", frozenset(("aside",))),
    ("in_form", frozenset(("form", "fieldset"))),
    ("in_list", frozenset(("ul", "ol", "dl"))),
    ("in_table", frozenset(("table",))),
    ("in_heading", frozenset(("h1", "h2", "h3", "h4", "h5", "h6"))),
    ("in_article", frozenset(("article", "main"))),
    ("in_quote", frozenset(("blockquote", "pre", "code"))),
)
_TAG_BITS: dict[str, int] = {
    tag: 1 << bit for bit, (_, group) in enumerate(_TAG_GROUPS) for tag in group
}
# The owner's own tag, as one-hot groups.
_OWN_TAGS: tuple[tuple[str, frozenset[str]], ...] = (
    ("is_p", frozenset(("p",))),
    ("is_li", frozenset(("li", "dd", "dt"))),
    ("is_cell", frozenset(("td", "th", "tr"))),
    ("is_h1", frozenset(("h1",))),
    ("is_h", frozenset(("h2", "h3", "h4", "h5", "h6"))),
    ("is_div", frozenset(("div", "section", "article", "main", "body"))),
    ("is_pre", frozenset(("pre", "blockquote"))),
)
# Class/id vocabulary, one feature per group, seen on the owner or up to
# three wrappers above it: richer evidence than the boilerplate / main-text
# verdict, and the model weighs each group itself.
_NAME_GROUPS: tuple[tuple[str, frozenset[str]], ...] = tuple(
    (f"name_{group}", frozenset(words.split())) for group, words in (
        ("content", "content contents main body text txt"),
        ("article", "article story entry news blog detail details"),
        ("post", "post posts postbody postmessage message messages"),
        ("comment", "comment comments reply replies respond discussion"),
        ("qa", "answer answers question questions"),
        ("thread", "thread topic forum floor"),
        ("title", "title headline heading subtitle"),
        ("meta", "meta info byline dateline date time timestamp published"),
        ("author", "author authors user username avatar profile signature"),
        ("tag", "tag tags category categories topics label labels"),
        ("share", "share sharing social sns follow"),
        ("related", "related recommend recommended more popular trending hot rank"),
        ("footer", "footer foot copyright bottom"),
        ("header", "header head masthead top topbar banner"),
        ("nav", "nav navbar navigation menu breadcrumb breadcrumbs crumbs"),
        ("sidebar", "sidebar aside rail widget widgets"),
        ("ad", "ad ads advert advertisement sponsor sponsored promo adsense"),
        ("caption", "caption credit credits figure photo image img gallery"),
        ("product", "product products price cart buy shop sku"),
        ("summary", "summary excerpt teaser intro lead abstract description desc"),
        ("card", "card cards item items tile tiles grid"),
        ("list", "list listing feed stream archive index"),
        ("pager", "pagination pager paging page pages next prev"),
        ("signup", "subscribe newsletter signup login register cookie consent modal popup"),
        ("hidden", "hidden hide sronly visually collapse"),
        ("quote", "quote blockquote code highlight"),
        ("toc", "toc contents footnote footnotes notes references"),
    )
)
_OWN_TAG_CODES: dict[str, int] = {tag: code for code, (_, group) in enumerate(_OWN_TAGS) for tag in group}
_NAME_BITS: dict[str, int] = {}
#: Every vocabulary word with the groups it belongs to: a class string's
#: groups are the OR of its words' (a look-up per word, not a test per group).
_WORD_BITS: dict[str, int] = {}
for _bit, (_, _group) in enumerate(_NAME_GROUPS):
    for _word in _group:
        _WORD_BITS[_word] = _WORD_BITS.get(_word, 0) | 1 << _bit
_LEVELS = 4
_NEIGHBOURS = (-2, -1, 1, 2)

FEATURE_NAMES: tuple[str, ...] = (
    "line_tokens", "line_log_chars", "line_punct", "line_title_overlap", "line_is_h1_text",
    "line_repeats", "line_pos_tokens", "line_pos_index",
    "block_tokens", "block_link_share", "block_punct", "block_base", "block_weight",
    "block_neg", "block_neg_self", "block_pos", "block_hidden", "block_depth",
    *(name for name, _ in _OWN_TAGS),
    *(name for name, _ in _TAG_GROUPS),
    *(name for name, _ in _NAME_GROUPS),
    *(f"up{k}_{what}" for k in range(1, _LEVELS + 1)
      for what in ("token_share", "link_share", "score", "neg")),
    "rule_kept", "rule_region", "rule_skipped", "rule_distance",
    *(f"nb{d:+d}_{what}" for d in _NEIGHBOURS for what in ("tokens", "link_share", "rule_kept")),
    "page_log_tokens", "page_link_share", "page_log_lines", "page_thread", "rule_share",
    "template_log_lines", "template_token_share", "in_dialog",
)


CONTEXT_NAMES: tuple[str, ...] = (
    "p_line", "p_prev", "p_next", "p_window2", "p_window5",
    *(f"p_up{k}" for k in range(1, _LEVELS + 1)), "p_page", "p_page_max", "p_template",
    "template_kept_share", "template_max", *(f"p_up{k}_max" for k in range(1, 4)),
    "up1_link_lists", "up2_link_lists", "tokens_vs_median", "p_vs_page_max", "page_kept_share",
)
#: First-stage probability at which a line counts as kept in the context
#: features (the shipped model's threshold).
_CONTEXT_KEPT = 0.45
_TOKENS = FEATURE_NAMES.index("line_tokens")
_LINK_SHARE = FEATURE_NAMES.index("block_link_share")


@dataclass
class PageLines:
    """The page's visible lines, their owners and feature rows."""

    texts: list[str]
    owners: list[int]
    features: np.ndarray  # shape (len(texts), len(FEATURE_NAMES)), float32
    thread: bool
    #: For each ancestor level, the range [lo, hi) of lines (in ``order``)
    #: whose owner lies in that ancestor's subtree.
    order: np.ndarray | None = None
    ranges: list[tuple[np.ndarray, np.ndarray]] | None = None
    #: Template group of every line: lines whose owner and its parent share
    #: tag and class (digits dropped), such as the posts of a thread.
    templates: np.ndarray | None = None

    def context(self, p: np.ndarray) -> np.ndarray:
        """Second-stage features of the first stage's line probabilities."""
        return context_features(self.features, self.order, self.ranges or [], self.templates, p)


def context_features(features: np.ndarray, order: np.ndarray,
                     ranges: list[tuple[np.ndarray, np.ndarray]], templates: np.ndarray,
                     p: np.ndarray) -> np.ndarray:
    """The first stage's line probabilities, read in context.

    Main text comes in runs and in sections: the mean probability of the
    neighbouring lines and of the lines under each ancestor (weighted by
    tokens) tells a teaser title among kept snippets from a lone menu
    item, and one stray line from a run of prose.
    """
    m = len(p)
    tok = features[:, _TOKENS].astype(np.float64) + 1.0
    out = np.zeros((m, len(CONTEXT_NAMES)), np.float32)
    out[:, 0] = p
    out[:, 1] = np.concatenate(([-1.0], p[:-1]))
    out[:, 2] = np.concatenate((p[1:], [-1.0]))
    pos = np.arange(m)
    cum_p = np.concatenate(([0.0], np.cumsum(p * tok)))
    cum_t = np.concatenate(([0.0], np.cumsum(tok)))
    for col, width in ((3, 2), (4, 5)):
        lo, hi = np.maximum(pos - width, 0), np.minimum(pos + width + 1, m)
        out[:, col] = (cum_p[hi] - cum_p[lo]) / (cum_t[hi] - cum_t[lo])
    weighted = np.concatenate(([0.0], np.cumsum((p * tok)[order])))
    mass = np.concatenate(([0.0], np.cumsum(tok[order])))
    for k, (lo, hi) in enumerate(ranges):
        out[:, 5 + k] = (weighted[hi] - weighted[lo]) / np.maximum(mass[hi] - mass[lo], 1e-9)
    out[:, 5 + _LEVELS] = float((p * tok).sum() / tok.sum())
    out[:, 6 + _LEVELS] = float(p.max())
    # Lines built from one template (posts, cards) are decided together.
    group_p = np.bincount(templates, weights=p * tok)
    group_t = np.bincount(templates, weights=tok)
    out[:, 7 + _LEVELS] = group_p[templates] / group_t[templates]
    _siblings_in_context(out[:, 8 + _LEVELS:], features, order, ranges, templates, p, tok, mass)
    # How much of the page the first stage keeps: a page kept nearly whole
    # (a listing) or barely (one post under menus) sets the bar for a line.
    out[:, -1] = float(tok[p >= _CONTEXT_KEPT].sum() / tok.sum())
    return out


def _siblings_in_context(out: np.ndarray, features: np.ndarray, order: np.ndarray,
                         ranges: list[tuple[np.ndarray, np.ndarray]], templates: np.ndarray,
                         p: np.ndarray, tok: np.ndarray, mass: np.ndarray) -> None:
    """The line's block among its siblings: what of its template and sections is kept.

    Cards, posts and list items are built from one template: the share of
    the template's lines the first stage keeps and its best line tell a
    weak card of a kept listing from a lone teaser.  The best line under
    each of the three nearest ancestors completes a section around a
    strong paragraph (a mean is pulled down by the section's menus).  The
    share of link-list text beside the line (readability's link-density
    penalty, read at the parent and grandparent) marks sidebars of
    prose-like link lists.  The line's length against the page's median
    and its probability against the page's best set the page's own scale.
    ``mass``: the running sum of tokens in document order, as
    :func:`context_features` built it for the ancestors' means.
    """
    m = len(p)
    cnt = np.bincount(templates)
    kept = np.bincount(templates, weights=(p >= _CONTEXT_KEPT).astype(np.float64))
    out[:, 0] = kept[templates] / cnt[templates]
    by_template = np.argsort(templates, kind="stable")
    firsts = np.flatnonzero(cnt)
    best = np.zeros(len(cnt))
    best[firsts] = np.maximum.reduceat(p[by_template], np.cumsum(cnt)[firsts] - cnt[firsts])
    out[:, 1] = best[templates]
    # The three levels' ranges in one look-up (fewer array calls per page).
    lo, hi = (np.concatenate(side) for side in zip(*ranges[:3], strict=True))
    out[:, 2:5] = _range_max(_max_table(p[order]), lo, hi).reshape(3, -1).T
    linky = (features[:, _LINK_SHARE] > 0.5) * tok
    link_mass = np.concatenate(([0.0], np.cumsum(linky[order])))
    lo, hi = lo[:2 * m], hi[:2 * m]
    share = (link_mass[hi] - link_mass[lo]) / np.maximum(mass[hi] - mass[lo], 1e-9)
    out[:, 5:7] = share.reshape(2, -1).T
    out[:, 7] = tok / max(1.0, float(np.median(tok)))
    out[:, 8] = p / max(1e-6, float(p.max()))


def _max_table(values: np.ndarray) -> np.ndarray:
    """Sparse table of ``values``: row ``j`` holds the maxima of runs of ``2**j`` values.

    Rows are padded to the full length (their last ``2**j - 1`` cells are
    never read), so one fancy-index reads every range at once.
    """
    m = len(values)
    levels = max(1, m.bit_length())
    table = np.full((levels, m), -1.0)
    table[0] = values
    for j in range(1, levels):
        half = 1 << (j - 1)
        table[j, :m - half] = np.maximum(table[j - 1, :m - half], table[j - 1, half:])
    return table


def _range_max(table: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """Maximum of ``values[lo:hi]`` for every range (-1 when empty).

    The sparse table of the values (:func:`_max_table`, built once per page)
    answers every range with two look-ups: the two runs of ``2**j`` values,
    ``2**j`` the largest power of two within the range, cover it.
    """
    length = hi - lo
    level = np.zeros(len(lo), np.int64)
    ok = length > 0
    level[ok] = np.log2(length[ok]).astype(np.int64)
    start = np.minimum(lo, table.shape[1] - 1)
    best = np.maximum(table[level, start], table[level, np.maximum(hi - (1 << level), 0)])
    return np.where(ok, best, -1.0)


def page_lines(pb: PageBlocks, prm: Params) -> PageLines:
    """Every visible line of the page with its feature row."""
    body = pb.tags.index("body") if "body" in pb.tags else 0  # C-level scans of the tables
    dead = set(compress(range(len(pb.dead)), pb.dead))
    lines = _lines(_segments(pb, body, dead))
    regions = choose_regions(pb, prm)
    thread = is_thread(pb, regions, prm)
    if not lines:
        return PageLines([], [], np.zeros((0, len(FEATURE_NAMES)), np.float32), thread)
    owners = [o for o, _ in lines]
    texts = [t for _, t in lines]
    skipped = _skipped(pb, body, prm)
    rule = _rule_kept(pb, prm, owners, regions)
    templates = _templates(pb, owners)
    feats = _features(pb, owners, texts, rule, regions, skipped, thread, templates)
    order, ranges = _ancestor_ranges(pb, owners)
    return PageLines(texts, owners, feats, thread, order, ranges, templates)


def _templates(pb: PageBlocks, owners: list[int]) -> np.ndarray:
    """Template group id of every line (owner's and parent's tag and class, no digits)."""
    ids: dict[tuple, int] = {}
    memo: dict[int, int] = {}
    parent = pb.parent
    out = np.empty(len(owners), np.int64)
    for k, o in enumerate(owners):
        g = memo.get(o)
        if g is None:
            p = parent[o]
            key = (pb.signature(o), pb.signature(p) if p >= 0 else None)
            g = memo[o] = ids.setdefault(key, len(ids))
        out[k] = g
    return out


def _rule_kept(pb: PageBlocks, prm: Params, owners: list[int], regions: list[int]) -> np.ndarray:
    """Which of the page's lines the rules keep (as :func:`.combined.rule_lines` would).

    Read off the page's lines rather than by writing the regions' text a
    second time: a line is kept when its owner lies in a region and outside
    what the region's filters skip, between the first and the last line of
    a block with positive weight (the rules' edge trim).
    """
    n = len(pb.els)
    own = np.asarray(owners, np.int64)
    kept = np.zeros(len(owners), bool)
    end = pb.end
    for region in regions:
        skip = sorted(_skipped(pb, region, prm))
        inside = _inside(n, [region], [end[region]]) & ~_inside(n, skip, [end[i] for i in skip])
        kept |= inside[own]
    weight = np.asarray(pb.weight, np.float64)[own]
    good = np.flatnonzero(kept & (weight > prm.edge_min_weight))
    if len(good):
        span = np.zeros(len(owners), bool)
        span[good[0]:good[-1] + 1] = True
        kept &= span
    return kept.astype(np.float64)


def _ancestor_ranges(pb: PageBlocks, owners: list[int]) -> tuple[np.ndarray, list[tuple[np.ndarray, np.ndarray]]]:
    """Per ancestor level, the lines under each line's ancestor, as ranges of sorted owners."""
    own = np.asarray(owners, np.int64)
    order = np.argsort(own, kind="stable")
    sorted_own = own[order]
    parent = np.asarray(pb.parent, np.int64)
    parent[parent < 0] = 0
    end = np.asarray(pb.end, np.int64)
    ranges = []
    anc = own
    for _ in range(_LEVELS):
        anc = parent[anc]
        ranges.append((np.searchsorted(sorted_own, anc, "left"), np.searchsorted(sorted_own, end[anc], "left")))
    return order, ranges


def _inside(n: int, starts, ends) -> np.ndarray:
    """Boolean array: element index lies in one of the ranges [start, end)."""
    if not len(starts):
        return np.zeros(n, bool)
    # bincount, not np.add.at: the same counts, several times faster.
    diff = np.bincount(np.asarray(starts, np.intp), minlength=n + 1) - np.bincount(
        np.asarray(ends, np.intp), minlength=n + 1)
    return np.cumsum(diff[:n]) > 0


def _features(pb: PageBlocks, owners: list[int], texts: list[str],
              rule_kept: np.ndarray, regions: list[int], skipped: set[int],
              thread: bool, templates: np.ndarray) -> np.ndarray:
    n = len(pb.els)
    end = pb.end
    tags = pb.tags
    own = np.asarray(owners, np.int64)
    m = len(owners)
    tok = np.asarray(pb.tok, np.float64)
    link = np.asarray(pb.link, np.float64)
    punct = np.asarray(pb.punct, np.float64)
    total = np.asarray(pb.total_tokens, np.float64)
    total_links = np.asarray(pb.total_links, np.float64)
    score = np.asarray(pb.score, np.float64)
    parent = np.asarray(pb.parent, np.int64)
    parent[parent < 0] = 0
    page_tok = max(1.0, float(total[0]))
    page_mass = max(1.0, float(pb.mass[0]))

    # Line-level figures.
    token_counts: list[int] = []
    line_punct = np.empty(m, np.float64)
    line_chars = np.fromiter(map(len, texts), np.float64, m)
    title_tokens = _title_tokens(pb)
    overlap = np.zeros(m, np.float64)
    ascii_words, all_words, puncts = _ASCII_WORDS_RE.findall, TOKEN_RE.findall, PUNCT_RE.findall
    word_bytes, ascii_marks = _WORD_BYTES, _ASCII_PUNCT_BYTES
    in_title, lower = title_tokens.__contains__, str.lower
    for k, text in enumerate(texts):
        if text.isascii():
            # Counted on the bytes as PageBlocks counts its pieces (the same
            # \w+ runs and marks, no list of match strings); the words
            # themselves only when the title overlap reads them.
            raw = text.encode()
            count = len(raw.translate(word_bytes).split())
            line_punct[k] = len(raw) - len(raw.translate(None, ascii_marks))
            words = ascii_words(text) if title_tokens and 0 < count <= 40 else None
        else:
            words = all_words(text)
            count = len(words)
            line_punct[k] = len(puncts(text))
        token_counts.append(count)
        if words and title_tokens and count <= 40:
            overlap[k] = sum(map(in_title, map(lower, words))) / count
    line_tok = np.asarray(token_counts, np.float64)
    pb.line_tokens.update(zip(texts, token_counts, strict=True))
    counts = Counter(texts)
    repeats = np.asarray([counts[t] for t in texts], np.float64)
    cum = np.concatenate(([0.0], np.cumsum(line_tok)[:-1]))
    h1_texts = {" ".join(text.split()) for text in pb.tag_texts("h1")}

    # Element-level flags, inherited down subtrees by range marking.
    cols: dict[str, np.ndarray] = {}
    tag_bits = np.fromiter(map(_TAG_BITS.get, tags, repeat(0, n)), np.int64, n)
    ends = np.asarray(end, np.int64)
    for bit, (name, _) in enumerate(_TAG_GROUPS):
        idx = np.flatnonzero(tag_bits & (1 << bit))
        cols[name] = _inside(n, idx, ends[idx])[own]
    own_tag = np.fromiter(map(_OWN_TAG_CODES.get, map(tags.__getitem__, owners), repeat(-1, m)), np.int64, m)
    for code, (name, _) in enumerate(_OWN_TAGS):
        cols[name] = (own_tag == code).astype(np.float64)
    names = _name_bits(pb, owners, parent)
    for bit, (name, _) in enumerate(_NAME_GROUPS):
        cols[name] = (names >> bit) & 1
    unseen = pb._unseen(pb.neg)
    hidden = np.asarray(unseen, bool)[own] if unseen is not None else np.zeros(m, bool)
    depth = _depths(np.asarray(pb.parent, np.int64))

    block_tok = tok[own]
    safe = np.maximum(block_tok, 1.0)
    weight = np.asarray(pb.weight, np.float64)
    base = np.asarray(pb.base, np.float64)
    neg = np.asarray(pb.neg, np.float64)

    region_in = _inside(n, list(regions), [end[r] for r in regions])[own]
    skip_idx = sorted(skipped)
    skip_in = _inside(n, skip_idx, [end[i] for i in skip_idx])[own]
    distance = _distance(rule_kept)

    out = np.zeros((m, len(FEATURE_NAMES)), np.float32)
    col = {name: k for k, name in enumerate(FEATURE_NAMES)}

    def put(name: str, values) -> None:
        out[:, col[name]] = values

    put("line_tokens", line_tok)
    put("line_log_chars", np.log1p(line_chars))
    put("line_punct", line_punct / np.maximum(line_tok, 1.0))
    put("line_title_overlap", overlap)
    put("line_is_h1_text", [t in h1_texts for t in texts])
    put("line_repeats", repeats)
    put("line_pos_tokens", cum / page_tok)
    put("line_pos_index", np.arange(m) / max(1, m - 1))
    put("block_tokens", block_tok)
    put("block_link_share", link[own] / safe)
    put("block_punct", punct[own] / safe)
    put("block_base", base[own] / safe)
    put("block_weight", weight[own] / safe)
    put("block_neg", neg[own])
    put("block_neg_self", np.asarray(pb.neg_self, np.float64)[own])
    put("block_pos", np.asarray(pb.pos, np.float64)[own])
    put("block_hidden", hidden)
    put("block_depth", depth[own])
    for name in cols:
        put(name, cols[name])
    anc = own
    for k in range(1, _LEVELS + 1):
        anc = parent[anc]
        t = total[anc]
        put(f"up{k}_token_share", t / page_tok)
        put(f"up{k}_link_share", total_links[anc] / np.maximum(t, 1.0))
        put(f"up{k}_score", score[anc] / page_mass)
        put(f"up{k}_neg", neg[anc])
    put("rule_kept", rule_kept)
    put("rule_region", region_in)
    put("rule_skipped", skip_in)
    put("rule_distance", distance)
    link_share = link[own] / safe
    for d in _NEIGHBOURS:
        idx = np.clip(np.arange(m) + d, 0, m - 1)
        valid = (np.arange(m) + d >= 0) & (np.arange(m) + d < m)
        put(f"nb{d:+d}_tokens", np.where(valid, line_tok[idx], -1.0))
        put(f"nb{d:+d}_link_share", np.where(valid, link_share[idx], -1.0))
        put(f"nb{d:+d}_rule_kept", np.where(valid, rule_kept[idx], -1.0))
    put("page_log_tokens", np.log1p(page_tok))
    put("page_link_share", float(total_links[0]) / page_tok)
    put("page_log_lines", np.log1p(m))
    put("page_thread", float(thread))
    put("rule_share", float((line_tok * rule_kept).sum()) / max(1.0, float(line_tok.sum())))
    put("template_log_lines", np.log(np.bincount(templates)[templates]))
    put("template_token_share", np.bincount(templates, weights=line_tok)[templates] / max(1.0, float(line_tok.sum())))
    # Dialogs (<dialog>, role=dialog, aria-modal): what floats over the page.
    dialogs = pb.dialogs
    if "dialog" in tags:  # a C-level scan; the tag is rare
        dialogs = sorted({*dialogs, *(i for i, tag in enumerate(tags) if tag == "dialog")})
    put("in_dialog", _inside(n, dialogs, [end[i] for i in dialogs])[own])
    return out


def _bits_of(names: str) -> int:
    """Bit mask of the vocabulary groups a class or id string names (memoised).

    Digits are dropped from the key: ids such as "post-123456" are unique
    per element but name the same groups.
    """
    bits = _NAME_BITS.get(names)
    if bits is None:
        key = _DIGITS_RE.sub("", names)
        bits = _NAME_BITS.get(key)
        if bits is None:
            bits = 0
            for word in _HINT_SPLIT_RE.split(key):  # split first: camelCase needs the capitals
                bits |= _WORD_BITS.get(word.lower(), 0)
        if len(_NAME_BITS) > 100_000:  # bounded: unique names must not grow it forever
            _NAME_BITS.clear()
        _NAME_BITS[names] = _NAME_BITS[key] = bits
    return bits


def _name_bits(pb: PageBlocks, owners: list[int], parent: np.ndarray, levels: int = 3) -> np.ndarray:
    """Vocabulary groups named on each owner or its ``levels`` nearest wrappers.

    ``parent`` is the parent table with the root's ``-1`` clamped to 0 (so
    the root is its own parent: a chain reaching it reads the root once
    more, which ORs nothing new).  The class/id strings, kept by the walk
    of :class:`PageBlocks` (class and id joined by a space name the same
    groups as the two apart), are read once per distinct element of the
    chains; the chains are combined as arrays.
    """
    chains = [np.asarray(owners, np.intp)]
    for _ in range(levels):
        chains.append(parent[chains[-1]])
    wanted = np.unique(np.concatenate(chains))
    names = pb.names
    table = np.zeros(len(names), np.int64)
    # The memo is read here first (a function call fewer per element), and
    # the table filled by one array store.
    known = _NAME_BITS.get
    bits = []
    for a in wanted.tolist():
        text = names[a]
        if not text:
            bits.append(0)
        else:
            hit = known(text)
            bits.append(hit if hit is not None else _bits_of(text))
    table[wanted] = bits
    out = table[chains[0]]
    for chain in chains[1:]:
        out |= table[chain]
    return out


def _title_tokens(pb: PageBlocks) -> set[str]:
    return {w.lower() for w in TOKEN_RE.findall(pb.title or "")}


def _depths(parent: np.ndarray) -> np.ndarray:
    """Depth of every element: its number of ancestors (``parent`` is -1 at the root).

    Pointer jumping: each round adds the distance already known at the
    ancestor reached and jumps there, so deep pages take log(depth) rounds
    of array operations rather than a Python step per element.
    """
    n = len(parent)
    up = np.where(parent >= 0, parent, n)  # n: a sink beyond the root
    up = np.append(up, n)
    dist = np.append((parent >= 0).astype(np.int64), 0)
    while True:
        further = up[up] != up
        if not further.any():
            break
        dist = dist + np.where(up < n, dist[up], 0)
        up = up[up]
    return dist[:n].astype(np.float64)


def _distance(kept: np.ndarray, cap: float = 50.0) -> np.ndarray:
    """Lines to the nearest rule-kept line (0 on it; ``cap`` when none)."""
    m = len(kept)
    where = np.flatnonzero(kept)
    if not len(where):
        return np.full(m, cap)
    pos = np.arange(m)
    right = np.searchsorted(where, pos)
    after = np.where(right < len(where), where[np.minimum(right, len(where) - 1)] - pos, cap)
    before = np.where(right > 0, pos - where[np.maximum(right - 1, 0)], cap)
    return np.minimum(np.minimum(after, before), cap)
