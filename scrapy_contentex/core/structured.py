"""Structured data embedded in pages: JSON-LD and meta tags.

Publishers put their own ground truth in JSON-LD and OpenGraph; every
extractor reads it first and falls back to the page layout without it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import numpy as np
from lxml import etree
from lxml import html as lxml_html

if TYPE_CHECKING:
    from .document import Document

_TRAILING_COMMA_RE = re.compile(r",\s*([}\]])")
_CTRL_RE = re.compile(r"[\x00-\x1f]")


def _loads_tolerant(raw: str) -> Any:
    """Parse JSON the way browsers' consumers do: forgive common breakage.

    Real pages ship JSON-LD with raw newlines inside strings, trailing commas,
    HTML comments or CDATA wrappers, and several objects back to back.
    """
    text = raw.strip()
    for junk in ("<!--", "-->", "<![CDATA[", "]]>"):
        text = text.replace(junk, "")
    text = text.strip().rstrip(";")
    if not text:
        return None
    attempts = (
        lambda t: json.loads(t),
        lambda t: json.loads(t, strict=False),
        lambda t: json.loads(_TRAILING_COMMA_RE.sub(r"\1", t), strict=False),
        lambda t: json.loads(_CTRL_RE.sub(" ", _TRAILING_COMMA_RE.sub(r"\1", t))),
    )
    for attempt in attempts:
        try:
            return attempt(text)
        except ValueError:
            continue
        except RecursionError:
            # nested deeper than the JSON decoder's recursion goes: hostile
            # or generated junk, not data a page means anyone to read
            return None
    return _loads_concatenated(_CTRL_RE.sub(" ", text))


def _loads_concatenated(text: str) -> list[Any] | None:
    """Decode several JSON values written one after another (``}{``)."""
    decoder = json.JSONDecoder(strict=False)
    values: list[Any] = []
    pos = 0
    while pos < len(text):
        while pos < len(text) and text[pos] in " \t\r\n,":
            pos += 1
        if pos >= len(text):
            break
        try:
            value, pos = decoder.raw_decode(text, pos)
        except (ValueError, RecursionError):
            break
        values.append(value)
    return values or None


def _walk(data: Any) -> Iterator[dict]:
    """Yield every dict with a ``@type`` anywhere in the data, without recursion."""
    stack = [data]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if "@type" in node:
                yield node
            stack.extend(reversed(list(node.values())))
        elif isinstance(node, list):
            stack.extend(reversed(node))


def scripts_and_metas(tree: lxml_html.HtmlElement) -> tuple[list, list]:
    """The page's ``<script>`` and ``<meta>`` elements, found in one walk of the tree.

    JSON-LD and meta tags are read from every page; each search for one tag
    walks the whole tree, which costs as much as one search for both.
    """
    scripts: list = []
    metas: list = []
    for el in tree.iter("script", "meta"):
        (scripts if el.tag == "script" else metas).append(el)
    return scripts, metas


def json_ld_objects(tree: lxml_html.HtmlElement, scripts: list | None = None) -> list[dict]:
    """Every typed JSON-LD object of the page, ``@graph`` and nesting flattened.

    ``scripts`` may pass the page's ``<script>`` elements when the caller has them.
    """
    objects: list[dict] = []
    for script in tree.iter("script") if scripts is None else scripts:
        if "ld+json" not in (script.get("type") or "").lower():
            continue
        data = _loads_tolerant(script.text or "")
        if data is not None:
            objects.extend(_walk(data))
    return objects


# Every microdata/RDFa item opens with an ``itemscope`` or a ``typeof``
# attribute; libxml2 lower-cases attribute names, so any spelling is one.
_ATTR_EQUALS_RE = re.compile(rb"\s*=")
# OR-ing 0x20 into a byte folds ASCII upper case onto lower case: a folded
# byte equals a lower-case letter exactly when the byte was that letter in
# either case (as ``bytes.lower`` reads it), whatever other bytes become.
_CASE_BIT = 0x20
# The page is searched in pieces of this many bytes (plus a word's length
# across each cut), in buffers made once per call: temporaries the size of a
# whole page cost more in page faults than the search itself.
_PIECE = 1 << 16
_OVERLAP = 8  # len(b"itemscope") - 1


def _folded_starts(folded: np.ndarray, word: bytes, anchor: int, hit: np.ndarray,
                   other: np.ndarray) -> list[int]:
    """Positions where ``word`` (lower-case ASCII letters) starts in ``folded``, ascending.

    Two letters of the word from ``anchor`` on (a pair rare in pages) are
    compared over the whole piece in numpy, into the buffers ``hit`` and
    ``other``; the few positions holding both are then checked letter by letter.
    """
    size = len(folded) - len(word) + 1
    if size <= 0:
        return []
    hit, other = hit[:size], other[:size]
    np.equal(folded[anchor:anchor + size], word[anchor], out=hit)
    np.equal(folded[anchor + 1:anchor + 1 + size], word[anchor + 1], out=other)
    hit &= other
    at = np.flatnonzero(hit)
    for j, letter in enumerate(word):
        if at.size and j not in (anchor, anchor + 1):
            at = at[folded[at + j] == letter]
    return at.tolist()


def may_hold_items(markup: bytes) -> bool:
    """Whether a page (its markup as bytes) may hold a microdata/RDFa item.

    Without an ``itemscope`` or ``typeof`` attribute it holds none, and
    collecting the item attributes from the tree costs about a millisecond
    whatever it finds. Most pages spell "typeof" only in their scripts (the
    JavaScript operator), never followed by "=": only ``typeof=`` counts.
    Any spelling counts ("itemScope" in React pages): the words are looked
    for case-blind, the answer of a search in the lower-cased bytes, where
    ``bytes.find`` in a lower-cased copy cost about twice as much (these
    words' common letters defeat its skips).
    """
    codes = np.frombuffer(markup, dtype=np.uint8)
    folded = np.empty(_PIECE + _OVERLAP, dtype=np.uint8)
    hit, other = np.empty(_PIECE + _OVERLAP, dtype=bool), np.empty(_PIECE + _OVERLAP, dtype=bool)
    for start in range(0, len(codes), _PIECE):
        piece = codes[start:start + _PIECE + _OVERLAP]  # a word across the cut is read whole
        low = np.bitwise_or(piece, _CASE_BIT, out=folded[:len(piece)])
        if _folded_starts(low, b"itemscope", 3, hit, other):  # anchored on "ms"
            return True
        # "=" and blanks are no letters: the page's own bytes read as the lower-cased ones
        if any(_ATTR_EQUALS_RE.match(markup, start + pos + 6)
               for pos in _folded_starts(low, b"typeof", 3, hit, other)):  # anchored on "eo"
            return True
    return False


def document_objects(doc: Document) -> list[dict]:
    """JSON-LD objects, then microdata/RDFa items, of a Document, read once per Document.

    The kind guess and the product extractor both read them (the pipeline's
    auto kind runs both on one page). The list and its dicts are shared:
    treat them as read-only.
    """
    def build() -> list[dict]:
        objects = list(doc.json_ld)  # the Document's: decoded once for every reader
        if may_hold_items(doc.markup):
            objects += microdata_items(doc.tree)  # same shape: typed dicts
        return objects

    return doc.memo("objects", build)


def types_of(obj: dict) -> set[str]:
    """The schema.org types of an object, without URL prefixes."""
    raw = obj.get("@type")
    values = raw if isinstance(raw, list) else [raw]
    return {str(v).rsplit("/", 1)[-1] for v in values if v}


def meta_tags(tree: lxml_html.HtmlElement, metas: list | None = None) -> dict[str, str]:
    """``<meta>`` values by lower-cased name/property/itemprop (first one wins).

    ``metas`` may pass the page's ``<meta>`` elements when the caller has them.
    """
    found: dict[str, str] = {}
    for meta in tree.iter("meta") if metas is None else metas:
        content = meta.get("content")
        if content is None:
            continue
        for attr in ("property", "name", "itemprop", "http-equiv"):
            key = meta.get(attr)
            if key:
                found.setdefault(key.strip().lower(), content.strip())
    return found


# ---------------------------------------------------------------------------
# Microdata and RDFa lite
# ---------------------------------------------------------------------------

_URL_VALUE_TAGS = {"a": "href", "link": "href", "area": "href", "img": "src", "source": "src",
                   "audio": "src", "video": "src", "embed": "src", "iframe": "src",
                   "object": "data"}
_MAX_ITEM_VALUE = 5000


def _prop_value(el: lxml_html.HtmlElement) -> str:
    """The value of one ``itemprop`` element, as the microdata spec defines it.

    ``content`` wins (meta and many shops put the clean value there), then
    the URL attribute of links and media, ``datetime``/``value``, then text.
    """
    content = el.get("content")
    if content is not None:
        return content.strip()
    tag = el.tag if isinstance(el.tag, str) else ""
    attr = _URL_VALUE_TAGS.get(tag)
    if attr and el.get(attr):
        return el.get(attr).strip()
    for attr in ("datetime", "value"):
        if el.get(attr) is not None and tag in ("time", "data", "meter", "input"):
            return el.get(attr).strip()
    text = " ".join(el.text_content().split())
    return text[:_MAX_ITEM_VALUE]


def _add_prop(item: dict, names: str, value: Any) -> None:
    for name in names.split():
        name = name.rsplit("/", 1)[-1]
        item.setdefault(name, []).append(value)


# The item attributes themselves, in document order (an attribute union is
# about twice as fast in libxml2 as testing four attributes on every element).
# Each step walks elements only: "//@x" is descendant-or-self::node()/@x,
# which also visits every text node, a quarter slower on microdata pages.
_ITEM_ATTRS = etree.XPath(" | ".join(f"descendant-or-self::*/@{name}"
                                     for name in ("itemscope", "typeof", "itemprop", "property")))


def _item_elements(tree: lxml_html.HtmlElement) -> list:
    """Elements carrying any item attribute, each once, in document order."""
    elements: list = []
    seen: set = set()
    for attr in _ITEM_ATTRS(tree):
        el = attr.getparent()
        if el not in seen:
            seen.add(el)
            elements.append(el)
    return elements


def microdata_items(tree: lxml_html.HtmlElement) -> list[dict]:
    """Every microdata (``itemscope``/``itemprop``) and RDFa-lite (``typeof``/``property``) item.

    Each item is a dict ``{"@type": [...], prop: [values...]}``; a property whose
    element is itself an item holds that item's dict, so offers and brands
    nest as in JSON-LD. Only the elements that carry item attributes are
    visited (one C-level XPath, in document order); each finds its owning
    item by walking up to the nearest scope, with every node met on the way
    remembered, so the cost stays linear on any page and safe at any depth.
    Walking whole scopes instead would visit every element of pages whose
    ``<body>`` is an item (common: ``WebPage``).
    """
    items: list[dict] = []
    nodes = _item_elements(tree)
    if not nodes:
        return items
    # element -> the item it opens (scopes only)
    item_of: dict = {}
    # element -> the item its children belong to (None: outside every scope)
    inner: dict = {}
    for el in nodes:
        owner = _owner_item(el, item_of, inner)
        scope = el.get("itemscope") is not None or el.get("typeof") is not None
        prop = el.get("itemprop")
        if prop is None:
            rdfa = el.get("property")
            # RDFa lite properties are bare words inside a typeof scope;
            # "og:title" style names are OpenGraph meta tags, read elsewhere.
            if rdfa and ":" not in rdfa and owner is not None:
                prop = rdfa
        if scope:
            raw_type = el.get("itemtype") or el.get("typeof") or ""
            item: dict = {"@type": [t.rsplit("/", 1)[-1] for t in raw_type.split() if t]}
            if prop and owner is not None:
                _add_prop(owner, prop, item)
            else:
                items.append(item)
            item_of[el] = item
            inner[el] = item
        elif prop and owner is not None:
            _add_prop(owner, prop, _prop_value(el))
    return items


def _owner_item(el: lxml_html.HtmlElement, item_of: dict, inner: dict) -> dict | None:
    """The item of the nearest enclosing scope of ``el`` (not ``el`` itself), or None.

    ``inner`` remembers, for every ancestor already walked through, the item
    its descendants belong to, so each element is climbed over at most once.
    """
    path = []
    node = el.getparent()
    found: dict | None = None
    while node is not None:
        if node in inner:
            found = inner[node]
            break
        if node in item_of:
            found = item_of[node]
            break
        path.append(node)
        node = node.getparent()
    for passed in path:
        inner[passed] = found
    return found


def first_value(obj: Any, *keys: str) -> Any:
    """First non-empty value among ``keys`` of a JSON-LD or microdata dict.

    Microdata values are lists and JSON-LD values may be lists too; both
    collapse to their first meaningful element here.
    """
    if not isinstance(obj, dict):
        return None
    for key in keys:
        value = obj.get(key)
        if isinstance(value, list):
            value = next((v for v in value if v not in (None, "", [], {})), None)
        if value not in (None, "", [], {}):
            return value
    return None


# ---------------------------------------------------------------------------
# OpenGraph / product meta tags
# ---------------------------------------------------------------------------

_PRODUCT_META_KEYS = {
    "price": ("product:price:amount", "og:price:amount", "product:sale_price:amount",
              "twitter:data1:price", "price"),
    "currency": ("product:price:currency", "og:price:currency",
                 "product:sale_price:currency", "pricecurrency", "currency"),
    "availability": ("product:availability", "og:availability", "availability"),
    "brand": ("product:brand", "og:brand", "brand"),
    "sku": ("product:retailer_item_id", "product:sku", "sku"),
    "gtin": ("product:gtin", "product:ean", "product:upc", "product:isbn", "books:isbn",
             "book:isbn"),
    "mpn": ("product:mfr_part_no", "product:mpn"),
    "name": ("og:title", "twitter:title"),
    "description": ("og:description", "description", "twitter:description"),
    "type": ("og:type",),
}


def product_meta(tree: lxml_html.HtmlElement, meta: dict[str, str] | None = None) -> dict[str, str]:
    """Product facts from OpenGraph / Facebook-catalog style ``<meta>`` tags.

    Keys: price, currency, availability, brand, sku, gtin, mpn, name,
    description, type (og:type); only those present are returned.
    """
    meta = meta if meta is not None else meta_tags(tree)
    found: dict[str, str] = {}
    for field_name, keys in _PRODUCT_META_KEYS.items():
        for key in keys:
            value = meta.get(key)
            if value:
                found[field_name] = value
                break
    return found
