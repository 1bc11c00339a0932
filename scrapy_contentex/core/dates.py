"""Publication dates: the formats news and blog pages print, EN and ZH first, then more languages.

dateparser would do this with a heavy dependency and a slow, language-wide
search; article pages use a small set of formats, so a few compact regexes do
it in one linear pass. Every pattern is built from fixed tokens and bounded
runs (no nested quantifiers), so hostile input cannot make them backtrack
catastrophically.

``parse_date(text)`` returns ``(iso, raw)`` for the first date in a string
(a meta value, a ``<time datetime>``, a line of text) and ``find_dates(text)``
every date found in a longer text, with its position, for callers that rank
them (see ``metadata``); ``other_reading(raw)`` the other order of a numeric
date both orders can read ("02-12-2025"), for callers that can tell which one
a page meant. Relative dates ("3 hours ago", "昨天") are ignored on
purpose: without the crawl time they cannot be turned into a day.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from email.utils import parsedate_to_datetime
from functools import lru_cache

MIN_YEAR = 1970
MAX_YEAR = 2100
# Longest input parse_date looks at: a date value is short, a page is not.
MAX_VALUE = 400

MONTHS = {
    "jan": 1, "january": 1, "feb": 2, "february": 2, "mar": 3, "march": 3,
    "apr": 4, "april": 4, "may": 5, "jun": 6, "june": 6, "jul": 7, "july": 7,
    "aug": 8, "august": 8, "sep": 9, "sept": 9, "september": 9, "oct": 10,
    "october": 10, "nov": 11, "november": 11, "dec": 12, "december": 12,
}
# Full month names of the other languages news sites print dates in most
# (de, fr, es, pt, it, nl): "30. Juli 2018", "12 de março de 2020".
_OTHER_MONTHS = (
    "januar janvier enero janeiro gennaio januari|februar février fevrier febrero fevereiro "
    "febbraio februari|märz maerz mars marzo março marco maart|avril abril aprile|mai mayo maio "
    "maggio mei|juni juin junio junho giugno|juli juillet julio julho luglio|août aout agosto "
    "augustus|septembre septiembre setiembre setembro settembre|oktober octobre octubre outubro "
    "ottobre|novembre noviembre novembro|dezember décembre decembre diciembre dezembro dicembre"
)
# and pl, cs, ru, uk, tr, sv/da/no, in the forms dates use (Polish, Czech,
# Russian and Ukrainian put the month in the genitive: "13 maja", "13. května",
# "13 мая"); Turkish "13 Mayıs 2024".
_MORE_MONTHS = (
    "stycznia styczeń ledna leden января январь січня ocak|lutego luty února únor февраля "
    "февраль лютого şubat|marca marzec března březen марта март березня mart|kwietnia kwiecień "
    "dubna duben апреля апрель квітня nisan|maja maj května květen мая май травня mayıs|czerwca "
    "czerwiec června červen июня июнь червня haziran|lipca lipiec července červenec июля июль "
    "липня temmuz|sierpnia sierpień srpna srpen августа август серпня ağustos augusti|września "
    "wrzesień září сентября сентябрь вересня eylül|października październik října říjen "
    "октября октябрь жовтня ekim|listopada listopad listopadu ноября ноябрь листопада kasım|grudnia "
    "grudzień prosince prosinec декабря декабрь грудня aralık"
)
# The abbreviations those languages print in short dates ("04-ago-2021",
# "12 dic. 2020", "3 janv. 2024"); English ones ("Aug") are above.
_SHORT_MONTHS = (
    "ene gen janv jän|fév févr fev|mrz mär|abr avr|mag|giu|juil lug|ago|set|ott okt|"
    "|dic déc dez"
)
for _table in (_OTHER_MONTHS, _MORE_MONTHS, _SHORT_MONTHS):
    for _number, _names in enumerate(_table.split("|"), 1):
        for _name in _names.split():
            MONTHS.setdefault(_name, _number)
# Any word of letters; _from_match keeps it only if it is a month name. One
# character class is much cheaper for the regex engine than an alternation of
# sixty names tried at every position.
# Possessive: a shorter part of a run of letters is followed by a letter, which
# no pattern accepts after the month, so giving letters back never helps.
# A run stops before a capital that follows a lower-case letter ("LeeMar"):
# that is where two inline elements were joined, and the month starts there.
_MONTH = r"(?P<mon>[^\W\d_](?-i:[^\W\d_A-Z]|(?<![a-z])[A-Z]){2,11}+)\.?"
_DIGITS = r"(?<![\d.])"  # a number that does not continue another number

# Optional clock time after a date: "08:30", "08:30:15", "8:30 pm", "8时30分".
_TIME = (
    r"(?:(?:\s{0,3}[T,]\s{0,3}|\s{1,3}(?:at\s{1,3})?|\s{0,3})"
    r"(?P<H>[01]?\d|2[0-3])\s{0,2}[:：时]\s{0,2}(?P<M>[0-5]\d)(?:\s{0,2}分)?"
    r"(?:\s{0,2}[:：]\s{0,2}(?P<S>[0-5]\d)(?:\s{0,2}秒)?)?(?:\.\d{1,9})?"
    r"(?:\s{0,2}(?P<ampm>[ap]\.?m\.?)(?![a-z]))?"
    r"(?:\s{0,2}(?P<tz>(?:Z|GMT|UTC)(?![a-z])|[+-](?:0\d|1[0-4]):?[0-5]\d(?!\d)))?)?"
)

# Year first, numeric: 2024-03-08, 2024/3/8, 2024.03.08, 2024年3月8日.
_YMD = re.compile(
    _DIGITS + r"(?P<y>(?:19|20)\d\d)\s{0,2}(?:(?P<sep>[-/.])|[年년])\s{0,2}"
    r"(?P<m>1[0-2]|0?[1-9])\s{0,2}(?(sep)(?P=sep)|[月월])\s{0,2}"
    r"(?P<d>3[01]|[12]\d|0?[1-9])(?!\d)(?:\s{0,2}[日号일])?" + _TIME,
    re.I,
)
# Month name first: March 8, 2014 / Mar. 8th 2014 / Sunday, March 8 2014.
# Not inside a word, except a capital right after a lower-case letter: inline
# elements are joined without a space ("By<a>Ann Lee</a><span>Mar 5, 2025"
# reads "Ann LeeMar 5, 2025"), and a word never has a capital in its middle.
_MDY = re.compile(
    r"(?:(?<![a-z])|(?-i:(?<=[a-z])(?=[A-Z])))" + _MONTH + r"\s{0,3}(?P<d>3[01]|[12]\d|0?[1-9])(?:st|nd|rd|th)?(?!\d)"
    r"\s{0,3},?\s{0,3}(?P<y>(?:19|20)\d\d)(?!\d)" + _TIME,
    re.I,
)
# Day first: 8 March 2014 / 08 Mar 2014 / 8th of March, 2014 / 12 de março de 2020.
_DMY = re.compile(
    _DIGITS + r"(?P<d>3[01]|[12]\d|0?[1-9])(?:st|nd|rd|th|er|º)?(?:\s{1,3}(?:of|de))?[\s.-]{1,3}"
    + _MONTH + r"(?:\s{1,3}de)?[\s.,-]{1,3}(?P<y>(?:19|20)\d\d)(?!\d)" + _TIME,
    re.I,
)
# Numeric day/month/year: 03/08/2014, 04-13-2023 (US order unless the first
# number > 12; dotted dates are European, day first).
_NUM = re.compile(
    _DIGITS + r"(?P<a>[0-3]?\d)(?P<sep>[/.-])(?P<b>[0-3]?\d)(?P=sep)(?P<y>(?:19|20)\d\d)(?!\d)"
    + _TIME,
    re.I,
)
# Vietnamese, day first with the month as a number: "13 tháng 5, 2024",
# "ngày 13 tháng 5 năm 2024".
_VI = re.compile(
    _DIGITS + r"(?P<d>3[01]|[12]\d|0?[1-9])\s{1,3}tháng\s{1,3}(?P<m>1[0-2]|0?[1-9])"
    r"(?:\s{0,3},|\s{1,3}năm)?\s{0,3}(?P<y>(?:19|20)\d\d)(?!\d)" + _TIME,
    re.I,
)
_VI_WORD = re.compile("tháng", re.I)
# Year and month only: 2024年3月 / 1998-3 (used when nothing better exists).
_YM = re.compile(
    _DIGITS + r"(?P<y>(?:19|20)\d\d)\s{0,2}(?:年\s{0,2}(?P<m1>1[0-2]|0?[1-9])\s{0,2}月"
    r"|-(?P<m2>1[0-2]|0?[1-9])(?![\d-]))"
)
_EPOCH = re.compile(r"^\s*(\d{10})(\d{3})?\s*$")

# Every pattern holds a year (its ``y`` group) starting at most _YEAR_REACH
# characters into the match (33 for _DMY: "31st of septiembre de 2024", less
# for the others), and no pattern reads more than _MATCH_REACH characters
# past its start (all its runs are bounded: about 100 for the longest date
# with a full clock time and zone). Both are kept well above those figures.
_YEAR_AT = re.compile(r"(?=(?:19|20)\d\d)")
_YEAR_REACH = 64
_MATCH_REACH = 256


def _near_years(regex: re.Pattern, text: str, years: list[int]) -> Iterator[re.Match]:
    """``regex.finditer(text)``, scanning only the stretches around the years.

    Years close together form one window; a window is searched from its
    first year's reach to its last year plus the longest a match reads, and
    only matches starting at or before its last year are kept (their reading
    never hits the window's end, so they are the whole text's matches, and
    no match can start anywhere else). Pages are mostly text without years:
    the patterns no longer try every position of it.
    """
    done = 0  # end of the last match: finditer's matches never overlap
    i, n = 0, len(years)
    while i < n:
        last = years[i]
        j = i + 1
        while j < n and years[j] - _YEAR_REACH <= last + _MATCH_REACH:
            last = years[j]
            j += 1
        for match in regex.finditer(text, max(done, years[i] - _YEAR_REACH), last + _MATCH_REACH):
            if match.start() > last:
                break
            done = match.end()
            yield match
        i = j


_PATTERNS = (("ymd", _YMD), ("mdy", _MDY), ("dmy", _DMY), ("num", _NUM), ("vi", _VI))


@dataclass(frozen=True)
class DateMatch:
    """A date found in text: ISO form, the raw text, where, and its precision."""

    iso: str
    raw: str
    start: int
    end: int
    has_time: bool
    precision: str = "day"  # "day" or "month"


def _tz(value: str | None) -> timezone | None:
    if not value:
        return None
    if value.upper() in ("Z", "GMT", "UTC"):
        return timezone.utc
    sign = -1 if value[0] == "-" else 1
    digits = value[1:].replace(":", "")
    return timezone(sign * timedelta(hours=int(digits[:2]), minutes=int(digits[2:4])))


def _build(y: int, m: int, d: int, groups: dict) -> tuple[str, bool] | None:
    """ISO string from parts, or None if the day does not exist."""
    if not MIN_YEAR <= y <= MAX_YEAR:
        return None
    hour_s, minute_s = groups.get("H"), groups.get("M")
    hour = int(hour_s) if hour_s else 0
    minute = int(minute_s) if minute_s else 0
    second = int(groups.get("S") or 0)
    ampm = (groups.get("ampm") or "").lower().replace(".", "")
    if ampm == "pm" and hour < 12:
        hour += 12
    elif ampm == "am" and hour == 12:
        hour = 0
    try:
        value = datetime(y, m, d, hour, minute, second, tzinfo=_tz(groups.get("tz")))
    except ValueError:
        return None
    if hour_s is None:
        return value.date().isoformat(), False
    return value.isoformat(), True


def _from_match(kind: str, match: re.Match) -> tuple[str, bool] | None:
    g = match.groupdict()
    if kind in ("ymd", "vi"):
        return _build(int(g["y"]), int(g["m"]), int(g["d"]), g)
    if kind in ("mdy", "dmy"):
        month = MONTHS.get(g["mon"].lower().rstrip("."))
        return _build(int(g["y"]), month, int(g["d"]), g) if month else None
    a, b = int(g["a"]), int(g["b"])
    month, day = (b, a) if a > 12 or g["sep"] == "." else (a, b)
    return _build(int(g["y"]), month, day, g)


# The last text's year positions and full dates: the metadata step asks for
# a page's full dates, then, when none is usable, for its dates with months,
# and the second pass over a long page need not run the patterns again. One
# entry, replaced as a whole (a tuple), and found by identity: it is the
# same string object, never an equal one of another page.
_LAST_FULL: tuple[str, list[int], tuple[DateMatch, ...]] = ("", [], ())


def _full_dates(text: str) -> tuple[list[int], tuple[DateMatch, ...]]:
    """Where the years stand in ``text`` and its full-date matches, in pattern order."""
    global _LAST_FULL
    last = _LAST_FULL
    if last[0] is text:
        return last[1], last[2]
    years = [m.start() for m in _YEAR_AT.finditer(text)]
    found: list[DateMatch] = []
    for kind, regex in _PATTERNS if years else ():
        if kind == "vi" and not _VI_WORD.search(text):
            continue  # every Vietnamese date holds the word, found by one fast scan
        for match in _near_years(regex, text, years):
            built = _from_match(kind, match)
            if built:
                raw = match.group(0).strip()
                found.append(DateMatch(built[0], raw, match.start(), match.end(), built[1]))
    full = tuple(found)
    _LAST_FULL = (text, years, full)
    return years, full


def find_dates(text: str, months: bool = False) -> list[DateMatch]:
    """Every full date in ``text`` in order of position (overlaps resolved leftmost-longest).

    ``months`` also reports year-month dates ("2024年3月") that carry no day.
    """
    years, full = _full_dates(text)
    if not years:
        return []  # every pattern matches a year
    found = list(full)
    if months:
        for match in _near_years(_YM, text, years):
            y, m = int(match.group("y")), int(match.group("m1") or match.group("m2"))
            if MIN_YEAR <= y <= MAX_YEAR:
                found.append(
                    DateMatch(f"{y:04d}-{m:02d}", match.group(0), match.start(), match.end(),
                              False, "month")
                )
    found.sort(key=lambda d: (d.start, -(d.end - d.start)))
    kept: list[DateMatch] = []
    for item in found:
        if kept and item.start < kept[-1].end:
            continue
        kept.append(item)
    return kept


def other_reading(raw: str) -> str | None:
    """The ISO date of the other order of a numeric date both orders can read, else None.

    "02-12-2025" is February 12 in US order and December 2 elsewhere;
    :func:`find_dates` picks one order by rule (US unless dotted). Where the
    page states the other day too (a ``<time datetime>``, its JSON-LD), the
    caller can tell which one the page meant.
    """
    match = _NUM.fullmatch(raw.strip())
    if not match:
        return None
    a, b = int(match.group("a")), int(match.group("b"))
    if a == b or a > 12 or b > 12:
        return None
    month, day = (a, b) if match.group("sep") == "." else (b, a)
    built = _build(int(match.group("y")), month, day, match.groupdict())
    return built[0] if built else None


# A whole value in ISO 8601 (JSON-LD, meta tags, <time datetime>): most values
# parse_date sees. Read by one anchored match and _build, with the same result
# as the text patterns' (_YMD with _TIME), about ten times faster.
_ISO = re.compile(
    r"(?P<y>(?:19|20)\d\d)-(?P<m>\d\d)-(?P<d>\d\d)(?:[T ](?P<H>[01]\d|2[0-3]):(?P<M>[0-5]\d)"
    r"(?::(?P<S>[0-5]\d)(?:\.\d{1,9})?)?(?P<tz>Z|[+-](?:0\d|1[0-4]):?[0-5]\d)?)?"
)


def parse_date(text: str | None) -> tuple[str, str] | None:
    """``(iso, raw)`` for the date written in a short value, or None.

    Accepts ISO 8601 with or without time and offset, RFC 2822 (feeds, HTTP
    headers), Unix timestamps, and every text format of :func:`find_dates`.
    """
    if not text:
        return None
    # A plain str: lxml's text results hold their element, and the cache must not hold pages.
    return _parse_stripped(str(text.strip()[:MAX_VALUE]))


@lru_cache(maxsize=512)
def _parse_stripped(raw: str) -> tuple[str, str] | None:
    """parse_date of a stripped value, cached: a page states its date in several
    places (JSON-LD, meta, <time>) and the rule and the date candidates read them all."""
    if not raw:
        return None
    iso = _ISO.fullmatch(raw)
    if iso:
        groups = iso.groupdict()
        built = _build(int(groups["y"]), int(groups["m"]), int(groups["d"]), groups)
        if built:
            return built[0], raw
    epoch = _EPOCH.match(raw)
    if epoch:
        try:
            value = datetime.fromtimestamp(int(epoch.group(1)), tz=timezone.utc)
        except (OverflowError, OSError, ValueError):
            return None
        return (value.isoformat(), raw) if MIN_YEAR <= value.year <= MAX_YEAR else None
    dates = find_dates(raw)
    if dates:
        return dates[0].iso, raw
    if re.match(r"^[A-Za-z]{3},?\s", raw):
        try:
            value = parsedate_to_datetime(raw)
        except (TypeError, ValueError, IndexError):
            value = None
        if value is not None and MIN_YEAR <= value.year <= MAX_YEAR:
            return value.isoformat(), raw
    months = find_dates(raw, months=True)
    if months:
        return months[0].iso, raw
    return None


_URL_DATE = re.compile(
    r"/(?P<y>(?:19|20)\d\d)[/-]?(?P<m>0[1-9]|1[0-2])[/-]?(?P<d>0[1-9]|[12]\d|3[01])(?=[/_.-]|\d{0,6}/|$)"
)


def date_from_url(url: str | None) -> tuple[str, str] | None:
    """A day written in the URL path (/2024/03/08/, /20240308/), the last resort."""
    if not url:
        return None
    match = _URL_DATE.search(url[:2000])
    if not match:
        return None
    built = _build(int(match.group("y")), int(match.group("m")), int(match.group("d")), {})
    return (built[0], match.group(0).strip("/")) if built else None
