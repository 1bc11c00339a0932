"""Structured records by seed 000 (VSSE), section 4.3.2: characteristic weights and a Viterbi walk.

The seed finds the *record area* of a page (the block listing a product's
attribute/value pairs) with no per-site rule:

1. A **characteristic container** holds what record text looks like: the
   delimiters ``:`` and ``：``, a dictionary of popular attribute names in
   English and Chinese (brand/品牌, price/价格, ISBN, publisher/出版社 ...),
   extensible by the caller, and (our addition, in the container's spirit)
   the structural label: a ``<dt>`` or the name cell of a two-cell row, so
   spec tables whose names are not in the dictionary still weigh.
2. Every non-leaf node gets the weight of Formula 3,
   ``WVC(i) = sum_k n_k * log(N / n_k)``, where ``n_k`` counts the text leaves
   below node i that show characteristic k and ``N`` counts all text leaves of
   the page. Counts are summed bottom-up without recursion: the leaves that
   show a characteristic mark their ancestor chains (stopping at a marked
   node, so linear), then counts flow up in Kahn's order (a node passes its
   counts to its parent once all its marked children have). Nodes with no
   characteristic leaf below weigh 0.
3. A **Viterbi walk** runs from ``<body>`` down the tree. Our reading of the
   paper: the hidden states at time t are the nodes of depth t below body
   reachable from the previous best node; the observation is the node's tag;
   the transition ``a_ji`` from parent j to child i starts equiprobable and
   the emission ``b(O_i)`` is the child's characteristic weight, so the
   weight a parent hands to child i is ``a_ji * b_i / sum_l a_jl * b_l`` — the
   child's share of the weight under j. ``delta_t`` is the product of those
   shares along the path and ``psi(t)`` the best child. The walk terminates
   ("psi(m) >= psi(m+1)": the next level is no better than this one) when the
   best child keeps less than ``keep`` (0.7) of what its parent hands down
   (normalised over the children, or over the parent's own weight when the
   parent holds characteristic leaves itself): below that point the records
   are split between several children, so the current node is the record
   area. With a literal "no loss at all" test any stray "Contact:" in a
   footer would stop the walk at ``<body>``; the tolerance is our choice.

Out of the area we read attribute/value pairs from tables (th/td and
two-cell rows), definition lists, ``Label: value`` texts and a label text
(``Label:`` or a dictionary name) followed by a nearby value text
(``<b>ISBN:</b> 978...``, ``<span>Publisher</span><span>X</span>``), and drop
pairs whose name reads like a sentence or is only digits, or whose value is
empty or huge. When the area holds fewer than two pairs the whole body is
read instead. Pages are read up to their first 40,000 text leaves.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import compress

from lxml import etree
from lxml.html import HtmlElement

from .document import body_of
from .lang import normalize_space, token_count

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
    "isbn", "isbn-10", "isbn-13", "isbn10", "isbn13", "isbn 10", "isbn 13", "publisher", "出版社", "author",
    "作者", "authors", "著者", "译者", "translator", "editor", "pages", "page count",
    "number of pages", "页数", "publication date", "pub date", "pub. date", "date published", "published", "date",
    "release date", "出版时间", "出版日期", "出版年", "edition", "版次", "binding", "装帧",
    "format", "开本", "language", "语言", "series", "丛书名", "reading level",
    # de / fr / es / it / pt
    "marke", "hersteller", "gewicht", "farbe", "größe", "abmessungen", "artikelnummer",
    "marque", "poids", "couleur", "taille", "référence", "marca", "peso", "tamaño",
    "referencia", "colore", "taglia", "cor", "tamanho",
    # ja / ko
    "メーカー", "ブランド", "型番", "品番", "商品名", "価格", "重さ", "重量", "サイズ", "カラー", "素材",
    "原産国", "jan", "janコード", "jan code", "브랜드", "제조사", "모델명", "원산지", "무게", "색상",
    "크기", "재질", "가격",
    # more languages, the facts every shop labels: brand, maker, code, barcode, colour,
    # size, weight, material, dimensions, warranty, origin; publisher and author for books
    "merk", "kleur", "maat", "materiaal", "afmetingen", "garantie", "uitgever",  # nl
    "märke", "färg", "storlek", "vikt", "mått", "förlag", "författare",  # sv
    "mærke", "farve", "størrelse", "vægt", "materiale", "forlag", "forfatter",  # da / no
    "merkki", "valmistaja", "väri", "koko", "paino", "materiaali", "mitat", "takuu",  # fi
    "kustantaja", "tuotenumero",
    "značka", "výrobce", "výrobca", "barva", "farba", "velikost", "veľkosť", "hmotnost",  # cs / sk
    "hmotnosť", "materiál", "rozměry", "rozmery", "záruka", "nakladatel", "kód produktu",
    "marka", "producent", "kolor", "rozmiar", "waga", "materiał", "wymiary", "gwarancja",  # pl
    "wydawnictwo", "kod produktu",
    "márka", "gyártó", "szín", "méret", "súly", "anyag", "garancia", "kiadó", "cikkszám",  # hu
    "culoare", "mărime", "greutate", "producător", "garanție", "editura",  # ro
    "renk", "beden", "ağırlık", "malzeme", "boyut", "garanti", "üretici", "yayınevi",  # tr
    "ürün kodu",
    "марка", "бренд", "производитель", "цвет", "размер", "вес", "материал", "гарантия",  # ru / uk
    "артикул", "страна производства", "издательство", "автор", "колір", "розмір", "вага",
    "матеріал", "виробник",
    "μάρκα", "κατασκευαστής", "χρώμα", "μέγεθος", "βάρος", "υλικό", "εγγύηση",  # el
    "thương hiệu", "nhà sản xuất", "màu sắc", "kích thước", "trọng lượng", "chất liệu",  # vi
    "xuất xứ", "bảo hành", "mã sản phẩm",
    "merek", "warna", "ukuran", "berat", "bahan", "garansi", "penerbit", "penulis",  # id / ms
    "العلامة التجارية", "الشركة المصنعة", "اللون", "المقاس", "الوزن", "المادة", "الضمان",  # ar
    "الناشر", "المؤلف",
    "מותג", "יצרן", "צבע", "מידה", "משקל", "חומר", "אחריות", "מק\"ט",  # he
    "marchio", "produttore", "dimensioni", "garanzia", "editore",  # it
    "fabricant", "fabricante", "garantía", "editorial", "éditeur", "auteur", "autor",
    "barcode", "strichcode", "штрихкод", "código de barras",
)

_LABEL_MAX_TOKENS = 6
_LABEL_MAX_TOKENS_HAN = 10  # Chinese/Japanese labels: no spaces, a character per token
_LABEL_MAX_CHARS = 40
_VALUE_MAX_CHARS = 300
_MAX_PAIRS = 200
# Delimiters, bullets and brackets around a label: "• Brand:", "〈商品編號：".
_NAME_STRIP = " :：-–—•·*|∣｜>»›〈〉《》【】[]()（）"
# What trims a shown name: the delimiters, bullets and blanks around it, not brackets.
_NAME_TRIM = " :：-–—•·*|∣｜>»›"
_OPENING = {")": "(", "）": "（", "]": "[", "】": "【", "〉": "〈", "》": "《"}
_CLOSING = {v: k for k, v in _OPENING.items()}
_NAME_BRACKETS = frozenset(_OPENING) | frozenset(_CLOSING)
_SENTENCE_BREAK_RE = re.compile(r"[.!?。！？]\s")
_QUESTION_BREAK_RE = re.compile(r"[!?！？]\s")
_HAS_LETTER_RE = re.compile(r"[^\W\d_]")
_DELIM_CLASS = "".join(re.escape(d) for d in DELIMITERS)
_LABEL_VALUE_RE = re.compile(rf"^\s*([^{_DELIM_CLASS}\n]{{1,{_LABEL_MAX_CHARS}}}?)\s*[{_DELIM_CLASS}]\s*(.*)$")
# Han characters: Chinese and Japanese labels, written without spaces
_HAN = "\u3400-\u9fff\uf900-\ufaff"
_HAN_RE = re.compile(f"[{_HAN}]")
_SPACED_HAN_RE = re.compile(f"[{_HAN}](?: [{_HAN}])+")
# The delimiter characteristic: a delimiter after at most a label's length of
# text. A colon that opens "://" or sits between digits ("10:30") separates no
# name from a value: a cookie banner's vendor list of URLs is no record area.
_DELIMITER_RE = re.compile(
    rf"^[^{_DELIM_CLASS}\n]{{0,{_LABEL_MAX_CHARS}}}(?:(?<!\d)[{_DELIM_CLASS}]|[{_DELIM_CLASS}](?!\d))(?!//)"
)


_MEMO_SIZE = 50_000
# What a memo lookup returns for a text not seen yet (``dict.get``: a miss
# costs a seventh of a caught KeyError, and most texts of a new page miss).
_UNKNOWN = object()


def remember(memo: dict, key: str, value):
    """Store ``value`` under a plain str key (a smart string would keep its tree
    alive) in a memo that is emptied when full, so memory stays bounded."""
    if len(memo) >= _MEMO_SIZE:
        memo.clear()
    memo[str(key)] = value
    return value


class LeafTests:
    """Text-only tests of text leaves, each run once per distinct text and remembered as bits.

    A page's scans (prices, identifiers, labels) each start by rejecting
    most leaves with a cheap test of the text alone; run inside every scan's
    Python loop, those tests were most of the scans' time. Here every
    registered test runs once per distinct text (texts repeat within and
    across a site's pages), one C-level lookup gives a page's bits, and a
    scan walks only the indices whose bit is set, in document order.
    """

    def __init__(self) -> None:
        self._tests: list[Callable[[str], object]] = []
        self._memo: dict[str, int] = {}

    def register(self, test: Callable[[str], object]) -> int:
        """Add a test (a text -> truthy function); return its bit."""
        self._tests.append(test)
        self._memo.clear()
        return 1 << (len(self._tests) - 1)

    def flags(self, leaves: list) -> list[int]:
        """The bits of every leaf, in order (kept on a :class:`SharedLeaves` list, read once)."""
        kept = getattr(leaves, "bits", None)
        if kept is not None:
            key = (self, len(self._tests))  # bits of these tests, as registered now
            flags = kept.get(key)
            if flags is None or len(flags) != len(leaves):
                flags = kept[key] = self._flags(leaves)
            return flags
        return self._flags(leaves)

    def _flags(self, leaves: list) -> list[int]:
        flags = list(map(self._memo.get, leaves))
        if None in flags:
            learned = self._learn([leaf for leaf, bits in zip(leaves, flags, strict=True) if bits is None])
            flags = list(map(learned.get, leaves, flags))  # a known leaf keeps its bits
        return flags

    def _learn(self, unknown: list) -> dict[str, int]:
        """Run every test on a page's new texts; remember and return their bits.

        Test by test over all the texts, so the loop over texts runs in C
        (``map``, ``compress``) and only the few hits come back to Python;
        a text's bits do not depend on the order the tests ran in. Keys are
        plain str copies (a smart string would keep its tree alive).
        """
        texts = list(dict.fromkeys(map(str, unknown)))
        bits = [0] * len(texts)
        for k, test in enumerate(self._tests):
            bit = 1 << k
            for i in compress(range(len(texts)), map(test, texts)):
                bits[i] |= bit
        learned = dict(zip(texts, bits, strict=True))
        if len(self._memo) + len(learned) > _MEMO_SIZE:
            self._memo.clear()
        if len(learned) <= _MEMO_SIZE:
            self._memo.update(learned)
        return learned

    def indices(self, leaves: list, bit: int, stop: int | None = None) -> list[int]:
        """Indices of the leaves (of the first ``stop``) whose test ``bit`` holds, ascending."""
        flags = self.flags(leaves)
        return list(compress(range(len(flags))[:stop], map(bit.__and__, flags)))


@dataclass
class RecordParams:
    """Tunable parts of the records method.

    ``extra_attributes`` extends the dictionary (the Scrapy setting
    ``CONTENTEX_RECORD_ATTRIBUTES`` lands here); ``keep`` is the share of its
    parent's weight the best child must keep for the walk to go on;
    a characteristic text found more than ``max_repeat`` times on the page is
    a list's template label (related-product tiles, a vendor list), not a
    record's, and does not weigh (None: the seed's plain Formula 3).
    """

    extra_attributes: list[str] = field(default_factory=list)
    keep: float = 0.7
    min_pairs: int = 2
    max_repeat: int | None = 3


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
        self.label_cell = len(names) + 1
        self.size = len(names) + 2
        # Every match (exact or qualified) ends with a dictionary name's last
        # word: a set lookup rejects most texts before any string work.
        self._last_words = {name.split()[-1] for name in names}
        self._last_chars = {name[-1] for name in names}
        # Texts repeat within and across pages (menus, spec labels): answers
        # are remembered by text. Keys are plain str copies, so no lxml smart
        # string (and the tree behind it) is kept alive; bounded by clearing.
        self._labels: dict[str, str | None] = {}
        self._shapes: dict[str, bool] = {}
        # text -> characteristics() of it, filled and bounded by compute_wvc
        self.leaf_memo: dict[str, tuple[int, ...]] = {}
        # the first tests of the pair scans, by text: they read this dictionary
        self.leaf_tests = LeafTests()
        self.row_label = self.leaf_tests.register(self._row_label)
        self.pair_start = self.leaf_tests.register(self._pair_start)

    def label_of(self, text: str) -> str | None:
        """The dictionary name a leaf's text is labelled with, if any.

        The whole label must be a dictionary name, or end with one after at
        most two qualifying words ("Packed weight", "Item model number").
        """
        label = self._labels.get(text, _UNKNOWN)
        if label is _UNKNOWN:
            label = remember(self._labels, text, self._label_of(text))
        return label

    def _label_of(self, text: str) -> str | None:
        head = text
        for delim in DELIMITERS:
            pos = head.find(delim)
            if pos >= 0:
                head = head[:pos]
        if not self._could_be_label(head):
            return None
        key = clean_name(head).lower()
        if key in self.index:
            return key
        if _HAN_RE.search(key):
            return self._han_label(key)
        words = key.split()
        if 1 < len(words) <= 3:
            for start in range(1, len(words)):
                tail = " ".join(words[start:])
                if tail in self.index:
                    return tail
        return None

    def _han_label(self, key: str) -> str | None:
        """A Chinese label: "开 本" is 开本 spaced out to align a column, and
        "国际标准书号ISBN" or "图书品牌" end with a dictionary name (of two or
        more characters) after qualifying characters, with no space between."""
        compact = key.replace(" ", "")
        if len(compact) > 16:
            return None
        if compact in self.index:
            return compact
        return qualified_suffix(compact, self.index)

    def characteristics(self, text: str, label_cell: bool = False) -> list[int]:
        """Indices of the characteristics a text leaf shows.

        ``label_cell``: the leaf is the name cell of a two-cell table row or a
        ``<dt>`` — the structural form of a label, a characteristic of its own.
        """
        found: list[int] = []
        colon = ":" in text or "：" in text
        delimited = colon and len(text) <= 400 and _DELIMITER_RE.match(text) is not None
        if delimited:
            found.append(0)
        # a label is short: its own short text, or the head of a delimited one
        if not colon:
            # the whole text would be the label: its shape test (remembered, and
            # shared with the pair scans) turns nearly every text away first
            label = self.label_of(text) if len(text) <= 48 and self._could_be_label(text) else None
        else:
            label = self.label_of(text) if (delimited and len(text) <= 200) or len(text) <= 48 else None
        if label is not None:
            found.append(self.index[label])
        if label_cell:
            found.append(self.label_cell)
        return found

    def _could_be_label(self, head: str) -> bool:
        """Cheap pre-check: the last word (or, for CJK, the last character) fits a name."""
        shape = self._shapes.get(head, _UNKNOWN)
        if shape is _UNKNOWN:
            shape = remember(self._shapes, head, self._label_shape(head))
        return shape

    def _label_shape(self, head: str) -> bool:
        # Necessary condition first, on one character: the last word, without
        # delimiters, ends with the last character of some dictionary name.
        end = head.rstrip().rstrip(_NAME_STRIP)[-1:].lower()
        if end not in self._last_chars:
            return False
        words = head.lower().split()
        if not words or len(words) > 6:
            return False
        last = words[-1].strip(_NAME_STRIP)
        return last in self._last_words or (last[-1:] in self._last_chars and not last.isascii())

    def _row_label(self, leaf: str) -> bool:
        """A text that is a dictionary name: the first cell of a spec row (``_row_pairs``)."""
        return (len(leaf) <= _LABEL_MAX_CHARS and self._could_be_label(leaf)
                and self.is_attribute(" ".join(leaf.split())))

    def _pair_start(self, leaf: str) -> bool:
        """A text that may open a pair (``_leaf_pairs``): "Label: value", or short and label-shaped."""
        size = len(leaf)
        if size > _LABEL_MAX_CHARS + _VALUE_MAX_CHARS:
            return False
        return ":" in leaf or "：" in leaf or (size <= 2 * _LABEL_MAX_CHARS and self._could_be_label(leaf))

    def could_be_label(self, text: str) -> bool:
        """Whether ``text`` (whole, no delimiter cut) may be a dictionary label: a cheap guard."""
        return self._could_be_label(text)

    def is_attribute(self, name: str) -> bool:
        return self._could_be_label(name) and clean_name(name).lower() in self.index


def qualified_suffix(key: str, names) -> str | None:
    """The longest ending of ``key``, two characters or more, that is in ``names``.

    Chinese and Japanese labels qualify a name with no space between
    ("国际标准书号ISBN", "商品货号"): the name is what the label ends with.
    """
    for start in range(1, len(key) - 1):
        if key[start:] in names:
            return key[start:]
    return None


@lru_cache(maxsize=32)
def container_for(extra: tuple[str, ...] = ()) -> CharacteristicContainer:
    """One shared container per attribute list: building it costs more than a small page's walk.

    Containers are never changed after construction, so sharing is safe.
    """
    return CharacteristicContainer(extra)


def clean_name(name: str) -> str:
    """An attribute name as shown, without the delimiters, bullets and blanks around it.

    A bracket at either end goes only when its partner is not in the name
    ("〈商品編號：" opens a bracket the value closes) or when one pair wraps
    the whole name ("【品牌】"): "Price (excl. tax)" keeps its parenthesis.
    """
    # str.split() knows every Unicode blank (nbsp, ideographic space): no regex needed.
    text = " ".join(name.split()).strip(_NAME_TRIM)
    while text:
        first, last = text[0], text[-1]
        if last in _OPENING and text.count(_OPENING[last]) < text.count(last):
            text = text[:-1].strip(_NAME_TRIM)  # a closing bracket opened before the name
        elif first in _CLOSING and text.count(first) > text.count(_CLOSING[first]):
            text = text[1:].strip(_NAME_TRIM)  # an opening bracket closed after it
        elif first in _OPENING.values() or last in _OPENING:
            # a bracket left at one end is balanced: a pair wrapping the whole name goes
            inner = text[1:-1]
            if _CLOSING.get(first) != last or any(ch in inner for ch in _NAME_BRACKETS):
                break
            text = inner.strip(_NAME_TRIM)
        else:
            break
    return text


# ---------------------------------------------------------------------------
# Formula 3: characteristic weights, bottom-up
# ---------------------------------------------------------------------------


# A product record sits in the first part of any page; past this many text
# leaves a page is a listing, a comment thread or hostile input, and reading
# further only costs time (a 20 MB page must finish in seconds).
MAX_LEAVES = 40_000
_NO_TEXT_TAGS = frozenset("script style noscript template option textarea title".split())


# Non-blank text nodes, each as an lxml "smart string" (getparent(), is_text,
# is_tail). normalize-space drops the whitespace between tags inside libxml2,
# so no Python object is made for those; the few texts blank only in Unicode
# terms (nbsp) are dropped in Python. The axis is written out: ".//text()"
# means child::text() of every descendant, whose per-node results libxml2
# merges with a duplicate check, quadratic under one element with many
# children (a flat 1 MB list took seconds); descendant::text() is one pass.
_TEXT_NODES = etree.XPath("descendant::text()[normalize-space()]")


def text_leaves(root: HtmlElement, limit: int = MAX_LEAVES) -> list:
    """The first ``limit`` non-blank text leaves under ``root``, in document order, code excluded.

    Each leaf is an lxml smart string: ``getparent()`` is the element holding
    the text (``is_text``) or the element whose tail it is (``is_tail``). One
    C-level XPath collects them: an element walk in Python would build a
    proxy object for every element of the page (twice with start/end events),
    which cost more than all the later scans. Every later scan of the page
    (stock phrases, bylines, prices) reuses the list.
    """
    no_text = _NO_TEXT_TAGS
    out = [t for t in _TEXT_NODES(root)
           if not (t.is_text and t.getparent().tag in no_text) and not t.isspace()]
    return out[:limit] if len(out) > limit else out


def _texts_in(el: HtmlElement):
    """(text, element holding it, is tail) of ``el``'s subtree in document order, tails inside only."""
    for event, node in etree.iterwalk(el, events=("start", "end")):
        if event == "start":
            if node.text:
                yield node.text, node, False
        elif node is not el and node.tail:
            yield node.tail, node, True


def _texts_after(el: HtmlElement, root: HtmlElement):
    """(text, element, is tail) after ``el``'s subtree up to the end of ``root``, in document order."""
    node = el
    while node is not None and node is not root:
        if node.tail:
            yield node.tail, node, True
        for sibling in node.itersiblings():
            yield from _texts_in(sibling)
            if sibling.tail:
                yield sibling.tail, sibling, True
        node = node.getparent()


# A leaf's text as text_leaves reads it: a character other than XML blanks.
_XML_BLANKS = " \t\n\r"


def _first_position(leaves: list, texts, start: int = 0, tries: int = 50) -> int | None:
    """Index in ``leaves`` of the first of ``texts`` that is one of them, or None.

    ``list.index`` compares the texts in C; an equal text elsewhere on the
    page is told apart by its element and by being a text or a tail (a
    tail's ``getparent()`` is the element it follows). Texts that are no
    leaf (a script's, nbsp only) are passed over, a few at most.
    """
    for text, owner, is_tail in texts:
        if not text.strip(_XML_BLANKS):
            continue
        tries -= 1
        if tries < 0:
            return None
        at = start
        while True:
            try:
                at = leaves.index(text, at)
            except ValueError:
                break
            found = leaves[at]
            if found.is_tail == is_tail and found.getparent() is owner:
                return at
            at += 1
    return None


def subtree_leaves(el: HtmlElement, root: HtmlElement, leaves: list) -> list:
    """:func:`text_leaves` of ``el``, cut from ``leaves``, the text leaves of ``root`` around it.

    An element's leaves are one run of the enclosing list, from its first
    text to the first text after it. Both ends lie a few nodes away from
    ``el`` in a walk, where collecting the run again visits and wraps every
    text node of the element. When an end is not found (past the list's
    limit, or behind many texts that are no leaf) the leaves are collected
    again.
    """
    start = _first_position(leaves, _texts_in(el))
    if start is None:
        return text_leaves(el)
    end = _first_position(leaves, _texts_after(el, root), start)
    if end is None:
        if len(leaves) >= MAX_LEAVES or any(t.strip(_XML_BLANKS) for t, _, _ in _texts_after(el, root)):
            return text_leaves(el)
        end = len(leaves)
    return leaves[start:end]


def _owner(leaf) -> HtmlElement | None:
    """The element a text leaf belongs to (a tail belongs to its element's parent)."""
    parent = leaf.getparent()
    if parent is None:
        return None
    return parent if leaf.is_text else parent.getparent()


def _is_label_cell(el: HtmlElement) -> bool:
    """A ``<dt>``, or the first cell of a two-cell table row (th or td)."""
    tag = el.tag
    if tag == "dt":
        return True
    if tag not in ("th", "td") or el.getprevious() is not None:
        return False
    row = el.getparent()
    return row is not None and len(row) == 2


@dataclass
class Weights:
    """WVC of every non-leaf node, with the counts behind it."""

    wvc: dict[HtmlElement, float]
    counts: dict[HtmlElement, dict[int, int]]
    leaves: int


def compute_wvc(root: HtmlElement, container: CharacteristicContainer,
                leaves: list | None = None, max_repeat: int | None = None) -> Weights:
    """Formula 3 for every element under ``root``: ``sum_k n_k log(N / n_k)``.

    Only the leaves that show a characteristic contribute, so we start from
    them: each marks its chain of ancestors up to ``root`` (stopping at a
    node already marked, so the marked subtree is built in linear time), then
    counts flow bottom-up from the nodes with no marked children to ``root``
    (Kahn's order: a node passes its counts on once all its children have).
    Nodes that no characteristic leaf lies under have weight 0.
    """
    if leaves is None:
        leaves = text_leaves(root)
    counts: dict[HtmlElement, dict[int, int]] = {}
    parent_of: dict[HtmlElement, HtmlElement | None] = {}
    characteristics = container.characteristics
    label_cell = container.label_cell
    # Texts repeat across pages of a site and within one (menus, spec labels):
    # each text's characteristics are remembered by the shared container.
    memo = container.leaf_memo
    repeats = Counter(leaves) if max_repeat is not None else None
    for leaf in leaves:
        size = len(leaf)
        # cheap filters first: only delimiters or short label-like texts can match
        if size > 60 and (size > 400 or (":" not in leaf and "：" not in leaf)):
            continue  # no delimiter, too long for a label or a label cell: nothing to count
        found = memo.get(leaf)
        if found is None:
            found = remember(memo, leaf, tuple(characteristics(leaf)))
        owner = None
        if size <= 60:
            # the structural label (dt, name cell) needs the element; longer texts
            # are no cells. _owner and _is_label_cell written out: this runs for
            # most leaves of the page, and the tag test rejects nearly all.
            owner = leaf.getparent()
            if owner is not None and not leaf.is_text:
                owner = owner.getparent()
            if owner is None:
                continue
            tag = owner.tag
            if tag == "dt" or (tag in ("th", "td") and _is_label_cell(owner)):
                found = found + (label_cell,)
        if not found or (repeats is not None and repeats[leaf] > max_repeat):
            continue
        if owner is None:
            owner = _owner(leaf)
            if owner is None:
                continue
        own = counts.setdefault(owner, {})
        for k in found:
            own[k] = own.get(k, 0) + 1
        node = owner
        while node is not None and node not in parent_of:
            parent = None if node is root else node.getparent()
            parent_of[node] = parent
            node = parent
    pending: dict[HtmlElement, int] = dict.fromkeys(parent_of, 0)
    for parent in parent_of.values():
        if parent is not None and parent in pending:
            pending[parent] += 1
    ready = [node for node, n in pending.items() if n == 0]
    totals: dict[HtmlElement, dict[int, int]] = {}
    while ready:
        node = ready.pop()
        mine = totals.setdefault(node, {})
        for k, n in counts.get(node, {}).items():
            mine[k] = mine.get(k, 0) + n
        parent = parent_of.get(node)
        if parent is None or parent not in pending:
            continue
        into = totals.setdefault(parent, {})
        for k, n in mine.items():
            into[k] = into.get(k, 0) + n
        pending[parent] -= 1
        if pending[parent] == 0:
            ready.append(parent)
    n_all = max(len(leaves), 1)
    wvc = {
        el: sum(n * math.log(n_all / n) for n in ks.values() if n)
        for el, ks in totals.items()
    }
    return Weights(wvc=wvc, counts=totals, leaves=len(leaves))


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
        # The child's share of what the parent hands down (normalised over the
        # children, and over the parent's own weight when it holds leaves itself).
        share = best_score / max(norm, transition * parent_weight)
        if share < keep:
            break
        delta *= share
        node = best
        path.append(node)
    return node, path


# ---------------------------------------------------------------------------
# Attribute/value pairs out of the area
# ---------------------------------------------------------------------------


def _text(el: HtmlElement) -> str:
    return normalize_space(el.text_content())


_CODE_CHARS = frozenset("{}=;<>")


def _ok_name(name: str) -> bool:
    """A label, not a sentence: short, no sentence break inside, no final !/?/。.

    A final '.' is allowed on short names ("Item no.", "Art.-Nr.").
    """
    tokens = token_count(name)
    # a CJK character is a token: "国际标准书号ISBN" is one label of 7
    limit = _LABEL_MAX_TOKENS_HAN if _HAN_RE.search(name) else _LABEL_MAX_TOKENS
    if not name or len(name) > _LABEL_MAX_CHARS or tokens > limit or tokens == 0:
        return False
    if _QUESTION_BREAK_RE.search(name):
        return False  # "Questions? Call us": a sentence, however short
    # "Pub. Date" and "No. of pages" are labels; "Great value. Buy it" is not.
    if (tokens >= 4 and _SENTENCE_BREAK_RE.search(name)) or name.endswith(("!", "?", "。", "！", "？")):
        return False
    if not _HAS_LETTER_RE.search(name) or name.lower() in ("http", "https", "mailto", "tel"):
        return False  # "3: 19" (a score, a time) or a URL split at its colon
    if any(ch in name for ch in _CODE_CHARS):
        return False  # script or JSON text split at a colon: '{"modules"', 'x = a; b'

    return not (name.endswith(".") and tokens >= 4)


def label_like(value: str) -> bool:
    """A text that is a label or a delimiter, never a value: "SKU:", "Model #", ":", "-".

    Pages of label-like text (an empty spec row, labels in a column) put
    one label right after another; whatever follows a label is then taken
    for its value unless it is refused here.
    """
    text = value.strip()
    return not text or not any(ch.isalnum() for ch in text) or text[-1] in ":：#"


def _ok_value(value: str) -> bool:
    return (bool(value) and len(value) <= _VALUE_MAX_CHARS and token_count(value) > 0
            and not label_like(value))


_IDENTIFIER_NAME_RE = re.compile(r"isbn|ean|gtin|upc|条形码|条码")
_IDENTIFIER_RE = re.compile(r"^(?:\d[\s-]?){7,13}[\dXx]$")


def _plain_identifier(value: str) -> str:
    """ISBN/EAN/GTIN without the hyphens and spaces pages print for readability."""
    head = value.split("(")[0].strip()
    if _IDENTIFIER_RE.match(head):
        return re.sub(r"[\s-]", "", head)
    return value


class _Pairs:
    """Ordered, de-duplicated pairs (first value of a name wins)."""

    def __init__(self) -> None:
        self.items: list[dict[str, str]] = []
        self._seen: set[str] = set()

    # name as written -> (its cleaned form, whether that is a label): a
    # page's labels come back on every page of its site
    _names: dict[str, tuple[str, bool]] = {}

    @classmethod
    def _clean(cls, name: str) -> tuple[str, bool]:
        known = cls._names.get(name, _UNKNOWN)
        if known is not _UNKNOWN:
            return known
        clean = clean_name(name)
        if " " in clean and _SPACED_HAN_RE.fullmatch(clean):
            clean = clean.replace(" ", "")  # "开 本" -> "开本"
        return remember(cls._names, name, (str(clean), _ok_name(clean)))

    @classmethod
    def _name(cls, name: str) -> str:
        return cls._clean(name)[0]

    def taken(self, name: str) -> bool:
        """No pair of this name can be added any more (named already, or the list is full).

        Listings repeat one label per tile ("Preis:", "Ort:"): asking first
        spares the search for each repeat's value.
        """
        return self._name(name).lower() in self._seen or len(self.items) >= _MAX_PAIRS

    def add(self, name: str, value: str) -> None:
        name, ok_name = self._clean(name)
        key = name.lower()
        if key in self._seen or len(self.items) >= _MAX_PAIRS:
            return
        # one line: cells and blocks bring their markup's line breaks along
        value = " ".join(value.split()).lstrip(":： ").strip()
        if not ok_name or not _ok_value(value):
            return
        if _IDENTIFIER_NAME_RE.search(key):
            value = _plain_identifier(value)
        self._seen.add(key)
        self.items.append({"name": name, "value": value})


_MAX_ROWS = 2001
_MAX_LISTS = 201


def _rows_and_lists(area: HtmlElement) -> tuple[list, list]:
    """The area's first ``<tr>`` and ``<dl>`` elements (up to the limits), found in one walk."""
    rows: list = []
    lists: list = []
    for el in area.iter("tr", "dl"):
        if el.tag == "tr":
            if len(rows) < _MAX_ROWS:
                rows.append(el)
            elif len(lists) >= _MAX_LISTS:
                break
        elif len(lists) < _MAX_LISTS:
            lists.append(el)
        elif len(rows) >= _MAX_ROWS:
            break
    return rows, lists


def _table_pairs(rows: list, pairs: _Pairs) -> None:
    for row in rows:
        cells = [c for c in row if isinstance(c.tag, str) and c.tag in ("td", "th")]
        # a row of th only is a header row, column names ("Seller | Price"), not a pair
        if len(cells) == 2 and not (cells[0].tag == "th" and cells[1].tag == "th"):
            pairs.add(_text(cells[0]), _text(cells[1]))
        elif len(cells) >= 4 and len(cells) % 2 == 0 and all(
                c.tag == ("th" if i % 2 == 0 else "td") for i, c in enumerate(cells)):
            # th td th td: a spec table with two pairs a row ("Maker | X | Model | Y")
            for i in range(0, len(cells), 2):
                pairs.add(_text(cells[i]), _text(cells[i + 1]))


def _dl_pairs(lists: list, pairs: _Pairs) -> None:
    for dl in lists:
        name = None
        for child in dl:
            if child.tag == "dt":
                name = _text(child)
            elif child.tag == "dd" and name:
                pairs.add(name, _text(child))
                name = None


def _two_cells(row: HtmlElement) -> tuple[HtmlElement, HtmlElement] | None:
    """A row of exactly two element children (a name cell and a value cell)."""
    cells = [c for c in row if isinstance(c.tag, str)]
    return (cells[0], cells[1]) if len(cells) == 2 else None


def _row_pairs(leaves: list, pairs: _Pairs, container: CharacteristicContainer) -> None:
    """Spec lists built of two-cell rows that are not tables:
    ``<div class=row><div>Brand</div><div>Acme</div></div>`` repeated.

    A group (the rows' parent) counts when at least two of its rows open with
    a dictionary name; then every row of the same tag and shape is a pair,
    so "Drop | 8 mm" is read beside "Brand | Acme" and "Weight | 290 g".
    """
    groups: dict[HtmlElement, tuple[str, int]] = {}
    for index in container.leaf_tests.indices(leaves, container.row_label):
        leaf = leaves[index]
        cell = _owner(leaf)
        row = cell.getparent() if cell is not None else None
        group = row.getparent() if row is not None else None
        if group is None or row.tag in ("tr", "dl", "body"):
            continue
        cells = _two_cells(row)
        if cells is None or cells[0] is not cell:
            continue
        tag, seen = groups.get(group, (row.tag, 0))
        if tag == row.tag:
            groups[group] = (tag, seen + 1)
    for group, (tag, seen) in groups.items():
        if seen < 2:
            continue
        for row in group:
            cells = _two_cells(row) if row.tag == tag else None
            if cells is not None:
                name = _short_text(cells[0], _LABEL_MAX_CHARS + 20)
                value = _short_text(cells[1], _VALUE_MAX_CHARS + 50)
                if name is not None and value is not None:
                    pairs.add(name, value)


def _near(label_owner: HtmlElement, value_leaf) -> bool:
    """A value text close enough to its label: the label's tail, or one or two levels apart.

    Covers ``<b>ISBN:</b> 978...``, ``<span>Publisher</span><span>X</span>``
    and ``<div><span>Brand</span></div><div><a>X</a></div>``, and refuses a
    filter menu's "Brand" heading followed by a far-away list.
    """
    value_el = value_leaf.getparent()
    if value_el is None:
        return False
    if value_leaf.is_tail:
        if value_el is label_owner:
            return True
        value_el = value_el.getparent()
    label_parents = [label_owner.getparent()]
    if label_parents[0] is not None:
        label_parents.append(label_parents[0].getparent())
    node = value_el
    for _ in range(3):
        if node is None:
            return False
        if any(node is p for p in label_parents if p is not None):
            return True
        node = node.getparent()
    return False


def _leaf_pairs(leaves: list, pairs: _Pairs, container: CharacteristicContainer) -> None:
    """``Label: value`` in one text, or a label text (``Label:`` or a dictionary name)
    followed by a nearby value text."""
    count = len(leaves)
    found = pairs.items
    lines: dict = {}
    # most leaves are neither "Label: value" nor a bare label: the remembered
    # first test leaves them out
    for i in container.leaf_tests.indices(leaves, container.pair_start):
        if len(found) >= _MAX_PAIRS:
            break  # no pair can be added any more: the rest of the page is not read
        leaf = leaves[i]
        delimited = ":" in leaf or "：" in leaf
        text = " ".join(leaf.split())
        match = _LABEL_VALUE_RE.match(text) if delimited else None
        if match and match.group(1)[-1:].isdigit() and match.group(2)[:1].isdigit():
            continue  # a clock time or a ratio ("2020 12:11:55", "16:9"), not "Label: value"
        if match and match.group(2):
            pairs.add(match.group(1), match.group(2))
            continue
        is_label = bool(match) or (len(text) <= _LABEL_MAX_CHARS and container.is_attribute(text))
        if not is_label or i + 1 >= count:
            continue
        owner = leaf.getparent()
        if owner is None:
            continue
        if leaf.is_tail:
            owner = owner.getparent()
            if owner is None:
                continue
        if owner.tag == "th" and _header_cell(owner):
            continue  # a column name: its values are in the rows below, not next to it
        name = match.group(1) if match else text
        if pairs.taken(name):
            continue
        rest = _rest_of_block(owner, text, lines)
        if rest:
            pairs.add(name, rest)
            continue
        value = " ".join(leaves[i + 1].split())
        if _LABEL_VALUE_RE.match(value) or container.is_attribute(value):
            continue
        if _near(owner, leaves[i + 1]):
            pairs.add(name, value)


def _header_cell(cell: HtmlElement) -> bool:
    """A th in a row of th only: a table's header row."""
    row = cell.getparent()
    return row is not None and all(c.tag == "th" for c in row if isinstance(c.tag, str))


_INLINE_TAGS = frozenset("a abbr b bdi em font i label small span strong sup sub u".split())


def _short_text(el: HtmlElement, limit: int) -> str | None:
    """``el.text_content()`` when it is at most ``limit`` characters, else None.

    Reads only up to the limit: many labels inside one huge wrapper would
    otherwise each build the wrapper's whole text (quadratic on big pages).
    """
    parts: list[str] = []
    size = 0
    for piece in el.itertext():
        size += len(piece)
        if size > limit:
            return None
        parts.append(piece)
    return "".join(parts)


def _rest_of_block(owner: HtmlElement, label: str, lines: dict | None = None) -> str | None:
    """What follows a label in its line: "<li><b>Authors:</b> <a>A</a>; <a>B</a></li>" -> "A; B".

    The line is the nearest non-inline element around the label, read only
    when short; a line holding a second "Label:" is left to the leaf-by-leaf
    reading, so "SKU: X | Brand: Y" does not become one value.
    """
    block = owner
    for _ in range(3):
        if block is None or block.tag not in _INLINE_TAGS:
            break
        block = block.getparent()
    if block is None or block.tag in ("body", "html", "table", "tr", "ul", "ol", "dl"):
        return None
    # ``lines`` remembers each block's line: a spec list's labels share few
    # blocks (about three labels per block on shop pages).
    if lines is not None and block in lines:
        line = lines[block]
    else:
        line = _short_text(block, _LABEL_MAX_CHARS + _VALUE_MAX_CHARS)
        if line is not None:
            line = " ".join(line.split())
        if lines is not None:
            lines[block] = line
    if line is None:
        return None
    if not line.startswith(label):
        return None
    rest = line[len(label):].strip()
    if not rest or ":" in rest or "：" in rest:
        return None
    return rest


def pairs_from(area: HtmlElement, container: CharacteristicContainer,
               leaves: list | None = None) -> list[dict[str, str]]:
    """Attribute/value pairs of an area, structural patterns first, then text leaves.

    The two leaf scans test the same leaves: as a :class:`SharedLeaves` list
    (an area's leaves are a plain slice of the body's) the container's
    remembered bits are looked up once for both.
    """
    pairs = _Pairs()
    if leaves is None:
        leaves = text_leaves(area)
    if not isinstance(leaves, SharedLeaves):
        leaves = SharedLeaves(leaves)
    rows, lists = _rows_and_lists(area)
    _table_pairs(rows, pairs)
    _dl_pairs(lists, pairs)
    _row_pairs(leaves, pairs, container)
    _leaf_pairs(leaves, pairs, container)
    return pairs.items


@dataclass
class RecordResult:
    area: HtmlElement | None
    path: list[HtmlElement]
    properties: list[dict[str, str]]
    #: characteristic k -> text leaves under the area that show it (Formula 3's n_k)
    counts: dict[int, int] = field(default_factory=dict)


def extract_records(tree: HtmlElement, params: RecordParams | None = None,
                    leaves: list | None = None) -> RecordResult:
    """The record area of a page and the attribute/value pairs found in it.

    ``leaves`` may pass :func:`text_leaves` of the body when the caller has it.
    When the area holds fewer than ``min_pairs`` pairs (a page with almost no
    characteristics), the whole body is read instead so a lone pair is not lost.
    """
    params = params or RecordParams()
    container = container_for(tuple(params.extra_attributes))
    body = body_of(tree)
    if leaves is None:
        leaves = text_leaves(body)
    weights = compute_wvc(body, container, leaves, params.max_repeat)
    area, path = viterbi_area(body, weights, params.keep)
    props = pairs_from(area, container, leaves if area is body else subtree_leaves(area, body, leaves))
    if len(props) < params.min_pairs and area is not body:
        props = pairs_from(body, container, leaves)
    return RecordResult(area=area, path=path, properties=props, counts=dict(weights.counts.get(area, {})))


def body_leaves(doc) -> list:
    """:func:`text_leaves` of a Document's ``<body>``, collected once per Document.

    The kind guess and the product extractor both read the page's leaves
    (``extract(kind="auto")`` runs both): they share one list, kept on the
    Document next to the tree it points into. Treat it as read-only.
    """
    return doc.memo("body_leaves", lambda: SharedLeaves(text_leaves(body_of(doc.tree))))


class SharedLeaves(list):
    """A page's leaves as read by several scans: each :class:`LeafTests`' bits are kept with them.

    The bits live on the list they describe, so they go with the page and
    cannot be confused with another list's. A slice is a plain list.
    """

    __slots__ = ("bits",)

    def __init__(self, leaves: Iterable = ()) -> None:
        super().__init__(leaves)
        self.bits: dict[tuple[LeafTests, int], list[int]] = {}


def document_records(doc, params: RecordParams | None = None) -> RecordResult:
    """:func:`extract_records` of a Document, computed once per Document and parameters.

    The result is shared: callers that add to ``properties`` copy the list first.
    """
    params = params or RecordParams()
    key = (tuple(params.extra_attributes), params.keep, params.min_pairs, params.max_repeat)
    return doc.memo(("records", key), lambda: extract_records(doc.tree, params, body_leaves(doc)))
