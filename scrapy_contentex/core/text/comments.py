"""Reader comments under an article: where the comment section lies.

Article truths cut reader comments (wcxb-dev's article pages, articles-en,
articles-multi and dragnet alike), while forum truths keep every post.
Both sit in repeated records under markup named "comment", "reply" or
"discussion", and the line model, which sees few articles with long
comment sections in its training pages (most modern pages load them by
script), keeps many of them.  What tells the two apart is the page around
the records: under an article a long run of prose, outside any comment
markup, precedes the first comment; in a thread the opening post is
itself one of the records, and pages that declare a thread or a Q&A say
so in their structured data.  A short blog post or story (less prose than
a thread's opening post may hold) is told by its own markup: wrappers
named "entry", "story", "article" or "blog", none named "topic", "thread",
"question" or "bbs".
"""

from __future__ import annotations

import numpy as np

from ..declared import ANSWER, ARTICLE, OG_ARTICLE, OG_THREAD, THREAD, og_type, page_types
from ..document import Document
from .block_features import _LINK_SHARE, _NAME_GROUPS, _TOKENS, PageLines, _bits_of, _inside
from .region import _DIGITS_RE, _HINT_SPLIT_RE, PageBlocks

#: Bit of the comment vocabulary group in :func:`.block_features._bits_of`'s masks.
_COMMENT_BIT = 1 << [name for name, _ in _NAME_GROUPS].index("name_comment")
#: A prose line: this many tokens or more, in a block with at most this link share.
_PROSE_TOKENS, _PROSE_LINK_SHARE = 10, 0.3
#: Class/id words of an article's own markup ("entry-content", "story-body",
#: "blog-post") and of a thread's ("topic-detail", "question-main", "bbs-post").
_ARTICLE_WORDS = frozenset(("article", "story", "entry", "blog"))
_THREAD_WORDS = frozenset(("thread", "topic", "forum", "floor", "bbs", "question", "answer"))
#: Wrappers above a prose line whose names are read.
_MARKUP_LEVELS = 6


def declares_discussion(doc: Document) -> bool:
    """The page says it is a thread or a Q&A (JSON-LD ``@type`` or og:type): a thread or Q&A
    type, or an answer, which only Q&A pages declare (not a comment: articles declare theirs)."""
    return bool(page_types(doc) & (THREAD | ANSWER)) or any(w in og_type(doc) for w in OG_THREAD)


def declares_article(doc: Document) -> bool:
    """The page says it is one article or post (JSON-LD ``@type`` of the article family, or
    og:type "article" or "blog").

    Publishing tools write it on a story's own page and not on the section,
    home or tag pages that list stories, nor (with a forum type instead) on
    a thread's pages: a page-level counterpart of :func:`in_article_markup`.
    The article family alone: a social-media posting may be a forum's post.
    og:type "news" is left out: the comment model was trained without it.
    """
    return bool(page_types(doc) & ARTICLE) or og_type(doc) in OG_ARTICLE - {"news"}


def prose_lines(line_tokens: np.ndarray, link_share: np.ndarray) -> np.ndarray:
    """Prose: lines of at least ten tokens in blocks that are at most 30% link text."""
    return (line_tokens >= _PROSE_TOKENS) & (link_share <= _PROSE_LINK_SHARE)


def comment_elements(pb: PageBlocks) -> list[int]:
    """Elements named as comments ("comment", "reply", "discussion"), but the root and ``<body>``."""
    names, tags = pb.names, pb.tags
    return [i for i, text in enumerate(names)
            if text and _bits_of(text) & _COMMENT_BIT and tags[i] not in ("body", "html")]


def comment_section(pb: PageBlocks, owners: list[int], line_tokens: np.ndarray,
                    link_share: np.ndarray, from_prose: bool = True) -> tuple[np.ndarray, int, float]:
    """The lines in comment markup, the first line of the section, and the prose tokens before it.

    Comment markup is read at any depth (a comment's paragraph often sits
    five wrappers below the element named "comment"), on any element but
    the root and ``<body>``, whose classes often say "comments-open" of the
    whole page.  Prose: lines of at least ten tokens in blocks that are at
    most 30% link text, outside comment markup, before the section.

    With ``from_prose`` the section opens with the outermost comment element
    that holds the first prose line in comment markup (its header, "12
    Comments", included), not at the first comment-named element: blogs put
    comment counts, "leave a comment" links and comment tabs above the
    article, and counting prose only before those finds none.
    """
    end = pb.end
    starts = comment_elements(pb)
    own = np.asarray(owners, np.intp)
    inside = _inside(len(pb.names), starts, [end[i] for i in starts])[own]
    if not inside.any():
        return inside, len(owners), 0.0
    prose_line = prose_lines(line_tokens, link_share)
    first = int(np.argmax(inside))
    talk = inside & prose_line
    if from_prose and talk.any():
        owner = owners[int(np.argmax(talk))]
        top = min(i for i in starts if i <= owner < end[i])
        first = int(np.argmax(inside & (own >= top)))
    before = prose_line[:first] & ~inside[:first]
    return inside, first, float(line_tokens[:first][before].sum())


def in_article_markup(pb: PageBlocks, owners: list[int], lines: np.ndarray) -> bool:
    """The given lines sit in markup named as an article and none named as a thread.

    A short blog post or news story says what it is in its wrappers'
    classes ("entry-content", "story-body", "blog-post"); a thread's
    opening post, which its replies follow the same way, says "topic",
    "thread", "question" or "bbs", or nothing of either ("post" serves both).
    """
    words = markup_words(pb, owners, lines)
    return bool(words & _ARTICLE_WORDS) and not words & _THREAD_WORDS


def markup_words(pb: PageBlocks, owners: list[int], lines: np.ndarray) -> set[str]:
    """The lower-cased class/id words of the given lines' owners and of
    ``_MARKUP_LEVELS`` wrappers above each (digits dropped)."""
    names, parent = pb.names, pb.parent
    seen: set[int] = set()
    words: set[str] = set()
    for k in lines.tolist():
        element = owners[k]
        for _ in range(_MARKUP_LEVELS + 1):
            if element < 0 or element in seen:
                break
            seen.add(element)
            if names[element]:
                words.update(w.lower() for w in _HINT_SPLIT_RE.split(_DIGITS_RE.sub("", names[element])))
            element = parent[element]
    return words


def article_like(doc: Document, pb: PageBlocks, owners: list[int], lines: np.ndarray,
                 declared: bool = True) -> bool:
    """The page is one article: its prose sits in article markup, or (with
    ``declared``) the page declares an article (:func:`declares_article`)."""
    return declared and declares_article(doc) or in_article_markup(pb, owners, lines)


def _short_post(doc: Document, pb: PageBlocks, owners: list[int], before: np.ndarray, prose: float,
                article_tokens: int, markup_tokens: int, declared: bool) -> bool:
    """Prose shorter than the rule's bar is one short post: ``markup_tokens``
    of it in article markup, or ``article_tokens`` in article markup or on a
    page that declares an article (with ``declared``)."""
    if 0 < markup_tokens <= prose and in_article_markup(pb, owners, before):
        return True
    return 0 < article_tokens <= prose and article_like(doc, pb, owners, before, declared)


def reader_comments(doc: Document, pb: PageBlocks, lines: PageLines, prose_tokens: int,
                    from_prose: bool = True, article_tokens: int = 0,
                    thread_template: bool = True, declared_article: bool = False,
                    markup_tokens: int = 0) -> np.ndarray:
    """Lines of a comment section that follows ``prose_tokens`` tokens of an article's prose.

    With ``article_tokens`` (> 0), ``article_tokens`` tokens of prose are
    enough when that prose sits in article markup (:func:`in_article_markup`),
    or, with ``declared_article``, when the page declares itself an article
    (:func:`declares_article`): a short post's comments outweigh it.
    With ``markup_tokens`` (> 0), that many tokens are enough in article
    markup alone: the markup names the post's own wrappers, a stricter
    sign than the page's declaration, which forums that call every thread
    an og:type "article" write too.  Nothing on pages that declare a
    thread or a Q&A, nor when ``prose_tokens`` is 0 (the rule is off), nor
    when most of that prose shares a line template with the section's
    lines: the opening post of a thread is one of its records, built like
    the replies, even when only the replies are named so.
    """
    owners = lines.owners
    none = np.zeros(len(owners), bool)
    if prose_tokens <= 0 or not owners:
        return none
    line_tokens, link_share = lines.features[:, _TOKENS], lines.features[:, _LINK_SHARE]
    inside, first, prose = comment_section(pb, owners, line_tokens, link_share, from_prose)
    before = prose_lines(line_tokens[:first], link_share[:first]) & ~inside[:first]
    if prose < prose_tokens and not _short_post(doc, pb, owners, np.flatnonzero(before), prose,
                                                article_tokens, markup_tokens, declared_article):
        return none
    templates = lines.templates
    section = np.arange(len(owners)) >= first
    if thread_template and templates is not None:
        records = np.isin(templates[:first], np.unique(templates[inside & section]))
        if 2 * line_tokens[:first][before & records].sum() >= prose:
            return none
    if declares_discussion(doc):
        return none
    return inside & section
