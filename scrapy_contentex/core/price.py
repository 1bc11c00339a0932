"""Prices and currencies: amounts via price-parser, ISO codes from symbols and page context.

price-parser already handles the hard part (thousands vs decimal separators
in every locale, "12.–", "1 299,90"); measured against hand code it is both
more complete and fast, so we use it for amounts. Currency symbols are
ambiguous ("$", "¥", "kr"), so the ISO code is decided from the symbol *and*
the page context: its language (declared or from the script of its text) and
the country code of the URL's top-level domain. That is context every page
carries, not a rule about any site.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from functools import lru_cache
from urllib.parse import urlsplit

from price_parser import Price

# Unambiguous symbols and codes, longest first when matched in text.
_SYMBOLS: dict[str, str] = {
    "us$": "USD", "usd": "USD", "c$": "CAD", "ca$": "CAD", "cad": "CAD", "a$": "AUD",
    "au$": "AUD", "aud": "AUD", "nz$": "NZD", "nzd": "NZD", "hk$": "HKD", "hkd": "HKD",
    "s$": "SGD", "sgd": "SGD", "nt$": "TWD", "twd": "TWD", "r$": "BRL", "brl": "BRL",
    "mx$": "MXN", "mxn": "MXN", "€": "EUR", "eur": "EUR", "euro": "EUR", "euros": "EUR",
    "£": "GBP", "gbp": "GBP", "₹": "INR", "inr": "INR", "rs.": "INR", "rs": "INR",
    "₽": "RUB", "руб": "RUB", "руб.": "RUB", "rub": "RUB", "р.": "RUB", "zł": "PLN",
    "pln": "PLN", "₩": "KRW", "원": "KRW", "krw": "KRW", "rmb": "CNY", "cny": "CNY",
    "人民币": "CNY", "￥": "CNY", "jpy": "JPY", "円": "JPY", "chf": "CHF",
    "fr.": "CHF", "sek": "SEK", "nok": "NOK", "dkk": "DKK", "kč": "CZK", "czk": "CZK",
    "ft": "HUF", "huf": "HUF", "lei": "RON", "ron": "RON", "kn": "HRK", "hrk": "HRK",
    "лв": "BGN", "лв.": "BGN", "bgn": "BGN", "₺": "TRY", "tl": "TRY", "try": "TRY",
    "₴": "UAH", "грн": "UAH", "uah": "UAH", "₸": "KZT", "тг": "KZT", "тг.": "KZT",
    "kzt": "KZT", "₪": "ILS", "ils": "ILS", "฿": "THB", "thb": "THB", "₫": "VND",
    "vnd": "VND", "₱": "PHP", "php": "PHP", "rm": "MYR", "myr": "MYR", "rp": "IDR",
    "idr": "IDR", "zar": "ZAR", "aed": "AED", "sar": "SAR", "clp": "CLP", "ars": "ARS",
    "cop": "COP", "pen": "PEN", "s/": "PEN", "byn": "BYN", "br": "BYN", "usd$": "USD",
    # Arabic abbreviations: riyal of Saudi Arabia, Qatar and Oman, dirham, pound, dinars
    "ر.س": "SAR", "ر.ق": "QAR", "ر.ع": "OMR", "د.إ": "AED", "ج.م": "EGP", "د.ك": "KWD", "د.ب": "BHD",
}
# Ambiguous symbols: default code, refined by page context below.
_AMBIGUOUS = {"$": "USD", "¥": "CNY", "元": "CNY", "kr": "SEK", "kr.": "DKK", "r": "ZAR"}
# "元" is the unit of account wherever Chinese is written: yuan, NT dollar, HK dollar.
_YUAN_BY_TLD = {"tw": "TWD", "hk": "HKD", "mo": "MOP"}
_DOLLAR_BY_TLD = {
    "ca": "CAD", "au": "AUD", "nz": "NZD", "hk": "HKD", "sg": "SGD", "tw": "TWD", "mx": "MXN",
    "cl": "CLP", "ar": "ARS", "co": "COP", "uy": "UYU", "br": "BRL",
}
_KRONA_BY_TLD = {"se": "SEK", "no": "NOK", "dk": "DKK", "is": "ISK"}
_KRONA_BY_LANG = {"sv": "SEK", "no": "NOK", "nb": "NOK", "nn": "NOK", "da": "DKK", "is": "ISK"}
# ISO codes we accept when a page writes the code itself.
_ISO_RE = re.compile(r"^[A-Z]{3}$")
# Active ISO 4217 codes, read in price texts when no sign of the table above is
# there ("129 EGP"). Codes that are also common upper-case words (ALL, TOP, CUP,
# SOS, BOB, GEL) are left out: "ALL 29.99" is a sale banner, not Albanian lek.
_ISO_CODES = frozenset("""
AED AFN AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD BND BRL BSD BTN BWP BYN BZD
CAD CDF CHF CLP CNY COP CRC CVE CZK DJF DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GHS GIP GMD
GNF GTQ GYD HKD HNL HRK HTG HUF IDR ILS INR IQD IRR ISK JMD JOD JPY KES KGS KHR KMF KRW KWD
KYD KZT LAK LBP LKR LRD LSL LYD MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MYR MZN NAD
NGN NIO NOK NPR NZD OMR PAB PEN PGK PHP PKR PLN PYG QAR RON RSD RUB RWF SAR SBD SCR SDG SEK
SGD SHP SLE SRD SSP STN SVC SYP SZL THB TJS TMT TND TRY TTD TWD TZS UAH UGX USD UYU UZS VES
VND VUV WST XAF XCD XOF XPF YER ZAR ZMW
""".split())
_ISO_WORD_RE = re.compile(r"(?<![A-Za-z])[A-Z]{3}(?![A-Za-z])")
_RAND_RE = re.compile(r"(?<![A-Za-z])R\s?\d")

def _starts_word(symbol: str) -> bool:
    """Latin-letter codes count only as whole words ("Lei", not "Leipzig")."""
    return symbol[0].isascii() and symbol[0].isalpha()


def _symbol_pattern(symbol: str) -> str:
    """A symbol as a regex, without the check before it (see :func:`_symbols_regex`)."""
    pattern = re.escape(symbol)
    if symbol[-1].isascii() and symbol[-1].isalpha():
        pattern += r"(?![A-Za-z])"
    return pattern


def _symbols_regex(symbols: list[str]) -> re.Pattern:
    """One regex for the symbols, longest first: the first that matches at a place wins.

    Codes that open with a Latin letter and signs that do not are two
    groups: no text character can open a symbol of both, so each keeps
    the order of the whole list. Each group first checks, once per place,
    what every one of its symbols checks (no Latin letter before a code;
    a first character some symbol has), then tries its symbols: in turn at
    every place of the text, they cost about 12 µs for a short price text.
    """
    groups = ([s for s in symbols if _starts_word(s)], [s for s in symbols if not _starts_word(s)])
    words, signs = (f"(?=[{re.escape(''.join(sorted({s[0] for s in group})))}])"
                    f"(?:{'|'.join(map(_symbol_pattern, group))})" for group in groups)
    return re.compile(rf"(?<![A-Za-z]){words}|{signs}", re.I)


_SYMBOL_RE = _symbols_regex([s for s in sorted(list(_SYMBOLS) + list(_AMBIGUOUS), key=len, reverse=True)
                             if not (len(s) == 1 and s.isascii() and s.isalpha())])
_NUMBER_RE = re.compile(r"\d")
# An amount in exponent notation ("1e308", "1.5E+02", "1,2e5"): price-parser
# reads its mantissa alone (1e308 -> 1), and no shop shows prices this way
# (a JSON number that large or small is one Python prints so), so such an
# amount is no usable price. The run starts after no letter or digit ("X2e4"
# is a model code) and needs a digit after the "e" ("12e", "1 each" are prices).
_EXPONENT_RE = re.compile(r"(?<![A-Za-z0-9.,])(\d[\d.,]*)[eE][+-]?\d")
# No real price reaches this (the dearest listings, in the smallest currency
# units, stay below 10^13); past it the number is a placeholder or garbage.
MAX_AMOUNT = Decimal(10) ** 15


@dataclass(frozen=True)
class PageContext:
    """What a page says about where it is: language, URL country code, and the
    country of its language tag ("es-MX" -> "mx"), for sites on .com."""

    lang: str | None = None
    tld: str | None = None
    region: str | None = None


def context_from(url: str | None, lang: str | None) -> PageContext:
    """Build a :class:`PageContext` from a URL and a language tag ("zh-TW" -> zh, tw)."""
    tld = None
    if url:
        host = urlsplit(url).hostname or ""
        if "." in host:
            tld = host.rsplit(".", 1)[-1].lower()
    parts = lang.replace("_", "-").split("-") if lang else []
    short = parts[0].lower() if parts else None
    region = next((p.lower() for p in parts[1:] if len(p) == 2 and p.isalpha()), None)
    return PageContext(lang=short or None, tld=tld, region=region)


def _by_country(table: dict[str, str], ctx: PageContext) -> str | None:
    """The currency a country table gives for the domain's country, else the language's."""
    return table.get(ctx.tld or "") or table.get(ctx.region or "")


def currency_code(raw: str | None, context: PageContext | None = None) -> str | None:
    """ISO 4217 code of a currency as written on the page ("¥", "元", "US$", "EUR").

    "$" and "¥" and "kr" are resolved with the page context: "¥" on a
    Japanese page (language ja or .jp domain) is JPY, elsewhere CNY; "$"
    follows the country of the domain (".ca" -> CAD ...), else USD.
    """
    if not raw:
        return None
    key = raw.strip().lower()
    if not key:
        return None
    if key in _SYMBOLS:
        return _SYMBOLS[key]
    if key.upper() == raw.strip() and _ISO_RE.match(raw.strip()):
        return raw.strip()
    ctx = context or PageContext()
    if key == "$":
        return _by_country(_DOLLAR_BY_TLD, ctx) or "USD"
    if key == "元":
        return _by_country(_YUAN_BY_TLD, ctx) or "CNY"
    if key == "¥":
        return "JPY" if ctx.lang == "ja" or ctx.tld == "jp" else "CNY"
    if key in ("kr", "kr."):
        return _by_country(_KRONA_BY_TLD, ctx) or _KRONA_BY_LANG.get(ctx.lang or "", "SEK")
    if key == "r":
        # a bare "R" is the rand in South Africa only (elsewhere: a size, a grade)
        return "ZAR" if "za" in (ctx.tld, ctx.region) else None
    if key in _AMBIGUOUS:
        return _AMBIGUOUS[key]
    match = _SYMBOL_RE.search(raw)
    if match and match.group(0).lower() != key:
        return currency_code(match.group(0), ctx)
    return None


# Currencies written with a bare "$" (dollars and pesos), "¥", "元" and "kr".
_SIGN_CURRENCIES: dict[str, frozenset[str]] = {
    "$": frozenset({"USD", "AUD", "BBD", "BMD", "BND", "BSD", "BZD", "CAD", "CLP", "COP", "DOP",
                    "FJD", "GYD", "HKD", "JMD", "KYD", "LRD", "MXN", "NAD", "NZD", "SBD", "SGD",
                    "SRD", "TTD", "TWD", "UYU", "XCD", "ARS"}),
    "¥": frozenset({"CNY", "JPY"}),
    "元": frozenset({"CNY", "TWD", "HKD", "MOP"}),
    "kr": frozenset({"SEK", "NOK", "DKK", "ISK"}),
    "kr.": frozenset({"SEK", "NOK", "DKK", "ISK"}),
}


def sign_fits(raw: str | None, code: str | None) -> bool:
    """Whether a currency as written ("$", "¥", "kr", "€") can stand for ISO ``code``.

    A shop that declares CLP or TWD in its data shows "$" on the page: that
    sign is the page's currency as written, though alone it would read as USD.
    """
    if not raw or not code:
        return False
    key = raw.strip().lower()
    if key in _SIGN_CURRENCIES:
        return code in _SIGN_CURRENCIES[key]
    return currency_code(raw) == code


def normalize_amount(value: Decimal | str | float | int | None) -> str | None:
    """A plain decimal string ("87.11", "450"): no exponent, no thousands separators.

    None for what is no price: not a number, NaN, infinite, negative, or
    ``MAX_AMOUNT`` and over.
    """
    if value is None:
        return None
    try:
        amount = Decimal(str(value).strip())
    except (InvalidOperation, ValueError):
        return None
    if not amount.is_finite() or amount < 0 or amount >= MAX_AMOUNT:
        return None
    text = format(amount, "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
        # keep cents when the page showed them ("87.10" -> "87.1" is odd to read)
        if "." in text and len(text.split(".")[1]) == 1:
            text += "0"
    return text


@dataclass(frozen=True)
class ParsedPrice:
    amount: str | None
    currency: str | None
    currency_raw: str | None


def parse_price(text: str | None, context: PageContext | None = None,
                currency_hint: str | None = None) -> ParsedPrice:
    """Amount and currency from a price as shown ("¥1,299.00", "1.234,56 €", "99元").

    ``currency_hint`` is a currency already known (e.g. from structured data);
    it is used when the text shows none. A text with no usable amount (an
    exponent, NaN, an amount past ``MAX_AMOUNT``) gives amount None and
    still its currency.
    """
    if not text or not _NUMBER_RE.search(text):
        return ParsedPrice(None, currency_code(currency_hint, context), currency_hint)
    # Slicing gives a plain str, so the cache never keeps an lxml smart string
    # (and the tree behind it) alive; hints are plain strings from JSON / meta.
    return _parse_price(text[:200], context, None if currency_hint is None else str(currency_hint))


@lru_cache(maxsize=4096)
def _parse_price(text: str, context: PageContext | None, currency_hint: str | None) -> ParsedPrice:
    """parse_price's work, remembered: shops repeat the same price texts (tiles, carts, variants)."""
    parsed = Price.fromstring(text, currency_hint=currency_hint)
    # Our symbol table first (whole words for letter codes: "Leipzig" is not
    # "Lei"), an unambiguous sign before an ambiguous one ("$1,299 MXN"); then
    # an ISO code written out; price-parser's own guess only when it is not
    # made of letters; on South African pages, the rand's "R".
    signs = [m.group(0) for m in _SYMBOL_RE.finditer(text)]
    code = next((w for w in _ISO_WORD_RE.findall(text) if w in _ISO_CODES), None) if not signs else None
    if signs:
        raw = next((sign for sign in signs if sign.lower() in _SYMBOLS), signs[0])
    elif code:
        raw = code
    elif parsed.currency and not parsed.currency.isalpha() and currency_code(parsed.currency, context):
        raw = parsed.currency
    elif context is not None and "za" in (context.tld, context.region) and _RAND_RE.search(text):
        raw = "R"
    else:
        raw = currency_hint
    amount = None
    if parsed.amount is not None and not _in_exponent_notation(text, parsed.amount):
        amount = normalize_amount(parsed.amount)
    return ParsedPrice(amount, currency_code(raw, context), raw.strip() if raw else None)


def _in_exponent_notation(text: str, amount: Decimal) -> bool:
    """The amount read is the mantissa of a number written with an exponent in ``text``
    ("$1e308" reads 1); another number there ("$30 (model 3e5)") leaves it be."""
    return any(Price.fromstring(match.group(1)).amount == amount for match in _EXPONENT_RE.finditer(text))


# ---------------------------------------------------------------------------
# instalments: an amount to pay per month or per part is not the price
# ---------------------------------------------------------------------------

# Right before the amount: "12x de R$", "4 payments of $", "Monthly:", "月付".
_INSTALMENT_BEFORE_RE = re.compile(
    r"(?:\b\d{1,2}\s*[x×]\s*(?:de|of|à|a)?"
    r"|\b(?:payments?|installments?|instalments?|cuotas?|parcelas?|mensualidades|raten|rate)\s*(?:of|de|di|von|à|a)?"
    r"|\b(?:monthly|mensual(?:es|mente)?|por mes|al mes|per month|par mois|pro monat|monatlich)\s*[:：]?"
    r"|(?:月付|月供|每月|每期|分期|月々|월))\s*$"
)
# Right after it: "/mo", "per month", "x 12", "sem juros", "/月".
_INSTALMENT_AFTER_RE = re.compile(
    r"^\s*(?:/\s*(?:mo|mon|month|mth|m|mes|mês|mois|monat|mnd|maand|kk|msc)\b"
    r"|(?:per|a|an|each|every)\s+(?:month|mo)\b|p/?m\b|[x×]\s*\d{1,2}\b"
    r"|(?:al|por|ao|par|pro|im|al)\s+(?:mes|mês|mois|monat|mese)\b"
    r"|(?:mensual(?:es)?|mensais|monthly|mtl\.?|miesięcznie|sem juros|sin interés|sans frais|zinsfrei"
    r"|interest[- ]free)\b|for \d{1,2} months|(?:/月|每月|起/月|/期|×\s*\d{1,2}期|/월))"
)
_AMOUNT_RUN_RE = re.compile(r"\d(?:[\d.,'\s]*\d)?")
# A currency sign or code between the instalment words and the amount: "12x de R$ 24,90".
_SIGN_TAIL_RE = re.compile(r"(?:[A-Za-z]{0,3}\$|[€£¥￥₹₩₺₽]|\b[A-Z]{3}\b|\b(?:kr|zł|lei|Rs\.?))\s*$")
_SIGN_HEAD_RE = re.compile(r"^\s*(?:[A-Z]{3}\b|[$€£¥￥₹₩₺₽]|kr\b|zł)")


def instalment(before: str, text: str, after: str) -> bool:
    """The amount in ``text`` is an instalment, by the words right around it.

    ``before`` and ``after`` are the texts shown just before and after
    ``text`` (the neighbouring text leaves). The amount is the last number
    run of ``text``; the words that make it a part payment must touch it:
    "12x de R$ 24,90", "$48.75/mo", "4 payments of $12.50", "¥199/月". A
    full price followed by "or 4 payments of $25" is not one.
    """
    runs = list(_AMOUNT_RUN_RE.finditer(text))
    if not runs:
        return False
    run = runs[-1]
    head = _SIGN_TAIL_RE.sub("", f"{before} {text[:run.start()]}".rstrip()).rstrip().lower()
    tail = _SIGN_HEAD_RE.sub("", f"{text[run.end():]} {after}").lower()
    return bool(_INSTALMENT_BEFORE_RE.search(head[-40:]) or _INSTALMENT_AFTER_RE.match(tail[:40]))
