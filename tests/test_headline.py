"""The learned headline choice: candidates, features and the shipped model agree."""

from scrapy_contentex.core.document import Document
from scrapy_contentex.core.headline import candidates, extract_headline, features, load_model

PAGE = """<html><head><title>Seven ways to grow basil indoors | Green Thumb Weekly</title>
<meta property="og:title" content="Seven ways to grow basil indoors">
<meta property="og:site_name" content="Green Thumb Weekly"></head>
<body><header><h1>Green Thumb Weekly</h1></header>
<article><h1>Seven ways to grow basil indoors</h1><h2>Light</h2>
<p>Basil wants six hours of light a day; a south window gives it that in summer.</p></article>
</body></html>"""


def test_copies_of_one_headline_are_one_candidate_with_every_source():
    doc = Document(PAGE, url="https://greenthumbweekly.example/basil")
    by_text = {c.text: c.sources for c in candidates(doc)}
    assert {"og", "title_first", "rule"} <= by_text["Seven ways to grow basil indoors"]
    assert "h1_first" in by_text["Green Thumb Weekly"]


def test_the_site_banner_loses_to_the_headline():
    doc = Document(PAGE, url="https://greenthumbweekly.example/basil")
    assert extract_headline(doc) == "Seven ways to grow basil indoors"


def test_shipped_model_reads_exactly_the_features_the_code_computes():
    doc = Document(PAGE, url="https://greenthumbweekly.example/basil")
    rows = features(doc, candidates(doc))
    assert set(load_model().features) == set(rows[0])


def test_no_candidate_no_headline():
    assert extract_headline(Document("<html><body><p>just text here</p></body></html>")) is None


SUBTITLED = """<html><head><title>{title}</title></head>
<body><nav><a href="/">Home</a></nav><article><h1>{h1}</h1>
<p>The port handled more containers in the first four months than a year before.</p></article>
</body></html>"""


def test_a_title_segment_that_cuts_the_printed_heading_gives_the_whole_heading():
    h1 = "Trade picks up — exports grew faster than expected in April"
    doc = Document(SUBTITLED.format(title=f"{h1} - Harbour Daily", h1=h1))
    cands = candidates(doc)
    features(doc, cands)
    first = next(c for c in cands if c.text == "Trade picks up")
    assert first.shown == h1
    # the part after the editor's dash shows it whole too
    subtitle = next(c for c in cands if c.text == "exports grew faster than expected in April")
    assert subtitle.shown == h1
    assert extract_headline(doc) == h1


def test_chinese_double_dash_subtitle_is_kept():
    h1 = "积极因素不断增多 动能增强——前4个月外贸向好态势进一步巩固"
    doc = Document(SUBTITLED.format(title="积极因素不断增多 动能增强-前4个月外贸向好态势进一步巩固-某某新闻", h1=h1))
    assert extract_headline(doc) == h1


def test_a_breadcrumb_heading_is_not_a_subtitle():
    # '|' joins breadcrumbs and site names: the first part is not a cut of a subtitle.
    h1 = "Battery drains overnight | Phones | Help forum"
    doc = Document(SUBTITLED.format(title=f"{h1} | Example Community", h1=h1))
    cands = candidates(doc)
    features(doc, cands)
    assert all(c.whole is None for c in cands)



def test_slug_and_kind_features_are_read_and_neutral_without_a_slug():
    doc = Document(PAGE, url="https://greenthumbweekly.example/2024/seven-ways-to-grow-basil-indoors")
    cands = candidates(doc)
    rows = {c.text: r for c, r in zip(cands, features(doc, cands), strict=True)}
    assert rows["Seven ways to grow basil indoors"]["slug_best"] == 1.0
    assert rows["Green Thumb Weekly"]["slug_cover"] == 0.0
    # nothing declared: the source groups are crossed with "undeclared" only
    assert rows["Green Thumb Weekly"]["undeclared_x_h1"] == 1.0 and rows["Green Thumb Weekly"]["ld_article_x_h1"] == 0.0
    assert rows["Seven ways to grow basil indoors"]["undeclared_x_part"] == 1.0
    assert rows["Seven ways to grow basil indoors"]["undeclared_x_h1"] == 0.0
    for url in (None, "https://greenthumbweekly.example/p/123456.html"):
        plain = Document(PAGE, url=url)
        assert not any(r[n] for r in features(plain, candidates(plain)) for n in r if n.startswith("slug_"))
