"""Structured records by seed 000 (VSSE), section 4.3.2: characteristic weights and a Viterbi walk.

The seed finds the *record area* of a page (the block listing a product's
attribute/value pairs) with no per-site rule:

1. A **characteristic container** holds what record text looks like: the
   delimiters ``:`` and ``：`` and a dictionary of popular attribute names in
   English and Chinese (brand/品牌, price/价格, ISBN, publisher/出版社 ...),
   extensible by the caller.
2. Every non-leaf node gets the weight of Formula 3,
   ``WVC(i) = sum_k n_k * log(N / n_k)``, where ``n_k`` counts the text leaves
   below node i that show characteristic k and ``N`` counts all text leaves of
   the page. Counts are summed bottom-up (children before parents, one pass
   in reverse document order, no recursion).
3. A **Viterbi walk** runs from ``<body>`` down the tree. Our reading of the
   paper: the hidden states at time t are the nodes of depth t below body
   reachable from the previous best node; the observation is the node's tag;
   the transition ``a_ji`` from parent j to child i starts equiprobable and
   the emission ``b(O_i)`` is the child's characteristic weight, so the
   weight a parent hands to child i is ``a_ji * b_i / sum_l a_jl * b_l`` — the
   child's share of the weight under j. ``delta_t`` is the product of those
   shares along the path and ``psi(t)`` the best child. The walk terminates
   ("psi(m) >= psi(m+1)": the next level is no better than this one) when the
   best child keeps less than ``keep`` of its parent's weight: below that
   point the records are split between several children, so the current node
   is the record area.

Out of the area we read attribute/value pairs from tables (th/td and
two-cell rows), definition lists, label/value siblings and ``label: value``
lines, and drop pairs whose name reads like a sentence or whose value is
empty or huge.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from lxml.html import HtmlElement

from .lang import normalize_space, token_count
from .text.common import BLOCK_TAGS

DELIMITERS = (":", "：")

# Popular attribute names (lower case). English and Chinese first-class, a few
# other European languages because shops label the same facts everywhere.
ATTRIBUTE_NAMES: tuple[str, ...] = (
    # generic product facts
    "brand", "品牌", "manufacturer", "制造商", "生产厂家", "厂家", "price", "价格", "售价",
    "原价", "市场价", "model", "型号", "model number", "item model number", "sku", "货号",
    "商品编号", "mpn", "part number", "ean", "upc", "gtin", "weight", "重量", "净含量",
    "size", "尺寸", "尺码", "规格", "dimensions", "product dimensions", "color", "colour",
    "颜色", "material", "材质", "材料", "产地", "origin", "country of origin", "warranty",
    "保修", "condition", "item condition", "capacity", "容量", "style", "款式",
    "goods name", "product name", "商品名称", "name", "名称", "category", "分类", "类别",
    "availability", "stock", "库存", "shipping", "运费", "配送", "seller", "卖家",
    # books
    "isbn", "isbn-10", "isbn-13", "isbn10", "isbn13", "publisher", "出版社", "author",
    "作者", "authors", "著者", "译者", "translator", "editor", "pages", "page count",
    "number of pages", "页数", "publication date", "pub date", "published", "date",
    "release date", "出版时间", "出版日期", "出版年", "edition", "版次", "binding", "装帧",
    "format", "开本", "language", "语言", "series", "丛书名", "reading level",
    # de / fr / es / it / pt
    "marke", "hersteller", "gewicht", "farbe", "größe", "abmessungen", "artikelnummer",
    "marque", "poids", "couleur", "taille", "référence", "marca", "peso", "tamaño",
    "referencia", "colore", "taglia", "cor", "tamanho",
)

_LABEL_MAX_TOKENS = 6
_LABEL_MAX_CHARS = 40
_VALUE_MAX_CHARS = 300
_SENTENCE_END_RE = re.compile(r"[.!?。！？]\s*$")
_DELIM_CLASS = "".join(re.escape(d) for d in DELIMITERS)
_LABEL_VALUE_RE = re.compile(rf"^\s*([^{_DELIM_CLASS}\n]{{1,{_LABEL_MAX_CHARS}}}?)\s*[{_DELIM_CLASS}]\s*(.*)$")
_SKIP_TAGS = frozenset(
    "script style noscript template iframe svg canvas object embed select option button "
    "textarea head title meta link".split()
)


@dataclass
class RecordParams:
    """Tunable parts of the records method.

    ``extra_attributes`` extends the dictionary (the Scrapy setting
    ``CONTENTEX_RECORD_ATTRIBUTES`` lands here); ``keep`` is the share of its
    parent's weight the best child must keep for the walk to go on.
    """

    extra_attributes: list[str] = field(default_factory=list)
    keep: float = 0.6
    min_pairs: int = 2


# ---------------------------------------------------------------------------
# Characteristic container
# ---------------------------------------------------------------------------


class CharacteristicContainer:
    """Delimiters plus the attribute-name dictionary: characteristic k of a text leaf.

    Characteristic 0 is "ends with or contains a delimiter"; characteristic
    1 + j is "starts with dictionary name j", matched as a whole label (the
    text before a delimiter, or the entire short text) so prose mentioning
    "price" once does not count.
    """

    def __init__(self, extra: Iterable[str] | None = None) -> None:
        names: list[str] = []
        for name in (*ATTRIBUTE_NAMES, *(extra or ())):
            key = clean_name(name).lower()
            if key and key not in names:
                names.append(key)
        self.names = names
        self.index = {name: i + 1 for i, name in enumerate(names)}
        self.size = len(names) + 1

    def label_of(self, text: str) -> str | None:
        """The dictionary name a leaf's text is labelled with, if any."""
        head = text
        for delim in DELIMITERS:
            pos = head.find(delim)
            if pos >= 0:
                head = head[:pos]
        key = clean_name(head).lower()
        if key in self.index:
            return key
        return None

    def characteristics(self, text: str) -> list[int]:
        """Indices of the characteristics a text leaf shows."""
        found: list[int] = []
        if any(d in text for d in DELIMITERS) and len(text) <= 400:
            found.append(0)
        label = self.label_of(text) if len(text) <= 200 else None
        if label is not None:
            found.append(self.index[label])
        return found

    def is_attribute(self, name: str) -> bool:
        return clean_name(name).lower() in self.index


def clean_name(name: str) -> str:
    """An attribute name without delimiters, bullets and surrounding blanks."""
    name = normalize_space(name)
    return name.strip(" \t:：-–—•·*|").strip()


# ---------------------------------------------------------------------------
# Formula 3: characteristic weights, bottom-up
# ---------------------------------------------------------------------------


def _text_leaves(el: HtmlElement) -> list[str]:
    """The text leaves an element owns: its text and the tails of its children."""
    leaves = []
    if el.text and el.text.strip():
        leaves.append(el.text)
    for child in el:
        if child.tail and child.tail.strip():
            leaves.append(child.tail)
    return leaves


def _elements(root: HtmlElement) -> list[HtmlElement]:
    """Elements under root in document order, skipping never-content subtrees."""
    out: list[HtmlElement] = []
    stack = [root]
    while stack:
        el = stack.pop()
        if not isinstance(el.tag, str) or el.tag in _SKIP_TAGS:
            continue
        out.append(el)
        stack.extend(reversed(el))
    return out


@dataclass
class Weights:
    """WVC of every non-leaf node, with the counts behind it."""

    wvc: dict[HtmlElement, float]
    counts: dict[HtmlElement, dict[int, int]]
    leaves: int


def compute_wvc(root: HtmlElement, container: CharacteristicContainer) -> Weights:
    """Formula 3 for every element under ``root``: ``sum_k n_k log(N / n_k)``.

    One pass collects each element's own leaves; a second pass in reverse
    document order adds every element's counts into its parent, so each
    node's ``n_k`` covers its whole subtree without recursion.
    """
    elements = _elements(root)
    counts: dict[HtmlElement, dict[int, int]] = {}
    total = 0
    for el in elements:
        own: dict[int, int] = {}
        for leaf in _text_leaves(el):
            total += 1
            for k in container.characteristics(normalize_space(leaf)):
                own[k] = own.get(k, 0) + 1
        if own:
            counts[el] = own
    for el in reversed(elements):
        own = counts.get(el)
        if not own or el is root:
            continue
        parent = el.getparent()
        if parent is None:
            continue
        into = counts.setdefault(parent, {})
        for k, n in own.items():
            into[k] = into.get(k, 0) + n
    n_all = max(total, 1)
    wvc = {
        el: sum(n * math.log(n_all / n) for n in ks.values() if n)
        for el, ks in counts.items()
    }
    return Weights(wvc=wvc, counts=counts, leaves=total)


# ---------------------------------------------------------------------------
# Viterbi walk to the record area
# ---------------------------------------------------------------------------


def viterbi_area(root: HtmlElement, weights: Weights, keep: float = 0.6) -> tuple[HtmlElement, list[HtmlElement]]:
    """Walk from ``root`` (body) down to the record area; return it and the path.

    At each level the candidates are the children of the previous best node;
    each gets its share of the parent's weight (equiprobable transition times
    its WVC emission, normalised). The best child is followed while it keeps
    at least ``keep`` of its parent's weight.
    """
    node = root
    path = [root]
    delta = 1.0
    while True:
        parent_weight = weights.wvc.get(node, 0.0)
        if parent_weight <= 0:
            break
        children = [c for c in node if isinstance(c.tag, str)]
        if not children:
            break
        transition = 1.0 / len(children)
        scored = [(transition * weights.wvc.get(c, 0.0), c) for c in children]
        norm = sum(s for s, _ in scored)
        if norm <= 0:
            break
        best_score, best = max(scored, key=lambda sc: sc[0])
        share = weights.wvc.get(best, 0.0) / parent_weight
        if share < keep:
            break
        delta *= best_score / norm
        node = best
        path.append(node)
    return node, path


# ---------------------------------------------------------------------------
# Attribute/value pairs out of the area
# ---------------------------------------------------------------------------


def _text(el: HtmlElement) -> str:
    return normalize_space(el.text_content())


def _ok_name(name: str) -> bool:
    if not name or len(name) > _LABEL_MAX_CHARS or token_count(name) > _LABEL_MAX_TOKENS:
        return False
    if token_count(name) == 0:
        return False
    return not _SENTENCE_END_RE.search(name)


def _ok_value(value: str) -> bool:
    return bool(value) and len(value) <= _VALUE_MAX_CHARS and token_count(value) > 0


class _Pairs:
    """Ordered, de-duplicated pairs (first value of a name wins)."""

    def __init__(self) -> None:
        self.items: list[dict[str, str]] = []
        self._seen: set[str] = set()

    def add(self, name: str, value: str) -> None:
        name, value = clean_name(name), normalize_space(value).lstrip(":： ").strip()
        if not _ok_name(name) or not _ok_value(value):
            return
        key = name.lower()
        if key in self._seen:
            return
        self._seen.add(key)
        self.items.append({"name": name, "value": value})


def _table_pairs(area: HtmlElement, pairs: _Pairs) -> None:
    for row in area.iter("tr"):
        cells = [c for c in row if isinstance(c.tag, str) and c.tag in ("td", "th")]
        if len(cells) == 2:
            pairs.add(_text(cells[0]), _text(cells[1]))


def _dl_pairs(area: HtmlElement, pairs: _Pairs) -> None:
    for dl in area.iter("dl"):
        name = None
        for child in dl:
            if child.tag == "dt":
                name = _text(child)
            elif child.tag == "dd" and name:
                pairs.add(name, _text(child))
                name = None


def _sibling_pairs(area: HtmlElement, pairs: _Pairs, container: CharacteristicContainer) -> None:
    """``<span class=label>Publisher</span><span>X</span>`` and ``<b>ISBN:</b> 978...``."""
    for el in area.iter():
        if not isinstance(el.tag, str) or el.tag in BLOCK_TAGS and el.tag not in ("dt", "th"):
            continue
        label = _text(el)
        if not label or len(label) > _LABEL_MAX_CHARS:
            continue
        has_delim = label.endswith(DELIMITERS)
        if not has_delim and not container.is_attribute(label):
            continue
        value = (el.tail or "").strip()
        if not value:
            sibling = el.getnext()
            while sibling is not None and not isinstance(sibling.tag, str):
                sibling = sibling.getnext()
            if sibling is not None and sibling.tag not in ("ul", "ol", "table", "div"):
                value = _text(sibling)
        if value:
            pairs.add(label, value)


def _line_pairs(lines: list[str], pairs: _Pairs) -> None:
    """``Label: value`` lines, and a ``Label:`` line followed by its value line."""
    for i, line in enumerate(lines):
        match = _LABEL_VALUE_RE.match(line)
        if not match:
            continue
        name, value = match.group(1), match.group(2)
        if not value and i + 1 < len(lines) and not _LABEL_VALUE_RE.match(lines[i + 1]):
            value = lines[i + 1]
        pairs.add(name, value)


def _block_lines(area: HtmlElement) -> list[str]:
    """Visible lines of the area, blocks split, never-content tags skipped (iterative)."""
    parts: list[str] = []
    stack: list[tuple[HtmlElement, bool]] = [(area, True)]
    while stack:
        node, entering = stack.pop()
        tag = node.tag if isinstance(node.tag, str) else ""
        if entering:
            if tag in _SKIP_TAGS:
                if node is not area and node.tail:
                    parts.append(node.tail)
                continue
            if tag in BLOCK_TAGS:
                parts.append("\n")
            if node.text and tag:
                parts.append(node.text)
            stack.append((node, False))
            stack.extend((child, True) for child in reversed(node))
        else:
            if tag in BLOCK_TAGS:
                parts.append("\n")
            if node is not area and node.tail:
                parts.append(node.tail)
    lines = (normalize_space(line) for line in "".join(parts).splitlines())
    return [line for line in lines if line]


def pairs_from(area: HtmlElement, container: CharacteristicContainer) -> list[dict[str, str]]:
    """Attribute/value pairs of an area, structural patterns first, then text lines."""
    pairs = _Pairs()
    _table_pairs(area, pairs)
    _dl_pairs(area, pairs)
    _sibling_pairs(area, pairs, container)
    _line_pairs(_block_lines(area), pairs)
    return pairs.items


@dataclass
class RecordResult:
    area: HtmlElement | None
    path: list[HtmlElement]
    properties: list[dict[str, str]]


def extract_records(tree: HtmlElement, params: RecordParams | None = None) -> RecordResult:
    """The record area of a page and the attribute/value pairs found in it.

    When the area holds fewer than ``min_pairs`` pairs (a page with almost no
    characteristics), the whole body is read instead so a lone pair is not lost.
    """
    params = params or RecordParams()
    container = CharacteristicContainer(params.extra_attributes)
    body = tree.find(".//body")
    if body is None:
        body = tree
    weights = compute_wvc(body, container)
    area, path = viterbi_area(body, weights, params.keep)
    props = pairs_from(area, container)
    if len(props) < params.min_pairs and area is not body:
        props = pairs_from(body, container)
    return RecordResult(area=area, path=path, properties=props)
