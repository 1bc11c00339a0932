"""CONTENTEX_* settings: defaults, typed reading and validation, in one place.

Components call :meth:`ContentexSettings.from_settings` once in
``from_crawler``; a bad value fails the crawl at start-up with a message that
names the setting, instead of surfacing later as a wrong result on some page.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

KINDS = ("auto", "article", "product")

# Public text algorithm names (mirrors core.text.ALGORITHMS; read from there
# when importable so a new algorithm is accepted without touching this file).
_FALLBACK_ALGORITHMS = ("default", "rules", "contentex", "twcem", "domweight", "vsse")

# Setting name -> keyword of scrapy_contentex.core.pagetype.PageTypeParams.
# This is the only place that maps the two vocabularies.
PAGETYPE_PARAMS: dict[str, str] = {
    "CONTENTEX_PAGETYPE_MIN_LINKS": "min_links",
    "CONTENTEX_PAGETYPE_MAX_DISTANCE": "max_distance",
    "CONTENTEX_PAGETYPE_DISTANCE": "distance",
    "CONTENTEX_PAGETYPE_THRESHOLD": "threshold",
}
PAGETYPE_DISTANCES = ("text", "code")

DEFAULT_MAX_PAGE_SIZE = 10 * 1024 * 1024
DEFAULT_WORKER_TIMEOUT = 60.0

# Defaults as the add-on installs them (priority "addon"); settings absent
# from a project fall back to the same values through the getters below.
DEFAULTS: dict[str, Any] = {
    "CONTENTEX_ENABLED": True,
    "CONTENTEX_KIND": "auto",
    "CONTENTEX_PAGETYPE_MIN_LINKS": None,
    "CONTENTEX_PAGETYPE_MAX_DISTANCE": None,
    "CONTENTEX_PAGETYPE_DISTANCE": None,
    "CONTENTEX_PAGETYPE_THRESHOLD": None,
    "CONTENTEX_TEXT_ALGORITHM": "default",
    "CONTENTEX_TEXT_PARAMS": {},
    "CONTENTEX_RECORD_ATTRIBUTES": [],
    "CONTENTEX_EMIT_INDEX": False,
    "CONTENTEX_RECORD_PAGES": True,
    "CONTENTEX_MAX_PAGE_SIZE": DEFAULT_MAX_PAGE_SIZE,
    "CONTENTEX_DROP_FAILED": False,
    "CONTENTEX_INDEX_PRIORITY_BOOST": 0,
    "CONTENTEX_CONTENT_FOLLOW_LIMIT": -1,
    "CONTENTEX_WORKERS": None,  # None: one per usable CPU minus one
    "CONTENTEX_WORKER_TIMEOUT": DEFAULT_WORKER_TIMEOUT,
}


def text_algorithms() -> tuple[str, ...]:
    """Names CONTENTEX_TEXT_ALGORITHM accepts."""
    try:
        from .core.text import ALGORITHMS
    except ImportError:  # pragma: no cover - the registry ships with the package
        return _FALLBACK_ALGORITHMS
    return tuple(ALGORITHMS)


def _pagetype_fields() -> set[str] | None:
    """Keyword names PageTypeParams accepts, or None when the engine is absent."""
    try:
        from dataclasses import fields

        from .core.pagetype import PageTypeParams
    except ImportError:
        return None
    try:
        return {f.name for f in fields(PageTypeParams)}
    except TypeError:
        return None


def check_kind(value: Any, name: str = "CONTENTEX_KIND") -> str:
    """Validate a kind value; also used for spider attributes and request meta."""
    kind = str(value).strip().lower()
    if kind not in KINDS:
        raise ValueError(f"{name} must be one of {', '.join(KINDS)}, not {value!r}")
    return kind


def _get(settings: Any, name: str) -> Any:
    value = settings.get(name) if settings is not None else None
    return DEFAULTS[name] if value is None else value


def _getint(settings: Any, name: str, minimum: int | None = None) -> int:
    raw = _get(settings, name)
    try:
        if isinstance(raw, bool) or (isinstance(raw, float) and not raw.is_integer()):
            raise ValueError
        value = int(raw)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be an integer, not {raw!r}") from None
    if minimum is not None and value < minimum:
        raise ValueError(f"{name} must be >= {minimum}, not {value}")
    return value


def _getbool(settings: Any, name: str) -> bool:
    raw = _get(settings, name)
    if isinstance(raw, bool):
        return raw
    if isinstance(raw, int) and raw in (0, 1):
        return bool(raw)
    if isinstance(raw, str) and raw.strip().lower() in ("0", "1", "true", "false"):
        return raw.strip().lower() in ("1", "true")
    raise ValueError(f"{name} must be a boolean (True/False), not {raw!r}")


def _getdict(settings: Any, name: str) -> dict[str, Any]:
    raw = _get(settings, name)
    if hasattr(settings, "getdict") and not isinstance(raw, dict):
        try:
            raw = settings.getdict(name)
        except (ValueError, TypeError):
            pass
    if not isinstance(raw, dict):
        raise ValueError(f"{name} must be a dict (or a JSON object string), not {raw!r}")
    return {str(k): v for k, v in raw.items()}


def _getlist(settings: Any, name: str) -> tuple[str, ...]:
    raw = _get(settings, name)
    if isinstance(raw, str):
        raw = [part for part in raw.split(",") if part.strip()]
    if not isinstance(raw, (list, tuple)):
        raise ValueError(f"{name} must be a list of strings, not {raw!r}")
    return tuple(str(part).strip() for part in raw if str(part).strip())


def _getpositive(settings: Any, name: str) -> float:
    raw = _get(settings, name)
    try:
        if isinstance(raw, bool):
            raise ValueError
        value = float(raw)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a number of seconds, not {raw!r}") from None
    if not value > 0:
        raise ValueError(f"{name} must be > 0, not {raw!r}")
    return value


def _workers(settings: Any) -> int:
    """CONTENTEX_WORKERS: processes for classification and extraction (0 = in-process)."""
    if _get(settings, "CONTENTEX_WORKERS") is None:
        from .pool import default_workers

        return default_workers()
    return _getint(settings, "CONTENTEX_WORKERS", minimum=0)


def _pagetype_params(settings: Any) -> dict[str, Any]:
    """Only the page-type settings the user set, as PageTypeParams keywords."""
    params: dict[str, Any] = {}
    for name, keyword in PAGETYPE_PARAMS.items():
        raw = _get(settings, name)
        if raw is None:
            continue
        if keyword == "distance":
            value = str(raw).strip().lower()
            if value not in PAGETYPE_DISTANCES:
                raise ValueError(
                    f"{name} must be one of {', '.join(PAGETYPE_DISTANCES)}, not {raw!r}"
                )
        elif keyword == "threshold":
            try:
                value = float(raw)
            except (TypeError, ValueError):
                raise ValueError(f"{name} must be a number, not {raw!r}") from None
            if not 0.0 <= value <= 1.0:  # the engine's score is a probability
                raise ValueError(f"{name} must be between 0 and 1, not {raw!r}")
        else:
            value = _getint(settings, name, minimum=0)
        params[keyword] = value
    # Only settings the user gave need checking against the engine, and the
    # check imports it (numpy with it): a crawl whose pages go to workers
    # never loads the engine in its own process otherwise.
    known = _pagetype_fields() if params else None
    if known is not None:
        unknown = [k for k in params if k not in known]
        if unknown:
            names = [n for n, k in PAGETYPE_PARAMS.items() if k in unknown]
            raise ValueError(
                f"{', '.join(names)} not supported by this version of the page-type engine"
            )
    return params


@dataclass(frozen=True)
class ContentexSettings:
    """Every CONTENTEX_* value, typed and validated."""

    enabled: bool = True
    kind: str = "auto"
    pagetype_params: dict[str, Any] = field(default_factory=dict)
    text_algorithm: str = "default"
    text_params: dict[str, Any] = field(default_factory=dict)
    record_attributes: tuple[str, ...] = ()
    emit_index: bool = False
    record_pages: bool = True
    max_page_size: int = DEFAULT_MAX_PAGE_SIZE
    drop_failed: bool = False
    index_priority_boost: int = 0
    content_follow_limit: int = -1
    workers: int = 0
    worker_timeout: float = DEFAULT_WORKER_TIMEOUT

    @classmethod
    def from_settings(cls, settings: Any) -> ContentexSettings:
        """Read and validate from a Scrapy Settings object (or any mapping).

        Raises ValueError naming the setting when a value is invalid.
        """
        algorithm = str(_get(settings, "CONTENTEX_TEXT_ALGORITHM")).strip().lower()
        algorithms = text_algorithms()
        if algorithm not in algorithms:
            raise ValueError(
                f"CONTENTEX_TEXT_ALGORITHM must be one of {', '.join(algorithms)}, "
                f"not {algorithm!r}"
            )
        follow = _getint(settings, "CONTENTEX_CONTENT_FOLLOW_LIMIT", minimum=-1)
        return cls(
            enabled=_getbool(settings, "CONTENTEX_ENABLED"),
            kind=check_kind(_get(settings, "CONTENTEX_KIND")),
            pagetype_params=_pagetype_params(settings),
            text_algorithm=algorithm,
            text_params=_getdict(settings, "CONTENTEX_TEXT_PARAMS"),
            record_attributes=_getlist(settings, "CONTENTEX_RECORD_ATTRIBUTES"),
            emit_index=_getbool(settings, "CONTENTEX_EMIT_INDEX"),
            record_pages=_getbool(settings, "CONTENTEX_RECORD_PAGES"),
            max_page_size=_getint(settings, "CONTENTEX_MAX_PAGE_SIZE", minimum=0),
            drop_failed=_getbool(settings, "CONTENTEX_DROP_FAILED"),
            index_priority_boost=_getint(settings, "CONTENTEX_INDEX_PRIORITY_BOOST"),
            content_follow_limit=follow,
            workers=_workers(settings),
            worker_timeout=_getpositive(settings, "CONTENTEX_WORKER_TIMEOUT"),
        )
