"""Bytes to text the way Scrapy decodes responses, and text to an lxml tree.

Every extractor works on a :class:`Document`, which parses once and hands out
the tree; algorithms that mutate a tree ask for :meth:`Document.fresh_tree`.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Callable, Hashable
from functools import cached_property
from itertools import islice
from typing import TypeVar
from urllib.parse import urlsplit

from lxml import etree
from lxml import html as lxml_html
from w3lib.encoding import (
    html_body_declared_encoding,
    http_content_type_encoding,
    read_bom,
    resolve_encoding,
)

from .errors import ContentexError, EmptyDocumentError, NotHtmlError

_T = TypeVar("_T")

_XML_DECL_RE = re.compile(r"^\s*<\?xml[^>]*\?>", re.I)
# C0 control characters other than tab, newline and carriage return: libxml2
# refuses them. UTF-8 multi-byte sequences never hold bytes below 0x80, so
# they are deleted from the encoded page with one bytes.translate.
_CTRL_BYTES = bytes((*range(0x00, 0x09), 0x0B, 0x0C, *range(0x0E, 0x20)))
_MARKUP_RE = re.compile(rb"<\s*(?:!doctype|html|head|body|div|p|a|table|span|meta|title|br)\b", re.I)

# Tried in order when nothing is declared and the bytes are not UTF-8; the
# first that decodes strictly and looks like text wins (CJK sites dominate
# undeclared non-UTF-8 pages).
_DETECT_CANDIDATES = ("gb18030", "big5", "shift_jis", "euc-kr", "cp1252")


def _strict(data: bytes, encoding: str) -> str | None:
    try:
        return data.decode(encoding)
    except (UnicodeDecodeError, LookupError):
        return None


# Where the NUL bytes fall in the first four bytes of a page in a wide
# encoding with no BOM, when they hold ASCII (markup or white space): the
# XML specification's autodetection (appendix F), for any ASCII character.
_WIDE_BY_NULS = {
    (False, True, False, True): "utf-16-le",
    (True, False, True, False): "utf-16-be",
    (False, True, True, True): "utf-32-le",
    (True, True, True, False): "utf-32-be",
}


def wide_encoding(data: bytes) -> str | None:
    """UTF-16 or UTF-32 (and its byte order) of a page without a BOM, else None.

    An 8-bit or UTF-8 page never holds NUL bytes in its markup, one in UTF-16
    one in every second byte of it: the first four bytes tell which, for the
    cost of a slice and one search on an ordinary page. The page must then
    open with a tag after white space, as markup does (a binary file whose
    first bytes happen to fit the pattern does not).
    """
    head = data[:4]
    if b"\0" not in head or len(head) < 4 or not head.isascii():
        return None
    encoding = _WIDE_BY_NULS.get(tuple(byte == 0 for byte in head))
    if encoding is None or not data[:256].decode(encoding, "ignore").lstrip().startswith("<"):
        return None
    return encoding


def _detect(data: bytes) -> str:
    """Guess the encoding of undeclared non-UTF-8 bytes.

    charset_normalizer is asked first; when it is unsure we fall back to the
    first candidate that decodes strictly, which is right for GBK pages (the
    common case in the wild) and harmless for Latin-1 ones.
    """
    try:
        from charset_normalizer import from_bytes
    except ImportError:  # pragma: no cover - optional speed-up
        best = None
    else:
        best = from_bytes(data[:200_000]).best()
    if best is not None and best.encoding:
        return resolve_encoding(best.encoding) or best.encoding
    for enc in _DETECT_CANDIDATES:
        if _strict(data, enc) is not None:
            return enc
    return "cp1252"


def detect_encoding(data: bytes, content_type: str | None = None) -> str:
    """Pick the encoding of ``data``: BOM, UTF-16/32 by its NULs, header, UTF-8 check,
    meta charset, detection.

    Scrapy trusts a meta charset blindly; we check UTF-8 validity before it
    because pages that are UTF-8 but declare GBK (or the reverse template
    leftover) are common and a strict UTF-8 decode of non-ASCII bytes is
    almost never a false positive.
    """
    return _detection(data, content_type)[0]


def _detection(data: bytes, content_type: str | None = None) -> tuple[str, str | None]:
    """:func:`detect_encoding`'s choice, and ``data`` decoded with it when a strict
    decode of all of ``data`` is what proved the choice (the text is kept, not
    decoded a second time), else None."""
    bom_enc, _ = read_bom(data)
    if bom_enc:  # (before the header, as Scrapy does: w3lib's html_to_unicode)
        return bom_enc, None
    wide = wide_encoding(data)
    if wide:  # (before the header too: its "utf-16" does not say the byte order)
        return wide, _strict(data, wide)
    header_enc = http_content_type_encoding(content_type) if content_type else None
    if header_enc and (text := _strict(data, header_enc)) is not None:
        return header_enc, text
    if (text := _strict(data, "utf-8")) is not None:
        return "utf-8", text
    declared = html_body_declared_encoding(data)
    if declared:
        declared = resolve_encoding(declared) or declared
        if declared in ("gb2312", "gbk"):
            declared = "gb18030"
        try:
            codecs.lookup(declared)
        except LookupError:
            declared = None
    if declared and (text := _strict(data, declared)) is not None:
        return declared, text
    if header_enc:
        return header_enc, None
    return declared or _detect(data), None


def looks_binary(data: bytes) -> bool:
    """True for images, PDFs, archives: NUL bytes or magic numbers up front."""
    head = data[:1024]
    if head.startswith((b"%PDF", b"\x89PNG", b"GIF8", b"\xff\xd8\xff", b"PK\x03\x04", b"\x1f\x8b")):
        return True
    bom_enc, _ = read_bom(head)
    if bom_enc and bom_enc.startswith(("utf-16", "utf-32")) or wide_encoding(head):
        return False
    return head.count(b"\x00") > 0


def decode_html(data: bytes | str, content_type: str | None = None) -> str:
    """Return the page as text; raise NotHtmlError/EmptyDocumentError on bad input."""
    return _decoded(data, content_type)[0]


def _decoded(data: bytes | str, content_type: str | None = None) -> tuple[str, bytes | None]:
    """:func:`decode_html`'s text, and the body bytes when they are that text's exact UTF-8.

    Most pages come as UTF-8: the parser reads UTF-8 bytes, and encoding
    the text again would rebuild the bytes we were given (a copy of the
    whole page). Only a strict UTF-8 decode proves the bytes are exactly
    the text's encoding; any other decode gives no bytes (None).
    """
    if isinstance(data, str):
        text, same = data, None
    elif not isinstance(data, bytes | bytearray):
        raise TypeError(f"the page must be bytes or str, not {type(data).__name__}")
    else:
        if not data or data.isspace():  # (strip() would copy the whole body to say so)
            raise EmptyDocumentError("empty body")
        if looks_binary(data):
            raise NotHtmlError("binary body (not HTML)")
        encoding, text = _detection(data, content_type)
        bom_enc, bom = read_bom(data)
        if bom_enc:  # the detection's text, if any, holds the BOM
            text = None
        body = data[len(bom):] if bom_enc else data
        if text is None and _is_utf8(encoding):
            text = _strict(body, "utf-8")
        same = body if text is not None and _is_utf8(encoding) else None
        if text is None:
            text = body.decode(encoding, errors="replace")
    if holds_nothing(text):
        raise EmptyDocumentError("empty document: no text and no start tag")
    return text, same


# What a page may hold and still be empty: white space, the C0 controls the
# parser drops, byte order marks (a str read from a file with "utf-8" rather
# than "utf-8-sig" keeps its U+FEFF, which bytes lose in the decode),
# comments (an unclosed one runs to the end, as in browsers), doctypes
# and other "<!" declarations, processing instructions ("<?xml"),
# end tags. Comments end as HTML5 (and libxml2) end them: "<!-->", "<!--->",
# "-->", "--!>". Possessive: the scan never goes back over what it read.
_NOTHING_RE = re.compile(
    r"(?:[\s\ufeff\x00-\x08\x0b\x0c\x0e-\x1f]+|<!--(?:-?>|.*?--!?>|.*\Z)|<![^>]*>?|<\?[^>]*>?|</[^>]*>?)*+",
    re.S,
)


def holds_nothing(text: str) -> bool:
    """The page holds no text and no start tag: an empty document for every public call.

    libxml2 builds no tree for such a page; the page type works on the text
    and would call it an index page. One cheap check here, shared by all
    three calls, makes them agree: each raises EmptyDocumentError. On an
    ordinary page the scan stops at the first start tag (after the doctype).
    """
    return _NOTHING_RE.match(text).end() == len(text)


def _is_utf8(encoding: str) -> bool:
    try:
        return codecs.lookup(encoding).name == "utf-8"
    except LookupError:
        return False


def looks_like_html(data: bytes | str) -> bool:
    """Cheap check that a body is markup rather than JSON, CSV or plain text."""
    head = data[:4096] if isinstance(data, bytes) else data[:4096].encode("utf-8", "replace")
    wide = (read_bom(head)[0] or wide_encoding(head)) if isinstance(data, bytes) else None
    if wide and wide != "utf-8":  # UTF-16/32 markup holds NULs between its letters
        head = head.decode(wide, "replace").encode("utf-8")
    return bool(_MARKUP_RE.search(head))


_FEED_RE = re.compile(
    rb"^\s*(?:<\?xml[^>]*>\s*)?(?:<!--.*?-->\s*|<\?[^>]*>\s*)*<(?:rss|feed|rdf:RDF|urlset|sitemapindex)\b",
    re.DOTALL,
)


def looks_like_feed(data: bytes) -> bool:
    """RSS/Atom feeds and sitemaps: XML whose root is not html, though it has <title>s.

    They pass a markup sniff (they hold <title> and <a>-like tags) yet are
    not pages: the CLI and the middleware both skip them as non-HTML.
    """
    return bool(_FEED_RE.match(data[:4096].lstrip(b"\xef\xbb\xbf")))


# The page is handed to libxml2 as UTF-8 bytes with the encoding named: a
# Python str would be passed in its internal width and converted inside
# libxml2, about a third slower. IDs are not collected: nothing looks
# elements up by id, and the table costs time on every page.
_PARSER = lxml_html.HTMLParser(
    encoding="utf-8", huge_tree=True, remove_comments=True, remove_pis=True,
    remove_blank_text=False, collect_ids=False,
)
# Every element a plain HtmlElement, chosen in C: lxml.html's own lookup is a
# Python call per element proxy (for form/input subclasses nothing here uses),
# about a tenth of product extraction time.
_PARSER.set_element_class_lookup(etree.ElementDefaultClassLookup(
    element=lxml_html.HtmlElement, comment=lxml_html.HtmlComment,
    pi=lxml_html.HtmlProcessingInstruction, entity=lxml_html.HtmlEntity))


_TAG_RE = re.compile(r"<(/?)([a-zA-Z][a-zA-Z0-9:-]*)[^>]*?(/?)>")
_VOID = frozenset(
    "area base br col embed hr img input link meta param source track wbr".split()
)
MAX_DEPTH = 1000


def flatten_nesting(text: str, max_depth: int = MAX_DEPTH) -> str:
    """Drop tags nested deeper than ``max_depth`` so their text survives parsing.

    libxml2 stops at 2048 levels and throws the rest of the page away; the
    text below that depth is real content (generated or hostile markup), so we
    keep it by removing the excess tags, scanning the tags once, with no tree.
    """
    depth = 0
    out: list[str] = []
    pos = 0
    for match in _TAG_RE.finditer(text):
        closing, name, selfclose = match.group(1), match.group(2).lower(), match.group(3)
        if name in _VOID or selfclose:
            continue
        if closing:
            drop = depth > max_depth
            depth = max(depth - 1, 0)
        else:
            depth += 1
            drop = depth > max_depth
        if drop:
            out.append(text[pos:match.start()])
            pos = match.end()
    out.append(text[pos:])
    return "".join(out)


# The same bytes one by one: ``in`` looks for a single byte with memchr, so
# checking all of them costs about two thirds of one translate, which copies
# the page; pages almost never hold any.
_CTRL_EACH = tuple(bytes((byte,)) for byte in _CTRL_BYTES)


# libxml2 checks each attribute name of a start tag against all the earlier
# ones of the tag: 10^4 attributes parse in 0.2 s, 10^5 (one tag under 1 MB)
# for minutes. Distinct names take three bytes or more past the first few
# hundred, so a tag under LONG_TAG bytes holds under about 8,000 attributes
# (0.1 s), and only longer tags are looked at: one with over MAX_ATTRIBUTES
# attributes (no real page has them) keeps its first MAX_ATTRIBUTES.
LONG_TAG = 32_768
MAX_ATTRIBUTES = 1_000
_ATTR_RE = re.compile(rb"""[^\s=/>"']+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'>]+))?""")


def cap_attributes(data: bytes) -> bytes:
    """``data`` with every start tag of over ``MAX_ATTRIBUTES`` attributes cut to that many.

    Why so cheap on ordinary pages: any run of ``LONG_TAG`` bytes holds
    one of the page's blocks of ``LONG_TAG // 2`` bytes whole, so a page in
    which every such block holds a ">" has no tag that long, and a search
    for ">" stops within a few dozen bytes of each block's start. Only a
    block with no ">" (a long tag, or long text, script or JSON) costs a
    closer look. A tag whose attribute values hold ">" (quoted) escapes the
    gate; see the README's Limits.
    """
    step = LONG_TAG // 2
    kept: list[bytes] = []
    pos = 0  # where the page is copied from next
    seen = 0  # the end of the last run of bytes with no ">" looked at
    for start in range(0, len(data) - step + 1, step):
        if start < seen or data.find(b">", start, start + step) >= 0:
            continue
        closed = data.find(b">", start + step)
        seen = closed = len(data) if closed < 0 else closed
        opened = _first_tag(data, max(data.rfind(b">", pos, start), pos), closed - step)
        if opened < 0 or _in_raw_text(data, opened, b"script"):
            continue  # text, JSON or a script, or a tag shorter than a block
        words = list(islice(_ATTR_RE.finditer(data, opened + 1, closed), MAX_ATTRIBUTES + 2))
        # the tag's name, then too many attributes; unless it is no tag (a
        # search back that finds no comment or style may read the whole page)
        if len(words) > MAX_ATTRIBUTES + 1 and not any(
                _in_raw_text(data, opened, name) for name in (b"SCRIPT", b"style", b"STYLE", b"!--")):
            kept += [data[pos:opened + 1], b" ".join(word.group() for word in words[:-1])]
            pos = closed
    if not kept:
        return data
    kept.append(data[pos:])
    return b"".join(kept)


def _first_tag(data: bytes, start: int, end: int) -> int:
    """Where the first start tag ("<" and a letter) of a run of bytes with no ">"
    begins, if before ``end``, else -1: a later "<" is in one of its quoted values.

    A search for "<" (a memchr in C) crosses long text, where "<" is rare,
    several times faster than a regular expression would.
    """
    at = data.find(b"<", start, end)
    while at >= 0 and not data[at + 1:at + 2].isalpha():
        at = data.find(b"<", at + 1, end)
    return at


def _in_raw_text(data: bytes, at: int, name: bytes) -> bool:
    """Whether ``at`` is inside the element ``name`` (a comment for "!--") left open
    before it, where libxml2 reads no tag. Each search back stops at the nearest
    opening and closing, close by when the page has that element."""
    closing = b"-->" if name == b"!--" else b"</" + name
    return data.rfind(b"<" + name, 0, at) > data.rfind(closing, 0, at)


def _parser_input(text: str, utf8: bytes | None = None) -> bytes:
    """UTF-8 without the control characters libxml2 refuses (a lone surrogate becomes '?'),
    and no start tag with more than ``MAX_ATTRIBUTES`` attributes (:func:`cap_attributes`).

    ``utf8``: ``text`` already encoded (the bytes the page came as), used as they are.
    """
    data = text.encode("utf-8", "replace") if utf8 is None else utf8
    if any(byte in data for byte in _CTRL_EACH):
        data = data.translate(None, _CTRL_BYTES)
    return cap_attributes(data)


def _parse(data: bytes) -> tuple[lxml_html.HtmlElement | None, bool]:
    root = lxml_html.document_fromstring(data, parser=_PARSER)
    too_deep = any("depth" in err.message for err in _PARSER.error_log)
    return root, too_deep


def parse_html(text: str) -> lxml_html.HtmlElement:
    """Parse text into an lxml tree, tolerating any markup lxml accepts."""
    return _parsed(text)[0]


def _parsed(text: str, utf8: bytes | None = None) -> tuple[lxml_html.HtmlElement, bytes]:
    """:func:`parse_html`'s tree and the UTF-8 bytes libxml2 read to build it.

    ``utf8`` may give ``text`` as UTF-8 bytes already (see ``_decoded``).
    """
    declared = _XML_DECL_RE.match(text)
    if declared:
        text, utf8 = text[declared.end():], None  # (the bytes still hold the declaration)
    if not text or text.isspace():
        raise EmptyDocumentError("empty document")
    data = _parser_input(text, utf8)
    if not data or data.isspace():
        raise EmptyDocumentError("empty document")
    try:
        root, too_deep = _parse(data)
        if too_deep:
            data = _parser_input(flatten_nesting(text))
            root, _ = _parse(data)
    except etree.ParserError as exc:
        if "empty" not in str(exc):
            raise EmptyDocumentError(f"unparseable document: {exc}") from exc
        # libxml2 found no element though the page holds some text or a
        # start tag ("<html" unclosed): an empty page, read as one, as the
        # page type reads it (only a page of nothing is EmptyDocumentError).
        root = lxml_html.document_fromstring(b"<html><body></body></html>", parser=_PARSER)
    except ValueError as exc:
        raise EmptyDocumentError(f"unparseable document: {exc}") from exc
    if root is None:
        raise EmptyDocumentError("unparseable document")
    return root, data


def body_of(tree: lxml_html.HtmlElement) -> lxml_html.HtmlElement:
    """The ``<body>`` of a parsed page, or the root when it has none.

    libxml2 puts ``<body>`` right under ``<html>``: a child lookup finds it in
    microseconds, where ``find(".//body")`` (a descendant search run by
    lxml's Python ElementPath) cost about 0.3 ms per page.
    """
    body = tree.find("body")
    if body is None:
        body = tree.find(".//body")
    return body if body is not None else tree


# The tags the product scans look up all over the page: the structured data
# (scripts, metas), the title, headings and stock controls (Document.tagged).
WALKED_TAGS = ("title", "script", "meta", "link", "h1", "h2", "h3", "button", "input", "form")


class TaggedElements:
    """The elements of some tags, found in one walk of the tree, in document order.

    The product scans read scripts, metas, the title, headings and buttons;
    each search for a tag walks the whole tree in C (about 0.1 ms on a shop
    page), as long as one search for all of them. ``tags`` gives the
    elements of the tags asked for; ``in_body`` only those under ``body``.
    """

    def __init__(self, tree: lxml_html.HtmlElement, body: lxml_html.HtmlElement,
                 tags: tuple[str, ...]) -> None:
        self.walked = frozenset(tags)
        self.order: list = []
        self._body = body
        self._body_at: int | None = 0 if body is tree else None
        for el in tree.iter(*tags, "body"):
            if el is body:
                self._body_at = len(self.order)
            elif el.tag in self.walked:
                self.order.append(el)
        if self._body_at is not None and not _ends_the_tree(body, tree):
            self._body_at = None  # elements after <body> outside it: walk the body apart

    def tags(self, *tags: str, in_body: bool = False) -> list:
        """The elements of ``tags`` (all among the walked ones), in document order."""
        if not self.walked.issuperset(tags):
            raise ValueError(f"not walked: {sorted(set(tags) - self.walked)}")
        if not in_body:
            order = self.order
        elif self._body_at is not None:
            order = self.order[self._body_at:]
        else:
            return list(self._body.iter(*tags))
        return [el for el in order if el.tag in tags]

    def title(self) -> str | None:
        """``tree.findtext(".//title")``: the first ``<title>``'s text, "" if empty, None if absent."""
        for el in self.order:
            if el.tag == "title":
                return el.text or ""
        return None


def _ends_the_tree(node: lxml_html.HtmlElement, root: lxml_html.HtmlElement) -> bool:
    """Nothing follows ``node``'s subtree in document order (no next sibling up to the root)."""
    while node is not None and node is not root:
        if node.getnext() is not None:
            return False
        node = node.getparent()
    return True


# Text read by Document.visible_text: enough for the top of any article.
VISIBLE_TEXT_CHARS = 200_000
SKIP_TEXT_TAGS = frozenset({"script", "style", "noscript", "template", "textarea", "select", "svg"})


class Document:
    """One page: its text, URL and a lazily parsed tree shared by extractors."""

    def __init__(self, html: bytes | str, url: str | None = None, content_type: str | None = None) -> None:
        self.url = checked_url(url)
        self.html, self._utf8 = _decoded(html, content_type)

    @cached_property
    def tree(self) -> lxml_html.HtmlElement:
        """The parsed tree; treat it as read-only (use fresh_tree to mutate)."""
        root, self._markup = _parsed(self.html, self._utf8)
        self._utf8 = None  # the parser's bytes are kept as ``markup`` now
        return root

    @property
    def markup(self) -> bytes:
        """The page as the UTF-8 bytes the parser read (parsed first if need be).

        For scans of the whole page's markup: bytes are searched faster than
        text, and lower-cased much faster, and the parse made them anyway.
        """
        _ = self.tree
        return self._markup

    @cached_property
    def meta(self) -> dict[str, str]:
        """``<meta>`` values by lower-cased name (``structured.meta_tags``), read once.

        Title, metadata, kind and product code all consult them; shared, so read-only.
        """
        from .structured import meta_tags

        return meta_tags(self.tree, self._scripts_and_metas[1])

    @cached_property
    def json_ld(self) -> list[dict]:
        """Typed JSON-LD objects (``structured.json_ld_objects``), decoded once; read-only."""
        from .structured import json_ld_objects

        return json_ld_objects(self.tree, self._scripts_and_metas[0])

    @cached_property
    def _scripts_and_metas(self) -> tuple[list, list]:
        """``<script>`` and ``<meta>`` elements, one walk for both properties above
        (none when :attr:`tagged` walked the tree already)."""
        if "tagged" in self.__dict__:
            return self.tagged.tags("script"), self.tagged.tags("meta")
        from .structured import scripts_and_metas

        return scripts_and_metas(self.tree)

    @cached_property
    def tagged(self) -> TaggedElements:
        """The elements of ``WALKED_TAGS``, one walk for every product scan that reads them.

        Only the product extractor asks: the page type and articles read
        scripts and metas alone, which their own walk finds for less.
        """
        return TaggedElements(self.tree, body_of(self.tree), WALKED_TAGS)

    @cached_property
    def visible_text(self) -> str:
        """Visible text of the body, ``\n`` at blocks, up to ``VISIBLE_TEXT_CHARS``.

        One walk of the tree serves every reader of the page's text near its
        top (dates, bylines, the language guess) instead of one walk each.
        """
        from .text.common import body_block_text

        return body_block_text(self.tree, SKIP_TEXT_TAGS, VISIBLE_TEXT_CHARS)

    def memo(self, key: Hashable, build: Callable[[], _T], by_url: bool = False) -> _T:
        """``build()``, computed once per Document and kept on it.

        For what several extractors read from one page but the Document
        cannot compute itself (its modules import this one): the title, the
        site-name test, structured items, text leaves. ``by_url``: the value
        reads ``url``, which :func:`as_document` may set after the first
        reader, so it is computed again for a new URL.
        """
        memo = self.__dict__.setdefault("_memo", {})
        slot = (key, self.url) if by_url else key
        if slot not in memo:
            memo[slot] = build()
        return memo[slot]

    def fresh_tree(self) -> lxml_html.HtmlElement:
        """A private copy of the tree for algorithms that delete nodes."""
        return parse_html(self.html)


def checked_url(url: str | None) -> str | None:
    """The page URL, checked once here so that the extractors, which split it
    to read its host, never meet one ``urlsplit`` rejects ("http://[::1")."""
    if url is None:
        return None
    if not isinstance(url, str):
        raise TypeError(f"url must be str or None, not {type(url).__name__}")
    try:
        urlsplit(url)
    except ValueError as exc:
        raise ContentexError(f"unparseable url {url[:200]!r}: {exc}", reason="bad_url") from exc
    return url


def as_document(html: bytes | str | Document, url: str | None = None) -> Document:
    """Accept a Document, bytes or text, so every entry point takes all three."""
    if isinstance(html, Document):
        if url and not html.url:
            html.url = checked_url(url)
        return html
    return Document(html, url=url)
