"""Structured data embedded in pages: JSON-LD and meta tags.

Publishers put their own ground truth in JSON-LD and OpenGraph; every
extractor reads it first and falls back to the page layout without it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

from lxml import html as lxml_html

_TRAILING_COMMA_RE = re.compile(r",\s*([}\]])")
_CTRL_RE = re.compile(r"[\x00-\x1f]")


def _loads_tolerant(raw: str) -> Any:
    """Parse JSON the way browsers' consumers do: forgive common breakage.

    Real pages ship JSON-LD with raw newlines inside strings, trailing commas,
    HTML comments or CDATA wrappers, and several objects back to back.
    """
    text = raw.strip()
    for junk in ("<!--", "-->", "<![CDATA[", "]]>"):
        text = text.replace(junk, "")
    text = text.strip().rstrip(";")
    if not text:
        return None
    attempts = (
        lambda t: json.loads(t),
        lambda t: json.loads(t, strict=False),
        lambda t: json.loads(_TRAILING_COMMA_RE.sub(r"\1", t), strict=False),
        lambda t: json.loads(_CTRL_RE.sub(" ", _TRAILING_COMMA_RE.sub(r"\1", t))),
    )
    for attempt in attempts:
        try:
            return attempt(text)
        except ValueError:
            continue
    return _loads_concatenated(_CTRL_RE.sub(" ", text))


def _loads_concatenated(text: str) -> list[Any] | None:
    """Decode several JSON values written one after another (``}{``)."""
    decoder = json.JSONDecoder(strict=False)
    values: list[Any] = []
    pos = 0
    while pos < len(text):
        while pos < len(text) and text[pos] in " \t\r\n,":
            pos += 1
        if pos >= len(text):
            break
        try:
            value, pos = decoder.raw_decode(text, pos)
        except ValueError:
            break
        values.append(value)
    return values or None


def _walk(data: Any) -> Iterator[dict]:
    """Yield every dict with a ``@type`` anywhere in the data, without recursion."""
    stack = [data]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if "@type" in node:
                yield node
            stack.extend(reversed(list(node.values())))
        elif isinstance(node, list):
            stack.extend(reversed(node))


def json_ld_objects(tree: lxml_html.HtmlElement) -> list[dict]:
    """Every typed JSON-LD object of the page, ``@graph`` and nesting flattened."""
    objects: list[dict] = []
    for script in tree.iter("script"):
        if "ld+json" not in (script.get("type") or "").lower():
            continue
        data = _loads_tolerant(script.text or "")
        if data is not None:
            objects.extend(_walk(data))
    return objects


def types_of(obj: dict) -> set[str]:
    """The schema.org types of an object, without URL prefixes."""
    raw = obj.get("@type")
    values = raw if isinstance(raw, list) else [raw]
    return {str(v).rsplit("/", 1)[-1] for v in values if v}


def meta_tags(tree: lxml_html.HtmlElement) -> dict[str, str]:
    """``<meta>`` values by lower-cased name/property/itemprop (first one wins)."""
    found: dict[str, str] = {}
    for meta in tree.iter("meta"):
        content = meta.get("content")
        if content is None:
            continue
        for attr in ("property", "name", "itemprop", "http-equiv"):
            key = meta.get(attr)
            if key:
                found.setdefault(key.strip().lower(), content.strip())
    return found
