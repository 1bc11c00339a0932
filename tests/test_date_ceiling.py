"""The date ceiling study's signals, pair selection and fold logic (training/date_ceiling.py), on hand-made pages."""

import numpy as np
from test_date_model import UPDATED

from benchmarks.common import ChoicePage
from scrapy_contentex.core.date_model import DateCandidate
from scrapy_contentex.core.document import Document
from scrapy_contentex.core.metadata import page_date_candidates
from training.date_ceiling import (
    StudyPage,
    _stump,
    copyright_year,
    cv_right,
    extra_features,
    label_of,
    majority_cv,
    split_cv,
    split_pair,
    zone_days,
)

# The basil page of test_date_model, updated in 2025, with a copyright line.
PAGE = UPDATED.format(dateline="<p>Updated: June 10, 2025</p>").replace(
    "</body>", "<footer>© 2019-2025 Basil Weekly</footer></body>")
URL = "https://example.org/2021/03/02/basil/"


def test_extra_features_read_mentions_labels_url_and_copyright():
    doc = Document(PAGE, url=URL)
    _, cands = page_date_candidates(doc)
    rows = dict(zip([c.key for c in cands],
                    extra_features(PAGE, URL, doc.visible_text, cands, 0.9), strict=True))
    published, updated = rows["2021-03-02"], rows["2025-06-10"]
    assert updated["label_updated"] == 1.0 and published["label_updated"] == 0.0
    assert published["text_mentions"] == 0.0 and updated["text_mentions"] > 0.0
    assert updated["html_mentions"] > published["html_mentions"] > 0.0
    assert published["url_log_gap"] == 0.0 and updated["url_log_gap"] > 0.0
    assert updated["copyright_same_year"] == 1.0 and published["copyright_gap"] == -4.0
    assert published["day_rank"] == 0.0 and updated["day_rank"] == 1.0
    assert updated["after_modified"] == 0.0 and published["modified_log_gap"] > 0.0
    assert published["content_probability"] == 0.9


def test_labels_and_copyright_in_other_languages_and_forms():
    assert label_of("Zuletzt aktualisiert: ")["label_updated"] == 1.0
    assert label_of("Medically reviewed on ")["label_reviewed"] == 1.0
    assert label_of("This article was originally published on\n")["label_originally"] == 1.0
    assert label_of("发布时间：")["label_published"] == 0.0  # the label must end right before the date
    assert label_of("发布 ")["label_published"] == 1.0
    assert copyright_year("<p>Copyright &copy; 2012 - 2024 Foo</p><p>(c) 2020</p>") == 2024
    assert copyright_year("<p>no notice</p>") is None


def _page(sources: list[set[str]], labels: list[bool]) -> ChoicePage:
    cands = [DateCandidate(f"202{i}-01-01", f"202{i}-01-01", "", s) for i, s in enumerate(sources)]
    return ChoicePage("example.org", cands, [{} for _ in cands], labels)


def test_split_pair_needs_a_publication_and_a_distinct_update_one_of_them_right():
    pub, upd = {"rule", "ld_published"}, {"ld_modified", "text_after_updated"}
    assert split_pair(_page([pub, upd], [False, True])) == (0, 1)
    assert split_pair(_page([pub, upd], [True, False])) == (0, 1)
    assert split_pair(_page([pub, upd], [False, False])) is None
    # a day both kinds of source state is neither side of the split
    assert split_pair(_page([pub | upd, upd], [True, False])) is None


def test_zone_days_keep_the_datetimes_whose_local_and_utc_days_differ():
    html = ('<meta content="2025-05-14T19:30:03-07:00"><time datetime="2025-05-14T10:00:00-07:00">'
            '<span>2025-12-19T04:25:38+0500</span><span>2025-01-01T23:00:00Z</span>')
    assert zone_days(html) == {("2025-05-14", "2025-05-15"), ("2025-12-19", "2025-12-18")}


def test_split_cv_majority_and_stump_on_toy_pages():
    x = np.array([[float(i % 2), float(i)] for i in range(40)])
    y = (x[:, 0] > 0.5).astype(int)
    groups = [f"site{i // 2}" for i in range(40)]
    assert split_cv(x, y, groups, _stump, None) == 40
    assert majority_cv(x, y, groups, None) < 40
    assert list(_stump(x, y, np.array([[1.0, 0.0], [0.0, 5.0]]))) == [1, 0]


def test_cv_right_scores_each_page_by_the_chooser_fit_elsewhere():
    pages = [StudyPage(_page([{"rule"}, {"ld_modified"}], [i % 3 == 0, i % 3 != 0]), [], "", "")
             for i in range(30)]
    for i, sp in enumerate(pages):
        sp.page.domain = f"site{i}"
    first = cv_right(pages, lambda train, test: [0] * len(test), None)
    assert sum(first) == 10 and first[0] and not first[1]
    none = cv_right(pages, lambda train, test: [None] * len(test), 1)
    assert not any(none)
