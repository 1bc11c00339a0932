"""What a page says it is: schema.org type families and og:type words, named once.

Publishers declare a page's kind in JSON-LD ``@type`` values, microdata
``itemtype`` URLs and the Open Graph ``og:type``. Several readers act on it
(the comment rule, the headline and author readers, the article/product
guess, the page type), each for its own question: "is this one article?",
"whose headline is the page's?", "is this a shop page?". They share the
vocabulary here and compose the families they mean, each saying why.

Families follow schema.org's type tree (https://schema.org/Article and
https://schema.org/Product with their subtypes) and hold names as schema.org
writes them. The readers here give a page's names without their
``https://schema.org/`` or ``schema:`` prefix and in schema.org's case when
they name a type of a family: pages write ``"article"`` or ``"Webpage"`` too,
and no two schema.org types differ only in case.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .structured import document_objects

if TYPE_CHECKING:
    from .document import Document


def _family(names: str) -> frozenset[str]:
    """The names of a space-separated list of schema.org types."""
    return frozenset(names.split())


#: NewsArticle and every subtype schema.org defines.
NEWS_ARTICLE = _family(
    "NewsArticle AnalysisNewsArticle AskPublicNewsArticle BackgroundNewsArticle "
    "OpinionNewsArticle ReportageNewsArticle ReviewNewsArticle"
)
#: One article or blog post: Article and its subtypes, but the social-media
#: postings (a forum's posts are that too), which :data:`POSTING` and
#: :data:`THREAD` name.
ARTICLE = NEWS_ARTICLE | _family(
    "Article Report ScholarlyArticle MedicalScholarlyArticle TechArticle APIReference "
    "SatiricalArticle AdvertiserContentArticle BlogPosting LiveBlogPosting"
)
#: A post on a social network: the parent of BlogPosting and DiscussionForumPosting.
POSTING = _family("SocialMediaPosting")
#: The page that holds a Q&A's question and answers.
QA_PAGE = _family("QAPage")
#: A question: a Q&A's, or one of an FAQ page's many.
QUESTION = _family("Question")
#: A thread or a Q&A: pages whose opening post and replies are the content.
THREAD = _family("DiscussionForumPosting") | QUESTION | QA_PAGE
#: A Q&A's answer: only Q&A pages declare them.
ANSWER = _family("Answer")
#: A reply under an article, a post or a thread: articles declare their comments too.
COMMENT = _family("Comment")
#: A blog as a whole (its home or list pages), not one of its posts.
BLOG = _family("Blog")
#: The generic page type: every page is one, so it says nothing of the kind.
WEB_PAGE = _family("WebPage")
#: Pages that list other pages.
LIST_PAGE = _family("CollectionPage ItemList SearchResultsPage")
#: The Product type itself: the one thing a product page is about.
ONE_PRODUCT = _family("Product")
#: Goods: Product and its subtypes (vehicles included). Shops' category pages declare a
#: ProductGroup too (for the products they list).
PRODUCT = ONE_PRODUCT | _family(
    "ProductGroup ProductModel IndividualProduct SomeProducts Vehicle Car Motorcycle"
)
#: Creative works shops sell as products; review and documentation pages declare them too.
SOLD_WORK = _family("Book SoftwareApplication MobileApplication VideoGame")
#: An offer to sell: shop pages declare them beside (or instead of) the product.
OFFER = _family("Offer AggregateOffer")
#: Other content of one page: a recipe, a video.
MEDIA = _family("Recipe VideoObject")

#: og:type values of one article or post (Open Graph's "article", and what blogs and news sites write).
OG_ARTICLE = frozenset(("article", "blog", "news"))
#: Words in the og:type of a thread or a Q&A ("forum", "question", "discussion").
OG_THREAD = ("forum", "question", "discussion")
#: The og:type of a site's pages that are no article: home, list, shop and forum pages alike.
OG_WEBSITE = "website"
#: Word in the og:type of a shop page ("product", "product.group", "og:product").
OG_PRODUCT = "product"


#: Every family's names by their case-folded form.
_CANONICAL = {name.casefold(): name for family in (
    ARTICLE, POSTING, THREAD, ANSWER, COMMENT, BLOG, WEB_PAGE, LIST_PAGE, PRODUCT, SOLD_WORK, OFFER, MEDIA,
) for name in family}


def local_name(name: str) -> str:
    """A type name without its URL or ``prefix:``, in schema.org's case when a family holds it."""
    name = name.rsplit("/", 1)[-1].rsplit(":", 1)[-1]
    return _CANONICAL.get(name.casefold(), name)


def object_types(obj: dict) -> frozenset[str]:
    """The schema.org types of one JSON-LD or microdata object (``@type``, a name or a list), as
    :func:`local_name` writes them."""
    raw = obj.get("@type")
    return frozenset(local_name(v) for v in (raw if isinstance(raw, list) else (raw,))
                     if isinstance(v, str) and v)


def page_types(doc: Document, microdata: bool = False) -> frozenset[str]:
    """Every type the page's JSON-LD declares (``@graph`` and nesting included), and with
    ``microdata`` its microdata/RDFa items' types; read once per Document.

    Microdata is opt-in: finding its items walks the tree, which the article
    readers otherwise never need.
    """
    def build() -> frozenset[str]:
        objects = document_objects(doc) if microdata else doc.json_ld
        return frozenset().union(*map(object_types, objects))

    return doc.memo(("page_types", microdata), build)


def og_type(doc: Document) -> str:
    """The page's og:type, stripped and case-folded ("" when absent)."""
    return (doc.meta.get("og:type") or "").strip().casefold()
