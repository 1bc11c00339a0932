"""Date parsing: English and Chinese formats, ISO values, junk, hostile input."""

import pytest

from scrapy_contentex.core.dates import date_from_url, find_dates, parse_date


@pytest.mark.parametrize(
    ("text", "iso"),
    [
        ("March 8, 2014", "2014-03-08"),
        ("Mar. 8th 2014 at 8:30 pm", "2014-03-08T20:30:00"),
        ("Sunday, November 17th, 2019 11:05 AM EST", "2019-11-17T11:05:00"),
        ("8 March 2014", "2014-03-08"),
        ("08 Mar 2014 10:02", "2014-03-08T10:02:00"),
        ("2014-03-08 08:30", "2014-03-08T08:30:00"),
        ("2014/3/8", "2014-03-08"),
        ("2014.03.08", "2014-03-08"),
        ("03/08/2014", "2014-03-08"),
        ("25/12/2019", "2019-12-25"),
        ("2024年3月8日 08:30", "2024-03-08T08:30:00"),
        ("2024年03月08日08:30:00", "2024-03-08T08:30:00"),
        ("2024年3月8日", "2024-03-08"),
        ("2024 年 3 月 8 日 8时30分", "2024-03-08T08:30:00"),
        ("发布时间：2024-03-08", "2024-03-08"),
        ("2005-5-7 21:23:57", "2005-05-07T21:23:57"),
        ("2024-03-08T08:30:00+08:00", "2024-03-08T08:30:00+08:00"),
        ("2024-03-08T08:30:00.123Z", "2024-03-08T08:30:00+00:00"),
        ("2019-11-18T11:19:14-0500", "2019-11-18T11:19:14-05:00"),
        ("Fri, 08 Mar 2024 08:30:00 GMT", "2024-03-08T08:30:00+00:00"),
        ("1709886600", "2024-03-08T08:30:00+00:00"),
        ("1998年3月", "1998-03"),
        ("publiziert am 30. Juli 2018", "2018-07-30"),
        ("12 de março de 2020", "2020-03-12"),
        ("1er décembre 2019", "2019-12-01"),
        ("16 de mayo de 2024 12:41", "2024-05-16T12:41:00"),
        ("04-13-2023, 01:42 PM", "2023-04-13T13:42:00"),
        ("13.04.2023", "2023-04-13"),
        ("04-ago-2021 5:11:10", "2021-08-04T05:11:10"),
        ("12 dic. 2020", "2020-12-12"),
        ("3 janv. 2024", "2024-01-03"),
    ],
)
def test_parse_date_formats(text, iso):
    parsed = parse_date(text)
    assert parsed is not None, text
    assert parsed[0] == iso
    assert parsed[1] == text.strip()


@pytest.mark.parametrize(
    "text",
    [
        "", None, "3 hours ago", "昨天 10:30", "2024-13-45", "1850-01-01", "Feb 30, 2020",
        "version 1.2.3", "8 apples 2014", "Mar 12",
    ],
)
def test_parse_date_rejects_junk_and_relative_dates(text):
    assert parse_date(text) is None


def test_find_dates_reports_every_date_in_order_with_positions():
    text = "更新 2024-03-09 10:00\n发布时间：2024年3月8日 08:30 来源：新华社 March 1, 2024"
    found = find_dates(text)
    assert [d.iso for d in found] == ["2024-03-09T10:00:00", "2024-03-08T08:30:00", "2024-03-01"]
    assert text[found[1].start:found[1].end].startswith("2024年3月8日")
    assert [d.has_time for d in found] == [True, True, False]


def test_find_dates_does_not_read_dates_inside_longer_numbers():
    assert find_dates("order 1234567 20240308999 ref 12014-03-08") == []


def test_date_from_url():
    assert date_from_url("https://example.com/news/2024/03/08/story.html")[0] == "2024-03-08"
    assert date_from_url("https://example.cn/a/20240308/123.html")[0] == "2024-03-08"
    assert date_from_url("https://example.com/story/12345") is None
    assert date_from_url(None) is None


@pytest.mark.parametrize(
    "chunk",
    ["1", "2024-", "2024年3", "March ", "8 ", "1:", "2014/3/", "2014-03-08 08:", "12/12/"],
)
def test_hostile_input_costs_no_more_than_ordinary_text(chunk, best_of_three):
    """Near-dates must not backtrack: timed against dated prose of the same size, same run.

    Catastrophic backtracking costs orders of magnitude more; linear scanning
    costs about the same as any text.
    """
    size = 40_000
    prose = ("发布时间 2014年3月8日，the fox jumped on March 8, 2014 over 12 dogs. " * 1000)[:size]
    hostile = (chunk * (size // len(chunk) + 1))[:size]
    ordinary = best_of_three(lambda: find_dates(prose, months=True))
    elapsed = best_of_three(lambda: (find_dates(hostile, months=True), parse_date(hostile)))
    assert elapsed < 10 * ordinary


def test_month_names_in_genitive_and_more_languages():
    for text, iso in (("13 maja 2024", "2024-05-13"), ("13. května 2024", "2024-05-13"),
                      ("5 января 2024 г.", "2024-01-05"), ("13 травня 2024", "2024-05-13"),
                      ("13 Mayıs 2024", "2024-05-13"), ("13 października 2024", "2024-10-13"),
                      ("3 augusti 2024", "2024-08-03")):
        assert parse_date(text) == (iso, text), text


def test_korean_and_vietnamese_dates():
    assert parse_date("2024년 5월 13일")[0] == "2024-05-13"
    assert parse_date("13 tháng 5, 2024")[0] == "2024-05-13"
    assert parse_date("ngày 13 tháng 5 năm 2024 10:30")[0] == "2024-05-13T10:30:00"


def _dates_by_full_scan(text: str) -> list[tuple[str, int, int]]:
    """Reference: every pattern run over the whole text (what find_dates did before windows)."""
    from scrapy_contentex.core import dates as D

    found = []
    for kind, regex in D._PATTERNS:
        for match in regex.finditer(text):
            built = D._from_match(kind, match)
            if built:
                found.append((built[0], match.start(), match.end()))
    found.sort(key=lambda d: (d[1], d[1] - d[2]))
    kept: list[tuple[str, int, int]] = []
    for item in found:
        if not kept or item[1] >= kept[-1][2]:
            kept.append(item)
    return kept


def test_find_dates_windows_match_a_full_scan():
    # Dates dense and far apart, years that start no date, long yearless stretches:
    # searching only around the years must find exactly what a full scan finds.
    import random

    pieces = ["2024", "1999", "19", "20", "-", "/", ".", " ", "年", "月", "日", "3", "12", "31",
              "March", "mar.", "8th", "of", "de", "março", "tháng", "năm", ",", "at", "8:30",
              "pm", "+02:00", "T", "\n", "2024-03-08T10:22:33.123+0100", "x" * 300, "文字" * 100]
    rng = random.Random(7)
    for _ in range(400):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 120)))
        got = [(d.iso, d.start, d.end) for d in find_dates(text)]
        assert got == _dates_by_full_scan(text), text


def test_find_dates_far_apart_and_none():
    text = "word " * 2000 + "Posted March 8, 2014 at 8:30 pm" + " filler" * 500 + "2020年1月2日"
    assert [d.iso for d in find_dates(text)] == ["2014-03-08T20:30:00", "2020-01-02"]
    assert find_dates("no year here, only 12/03 and March 8") == []


def test_find_dates_same_answers_whatever_was_asked_before():
    # The full dates of the last text are kept for a months pass over it:
    # answers must not depend on the order of the questions or on another text.
    text = "Posted 2024-03-05 10:00. Archive: 2023年7月. Older: 2021年1月2日"
    other = "Nothing here but 1999-12-31"
    months_first = find_dates(text, months=True)
    full_first = find_dates(text)
    assert find_dates(other)[0].iso == "1999-12-31"
    assert find_dates(text) == full_first
    assert find_dates(text, months=True) == months_first
    assert [d.iso for d in full_first] == ["2024-03-05T10:00:00", "2021-01-02"]
    assert [d.iso for d in months_first] == ["2024-03-05T10:00:00", "2023-07", "2021-01-02"]


def test_a_month_glued_to_the_name_before_it_is_read():
    # Inline elements joined without a space: "By<a>Ann Lee</a><span>Mar 5, 2025</span>".
    found = find_dates("ByAnn LeeMar 5, 2025 | 6 comments")
    assert [d.iso for d in found] == ["2025-03-05"]
    assert found[0].raw == "Mar 5, 2025"
    # A month name inside a lower-case word is still not a month.
    assert find_dates("primary 5, 2025") == [] and find_dates("remarch 5, 2025") == []


def test_other_reading_of_a_numeric_date_both_orders_can_read():
    from scrapy_contentex.core.dates import other_reading

    assert other_reading("02-12-2025") == "2025-12-02"  # US order read first
    assert other_reading("09.10.2024") == "2024-09-10"  # dotted dates are read day first
    assert other_reading("02-12-2025 10:30") == "2025-12-02T10:30:00"
    assert other_reading("13/02/2025") is None  # only one order exists
    assert other_reading("05/05/2025") is None  # both orders give the same day
    assert other_reading("March 2, 2025") is None
