"""Logical link blocks (seed 004): one forward scan of the HTML text, no tree.

The seed's point is that link blocks can be found without an HTML tree:
walk the page's code from front to back, measure the distance between each
``</a>`` and the next ``<a>``, and let adjacent links whose distance stays
under ``d_t`` (``max_distance``) form a run; a run that holds at least
``C_t`` (``min_links``) links is a *logical link block*. Because nothing is
parsed, broken or hostile markup costs nothing extra, and the work is one
pass of compiled regular expressions over the text (linear, no recursion).

Two distances, as the seed defines them:

* **code distance**: the length of the markup and text between the two
  links once every tag is stripped of its attributes (``<div class=x>`` is
  counted as ``<div>``). Runs of blanks count as one character, because
  indentation is an accident of the page generator, not page structure.
* **text distance**: the visible text between the two links, counted in
  units (:func:`text_distance`): a word, a CJK character, a whole number, a
  whole date and a run of identical punctuation each count 1.

Content of ``<script>``, ``<style>``, ``<noscript>``, ``<template>``,
``<textarea>``, ``<title>`` and comments is never displayed as page text, so
it is skipped (an unclosed one runs to the end of the page, as in browsers),
and ``<a>`` inside it is not a link. A link is an ``<a>`` with an ``href``;
an ``<a>`` left open ends at the next ``<a>``, at the end of its list item,
cell, row, list or table, or at the end of the page.

The offsets in :class:`LinkBlockScan` index the decoded HTML text, so other
algorithms (article text) can cut the regions between blocks out of it:
:meth:`LinkBlockScan.regions` (every region with its text units),
:meth:`LinkBlockScan.largest_region` (the likely body) and
:meth:`LinkBlockScan.text_regions` (plain offsets).

Example::

    scan = find_link_blocks(html_text, min_links=2, max_distance=20)
    body = scan.largest_region()
    body_html = html_text[body.start : body.end]
"""

from __future__ import annotations

import _sre
import functools
import html as html_lib
import re
from dataclasses import dataclass, field

import numpy as np

from .lang import _CJK_CLASS

DISTANCES = ("text", "code")

# --- text distance units ------------------------------------------------------

# The unit regex starts with one character class (any non-blank, non-CJK
# character) so that the regex engine jumps over blanks and CJK text in C;
# the branches then look back at that first character to decide what unit it
# starts. Each branch is the seed rule with its first character already read.
# Case-insensitive only where letters are compared (month names, "8th", "T"):
# a pattern-wide re.I slows every character class test.
_SP = r"[^\S\x1e\x1f]"  # a blank inside a date: any but the bucket separators (below)
_START = r"(?<!\w[\s\S])"  # \b before the character already read (a word character)
_MONTH = (
    r"(?i:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
)
# A month name once its first letter is read ("(?i:s)" also accepts "ſ", the
# long s, as case-insensitive matching of "sep" does).
_MONTH_REST = "|".join(
    f"(?<=(?i:{first}))(?i:{rest})"
    for first, rest in (
        ("j", "an(?:uary)?|une?|uly?"),
        ("f", "eb(?:ruary)?"),
        ("m", "ar(?:ch)?|ay"),
        ("a", "pr(?:il)?|ug(?:ust)?"),
        ("s", "ep(?:t(?:ember)?)?"),
        ("o", "ct(?:ober)?"),
        ("n", "ov(?:ember)?"),
        ("d", "ec(?:ember)?"),
    )
)
_DAY = r"\d{1,2}(?i:st|nd|rd|th)?"
# Whole dates count 1 (seed rule 4); each is tried before the word or number
# it starts with. Blanks in a date are _SP, so a date never runs from one
# counted piece of text into the next.
_MONTH_DATE = rf"{_START}(?:{_MONTH_REST})\.?{_SP}+{_DAY},?{_SP}+\d{{4}}\b"  # March 8th, 2014
_DIGIT_DATE = (  # first digit already read
    rf"\d{{1,3}}{_SP}*年{_SP}*\d{{1,2}}{_SP}*月(?:{_SP}*\d{{1,2}}{_SP}*[日号])?"  # 2014年3月8日
    rf"|\d?{_SP}*月{_SP}*\d{{1,2}}{_SP}*[日号]"  # 3月8日
    r"|\d{3}[-/.]\d{1,2}[-/.]\d{1,2}(?:[Tt ]\d{1,2}:\d{2}(?::\d{2})?)?"  # 2014-03-08[ 10:20]
    r"|\d?[-/.]\d{1,2}[-/.]\d{4}"  # 08/03/2014
    rf"|{_START}\d?(?i:st|nd|rd|th)?{_SP}+{_MONTH}\.?,?{_SP}+\d{{4}}\b"  # 8 March 2014
)
# Only one kind of unit can start with a given character (a letter starts a
# month date or else a word, a digit a date or else a number), so the order
# of the branches is free and the lookbehinds reject a branch in one test.
# A unit of one character needs no match: the regex leaves it in place and
# the scan goes on at the next character exactly as after a match. Units are
# then what remains once every match is replaced by one mark and the blanks
# are dropped. So a CJK character (a unit on its own, and nothing else starts
# with one) is skipped by the first character class, and the branches below
# only match units of two characters or more: "，" "a" "8" cost no match.
_C = _CJK_CLASS
_UNIT_RE = re.compile(
    rf"[^\s{_C}](?:"
    rf"(?<=[JFMASONDjfmasondſ]){_MONTH_DATE}"
    rf"|(?<=[^\W\d_{_C}])(?:[^\W_{_C}]+(?:['’][^\W_{_C}]+)*|(?:['’][^\W_{_C}]+)+)"  # a word
    rf"|(?<=\d)(?:{_DIGIT_DATE}|\d+(?:[.,:]\d+)*|(?:[.,:]\d+)+)"  # a date, a number: 1,000.5
    rf"|(?<=([^\w\s{_C}]|_))(?i:\1)+"  # a run of identical punctuation (as case-folded: Ⓐⓐ)
    r")"
)
_MARK = "\x00"

# --- markup -------------------------------------------------------------------

_RAW = "script|style|noscript|template|textarea|title"
# The scan stops at: a link start, a raw-text element, a comment, and (only
# inside a link) its end or an end tag that cannot be inside it. (A common "<"
# prefix and explicit case classes keep the search in C's fast path.)
_A = "[aA]"
_RAW_CI = "|".join("".join(f"[{c.lower()}{c.upper()}]" for c in name) for name in _RAW.split("|"))
# An <a> start reads its href value, if the tag has one (groups 2-4:
# double-quoted, single-quoted, bare), and on to the tag's first ">" (none:
# the match runs to the end of the page).
_A_START = (
    rf"({_A})(?=[\s>/])"
    r"""(?:[^>]*?\b(?i:href)\s*=\s*(?:"([^">]*)|'([^'>]*)|([^\s"'>]*)))?[^>]*>?"""
)
_INSIDE_RE = re.compile(
    rf"<(?:{_A_START}|({_RAW_CI})(?=[\s>/])|!--"
    r"|(/[aA]\s*>)|(/(?i:li|td|th|tr|table|ul|ol|dl|body|html)\s*>))"
)
_OUTSIDE_RE = re.compile(rf"<(?:{_A_START}|({_RAW_CI})(?=[\s>/])|!--)")
# m.lastindex of a boundary match -> its kind: 1 <a, 2 raw-text element,
# 3 </a>, 4 implicit end of a link (None: a comment). An <a> with an href
# ends on its value's group (2-4); one without, on group 1.
_KIND = (None, 1, 1, 1, 1, 2, 3, 4)
_LINK_HREF = (2, 3, 4)
# The rest of a link whose text holds no tag: its text and its "</a>" (group 1),
# where a search inside the link would stop (no "<" comes before it).
_PLAIN_LINK_RE = re.compile(r"[^<]*+(</[aA]\s*>)")
_RAW_END = {name: re.compile(rf"</{name}\s*>", re.I) for name in _RAW.split("|")}
# [^<>] (not [^>]) keeps a stray "<x" without ">" from scanning to the end each time.
_TAG_RE = re.compile(r"<[/!?a-zA-Z][^<>]*>")
_ATTR_RE = re.compile(r"<(/?[a-zA-Z][\w:-]*)[^<>]*>")
_BLANK_RE = re.compile(r"\s+")


def text_distance(text: str) -> int:
    """Length of visible text in the seed's units (already tag-free text).

    A word, a CJK character, a whole number ("2008", "1,000.5"), a whole date
    ("March 8th, 2014", "2014年3月8日", "2014-03-08") and a run of identical
    punctuation ("...", "|") each count 1: a navigation separator should
    not weigh like a sentence, and a date in a list of headlines is one item
    of information, not five.
    """
    if _SEP in text or _PIECE in text:  # blanks like any other (they are to str.split)
        text = text.translate(_SEPS_TO_SPACE)
    # Each match becomes one mark; CJK characters stay; blanks go.
    return len("".join(_UNIT_RE.sub(_MARK, text).split()))


def markup_text_distance(markup: str) -> int:
    """Text distance of a piece of HTML: tags dropped, entities decoded."""
    # Collapsing blanks first (split/join runs in C) lets the unit regex skip
    # indentation instead of trying every branch on every blank.
    text = " ".join((_TAG_RE.sub(" ", markup) if "<" in markup else markup).split())
    if not text:
        return 0
    if "&" in text:
        text = html_lib.unescape(text)
    return text_distance(text)


# --- counting many pieces at once ---------------------------------------------

# A scan cuts the page into pieces of text, each belonging to a bucket (the
# text before the first link, inside link 1, after link 1, ...). Counting
# each piece with its own regex calls costs a Python round trip per piece;
# instead the pieces are joined, with _PIECE between pieces and _SEP after
# each bucket, and counted in a few C-level passes over the whole string.
# Both separators are blanks (str.isspace), so no unit can contain one: words,
# numbers and punctuation stop at blanks, dates use _SP (blanks but these),
# \b sees a non-word character as at the end of a string, tags exclude them
# and html.unescape resolves an entity cut by one exactly as at the end of
# a string (longest known prefix). Both are invalid HTML characters that
# html.unescape never produces; a page that contains them has them replaced by
# a space first, which changes nothing since they are blanks to every rule.
_PIECE = "\x1e"
_SEP = "\x1f"
BUCKET_SEP = _SEP  # closes each bucket in LinkBlockScan.text (public name for readers)
_SEPS_TO_SPACE = str.maketrans({_PIECE: " ", _SEP: " "})
# A tag is a blank to text units. One match takes a whole run of tags and the
# blanks between and after them (indentation), so the blank pass that follows
# has far fewer runs left to collapse.
_PIECE_TAG = r"<[/!?a-zA-Z][^<>\x1e\x1f]*>"
_PIECE_TAG_RE = re.compile(rf"{_PIECE_TAG}(?:[^\S\x1e\x1f]*+{_PIECE_TAG})*+[^\S\x1e\x1f]*+")
# Runs of two or more blanks, or one blank other than a space (separators
# excepted): each becomes one space.
_PIECE_BLANKS_RE = re.compile(r"[^\S\x1e\x1f](?:[^\S\x1e\x1f]+|(?<! ))")
# The same, only after a digit, a currency sign or ";" (the end of an entity
# such as "&#36;", decoded later). Only there does the length or kind of a
# blank run change a figure: the time in "2014-03-08 10:20" follows one
# plain space, and a price's sign stands next to its number or one blank
# away. Elsewhere blanks only separate units, and collapsing every run cost
# a regex step at each space between words. The pattern opens with the class
# of those characters, so the engine jumps from one to the next in C. An
# entity left without its ";" that decodes to a sign or digit ("&pound",
# "&#x20ac") has the page take the full collapse (_BARE_ENTITY_RE).
_NUMBER_BLANKS_RE = re.compile(
    r"([\d$€£¥₹₩￥元円₽;])(?: [^\S\x1e\x1f]|[^\S \x1e\x1f])[^\S\x1e\x1f]*"
)
_BARE_ENTITY_RE = re.compile(r"&(?:#[xX]?[0-9a-fA-F]+|pound|yen)(?![0-9a-fA-F;])")
_OTHER_BLANK_RE = re.compile(r"[^\S\x1f]+")


def count_buckets(joined: str) -> list[int]:
    """Text units of each bucket of ``joined`` (pieces of HTML, see above).

    Equal, bucket by bucket, to the sum of :func:`markup_text_distance` over
    the bucket's pieces, in a constant number of regex passes.
    """
    return count_buckets_and_text(joined)[0]


def count_buckets_and_text(joined: str) -> tuple[list[int], str, str]:
    """:func:`count_buckets`, the visible text it counted (tags replaced by
    a space, runs of blanks after a digit or currency sign by one space,
    entities decoded, separators kept) and the part of it around digits
    (the digit regions below, joined by ``\x1f``; the whole text when the
    regex counted it): the page-type features read prices in the text and
    dates in the digit regions, not in markup."""
    text = _PIECE_TAG_RE.sub(" ", joined) if "<" in joined else joined
    # Blank runs after digits and signs, then entities, in markup_text_distance's
    # order: a blank decoded from an entity (&nbsp;) is not collapsed, which
    # matters to the one rule that wants a plain space ("2014-03-08 10:20").
    if "&" in text:
        if _BARE_ENTITY_RE.search(text):
            text = _PIECE_BLANKS_RE.sub(" ", text)
        else:
            text = _NUMBER_BLANKS_RE.sub(r"\1 ", text)
        text = html_lib.unescape(text)
    else:
        text = _NUMBER_BLANKS_RE.sub(r"\1 ", text)
    counted = _bucket_units(text)
    if counted is None:
        return _regex_bucket_units(text), text, text
    return counted[0], text, counted[1]


def _regex_bucket_units(text: str) -> list[int]:
    """Units of each bucket of the visible ``text`` by the unit regex alone."""
    # Every non-blank character belongs to some unit, so once each unit is one
    # mark (units of one character stay as they are), a bucket's units are
    # its characters left once spaces and piece separators are dropped.
    marks = _UNIT_RE.sub(_MARK, text).replace(" ", "").replace(_PIECE, "")
    if _OTHER_BLANK_RE.search(marks):  # other blanks (newlines, decoded &nbsp;)
        marks = _OTHER_BLANK_RE.sub("", marks)
    return list(map(len, marks.split(_SEP)))


# --- counting units with array operations -------------------------------------

# Most of a page's text holds no digit, and without digits the unit rules
# are local: a unit starts at every non-blank character except a letter
# after a letter (or after an apostrophe between two letters), such an
# apostrophe, and a punctuation character equal (case-folded) to the one
# before it. That is one vectorised test per character over the code points
# (numpy), with no regex match per word. Numbers and dates need the regex; a
# date's blanks always touch a token (run of non-blanks) that holds a digit,
# so the tokens with a digit, their neighbours across a blank and the blanks
# between are cut out as *digit regions* and counted by the regex exactly as
# before; the rest of the page cannot hold a date, and every blank between
# two tokens without digits starts the rules afresh.
_BLANK, _LETTER, _DIGIT, _CJK, _PUNCT, _APOSTROPHE, _CASED_PUNCT = range(7)
_BMP = 0x10000


@functools.cache
def _char_tables() -> tuple[np.ndarray, np.ndarray]:
    """Class (_BLANK ... _CASED_PUNCT) and case-folded code point of every BMP character.

    The classes are the regex's own: blank = ``\\s``, digit = ``\\d``,
    CJK = ``_CJK_CLASS``, letter = any other ``\\w`` but ``_``, punctuation
    the rest: apostrophes (which join a word's letters) and punctuation
    whose fold (the one ``(?i:\\1)`` compares, ``_sre``'s) is another
    character apart. Built once per process (about 0.03 s of CPU).
    """
    chars = "".join(map(chr, range(_BMP)))
    classes = np.full(_BMP, _PUNCT, dtype=np.uint8)
    for pattern, cls in ((r"\w", _LETTER), (r"\d", _DIGIT), (f"[{_CJK_CLASS}]", _CJK), (r"\s", _BLANK)):
        classes[[m.start() for m in re.finditer(pattern, chars)]] = cls
    classes[ord("_")] = _PUNCT
    fold = np.fromiter(map(_sre.unicode_tolower, range(_BMP)), dtype=np.uint32, count=_BMP)
    classes[(classes == _PUNCT) & (fold != np.arange(_BMP, dtype=np.uint32))] = _CASED_PUNCT
    classes[[ord("'"), ord("’")]] = _APOSTROPHE
    return classes, fold


def _bucket_units(text: str) -> tuple[list[int], str] | None:
    """Units of each bucket of ``text`` (the visible text, separators kept) by
    the array rules above, and the digit regions' text; None when the text
    holds a character beyond the BMP (rare: those pages take the regex path)."""
    if not text:
        return [0], ""
    # UTF-16 code units are the code points when the text stays in the BMP,
    # which the length tells (a character beyond it takes two units): half
    # the bytes of UTF-32 and no pass to find the largest code point.
    cps = np.frombuffer(text.encode("utf-16-le", "surrogatepass"), dtype=np.uint16)
    if len(cps) != len(text):
        return None
    classes, fold = _char_tables()
    cls = classes[cps]
    letter = cls == _LETTER
    # cont[i - 1]: character i continues the unit of character i - 1
    cont = letter[1:] & letter[:-1]
    punct = cls >= _PUNCT
    same = punct[1:] & punct[:-1]
    if same.any():  # a run of one punctuation character (as case-folded)
        codes = fold[cps] if (cls == _CASED_PUNCT).any() else cps
        cont |= same & (codes[1:] == codes[:-1])
    # an apostrophe between two letters, and the letter after it
    joiner = (cls[1:-1] == _APOSTROPHE) & letter[:-2] & letter[2:]
    if joiner.any():
        cont[:-1] |= joiner
        cont[1:] |= joiner
    nonblank = cls != _BLANK
    start = nonblank.copy()
    start[1:] &= ~cont
    # Positions only from here: a bucket's units are the starts between two
    # bucket separators (sorted positions, so a binary search counts them).
    starts = np.flatnonzero(start)
    bucket_ends = np.flatnonzero(cps == 0x1F)
    units = np.diff(np.searchsorted(starts, bucket_ends), prepend=0, append=len(starts))
    digit = cls == _DIGIT
    if digit.any():
        correction, regions = _digit_regions(text, cps, nonblank, digit, starts, bucket_ends)
        return (units + correction).tolist(), regions
    return units.tolist(), ""


def _digit_regions(text: str, cps: np.ndarray, nonblank: np.ndarray, digit: np.ndarray,
                   starts: np.ndarray, bucket_ends: np.ndarray) -> tuple[np.ndarray, str]:
    """Per bucket: the regex's units in the digit regions minus the array
    rules' unit ``starts`` there (adding it corrects the array count); and
    the regions' text, joined by ``_SEP``."""
    edge = np.diff(nonblank.view(np.int8), prepend=np.int8(0), append=np.int8(0))
    first = np.flatnonzero(edge == 1)  # token starts
    last = np.flatnonzero(edge == -1)  # token ends (exclusive)
    # a token holds a digit when the stretch from its start to the next
    # token's start does (the blanks in between hold none)
    has_digit = np.logical_or.reduceat(digit, first)
    # A blank run between two tokens is crossed by a date only with a digit
    # beside it, and never across a piece or bucket separator.
    seps = np.flatnonzero((cps == 0x1E) | (cps == 0x1F))
    link = np.searchsorted(seps, first[1:]) == np.searchsorted(seps, last[:-1])
    link &= has_digit[:-1] | has_digit[1:]
    member = has_digit.copy()
    member[1:] |= link
    member[:-1] |= link
    opens = member.copy()
    opens[1:] &= ~link
    closes = member.copy()
    closes[:-1] &= ~link
    begin, end = first[opens], last[closes]
    joined = _SEP.join([text[a:b] for a, b in zip(begin.tolist(), end.tolist(), strict=True)])
    marks = _UNIT_RE.sub(_MARK, joined).replace(" ", "")
    if _OTHER_BLANK_RE.search(marks):
        marks = _OTHER_BLANK_RE.sub("", marks)
    regex_units = np.fromiter(map(len, marks.split(_SEP)), dtype=np.int64, count=len(begin))
    regex_units -= np.searchsorted(starts, end) - np.searchsorted(starts, begin)
    correction = np.zeros(len(bucket_ends) + 1, dtype=np.int64)
    np.add.at(correction, np.searchsorted(bucket_ends, begin), regex_units)
    return correction, joined


def code_distance(markup: str) -> int:
    """Characters of markup once tag attributes are stripped and blanks collapsed."""
    return len(_BLANK_RE.sub(" ", _ATTR_RE.sub(r"<\1>", markup)).strip())


# --- results ------------------------------------------------------------------


@dataclass(frozen=True)
class LinkBlock:
    """A logical link block: ``html[start:end]`` from its first ``<a`` to its last ``</a>``.

    ``first`` is the index of its first link in :attr:`LinkBlockScan.links`.
    """

    start: int
    end: int
    links: int
    first: int = 0

    @property
    def length(self) -> int:
        return self.end - self.start


@dataclass(frozen=True)
class TextRegion:
    """The HTML between two link blocks (or before the first / after the last).

    ``html[start:end]`` is the region; ``units`` its visible text in text
    units (loose links included). An article body is usually the region with
    the most units: see :meth:`LinkBlockScan.largest_region`.
    """

    start: int
    end: int
    units: int


@dataclass
class LinkBlockScan:
    """Everything one forward scan learns about a page's links.

    ``links`` are (start, end) offsets of every link in the HTML text;
    ``gaps[i]`` is the distance between link i and link i+1 (len(links)-1
    values), ``lead``/``tail`` the distance before the first and after the
    last link. Whatever the distance used for blocks, text is also counted
    in text units: ``link_text[i]`` inside link i, ``gap_text[i]`` in the gap
    after it (``gap_text[-1]`` is the tail), ``lead_text`` before the first
    link, ``link_units`` inside all links and ``text_units`` on the page.
    ``text`` is the visible text the units were counted in (pieces joined by
    ``\x1e``, buckets closed by ``\x1f``), ``digit_text`` its tokens that
    hold a digit and their neighbours (every date is there); ``markup`` the same pieces before
    tags were dropped (the page's markup outside raw-text elements and
    comments, without the links' ``<a ...>`` start tags: each link's
    bucket opens right after its ``\x1f``). ``hrefs[i]`` is link i's href
    value as written, ``json_ld`` the content of the page's
    ``application/ld+json`` scripts, ``textareas`` the number of
    ``<textarea>`` elements (comment and reply forms). The page-type features read these
    instead of passing over the page again.
    """

    length: int
    blocks: list[LinkBlock] = field(default_factory=list)
    links: list[tuple[int, int]] = field(default_factory=list)
    gaps: list[int] = field(default_factory=list)
    lead: int = 0
    tail: int = 0
    link_text: list[int] = field(default_factory=list)
    gap_text: list[int] = field(default_factory=list)
    lead_text: int = 0
    link_units: int = 0
    text_units: int = 0
    distance: str = "text"
    text: str = field(default="", repr=False)
    digit_text: str = field(default="", repr=False)
    hrefs: list[str] = field(default_factory=list, repr=False)
    markup: str = field(default="", repr=False)
    json_ld: list[str] = field(default_factory=list, repr=False)
    textareas: int = 0

    @property
    def link_count(self) -> int:
        return len(self.links)

    @property
    def block_links(self) -> int:
        return sum(b.links for b in self.blocks)

    @property
    def lcr(self) -> float:
        """Link coverage ratio: links inside blocks / links on the page (0 without links)."""
        return self.block_links / len(self.links) if self.links else 0.0

    @property
    def ccr(self) -> float:
        """Code coverage ratio: characters inside blocks / characters of the page."""
        return sum(b.length for b in self.blocks) / self.length if self.length else 0.0

    def region_units(self) -> list[int]:
        """Text units of each region outside the blocks, in page order.

        One value per region before, between and after the blocks (always
        ``len(blocks) + 1`` values); loose links inside a region count with
        it, as they do in a paragraph with a few inline links.
        """
        block_of = [-1] * len(self.links)
        for k, block in enumerate(self.blocks):
            for i in range(block.first, block.first + block.links):
                block_of[i] = k
        regions: list[int] = []
        current = self.lead_text
        for i, k in enumerate(block_of):
            if k < 0:
                current += self.link_text[i] + self.gap_text[i]
                continue
            block = self.blocks[k]
            if i == block.first:
                regions.append(current)
                current = 0
            if i == block.first + block.links - 1:
                current = self.gap_text[i]
        regions.append(current)
        return regions

    def regions(self) -> list[TextRegion]:
        """All regions outside the blocks, in page order (``len(blocks) + 1`` of them)."""
        bounds = [0]
        for block in self.blocks:
            bounds += [block.start, block.end]
        bounds.append(self.length)
        units = self.region_units()
        return [
            TextRegion(bounds[2 * k], max(bounds[2 * k], bounds[2 * k + 1]), units[k])
            for k in range(len(units))
        ]

    def largest_region(self) -> TextRegion:
        """The region with the most text: where the body of a content page is."""
        return max(self.regions(), key=lambda r: r.units)

    def text_regions(self) -> list[tuple[int, int]]:
        """(start, end) offsets of the HTML text before, between and after the blocks.

        This is where body text can be: the seed observes that a content page
        is mostly one text region framed by two link blocks. Empty regions
        are dropped.
        """
        regions: list[tuple[int, int]] = []
        pos = 0
        for block in self.blocks:
            if block.start > pos:
                regions.append((pos, block.start))
            pos = max(pos, block.end)
        if pos < self.length:
            regions.append((pos, self.length))
        return regions


# --- the scan -----------------------------------------------------------------


def scan_links(html: str, distance: str = "text") -> LinkBlockScan:
    """Find every link and the distance between neighbours, in one pass.

    No blocks yet: :func:`group_blocks` turns the gaps into blocks for any
    (C_t, d_t), so a parameter sweep scans each page once. The loop only
    cuts the page into pieces of text; their units are counted afterwards
    in one batch (:func:`count_buckets`).
    """
    if distance not in DISTANCES:
        raise ValueError(f"distance must be 'text' or 'code', not {distance!r}")
    text_mode = distance == "text"
    scan = LinkBlockScan(length=len(html), distance=distance)
    if _SEP in html or _PIECE in html:
        html = html.translate(_SEPS_TO_SPACE)  # same length, same offsets
    links, hrefs, json_ld = scan.links, scan.hrefs, scan.json_ld
    # Pieces of text and bucket separators, in page order, to be joined with
    # _PIECE: buckets alternate between the text before/after links (even)
    # and the text inside a link (odd).
    parts: list[str] = []
    code_gaps: list[int] = []  # code distance of each outside bucket ("code" only)
    # Local names: this loop runs once per link boundary on every page.
    add = parts.append
    inside, outside, find, kinds = _INSIDE_RE.search, _OUTSIDE_RE.search, html.find, _KIND
    plain_link = _PLAIN_LINK_RE.match
    n = len(html)
    pos = 0  # start of the markup not yet measured
    code_gap = 0  # code distance accumulated since the last link ended
    link_start = -1  # offset of the open link's "<a", -1 when outside a link
    # Outside a link only a link start, a raw-text element or a comment
    # matters; inside one, also the tags that end it. One search per boundary,
    # with the pattern for where the scan is, so end tags outside links (the
    # </li> after most menu links) cost no step of this loop.
    while pos < n:
        m = (inside if link_start >= 0 else outside)(html, pos)
        if m is None:
            break
        start = m.start()
        group = m.lastindex
        kind = kinds[group] if group else None
        if start > pos:
            add(html[pos:start])
            if not text_mode and link_start < 0:
                code_gap += code_distance(html[pos:start])
        # The two boundaries of every link first: they are nearly all of them.
        if kind == 1:
            pos = m.end()
            if html[pos - 1] != ">":  # an unterminated <a: nothing after it is measured
                pos = n
                break
            if link_start >= 0:  # an <a> closes the open one: its bucket ends
                links.append((link_start, start))
                link_start = -1
                add(_SEP)
            if group != 1:  # an href: the gap's bucket ends, the link's begins
                hrefs.append(m.group(group))
                add(_SEP)
                if not text_mode:
                    code_gaps.append(code_gap)
                    code_gap = 0
                # Most links hold plain text up to their "</a>": the search
                # inside the link would stop at that "</a>" first, so the
                # link is closed here, one step of this loop less.
                plain = plain_link(html, pos)
                if plain is None:
                    link_start = start
                    continue
                text_end, end = plain.span(1)
                if text_end > pos:
                    add(html[pos:text_end])
                links.append((start, end))
                add(_SEP)
                pos = end
            elif not text_mode:
                code_gap += code_distance(html[start:pos])
            continue
        if kind == 3 or kind == 4:
            # </a> belongs to the link; </li>, </td>...: the link ends before
            # it, and the tag is measured with the next gap.
            pos = m.end() if kind == 3 else start
            links.append((link_start, pos))
            link_start = -1
            add(_SEP)
            continue
        if kind == 2:
            # Skip the element's content: it is never page text or links.
            gt = find(">", m.end())
            name = m.group(5).lower()
            end_m = _RAW_END[name].search(html, gt + 1) if gt >= 0 else None
            pos = end_m.end() if end_m else n
            if name == "script" and find("ld+json", m.end(), gt) >= 0:
                json_ld.append(html[gt + 1:end_m.start() if end_m else n])
            elif name == "textarea":
                scan.textareas += 1
            continue
        close = find("-->", m.end())  # a comment
        pos = n if close < 0 else close + 3
    if pos < n:
        add(html[pos:])
        if not text_mode and link_start < 0:
            code_gap += code_distance(html[pos:])
    if link_start >= 0:  # a link left open runs to the end of the page
        links.append((link_start, n))
        add(_SEP)
    code_gaps.append(code_gap)
    scan.markup = _PIECE.join(parts)
    units, scan.text, scan.digit_text = count_buckets_and_text(scan.markup)
    # Even buckets: text outside links (lead, gaps, tail); odd: inside links.
    outside, inside = units[0::2], units[1::2]
    scan.link_text = inside
    scan.link_units = sum(inside)
    scan.text_units = scan.link_units + sum(outside)
    scan.lead_text = outside[0]
    gaps = outside if text_mode else code_gaps
    scan.lead = gaps[0]
    if links:
        scan.gap_text = outside[1:]
        scan.gaps = gaps[1:-1]
        scan.tail = gaps[-1]
    return scan


def group_blocks(scan: LinkBlockScan, min_links: int, max_distance: int) -> list[LinkBlock]:
    """Group adjacent links whose distance is under ``max_distance`` into blocks.

    The seed's rule: a run of links with every gap ``< d_t`` is a logical
    link block when it holds ``>= C_t`` links.
    """
    blocks: list[LinkBlock] = []
    links, gaps = scan.links, scan.gaps
    if not links:
        return blocks
    first = 0
    for i in range(1, len(links) + 1):
        if i < len(links) and gaps[i - 1] < max_distance:
            continue
        count = i - first
        if count >= min_links:
            blocks.append(LinkBlock(links[first][0], links[i - 1][1], count, first))
        first = i
    return blocks


def find_link_blocks(
    html: str, min_links: int = 3, max_distance: int = 40, distance: str = "text"
) -> LinkBlockScan:
    """Scan ``html`` (decoded text) and return its links, gaps and logical link blocks.

    ``min_links`` is the seed's C_t, ``max_distance`` its d_t (in text units
    for ``distance="text"``, in characters for ``"code"``).
    """
    scan = scan_links(html, distance)
    scan.blocks = group_blocks(scan, min_links, max_distance)
    return scan

