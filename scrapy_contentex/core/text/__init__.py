"""Article text extractors, one module per seed algorithm plus the combiner.

Every module exposes ``extract(doc: Document, **params) -> str`` returning
plain text with paragraphs separated by ``\\n``; ``params`` override the
algorithm's published defaults (its ``Params`` dataclass).
"""

from __future__ import annotations

import importlib

from ..document import Document

# Public algorithm name -> module in this package.
ALGORITHMS: dict[str, str] = {
    "default": "learned",
    "rules": "combined",
    "contentex": "contentex",
    "twcem": "twcem",
    "domweight": "domweight",
    "vsse": "vsse",
}


def extract_text(doc: Document, algorithm: str = "default", **params) -> str:
    """Run the named algorithm on a document and return its body text."""
    try:
        module_name = ALGORITHMS[algorithm]
    except KeyError:
        raise ValueError(
            f"unknown text algorithm {algorithm!r}; choose one of {', '.join(ALGORITHMS)}"
        ) from None
    module = importlib.import_module(f".{module_name}", __name__)
    return module.extract(doc, **params)
