"""Build, check and time the opt-in mypyc build beside the pure-Python one.

    python -m tools.compiled build DIR          # DIR/pure and DIR/compiled, same files
    python -m tools.compiled compare DIR        # outputs of both copies, page by page
    python -m tools.compiled speed DIR [--rounds 2] [args for benchmarks.speed]
    python -m tools.compiled imports DIR        # import time of each copy
    python -m tools.compiled test DIR           # the test suite on the compiled copy

Both copies are made from this checkout's files (every file git sees:
package, setup files, tests, benchmarks), so the only difference between
them is the compilation of the modules ``setup.py`` lists. Each copy runs in its own interpreter (one
process cannot import two builds of one package); ``speed`` runs
``benchmarks.speed`` in the two copies back to back, alternating, so each
build's ratio to trafilatura is measured in the same minutes. The datasets
are read from /work/shared/datasets or $CONTENTEX_DATASETS; without them
``compare`` and ``speed`` say so and exit 0, like the benchmarks.
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

BUILDS = ("pure", "compiled")


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


def build(base: Path) -> int:
    """Copy twice, compile the second copy in place; print the build's cost."""
    for name in BUILDS:
        copy_tree(base / name)
    env = dict(os.environ, CONTENTEX_COMPILE="1")
    wall, cpu = time.perf_counter(), _children_cpu()
    done = subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace"],
                          cwd=base / "compiled", env=env, capture_output=True, text=True)
    wall, cpu = time.perf_counter() - wall, _children_cpu() - cpu
    (base / "build.log").write_text(done.stdout + done.stderr, encoding="utf-8")
    if done.returncode:
        print(done.stdout[-3000:], done.stderr[-3000:], sep="\n")
        print(f"build failed (exit {done.returncode}); log in {base / 'build.log'}")
        return 1
    libs = sorted((base / "compiled").glob("**/*.so"))
    libs = [p for p in libs if "build" not in p.relative_to(base / "compiled").parts]
    print(f"mypyc build: {wall:.0f} s wall, {cpu:.0f} s CPU (mypy + C compiler, one run)")
    for lib in libs:
        print(f"  {lib.relative_to(base / 'compiled')}: {lib.stat().st_size / 1024:.0f} KiB")
    print(f"  total: {sum(p.stat().st_size for p in libs) / 1024:.0f} KiB of extension modules")
    return 0


def _children_cpu() -> float:
    usage = os.times()
    return usage.children_user + usage.children_system


def run_in(base: Path, name: str, args: list[str], **kwargs) -> subprocess.CompletedProcess:
    """``python args`` in one copy, importing that copy's package only."""
    root = base / name
    env = dict(os.environ, PYTHONPATH=str(root))
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
    """Every public call's item on every benchmark page, pure vs compiled: identical?"""
    dumps = {}
    for name in BUILDS:
        done = run_in(base, name, ["-c", DUMP_CODE], capture_output=True)
        if done.returncode:
            print(f"{name} build failed on the pages:\n{done.stderr[-3000:]}")
            return 1
        dumps[name] = json.loads(done.stdout)
        print(f"{name}: core.text.region from {Path(dumps[name]['region_module']).name}")
    status = 0
    for call, pure_items in dumps["pure"]["calls"].items():
        compiled_items = dumps["compiled"]["calls"][call]
        differ = [i for i, (a, b) in enumerate(zip(pure_items, compiled_items, strict=True)) if a != b]
        fields = sorted({k for i in differ for k in pure_items[i]
                         if pure_items[i][k] != compiled_items[i][k]})
        print(f"{call}: {len(pure_items) - len(differ)} of {len(pure_items)} items identical"
              + (f"; differing fields: {', '.join(fields)}" if differ else ""))
        status = status or bool(differ)
    return status


def speed(base: Path, rounds: int, extra: list[str]) -> int:
    """benchmarks.speed in each copy, alternating, ``rounds`` times each."""
    for round_no in range(1, rounds + 1):
        order = BUILDS if round_no % 2 else BUILDS[::-1]
        for name in order:
            print(f"\n=== round {round_no}, {name} build: python -m benchmarks.speed {' '.join(extra)}",
                  flush=True)
            run_in(base, name, ["-m", "benchmarks.speed", *extra], check=True)
    return 0


IMPORT_CODE = """
import time
started = time.process_time()
import scrapy_contentex
from scrapy_contentex.core import metadata
from scrapy_contentex.core.text import combined, learned, region
print(time.process_time() - started)
"""


def imports(base: Path, repeats: int = 7) -> int:
    """CPU time to import the package and the modules extract_article uses, fresh process, best of N."""
    times: dict[str, list[float]] = {name: [] for name in BUILDS}
    for _ in range(repeats):
        for name in BUILDS:
            done = run_in(base, name, ["-c", IMPORT_CODE], capture_output=True, check=True)
            times[name].append(float(done.stdout.strip()))
    for name in BUILDS:
        print(f"{name}: import {1000 * min(times[name]):.0f} ms CPU (best of {repeats} fresh "
              f"processes; median {1000 * sorted(times[name])[repeats // 2]:.0f} ms)")
    return 0


def test(base: Path) -> int:
    """pytest in the compiled copy: its tests exercise paths the benchmark pages may not."""
    return run_in(base, "compiled", ["-m", "pytest", "-q", "-p", "no:cacheprovider"]).returncode


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=("build", "compare", "speed", "imports", "test"))
    parser.add_argument("dir", type=Path, help="where the two copies live")
    parser.add_argument("--rounds", type=int, default=2, help="speed: runs per build")
    args, extra = parser.parse_known_args(argv)  # the rest goes to benchmarks.speed
    base = args.dir.resolve()
    if args.command == "build":
        return build(base)
    if args.command == "imports":
        return imports(base)
    if args.command == "test":
        return test(base)
    if datasets_dir() is None:
        print("datasets not found: expected ../shared/datasets or $CONTENTEX_DATASETS; nothing to measure.")
        return 0
    if args.command == "compare":
        return compare(base)
    return speed(base, args.rounds, [a for a in extra if a != "--"])


if __name__ == "__main__":
    sys.exit(main())
