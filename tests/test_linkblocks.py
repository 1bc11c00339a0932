"""Logical link blocks (seed 004): distance rules, block finding, malformed HTML."""

from __future__ import annotations

import pytest

from scrapy_contentex.core.linkblocks import (
    BUCKET_SEP,
    code_distance,
    find_link_blocks,
    group_blocks,
    markup_text_distance,
    scan_links,
    text_distance,
)

# --- text distance: the seed's counting rules ---------------------------------


@pytest.mark.parametrize(
    ("text", "units"),
    [
        ("Bei Jing 2008", 3),  # the seed's own example
        ("hello world", 2),
        ("don't panic", 2),  # an apostrophe does not split a word
        ("北京欢迎你", 5),  # one unit per Chinese character
        ("中文 and English", 4),
        ("1,000.50", 1),  # a whole number is one unit
        ("3.14 and 42", 3),
        ("March 8th, 2014", 1),  # the seed's date example
        ("8 March 2014", 1),
        ("Dec. 25, 2019", 1),
        ("2014-03-08", 1),
        ("2014/3/8", 1),
        ("2014-03-08 10:20", 1),
        ("2014年3月8日", 1),
        ("3月8日", 1),
        ("发布于2014年3月8日", 4),
        ("...", 1),  # a run of identical punctuation counts once
        ("!!!???", 2),
        ("。。。", 1),
        ("，。", 2),
        ("| | |", 3),
        ("", 0),
        ("   \n\t ", 0),
    ],
)
def test_text_distance_rules(text, units):
    assert text_distance(text) == units


def test_markup_text_distance_ignores_tags_and_decodes_entities():
    assert markup_text_distance("</li>\n   <li class='x'>") == 0
    assert markup_text_distance("<b>Bei</b> <i>Jing</i> 2008") == 3
    assert markup_text_distance("Tom &amp; Jerry&nbsp;") == 3
    # a "<" that does not open a tag is text
    assert markup_text_distance("a < b") == 3


def test_code_distance_strips_attributes_and_collapses_blanks():
    assert code_distance('<A id=m href="x">ABC</A>') == len("<A>ABC</A>")
    assert code_distance("</li>\n      <li class='nav-item active'>") == len("</li> <li>")
    assert code_distance("") == 0


# --- block finding ------------------------------------------------------------


def _links(n: int, sep: str) -> str:
    return sep.join(f'<a href="/p{i}">item {i}</a>' for i in range(n))


def test_min_links_boundary():
    html = "<p>" + _links(3, " | ") + "</p>"
    assert len(find_link_blocks(html, min_links=3, max_distance=5).blocks) == 1
    assert find_link_blocks(html, min_links=4, max_distance=5).blocks == []


def test_max_distance_boundary_is_strict():
    # three words between links: distance 3; a block needs every gap < d_t
    html = _links(2, " one two three ") + " one two three " + _links(1, "")
    scan = scan_links(html, "text")
    assert scan.gaps == [3, 3]
    assert group_blocks(scan, 2, 4)[0].links == 3
    assert group_blocks(scan, 2, 3) == []


def test_long_text_splits_blocks_and_regions():
    words = " ".join(["word"] * 80)
    html = f"<div>{_links(5, ' ')}</div><p>{words}</p><div>{_links(4, ' ')}</div>"
    scan = find_link_blocks(html, min_links=3, max_distance=20)
    assert [b.links for b in scan.blocks] == [5, 4]
    assert scan.lcr == 1.0
    assert 0 < scan.ccr < 1
    regions = scan.text_regions()
    # the region between the blocks holds the paragraph
    middle = [html[s:e] for s, e in regions if words in html[s:e]]
    assert len(middle) == 1
    assert max(scan.region_units()) == 80
    assert len(scan.regions()) == 3
    body = scan.largest_region()
    assert body.units == 80
    assert words in html[body.start : body.end]
    assert body.start == scan.blocks[0].end and body.end == scan.blocks[1].start
    for block in scan.blocks:
        assert html[block.start : block.start + 2] == "<a"
        assert html[block.end - 4 : block.end] == "</a>"


def test_chinese_nav_and_body():
    nav = "".join(f'<li><a href="/c{i}">栏目{i}</a></li>' for i in range(6))
    body = "<p>" + "这是一篇关于城市发展的新闻报道，内容很长。" * 6 + "</p>"
    html = f"<ul>{nav}</ul>{body}<ul>{nav}</ul>"
    scan = find_link_blocks(html, min_links=3, max_distance=20)
    assert len(scan.blocks) == 2
    assert scan.link_count == 12
    assert max(scan.region_units()) > 100


def test_code_distance_gives_more_blocks_than_text_distance():
    # markup-heavy separators: close in text, far in code
    sep = '</span></div></li><li class="item"><div class="card"><span class="t">'
    html = _links(6, sep)
    text = find_link_blocks(html, 3, 5, "text")
    code = find_link_blocks(html, 3, 20, "code")
    assert len(text.blocks) == 1
    assert code.blocks == []
    assert code.lcr < text.lcr


# --- malformed and edge cases -------------------------------------------------


def test_links_in_script_style_comments_are_ignored():
    html = (
        "<script>document.write('<a href=\"x\">no</a><a href=y>no</a>')</script>"
        "<style>a[href] { color: red }</style>"
        "<!-- <a href='z'>no</a> -->"
        '<noscript><a href="n">no</a></noscript>'
        '<a href="/yes">yes</a>'
    )
    scan = scan_links(html)
    assert scan.link_count == 1
    assert html[slice(*scan.links[0])] == '<a href="/yes">yes</a>'


def test_unclosed_comment_or_script_runs_to_the_end():
    assert scan_links('<a href="/1">x</a><!-- <a href="/2">y</a>').link_count == 1
    assert scan_links('<a href="/1">x</a><script> <a href="/2">y</a>').link_count == 1


def test_unclosed_links_are_closed_by_next_link_or_list_item():
    html = '<ul><li><a href="/1">one<li><a href="/2">two</li><li><a href="/3">three</ul>end'
    scan = scan_links(html)
    assert scan.link_count == 3
    assert scan.link_units == 3  # "end" is not inside the last link
    assert scan.text_units == 4


def test_unclosed_link_at_end_of_page():
    scan = scan_links('<p>text <a href="/x">dangling link text')
    assert scan.link_count == 1
    assert scan.links[0][1] == len('<p>text <a href="/x">dangling link text')


def test_anchor_without_href_is_not_a_link():
    scan = scan_links('<a name="top"></a><a href="/1">one</a><a id="x">anchor</a>')
    assert scan.link_count == 1


def test_tag_without_closing_bracket():
    scan = scan_links('<a href="/1">one</a> text <a href="/2" never closed')
    assert scan.link_count == 1


def test_uppercase_tags():
    scan = scan_links('<A HREF="/1">One</A><A HREF="/2">Two</A><SCRIPT><a href=3></SCRIPT>')
    assert scan.link_count == 2
    assert scan.gaps == [0]


def test_page_without_links():
    scan = find_link_blocks("<html><body><p>Just some text here.</p></body></html>")
    assert scan.link_count == 0
    assert scan.blocks == []
    assert scan.lcr == 0.0 and scan.ccr == 0.0
    assert scan.region_units() == [5]
    assert scan.text_regions() == [(0, scan.length)]


def test_page_with_only_links():
    html = _links(10, "")
    scan = find_link_blocks(html, 3, 5)
    assert len(scan.blocks) == 1
    assert scan.lcr == 1.0
    assert scan.ccr == 1.0
    assert scan.region_units() == [0, 0]


def test_empty_input_and_bad_distance():
    assert scan_links("").link_count == 0
    with pytest.raises(ValueError):
        scan_links("<a href=1>x</a>", "pixels")


def test_huge_and_deep_page_completes():
    # 50,000-deep nesting and a few MB of links and text: one linear pass
    deep = "<div>" * 50_000 + _links(20, " ") + "</div>" * 50_000
    body = ("<p>" + "lorem ipsum dolor sit amet " * 40 + "</p>" + _links(30, " | ")) * 400
    scan = find_link_blocks(deep + body, 3, 20)
    assert scan.link_count == 20 + 30 * 400
    assert len(scan.blocks) == 401


def test_adversarial_markup_stays_linear():
    # stray "<x" without ">" and unterminated tags must not rescan the page each time
    html = "<p>" + "<b " * 100_000 + '<a href="/1">x</a> ' + "a < b " * 50_000
    scan = find_link_blocks(html, 2, 20)
    assert scan.link_count == 1
    assert code_distance("<i " * 100_000) > 0
    scan = scan_links("<a " * 100_000)
    assert scan.link_count == 0


# --- batch counting: same figures as counting piece by piece ------------------


@pytest.mark.parametrize(
    ("text", "units"),
    [
        ("MARCH 8TH, 2014", 1),  # month names and day suffixes in any case
        ("ſep 8, 2014", 1),  # long s: what case-insensitive "sep" accepts
        ("2014-03-08t10:20", 1),
        ("ⒶⓐⒶ", 1),  # a punctuation run as case-folded
        ("・・", 2),  # a CJK-range symbol is a CJK unit, not a punctuation run
        ("中文。中文", 5),
        ("x2014-03-08", 5),  # no date inside a word: "x2014", "-", "03", "-", "08"
        ("abc123 def", 2),
        ("a\x1eb\x1fc", 3),  # separator characters are blanks like any other
        ("2014\x1f年3月8日", 1),
    ],
)
def test_text_distance_edge_cases(text, units):
    assert text_distance(text) == units


@pytest.mark.parametrize(
    ("html", "link_text", "gap_text", "lead", "total"),
    [
        # a comment cuts a date in two: counted as two pieces, never one date
        ('March <!-- c -->8, 2014 <a href="/1">x</a>', [1], [0], 4, 5),
        # the same date in one piece is one unit
        ('March 8, 2014 <a href="/1">x</a>', [1], [0], 1, 2),
        # a tag inside a piece is a blank: the date still holds
        ('<b>March</b> 8, 2014 <a href="/1">x</a>', [1], [0], 1, 2),
        # a link boundary cuts a date too
        ('<a href="/1">March</a> 8, 2014', [1], [3], 0, 4),
        # an entity cut by a comment decodes as at the end of the text
        ('Tom &amp<!-- -->x; <a href="/1">y</a>', [1], [0], 4, 5),
        ('caf&eacute; <a href="/1">&nbsp;</a> 北京', [0], [2], 1, 3),
        # a blank decoded from an entity is not a collapsed blank: no date here
        ('2014-03-08&nbsp;10:20 <a href="/1">x</a>', [1], [0], 2, 3),
        ('2014-03-08 \n 10:20 <a href="/1">x</a>', [1], [0], 1, 2),
        # separator characters in the page itself change nothing
        ('2014\x1f年3月8日 <a href="/1">a\x1eb</a>', [2], [0], 1, 3),
        # "<x" cut by a comment is not joined to a ">" further on
        ('a <b<!-- -->c> d <a href="/1">e</a>', [1], [0], 6, 7),
    ],
)
def test_batch_counts_match_the_piece_rules(html, link_text, gap_text, lead, total):
    scan = scan_links(html)
    assert scan.link_text == link_text
    assert scan.gap_text == gap_text
    assert scan.lead_text == lead
    assert scan.text_units == total
    assert scan.gaps == gap_text[:-1] and scan.tail == gap_text[-1] and scan.lead == lead


def test_dense_text_page_counts_every_unit():
    # one big text region (no links), English and Chinese: counted exactly
    unit_en = "The quick brown fox, on March 8th, 2014, jumped over 1,000.50 lazy dogs... "
    unit_zh = "我们在2014年3月8日发布了新版本，包括许多改进。"
    html = "<p>" + (unit_en + unit_zh) * 2_000 + "</p>"
    scan = scan_links(html)
    assert scan.text_units == text_distance(unit_en + unit_zh) * 2_000
    assert scan.text_units == (14 + 18) * 2_000



# --- the array counter against the unit regex ---------------------------------

_ATOMS = (
    "a", "Zed", "é", "ß", "İ", "K", "ſ", "Ⅷ", "²", "0", "1", "9", "٣", "12", "2014", "08",
    "March", "mar", "Sept", "may", "Dec.", "st", "th", "T", "年", "月", "日", "号", "中",
    "カ", "한", "'", "’", "''", ",", ".", ":", "-", "/", "_", "...", "!", "Ⓐ", "ⓐ", "ǅ",
    "ǆ", " ", " ", "  ", "\n", "\t", "\xa0", "\u3000", "\x1e", "\x1f", "$", "€", "😀", "𠀀",
)


def test_array_counts_equal_the_unit_regex_on_random_text():
    # Seeded random text over the characters each rule looks at: digits and
    # dates (regex path), apostrophes, case-folded punctuation runs,
    # separators and characters beyond the BMP (the whole-regex fallback).
    import random

    from scrapy_contentex.core.linkblocks import _bucket_units, _regex_bucket_units

    rng = random.Random(12)
    checked = 0
    for _ in range(4000):
        text = "".join(rng.choice(_ATOMS) for _ in range(rng.randint(1, 30)))
        counted = _bucket_units(text)
        if counted is not None:
            checked += 1
            assert counted[0] == _regex_bucket_units(text), repr(text)
    assert checked > 2000


@pytest.mark.parametrize(
    ("text", "units"),
    [
        ("ⒶⓐⒶ x", 2),  # one punctuation run, as case-folded
        ("don''t", 3),  # two apostrophes join nothing
        ("rock'n'roll", 1),
        ("'tis", 2),
        ("a\x1fb", None),  # per bucket: [1, 1]
        ("on 2014-03-08 10:20 and", 3),
        ("8th March 2014 x", 2),
        ("😀 word", 2),  # beyond the BMP: the regex path
    ],
)
def test_array_counter_cases(text, units):
    from scrapy_contentex.core.linkblocks import count_buckets

    counts = count_buckets(text)
    if units is None:
        assert counts == [1, 1]
    else:
        assert counts == [units] and units == text_distance(text)


@pytest.mark.parametrize(
    ("markup", "units", "text"),
    [
        # runs of blanks after a digit or sign become one space (prices, times)
        ("$ \n 5", [2], "$ 5"),
        ("2014-03-08\n  10:20", [1], "2014-03-08 10:20"),
        # an entity that decodes to a sign: its ";" collapses the run too
        ("&#36;   5", [2], "$ 5"),
        # an entity without ";" has the whole text collapsed, as before
        ("&pound   5", [2], "£ 5"),
        # a blank decoded from an entity stays: no time after the date
        ("2014-03-08&nbsp;10:20", [2], "2014-03-08\xa010:20"),
    ],
)
def test_blank_runs_around_numbers(markup, units, text):
    from scrapy_contentex.core.linkblocks import count_buckets_and_text

    counted, visible, _ = count_buckets_and_text(markup)
    assert counted == units and visible == text

# --- what the scan keeps for the page-type features ---------------------------


def test_scan_keeps_link_targets_ld_json_textareas_and_markup():
    html = (
        "<html><head><script type='application/ld+json'>{\"@type\": \"Product\"}</script>"
        "<script>var a = '<a href=/js>';</script></head><body>"
        "<ul><li><a class=x href=\"/one?p=1#top\">One</a></li>"
        "<li><A HREF='/two'>Two</a></li><li><a name=anchor>not a link</a></li>"
        "<li><a href=/three>Three</li></ul>"
        "<!-- <a href=/comment>c</a> --><p>Text <b>bold</b></p>"
        "<textarea><a href=/form>x</a></textarea><textarea></textarea></body></html>"
    )
    scan = scan_links(html)
    # one target per link, as written (quotes either way or none); an <a> without
    # href, a link in a script, a comment or a textarea is not a link
    assert scan.hrefs == ["/one?p=1#top", "/two", "/three"]
    assert len(scan.hrefs) == scan.link_count
    assert scan.json_ld == ['{"@type": "Product"}']
    assert scan.textareas == 2
    # the markup keeps tags outside links' start tags and skipped elements
    assert "<p>Text <b>bold</b></p>" in scan.markup
    assert "var a" not in scan.markup and "comment" not in scan.markup
    assert "href" not in scan.markup  # links' start tags are left out
    assert scan.markup.count(BUCKET_SEP) == 2 * scan.link_count


def test_link_target_values():
    assert scan_links('<a href="">x</a>').hrefs == [""]
    assert scan_links("<a href=>x</a>").hrefs == [""]
    assert scan_links('<a title="t" href = "/a b">x</a>').hrefs == ["/a b"]


def test_digit_regions_hold_every_date():
    # the page-type features count dates in the scan's digit regions only
    import random

    from scrapy_contentex.core.linkblocks import count_buckets_and_text
    from scrapy_contentex.core.pagetype import date_count

    rng = random.Random(5)
    atoms = ("2014-03-08", "1999/1/2", "2020年3月", "20", "14", "-", "/", "年", "月", " ", "x", "\x1f", "a1")
    found = 0
    for _ in range(2000):
        text = "".join(rng.choice(atoms) for _ in range(rng.randint(1, 12)))
        _, visible, digits = count_buckets_and_text(text)
        assert date_count(digits) == date_count(visible), repr(text)
        found += date_count(visible) > 0
    assert found > 100
