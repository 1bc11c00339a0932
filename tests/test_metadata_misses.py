"""The miss families of benchmarks.metadata_misses, on small pages of our own."""

from benchmarks.metadata_misses import author_family, copy_kind, h1_split, headline_family
from scrapy_contentex.core.document import Document
from scrapy_contentex.core.headline import candidates

PAGE = ("<html><head><title>Ten tent tips | Camp Blog</title>"
        '<script type="application/ld+json">{"@type": "BlogPosting", "author": {"name": "Rosa Lind"}}</script>'
        "</head><body><h1>Ten tips for your first tent</h1><p>By Ann Lee</p><p>Pitch it at home first.</p>"
        "<footer>Rosa Lind</footer></body></html>")


def test_headline_families_name_the_copy_the_truth_is():
    doc = Document(PAGE)
    cands = candidates(doc)
    assert copy_kind({"h1_first", "title"}) == "<h1>"
    assert copy_kind({"title_first"}) == "<title> part"
    assert headline_family(doc, "Ten tent tips", cands)[0] == "<title> part"
    assert headline_family(doc, "Pitch it at home first", cands)[0] == "no candidate: printed as plain text only"
    assert headline_family(doc, "Something else", cands)[0] == "no candidate: not printed"
    # The <title> wording is not printed: the truth took a copy the reader does not see.
    assert h1_split(doc, "Ten tent tips", cands, False) == "truth = a <title> wording the page never prints, ours wrong"
    assert h1_split(doc, "Ten tips for your first tent", cands, True) == "truth = the <h1>, ours right"


def test_author_families_say_what_we_gave_and_where_the_name_is():
    doc = Document(PAGE)
    near = "By Ann Lee\nPitch it at home first."
    assert author_family(doc, "Ann Lee", [], near) == ("nothing", "printed under the headline")
    assert author_family(doc, "Rosa Lind", ["Ann Lee"], near) == ("another name", "printed elsewhere, declared too")
    assert author_family(doc, "Ann B. Lee", ["Ann Lee"], near) == ("same person, other form",
                                                                   "nowhere in the text or declarations")
