"""Where the warm ``extract_article`` call spends its time: C work or Python-level work.

    python -m tools.profile_article [--limit N] [--out FILE.prof]

Runs the whole public call over the article pages of ``benchmarks.speed``
(one untimed pass, then one pass under cProfile) and splits the profile's
own time ("tottime") into:

- C functions cProfile sees as calls: lxml (parse, iter, xpath, tostring),
  regex, numpy, str/dict/list methods, builtins such as ``len`` or ``sorted``;
- Python functions' own time: the bytecode of our modules (and of the
  libraries we call), which includes the C work cProfile does not see as a
  call (lxml property reads such as ``el.tag``, iteration, operators,
  dict and str subscripts).

cProfile therefore gives a lower bound on the C share; the sampling view
(``py-spy record --native``, see docs/compiled.md) splits the rest.
Exit status 0; 0 with a note when the datasets are absent.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
from collections import defaultdict

from benchmarks.common import print_table, require_datasets
from benchmarks.speed import ARTICLE_SETS, pages_of


def owner(filename: str, funcname: str) -> str:
    """A readable group for a profile entry: our module, a library, or a C family."""
    if filename == "~":  # a C function
        for key, label in (("lxml", "C: lxml"), ("numpy", "C: numpy"), ("re.Pattern", "C: regex"),
                           ("_sre", "C: regex"), ("str", "C: str methods"),
                           ("dict", "C: dict methods"), ("list", "C: list methods")):
            if key in funcname:
                return label
        return "C: other builtins"
    if "scrapy_contentex" in filename:
        return "py: " + filename.split("scrapy_contentex/", 1)[1]
    for lib in ("lxml", "numpy", "rapidfuzz", "jieba", "re/", "re.py", "json", "urllib"):
        if lib in filename:
            return "py lib: " + lib.strip("/.py")
    return "py lib: other"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=None, help="pages per set (default: all)")
    parser.add_argument("--out", default=None, help="also write the raw profile here")
    args = parser.parse_args(argv)
    require_datasets()
    from scrapy_contentex import extract_article

    pages = pages_of(ARTICLE_SETS, args.limit)
    for html, url in pages:  # warm
        extract_article(html, url)
    prof = cProfile.Profile()
    prof.enable()
    for html, url in pages:
        extract_article(html, url)
    prof.disable()
    if args.out:
        prof.dump_stats(args.out)
    stats = pstats.Stats(prof).stats
    groups: dict[str, float] = defaultdict(float)
    total = 0.0
    for (filename, _line, funcname), (_cc, _nc, tottime, _ct, _callers) in stats.items():
        groups[owner(filename, funcname)] += tottime
        total += tottime
    print(f"extract_article under cProfile, warm, {len(pages)} pages of {', '.join(ARTICLE_SETS)}: "
          f"{1000 * total / len(pages):.2f} ms/page profiled (cProfile overhead included)")
    c_total = sum(v for k, v in groups.items() if k.startswith("C:"))
    rows = [[k, f"{1000 * v / len(pages):.2f}", f"{100 * v / total:.1f}%"]
            for k, v in sorted(groups.items(), key=lambda kv: -kv[1]) if v / total >= 0.002]
    rows.append(["all C calls seen by cProfile", f"{1000 * c_total / len(pages):.2f}",
                 f"{100 * c_total / total:.1f}%"])
    print_table(["own time of", "ms/page", "share"], rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
