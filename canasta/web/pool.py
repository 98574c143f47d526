"""Hints and reviews of the web table, computed in a bounded pool of worker processes.

The advice's simulation is compiled code that holds the interpreter lock while it runs: run in
the server's own threads, one client's hints queued every other player's moves behind them
(a move went from 5 ms to 3.9 s with 100 hints in flight). So the server only builds each
request's work item (the position a hint is about, a finished hand's record for a review:
small, picklable) and hands it to :class:`AdvicePool`; the workers (separate processes, run at a
lower priority than the server) do the simulation. What bounds it (docs/web.md, limits):

- each client at most :data:`PER_CLIENT` items in the pool at once and the server at most
  :data:`QUEUE`; more wait their turn in order, as asyncio waiters (no thread, no CPU: a
  client holding 50 hints in flight costs the other players nothing), at most
  :data:`WAITING` of a client's (429 past it) and :data:`BACKLOG` of all (503);
- each item two time caps once the warm-up is over: :data:`WAIT_CAP` for its place, then in
  the pool a hint's budget plus :data:`GRACE`, a review's :data:`REVIEW_CAP` plus it (503
  with one line past either); a hand's review divides :data:`REVIEW_CAP` among its decisions
  so it ends by itself (a game's review is its hands', each one item, kept per hand);
- no item is sent before the server's warm-up has filled numba's cache (the workers then load
  the kernels rather than compile them a second time, racing the warm-up to write them).

The executor is a seam: ``AdvicePool(executor=...)`` takes any ``concurrent.futures.Executor``
(the tests pass one they hold), by default the process's one ``ProcessPoolExecutor`` of
:data:`WORKERS` spawned processes, started on the first item.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import threading
import time
from collections import deque
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from starlette.exceptions import HTTPException

__all__ = ["AdvicePool", "advise_job", "review_job"]

PER_CLIENT = 2  #: hints and reviews of one client in the pool at once
WAITING = 64  #: more of one client's that may wait their turn (no thread, no CPU)
BACKLOG = 1024  #: more of every client's together that may wait their turn
WAIT_CAP = 60.0  #: seconds an item may wait for its place (long: a held request costs nothing,
#: a refused one is sent again, and every refusal costs the server a request's work)
REVIEW_CAP = 20.0  #: seconds of simulation a hand's review may spend (its decisions share it)
GRACE = 15.0  #: seconds past its own budget an item may wait (the queue, a worker's start)
COLD_CAP = 600.0  #: seconds the first item of a fresh pool may take: its worker loads (or, on an
#: empty cache, compiles: minutes of a core) the advice's kernels before it simulates anything
NICE = 10  #: how much lower the workers' priority is than the server's (Unix)


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # pragma: no cover - macOS, Windows
        return os.cpu_count() or 1


WORKERS = max(1, _cores() - 1)  #: worker processes: a core is left to the server's moves
#: hints and reviews in the pool at once, every client together: one more than the workers, so
#: a worker never idles and an item's time cap is not spent queued behind others in the pool
QUEUE = WORKERS + 1


def _watch_parent(parent: int, every: float = 1.0) -> None:
    """In a worker: end the process once its server has gone (it is then re-parented), so a
    server stopped in any way leaves no idle worker behind."""
    while os.getppid() == parent:
        time.sleep(every)
    os._exit(0)


def _start_worker() -> None:
    """A worker runs below the server's priority (a player's move never waits for a hint), and
    ends with its server."""
    with contextlib.suppress(AttributeError, OSError):
        os.nice(NICE)
    threading.Thread(target=_watch_parent, args=(os.getppid(),), daemon=True).start()


def _prime(bot: str) -> None:
    """In a worker: load what a hint runs from numba's cache (a worker's first hint would
    otherwise spend seconds on it, against its time cap)."""
    from canasta.web.warmup import warm

    with contextlib.suppress(Exception):  # best effort: a failure only costs the first hint time
        warm(bot)


def advise_job(pos, drawn, kw: dict):
    """In a worker: ``analysis.advise.advise`` on a position (the hint's one call)."""
    from analysis.advise import advise

    return advise(pos, drawn=drawn, **kw)


def review_job(record: dict, seat: int, number: int, start: int, kw: dict) -> dict:
    """In a worker: the review of the human ``seat``'s decisions in one finished hand
    (``record``: that hand's record, decks included: it never leaves the server), the game's
    hand ``number`` (``start``: the game's actions before it), by
    ``canasta._seat_review.review_hand`` with ``kw`` (its equity table, budgets and ``cap``); the
    review's JSON (``analysis.review.Review.to_json``)."""
    from canasta._seat_review import review_hand
    from sim.record import replay

    (hand,) = replay(record)
    return review_hand(hand, seat, number, start=start, **kw).to_json()


class _Gate:
    """A counting semaphore that asyncio tasks of any event loop wait on in order, and that
    frees a place from any thread (the tests' client runs a loop per request; uvicorn one)."""

    def __init__(self, n: int):
        self.free = n
        self._waiters: deque = deque()
        self._lock = threading.Lock()

    async def acquire(self, deadline: float) -> None:
        with self._lock:
            if self.free > 0 and not self._waiters:
                self.free -= 1
                return
            loop = asyncio.get_running_loop()
            fut = loop.create_future()
            self._waiters.append((loop, fut))
        try:
            await asyncio.wait_for(fut, max(0.0, deadline - time.monotonic()))
        except BaseException as exc:  # timed out, or the request itself cancelled
            with self._lock:
                waiting = (loop, fut) in self._waiters
                if waiting:
                    self._waiters.remove((loop, fut))
            if not waiting and fut.done() and not fut.cancelled():
                self.release()  # granted as it gave up: the place goes to the next
            if isinstance(exc, TimeoutError):
                raise HTTPException(
                    503, "the server is busy with hints: this one waited too long, try again"
                ) from None
            raise

    def release(self) -> None:
        with self._lock:
            while self._waiters:
                loop, fut = self._waiters.popleft()
                if not fut.done():
                    loop.call_soon_threadsafe(self._grant, fut)
                    return
            self.free += 1

    def _grant(self, fut) -> None:
        if fut.done():  # it timed out meanwhile: the place goes to the next
            self.release()
        else:
            fut.set_result(None)


_WARM = threading.Event()  #: set once an item has finished in the process's own pool
_POOL: list = []  #: the process's one pool of workers, shared by its apps (started on first use)
_POOL_LOCK = threading.Lock()


def _shared(workers: int, broken: bool = False) -> Executor:
    """The process's pool of ``workers`` spawned workers (a server runs one app; the tests' apps
    share it rather than each start processes); ``broken``: replace it."""
    with _POOL_LOCK:
        if broken and _POOL:
            _POOL.pop().shutdown(wait=False, cancel_futures=True)
        if not _POOL:
            _POOL.append(
                ProcessPoolExecutor(
                    workers,
                    mp_context=multiprocessing.get_context("spawn"),  # never fork a threaded server
                    initializer=_start_worker,
                )
            )
        return _POOL[0]


class AdvicePool:
    """The bounded pool of advice (module docstring): ``workers`` processes (or ``executor``),
    ``per_client`` and ``queue`` items in the pool and ``waiting`` and ``backlog`` more
    waiting at most ``wait_cap`` seconds, ``ready`` an event set once the warm-up has filled
    numba's cache (None: ready now), ``grace`` the seconds an item may take in the pool past
    its own budget."""

    def __init__(
        self,
        workers: int = WORKERS,
        per_client: int = PER_CLIENT,
        queue: int = QUEUE,
        executor: Executor | None = None,
        ready: threading.Event | None = None,
        grace: float = GRACE,
        waiting: int = WAITING,
        backlog: int = BACKLOG,
        wait_cap: float = WAIT_CAP,
    ):
        self.wait_cap = float(wait_cap)
        self.workers = max(1, int(workers))
        self.grace = float(grace)
        self.per_client = max(1, int(per_client))
        self.queue = max(1, int(queue))
        self._executor = executor
        self._ready = ready
        self.waiting = max(0, int(waiting))
        self.backlog = max(0, int(backlog))
        self._lock = threading.Lock()
        self._admitted: dict[str, int] = {}
        self._gates: dict[str, _Gate] = {}
        self._gate = _Gate(self.queue)
        #: set once an item has finished in the process's pool; an executor passed in is the
        #: caller's, warm or not as the caller knows, so it is never given the cold cap
        self._warm = _WARM if executor is None else None

    @property
    def executor(self) -> Executor:
        return self._executor if self._executor is not None else _shared(self.workers)

    def in_flight(self, client: str | None = None) -> int:
        """Items admitted (waiting or in the pool): ``client``'s, or every client's."""
        with self._lock:
            return self._admitted.get(client, 0) if client else sum(self._admitted.values())

    def running(self) -> int:
        """Items in the pool now (every client)."""
        return self.queue - self._gate.free

    @contextlib.asynccontextmanager
    async def slot(self, client: str, cap: float):
        """A place in the pool for one of ``client``'s items, waited for without a thread:
        at most ``per_client`` of a client's and ``queue`` in all at once, the others waiting
        their turn in order; refused at once past ``waiting`` of a client's (429) or
        ``backlog`` of all (503), and after ``wait_cap`` seconds of waiting once the warm-up is
        over (503). Yields ``cap``, the seconds the item may then take in the pool."""
        with self._lock:
            mine = self._admitted.get(client, 0)
            if mine >= self.per_client + self.waiting:
                raise HTTPException(
                    429, f"this client already has {mine} hints or reviews asked for: wait"
                )
            if sum(self._admitted.values()) >= self.queue + self.backlog:
                raise HTTPException(
                    503, "the server is computing as many hints as it can: try again shortly"
                )
            self._admitted[client] = mine + 1
            gate = self._gates.setdefault(client, _Gate(self.per_client))
        try:
            await self.until_ready()
            deadline = time.monotonic() + self.wait_cap
            await gate.acquire(deadline)
            try:
                await self._gate.acquire(deadline)
                try:
                    yield cap
                finally:
                    self._gate.release()
            finally:
                gate.release()
        finally:
            with self._lock:
                left = self._admitted[client] - 1
                if left:
                    self._admitted[client] = left
                else:
                    del self._admitted[client]
                    self._gates.pop(client, None)

    async def until_ready(self) -> None:
        """Wait (without a thread) for the warm-up: a hint asked meanwhile waits, never fails."""
        while self._ready is not None and not self._ready.is_set():
            await asyncio.sleep(0.25)

    def call(self, fn, *args, cap: float):
        """``fn(*args)`` in the pool, waited for at most ``cap`` seconds from now (in a thread
        of the server, which holds no lock meanwhile): 503 past it. Until an item has finished
        in the process's own pool, at least :data:`COLD_CAP`: a fresh worker's first item
        spends it loading or compiling kernels, which no budget of the hint's accounts for."""
        if self._warm is not None and not self._warm.is_set():
            cap = max(cap, COLD_CAP)
        try:
            future = self.executor.submit(fn, *args)
            result = future.result(timeout=cap)
            if self._warm is not None:
                self._warm.set()
            return result
        except BrokenProcessPool:  # a worker died (killed, out of memory): a new pool next time
            _shared(self.workers, broken=True)
            raise HTTPException(503, "a worker of the advice stopped: try again") from None
        except TimeoutError:
            future.cancel()  # still queued: never run; running: its own budget ends it
            raise HTTPException(
                503, f"the advice took over {cap:.0f} s (the server is busy): try again"
            ) from None

    def advise(self, cap: float):
        """An ``advise`` for ``canasta._seat.Seat.advice``: the same call, made in the pool."""

        def advise(pos, drawn=None, **kw):
            return self.call(advise_job, pos, drawn, kw, cap=cap)

        return advise

    def prime(self, bot: str) -> None:
        """Start the default pool's workers and have each load a hint's kernels (after the
        server's warm-up has written them to the cache); an executor passed in is left as is."""
        if self._executor is None:
            ex = _shared(self.workers)
            for _ in range(self.workers):
                ex.submit(_prime, bot)
