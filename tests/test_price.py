"""Prices and currencies: amounts, symbols, codes and page context."""

import pytest

from scrapy_contentex.core.price import (
    PageContext,
    context_from,
    currency_code,
    normalize_amount,
    parse_price,
)

ZH = PageContext(lang="zh", tld="cn")
JA = PageContext(lang="ja", tld="jp")


@pytest.mark.parametrize(
    ("text", "amount", "code", "raw"),
    [
        ("¥1,299.00", "1299", "CNY", "¥"),
        ("99元", "99", "CNY", "元"),
        ("RMB 45.50", "45.50", "CNY", "RMB"),
        ("$87.11", "87.11", "USD", "$"),
        ("US$ 12.50", "12.50", "USD", "US$"),
        ("1.234,56 €", "1234.56", "EUR", "€"),
        ("£450.00", "450", "GBP", "£"),
        ("zł 12,99", "12.99", "PLN", "zł"),
        ("R$ 1.299,90", "1299.90", "BRL", "R$"),
    ],
)
def test_parse_price_amount_and_currency(text, amount, code, raw):
    parsed = parse_price(text, ZH if "¥" in text else None)
    assert parsed.amount == amount
    assert parsed.currency == code
    assert parsed.currency_raw == raw


def test_yen_sign_follows_page_language():
    assert parse_price("¥1,280", JA).currency == "JPY"
    assert parse_price("¥1,280", ZH).currency == "CNY"
    assert currency_code("￥") == "CNY"  # full-width form is Chinese usage


def test_dollar_follows_country_of_domain():
    assert currency_code("$", context_from("https://shop.example.ca/p/1", None)) == "CAD"
    assert currency_code("$", context_from("https://shop.example.com/p/1", "en")) == "USD"
    assert currency_code("C$") == "CAD"


def test_iso_codes_pass_through_and_unknowns_are_none():
    assert currency_code("CHF") == "CHF"
    assert currency_code("GBP") == "GBP"
    assert currency_code("bananas") is None
    assert currency_code("") is None


def test_context_from_language_tag_and_url():
    ctx = context_from("https://www.example.co.jp/item", "ja-JP")
    assert ctx == PageContext(lang="ja", tld="jp", region="jp")


def test_normalize_amount_plain_decimal_strings():
    assert normalize_amount("87.110") == "87.11"
    assert normalize_amount("87.10") == "87.10"
    assert normalize_amount("450.00") == "450"
    assert normalize_amount("1E+3") == "1000"
    assert normalize_amount("abc") is None
    assert normalize_amount("-5") is None


def test_text_without_digits_keeps_hint_currency_only():
    parsed = parse_price("Call for price", None, "EUR")
    assert parsed.amount is None
    assert parsed.currency == "EUR"


def test_yuan_character_follows_the_domain():
    assert currency_code("元", context_from("https://shop.example.com.tw/p", "zh-TW")) == "TWD"
    assert currency_code("元", context_from("https://shop.example.hk/p", None)) == "HKD"
    assert currency_code("元", context_from("https://shop.example.cn/p", None)) == "CNY"


def test_letter_codes_only_as_whole_words():
    assert parse_price("Leipzig 12").currency is None
    assert parse_price("12 Lei").currency == "RON"
    assert parse_price("₹2,433").currency == "INR"


def test_a_sign_shared_by_several_currencies_fits_each_of_them():
    from scrapy_contentex.core.price import sign_fits

    assert sign_fits("$", "CLP") and sign_fits("$", "USD") and sign_fits("$", "TWD")
    assert not sign_fits("$", "EUR")
    assert sign_fits("¥", "JPY") and sign_fits("元", "TWD") and sign_fits("kr", "NOK")
    assert sign_fits("€", "EUR") and not sign_fits("€", "GBP")
    assert not sign_fits(None, "USD") and not sign_fits("$", None)


def test_language_region_resolves_signs_on_com_sites():
    assert context_from("https://shop.example.com/p", "es-MX") == PageContext(lang="es", tld="com", region="mx")
    assert parse_price("$1,299.00", context_from("https://shop.example.com", "es-MX")).currency == "MXN"
    assert parse_price("$1,290", context_from("https://shop.example.com", "zh-TW")).currency == "TWD"
    assert parse_price("99元", context_from("https://shop.example.com", "zh_HK")).currency == "HKD"
    assert parse_price("$12.99", context_from("https://shop.example.com", "en")).currency == "USD"


def test_a_written_code_beats_an_ambiguous_sign():
    parsed = parse_price("$1,299.00 MXN", context_from("https://shop.example.com", "en"))
    assert (parsed.amount, parsed.currency, parsed.currency_raw) == ("1299", "MXN", "MXN")


def test_iso_codes_without_a_sign_and_words_that_only_look_like_codes():
    assert parse_price("129 EGP").currency == "EGP"
    assert parse_price("KES 1,500").currency == "KES"
    assert parse_price("ALL 29.99").currency is None  # a sale banner, not Albanian lek


def test_arabic_abbreviations_and_the_rand():
    assert parse_price("129 ر.س").currency == "SAR"
    assert parse_price("45 د.إ").currency == "AED"
    assert parse_price("R 1,299.00", context_from("https://shop.example.co.za", "en")).currency == "ZAR"
    assert parse_price("R 1,299.00", context_from("https://shop.example.com", "en-ZA")).currency == "ZAR"
    assert parse_price("R 1,299.00", context_from("https://shop.example.com", "en")).currency is None


@pytest.mark.parametrize(
    ("before", "text", "after", "expected"),
    [
        ("", "12x de R$ 24,90", "sem juros", True),
        ("12x de", "R$ 24,90", "", True),
        ("", "$48.75/mo", "", True),
        ("or 4 payments of", "$12.50", "", True),
        ("", "$15", "per month", True),
        ("", "$24.99 x 12", "", True),
        ("", "¥199/月", "", True),
        ("Monthly:", "299 USD", "", True),
        # full prices, whatever follows or precedes them
        ("", "$299.00", "or 4 payments of $75", False),
        ("", "R$ 299,90", "ou 10x de R$ 29,99", False),
        ("Price:", "$29.99", "In stock", False),
        ("De", "R$ 99", "por R$ 79", False),
        ("", "€ 1.299,00", "inkl. MwSt.", False),
        ("", "no amount", "per month", False),
    ],
)
def test_instalment_by_the_words_touching_the_amount(before, text, after, expected):
    from scrapy_contentex.core.price import instalment

    assert instalment(before, text, after) is expected


def test_symbol_regex_matches_as_one_alternation_of_whole_symbols():
    """The grouped symbol regex finds what the plain alternation of every symbol
    (longest first, Latin codes as whole words) finds, at the same places."""
    import random
    import re

    from scrapy_contentex.core import price

    symbols = [s for s in sorted(list(price._SYMBOLS) + list(price._AMBIGUOUS), key=len, reverse=True)
               if not (len(s) == 1 and s.isascii() and s.isalpha())]
    plain = re.compile("|".join(
        (r"(?<![A-Za-z])" if price._starts_word(s) else "") + price._symbol_pattern(s) for s in symbols), re.I)
    rng = random.Random(7)
    texts = ["US$ 1,299", "1.299,00 €", "Leipzig", "lei 12", "CHF 20.-", "руб. 500", "Rs.199", "ca$5 CA$",
             "12 kr.", "S/ 30", "hkd$3", "ＵＳＤ", "Ksek"]
    pieces = symbols + [" ", "1", "x", "A", ".", "$"]
    texts += ["".join(rng.choice(pieces) for _ in range(rng.randint(1, 6))) for _ in range(3000)]
    for text in texts:
        assert ([(m.span(), m.group(0)) for m in price._SYMBOL_RE.finditer(text)]
                == [(m.span(), m.group(0)) for m in plain.finditer(text)]), text
