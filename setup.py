"""Opt-in compiled build; the default install stays pure Python.

    pip install .                                        # pure Python (default, what CI does)
    CONTENTEX_COMPILE=1 pip install --no-build-isolation .   # mypyc-compiled hot modules
    CONTENTEX_COMPILE=1 python setup.py build_ext --inplace  # the same, in a checkout

The compiled build needs mypy (which ships mypyc) and a C compiler on the
building machine; its wheels are CPython- and platform-specific. Nothing in
the package changes: mypyc compiles the listed modules as they are written,
and their outputs are the same (docs/compiled.md says what was measured).
Everything else (metadata, dependencies) lives in setup.cfg.
"""

from __future__ import annotations

import os

from setuptools import setup

# The modules compiled, chosen from the profile of the warm extract_article
# call (docs/compiled.md): the ones whose own Python-level time is largest.
COMPILED = [
    "scrapy_contentex/core/text/region.py",
    "scrapy_contentex/core/text/combined.py",
    "scrapy_contentex/core/text/block_features.py",
    "scrapy_contentex/core/text/common.py",
    "scrapy_contentex/core/text/learned.py",
    "scrapy_contentex/core/trees.py",
    "scrapy_contentex/core/text/__init__.py",
    "scrapy_contentex/core/title.py",
    "scrapy_contentex/core/headline.py",
    "scrapy_contentex/core/lang.py",
    "scrapy_contentex/core/dates.py",
    "scrapy_contentex/core/structured.py",
]

# mypyc refuses modules with type errors. These codes flag places where the
# annotations are looser than the runtime (an Optional that is never None
# there, a numpy dtype): they are silenced for the build, not fixed in code.
MYPY_FLAGS = [
    "--ignore-missing-imports",
    "--follow-imports=silent",
    "--disable-error-code=union-attr",
    "--disable-error-code=arg-type",
    "--disable-error-code=assignment",
    "--disable-error-code=var-annotated",
]


def ext_modules() -> list:
    if os.environ.get("CONTENTEX_COMPILE") != "1":
        return []
    from mypyc.build import mypycify  # only the opt-in build needs mypy

    return mypycify(MYPY_FLAGS + COMPILED, opt_level="3")


if __name__ == "__main__":  # pip's build backend runs this file as __main__ too
    setup(ext_modules=ext_modules())
