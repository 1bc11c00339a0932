"""Opt-in compiled build (a measurement, docs/compiled.md); the default install stays pure Python.

    pip install .                                              # pure Python (default, what CI does)
    CONTENTEX_COMPILE=mypyc pip install --no-build-isolation .   # hot modules compiled by mypyc
    CONTENTEX_COMPILE=cython pip install --no-build-isolation .  # ... or by Cython
    CONTENTEX_COMPILE=mypyc python setup.py build_ext --inplace  # the same, in a checkout

A compiled build needs mypy (which ships mypyc) or Cython, and a C compiler,
on the building machine; its wheels are CPython- and platform-specific.
Nothing in the package changes: the listed modules are compiled as they are
written, and their outputs are the same (tools/compiled.py checks it).
Everything else (metadata, dependencies) lives in setup.cfg.
"""

from __future__ import annotations

import os

from setuptools import setup

# The modules compiled: those of the warm extract_article call that spend
# Python-level time (the profile in docs/compiled.md).
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
    "scrapy_contentex/core/metadata.py",
    "scrapy_contentex/core/document.py",
    "scrapy_contentex/core/lang.py",
    "scrapy_contentex/core/dates.py",
    "scrapy_contentex/core/structured.py",
]

# mypyc compiles classes to native classes, which these modules' classes
# cannot be without code changes; Cython compiles them as they are.
MYPYC_SKIPS = {
    "scrapy_contentex/core/metadata.py": "_Names subclasses list",
    "scrapy_contentex/core/document.py": "Document reads self.__dict__ (cached_property)",
}

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
    """No extension unless CONTENTEX_COMPILE names a compiler ("mypyc" or "cython")."""
    compiler = os.environ.get("CONTENTEX_COMPILE", "")
    if compiler in ("", "0"):
        return []
    if compiler == "mypyc":
        from mypyc.build import mypycify  # only the opt-in build needs mypy

        return mypycify(MYPY_FLAGS + [p for p in COMPILED if p not in MYPYC_SKIPS], opt_level="3")
    if compiler == "cython":
        from Cython.Build import cythonize  # only the opt-in build needs Cython

        # Annotations are documentation here: typed by Cython they would turn
        # a float into a C double and reject None, so they are not read.
        return cythonize(COMPILED, compiler_directives={"language_level": 3,
                                                        "annotation_typing": False})
    raise SystemExit(f"CONTENTEX_COMPILE must be mypyc, cython or 0, not {compiler!r}")


if __name__ == "__main__":  # pip's build backend runs this file as __main__ too
    setup(ext_modules=ext_modules())
