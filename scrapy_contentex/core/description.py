"""A product's description read from the page: the text under its description heading or tab.

Shops that embed no description in structured data still show one, nearly
always under a heading or a tab named for it ("Product Description",
"商品详情", "Beschreibung"). The heading's section is what follows it up to
the next heading; a tab's is the panel its link or button points to. A meta
description is a fallback only when it speaks of the product (names it):
shops put their slogan there on every page.

The last resort is the product area's own prose: the first paragraph after
the product's heading that reads as sentences and is no link text.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from itertools import accumulate, chain
from urllib.parse import urlsplit

from lxml.html import HtmlElement

from .lang import clean_lines, normalize_space, token_count, tokens
from .shop_words import DESCRIPTION_HEADINGS

_HEADINGS = frozenset(DESCRIPTION_HEADINGS)
# "About this item", "About this game": a heading naming what the page sells (not the seller).
_ABOUT_THINGS = ("item", "product", "game", "book", "app", "album", "film", "title", "kit", "set", "model")
_ABOUT_RE = re.compile(rf"about (?:this|the) (?:{'|'.join(_ABOUT_THINGS)})")
_HEADING_TAGS = frozenset("h1 h2 h3 h4 h5 h6".split())
_NO_TEXT = frozenset("script style noscript template button select option form".split())
# A heading's label: at most this long, and read among the first leaves of the page.
_LABEL_MAX = 40
_MAX_LEAVES = 5000
_MAX_CHARS = 5000
# A section holding fewer words, or mostly link text, is a tab strip or a menu.
_MIN_TOKENS = 4
_MAX_LINK_SHARE = 0.5
# The product area's prose: a paragraph of this many words or more, within
# this many leaves after the product's heading.
_PROSE_TOKENS = 25
_PROSE_WINDOW = 400
# The share of the product name's own words a meta description must hold.
_NAMED_SHARE = 0.5
# Blanks of the markup (line breaks of the source too): one space. Paragraph
# breaks come from block elements.
_BLANKS_RE = re.compile(r"\s+")
_PROSE_BLOCKS = frozenset("p div section article td li".split())
_SENTENCE_END_RE = re.compile(r"[.!?。！？]")
_COUNT_RE = re.compile(r"\s*[(（\[]?\s*\d*\s*[)）\]]?\s*$")
_BREAK_TAGS = frozenset("p br li div tr td th dd dt h1 h2 h3 h4 h5 h6 section ul ol table".split())
_TARGET_ATTRS = ("href", "aria-controls", "data-target", "data-bs-target", "data-tab", "for")


_LABEL_TRIM = " :：-–|•"
# A text that is a heading's name alone, between the separators (\x00) of the
# joined texts: blanks, bullets, a colon or a count in brackets around it. The
# lookahead of the names' first letters turns most texts away with one class
# test, before the regex tries each name in turn: half the scan's time.
_HEADING_FIRSTS = "".join(sorted({name[0] for name in _HEADINGS} | {"a"}))
_HEADING_RE = re.compile(
    "\x00[\\s:：|•–-]*(?=[" + re.escape(_HEADING_FIRSTS) + "])"
    "((?:" + "|".join(re.escape(n).replace("\\ ", "\\s+") for n in sorted(_HEADINGS, key=len, reverse=True))
    + "|about\\s+(?:this|the)\\s+(?:" + "|".join(_ABOUT_THINGS) + "))"
    + "[\\s:：|•–-]*(?:[(（\\[]\\s*\\d*\\s*[)）\\]])?[\\s:：]*)(?![^\x00])")


def _label_key(text: str) -> str:
    """A heading's text as matched: lower case, one space, no trailing colon or count."""
    key = " ".join(text.lower().split()).strip(_LABEL_TRIM)
    return _COUNT_RE.sub("", key).strip(" :：")


def _owner(leaf) -> HtmlElement | None:
    parent = leaf.getparent()
    if parent is None:
        return None
    return parent if leaf.is_text else parent.getparent()


def section_text(el: HtmlElement, limit: int = _MAX_CHARS) -> tuple[str, int]:
    """Visible text of ``el`` (code and form controls left out) and how much of it is link text."""
    parts: list[str] = []
    size = link = 0
    stack: list = [(el, False)]
    while stack and size < limit:
        node, in_link = stack.pop()
        if node is None:  # the end of a block: a paragraph break
            parts.append("\n")
            continue
        if isinstance(node, str):  # a tail, pushed as text
            parts.append(_BLANKS_RE.sub(" ", node))
            size += len(node)
            continue
        if not isinstance(node.tag, str) or node.tag in _NO_TEXT:
            if node.tail and node is not el:
                parts.append(_BLANKS_RE.sub(" ", node.tail))
                size += len(node.tail)
            continue
        in_link = in_link or node.tag == "a"
        if node.tail and node is not el:
            stack.append((node.tail, False))
        if node.tag in _BREAK_TAGS:
            stack.append((None, False))
        for child in reversed(node):
            stack.append((child, in_link))
        if node.tag in _BREAK_TAGS:
            parts.append("\n")
        if node.text:
            parts.append(_BLANKS_RE.sub(" ", node.text))
            size += len(node.text)
            if in_link:
                link += len(node.text.strip())
    return clean_lines("".join(parts))[:limit], link


def _acceptable(text: str, link: int) -> bool:
    return token_count(text) >= _MIN_TOKENS and link <= _MAX_LINK_SHARE * max(len(text), 1)


def _panel(label_el: HtmlElement, tree: HtmlElement) -> HtmlElement | None:
    """The panel a tab points to: ``href="#id"``, ``aria-controls``, ``data-target`` ..."""
    node: HtmlElement | None = label_el
    for _ in range(3):
        if node is None or not isinstance(node.tag, str):
            return None
        for attr in _TARGET_ATTRS:
            value = (node.get(attr) or "").strip()
            target = value[1:] if value.startswith("#") else (value if attr != "href" else "")
            if target and re.fullmatch(r"[\w:.-]{1,100}", target):
                found = tree.xpath("//*[@id=$id]", id=target)
                if found:
                    return found[0]
        node = node.getparent()
    return None


def _ends_section(sibling: HtmlElement, head: HtmlElement) -> bool:
    """A sibling that opens the next section: a heading, a block shaped like the head,
    or a block that opens with a heading (``<div><h2>Reviews</h2>…``)."""
    if sibling.tag == head.tag and sibling.get("class") and sibling.get("class") == head.get("class"):
        return True
    node = sibling
    for _ in range(3):
        if node.tag in _HEADING_TAGS:
            return True
        if (node.text or "").strip() or not len(node) or not isinstance(node[0].tag, str):
            return False
        node = node[0]
    return node.tag in _HEADING_TAGS


def _after_heading(label_el: HtmlElement, label: str) -> str | None:
    """The text after a heading, up to the next heading: climbing while the head holds only the label."""
    head = label_el
    for _ in range(4):
        parts: list[str] = []
        links = size = 0
        if head.tail and head.tail.strip():
            parts.append(_BLANKS_RE.sub(" ", head.tail))
        sibling = head.getnext()
        while sibling is not None and size < _MAX_CHARS:
            if isinstance(sibling.tag, str):
                if _ends_section(sibling, head):
                    break
                text, link = section_text(sibling)
                parts.append(text)
                size += len(text)
                links += link
            if sibling.tail and sibling.tail.strip():
                parts.append(_BLANKS_RE.sub(" ", sibling.tail))
            sibling = sibling.getnext()
        text = clean_lines("\n".join(parts))
        if text:
            return text if _acceptable(text, links) else None
        parent = head.getparent()
        if parent is None or parent.tag in ("body", "html"):
            return None
        if _label_key(section_text(parent, 200)[0]) != label:
            return None  # the parent holds more than the heading, and nothing followed it
        head = parent
    return None


def _heading_leaves(leaves: list):
    """The leaves whose whole text is a description heading's name, in order, with the name.

    The texts are joined with a separator no text holds and one regex finds
    the names standing alone between two separators: a C-level scan, where a
    Python test per text cost more than the rest of the description search.
    """
    texts = [leaf if len(leaf) <= _LABEL_MAX else "" for leaf in leaves[:_MAX_LEAVES]]
    joined = "\x00" + "\x00".join(texts).lower() + "\x00"  # a literal first character: a fast scan
    matches = _HEADING_RE.finditer(joined)  # one scan of the texts (not a search, then a second for the matches)
    first = next(matches, None)
    if first is None:
        return
    starts = list(accumulate((len(text) + 1 for text in texts[:-1]), initial=0))  # where each text's separator is
    for match in chain((first,), matches):
        index = bisect_right(starts, match.start()) - 1  # the match opens at the separator before it
        yield leaves[index], _label_key(match.group(1))


def described_section(tree: HtmlElement, leaves: list) -> str | None:
    """The text under the page's first description heading or tab that has some."""
    for leaf, label in _heading_leaves(leaves):
        owner = _owner(leaf)
        if owner is None or _label_key(section_text(owner, 200)[0]) != label:
            continue  # the label is part of a longer text
        panel = _panel(owner, tree)
        if panel is not None:
            text, link = section_text(panel)
            head = text[:len(label) + 1].lower()
            if head.startswith(label) and not head[len(label):].isalnum():
                text = text[len(label):].strip(" :：")  # the panel repeats its tab's name
            if _acceptable(text, link):
                return text
        text = _after_heading(owner, label)
        if text:
            return text
    return None


_TITLE_SPLIT_RE = re.compile(r"\s+[|\-–—»/:]\s+|\s*[|｜]\s*")


def _named(text_words: set[str], name: str, site: set[str]) -> bool:
    """Most of a name's own words (not the site's, not short ones) are among ``text_words``."""
    wanted = {w for w in tokens(name.lower()) if w not in site and (len(w) > 3 or not w.isascii())}
    return bool(wanted) and len(wanted & text_words) >= _NAMED_SHARE * len(wanted)


def meta_description(meta: dict[str, str], name: str | None, title: str | None,
                     url: str | None) -> str | None:
    """The page's meta description when it names the product, else None (a site slogan).

    The product's name, or the first part of the <title>, less the site's
    own words (og:site_name, the host, the title's other parts) and short
    words, must be mostly in the description.
    """
    text = normalize_space(meta.get("og:description") or meta.get("description") or "")
    if not text:
        return None
    parts = [p for p in _TITLE_SPLIT_RE.split(normalize_space(title or "")) if p.strip()]
    site = set(tokens((meta.get("og:site_name") or "").lower()))
    host = urlsplit(url).hostname if url else None
    if host:
        site.update(tokens(host.lower()))
    for part in parts[1:]:
        site.update(tokens(part.lower()))
    found = set(tokens(text.lower()))
    return text if any(_named(found, n, site) for n in (name, parts[0] if parts else None) if n) else None


def _in_link(el: HtmlElement) -> bool:
    node = el
    for _ in range(3):
        if node is None or not isinstance(node.tag, str):
            return False
        if node.tag == "a":
            return True
        node = node.getparent()
    return False


def prose_after(leaves: list, start: int) -> str | None:
    """The first paragraph of sentences after leaf ``start`` (the product's heading), with the
    paragraphs that follow it in the same block."""
    for index in range(start + 1, min(len(leaves), start + 1 + _PROSE_WINDOW)):
        leaf = leaves[index]
        if len(leaf) < 80 or not _SENTENCE_END_RE.search(leaf):
            continue
        owner = _owner(leaf)
        if owner is None or _in_link(owner):
            continue
        block = owner
        while block.tag not in _PROSE_BLOCKS and block.getparent() is not None:
            block = block.getparent()
        if block.tag not in _PROSE_BLOCKS:
            continue  # text straight under <body>: no paragraph of its own
        text, link = section_text(block)
        if token_count(text) < _PROSE_TOKENS or link > _MAX_LINK_SHARE * len(text):
            continue
        parts = [text]
        sibling = block.getnext()
        while sibling is not None and sibling.tag == block.tag and sum(map(len, parts)) < _MAX_CHARS:
            more, more_link = section_text(sibling)
            if not more or more_link > _MAX_LINK_SHARE * len(more):
                break
            parts.append(more)
            sibling = sibling.getnext()
        return clean_lines("\n".join(parts))[:_MAX_CHARS]
    return None
