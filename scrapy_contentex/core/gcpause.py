"""Pause Python's cyclic garbage collector for the length of one extraction.

A product extraction makes tens of thousands of short-lived objects (lxml
element proxies and text leaves, dicts, lists). Every 700 allocations the
collector walks the young ones, every tenth walk the older ones, and the
objects that live through the call (the page's leaves) are promoted until
they set off a walk of the whole heap, which in a long-running process
holds Scrapy, the models and every pending request. Those walks never find
anything here: the extraction builds no reference cycles
(``tests/test_gcpause.py`` checks that), so reference counting frees all
of it when the call ends, and nothing is left to collect or promote.

Measured side by side in one process after the article race of
``benchmarks.speed`` (130,000 tracked objects, 2-3 whole-heap walks over
the 127 product pages): the paused call took 0.915x the unpaused one's
time with each page seen once, 0.94x at best of 3. With a small heap (no
article race before) the two were within noise (0.996x-1.018x).

Pausing is process-wide, so it is counted: concurrent calls from several
threads pause once and the collector resumes when the last one ends, and
only if it was enabled when the first one began (a program that disabled
it keeps it disabled). Other threads' objects made during a call are
collected after it ends.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_lock = threading.Lock()
_holders = 0
_resume = False


@contextmanager
def gc_paused() -> Iterator[None]:
    """Run the ``with`` body with the cyclic collector off, then restore it."""
    global _holders, _resume
    with _lock:
        if _holders == 0:
            _resume = gc.isenabled()
            gc.disable()
        _holders += 1
    try:
        yield
    finally:
        with _lock:
            _holders -= 1
            if _holders == 0 and _resume:
                gc.enable()
