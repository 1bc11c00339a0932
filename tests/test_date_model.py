"""The learned date choice: candidates, features, the eligibility rule, the shipped model and its training."""

import json

from scrapy_contentex.core.date_model import (
    DateCandidate,
    Observation,
    choose,
    features,
    load_model,
    merge,
)
from scrapy_contentex.core.document import Document
from scrapy_contentex.core.metadata import extract_metadata, page_date_candidates
from scrapy_contentex.core.pagetype_model import LogisticModel

UPDATED = """<html><head><script type="application/ld+json">{{"@type": "Article",
"headline": "How to grow basil indoors", "datePublished": "2021-03-02T10:00:00Z",
"dateModified": "2025-06-10T08:00:00Z"}}</script></head>
<body><h1>How to grow basil indoors</h1><p>By Ann Lee</p>{dateline}
<p>Basil wants light, warmth and a pot that drains. Water it when the top of the soil is dry.</p></body></html>"""


def test_candidates_merge_the_copies_of_one_day_and_keep_where_each_was_read():
    rule, cands = page_date_candidates(Document(UPDATED.format(dateline="<p>Updated June 10, 2025</p>")))
    assert rule[0] == "2021-03-02T10:00:00+00:00"
    by_day = {c.key: c.sources for c in cands}
    assert by_day == {"2021-03-02": {"rule", "ld_published"}, "2025-06-10": {"ld_modified", "text_after_updated"}}


def test_the_update_date_printed_under_the_headline_is_the_date_shown():
    # The markup keeps the first publication; the reader sees "Updated June 10, 2025".
    meta = extract_metadata(Document(UPDATED.format(dateline="<p>Updated June 10, 2025</p>")))
    assert meta["datePublished"].startswith("2025-06-10")
    # Printed nowhere, the modification stays in the markup: the publication date is the answer.
    assert extract_metadata(Document(UPDATED.format(dateline="")))["datePublished"].startswith("2021-03-02")


def _model(weights: dict[str, float]) -> LogisticModel:
    names = tuple(features([DateCandidate("2000-01-01", "2000-01-01", "")])[0])
    return LogisticModel(names, (0.0,) * len(names), (1.0,) * len(names),
                         tuple(weights.get(n, 0.0) for n in names), 0.0, 0.5, {})


def test_a_date_only_the_markup_states_never_overrules_the_rule():
    cands = merge([Observation("2021-03-02", "2021-03-02", "rule"),
                   Observation("2025-06-10", "2025-06-10", "ld_modified"),
                   Observation("2024-01-01", "Jan 1, 2024", "text_after_first", 30)])
    rows = features(cands)
    assert choose(cands, rows, _model({"from_ld_modified": 5.0})).key == "2021-03-02"
    assert choose(cands, rows, _model({"from_text_after_first": 5.0})).key == "2024-01-01"
    assert choose(cands, rows, _model({})).key == "2021-03-02"  # a tie goes to the rule
    assert choose([], [], _model({})) is None


def test_features_place_each_candidate_among_the_others():
    cands = merge([Observation("2021-03-02T10:00:00", "x", "rule"), Observation("2021-03-02", "y", "ld_published"),
                   Observation("2025-06-10", "z", "text_after_updated", 20)])
    first, second = features(cands)
    assert first["sources"] == 2 and first["is_earliest"] == 1 and first["has_time"] == 1
    assert first["printed"] == 0 and first["rule_unshown_other_near"] == 1
    assert second["is_latest"] == 1 and second["later_than_rule"] == 1 and second["near"] == 1
    assert second["first_shown"] == 1 and second["shown_rule_not"] == 1 and second["modified_only"] == 1
    assert cands[0].iso == "2021-03-02T10:00:00"  # the rule's own value is kept for its day


def test_shipped_model_matches_the_features():
    model = load_model()
    assert model.features == tuple(features([DateCandidate("2000-01-01", "2000-01-01", "")])[0])
    assert model.meta["script"] == "training/train_dates.py"


def test_training_is_deterministic_and_learns_the_labels():
    from training.choice import model_json
    from training.train_dates import Page, feature_names, train

    pages = []
    for n in range(12):
        dateline = "<p>Updated June 10, 2025</p>" if n % 2 else ""
        html = UPDATED.format(dateline=dateline).replace("basil", f"basil {n}")
        _, cands = page_date_candidates(Document(html))
        # Truth: the printed date where there is one, else the publication.
        gold = "2025-06-10" if n % 2 else "2021-03-02"
        pages.append(Page(f"site{n}.example", cands, features(cands), [c.key == gold for c in cands]))
    first, second = model_json(train(pages, feature_names())), model_json(train(pages, feature_names()))
    assert first == second
    model = LogisticModel.from_json(json.loads(first))
    assert all(choose(p.cands, p.rows, model) is p.cands[p.labels.index(True)] for p in pages)
    # Cross-validated picks, on the CV's folds and on another draw: one per page, learned from the others.
    from training.train_dates import cv_picks

    for seed in (None, 3):
        picks = cv_picks(pages, feature_names(), folds=3, seed=seed)
        assert picks == cv_picks(pages, feature_names(), folds=3, seed=seed)
        assert all(pick is page.cands[page.labels.index(True)] for page, pick in zip(pages, picks, strict=True))


def test_an_ambiguous_numeric_date_takes_the_order_the_page_confirms():
    page = """<html><head><script type="application/ld+json">{"@type": "Article",
    "headline": "Notes on pixel-perfect pipelines", "datePublished": "2025-12-02"}</script></head>
    <body><h1>Notes on pixel-perfect pipelines</h1><p>02-12-2025</p>
    <p>Rendering the same frame twice should give the same bytes, and here is how.</p></body></html>"""
    _, cands = page_date_candidates(Document(page))
    assert {c.key: c.sources for c in cands} == {"2025-12-02": {"rule", "ld_published", "text_after_first"}}
    # Nothing on the page states the other day: the format's own order stays.
    alone = merge([Observation("2025-02-12", "02-12-2025", "text_after_first", 3),
                   Observation("2025-02-12", "02-12-2025", "rule")])
    assert [c.key for c in alone] == ["2025-02-12"]
    # The first reading is confirmed elsewhere too: no change.
    both = merge([Observation("2025-02-12", "02-12-2025", "text_after_first", 3),
                  Observation("2025-02-12T08:00:00", "2025-02-12T08:00:00", "meta_published"),
                  Observation("2025-12-02", "2025-12-02", "time_other")])
    assert sorted(c.key for c in both) == ["2025-02-12", "2025-12-02"]
    assert next(c for c in both if c.key == "2025-02-12").sources == {"text_after_first", "meta_published"}


def test_a_meta_date_under_the_sites_own_name_is_read_but_not_another_date():
    page = """<html><head><meta name="{name}" content="2025-03-06T00:00:00Z"></head>
    <body><h1>What is a function app?</h1><p>A function app runs code on events, and scales with them.</p></body></html>"""
    for name in ("ms.date", "citation_online_date", "cludo:date", "og:publication_time"):
        assert extract_metadata(Document(page.format(name=name)))["datePublished"] == "2025-03-06T00:00:00+00:00", name
    for name in ("expirationdate", "lastmodifieddate", "event_start_date", "ms.author"):
        assert extract_metadata(Document(page.format(name=name)))["datePublished"] is None, name


def test_a_dateline_above_the_headline_gives_its_first_date_not_the_update():
    from scrapy_contentex.core.metadata import text_date

    text = ("Home\nMental Health\nDECEMBER 22, 2022 | Updated: JANUARY 02, 2026\n"
            "Ten ways meditation can improve your health\nMeditation is often thought of as a path.")
    assert text_date(text, "Ten ways meditation can improve your health")[0] == "2022-12-22"
    # Only an update is printed there: it is still the date shown.
    alone = text.replace("DECEMBER 22, 2022 | ", "")
    assert text_date(alone, "Ten ways meditation can improve your health")[0] == "2026-01-02"


def test_miss_families_say_why_a_date_is_wrong():
    from training.train_dates import Page, miss_family

    cands = merge([Observation("2024-05-02", "2024-05-02", "rule"), Observation("2024-06-01", "x", "ld_modified")])
    rows = features(cands)
    page = Page("a.example", cands, rows, [False, True])
    assert miss_family(page, "2024-06-01", "").startswith("b:")
    page = Page("a.example", cands, rows, [False, False])
    assert miss_family(page, "2024-05-03", "").startswith("c:")
    assert miss_family(page, "2023-01-09", "<p>Posted 9 January 2023</p>").endswith("written in the markup, not read")
    assert miss_family(page, "2023-01-09", "<p>No date here</p>").endswith("not written in the page")
    assert "the rule finds no date" in miss_family(Page("a.example", [], [], []), "2023-01", "")


def test_the_dateline_is_read_under_the_first_printed_heading_when_the_headline_has_none():
    # The <title> wording is printed again in a card far below; the reader's heading is the h2.
    page = """<html><head><title>Cayenne data accelerator</title></head><body>
    <nav><a href="/">Home</a> <a href="/blog">Blog</a></nav>
    <h2>Introducing Cayenne: a faster data accelerator built for scale</h2>
    <p>Ann Lee</p><p>December 17, 2025</p>
    <p>Cayenne keeps hot data close to the query engine and spills the rest to object storage.</p>
    <aside><h4>Cayenne data accelerator</h4><p>Read more posts about storage.</p></aside>
    </body></html>"""
    assert extract_metadata(Document(page))["datePublished"] == "2025-12-17"
    # A dateline under the headline itself is kept, whatever the first heading prints.
    under = page.replace("<p>Read more", "<p>May 2, 2024</p><p>Read more")
    assert extract_metadata(Document(under))["datePublished"] == "2024-05-02"
