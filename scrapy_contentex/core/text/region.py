"""Learning-free scoring of page regions: one linear pass, then a max-sum choice.

The page is cut into *blocks*: the text owned by a block-level element (its
own text plus the text of its inline descendants, plus tails).  Every block
gets a signed weight that combines the seeds' signals:

* length in tokens, a CJK character counting one (every seed),
* link text, penalised (seed 001's textCnt/linkCnt, seed 003's
  words / links),
* sentence punctuation, rewarded (seed 000's vvtc: prose is punctuated,
  menus and tag clouds are not; CJK and full-width marks count),
* a fixed cost per block, so that many tiny blocks (menus, footers, bylines)
  sum to a negative weight (seed 003's "tags" term),
* boilerplate class/id vocabulary (nav, footer, share, related, sidebar...)
  as *soft* evidence: it flips the sign of the block, unless the hinted
  element (or a template group of hinted siblings) holds most of the prose
  of the page (a wrapper named "content-with-sidebar" must not kill the
  article, nor "comment-item" the replies of a thread),
* hidden markup (display:none, hidden, aria-hidden), under the same veto:
  its text is not seen, so it weighs nothing either way; only the block
  cost remains (a step list whose every image link hides a caption blob
  must not sink below a smaller section beside it).

The main region is the element whose subtree has the largest weight sum, or
the best run of its children (Kadane) when a long list of links sits beside
the paragraphs: adding a sibling full of prose raises the sum, adding a menu
or a list of links lowers it.  Posts of a thread built from one template are
then gathered as siblings (seed 000's aggregation of similar tag paths),
or, when question and answers sit in different wrappers, through the
template their post bodies share (``expand_template``).
All walks are linear and iterative, so 50,000-deep or 20 MB pages stay
cheap.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from functools import cached_property
from itertools import accumulate, compress
from operator import sub

from lxml import etree
from lxml.html import HtmlElement

from ..lang import TOKEN_RE
from ..title import page_title

# Never content: code, embedded objects, form controls, the head, and image
# captions (article truths leave captions out; measured on all sets).
# <nav>, <aside> and <footer> are boilerplate *hints* instead (see below).
DEAD_TAGS = frozenset(
    "script style noscript template iframe svg canvas object embed select button "
    "input textarea link meta head title option datalist map area audio video "
    "source track math figcaption".split()
)

# Tags whose text flows inside the enclosing block.  Anything else (including
# unknown custom elements) starts a block of its own.
INLINE_TAGS = frozenset(
    "a abbr acronym b bdi bdo big cite code del dfn em font i img ins kbd label mark "
    "nobr q rp rt ruby s samp small span strike strong sub sup time tt u var wbr".split()
)

CELL_TAGS = frozenset(("td", "th"))

# Sentence punctuation (ASCII, CJK/full-width, Arabic, Devanagari, Armenian,
# Ethiopic, ...): the signal that text is prose.
PUNCT_RE = re.compile(
    r"[,.;:!?\"'()\u2018-\u201f\u2026\u2014\u00ab\u00bb"
    r"\uff0c\u3002\uff1b\uff1a\uff01\uff1f\u3001\uff08\uff09\u300a\u300b\u3010\u3011"
    r"\u300c\u300d\u300e\u300f\u3008\u3009\u060c\u061b\u061f\u06d4\u0964\u0965\u0589\u1362]"
)

_HINT_SPLIT_RE = re.compile(r"[\s_\-:./]+|(?<=[a-z])(?=[A-Z])")

# Generic boilerplate vocabulary in class/id names (word parts, lower case).
NEGATIVE_WORDS = frozenset(
    "nav navbar navigation menu menubar breadcrumb breadcrumbs crumbs footer foot "
    "sidebar aside widget widgets share sharing social sns related recommend "
    "recommended recommendation promo promotion sponsor sponsored advert advertisement "
    "ad ads adsense banner subscribe newsletter signup login register "
    "cookie cookies popup modal toolbar topbar masthead copyright disclaimer pagination "
    "pager tags tag tagcloud hot rank ranking trending popular outbrain taboola "
    "byline author bio dateline meta print email rss skip hidden sronly tooltip "
    "jump links linklist consent gdpr onetrust hide caption credit credits gallery slideshow "
    # Forms (comment, search, contact, signup forms) and WordPress's comment
    # reply box ("respond"): labels and consent notices, never the article.
    "form forms respond "
    # Site notices: announcements, alerts and callout boxes above a thread or question.
    "alert alerts callout announcement announcements notice notices".split()
)
# "comment" is deliberately absent: replies are the content of a thread, and
# measured over all sets, leaving comments to the link/prose signals costs
# articles far less than hinting them costs forums.
# Vocabulary that marks the main text; cancels a negative word on the same element.
POSITIVE_WORDS = frozenset(
    "article content main body entry post text story news detail details "
    "thread message postbody postmessage reply answer question blog".split()
)
# Class/id words naming the posts of a thread (forum posts, replies, Q&A
# answers, comments): the evidence expand_template() needs before it
# gathers same-template bodies that are not siblings.
THREAD_WORDS = frozenset(
    "post posts postbody postmessage postcontent message messages reply replies answer "
    "answers comment comments thread topic question floor".split()
)
# The same without "post"/"message": blogs name an article "post" too, so
# these alone say a lone block is one post of a discussion.
DISCUSSION_WORDS = THREAD_WORDS - {"post", "posts", "postcontent", "message", "messages"}
# Hidden by markup (style, hidden, aria-hidden): hinted rather than dead, so
# that an article hidden until a script reveals it survives through the veto.
_HIDDEN_STYLE_RE = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.I)


@dataclass
class RegionParams:
    """Weights of the block score; each is a plain, documented knob.

    The defaults were chosen by measuring on all four development sets
    together (articles en/zh/multi and forums), never on a single page.
    """

    #: Fixed cost of a block, in tokens: a 3-word menu item scores below zero,
    #: a 40-word paragraph far above (seed 003's per-tag cost).
    block_cost: float = 4.0
    #: Each token of link text costs this much (seed 001: link text is noise).
    link_penalty: float = 1.5
    #: Share of the block cost a table cell pays: a data table is many short
    #: unpunctuated cells that are content all the same (standings, stats);
    #: link-filled layout cells still lose through the link penalty.
    cell_cost_factor: float = 0.0
    #: Share of the block cost paid inside an element named like the main
    #: text (article, content, entry, post...): short lines of a blog entry
    #: or a poem are content there, menus elsewhere.
    positive_cost_factor: float = 0.75
    #: Multiplier for unpunctuated text; punctuated prose gets up to 1.0.
    unpunctuated_factor: float = 0.35
    #: Punctuation marks per token that count as fully "prose-like"; English
    #: prose has about one mark per 10-12 words, Chinese one per 8-15 chars.
    prose_punct_ratio: float = 0.06
    #: Weight multiplier applied to blocks inside boilerplate-hinted elements
    #: (negative: hinted text pulls a region's score down).
    hint_factor: float = -0.5
    #: A hinted element keeping this share of the page's prose (or of its
    #: nearest hinted ancestor already recognised as content) is a wrapper,
    #: not boilerplate, and its hint is ignored.
    hint_veto_share: float = 0.8
    #: Hinted siblings sharing a template are judged as one group when there
    #: are at least this many (replies of a thread); fewer are judged alone.
    hint_group_min: int = 3
    #: A run of children replaces its whole parent only when leaving the
    #: other children out gains this much: cutting off short trailing
    #: paragraphs or lists (slightly negative) is not worth it, cutting a
    #: long list of links is.
    run_min_gain: float = 100.0
    #: ...and at least this share of the run's own score.
    run_min_gain_ratio: float = 0.5
    #: How many levels above the best element to look for repeated posts
    #: (measured: 4 misses posts whose text sits deep in the post template,
    #: 12 starts merging article sections).
    repeat_levels: int = 6
    #: A sibling with the same tag/class signature counts as a post when its
    #: prose mass is at least this (tokens-equivalent).
    repeat_min_mass: float = 8.0
    #: Repeated posts are matched on tag + first class word (a post's state
    #: classes vary) rather than on the whole class string.
    loose_repeat: bool = True
    #: How many levels above the best element to look for the named element
    #: that is the post-body template (expand_template).
    template_levels: int = 3
    #: A positive word (article, content, post...) on the same element cancels
    #: a negative one.  Measured: turning this off ("article-newsletter" is
    #: boilerplate) gains a little on some articles but loses whole pages
    #: whose main wrapper is named like "content-sidebar" or "post-widget".
    positive_cancels: bool = True
    #: Extra words counted as boilerplate vocabulary.
    extra_negative: frozenset[str] = field(default_factory=frozenset)
    #: Read the text inside <noscript> (see :func:`page_blocks`).
    read_noscript: bool = False


class PageBlocks:
    """Per-element figures of one page, in document order (index = position).

    Arrays rather than objects: a 20 MB page has hundreds of thousands of
    elements and this is the only pass that touches all of them.
    """

    def __init__(self, root: HtmlElement, params: RegionParams | None = None) -> None:
        self.params = params or RegionParams()
        self.root = root
        self._sigs: dict[int, tuple[str, str]] = {}
        self._tag_texts: dict[str, list[str]] = {}
        #: Token counts of the page's lines, when the line features have
        #: counted them (:func:`.block_features.page_lines`): the pattern
        #: filter of :func:`.combined.finish` reads them rather than count again.
        self.line_tokens: dict[str, int] = {}
        self._scan()
        self._weigh()

    # -- pass 1: structure, text ownership, counts ----------------------------
    def _name_table(self):
        """A memoised ``class/id string -> (boilerplate, main text)`` verdict.

        Returns the memo's lookup and the function that judges (and
        remembers) a string the memo lacks: the scan calls the lookup alone
        for nearly every element, a Python call fewer each.

        Pages repeat a few hundred class strings over thousands of elements,
        and pages of one site share them: the memo lives at module level,
        one per vocabulary setting, and is emptied when it grows too large
        (unique ids such as "post-123456" would otherwise grow it forever).
        """
        key = (self.params.extra_negative, self.params.positive_cancels)
        memo = _NAME_MEMOS.get(key)
        if memo is None:
            memo = _NAME_MEMOS[key] = {}
        if len(memo) > _NAME_MEMO_MAX:
            memo.clear()
        neg_words = NEGATIVE_WORDS | self.params.extra_negative
        cancels = self.params.positive_cancels
        split = _HINT_SPLIT_RE.split

        def verdict(names: str) -> tuple[bool, bool]:
            # Split before lowering: camelCase boundaries are word breaks.
            words = set(split(names))
            if not names.islower():
                words = {w.lower() for w in words}
            positive = not POSITIVE_WORDS.isdisjoint(words)
            negative = not neg_words.isdisjoint(words) and not (cancels and positive)
            hit = memo[names] = (negative, positive)
            return hit

        return memo.get, verdict

    def _scan(self) -> None:
        """One document-order walk with start/end events (lxml's C walker).

        The hot loop of the extractor, so it does as little per element as
        possible: the parent is the top of a stack of open elements (no
        getparent() call, no element-keyed dict), the end of a subtree is
        known at its end event, and dead subtrees (scripts, inline SVG icons,
        templates) are skipped by the walker itself, their elements never
        reach Python.  Text and tails are counted once per text node.
        A tail belongs to the parent's block; comments only carry a tail.
        """
        # Arrays are filled by index (cheaper than appends), sized ahead and
        # doubled when full (counting the elements first, by XPath, cost a
        # tenth of the walk); unused slots are cut off at the end.
        size = _FIRST_SIZE
        els: list[HtmlElement | None] = [None] * size
        parent = [-1] * size
        tags = [""] * size
        end = [0] * size
        owner = list(range(size))
        dead = [False] * size
        in_link = [False] * size
        neg_self = [False] * size
        hidden_self = [False] * size
        dialogs: list[int] = []
        pos = [False] * size
        names_of: list[str | None] = [None] * size
        classes: list[str | None] = [None] * size
        # Every element's text and tail as read here, kept for the text
        # writer (combined._segments), which would otherwise read them from
        # the tree a second time (an lxml attribute read costs more than the
        # list store).
        texts_of: list[str | None] = [None] * size
        tails_of: list[str | None] = [None] * size
        tok, link, punct = [0] * size, [0] * size, [0] * size
        tokens_of = TOKEN_RE.findall
        # On ASCII text (O(1) to check) the metric's tokens are exactly \w+
        # runs and the marks are ASCII: both are counted on the bytes, by
        # C-level translate and split (about four times faster than re's
        # findall, which builds a list of match strings).
        words_table, ascii_marks = _WORD_BYTES, _ASCII_PUNCT_BYTES
        puncts_of = PUNCT_RE.findall
        hidden_style = _HIDDEN_STYLE_RE.search
        stateless = _STATE_ATTRS.isdisjoint
        known, verdict = self._name_table()
        dead_tags = _SCRIPTED_DEAD_TAGS if self.params.read_noscript else DEAD_TAGS
        inline_tags, pos_tags, neg_tags = INLINE_TAGS, _POS_TAGS, _NEG_TAGS
        stack: list[int] = []
        push, pop = stack.append, stack.pop
        n = 0  # elements registered so far
        tables = ((els, None), (parent, -1), (tags, ""), (end, 0), (dead, False), (in_link, False),
                  (neg_self, False), (hidden_self, False), (pos, False), (names_of, None), (classes, None),
                  (texts_of, None), (tails_of, None), (tok, 0), (link, 0), (punct, 0))
        walker = etree.iterwalk(self.root, events=("start", "end", "comment", "pi"))
        for event, el in walker:
            if event == "end":
                k = pop()
                end[k] = n
                if not stack:
                    continue
                p = stack[-1]
                piece = tails_of[k] = el.tail
            elif event == "start":
                i = n
                n += 1
                if i == size:
                    size = _grow(tables, owner, size)
                tag = el.tag
                els[i] = el
                tags[i] = tag
                if stack:
                    p = parent[i] = stack[-1]
                    link_now = in_link[p] or tag == "a"
                    if tag in inline_tags:
                        o = owner[i] = owner[p]
                    else:
                        o = i
                else:
                    link_now = tag == "a"
                    o = i
                push(i)
                if link_now:
                    in_link[i] = True
                if tag in pos_tags:
                    pos[i] = True
                elif tag in neg_tags:
                    neg_self[i] = True
                elif tag in dead_tags:
                    walker.skip_subtree()
                    dead[i] = True
                    texts_of[i] = el.text
                    continue
                attrs = el.attrib
                if attrs:
                    get = attrs.get
                    cls = classes[i] = get("class")
                    ident = get("id")
                    names = f"{cls} {ident}" if (cls and ident) else (cls or ident)
                    if names:
                        names_of[i] = names
                        hit = known(names)
                        negative, positive = hit if hit is not None else verdict(names)
                        if negative:
                            neg_self[i] = True
                        if positive:
                            pos[i] = True
                    # Hidden markup is boilerplate-hinted rather than dead:
                    # pages that reveal their article by script (display:none
                    # until loaded) keep it through the hint veto, dropdowns
                    # do not.  Checked only when there are other attributes
                    # than class and id (most elements have just those), and
                    # one of them is a state attribute (not a link's href or
                    # an image's src: one C-level set test instead of five reads).
                    if len(attrs) > (cls is not None) + (ident is not None) and not stateless(attrs.keys()):
                        style = get("style")
                        if ((style and hidden_style(style)) or "hidden" in attrs
                                or get("aria-hidden") == "true"):
                            neg_self[i] = hidden_self[i] = True
                        if get("role") in _DIALOG_ROLES or get("aria-modal") == "true":
                            dialogs.append(i)
                piece = texts_of[i] = el.text
                linked = link_now
            else:  # a comment or processing instruction: only its tail counts
                if not stack:
                    continue
                p = stack[-1]
                piece = el.tail
            # Count the text (into its own block) or the tail (into the
            # parent's block, read here only when not blank).
            if piece and not piece.isspace():
                if event != "start":
                    o = owner[p]
                    linked = in_link[p]
                if piece.isascii():
                    raw = piece.encode()
                    k = len(raw.translate(words_table).split())
                    punct[o] += len(raw) - len(raw.translate(None, ascii_marks))
                else:
                    k = len(tokens_of(piece))
                    punct[o] += len(puncts_of(piece))
                tok[o] += k
                if linked:
                    link[o] += k
        for arr in (els, parent, tags, end, owner, dead, in_link, neg_self, hidden_self, pos, names_of,
                    classes, texts_of, tails_of, tok, link, punct):
            del arr[n:]
        self.tok, self.link, self.punct = tok, link, punct
        # Main-text names ("article", "content") pass down to the whole
        # subtree: each outermost named element marks its subtree's range
        # by one slice store (descendants are contiguous), no Python step
        # per element.
        stop = 0
        for i in list(compress(range(n), pos)):
            if i >= stop:
                stop = end[i]
                pos[i:stop] = [True] * (stop - i)
        self.els, self.parent, self.end, self.tags = els, parent, end, tags
        self.dead, self.in_link, self.owner, self.neg_self = dead, in_link, owner, neg_self
        self.hidden_self = hidden_self
        #: Elements marked as dialogs (role=dialog/alertdialog, aria-modal):
        #: consent banners, sign-up and region pop-ups float over the page
        #: whatever their class names say (see block_features' in_dialog).
        self.dialogs = dialogs
        self.pos = pos
        #: Class and id of every element joined by a space (None when neither).
        self.names = names_of
        #: The class attribute of every element whose attributes the scan read
        #: (None otherwise), for :meth:`signature`.
        self.classes = classes
        #: Every element's ``.text`` and ``.tail`` (None for the root's tail).
        self.texts, self.tails = texts_of, tails_of

    # -- pass 2: weights, hints, subtree sums ----------------------------------
    def block_weight(self, i: int) -> float:
        """Signed content weight of the block owned by element ``i`` (no hints)."""
        t = self.tok[i]
        if not t:
            return 0.0
        prm = self.params
        plain = t - self.link[i]
        density = self.punct[i] / t
        prose = min(1.0, density / prm.prose_punct_ratio)
        factor = prm.unpunctuated_factor + (1.0 - prm.unpunctuated_factor) * prose
        cost = prm.block_cost * (prm.cell_cost_factor if self.tags[i] in CELL_TAGS else 1.0)
        if self.pos[i]:
            cost *= prm.positive_cost_factor
        return plain * factor - prm.link_penalty * self.link[i] - cost

    def _weigh(self) -> None:
        """Block weights, subtree sums, hint flags and hinted weights.

        Descendants are contiguous in document order, so every subtree sum
        is a difference of two prefix sums (C-level accumulate) rather than
        a Python loop adding each element into its parent.
        """
        n = len(self.els)
        end, tok, link, punct, tags, pos = self.end, self.tok, self.link, self.punct, self.tags, self.pos
        prm = self.params
        unp = prm.unpunctuated_factor
        ratio, block_cost, cell_cost = prm.prose_punct_ratio, prm.block_cost, prm.cell_cost_factor
        pos_cost, link_penalty = prm.positive_cost_factor, prm.link_penalty
        base = [0.0] * n
        for i in compress(range(n), tok):  # same formula as block_weight()
            t = tok[i]
            prose = min(1.0, punct[i] / t / ratio)
            cost = block_cost * (cell_cost if tags[i] in CELL_TAGS else 1.0)
            if pos[i]:
                cost *= pos_cost
            base[i] = (t - link[i]) * (unp + (1.0 - unp) * prose) - link_penalty * link[i] - cost

        def subtree_sums(values: list) -> list:
            pre = [0, *accumulate(values)]
            # pre[end[i]] - pre[i] for every i, as C-level maps.
            return list(map(sub, map(pre.__getitem__, end), pre))

        # Subtree sums of positive weight ("prose mass"), with hidden text:
        # the veto must see an article hidden until a script reveals it.
        mass = subtree_sums([w if w > 0 else 0.0 for w in base])
        page_mass = mass[0] if n else 0.0
        neg = self._hint_flags(mass, page_mass)
        hint = prm.hint_factor
        weight = [(w * hint if (w > 0 and neg[i]) else w) for i, w in enumerate(base)]
        unseen = self._unseen(neg)
        if unseen is None:
            tot, lnk = subtree_sums(tok), subtree_sums(link)
        else:
            # Hidden and not vetoed: its text neither adds nor costs, nor
            # counts as link text (a hidden caption blob in an image link
            # would weigh as a menu); only each block's markup costs.
            for i in compress(range(n), unseen):
                weight[i] = -block_cost if tok[i] else 0.0
            tot = subtree_sums([0 if u else t for t, u in zip(tok, unseen, strict=True)])
            lnk = subtree_sums([0 if u else k for k, u in zip(link, unseen, strict=True)])
        score = subtree_sums(weight)
        self.base, self.weight, self.score = base, weight, score
        self.mass, self.total_tokens, self.total_links, self.neg = mass, tot, lnk, neg

    def _hint_flags(self, mass: list[float], page_mass: float) -> list[bool]:
        """Which elements lie in boilerplate-hinted subtrees, after the vetoes.

        Hinted siblings built from one template (every reply of a thread
        marked "comment-item") are judged together: if together they hold
        the prose, they are the content, whatever their names say.  The mass
        a hinted element is compared with is the page's, or that of its
        nearest hinted ancestor already recognised as content (a reply
        "comment-item" holding a "comment" div holding "comment-content").
        Only hinted elements are visited; their subtrees are marked by slices.
        """
        n = len(self.els)
        parent, end, neg_self = self.parent, self.end, self.neg_self
        neg = [False] * n
        hinted = list(compress(range(n), neg_self))
        if not hinted:
            return neg
        group_mass: dict[tuple[int, tuple[str, str]], list[float]] = {}
        for i in hinted:
            group_mass.setdefault((parent[i], self.signature(i)), []).append(mass[i])
        share = self.params.hint_veto_share
        min_group = self.params.hint_group_min
        # Sizes and summed masses once per group (thousands of hinted replies).
        group_size_mass = {key: (len(ms), sum(ms)) for key, ms in group_mass.items()}
        # Hinted elements recognised as content that enclose the current one,
        # as (end of subtree, mass): subtrees nest, so the top of this stack
        # is the nearest such ancestor (no walk up the tree: pages nest deep).
        open_refs: list[tuple[int, float]] = []
        for i in hinted:
            while open_refs and open_refs[-1][0] <= i:
                open_refs.pop()
            if neg[i]:
                continue
            ref = open_refs[-1][1] if open_refs else page_mass
            size, total = group_size_mass[(parent[i], self.signature(i))]
            held = total if size >= min_group else mass[i]
            if ref > 0 and held >= share * ref:
                open_refs.append((end[i], mass[i]))
            else:
                e = end[i]
                neg[i:e] = [True] * (e - i)
        return neg

    def _unseen(self, neg: list[bool]) -> list[bool] | None:
        """Elements inside a hidden subtree that the hint veto did not keep (None: none)."""
        hidden = [i for i in compress(range(len(neg)), self.hidden_self) if neg[i]]
        if not hidden:
            return None
        unseen = [False] * len(neg)
        for i in hidden:
            e = self.end[i]
            unseen[i:e] = [True] * (e - i)
        return unseen

    # -- choice ---------------------------------------------------------------
    def best(self) -> int:
        """Index of the element with the largest subtree score (deepest on ties)."""
        best_i, best_s = 0, float("-inf")
        score, dead = self.score, self.dead
        for i, s in enumerate(score):
            if s >= best_s and not dead[i]:
                best_i, best_s = i, s
        return best_i

    def best_run(self) -> tuple[int, list[int] | None]:
        """The best region as (element, run of its children or None for all).

        Articles often put their paragraphs and a long list of "more news"
        links side by side under one element: no element holds the text
        without the list.  The maximum-sum run of consecutive children
        (Kadane's algorithm, one linear pass for all elements) finds the
        paragraphs and leaves the list out; when the run is every child the
        element itself is the region.
        """
        n = len(self.els)
        parent, score, weight, dead = self.parent, self.score, self.weight, self.dead
        cur = [0.0] * n
        cur_start = [-1] * n
        best = [float("-inf")] * n
        best_start = [-1] * n
        best_end = [-1] * n
        for c in range(1, n):
            p = parent[c]
            if p < 0 or dead[c]:
                continue
            if cur[p] <= 0:
                cur[p], cur_start[p] = score[c], c
            else:
                cur[p] += score[c]
            if cur[p] > best[p]:
                best[p], best_start[p], best_end[p] = cur[p], cur_start[p], c
        min_gain, ratio = self.params.run_min_gain, self.params.run_min_gain_ratio
        # Each element's value: its score, or its best run's when cutting the
        # run out gains enough.  Only elements with a run need Python work;
        # the choice (the last of the best, i.e. deepest on ties) is C-level.
        none = float("-inf")
        value = [none if d else s for s, d in zip(score, dead, strict=True)]
        for a in [a for a, start in enumerate(best_start) if start >= 0]:
            # Own text (text between <br>s) cannot be cut into a run: an
            # element with prose of its own competes as a whole.
            if dead[a] or weight[a] > 0:
                continue
            gain = best[a] + weight[a] - score[a]
            if gain > min_gain and gain > ratio * (score[a] + gain):
                value[a] = score[a] + gain
        top_value = max(value) if n else none
        if top_value == none:
            top = self.best()
        else:
            top = n - 1 - value[::-1].index(top_value)
        gain = best[top] + weight[top] - score[top]
        if (best_start[top] < 0 or weight[top] > 0 or gain <= min_gain
                or gain <= ratio * (score[top] + gain)):
            return top, None
        kids = self.children(top)
        run = [c for c in kids if best_start[top] <= c <= best_end[top] and not dead[c]]
        if len(run) == len([c for c in kids if not dead[c]]):
            return top, None
        return top, run

    def tag_texts(self, tag: str) -> list[str]:
        """``text_content()`` of the tree's ``tag`` elements in document order, read once per
        page: the line features and the headline rule both ask for the <h1>s, and each ask
        walked the tree (C-level, yet the whole tree).
        """
        found = self._tag_texts.get(tag)
        if found is None:
            found = self._tag_texts[tag] = [el.text_content() for el in self.root.iter(tag)]
        return found

    @cached_property
    def title(self) -> str | None:
        """The page's ``<title>`` as the metadata reads it (:func:`..title.page_title`: the first
        non-empty one, on one line), read once: the line features' title similarity and the
        headline rule compare lines with the title the reader is shown."""
        return page_title(self.root)

    def subtree_end(self, i: int) -> int:
        """One past the last descendant of ``i`` in document order."""
        return self.end[i]

    # -- repeated structures (forum posts, Q&A answers) ------------------------
    def signature(self, i: int) -> tuple[str, str]:
        """Tag and class (or id) with digits removed: what repeated posts share."""
        sig = self._sigs.get(i)
        if sig is None:
            if self.dead[i]:  # the scan did not read a dead element's attributes
                el = self.els[i]
                names = el.get("class") or el.get("id") or ""
            else:  # as read by the scan: the class, else the id (``names`` alone when no class)
                names = self.classes[i] or self.names[i] or ""
            clean = _SIG_NAMES.get(names)
            if clean is None:
                if len(_SIG_NAMES) > _NAME_MEMO_MAX:
                    _SIG_NAMES.clear()
                clean = _SIG_NAMES[names] = _DIGITS_RE.sub("", names).strip()
            sig = self._sigs[i] = (self.tags[i], clean)
        return sig

    def loose_signature(self, i: int) -> tuple[str, str]:
        """Tag and first class word: posts of one template differ in modifiers.

        Forum software adds state classes to some posts ("post original-author",
        "topic-post group-moderator", "answer accepted-answer"); the first
        class word names the template.
        """
        tag, names = self.signature(i)
        if not (self.params.loose_repeat and names):
            return tag, names
        loose = _LOOSE_NAMES.get(names)
        if loose is None:
            if len(_LOOSE_NAMES) > _NAME_MEMO_MAX:
                _LOOSE_NAMES.clear()
            first = names.split(None, 1)[0]
            # Only post-named templates: generic first words ("col", "row",
            # "field") would join an article's unrelated blocks.
            post_named = not THREAD_WORDS.isdisjoint(
                w.lower() for w in _HINT_SPLIT_RE.split(first))
            loose = _LOOSE_NAMES[names] = first if post_named else names
        return tag, loose

    def children(self, i: int) -> list[int]:
        """Child elements of ``i`` by index (descendants are a contiguous range)."""
        out: list[int] = []
        j, stop = i + 1, self.end[i]
        while j < stop:
            out.append(j)
            j = self.end[j]
        return out

    def expand_repeated(self, best: int) -> list[int]:
        """The best element, or all the similar siblings it repeats among.

        A thread is question + replies in sibling elements built from one
        template; the best single element is one post.  Climbing a few levels,
        the first ancestor whose children repeat the signature of the branch
        holding ``best``, with at least two of them carrying prose, gives the
        whole thread (seed 000's aggregation of nodes with a common tag path).
        """
        prm = self.params
        branch = best
        for _ in range(prm.repeat_levels):
            a = self.parent[branch]
            if a <= 0 or self.tags[a] in ("body", "html"):
                break
            sig = self.loose_signature(branch)
            if sig[1] or sig[0] in ("article", "section", "li"):
                sibs = [c for c in self.children(a)
                        if self.loose_signature(c) == sig and not self.neg[c] and not self.dead[c]]
                posts = [c for c in sibs if self.mass[c] >= prm.repeat_min_mass]
                if len(posts) >= 2:
                    return sibs
            branch = a
        return [best]

    def expand_template(self, best: int) -> list[int]:
        """Post bodies of a thread whose posts sit in different wrappers.

        Q&A pages put the question and the answers in different templates
        (a "question" block, then an "answers" list), and threads nest replies
        at various depths, so the posts are not siblings; but every post's
        *body* is built from one template ("post-body", "cooked", "message").
        The nearest named element around ``best`` (a few levels up) is taken
        as the body template; every other element of the page with the same
        signature, outside boilerplate and carrying prose, is another post.
        Nested matches keep only the outermost one.  Returns ``[best]`` when
        no second post is found.
        """
        prm = self.params
        anchor = best
        for _ in range(prm.template_levels):
            if self.signature(anchor)[1] or anchor <= 0:
                break
            anchor = self.parent[anchor]
        sig = self.signature(anchor)
        if not sig[1] or self.tags[anchor] in ("body", "html"):
            return [best]
        # The chosen post must itself be named as a post (checked first: it
        # spares articles the page scan below).
        if not self.in_thread_markup(anchor):
            return [best]
        found = self._same_template(sig, loose=False)
        posts = [j for j in found if self.mass[j] >= prm.repeat_min_mass]
        if len(posts) < 2 and prm.loose_repeat and self.in_thread_markup(anchor, levels=1):
            # A body named as a post by its own class/id ("md ...", id
            # "t3-post-content"): question and answers may differ in their
            # modifier classes, the first class word is the template.
            found = self._same_template(sig, loose=True)
            posts = [j for j in found if self.mass[j] >= prm.repeat_min_mass]
        end = self.end
        # (A nested reply counts through the outermost post holding it.)
        if len(posts) < 2 or not any(j <= anchor < end[j] for j in found):
            return [best]
        # Articles reuse a body class too (key points, a quote box, teasers
        # sharing "text"): only posts named as posts, replies, answers...
        # (on themselves or a wrapper just above) make a thread.
        if sum(self.in_thread_markup(j) for j in posts) < 2:
            return [best]
        return self._opening_post(found[0]) + found

    def _same_template(self, sig: tuple[str, str], loose: bool) -> list[int]:
        """Outermost elements of the page with signature ``sig`` (outside boilerplate).

        ``loose`` compares only the first class word.
        """
        tags, neg, dead, end = self.tags, self.neg, self.dead, self.end
        tag = sig[0]
        want = sig[1].split(None, 1)[0] if loose else sig[1]
        found: list[int] = []
        stop = -1
        for j in range(len(tags)):
            if j < stop or tags[j] != tag or neg[j] or dead[j]:
                continue
            names = self.signature(j)[1]
            if (names.split(None, 1)[0] if (loose and names) else names) == want:
                found.append(j)
                stop = end[j]
        return found

    def _opening_post(self, first: int) -> list[int]:
        """Prose siblings just before the first post: an opening post written loose.

        Some threads put the first post as plain paragraphs and only the
        replies in post blocks.  Walking back from the first post, the
        preceding siblings whose summed score is best (and positive) are the
        opening post; a menu or a title bar before it sums below zero.
        """
        parent = self.parent[first]
        if parent < 0:
            return []
        before = [c for c in self.children(parent) if c < first
                  and not self.dead[c] and not self.neg[c]]
        total, best_total, cut = 0.0, 0.0, len(before)
        for k in range(len(before) - 1, -1, -1):
            total += self.score[before[k]]
            if total > best_total:
                best_total, cut = total, k
        return before[cut:]

    def in_thread_markup(self, i: int, vocabulary: frozenset[str] = THREAD_WORDS,
                         levels: int = 0) -> bool:
        """A class/id word of ``i`` or of its wrappers a few levels up names a post.

        ``levels`` (0: template_levels + repeat_levels) bounds the climb: page
        wrappers far above carry feature flags ("enableComments").
        """
        a = i
        for _ in range(levels or self.params.template_levels + self.params.repeat_levels):
            if a < 0 or self.tags[a] in ("body", "html"):
                return False
            el = self.els[a]
            names = f"{el.get('class') or ''} {el.get('id') or ''}"
            if names != " ":
                words = set(_HINT_SPLIT_RE.split(names))
                if not names.islower():
                    words = {w.lower() for w in words}
                if not vocabulary.isdisjoint(words):
                    return True
            a = self.parent[a]
        return False


def page_blocks(root: HtmlElement, params: RegionParams | None = None) -> PageBlocks:
    """The page's blocks; from its <noscript> copy when that copy is most of the page's text.

    Sites rendered by script (Discourse forums, many shops) serve the page
    for crawlers inside <noscript>: with scripting off, as a crawler reads
    it, that copy is the page.  It is read when the page shows almost
    nothing else, or when the <noscript> text outweighs the shown text
    ``NOSCRIPT_SHARE`` to one (a script-rendered thread whose crawler copy
    sits beside a header and a cookie notice), so ordinary pages keep
    ignoring their "enable JavaScript" notices and tracking-pixel fallbacks.
    """
    params = params or RegionParams()
    pb = PageBlocks(root, params)
    if params.read_noscript:
        return pb
    shown = pb.total_tokens[0] if pb.total_tokens else 0
    if "noscript" not in pb.tags:  # the scan registered them (dead): no second tree walk
        return pb
    if shown >= NOSCRIPT_PAGE_TOKENS:
        els = pb.els
        noscript = " ".join(t for i in compress(range(len(els)), map("noscript".__eq__, pb.tags))
                            for t in els[i].itertext())
        # A token is at least a character: most pages stop at the length test.
        if len(noscript) < NOSCRIPT_SHARE * shown or len(TOKEN_RE.findall(noscript)) < NOSCRIPT_SHARE * shown:
            return pb
    scripted = PageBlocks(root, replace(params, read_noscript=True))
    return scripted if scripted.total_tokens and scripted.total_tokens[0] > shown else pb


def _grow(tables: tuple[tuple[list, object], ...], owner: list[int], size: int) -> int:
    """Double the scan's per-element lists in place (each with its default; owner[i] = i)."""
    for table, default in tables:
        table.extend([default] * size)
    owner.extend(range(size, 2 * size))
    return 2 * size


#: Initial size of the scan's per-element lists (half the pages have fewer elements).
_FIRST_SIZE = 1024
#: Below this many visible tokens a page "shows nothing" (see page_blocks).
NOSCRIPT_PAGE_TOKENS = 30
#: ...or its <noscript> text is this many times the shown text (see page_blocks):
#: measured, script-rendered threads carry 1.8 to 57 times the shown text
#: there; pages whose <noscript> repeats a part of the page (a second copy
#: of a post, an image gallery's captions) about as much as they show.
NOSCRIPT_SHARE = 1.5
_SCRIPTED_DEAD_TAGS = DEAD_TAGS - {"noscript"}
_DIGITS_RE = re.compile(r"\d+")
_ASCII_WORDS_RE = re.compile(r"\w+")
# ASCII bytes with every byte that is not a word character (\w on ASCII
# text: letters, digits, underscore) turned into a space: after translate,
# split() gives the \w+ runs.
_WORD_BYTES = bytes(c if chr(c).isalnum() or c == 0x5F else 0x20 for c in range(128)) + b" " * 128
# The ASCII marks of PUNCT_RE (the marks an ASCII text can hold).
_ASCII_PUNCT_BYTES = bytes(c for c in range(128) if PUNCT_RE.match(chr(c)))
_NEG_TAGS = frozenset(("nav", "footer", "aside"))
_DIALOG_ROLES = frozenset(("dialog", "alertdialog"))
# The attributes the scan's hidden and dialog tests read.
_STATE_ATTRS = frozenset(("style", "hidden", "aria-hidden", "role", "aria-modal"))
_POS_TAGS = frozenset(("article", "main"))
# Class/id verdict memos, one per vocabulary setting (see PageBlocks._name_table).
_NAME_MEMOS: dict[tuple[frozenset[str], bool], dict[str, tuple[bool, bool]]] = {}
_NAME_MEMO_MAX = 200_000
# Class/id strings without their digits (signature()), memoised the same way.
_SIG_NAMES: dict[str, str] = {}
# Digit-free class strings -> their loose form (loose_signature()), same memo rules.
_LOOSE_NAMES: dict[str, str] = {}
