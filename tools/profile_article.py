"""Where the warm ``extract_article`` call spends its time: C work or Python-level work.

    python -m tools.profile_article [--limit N] [--out FILE.prof]      # cProfile view
    py-spy record --native --rate 250 --format raw -o FILE.txt -- \
        python -m tools.profile_article --loop 3                        # sampling view ...
    python -m tools.profile_article --split FILE.txt                    # ... split

Runs the whole public call over the article pages of ``benchmarks.speed``
(one untimed pass, then one pass under cProfile) and splits the profile's
own time ("tottime") into:

- C functions cProfile sees as calls: lxml (parse, iter, xpath, tostring),
  regex, numpy, str/dict/list methods, builtins such as ``len`` or ``sorted``;
- Python functions' own time: the bytecode of our modules (and of the
  libraries we call), which includes the C work cProfile does not see as a
  call (lxml property reads such as ``el.tag``, iteration, operators,
  dict and str subscripts).

cProfile therefore gives a lower bound on the C share, and its per-call
overhead inflates the Python side. The sampling view has neither fault:
``--loop N`` runs one untimed pass then N passes (nothing printed but the
CPU time), for py-spy to sample with native frames; ``--split`` reads
py-spy's raw output and files each sample of the timed passes by where its
stack ends: in an interpreted Python frame ("Python-level": bytecode, and
the C API calls py-spy folds into it, such as dict and attribute lookups),
or in the C of lxml, regex, numpy, str methods, allocation/GC, or a
compiled module of ours (a mypyc or Cython build).
Exit status 0; 0 with a note when the datasets are absent.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import re
import sys
import time
from collections import Counter, defaultdict

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


TIMED_FRAME = "timed_passes"  # the function whose samples --split counts
PY_FRAME = re.compile(r"\((?:[^()]*\.py|<frozen [^>]*>):\d+\)$")
C_FAMILIES = (("lxml", "C: lxml (parse, iteration, xpath, element reads)"),
              ("numpy", "C: numpy"), ("_sre", "C: regex"), ("sre_", "C: regex"),
              ("__native", "C: our compiled modules"), ("scrapy_contentex", "C: our compiled modules"))


def timed_passes(pages: list[tuple[str, str | None]], passes: int) -> float:
    """``passes`` warm passes of the public call; CPU seconds."""
    from scrapy_contentex import extract_article

    started = time.process_time()
    for _ in range(passes):
        for html, url in pages:
            extract_article(html, url)
    return time.process_time() - started


def sample_kind(frames: list[str]) -> str:
    """Where one py-spy sample's stack ends: interpreted Python or a family of C code."""
    last_py = max(i for i, frame in enumerate(frames) if PY_FRAME.search(frame))
    native = frames[last_py + 1:]
    if not native:
        return "Python-level (bytecode + C API lookups)"
    joined = " ".join(native)
    for key, label in C_FAMILIES:
        if key in joined:
            return label
    first = native[0].split(" (")[0]
    if first.startswith("unicode"):
        return "C: str methods"
    if first.startswith(("gc_", "malloc", "free", "realloc")) or "dealloc" in first:
        return "C: allocation, GC"
    return "C: other"


def split(path: str) -> int:
    """Print the sampled split of the timed passes from a py-spy raw (collapsed) file."""
    kinds: Counter = Counter()
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            stack, _, count = line.rstrip("\n").rpartition(" ")
            frames = stack.split(";")
            if any(TIMED_FRAME in frame for frame in frames):
                kinds[sample_kind(frames)] += int(count)
    total = sum(kinds.values())
    if not total:
        print(f"no samples of {TIMED_FRAME} in {path}")
        return 0
    print(f"py-spy samples of the warm extract_article passes: {total}")
    print_table(["stack ends in", "samples", "share"],
                [[kind, n, f"{100 * n / total:.1f}%"] for kind, n in kinds.most_common()])
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=None, help="pages per set (default: all)")
    parser.add_argument("--out", default=None, help="also write the raw profile here")
    parser.add_argument("--loop", type=int, default=0, help="no profile: N warm passes for py-spy")
    parser.add_argument("--split", default=None, help="split a py-spy raw file (--format raw)")
    args = parser.parse_args(argv)
    if args.split:
        return split(args.split)
    require_datasets()
    from scrapy_contentex import extract_article

    pages = pages_of(ARTICLE_SETS, args.limit)
    for html, url in pages:  # warm
        extract_article(html, url)
    if args.loop:
        seconds = timed_passes(pages, args.loop)
        print(f"{args.loop} passes over {len(pages)} pages: {1000 * seconds / args.loop / len(pages):.2f} "
              "ms/page CPU (sampled, so slower than unsampled)")
        return 0
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
