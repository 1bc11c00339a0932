"""The published date, chosen among the page's date candidates by a small learned model.

Pages state their date several times and the copies disagree: JSON-LD and
meta tags carry a first publication and a last modification, ``<time>``
elements and the dateline under the headline print one of them (or another
day: a UTC timestamp is the next day in the reader's time zone). Which one
the page *shows as its date* depends on the site: a fixed order of trust
(JSON-LD first, the printed text last) is wrong wherever a page prints
"Updated March 3" under its headline and keeps the first publication in
its markup. So every date the page offers becomes a candidate (copies of one
day merged), each gets a handful of features (which sources state it and
under which key family, whether it is printed near the headline and with
which cue, its place among the page's dates, whether the rule picked it),
and a logistic regression scores them; the best-scored candidate is the date.

The ordered rule of :mod:`.metadata` stays one candidate and one feature, so
the model only learns when to overrule it; a page where the rule finds no
date keeps none (a modification time alone is no publication date).
``training/train_dates.py`` fits the weights (scrapy_contentex/models/dates.json);
the file is read once per process, on first use.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import NamedTuple

from .dates import other_reading
from .pagetype_model import LogisticModel
from .pagetype_model import load_model as load_logistic

MODEL_PATH = Path(__file__).resolve().parent.parent / "models" / "dates.json"

# Where a date was read; each is a 0/1 feature of the candidate that holds it.
SOURCES = (
    "rule",
    "ld_published", "ld_created", "ld_modified",
    "meta_published", "meta_modified",
    "itemprop_published", "itemprop_modified",
    "time_published", "time_modified", "time_first", "time_other",
    "text_after_cued", "text_after_updated", "text_after_first", "text_after",
    "text_before_cued", "text_before_updated", "text_before",
    "url",
)
_STRUCTURED = frozenset(s for s in SOURCES if s.startswith(("ld_", "meta_", "itemprop_")))
_PRINTED = frozenset(s for s in SOURCES if s.startswith(("time_", "text_")))
_MODIFIED = frozenset({"ld_modified", "meta_modified", "itemprop_modified", "time_modified",
                       "text_after_updated", "text_before_updated"})
# Characters after the headline a printed date is looked for in (metadata.AFTER_TITLE).
FAR = 1500
# A date this close to the headline is its dateline (metadata.NEAR_TITLE, doubled for bylines).
NEAR = 400


class Observation(NamedTuple):
    """One date read from one place of the page."""

    iso: str
    raw: str
    source: str
    # Characters from the headline's end to the date (negative above it); text dates only.
    offset: int | None = None


@dataclass
class DateCandidate:
    """One day (or month) and every place of the page that states it."""

    key: str
    iso: str
    raw: str
    sources: set[str] = field(default_factory=set)
    offset: int | None = None
    has_time: bool = False


def merge(observations: list[Observation]) -> list[DateCandidate]:
    """Observations of one day become one candidate; its value is the rule's, else the first seen.

    A numeric date both orders can read ("02-12-2025") takes the other order
    when another place of the page states that day and none the first
    (:func:`_corroborated`).
    """
    found: dict[str, DateCandidate] = {}
    for obs in _corroborated(observations):
        key = obs.iso[:10]
        cand = found.get(key)
        if cand is None:
            cand = found[key] = DateCandidate(key, obs.iso, obs.raw)
        elif obs.source == "rule":
            cand.iso, cand.raw = obs.iso, obs.raw
        cand.sources.add(obs.source)
        cand.has_time = cand.has_time or len(obs.iso) > 10
        if obs.offset is not None and (cand.offset is None or abs(obs.offset) < abs(cand.offset)):
            cand.offset = obs.offset
    return list(found.values())


def _corroborated(observations: list[Observation]) -> list[Observation]:
    """The observations, an ambiguous numeric date read in the order another place confirms.

    Which order a page writes its numbers in is a site's convention, not a
    rule of the format; the page's machine dates (ISO, one order only) tell.
    """
    others = {obs.raw: other_reading(obs.raw) for obs in observations}
    if not any(others.values()):
        return observations
    days: dict[str, set[str]] = {}
    for obs in observations:
        days.setdefault(obs.iso[:10], set()).add(obs.raw)
    out = []
    for obs in observations:
        other = others[obs.raw]
        if other and days.get(other[:10], set()) - {obs.raw} and not days[obs.iso[:10]] - {obs.raw}:
            obs = obs._replace(iso=other)
        out.append(obs)
    return out


def day_of(key: str) -> date | None:
    """The day of a candidate key (a month key reads as its first day), None if it is no date."""
    try:
        return date.fromisoformat(key) if len(key) == 10 else date.fromisoformat(key + "-01")
    except ValueError:
        return None


def features(cands: list[DateCandidate]) -> list[dict[str, float]]:
    """Feature values of each candidate (names as in the model file)."""
    days = [day_of(c.key) for c in cands]
    known = [d for d in days if d is not None]
    latest, earliest = (max(known), min(known)) if len(known) > 1 else (None, None)
    rule = next((d for c, d in zip(cands, days, strict=True) if "rule" in c.sources), None)
    rule_printed = any("rule" in c.sources and c.sources & _PRINTED for c in cands)
    shown = [c for c in cands if c.offset is not None]
    first_shown = min(shown, key=lambda c: abs(c.offset)) if shown else None
    near_shown = any(c.offset is not None and abs(c.offset) <= NEAR for c in cands)
    rows = []
    for cand, day in zip(cands, days, strict=True):
        row = {f"from_{s}": float(s in cand.sources) for s in SOURCES}
        structured = len(cand.sources & _STRUCTURED)
        printed = bool(cand.sources & _PRINTED)
        gap = (day - rule).days if day and rule else 0
        row.update({
            "sources": float(len(cand.sources)),
            "structured": float(structured),
            "printed": float(printed),
            "structured_and_printed": float(printed and structured > 0),
            "modified_only": float(bool(cand.sources) and cand.sources <= _MODIFIED),
            "log_offset": math.log1p(min(FAR, abs(cand.offset))) if cand.offset is not None
            else math.log1p(FAR),
            "above_headline": float(cand.offset is not None and cand.offset < 0),
            "is_latest": float(day is not None and day == latest),
            "is_earliest": float(day is not None and day == earliest),
            "later_than_rule": float(gap > 0),
            "log_days_from_rule": math.log1p(abs(gap)),
            "near": float(cand.offset is not None and abs(cand.offset) <= NEAR),
            "first_shown": float(cand is first_shown),
            "shown_rule_not": float(printed and not rule_printed),
            "rule_unshown_other_near": float("rule" in cand.sources and not printed and near_shown),
            "has_time": float(cand.has_time),
            "month_only": float(len(cand.key) < 10),
            "candidates": float(len(cands)),
        })
        rows.append(row)
    return rows


def load_model(path: str | None = None) -> LogisticModel:
    """The shipped date model (or one at ``path``), read once per process by
    the page-type model's cached loader (the same file format)."""
    return load_logistic(str(path or MODEL_PATH))


def eligible(cand: DateCandidate) -> bool:
    """The model may overrule the rule only with a date the page prints (text or ``<time>``).

    A date only the markup states (a JSON-LD dateModified, a second meta
    date) is not the one a reader sees: it still informs the other
    candidates' features, but is never chosen over the rule's own answer.
    """
    return "rule" in cand.sources or bool(cand.sources & _PRINTED)


def choose(cands: list[DateCandidate], rows: list[dict[str, float]],
           model: LogisticModel) -> DateCandidate | None:
    """The best-scored eligible candidate; ties go to the rule's, then to the earlier candidate."""
    best = max((i for i, c in enumerate(cands) if eligible(c)), default=None,
               key=lambda i: (model.index_probability(rows[i]), "rule" in cands[i].sources, -i))
    return None if best is None else cands[best]
