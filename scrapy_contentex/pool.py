"""A small pool of worker processes that run one function, with per-task timeouts.

Why not ``concurrent.futures.ProcessPoolExecutor``: it cannot stop one task
that runs too long, and one crashed worker breaks the whole executor (every
task in flight fails). Here each worker is a plain child process
(``python -c ...``: a fresh interpreter, never a fork of the crawl process,
whose reactor and threads must not be copied) driven by one thread of the
parent that writes tasks to its stdin and reads the answers from its stdout,
in order. A worker that dies fails only the task it was running
(:class:`WorkerCrashed`); one that runs past the timeout is killed and fails
that task (:class:`WorkerTimeout`); either way a fresh worker takes its place
and gets the tasks that were waiting in the dead one's pipe.

Why a window of tasks in each worker's pipe (``WINDOW``): the crawl's reactor
thread holds the GIL most of the time, and a thread that comes back from a
system call waits for it up to the switch interval (5 ms). With one task at a
time, the worker idled through those waits after every answer (measured: 5 ms
of wall time per 3.2 ms page with an idle reactor, far more with a busy one).
With the next tasks already in its pipe it goes straight on. The parent
thread makes two system calls per task (one write, one read; answers that
arrive together are read at once), and the timeout is kept by a watchdog
thread that wakes a few times a second, not by a ``select`` per read. The
worker has one thread: it reads the tasks the parent wrote when it needs
the next one, so a task written while it works wakes nothing (a reader
thread in the worker woke up for each one, 1.2-2.9 voluntary context
switches per page, against 0.01-0.02 now: ``benchmarks.crawl_hooks``); and
while the parent's pipe is too full to take its answer it keeps reading
tasks, so a big task written while it writes a big answer can never
deadlock the two pipes.

Two drivers of the same workers and pipes. :class:`WorkerPool` (above) runs
a thread per worker and works anywhere. :class:`LoopPool` is driven by a
running asyncio loop (``add_reader`` on each worker's stdout, non-blocking
writes to its stdin, a loop timer for the timeouts): no thread in the parent,
so a crawl on the asyncio reactor (Scrapy's default) hands no page between
threads. The worker middleware uses it whenever the crawl runs such a loop.

No Scrapy import: the workers import only ``scrapy_contentex.work``. A new
worker loads the models while it waits for its first tasks (``warm``: it
runs two made-up pages, a step at a time, and stops warming as soon as a
task arrives); jieba loads lazily, on the first Chinese page. Preloading jieba
would cost each worker about 0.75 s of CPU and 130 MB (measured: dictionary
plus part-of-speech tables) even on crawls where no page needs it, and save
nothing where one does (it loads once per worker either way).
"""

from __future__ import annotations

import asyncio
import importlib
import logging
import os
import pickle
import queue
import select
import signal
import struct
import subprocess
import sys
import threading
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path
from typing import Any

logger = logging.getLogger(__name__)

DEFAULT_FUNCTION = "scrapy_contentex.work:process_page"
# The same work answering plain tuples (``work.to_wire``): what the crawl runs.
WIRE_FUNCTION = "scrapy_contentex.work:process_page_wire"
# Test-only fault injection (read in the parent when the pool starts, passed to
# the workers explicitly): "crash" or "hang" on a task whose first argument
# contains FAULT_MARKER. Unset in normal use.
FAULT_ENV = "CONTENTEX_WORKER_TEST_FAULT"
FAULT_MARKER = b"contentex-test-fault"
# "0" turns the workers' warm-up off (for measuring what it brings; see
# benchmarks.crawl_speed). Unset in normal use: workers warm up.
WARM_ENV = "CONTENTEX_WORKER_WARM"
START_TIMEOUT = 120.0  # a worker that is not ready by then counts as crashed

_HEADER = struct.Struct("!Q")
_PACKAGE_PARENT = str(Path(__file__).resolve().parent.parent)


class WorkerError(Exception):
    """A task failed because of its worker, not because of the function."""

    reason = "worker_error"


class WorkerCrashed(WorkerError):
    reason = "worker_crash"


class WorkerTimeout(WorkerError):
    reason = "worker_timeout"


def usable_cpus() -> int:
    """CPUs this process may run on (its affinity mask where the OS has one)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not Linux
        return os.cpu_count() or 1


def default_workers() -> int:
    """One worker per CPU, minus the one the crawl itself (the reactor) runs on.

    0 on a single CPU: there a worker only adds the copying, so the work
    stays in the crawl process.
    """
    return usable_cpus() - 1


def rss_kb(pid: int) -> int:
    """Resident memory of a process, in KiB (0 where /proc is absent or it is gone)."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


# -- frames on a pipe ----------------------------------------------------------

def _frame(payload: bytes) -> bytes:
    return _HEADER.pack(len(payload)) + payload


class _FrameReader:
    """Length-prefixed frames read from a pipe into a buffer, whatever it holds at once.

    Both ends use it: the parent reads a worker's answers, a worker its tasks."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.eof = False
        self._buffer = bytearray()

    def read_chunk(self) -> bool:
        """One read of what the pipe holds into the buffer; False at EOF.

        Asks for the rest of the frame being read (at least 64 KiB), so a big
        frame takes few system calls. Raises BlockingIOError on a
        non-blocking pipe that holds nothing yet."""
        buffer = self._buffer
        wanted = _HEADER.size
        if len(buffer) >= _HEADER.size:
            wanted = _HEADER.size + _HEADER.unpack_from(buffer)[0] - len(buffer)
        chunk = os.read(self.fd, min(max(wanted, 1 << 16), 1 << 24))
        buffer += chunk
        self.eof = not chunk
        return bool(chunk)

    def next_frame(self) -> bytes | None:
        """The next whole frame already read, or None (no system call)."""
        buffer = self._buffer
        if len(buffer) < _HEADER.size:
            return None
        end = _HEADER.size + _HEADER.unpack_from(buffer)[0]
        if len(buffer) < end:
            return None
        frame = bytes(buffer[_HEADER.size:end])
        del buffer[:end]
        return frame

    def has_frame(self) -> bool:
        """Whether a whole frame is already read (``next_frame`` then returns it)."""
        buffer = self._buffer
        return (len(buffer) >= _HEADER.size
                and len(buffer) >= _HEADER.size + _HEADER.unpack_from(buffer)[0])


# -- the worker side ---------------------------------------------------------

def _resolve(path: str) -> Callable[..., Any]:
    module, _, name = path.partition(":")
    return getattr(importlib.import_module(module), name)


def _inject_fault(fault: str | None, args: tuple) -> None:
    if not fault or not args or not isinstance(args[0], (bytes, str)):
        return
    body = args[0] if isinstance(args[0], bytes) else args[0].encode("utf-8", "replace")
    if FAULT_MARKER not in body:
        return
    if fault == "crash":
        os._exit(70)
    if fault == "hang":
        time.sleep(3600)


# How long a worker waits for a task before it takes a warm-up step: a crawl in
# full swing sends the next task well within this.
WARM_IDLE = 0.05


def _warm_up_steps(function: str) -> list[Callable[[], Any]]:
    """The page work's warm-up steps (``work.warm_up_steps``, for the default
    function and the crawl's ``WIRE_FUNCTION``); none for another function."""
    if function not in (DEFAULT_FUNCTION, WIRE_FUNCTION):
        return []
    from .work import warm_up_steps

    return warm_up_steps()


def _warm_step(steps: list[Callable[[], Any]]) -> None:
    try:
        steps.pop(0)()
    except Exception as exc:  # a warm-up failure costs only the warm-up
        print(f"contentex worker: warm-up step failed: {exc!r}", file=sys.stderr)


def _receive(tasks: _FrameReader) -> None:
    """Read what the parent wrote (non-blocking stdin: nothing there is fine)."""
    try:
        tasks.read_chunk()
    except BlockingIOError:
        pass


def _next_task(tasks: _FrameReader, steps: list[Callable[[], Any]]) -> bytes | None:
    """The next task's frame (None at EOF); while none comes within
    ``WARM_IDLE``, a warm-up step."""
    while (frame := tasks.next_frame()) is None:
        if tasks.eof:
            return None
        if select.select([tasks.fd], [], [], WARM_IDLE if steps else None)[0]:
            _receive(tasks)
        else:
            _warm_step(steps)
    return frame


def _answer(out: int, data: bytes, tasks: _FrameReader) -> None:
    """Write a whole answer to the non-blocking ``out``; while the parent's pipe
    is full, take in the tasks it writes meanwhile.

    Why no reader thread: a thread blocked on stdin woke up for every task
    the parent wrote, on either core, and then waited for the GIL that the
    work holds; here nothing wakes the worker while it works. A parent that
    blocks writing tasks while it has not read this answer yet still gets
    its tasks taken in, so the two pipes never deadlock."""
    view = memoryview(data)
    while view:
        try:
            view = view[os.write(out, view):]
            continue
        except BlockingIOError:
            pass
        readable = select.select([] if tasks.eof else [tasks.fd], [out], [])[0]
        if readable:
            _receive(tasks)


def worker_main(function: str = DEFAULT_FUNCTION, fault: str | None = None,
                warm: bool = False) -> None:
    """Loop of one worker process: frames of pickled args in, pickled results out.

    One thread reads the tasks, runs them and writes the answers (see
    ``_answer``). The frames go to a copy of stdout, and fd 1 becomes
    stderr, so anything a library prints goes to stderr. Ends when the parent closes stdin. With ``warm``,
    the worker runs the first warm-up step (the page-type model, which every
    page needs, so the first task waits no longer for it) at once, and,
    after its first task, the others (the extractors' models) when no task
    came for ``WARM_IDLE`` seconds, a step at a time, checking again before each: a crawl fetches
    its first content pages through index pages, and the worker would
    otherwise load them on the first article or product.
    """
    # Ctrl-C in the terminal reaches the whole process group: the crawl then
    # stops gracefully and still needs its workers; it ends them by closing stdin.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    out = os.dup(sys.stdout.fileno())
    # What anything else writes to stdout, even below Python (a C library, a
    # child process), goes to stderr: fd 1 no longer reaches the frames' pipe.
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    sys.stdout = sys.stderr
    tasks = _FrameReader(sys.stdin.fileno())
    os.set_blocking(tasks.fd, False)
    os.set_blocking(out, False)
    steps = _warm_up_steps(function) if warm else []
    _serve(tasks, out, _resolve(function), steps, fault)


def _serve(tasks: _FrameReader, out: int, func: Callable[..., Any],
           steps: list[Callable[[], Any]], fault: str | None = None) -> None:
    """Say ready, take the first warm-up step, then answer tasks until EOF."""
    _answer(out, _frame(pickle.dumps(("ready", os.getpid()))), tasks)
    if steps:
        _warm_step(steps)
    # The other steps wait for the first task: a worker started ahead of its
    # crawl (``prestart``) idles until the first page comes, and a step then
    # under way would delay it.
    started = False
    while (frame := _next_task(tasks, steps if started else [])) is not None:
        started = True
        args = pickle.loads(frame)
        _inject_fault(fault, args)
        try:
            answer = ("ok", func(*args))
        except Exception as exc:  # the function's own error: reported, worker lives on
            answer = ("error", f"{type(exc).__name__}: {exc}")
        _answer(out, _frame(pickle.dumps(answer, protocol=pickle.HIGHEST_PROTOCOL)), tasks)


# -- the parent side ---------------------------------------------------------

def _spawn(function: str, fault: str | None, warm: bool) -> subprocess.Popen:
    """A new worker process (see ``worker_main``)."""
    env = dict(os.environ)
    # Import the same scrapy_contentex as the parent, wherever it lives.
    env["PYTHONPATH"] = os.pathsep.join(
        p for p in (_PACKAGE_PARENT, env.get("PYTHONPATH")) if p)
    code = ("from scrapy_contentex.pool import worker_main; "
            f"worker_main({function!r}, {fault!r}, {warm!r})")
    return subprocess.Popen(
        [sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        env=env, bufsize=0)


# Worker processes started ahead of their pool (``prestart``), by what they run.
_SPARES: dict[tuple[str, str | None, bool], list[subprocess.Popen]] = {}


def _fault_and_warm(fault: str | None, warm: bool | None) -> tuple[str | None, bool]:
    """The test fault and the warm-up a pool runs with, the environment's by default."""
    return (fault if fault is not None else os.environ.get(FAULT_ENV) or None,
            warm if warm is not None else os.environ.get(WARM_ENV) != "0")


def prestart(size: int, function: str = DEFAULT_FUNCTION, fault: str | None = None,
             warm: bool | None = None) -> None:
    """Start ``size`` workers now, for a pool of the same function made later in
    this process (its first workers are then these, already loading).

    Why: a crawl builds its components (where the add-on calls this) a few
    tenths of a second before its first page arrives, and a worker needs
    about as long to start and load the page-type model; the crawl's first
    page no longer waits for that. Processes no pool takes end with this
    process (their stdin closes).
    """
    key = (function, *_fault_and_warm(fault, warm))
    spares = _SPARES.setdefault(key, [])
    spares[:] = [proc for proc in spares if proc.poll() is None]
    while len(spares) < size:
        spares.append(_spawn(*key))


def _spare(function: str, fault: str | None, warm: bool) -> subprocess.Popen | None:
    """A pre-started worker process for these arguments that is still alive, if any."""
    spares = _SPARES.get((function, fault, warm))
    while spares:
        proc = spares.pop(0)
        if proc.poll() is None:
            return proc
    return None


class _Worker(_FrameReader):
    """One child process, the pipe ends the parent holds, and what it is running
    (its answers are read as frames from its stdout)."""

    def __init__(self, function: str, fault: str | None, warm: bool = False) -> None:
        self.proc = _spare(function, fault, warm) or _spawn(function, fault, warm)
        super().__init__(self.proc.stdout.fileno())
        self.tasks = 0  # answered
        self.sent = 0
        # When the oldest unanswered task began (None: nothing to do); the
        # watchdog kills the worker when that is longer ago than the timeout.
        self.running_since: float | None = None
        self.timed_out = False

    def read(self, deadline: float | None = None) -> bytes | None:
        """The next frame, or None on EOF.

        Reads whatever the pipe holds, so answers that arrived together cost
        one system call. With a deadline (start-up only), raises TimeoutError
        past it; tasks rely on the watchdog instead.
        """
        while (frame := self.next_frame()) is None:
            if deadline is not None:
                remaining = deadline - time.monotonic()
                if remaining <= 0 or not select.select([self.fd], [], [], remaining)[0]:
                    raise TimeoutError
            if not self.read_chunk():
                return None
        return frame

    def write_ahead(self, pending: deque, window: deque, size: int, max_tasks: int) -> bytes:
        """Move pending tasks into ``window`` (up to ``size`` and ``max_tasks``) and
        return their frames; a task whose future is done (cancelled while it
        waited) is dropped, one whose arguments do not pickle fails alone."""
        frames: list[bytes] = []
        while pending and len(window) < size and not (max_tasks and self.sent >= max_tasks):
            future, args = pending.popleft()
            if future.done():
                continue
            try:
                frames.append(_frame(pickle.dumps(args, protocol=pickle.HIGHEST_PROTOCOL)))
            except Exception as exc:  # e.g. arguments that do not pickle: this task only
                future.set_exception(exc)
                continue
            window.append((future, args))
            self.sent += 1
        if frames and self.running_since is None:
            self.running_since = time.monotonic()
        return b"".join(frames)

    def answered(self, more: bool) -> bool:
        """Count an answer; the next task's clock starts now if ``more`` are
        written. Returns whether to sample the worker's memory (every 100th)."""
        self.tasks += 1
        self.running_since = time.monotonic() if more else None
        return self.tasks % 100 == 0

    def send(self, data: bytes) -> None:
        """Write ``data`` whole (the worker drains its stdin, so this never blocks for long)."""
        view = memoryview(data)
        while view:
            view = view[os.write(self.proc.stdin.fileno(), view):]

    def rss_kb(self) -> int:
        return rss_kb(self.proc.pid)

    def stop(self, kill: bool = False) -> int | None:
        """Close the pipes and end the process; returns its exit code."""
        if kill:
            self.proc.kill()
        for stream in (self.proc.stdin, self.proc.stdout):
            try:
                stream.close()
            except OSError:
                pass
        try:
            return self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            return self.proc.wait()


# Tasks written ahead into a worker's pipe (see the module docstring); the
# caller should keep about one more per worker in flight so a thread finds
# the next task waiting when an answer comes.
WINDOW = 3

_Task = tuple[Future, tuple]


class _Pool:
    """What both drivers share: their settings, checked (see :class:`WorkerPool`),
    their counters and the timeout check."""

    _workers: list

    def __init__(self, size: int, timeout: float | None, function: str, max_tasks: int,
                 fault: str | None, warm: bool | None, window: int) -> None:
        if size < 1:
            raise ValueError(f"pool size must be >= 1, not {size}")
        if window < 1:
            raise ValueError(f"window must be >= 1, not {window}")
        self.size = size
        self.timeout = timeout
        self.function = function
        self.max_tasks = max_tasks
        self.window = window
        self.fault, self.warm = _fault_and_warm(fault, warm)
        self.restarts = 0
        self.peak_rss_kb = 0

    def _note_rss(self, worker: _Worker) -> None:
        self.peak_rss_kb = max(self.peak_rss_kb, worker.rss_kb())

    def _watch_period(self) -> float:
        assert self.timeout
        return min(0.5, self.timeout / 10)

    def _kill_overdue(self) -> None:
        """Kill each worker whose current task has run past the timeout; reading
        its EOF then fails that task with WorkerTimeout."""
        now = time.monotonic()
        for worker in self._workers:
            since = worker.running_since if worker is not None else None
            if since is not None and now - since > self.timeout and not worker.timed_out:
                worker.timed_out = True
                worker.proc.kill()


def _lost_task_error(timed_out: bool, timeout: float | None, code: int | None) -> WorkerError:
    """What the task a worker died on fails with."""
    if timed_out:
        return WorkerTimeout(f"worker ran past {timeout:g} s; killed")
    return WorkerCrashed(f"worker died (exit code {code})")


class WorkerPool(_Pool):
    """``size`` worker processes running ``function(*args)`` for submitted tasks.

    ``submit`` never blocks; bound the tasks in flight in the caller (the
    middleware waits on a semaphore). ``timeout`` is per task, in seconds
    (None = no limit), counted from when the worker could start on it and
    checked a few times a second. ``max_tasks`` restarts a worker after
    that many tasks (0 = never), which caps memory that a long crawl could
    otherwise fragment. ``warm`` (default: on, unless the environment sets
    ``CONTENTEX_WORKER_WARM=0``) lets each new worker load the models while
    it has no task. ``window``: tasks written ahead into a worker's pipe.
    """

    def __init__(self, size: int, timeout: float | None = None,
                 function: str = DEFAULT_FUNCTION, max_tasks: int = 0,
                 fault: str | None = None, warm: bool | None = None,
                 window: int = WINDOW) -> None:
        super().__init__(size, timeout, function, max_tasks, fault, warm, window)
        self._tasks: queue.SimpleQueue[_Task | None] = queue.SimpleQueue()
        self._workers: list[_Worker | None] = [None] * size
        self._lock = threading.Lock()
        self._closed = False
        self._stopped = threading.Event()
        self._threads = [threading.Thread(target=self._run, args=(i,), daemon=True,
                                          name=f"contentex-pool-{i}") for i in range(size)]
        if timeout:
            self._threads.append(threading.Thread(target=self._watch, daemon=True,
                                                  name="contentex-pool-watchdog"))
        for thread in self._threads:
            thread.start()

    def submit(self, *args: Any) -> Future:
        """Queue ``function(*args)``; the future holds its result or a WorkerError."""
        if self._closed:
            raise RuntimeError("pool is shut down")
        future: Future = Future()
        self._tasks.put((future, args))
        return future

    def rss_kb(self) -> int:
        """Current resident memory of all workers, KiB."""
        with self._lock:
            workers = [w for w in self._workers if w is not None]
        return sum(w.rss_kb() for w in workers)

    def shutdown(self, wait: bool = True) -> None:
        """Stop the threads and the workers; tasks still queued are cancelled."""
        if self._closed:
            return
        self._closed = True
        for _ in range(self.size):
            self._tasks.put(None)
        if wait:
            for thread in self._threads[:self.size]:
                thread.join(timeout=(self.timeout or 30) * self.window + 10)
        self._stopped.set()
        while True:  # whatever no thread picked up
            try:
                entry = self._tasks.get_nowait()
            except queue.Empty:
                break
            if entry is not None:
                entry[0].cancel()

    def __enter__(self) -> WorkerPool:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.shutdown()

    # -- the watchdog --------------------------------------------------------

    def _watch(self) -> None:
        """The timeout check, a few times a second in its own thread."""
        while not self._stopped.wait(self._watch_period()):
            with self._lock:
                self._kill_overdue()

    # -- one thread per worker ---------------------------------------------

    def _start(self, slot: int) -> _Worker:
        worker = _Worker(self.function, self.fault, self.warm)
        frame = None
        try:
            frame = worker.read(time.monotonic() + START_TIMEOUT)
        except TimeoutError:
            pass
        if frame is None:
            code = worker.stop(kill=True)
            raise WorkerCrashed(f"worker did not start (exit code {code})")
        with self._lock:
            self._workers[slot] = worker
        return worker

    def _retire(self, slot: int, kill: bool) -> int | None:
        with self._lock:
            worker, self._workers[slot] = self._workers[slot], None
        if worker is None:
            return None
        self._note_rss(worker)
        return worker.stop(kill=kill)

    def _run(self, slot: int) -> None:
        """Keep this slot's worker fed: take tasks, write them ahead, read the answers.

        One turn: the answers that arrived (at least one), then the next tasks
        written, and only then the futures settled, so the worker has its next
        task before the caller's wake-up (a system call, and a wait for the GIL)."""
        try:
            self._start(slot)  # ready before the first task: start-up is not task time
        except (WorkerError, OSError) as exc:  # retried at the first task
            logger.warning("contentex: worker did not start: %s", exc)
        window: deque[_Task] = deque()  # written to the worker, not answered yet
        pending: deque[_Task] = deque()  # taken from the queue, not written yet
        closing = False
        while True:
            closing = self._take(pending, len(window), closing, wait=True)
            if not window and not pending:
                if closing:
                    break
                continue
            answers: list[tuple[Future, Any]] = []
            try:
                if window:
                    self._answers(slot, window, pending, answers)
                    closing = self._take(pending, len(window), closing)
                self._write(slot, window, pending)
            except Exception as exc:  # unforeseen: fail the oldest task, keep the others
                if window:
                    answers.append((window.popleft()[0], exc))
            for future, outcome in answers:
                _settle(future, outcome)
        self._retire(slot, kill=False)

    def _take(self, pending: deque[_Task], written: int, closing: bool,
              wait: bool = False) -> bool:
        """Move queued tasks to ``pending`` (with ``wait``, waiting for one when
        this slot has none); returns whether the pool is closing."""
        block = wait and not written and not pending
        while not closing and written + len(pending) < self.window:
            try:
                entry = self._tasks.get() if block else self._tasks.get_nowait()
            except queue.Empty:
                break
            block = False
            if entry is None:
                return True
            if entry[0].set_running_or_notify_cancel():
                pending.append(entry)
        return closing

    def _write(self, slot: int, window: deque[_Task], pending: deque[_Task]) -> None:
        """Write pending tasks to the worker, up to the window (and ``max_tasks``)."""
        if not pending:
            return
        try:
            worker = self._workers[slot] or self._start(slot)
        except WorkerError as exc:
            pending.popleft()[0].set_exception(exc)
            return
        data = worker.write_ahead(pending, window, self.window, self.max_tasks)
        if not data:
            return
        try:
            worker.send(data)
        except OSError:  # broken pipe: the worker died; reading its answer tells
            pass

    def _answers(self, slot: int, window: deque[_Task], pending: deque[_Task],
                 answers: list[tuple[Future, Any]]) -> None:
        """The answers of the oldest tasks: one read (waiting for the first), then
        every answer already there; each future, with its value or exception,
        goes to ``answers`` as soon as it leaves the window."""
        worker = self._workers[slot]
        assert worker is not None
        first = len(answers)
        while window and (len(answers) == first or worker.has_frame()):
            try:
                frame = worker.read()
            except OSError:
                frame = None
            future, _ = window.popleft()
            if frame is None:  # the worker died (or the watchdog killed it) on this task
                timed_out = worker.timed_out
                code = self._retire(slot, kill=True)
                self.restarts += 1
                pending.extendleft(reversed(window))  # never started: the next worker runs them
                window.clear()
                answers.append((future, _lost_task_error(timed_out, self.timeout, code)))
                break
            if worker.answered(more=bool(window)):
                self._note_rss(worker)
            if self.max_tasks and worker.tasks >= self.max_tasks and not window:
                self._retire(slot, kill=False)
            answers.append((future, _outcome(frame)))


def _outcome(frame: bytes) -> Any:
    """An answer frame as ("ok", value), or the exception its task fails with."""
    try:
        status, value = pickle.loads(frame)
    except Exception as exc:  # e.g. a result class the parent cannot import
        return exc
    return ("ok", value) if status == "ok" else RuntimeError(value)


def _settle(future: Future, outcome: Any) -> None:
    """Set a future from an answer: ("ok", value), or an exception."""
    if isinstance(outcome, BaseException):
        future.set_exception(outcome)
    else:
        future.set_result(outcome[1])


# -- the event-loop driver -----------------------------------------------------

class _LoopWorker(_Worker):
    """A worker and what the loop driver keeps about it: its window of tasks
    written and not answered, the bytes not yet written, whether it is ready."""

    def __init__(self, function: str, fault: str | None, warm: bool = False) -> None:
        super().__init__(function, fault, warm)
        self.window: deque[tuple[asyncio.Future, tuple]] = deque()
        self.outbox = bytearray()
        self.writing = False  # a writer is registered for stdin
        self.ready = False
        self.start_timer: asyncio.TimerHandle | None = None
        self.stdin_fd = self.proc.stdin.fileno()
        os.set_blocking(self.fd, False)
        os.set_blocking(self.stdin_fd, False)


class LoopPool(_Pool):
    """The pool of :class:`WorkerPool`, driven by a running asyncio loop: no thread.

    Why: in a crawl on the asyncio reactor, the thread driver hands every page
    over twice between the reactor's thread and a pool thread (each a wake-up
    and a wait for the GIL). Here the loop itself watches each worker's
    stdout (``add_reader``) and writes its stdin without blocking (whatever
    the pipe cannot take waits for ``add_writer``); answers settle asyncio
    futures of the same loop directly. Same guarantees as the thread driver:
    a window of tasks written ahead, a crash or a timeout (a loop timer in
    place of the watchdog thread) fails only the task the worker was on and
    a fresh worker gets the tasks behind it, ``max_tasks`` restarts.

    Every method must be called in the loop's thread. ``submit`` returns an
    ``asyncio.Future``. Shutting down finishes the tasks already written
    (blocking reads, bounded by the timeout), cancels the others (a crawl
    has none left by then) and kills the idle workers.
    """

    def __init__(self, size: int, timeout: float | None = None,
                 function: str = DEFAULT_FUNCTION, max_tasks: int = 0,
                 fault: str | None = None, warm: bool | None = None,
                 window: int = WINDOW, loop: asyncio.AbstractEventLoop | None = None) -> None:
        super().__init__(size, timeout, function, max_tasks, fault, warm, window)
        self.loop = loop or asyncio.get_running_loop()
        self._pending: deque[tuple[asyncio.Future, tuple]] = deque()  # not written yet
        self._workers: list[_LoopWorker | None] = [None] * size
        self._closed = False
        self._watchdog: asyncio.TimerHandle | None = None
        for slot in range(size):
            self._start(slot)  # ready before the first task: start-up is not task time
        if timeout:
            self._watchdog = self.loop.call_later(self._watch_period(), self._watch)

    def submit(self, *args: Any) -> asyncio.Future:
        """Queue ``function(*args)``; the future holds its result or a WorkerError."""
        if self._closed:
            raise RuntimeError("pool is shut down")
        future = self.loop.create_future()
        self._pending.append((future, args))
        for slot in range(self.size):
            if not self._pending:
                break
            self._feed(slot)
        return future

    def rss_kb(self) -> int:
        """Current resident memory of all workers, KiB."""
        return sum(w.rss_kb() for w in self._workers if w is not None)

    def shutdown(self, wait: bool = True) -> None:
        """Stop the workers; tasks not written yet are cancelled, and written
        ones are finished first with ``wait`` (else cancelled too)."""
        if self._closed:
            return
        self._closed = True
        if self._watchdog is not None:
            self._watchdog.cancel()
        for slot, worker in enumerate(self._workers):
            if worker is None:
                continue
            self._unwatch(worker)
            if wait and worker.ready:
                self._finish(worker)
            for future, _ in worker.window:
                future.cancel()
            worker.window.clear()
            # Nothing is left for it to do: killed, the crawl does not wait for
            # its interpreter's teardown (about 60 ms with the models loaded).
            self._retire(slot, kill=True)
        while self._pending:
            self._pending.popleft()[0].cancel()

    def __enter__(self) -> LoopPool:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.shutdown()

    # -- starting and stopping workers ------------------------------------------

    def _start(self, slot: int) -> None:
        """A fresh worker in ``slot``; it takes tasks once its "ready" frame came."""
        try:
            worker = _LoopWorker(self.function, self.fault, self.warm)
        except OSError as exc:  # e.g. out of processes: fail one task, or wait for one
            logger.warning("contentex: worker did not start: %s", exc)
            if self._pending:
                self._pending.popleft()[0].set_exception(WorkerCrashed(f"worker did not start: {exc}"))
            return
        self._workers[slot] = worker
        worker.start_timer = self.loop.call_later(START_TIMEOUT, worker.proc.kill)
        self.loop.add_reader(worker.fd, self._readable, slot, worker)

    def _unwatch(self, worker: _LoopWorker) -> None:
        self.loop.remove_reader(worker.fd)
        if worker.writing:
            self.loop.remove_writer(worker.stdin_fd)
            worker.writing = False
        if worker.start_timer is not None:
            worker.start_timer.cancel()

    def _retire(self, slot: int, kill: bool) -> int | None:
        worker, self._workers[slot] = self._workers[slot], None
        if worker is None:
            return None
        self._unwatch(worker)
        self._note_rss(worker)
        return worker.stop(kill=kill)

    def _finish(self, worker: _LoopWorker) -> None:
        """Answer the written tasks with blocking reads (shutdown only)."""
        os.set_blocking(worker.fd, True)
        os.set_blocking(worker.stdin_fd, True)
        try:
            worker.send(bytes(worker.outbox))
            deadline = time.monotonic() + (self.timeout or 30) * max(len(worker.window), 1)
            while worker.window and (frame := worker.read(deadline)) is not None:
                _settle_once(worker.window.popleft()[0], _outcome(frame))
        except (OSError, TimeoutError):  # the rest is cancelled by the caller
            pass

    # -- the loop's callbacks ---------------------------------------------------

    def _readable(self, slot: int, worker: _LoopWorker) -> None:
        """Read what the worker wrote; settle the answered tasks after the next
        ones are written (so the worker goes straight on)."""
        try:
            alive = worker.read_chunk()
        except BlockingIOError:
            return
        except OSError:
            alive = False
        if not alive:
            self._lost(slot, worker)
            return
        answers: list[tuple[asyncio.Future, Any]] = []
        while (frame := worker.next_frame()) is not None:
            if not worker.ready:
                worker.ready = True
                if worker.start_timer is not None:
                    worker.start_timer.cancel()
                continue
            future, _ = worker.window.popleft()
            if worker.answered(more=bool(worker.window)):
                self._note_rss(worker)
            answers.append((future, frame))
        if self.max_tasks and worker.tasks >= self.max_tasks and not worker.window:
            self._retire(slot, kill=False)
            self._start(slot)
        self._feed(slot)
        for future, frame in answers:
            _settle_once(future, _outcome(frame))

    def _lost(self, slot: int, worker: _LoopWorker) -> None:
        """EOF: the worker died (or was killed at the timeout). The task it was
        on fails; those written behind it go back first in line; a new one starts."""
        code = self._retire(slot, kill=True)
        window = worker.window
        if not worker.ready:
            error: WorkerError = WorkerCrashed(f"worker did not start (exit code {code})")
            logger.warning("contentex: %s", error)
            if self._pending:  # one task per failed start, as the thread driver does
                _settle_once(self._pending.popleft()[0], error)
        else:
            self.restarts += 1
            if window:
                future, _ = window.popleft()
                self._pending.extendleft(reversed(window))
                window.clear()
                _settle_once(future, _lost_task_error(worker.timed_out, self.timeout, code))
        if not self._closed and (worker.ready or self._pending):
            self._start(slot)

    def _feed(self, slot: int) -> None:
        """Write pending tasks to the slot's worker, up to the window (and ``max_tasks``)."""
        worker = self._workers[slot]
        if worker is None:
            if self._pending and not self._closed:
                self._start(slot)
            return
        if not worker.ready:
            return
        data = worker.write_ahead(self._pending, worker.window, self.window, self.max_tasks)
        if not data:
            return
        if worker.outbox:  # the loop writes it after what waits already
            worker.outbox += data
            return
        try:  # straight to the pipe: only what it does not take now is copied
            data = data[os.write(worker.stdin_fd, data):]
        except BlockingIOError:
            pass
        except OSError:  # broken pipe: the worker died; its EOF tells
            return
        if data:
            worker.outbox += data
            self._flush(worker)

    def _flush(self, worker: _LoopWorker) -> None:
        """Write what the pipe takes now; the loop calls back when it takes more."""
        try:
            del worker.outbox[:os.write(worker.stdin_fd, worker.outbox)]
        except BlockingIOError:
            pass
        except OSError:  # broken pipe: the worker died; its EOF tells
            worker.outbox.clear()
        if worker.outbox and not worker.writing:
            self.loop.add_writer(worker.stdin_fd, self._flush, worker)
            worker.writing = True
        elif not worker.outbox and worker.writing:
            self.loop.remove_writer(worker.stdin_fd)
            worker.writing = False

    def _watch(self) -> None:
        """The timeout check, a few times a second on the loop's timer."""
        self._kill_overdue()
        self._watchdog = self.loop.call_later(self._watch_period(), self._watch)


def _settle_once(future: asyncio.Future, outcome: Any) -> None:
    """Settle an asyncio future unless its waiter gave up (cancelled) already."""
    if not future.done():
        _settle(future, outcome)
