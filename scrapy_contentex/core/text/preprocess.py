"""Seed 001's preprocessing ("Explanation tier"), reusable by every text algorithm.

ContentEx cleans a page before any filter runs: it ignores form tags, removes
scripts and removes *statements* (copyright, disclaimers, "comply with local
laws" notices).  We add what a browser would not show either (hidden
elements), because invisible text is never the content a reader sees and it
distorts every count the algorithms make, and the regions the author marks
as navigation, banner, footer or sidebar (HTML5 tags, ARIA roles).  Hidden,
landmark and form regions that hold a large share of the page's text are
kept: pages that hide their body until a script runs, wrap the article in a
``<header>`` or the whole page in a ``<form>`` exist, and there the markup
is wrong, not the text.

The XML "Converting to XHTML" step of the paper is lxml's tolerant parser
(:mod:`..document`), done once per page.

:func:`preprocess` works in place on a private tree (``doc.fresh_tree()``);
the walks are iterative and linear, so 50,000-deep or 20 MB pages are fine.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from itertools import accumulate

from lxml import etree
from lxml.html import HtmlElement

from ..lang import TOKEN_RE, token_count
from .common import BLOCK_TAGS, NOISE_TAGS, raw_block_text, strip_noise

# Form controls never hold content ("Ignoring Form tags", after CoreEx).
FORM_CONTROL_TAGS = ("input", "select", "textarea", "button", "option", "optgroup", "datalist")

# A <form> holding more than this share of the page's text is kept: ASP.NET
# and several forum engines wrap the whole page in one <form>.
FORM_KEEP_SHARE = 0.3

# Statement phrases (English and Chinese).  Each must be specific enough that a
# short block containing it is a notice, not prose: "copyright" alone is a
# common word in articles, "Copyright ©" / "© 2021" is not.
STATEMENT_RE = re.compile(
    r"all\s+rights?\s+reserved"
    r"|copyright\s*(?:©|\(c\)|&copy;|\d{4})"
    r"|©\s*(?:copyright\s*)?(?:\d{4}|[A-Z])"
    r"|\(c\)\s*\d{4}"
    r"|\bdisclaimer\s*[:：]"
    r"|terms\s+(?:of\s+(?:use|service)|and\s+conditions)"
    r"|privacy\s+policy"
    r"|may\s+not\s+be\s+(?:reproduced|republished|redistributed|copied)"
    r"|without\s+(?:the\s+)?(?:(?:prior|express)\s+)*written\s+(?:permission|consent)"
    r"|constitutes\s+(?:your\s+)?acceptance"
    r"|版权所有|版权声明|免责声明|法律声明|侵权必究|保留所有权利|著作权归"
    r"|未经.{0,12}(?:授权|许可|同意|允许).{0,12}(?:转载|复制|使用|摘编|镜像|建立镜像)"
    r"|禁止转载|不得转载|严禁转载|谢绝转载"
    r"|ICP\s*(?:备|证)|[京沪粤浙苏津渝川鄂湘闽鲁豫皖赣陕晋冀辽吉黑桂琼云贵藏甘青宁新蒙]"
    r"ICP|公网安备|网安备|增值电信业务经营许可证|互联网新闻信息服务许可证"
    r"|(?:遵守|遵循).{0,10}(?:法律|法规)|不代表本站(?:观点|立场)|仅代表作者",
    re.I,
)

# A statement block is small: at most this many tokens (a CJK character is a
# token), so a paragraph that merely mentions copyright is kept.
STATEMENT_MAX_TOKENS = 60

# Share of a block's tokens that must sit in pieces holding a statement phrase.
STATEMENT_MIN_SHARE = 0.5
# Notices are short sentences: a longer piece never counts as one.
STATEMENT_PIECE_MAX_TOKENS = 30
# ... or this share when the notice is the block's last piece (a footer).
STATEMENT_MIN_SHARE_FOOTER = 0.3
_PIECE_SPLIT_RE = re.compile(r"[\n|｜·•。！？]+|(?<=[.!?])\s+")

# Above this many characters a subtree's text is not gathered (it cannot be a
# statement anyway); keeps the statement search linear in the page size.
_TEXT_CAP = 600
_ELEMENT_CAP = 300

# A hidden or landmark subtree holding more than this share of the page's
# text is kept (see _drop_outermost).
KEEP_SHARE = 0.5

# Regions the author marks as not-the-content (HTML5 tags, ARIA roles).
LANDMARK_TAGS = frozenset(("nav", "aside", "header", "footer"))
LANDMARK_ROLES = frozenset(("navigation", "banner", "contentinfo", "complementary", "search"))

# Utility classes of the common CSS frameworks that mean "not displayed"
# (Bootstrap, Tailwind, WordPress screen-reader text).
HIDDEN_CLASSES = frozenset(
    ("hidden", "d-none", "is-hidden", "sr-only", "visually-hidden", "screen-reader-text", "invisible")
)

_HIDDEN_STYLE_RE = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.I)


def _is_hidden(el: HtmlElement) -> bool:
    """Invisible in a browser: ``hidden``, ``aria-hidden="true"`` or an inline none style."""
    attrib = el.attrib
    if "hidden" in attrib:
        return True
    if attrib.get("aria-hidden", "").strip().lower() == "true":
        return True
    style = attrib.get("style")
    if style and _HIDDEN_STYLE_RE.search(style):
        return True
    classes = attrib.get("class")
    return bool(classes) and not HIDDEN_CLASSES.isdisjoint(classes.lower().split())


def _ntok(text: str) -> int:
    """token_count, as one C-level findall (this runs over whole pages)."""
    return len(TOKEN_RE.findall(text))


def _attached(el: HtmlElement, root: HtmlElement, dropped: set | None = None) -> bool:
    """Still inside ``root``: not under a subtree dropped earlier.

    Walks up at most the tree depth (bounded: documents are flattened past
    the parser's depth limit); stops early at a known dropped element.
    """
    top = el
    parent = el.getparent()
    while parent is not None:
        if dropped and parent in dropped:
            return False
        top, parent = parent, parent.getparent()
    return top is root


def _drop_outermost(tree: HtmlElement, xpath: str, matches, keep_share: float) -> HtmlElement:
    """Drop the elements found by ``xpath`` for which ``matches(el)`` holds.

    Candidates come in document order from one XPath query (C speed), so an
    outer element is decided before the elements inside it.  An element
    holding more than ``keep_share`` of the page's text is kept: whatever its
    markup says, most of what a reader sees is in it.
    """
    found = [el for el in tree.xpath(xpath) if el is not tree and matches(el)]
    if not found:
        return tree
    total = _ntok(" ".join(tree.itertext())) or 1
    dropped: set[HtmlElement] = set()
    for el in found:
        if not _attached(el, tree, dropped):
            continue
        if _ntok(" ".join(el.itertext())) <= keep_share * total:
            el.drop_tree()
            dropped.add(el)
    return tree


def remove_hidden(tree: HtmlElement, keep_share: float = KEEP_SHARE) -> HtmlElement:
    """Drop hidden elements with their subtree (tails stay: they are visible).

    Pages such as WeChat articles hide the whole body until a script reveals
    it, hence the ``keep_share`` guard.
    """
    return _drop_outermost(tree, "//*[@hidden or @aria-hidden or @style or @class]", _is_hidden, keep_share)


def _is_landmark(el: HtmlElement) -> bool:
    return el.tag in LANDMARK_TAGS or el.get("role", "").strip().lower() in LANDMARK_ROLES


def remove_landmarks(tree: HtmlElement, keep_share: float = KEEP_SHARE) -> HtmlElement:
    """Drop navigation, banners, footers and sidebars marked up as such.

    HTML5 sectioning tags and ARIA roles are the page author's own statement
    that a region is not the main content; the ``keep_share`` guard protects
    pages that wrap their article in a ``<header>``.
    """
    return _drop_outermost(
        tree, "//nav | //aside | //header | //footer | //*[@role]", _is_landmark, keep_share
    )


def remove_forms(tree: HtmlElement, keep_share: float = FORM_KEEP_SHARE) -> HtmlElement:
    """Drop form controls, and whole forms unless they hold much of the page's text.

    Search, log-in, reply and editor forms go (an editor's language menu or
    markdown help can outweigh a short thread); a page-wrapping form, as
    ASP.NET and several forum engines emit, holds most of the text and stays.
    """
    etree.strip_elements(tree, *FORM_CONTROL_TAGS, with_tail=False)
    return _drop_outermost(tree, "//form", lambda el: True, keep_share)


def is_statement(text: str, max_tokens: int = STATEMENT_MAX_TOKENS) -> bool:
    """A short text dominated by copyright, disclaimer or legal-notice phrases.

    Dominated means the short pieces of the text (lines, sentences, or items
    split by '|' and similar separators) that hold a statement phrase make up
    at least ``STATEMENT_MIN_SHARE`` of its tokens, or
    ``STATEMENT_MIN_SHARE_FOOTER`` when the last piece holds one (small
    footers close on their copyright line).  A short page wrapper with a
    "Terms of use" link in its middle is not a statement, nor is a long
    sentence that happens to say "all rights reserved".
    """
    if not text or len(text) > _TEXT_CAP * 2 or not STATEMENT_RE.search(text):
        return False
    total = token_count(text)
    if total > max_tokens:
        return False
    pieces = [piece for piece in _PIECE_SPLIT_RE.split(text) if piece.strip()]
    hit = sum(
        n
        for n, piece in ((token_count(piece), piece) for piece in pieces)
        if n <= STATEMENT_PIECE_MAX_TOKENS and STATEMENT_RE.search(piece)
    )
    if hit >= STATEMENT_MIN_SHARE * total:
        return True
    # A small block that closes on its notice is a page footer.
    return hit >= STATEMENT_MIN_SHARE_FOOTER * total and bool(STATEMENT_RE.search(pieces[-1]))


def _capped_text(el: HtmlElement) -> str | None:
    """Visible text of ``el`` with '\\n' at block edges, or None past ``_TEXT_CAP``.

    Stops as soon as the cap (characters or elements) is exceeded, so asking
    about every ancestor of a match costs a bounded amount each.
    """
    text, complete = raw_block_text(el, limit=_TEXT_CAP, max_elements=_ELEMENT_CAP)
    return text if complete else None


def remove_statements(tree: HtmlElement, max_tokens: int = STATEMENT_MAX_TOKENS) -> HtmlElement:
    """Remove small blocks dominated by a statement, and statement text runs.

    One regex pass over the page's joined text finds the statement phrases;
    from the text node of each match we climb to the outermost block whose
    whole text is still short and a statement (a footer of
    "About | Contact | © 2021 Foo") and remove it.  A matching bare text run
    (text or tail between tags) that is itself a statement and sits in a
    larger container is blanked instead.
    """
    nodes = tree.xpath("//text()")
    if not nodes:
        return tree
    # A text node longer than the cap cannot belong to a short statement
    # block, nor be a statement itself: it is left out of the regex pass,
    # which keeps long-prose pages cheap.
    texts = [n if len(n) <= _TEXT_CAP else "" for n in nodes]
    ends = list(accumulate(len(t) for t in texts))
    hits: dict[int, None] = {}
    for match in STATEMENT_RE.finditer("".join(texts)):
        hits.setdefault(bisect_right(ends, match.start()), None)
    doomed: list[HtmlElement] = []
    runs = []
    for index in hits:
        node = nodes[index]
        parent = node.getparent()
        if parent is None:
            continue
        holder = parent if node.is_text else parent.getparent()
        best = None
        current = holder
        while current is not None and current.tag not in ("html", "body"):
            text = _capped_text(current)
            if text is None:
                break
            if current.tag in BLOCK_TAGS and is_statement(text, max_tokens):
                best = current
            current = current.getparent()
        if best is not None:
            doomed.append(best)
        else:
            runs.append((parent, node.is_text, str(node)))
    for el in doomed:
        if _attached(el, tree):
            el.drop_tree()
    for el, is_text, text in runs:
        if is_statement(text, max_tokens) and _attached(el, tree):
            if is_text:
                el.text = None
            else:
                el.tail = None
    return tree


def preprocess(
    tree: HtmlElement,
    *,
    forms: bool = True,
    hidden: bool = True,
    landmarks: bool = True,
    statements: bool = True,
) -> HtmlElement:
    """Clean a private tree in place for text extraction and return it.

    Scripts, styles and other never-content tags always go; ``forms``,
    ``hidden``, ``landmarks`` and ``statements`` switch the other steps (all
    on by default).  Landmark removal is our addition to the seed: it is the
    cheapest general signal there is and it helped every set we measure.
    """
    strip_noise(tree, NOISE_TAGS)
    if hidden:
        remove_hidden(tree)
    if landmarks:
        remove_landmarks(tree)
    if forms:
        remove_forms(tree)
    if statements:
        remove_statements(tree)
    return tree


def main_region(body: HtmlElement, min_share: float) -> HtmlElement:
    """The page's lone ``<article>`` (else lone ``<main>``) when it holds the bulk of the text.

    Not part of :func:`preprocess` (algorithms opt in, after their own
    filtering): an author who marks exactly one article or main region has
    told us where the content is, and it rids the output of the teaser
    summaries of related-story lists around it.  Forum threads mark every
    post as an ``<article>``, so they are left whole; ``min_share`` guards
    against a lone ``<article>`` that is only a teaser.
    """
    total = token_count(" ".join(body.itertext())) or 1
    for found in (
        list(body.iter("article")),
        [
            el
            for el in body.iter("main", "div", "section")
            if el.tag == "main" or el.get("role") == "main"
        ],
    ):
        if len(found) == 1 and token_count(" ".join(found[0].itertext())) >= min_share * total:
            return found[0]
    return body


def body_of(root: HtmlElement) -> HtmlElement:
    """The ``<body>``, or the root without its ``<head>`` (a private tree).

    Pages with no body content parse without a ``<body>``; the ``<title>``
    and other head text must not then pass for content.
    """
    body = root.find("body")
    if body is not None:
        return body
    for head in root.findall("head"):
        head.drop_tree()
    return root
