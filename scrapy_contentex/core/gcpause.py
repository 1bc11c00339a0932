"""Pause Python's cyclic garbage collector for the length of one extraction.

A product extraction makes tens of thousands of short-lived objects (lxml
element proxies and text leaves, dicts, lists); every 700 of them still
alive the collector walks the young objects, every tenth walk the older
ones too, and now and then the whole heap, which in a crawl process holds
Scrapy, the models and every pending request. On the product pages those
walks were 4-7 % of the call, and they never found anything: the
extraction builds no reference cycles (``tests/test_gcpause.py`` checks
that), so reference counting frees all of it at once when the call ends.

Pausing is process-wide, so it is counted: concurrent calls from several
threads pause once and the collector resumes when the last one ends, and
only if it was enabled when the first one began (a program that disabled
it keeps it disabled). Other threads' objects made during a call are
collected when it ends, as they would be at the next collection anyway.
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
