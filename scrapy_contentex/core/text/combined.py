"""The default article text extractor: region scoring, then cleaning.

Design (every step measured on the four development sets together: English,
Chinese and multilingual articles, and forum threads; see ``Params``):

1. :mod:`.region` scores every block of the page with the seeds' signals
   (tokens with CJK characters counted one each, punctuation density as in
   seed 000's vvtc, link text as in seed 001's textCnt/linkCnt, a per-block
   cost as in seed 003's words/(links+tags), boilerplate class/id vocabulary
   as soft evidence) and picks the element whose subtree scores highest, or
   the best run of its children when a long list of links sits beside the
   paragraphs (max-sum / Kadane over children).
2. A thread's posts are siblings from one template: the region is widened
   to all of them (seed 000's aggregation of a common tag path), matching
   post-named classes on their first word ("post op" / "post").  When the
   posts are not siblings (a question block then an answer list, nested
   reply trees), the post *bodies* share a template: every element with the
   chosen body's signature is gathered, if at least two of them sit in
   markup named as posts/replies/answers, with a loose opening post kept.
   A lone post in such markup is a thread too (its subject stays on top).
3. Inside the region, hinted boilerplate, link-dense containers and captions
   are skipped while the text is written out, a newline at every block
   boundary and one line per table row.
4. Lines are cleaned with seed 001's common patterns: copyright and
   disclaimer statements, timestamps and IPs on short lines, post headers
   (relative times, date + clock time, edit notices), byline/meta
   "label: value" lines, short lines repeated across posts, widget labels,
   and weak blocks at the region's edges.  The article's headline is the
   item's own field and leaves the body; a thread keeps its subject on top.

Why not vote the seed algorithms: measured, each alone is below this scorer
on every set, and running them costs the speed budget (3x trafilatura); the
shared preprocessor is reused for its statement test.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass, field, fields
from itertools import accumulate

from ..document import Document
from ..lang import BLANK_RUN_RE, TOKEN_RE, normalize_space
from .preprocess import is_statement
from .region import (
    _ASCII_WORDS_RE,
    CELL_TAGS,
    DISCUSSION_WORDS,
    INLINE_TAGS,
    PageBlocks,
    RegionParams,
    page_blocks,
)


@dataclass
class Params:
    """Every knob of the default extractor, with why it has its value."""

    #: Block weights used to choose the region (see RegionParams).
    region: RegionParams = field(default_factory=RegionParams)
    #: A container inside the region whose text is more than this share link
    #: text is a list of links (related stories, tags, pagination): dropped.
    max_link_density: float = 0.5
    #: A paragraph is prose that may cite many links (news sites link names
    #: and sources inline): it is dropped only when nearly all link text.
    max_paragraph_link_density: float = 0.8
    #: ...unless it is long enough to be prose with many inline citations.
    link_dense_keep_tokens: int = 200
    #: A <form> inside the region is a comment, reply, search or signup form
    #: (labels, consent notices) unless it holds this share of the region's
    #: prose: sites that wrap the whole page or a thread's posts in one form
    #: keep it.
    max_form_share: float = 0.25
    #: A container (div, figure...) holding an image and at most this many
    #: tokens is a captioned picture or gallery slide: article truths leave
    #: captions and photo credits out (as <figcaption>, which is dead).
    caption_max_tokens: int = 20
    #: Leading/trailing blocks scoring below this are trimmed off the region
    #: (bylines, share bars, "tags:" rows); inner short blocks (sub-headings)
    #: are kept because they sit between prose.
    edge_min_weight: float = 0.0
    #: Forum threads (repeated posts found): put the page headline on top,
    #: since a thread's subject is the first post's title.  Articles: drop
    #: lines equal to the headline (it is the item's ``headline`` field).
    thread_headline: bool = True
    drop_headline: bool = True
    #: ...only when this much text remains (a short post keeps its subject).
    drop_headline_min_tokens: int = 300
    #: Gather post bodies built from one template anywhere on the page when
    #: the posts are not siblings (Q&A question + answer list).
    thread_template: bool = True
    #: A lone post in markup named as a post/reply/answer is a thread too.
    single_post_headline: bool = True
    #: Below this best-region score the page is thin and the whole body is
    #: taken (cleaned the same way) instead of one weak block.
    thin_score: float = 0.0
    #: Lines this short (tokens) are candidates for the pattern filters.
    short_line_tokens: int = 12
    #: Lines up to this many tokens are checked for byline/meta labels.
    meta_line_tokens: int = 40
    #: Copyright/disclaimer statements are short notices: longer lines are
    #: never tested (seed 001's statements; same bound as the preprocessor).
    statement_max_tokens: int = 60
    #: Drop post headers with a full date and time and edit notices.
    post_header_lines: bool = True
    #: Drop whole-line toolbar labels ("Link to comment", "只看楼主").
    ui_labels: bool = True
    #: A short line repeated this many times in the region is template text
    #: ("Reply", "Quote", user names across posts).
    repeat_min: int = 3
    #: Learned default: a page with at least this many tokens of prose
    #: before its comment section (markup named comment/reply/discussion)
    #: is an article with reader comments, which article truths cut; the
    #: section's lines are dropped (0: off). Pages declared as threads keep it.
    comment_prose_tokens: int = 300
    #: ...counted before the comment element that holds the first comment
    #: prose line, not before the first comment-named element (a comment
    #: count or "leave a comment" link above the article).
    comment_from_prose: bool = True
    #: ...or at least this many tokens of prose in markup named as an
    #: article ("entry", "story", "blog"; none named as a thread): a short
    #: post whose comments outweigh it (0: off).
    comment_article_tokens: int = 100
    #: ...unless most of that prose shares a line template with the
    #: section's lines (a thread's opening post, built like its replies).
    comment_thread_template: bool = True
    #: ...or when the page declares itself an article (JSON-LD Article,
    #: NewsArticle, BlogPosting; og:type "article"), whatever its markup.
    comment_declared_article: bool = True
    #: ...or this many tokens when the prose sits in article markup (a
    #: declared article alone still needs ``comment_article_tokens``: some
    #: forums declare every thread og:type "article"; 0: off).
    comment_markup_tokens: int = 30
    #: Learned default: on a page with at least this many tokens of prose,
    #: lists of linked headlines (one template, four items or more) wholly
    #: before or after the prose and lighter than half of it are teaser
    #: rails, cut (see :mod:`.rails`; 0: off).
    rail_prose_tokens: int = 300
    #: ...or this many on a page that is one article (article markup around
    #: the prose, or a declared article: see ``comment_declared_article``),
    #: whatever the rails weigh: a short post, or a story under a long carousel (0: off).
    rail_article_tokens: int = 50
    #: Learned default: a <pre> block with a kept line, or inside the
    #: stretch of kept lines, is kept whole (see :mod:`.code`).
    whole_code_blocks: bool = True


# The next three patterns are matched against the LOWER-CASED line: a
# case-insensitive alternation of literals is several times slower in re
# (it disables the literal scan), and these run on every short line.
_COPYRIGHT_RE = re.compile(
    r"(©|\(c\)\s*\d{4}|copyright\s*(©|\d{4}|\(c\))|all rights reserved|版权所有|版權所有|"
    r"保留所有权利|未经授权|不得转载|禁止转载|免责声明)",
)
_DATE_RE = re.compile(
    r"(\d{4}[-/.年]\d{1,2}[-/.月]\d{1,2}日?|\d{1,2}[-/.]\d{1,2}[-/.]\d{2,4}|\d{1,2}:\d{2}(:\d{2})?|"
    # Relative times of post headers ("alice - 2 years ago | reply", "3天前")
    # and of the gaps some threads print between posts ("9 天 后", "2 years later").
    r"\b\d+\s*(seconds?|secs?|minutes?|mins?|hours?|hrs?|days?|weeks?|months?|years?|yrs?)\s+(ago|later)\b|"
    r"(?<!\d)\d+\s*(秒|分钟|小时|天|周|个月|年)\s*[前后])",
    re.I,
)
# Words that surround a timestamp or byline and carry no content.
_DATE_WORDS_RE = re.compile(
    r"\b(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\b|"
    r"\b(mon|tue|wed|thu|fri|sat|sun)[a-z]*\b|\b(am|pm|gmt|utc|[a-z]st|[a-z]dt)\b|"
    r"\b(published|updated|posted|modified|last|first|on|at|by|date|time|edited|ago|later|"
    r"minutes?|hours?|days?|weeks?|months?|years?)\b|"
    r"\d+|发布|发表|时间|日期|更新|于|前|年|月|日|号|分钟|小时|天",
    re.I,
)
# A line made only of these is a widget label, not text.
_UI_WORDS = frozenset(
    "close caption share tweet email print advertisement ad comments comment reply quote "
    "report like likes top back next previous prev menu search subscribe login log in "
    "sign up more read view image photo video loading 分享 回复 举报 引用 收藏 点赞 返回 顶部 "
    "打印 关闭 更多".split()
)
# Post toolbars and thread widgets, matched as the whole line: a CJK label
# is several one-character tokens, so the word test above never sees it.
_UI_LABELS = frozenset(
    "分享 回复 举报 引用 收藏 点赞 返回 顶部 打印 关闭 更多 评论 倒序看帖 仅看楼主 只看楼主 "
    "只看该作者 复制链接 展开 收起 查看全部 加载更多 expand collapse permalink".split()
) | {"link to comment", "link to post", "share this post", "report post", "show more", "load more"}
# "July 26, 2018" alone: forum truths keep such lines, article truths do not;
# measured, dropping them costs threads more than it buys articles.
_MONTH_YEAR = False
# Byline / meta labels: "来源：新华网 编辑：王明", "Source: Reuters", "作者：x 时间：y".
_META_LABEL_RE = re.compile(
    r"(来源|出处|编辑|责任编辑|责编|作者|记者|通讯员|摄影|发布|发布时间|发表|时间|日期|点击|阅读|浏览|"
    r"字体|字号|分享到|标签|关键词|打印|"
    r"source|editor|author|posted by|written by|published|updated|tags|filed under|share this)"
    r"\s*[:：]",
)
# Cheap pre-test: every statement phrase of the preprocessor contains one of
# these; most lines contain none and skip the full test.
_STATEMENT_HINT_RE = re.compile(
    r"©|\(c\)|copyright|rights?|disclaimer|terms|privacy|reproduc|republish|redistribut|"
    r"written|acceptance|版权|版權|转载|轉載|声明|权利|權利|授权|许可|允许|同意|icp|备|"
    r"法律|法规|观点|立场|代表|著作权",
)
_HAS_DIGIT_RE = re.compile(r"\d")
# A date with a clock time ("2024-04-09 09:36:18"): prose gives a day, a
# post header gives the minute.  Such a short, unpunctuated line is the
# header of a post (user, date, place), whatever other words it carries.
_DATETIME_RE = re.compile(r"\d{4}[-/.年]\d{1,2}[-/.月]\d{1,2}日?\s*\d{1,2}:\d{2}")
# Edit notices under posts ("Edited July 5 by x", "本帖最后由 x 于 ... 编辑").
_EDITED_RE = re.compile(r"^(last\s+)?edited\b|最后编辑|最后由.{1,40}编辑", re.I)
_SENTENCE_END_RE = re.compile(r"[.!?。！？]\s*$")
_IP_RE = re.compile(r"\b\d{1,3}\.\d{1,3}\.\d{1,3}\.(\d{1,3}|\*)\b")


def _params(overrides: dict) -> Params:
    """Build Params from keyword overrides; region knobs may be passed flat."""
    prm = Params()
    region_names = {f.name for f in fields(RegionParams)}
    own_names = {f.name for f in fields(Params)}
    for key, value in overrides.items():
        if key in own_names:
            setattr(prm, key, value)
        elif key in region_names:
            setattr(prm.region, key, value)
        else:
            raise TypeError(f"unknown parameter {key!r} for the default extractor")
    return prm


# Containers that hold an image and its caption; paragraphs and list items
# with an inline picture are text first.
_CAPTION_HOSTS = frozenset(("div", "figure", "section", "dl", "dd", "dt"))
_IMAGE_TAGS = frozenset(("img", "picture"))


def _skipped(pb: PageBlocks, region: int, prm: Params) -> set[int]:
    """Elements under the region whose subtree is left out of the text.

    A Python loop over every element of the region (the whole body for the
    line model): the tables and knobs it reads are local names.
    """
    skip: set[int] = set()
    add = skip.add
    end = pb.subtree_end(region)
    region_neg = pb.neg[region]
    region_mass = pb.mass[region]
    tags, parent, ends = pb.tags, pb.parent, pb.end
    dead, neg, mass, total_tokens, total_links = pb.dead, pb.neg, pb.mass, pb.total_tokens, pb.total_links
    caption_max = prm.caption_max_tokens
    form_mass = prm.max_form_share * region_mass
    link_dense_keep = prm.link_dense_keep_tokens
    p_density, density = prm.max_paragraph_link_density, prm.max_link_density
    region_tokens = total_tokens[region]  # a caption is a minor part of the region
    # images[k - region]: <img>/<picture> elements of the region before index k
    # (an element's count is a difference; regions are disjoint, so linear).
    images = [0, *accumulate(map(_IMAGE_TAGS.__contains__, tags[region:end]))]
    for j in range(region + 1, end):
        if parent[j] in skip or dead[j] or (neg[j] and not region_neg):
            add(j)
            continue
        tag = tags[j]
        if tag in INLINE_TAGS:
            continue
        if tag == "form" and mass[j] < form_mass:
            add(j)  # a comment, reply, search or newsletter form
            continue
        t = total_tokens[j]
        if (t and t <= caption_max and 2 * t < region_tokens and tag in _CAPTION_HOSTS
                and images[ends[j] - region] > images[j - region]):
            add(j)  # an image with its caption or credit line
            continue
        if t and t < link_dense_keep:
            limit = p_density if tag == "p" else density
            if total_links[j] > limit * t:
                add(j)
    return skip


# Newlines in the source are blanks to a browser; only markup breaks lines
# (and source newlines inside <pre>, kept for code in forum posts).
_RAW_BREAKS = str.maketrans("\r\n", "  ")


def _segments(pb: PageBlocks, region: int, skip: set[int]) -> tuple[list[str], list[int], list[int]]:
    """The region's text pieces in document order, and which block owns each.

    Walks the region's contiguous index range with a stack of open elements
    (no recursion, no tree lookups).  Returns (pieces, starts, owners):
    ``owners[k]`` owns the pieces from index ``starts[k]`` on, so that every
    output line knows the block it came from.  Pieces are plain strings in
    one list (joined once later): big regions have hundreds of thousands.
    """
    texts: list[str] = []
    starts: list[int] = []
    owners: list[int] = []
    # Texts and tails come from the scan's lists, not from the tree again.
    owner, parent, tags, end = pb.owner, pb.parent, pb.tags, pb.end
    texts_of, tails_of = pb.texts, pb.tails
    put, new_owner, new_start = texts.append, owners.append, starts.append
    cells, inline, breaks = CELL_TAGS, INLINE_TAGS, _RAW_BREAKS
    # The hot loop of the text writer: "emit" (a piece, and a new owner
    # entry when the owner changes) is written out in place, since a call
    # per piece cost a third of the walk.  ``last`` is the owner of the
    # piece emitted last, ``pre`` the number of open <pre> elements (their
    # source newlines are real line breaks).  A piece without a source
    # newline is put as it is (a substring test instead of a copy).
    last = -1
    pre = 0
    open_: list[int] = []
    j, stop = region, end[region]
    while True:
        # Close the open elements that are not the next element's parent
        # (all of them after the region's last element).
        p = parent[j] if j < stop else -2
        while open_ and open_[-1] != p:
            k = open_.pop()
            tag = tags[k]
            if tag == "pre":
                pre -= 1
            if tag in cells or tag not in inline:
                o = owner[k]
                if o != last:
                    last = o
                    new_start(len(texts))
                    new_owner(o)
                put(" " if tag in cells else "\n")
            if k != region:
                tail = tails_of[k]
                if tail:
                    o = owner[parent[k]]
                    if o != last:
                        last = o
                        new_start(len(texts))
                        new_owner(o)
                    put(tail if pre or not ("\n" in tail or "\r" in tail) else tail.translate(breaks))
        if j >= stop:
            break
        if j in skip and j != region:
            tail = tails_of[j]
            if tail:
                o = owner[p]
                if o != last:
                    last = o
                    new_start(len(texts))
                    new_owner(o)
                put(tail if pre or not ("\n" in tail or "\r" in tail) else tail.translate(breaks))
            j = end[j]
            continue
        tag = tags[j]
        if tag == "br" or tag in cells or tag not in inline:
            # a line break; a table row reads as one line
            o = owner[j] if tag == "br" else j
            if o != last:
                last = o
                new_start(len(texts))
                new_owner(o)
            put(" " if tag in cells else "\n")
        if tag == "pre":
            pre += 1
        text = texts_of[j]
        if text:
            o = owner[j]
            if o != last:
                last = o
                new_start(len(texts))
                new_owner(o)
            put(text if pre or not ("\n" in text or "\r" in text) else text.translate(breaks))
        open_.append(j)
        j += 1
    return texts, starts, owners


_NON_SPACE_RE = re.compile(r"\S")


def _lines(segments: tuple[list[str], list[int], list[int]]) -> list[tuple[int, str]]:
    """Join the pieces into lines; a line belongs to the block of its first visible character.

    Lines may span pieces (the cells of a table row).  The text is joined
    and blank-normalised once (the normaliser never touches newlines, so
    lines correspond one to one), and each line's owner is found by
    bisecting the pieces' start offsets.
    """
    texts, starts, owners = segments
    if not texts:
        return []
    offsets = [0, *accumulate(map(len, texts))]
    bounds = [offsets[k] for k in starts]
    raw = "".join(texts)
    clean = BLANK_RUN_RE.sub(" ", raw)
    lines: list[tuple[int, str]] = []
    pos = 0
    first_visible = _NON_SPACE_RE.search
    for raw_line, clean_line in zip(raw.split("\n"), clean.split("\n"), strict=True):
        line = clean_line.strip()
        if line:
            at = first_visible(raw, pos, pos + len(raw_line)).start()
            lines.append((owners[bisect_right(bounds, at) - 1], line))
        pos += len(raw_line) + 1
    return lines


def _trim_edges(pb: PageBlocks, lines: list[tuple[int, str]], prm: Params) -> list[tuple[int, str]]:
    """Drop weak blocks before the first and after the last prose block."""
    good = [k for k, (o, _) in enumerate(lines) if pb.weight[o] > prm.edge_min_weight]
    if not good:
        return lines
    return lines[good[0] : good[-1] + 1]


def _pattern_filter(lines: list[str], prm: Params, known: dict[str, int] | None = None) -> list[str]:
    """Seed 001's common-pattern filter on short lines.

    ``known``: exact token counts of lines already counted (the line
    features count every line of the page); an exact count and a capped
    one lead to the same decisions (every test reads counts below the cap).
    """
    counts: dict[str, int] = {}
    cap = max(prm.statement_max_tokens, prm.meta_line_tokens, 3 * prm.short_line_tokens) + 1
    counted = (known or {}).get
    ntok = [n if (n := counted(line)) is not None else _capped_tokens(line, cap) for line in lines]
    long_from = cap - 1  # lines longer than this are never pattern-tested
    for line, n in zip(lines, ntok, strict=True):
        if n <= prm.short_line_tokens:
            counts[line] = counts.get(line, 0) + 1
    kept: list[str] = []
    for line, n in zip(lines, ntok, strict=True):
        if n == 0:
            continue
        low = line.lower() if n <= long_from else ""
        if n <= 3 * prm.short_line_tokens and _COPYRIGHT_RE.search(low):
            continue
        if n <= prm.short_line_tokens:
            if counts.get(line, 0) >= prm.repeat_min:
                continue
            if _IP_RE.search(line):
                continue
            if _HAS_DIGIT_RE.search(line) and _is_timestamp(line):
                continue
        if n <= 2 * prm.short_line_tokens and prm.post_header_lines:
            if _EDITED_RE.search(line):
                continue
            if _DATETIME_RE.search(line) and not _SENTENCE_END_RE.search(line):
                continue
        if (n <= prm.meta_line_tokens and ("：" in low or ":" in low)
                and _META_LABEL_RE.search(low) and _meta_line(low)):
            continue
        if (n <= prm.statement_max_tokens and _STATEMENT_HINT_RE.search(low)
                and is_statement(line)):
            continue
        if n <= 8 and prm.ui_labels and low in _UI_LABELS:
            continue
        if n <= 3:
            words = TOKEN_RE.findall(line.lower())
            if words and all(w in _UI_WORDS for w in words):
                continue
        kept.append(line)
    return kept


def drop_repeats(lines: list[str], quoted: set[str]) -> list[str]:
    """The kept lines without second copies, except quoted ones.

    Pages show the same text twice: a card's title on its image link, its
    heading and its button; a mobile and a desktop copy of a post; a
    teaser above the body it opens.  A reader reads it once, and the gold
    texts hold it once.  A reply quoting an earlier post repeats it on
    purpose, so lines inside quote markup stay (measured under grouped CV
    on the line model's output: wcxb-dev +0.005, forum +0.007, product
    +0.02, no set down by more than 0.003).
    """
    seen: set[str] = set()
    out = []
    for line in lines:
        if line in seen and line not in quoted:
            continue
        seen.add(line)
        out.append(line)
    return out


def _capped_tokens(line: str, cap: int) -> int:
    """Token count of a line, exact up to ``cap`` (``cap`` or more beyond).

    The filters only ask whether a line is short; counting every word of
    a long paragraph again is wasted work on big pages.  A prefix never has
    more tokens than the whole line, so a prefix already at ``cap`` settles it.
    """
    # ASCII lines (an O(1) check): the metric's tokens are exactly \w+ runs,
    # which re finds faster than TOKEN_RE's negated class with CJK ranges.
    findall = _ASCII_WORDS_RE.findall if line.isascii() else TOKEN_RE.findall
    if len(line) > 16 * cap:
        n = len(findall(line, 0, 16 * cap))
        if n >= cap:
            return n
    return len(findall(line))


def _meta_line(line: str) -> bool:
    """Most of the line is "label: value" pairs, not a sentence using a colon."""
    pairs = _META_LABEL_RE.findall(line)
    sentence_marks = sum(line.count(c) for c in "。！？!?")
    return bool(pairs) and sentence_marks == 0 and (len(pairs) >= 2 or len(line) <= 60)


def _is_timestamp(line: str) -> bool:
    """A short line that is a date/time with at most a couple of other words."""
    has_date = _DATE_RE.search(line) or (_MONTH_YEAR and re.search(r"\b(19|20)\d{2}\b", line))
    if not has_date:
        return False
    rest = _DATE_WORDS_RE.sub(" ", _DATE_RE.sub(" ", line))
    return len(TOKEN_RE.findall(rest)) <= 2


def _headline(pb: PageBlocks) -> tuple[str, str]:
    """The page headline: the <h1> closest to the <title> (seed 002's idea).

    Sites put their logo in an <h1> too, so among the h1s the one sharing
    most tokens with the <title> wins; with no <title> the first h1 wins.
    Returns (headline, title).
    """
    title = pb.title or ""
    h1s = [text for text in map(normalize_space, pb.tag_texts("h1")) if text]
    if not h1s:
        return "", title
    if not title:
        return h1s[0], title
    title_tokens = set(TOKEN_RE.findall(title.lower()))

    def overlap(text: str) -> float:
        toks = TOKEN_RE.findall(text.lower())
        return sum(1 for t in toks if t in title_tokens) / max(1, len(toks))

    best = max(h1s, key=overlap)
    return (best if overlap(best) >= 0.5 else ""), title


def _drop_headline(text: list[str], headline: str, title: str, prm: Params) -> list[str]:
    """Remove the headline (the item's own field) from an article's body.

    The headline is the h1 found by :func:`_headline`, or, among the first
    lines, a line the <title> contains word for word (pages without an h1
    put it in a styled cell).  A short text keeps it: a one-line post's
    subject is part of what the reader sees as the body.
    """
    def is_headline(k: int, line: str) -> bool:
        if headline and line == headline:
            return True
        return k < 3 and len(line) >= 8 and bool(title) and line in title

    rest = [line for k, line in enumerate(text) if not is_headline(k, line)]
    if len(rest) == len(text):
        return text
    if prm.drop_headline_min_tokens <= 0:
        return rest
    left = prm.drop_headline_min_tokens
    for line in rest:
        left -= _capped_tokens(line, left)
        if left <= 0:
            return rest
    return text


def choose_regions(pb: PageBlocks, prm: Params) -> list[int]:
    """The rule-chosen region(s): the best subtree or run, widened to repeated posts.

    The learned default reads which lines these regions hold as one of its
    features, so the choice is its own function.
    """
    top, run = pb.best_run()
    value = pb.score[top] if run is None else sum(pb.score[c] for c in run) + pb.weight[top]
    if value <= prm.thin_score:
        # A thin page (a one-line post, a file listing): no block stands out,
        # so the whole body, cleaned like any region, beats a random block.
        body = next((i for i, tag in enumerate(pb.tags) if tag == "body"), 0)
        top, run = body, None
    regions = pb.expand_repeated(top)
    if len(regions) == 1 and prm.thread_template:
        regions = pb.expand_template(top)
    if len(regions) == 1 and run is not None:
        regions = run
    return regions


def rule_lines(pb: PageBlocks, prm: Params, regions: list[int]) -> list[tuple[int, str]]:
    """The regions' lines as ``(owner block, text)``, cleaned by the rules."""
    lines: list[tuple[int, str]] = []
    for region in regions:
        skip = _skipped(pb, region, prm)
        lines.extend(_lines(_segments(pb, region, skip)))
        if len(regions) > 1:
            tail = pb.els[region].tail
            if tail and tail.strip():
                lines.append((pb.parent[region], normalize_space(tail)))
    return _trim_edges(pb, lines, prm)


def is_thread(pb: PageBlocks, regions: list[int], prm: Params) -> bool:
    """Repeated posts were found, or the one region sits in post/reply markup."""
    return len(regions) > 1 or (prm.single_post_headline and pb.in_thread_markup(
        regions[0], DISCUSSION_WORDS, prm.region.repeat_levels))


def finish(pb: PageBlocks, lines: list[str], thread: bool, prm: Params,
           quoted: set[str] | None = None) -> str:
    """Pattern filters and the headline rule: the same for rules and model.

    With ``quoted`` (the texts of the page's lines inside quote markup),
    a line already kept is not kept again unless it is quoted: see
    :func:`drop_repeats`.
    """
    text = _pattern_filter(lines, prm, pb.line_tokens)
    if quoted is not None:
        text = drop_repeats(text, quoted)
    headline, title = _headline(pb) if (prm.thread_headline or prm.drop_headline) else ("", "")
    if thread:
        if prm.thread_headline and headline and headline not in text:
            text.insert(0, headline)
    elif prm.drop_headline:
        text = _drop_headline(text, headline, title, prm)
    return "\n".join(text)


def extract(doc: Document, **params) -> str:
    """Main text of an article, blog post or forum thread; '' when none."""
    prm = _params(params)
    pb = page_blocks(doc.tree, prm.region)
    if not pb.els:
        return ""
    regions = choose_regions(pb, prm)
    lines = rule_lines(pb, prm, regions)
    return finish(pb, [text for _, text in lines], is_thread(pb, regions, prm), prm)
