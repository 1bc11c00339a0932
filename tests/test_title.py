"""Headline extraction (seed 002): meta title vs headings, site names, fallbacks."""

from scrapy_contentex.core.document import Document
from scrapy_contentex.core.title import (
    MAX_CMP,
    extract_title,
    levenshtein,
    segments,
    similarity,
    site_predicate,
    strip_site_name,
)


def page(head: str, body: str) -> Document:
    return Document(f"<html><head>{head}</head><body>{body}</body></html>")


def test_levenshtein_and_similarity():
    assert levenshtein("kitten", "sitting") == 3
    assert levenshtein("", "abc") == 3
    assert levenshtein("标题", "标题") == 0
    assert similarity("Hello World", "hello  world") == 1.0
    assert similarity("abc", "") == 0.0
    assert 0.0 < similarity("Nadal keeps Spain alive", "Nadal keeps Spain alive - Site") < 1.0


def test_levenshtein_is_bounded_on_huge_strings():
    # Inputs are cut to MAX_CMP characters, so a 1 MB <title> costs MAX_CMP**2 steps.
    assert levenshtein("a" * 1_000_000, "b" * 1_000_000) == MAX_CMP
    assert levenshtein("a" * 1_000_000, "a" * MAX_CMP) == 0


def test_heading_closest_to_meta_title_wins_over_logo_and_sidebar():
    doc = page(
        "<title>Storm hits the coast overnight - Daily Planet</title>",
        "<h1>Daily Planet</h1><h2>Storm hits the coast overnight</h2>"
        "<h3>Most read</h3><h2>Weather</h2>",
    )
    assert extract_title(doc) == "Storm hits the coast overnight"


def test_chinese_title_with_site_suffix():
    doc = page(
        "<title>江苏多地要求师生员工暂不返校_新浪新闻</title>",
        "<div class='logo'><h1>新浪新闻</h1></div><h1>江苏多地要求师生员工暂不返校</h1><p>正文。</p>",
    )
    assert extract_title(doc) == "江苏多地要求师生员工暂不返校"


def test_site_name_stripped_from_title_when_no_heading_matches():
    doc = page("<title>新浪首页 - 城市有轨电车之困：一边争相上马，一边接连叫停</title>", "<p>正文</p>")
    assert extract_title(doc) == "城市有轨电车之困：一边争相上马，一边接连叫停"
    doc = page("<title>Why the sea is rising faster | The Example Times</title>", "<h1>Menu</h1>")
    assert extract_title(doc) == "Why the sea is rising faster"


def test_json_ld_headline_and_og_title_are_used():
    doc = page(
        '<script type="application/ld+json">{"@context": "https://schema.org", "@graph": ['
        '{"@type": "WebSite", "name": "Example"},'
        '{"@type": "NewsArticle", "headline": "Council approves new bridge"}]}</script>'
        "<title>Example</title>",
        "<h2>Related</h2>",
    )
    assert extract_title(doc) == "Council approves new bridge"
    doc = page('<meta property="og:title" content="Lakers hold off OKC">', "<p>x</p>")
    assert extract_title(doc) == "Lakers hold off OKC"


def test_id_class_title_fallback_and_nothing():
    doc = Document("<html><body><div class='title-main'>湘菜粤菜 兵分两路</div><p>正文</p></body></html>")
    assert extract_title(doc) == "湘菜粤菜 兵分两路"
    assert extract_title(Document("<html><body><p>just text</p></body></html>")) is None


def test_strip_site_name_keeps_hyphenated_words_and_korean():
    assert strip_site_name("Audi e-tron Sportback revealed - SlashGear") == "Audi e-tron Sportback revealed"
    assert strip_site_name("엘제이-류화영 진흙탕 싸움, 이유 - Entermedia") == "엘제이-류화영 진흙탕 싸움, 이유"
    assert strip_site_name("No separators here") == "No separators here"
    assert strip_site_name("标题很长的一篇新闻报道-大河网", ["标题很长的一篇新闻报道"]) == "标题很长的一篇新闻报道"


def test_site_name_heading_is_skipped_using_host_and_og_site_name():
    html = (
        "<html><head><title>kernel compile error changelog - Debian User Forums</title></head>"
        "<body><h1>Debian User Forums</h1><h2>Board index</h2><h3>kernel compile error changelog</h3>"
        "</body></html>"
    )
    assert extract_title(Document(html, url="https://forums.debian.net/viewtopic.php?t=1")) == (
        "kernel compile error changelog"
    )
    html = (
        '<html><head><meta property="og:site_name" content="Daily Planet">'
        "<title>Daily Planet | Quiet week ahead</title></head>"
        "<body><h1>Daily Planet</h1><p>Text</p></body></html>"
    )
    assert extract_title(Document(html)) == "Quiet week ahead"


def test_short_first_segment_matching_h1_beats_a_longer_sidebar_heading():
    doc = page(
        "<title>夜雨_原文、翻译及赏析_白居易诗词_读古诗词网</title>",
        "<h1>夜雨</h1><h3>译文及注释</h3><h3>白居易</h3><h2>白居易其他诗词更多</h2>",
    )
    assert extract_title(doc) == "夜雨"


def test_badge_before_the_heading_is_dropped_but_dashed_headlines_are_kept():
    doc = page(
        "<title>Social login options like Facebook - Kunena</title>",
        "<h1>Kunena</h1><h2><span class='badge'>Question</span>\n Social login options like Facebook</h2>",
    )
    assert extract_title(doc) == "Social login options like Facebook"
    doc = page(
        "<title>Last hominin standing – charting our rise | Aeon Videos</title>",
        "<h1>Last hominin standing – charting our rise</h1>",
    )
    assert extract_title(doc) == "Last hominin standing – charting our rise"


def test_short_last_title_segment_is_the_site_even_when_a_logo_heading_repeats_it():
    doc = page(
        "<title>A few quick pre-sale questions – DW Q&amp;A Pro</title>",
        "<h1>DW Q&amp;A Pro</h1><p>Hi there! A few quick questions.</p>",
    )
    assert extract_title(doc) == "A few quick pre-sale questions"


def test_the_h1_a_reader_sees_wins_when_it_rewords_the_title():
    doc = page(
        "<title>Health And Nutrition Trends For 2026 - Tastes</title>",
        "<h1>Top 10 Health and Nutrition Trends to Watch</h1>"
        "<h2>Protein keeps its lead</h2><p>Text.</p>",
    )
    assert extract_title(doc) == "Top 10 Health and Nutrition Trends to Watch"


def test_an_h1_unlike_the_title_is_a_tagline_and_the_title_headline_wins():
    doc = page(
        "<title>Best free certificate courses | Learnly</title>",
        "<h1>Empower yourself for free</h1><h2>What is an online certificate?</h2><p>Text.</p>",
    )
    assert extract_title(doc) == "Best free certificate courses"


def test_og_title_confirms_the_h1():
    doc = page(
        '<title>Cheap flights 2026 | Fly</title><meta property="og:title" content="How to book a flight">',
        "<h1>How to book a flight</h1><p>Text.</p>",
    )
    assert extract_title(doc) == "How to book a flight"


def test_entities_escaped_twice_and_invisible_characters():
    doc = page("<title>Finance &amp;amp; Accounting Jobs | Hire</title>", "<p>Text.</p>")
    assert extract_title(doc) == "Finance & Accounting Jobs"
    doc = page("<title>Home Repair Assistance Program</title>", "<h1>Home Repair Assis\u00adtance Pro\ufeffgram</h1>")
    assert extract_title(doc) == "Home Repair Assistance Program"


def test_an_underscore_inside_a_latin_identifier_is_not_a_separator():
    assert segments("rustc_codegen_gcc: Progress Report #39") == ["rustc_codegen_gcc: Progress Report #39"]
    assert segments("Module ngx_http_rewrite_module") == ["Module ngx_http_rewrite_module"]
    assert segments("标题_新浪网") == ["标题", "新浪网"]
    assert segments("新闻标题_Sina") == ["新闻标题", "Sina"]
    assert segments("Headline _ Site") == ["Headline", "Site"]


def test_a_line_break_inside_a_heading_is_a_space():
    doc = page("<title>Cosmetic Packaging Design | Studio</title>",
               "<h1>Cosmetic Packaging<br/><span>Design</span></h1><p>We design boxes.</p>")
    assert extract_title(doc) == "Cosmetic Packaging Design"


def test_site_predicate_answers_the_same_when_asked_again():
    # Answers are kept per text: asking twice, or in another order, changes nothing.
    is_site = site_predicate(["Example News"], "example")
    texts = ["Example News", "example news", "Storm closes the coast road", "Example", "Example News Today"]
    first = [is_site(t) for t in texts]
    assert first == [True, True, False, True, True]
    assert [is_site(t) for t in reversed(texts)] == first[::-1]
