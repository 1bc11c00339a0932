"""Keywords, TF-IDF weights and SimHash: the content-semantics tools of seed 000.

VSSE (seed 000, section 4.4) summarises a paragraph by its keywords weighted
with TF-IDF, folds them into a SimHash fingerprint and compares fingerprints
by Hamming distance. The seed segments Chinese with a word segmenter (NLPIR);
we use jieba, which ships its dictionary and an IDF table inside its package,
so everything works offline. Other languages are split into words and
filtered with a small stopword list.

jieba is imported lazily and initialised once per process (its dictionary
load costs about a second), and its chatty logger is silenced.
"""

from __future__ import annotations

import hashlib
import logging
import math
import re
import threading
from collections import Counter
from collections.abc import Iterable, Mapping
from functools import lru_cache

from .lang import CJK_RE

# Runs of CJK text (handed to jieba) or runs of other word characters.
_CJK_RUN_RE = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0002ebef]+")
_WORD_RE = re.compile(r"[^\W\d_](?:[\w'’-]*\w)?", re.UNICODE)

# A small stopword list: function words of English and of the commonest other
# Latin-script languages, plus Chinese function words jieba keeps as words.
# Small on purpose: it only has to keep fingerprints from being dominated by
# words every paragraph shares.
STOPWORDS = frozenset(
    """
    a about above after again against all also am an and any are as at be because been
    before being below between both but by can could did do does doing down during each
    few for from further had has have having he her here hers him his how i if in into
    is it its itself just me more most my no nor not now of off on once only or other
    our out over own same she should so some such than that the their them then there
    these they this those through to too under until up very was we were what when
    where which while who whom why will with would you your yours said says one two new
    le la les de des du un une et est en que qui dans pour pas sur au aux ce il elle
    der die das und ist ein eine nicht mit von zu den dem im auf für sich
    el los las del por con para una es se lo al
    il lo gli della che di da non per una sono
    o os um uma do da dos das em no na com não
    的 了 和 是 在 也 有 就 都 而 及 与 着 或 一个 没有 我们 你们 他们 她们 它们 这个
    那个 这些 那些 自己 什么 因为 所以 但是 如果 可以 已经 还是 以及 进行 通过 对于
    """.split()
)

_jieba_lock = threading.Lock()
_jieba_state: dict[str, object] = {}


def _jieba():
    """The jieba module, imported and initialised once, with its logging silenced."""
    module = _jieba_state.get("jieba")
    if module is not None:
        return module
    with _jieba_lock:
        module = _jieba_state.get("jieba")
        if module is None:
            import jieba

            jieba.setLogLevel(logging.WARNING)
            logging.getLogger("jieba").setLevel(logging.WARNING)
            jieba.initialize()
            _jieba_state["jieba"] = module = jieba
    return module


def _idf_table() -> tuple[dict[str, float], float]:
    """jieba's shipped IDF table and its median (the IDF of unknown words)."""
    table = _jieba_state.get("idf")
    if table is None:
        _jieba()
        with _jieba_lock:
            table = _jieba_state.get("idf")
            if table is None:
                import jieba.analyse

                tfidf = jieba.analyse.default_tfidf
                table = (tfidf.idf_freq, tfidf.median_idf)
                _jieba_state["idf"] = table
    return table  # type: ignore[return-value]


def _keep(word: str) -> bool:
    """Whether a segmented word can be a keyword.

    Single CJK characters are mostly particles and measure words; digits and
    stopwords carry no topic.
    """
    if word in STOPWORDS or word.isdigit():
        return False
    if CJK_RE.match(word):
        return len(word) >= 2
    return len(word) >= 2 or word.isalpha() and not word.isascii()


def words(text: str) -> list[str]:
    """Candidate keywords of a text, in order: jieba words for CJK runs, words elsewhere.

    Non-CJK words are lower-cased so 'Market' and 'market' are one keyword.
    """
    found: list[str] = []
    pos = 0
    for match in _CJK_RUN_RE.finditer(text):
        found.extend(w.lower() for w in _WORD_RE.findall(text[pos:match.start()]))
        found.extend(_jieba().lcut(match.group(), HMM=True))
        pos = match.end()
    found.extend(w.lower() for w in _WORD_RE.findall(text[pos:]))
    return [w for w in found if _keep(w)]


def idf(word: str) -> float:
    """Inverse document frequency of a word from jieba's table.

    Words the table does not know (including every non-Chinese word) get the
    median IDF, as jieba.analyse does: unknown means neither common nor rare.
    """
    table, median = _idf_table()
    return table.get(word, median)


def keywords(text: str, top_k: int | None = 20) -> list[tuple[str, float]]:
    """The text's keywords with TF-IDF weights (global IDF), heaviest first."""
    counts = Counter(words(text))
    total = sum(counts.values())
    if not total:
        return []
    scored = [(w, n / total * idf(w)) for w, n in counts.items()]
    scored.sort(key=lambda kv: (-kv[1], kv[0]))
    return scored[:top_k] if top_k else scored


def local_tfidf(paragraphs: list[list[str]], constant: float = 1.0) -> list[dict[str, float]]:
    """Seed 000 Formula 4 over a set of paragraphs: TF_k × (log(N / N_k) + L).

    N is the number of paragraphs, N_k those containing keyword k and L an
    empirical constant (the seed leaves it open; 1.0 keeps keywords present in
    every paragraph from weighing zero).
    """
    n = len(paragraphs)
    doc_freq: Counter = Counter()
    for para in paragraphs:
        doc_freq.update(set(para))
    weights: list[dict[str, float]] = []
    for para in paragraphs:
        tf = Counter(para)
        weights.append(
            {w: c * (math.log(n / doc_freq[w]) + constant) for w, c in tf.items()}
        )
    return weights


@lru_cache(maxsize=65536)
def feature_hash(feature: str, bits: int = 64) -> int:
    """A stable hash of a keyword (Python's hash() changes between processes)."""
    digest = hashlib.blake2b(feature.encode("utf-8"), digest_size=(bits + 7) // 8).digest()
    return int.from_bytes(digest, "big") & ((1 << bits) - 1)


def simhash(weighted: Mapping[str, float] | Iterable[tuple[str, float]], bits: int = 64) -> int:
    """Charikar's SimHash of weighted features (seed 000, Fig. 4).

    Every feature adds +weight where its hash has a 1 bit and -weight where it
    has a 0; the fingerprint keeps a 1 where the sum is positive. Similar
    feature sets give fingerprints a small Hamming distance apart.
    """
    items = weighted.items() if isinstance(weighted, Mapping) else weighted
    totals = [0.0] * bits
    for feature, weight in items:
        h = feature_hash(feature, bits)
        for bit in range(bits):
            totals[bit] += weight if (h >> bit) & 1 else -weight
    value = 0
    for bit, total in enumerate(totals):
        if total > 0:
            value |= 1 << bit
    return value


def hamming(a: int, b: int) -> int:
    """Number of differing bits between two fingerprints."""
    return (a ^ b).bit_count()
