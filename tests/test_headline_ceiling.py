"""The headline signal experiment and ceiling study (training/headline_signals.py, headline_ceiling.py)
on hand-made pages; neither imports scikit-learn or LightGBM at module level."""

import numpy as np

from scrapy_contentex.core.document import Document
from scrapy_contentex.core.headline import (
    Candidate,
    candidates,
    features,
    slug_features,
    slug_words,
)
from training.headline_ceiling import (
    blend,
    consistency,
    cv_scores,
    linear,
    miss_kind,
    pick,
    right,
    source_side,
)
from training.headline_signals import extra_features, page_kind
from training.train_headline import Page

PAGE = """<html><head><title>Seven ways to grow basil indoors | Green Thumb Weekly</title>
<meta property="og:site_name" content="Green Thumb Weekly">
<script type="application/ld+json">{"@type": "BlogPosting", "headline": "Seven ways to grow basil"}</script></head>
<body><header><h1><a href="/">Green Thumb Weekly</a></h1></header>
<article><h2>Seven ways to grow basil indoors</h2>
<p>Basil wants six hours of light a day; a south window gives it that in summer and a lamp in winter.</p>
</article></body></html>"""


def test_slug_words_keep_words_and_drop_ids_extensions_and_accents():
    assert slug_words("https://x.example/2024/05/seven-ways-to-grow-basil-indoors.html") == [
        "seven", "ways", "to", "grow", "basil", "indoors"]
    # the last two segments' words; accents dropped
    assert slug_words("https://x.example/a/news/café_crème/") == ["news", "cafe", "creme"]
    assert slug_words("https://x.example/seven-ways-to-grow-basil/42") == ["seven", "ways", "to", "grow", "basil"]
    # an id, a number or a CJK page's path is no slug: the signal stays neutral
    assert slug_words("https://x.example/a/1234567.shtml") == []
    assert slug_words("https://x.example/p/9f8e7d6c5b4a") == []
    assert slug_words(None) == []


def test_slug_features_prefer_the_wording_the_slug_spells_and_are_zero_without_slug():
    cands = [Candidate("Green Thumb Weekly"), Candidate("Seven ways to grow basil indoors"),
             Candidate("Indoors basil")]
    rows = slug_features(slug_words("https://x.example/seven-ways-to-grow-basil-indoors"), cands)
    banner, headline, shuffled = rows
    assert headline["slug_cover"] == 1.0 and headline["slug_best"] == 1.0 and headline["slug_order"] == 1.0
    assert banner["slug_cover"] == 0.0 and banner["slug_best"] == 0.0
    assert shuffled["slug_order"] == 0.0 and shuffled["slug_precision"] == 1.0
    assert all(not any(row.values()) for row in slug_features([], cands))
    assert slug_features(["two", "words"], []) == []  # a page with no candidate


def test_page_kind_and_the_own_headline_flags():
    doc = Document(PAGE, url="https://greenthumbweekly.example/seven-ways-to-grow-basil-indoors")
    assert page_kind(doc) == "ld_article"
    assert page_kind(Document("<html><head><meta property='og:type' content='article'></head></html>")) == "og_article"
    cands = candidates(doc)
    values = {c.text: v for c, v in zip(cands, extra_features(doc, cands), strict=True)}
    whole = values["Seven ways to grow basil indoors | Green Thumb Weekly"]
    assert whole["title_h1_is_site"] == 1.0 and whole["title_no_h1"] == 0.0
    assert whole["title_no_heading_part"] == 0.0  # the <h2> prints the title's first part
    assert values["Seven ways to grow basil indoors"]["ld_article_x_part"] == 1.0
    assert not any(v for k, v in values["Seven ways to grow basil indoors"].items() if k.startswith("title_"))


def _page(domain: str, h1_right: bool) -> Page:
    cands = [Candidate("Banner", {"h1_first"}), Candidate("Headline", {"title_first"}),
             Candidate("Headline | Site", {"title"})]
    rows = [{"a": 1.0, "printed": 1.0}, {"a": 0.0, "printed": 1.0}, {"a": 0.0, "printed": 0.0}]
    return Page(domain, cands, rows, [h1_right, not h1_right, False])


def test_consistency_counts_domains_and_their_minority_side():
    pages = [_page("a.example", True), _page("a.example", True), _page("b.example", True),
             _page("b.example", False), _page("b.example", False), _page("c.example", False)]
    assert source_side(pages[0]) is True and source_side(pages[3]) is False
    assert consistency(pages) == {"disagree": 6, "domains": 2, "pages": 5, "consistent": 1, "minority": 1}


def test_cross_validated_logit_learns_the_side_and_misses_are_sorted():
    pages = [_page(f"{i}.example", False) for i in range(10)]
    scores = cv_scores(pages, linear(("a",), ridge=1.0), None)
    assert all(right(p, s) for p, s in zip(pages, scores, strict=True))
    wrong = np.array([1.0, 0.0, 0.0])
    assert pick(wrong) == 0 and not right(pages[0], wrong)
    assert miss_kind(pages[0], wrong) == "both printed, one not a heading"
    assert miss_kind(Page("x", pages[0].cands, pages[0].rows, [False] * 3), wrong).startswith("no right")
    assert np.allclose(blend([wrong], [wrong])[0].sum(), 1.0)


def test_real_candidates_flow_through_the_ceiling_helpers():
    doc = Document(PAGE, url="https://greenthumbweekly.example/seven-ways-to-grow-basil-indoors")
    cands = candidates(doc)
    rows = [{**r, **e} for r, e in zip(features(doc, cands), extra_features(doc, cands), strict=True)]
    labels = [c.text == "Seven ways to grow basil indoors" for c in cands]
    pages = [Page(f"{i}.example", cands, rows, labels) for i in range(5)]
    scores = cv_scores(pages, linear(("slug_cover", "printed")), None)
    assert all(right(p, s) for p, s in zip(pages, scores, strict=True))


def test_no_training_only_library_imported():
    import training.headline_ceiling as ceiling

    source = open(ceiling.__file__, encoding="utf-8").read()
    top = source.split("\ndef ", 1)[0]
    assert "import lightgbm" not in top and "sklearn" not in top
