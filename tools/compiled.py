"""Build, check and time the opt-in compiled builds beside the pure-Python one.

    python -m tools.compiled build DIR [--compilers mypyc,cython]  # DIR/pure, DIR/mypyc, DIR/cython
    python -m tools.compiled compare DIR    # every call's items, pure vs each compiled copy
    python -m tools.compiled test DIR       # the test suite in each compiled copy
    python -m tools.compiled imports DIR    # import time of each copy
    python -m tools.compiled speed DIR [--rounds 2] [args for benchmarks.speed]

Every copy is made from this checkout's files (every file git sees:
package, setup files, tests, benchmarks), so the only difference between
them is the compilation of the modules ``setup.py`` lists. Each copy runs in
its own interpreter (one process cannot import two builds of one package);
``speed`` runs ``benchmarks.speed`` in the copies back to back, the order
reversed from round to round, so each build's ratio to trafilatura is
measured in the same minutes. The datasets are read from
../shared/datasets or $CONTENTEX_DATASETS; without them ``compare`` and
``speed`` say so and exit 0, like the benchmarks.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from benchmarks.common import ROOT, datasets_dir

COMPILERS = ("mypyc", "cython")


def copy_tree(dest: Path) -> None:
    """This checkout's files as git sees them (tracked or new, not ignored): no caches, no builds."""
    if dest.exists():
        shutil.rmtree(dest)
    listed = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=ROOT,
                            capture_output=True, text=True, check=True).stdout.splitlines()
    for name in listed:
        src = ROOT / name
        if src.is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / name)


def builds(base: Path) -> list[str]:
    """The copies under ``base``: "pure" first, then the compiled ones built there."""
    return ["pure"] + [name for name in COMPILERS if (base / name).is_dir()]


def extension_files(root: Path) -> list[Path]:
    """The extension modules a build left in the package (not its build/ scratch)."""
    return sorted(root.joinpath("scrapy_contentex").glob("**/*.so")) + sorted(root.glob("*.so"))


def build(base: Path, compilers: list[str]) -> int:
    """A pure copy and one copy per compiler, compiled in place; print each build's cost."""
    copy_tree(base / "pure")
    for compiler in compilers:
        root = base / compiler
        copy_tree(root)
        env = dict(os.environ, CONTENTEX_COMPILE=compiler)
        wall, cpu = time.perf_counter(), _children_cpu()
        done = subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace"],
                              cwd=root, env=env, capture_output=True, text=True)
        wall, cpu = time.perf_counter() - wall, _children_cpu() - cpu
        (base / f"{compiler}-build.log").write_text(done.stdout + done.stderr, encoding="utf-8")
        if done.returncode:
            print(done.stderr[-3000:])
            print(f"{compiler} build failed (exit {done.returncode}); log in {base}/{compiler}-build.log")
            return 1
        libs = extension_files(root)
        print(f"{compiler} build: {wall:.0f} s wall, {cpu:.0f} s CPU (one run, "
              f"on a shared machine); {len(libs)} extension files, "
              f"{sum(p.stat().st_size for p in libs) / 1024:.0f} KiB unstripped")
    return 0


def _children_cpu() -> float:
    usage = os.times()
    return usage.children_user + usage.children_system


def run_in(base: Path, name: str, args: list[str], **kwargs) -> subprocess.CompletedProcess:
    """``python args`` in one copy, importing that copy's package only."""
    root = base / name
    env = dict(os.environ, PYTHONPATH=str(root))
    if datasets_dir() is not None:
        env.setdefault("CONTENTEX_DATASETS", str(datasets_dir()))
    return subprocess.run([sys.executable, *args], cwd=root, env=env, text=True, **kwargs)


DUMP_CODE = """
import dataclasses, json, sys
import scrapy_contentex as api
from benchmarks.speed import ARTICLE_SETS, PAGETYPE_SETS, PRODUCT_SETS, pages_of
from scrapy_contentex.core.text import region
out = {"region_module": region.__file__, "calls": {}}
for call, sets in (("extract_article", ARTICLE_SETS), ("extract_product", PRODUCT_SETS),
                   ("classify_page", PAGETYPE_SETS)):
    func = getattr(api, call)
    out["calls"][call] = [dataclasses.asdict(func(html, url)) for html, url in pages_of(sets, None)]
json.dump(out, sys.stdout)
"""


def compare(base: Path) -> int:
    """Every public call's item on every benchmark page, pure vs each compiled copy: identical?"""
    dumps = {}
    for name in builds(base):
        done = run_in(base, name, ["-c", DUMP_CODE], capture_output=True)
        if done.returncode:
            print(f"{name} copy failed on the pages:\n{done.stderr[-3000:]}")
            return 1
        dumps[name] = json.loads(done.stdout)
        print(f"{name}: core.text.region from {Path(dumps[name]['region_module']).name}")
    status = 0
    for name in builds(base)[1:]:
        for call, pure_items in dumps["pure"]["calls"].items():
            items = dumps[name]["calls"][call]
            differ = [i for i, (a, b) in enumerate(zip(pure_items, items, strict=True)) if a != b]
            fields = sorted({k for i in differ for k in pure_items[i] if pure_items[i][k] != items[i][k]})
            print(f"{name} vs pure, {call}: {len(pure_items) - len(differ)} of {len(pure_items)} "
                  "items identical" + (f"; differing fields: {', '.join(fields)}" if differ else ""))
            status = status or int(bool(differ))
    return status


def test(base: Path) -> int:
    """pytest in each compiled copy: the tests reach paths the benchmark pages may not."""
    status = 0
    for name in builds(base)[1:]:
        print(f"=== {name} copy: python -m pytest", flush=True)
        code = run_in(base, name, ["-m", "pytest", "-p", "no:cacheprovider"]).returncode
        print(f"=== {name} copy: pytest exit status {code}", flush=True)
        status = status or code
    return status


IMPORT_CODE = """
import time
started = time.process_time()
import scrapy_contentex
from scrapy_contentex.core import metadata
from scrapy_contentex.core.text import combined, learned, region
print(time.process_time() - started)
"""


def imports(base: Path, repeats: int = 7) -> int:
    """CPU time to import the package and what extract_article imports, fresh processes, best of N."""
    names = builds(base)
    times: dict[str, list[float]] = {name: [] for name in names}
    for _ in range(repeats):
        for name in names:
            done = run_in(base, name, ["-c", IMPORT_CODE], capture_output=True, check=True)
            times[name].append(float(done.stdout.strip()))
    for name in names:
        print(f"{name}: import {1000 * min(times[name]):.0f} ms CPU (best of {repeats} fresh "
              f"processes; median {1000 * sorted(times[name])[repeats // 2]:.0f} ms)")
    return 0


def speed(base: Path, rounds: int, extra: list[str]) -> int:
    """benchmarks.speed in each copy, back to back, ``rounds`` times each, order reversed each round."""
    names = builds(base)
    for round_no in range(1, rounds + 1):
        for name in names if round_no % 2 else names[::-1]:
            print(f"\n=== round {round_no}, {name} copy: python -m benchmarks.speed {' '.join(extra)}",
                  flush=True)
            run_in(base, name, ["-m", "benchmarks.speed", *extra], check=True)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=("build", "compare", "test", "imports", "speed"))
    parser.add_argument("dir", type=Path, help="where the copies live")
    parser.add_argument("--compilers", default=",".join(COMPILERS), help="build: which compiled copies")
    parser.add_argument("--rounds", type=int, default=2, help="speed: runs per copy")
    args, extra = parser.parse_known_args(argv)  # the rest goes to benchmarks.speed
    base = args.dir.resolve()
    if args.command == "build":
        compilers = [c for c in args.compilers.split(",") if c]
        unknown = set(compilers) - set(COMPILERS)
        if unknown:
            parser.error(f"unknown compilers {sorted(unknown)}; choose from {', '.join(COMPILERS)}")
        return build(base, compilers)
    if args.command == "test":
        return test(base)
    if args.command == "imports":
        return imports(base)
    if datasets_dir() is None:
        print("datasets not found: expected ../shared/datasets or $CONTENTEX_DATASETS; nothing to measure.")
        return 0
    if args.command == "compare":
        return compare(base)
    return speed(base, args.rounds, [a for a in extra if a != "--"])


if __name__ == "__main__":
    sys.exit(main())
