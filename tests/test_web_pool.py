"""Hints and reviews off the server's own threads (``canasta.web.pool``, docs/web.md limits):

- one client with 100 hints in flight raised another player's move from 5 ms to 3.9 s: the
  compiled simulation held the interpreter while the thread pool queued every move behind it.
  Now the simulation runs in a bounded pool of worker processes: each client has at most
  ``PER_CLIENT`` in flight (429 past it), the server ``QUEUE`` (503), each item a time cap;
- the review ran under the table's lock with no time cap (3.5-7.4 s seen);
- a hint asked during the warm-up returned a 500 (``ready_kernel`` checked, compiled and then
  closed the kernel to compiling without a lock: 3 of 3 with four threads).

The quick tests hold the pool's items in a fake executor (the pool's seam), so "the move is not
queued behind hints" is tested without timing the machine; the full figure (eight clients with
50 hints in flight each, a ninth player's move p99) is ``benchmarks/bench_web.py --load``.
"""

from __future__ import annotations

import threading
import time
from concurrent.futures import Executor, Future, ThreadPoolExecutor

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from numba import njit

from canasta.web.app import create_app
from canasta.web.pool import AdvicePool
from canasta.web.table import move_for
from sim._numba_cache import compile_once
from tests.web_client import BASE, BOT, TestClient, table_of

EACH = 12  #: hints each of eight clients sends at once (the benchmark: 50)


class HeldExecutor(Executor):
    """Runs nothing until :meth:`release` (then each item in a thread): what is in flight
    stays in flight for as long as a test needs."""

    def __init__(self):
        self.held: list[tuple[Future, object, tuple]] = []
        self.lock = threading.Lock()
        self.released = False
        self.runner = ThreadPoolExecutor(4)

    def submit(self, fn, *args, **kw):
        f: Future = Future()
        with self.lock:
            if self.released:
                return self.runner.submit(fn, *args, **kw)
            self.held.append((f, fn, args))
        return f

    def release(self):
        with self.lock:
            self.released = True
            held, self.held = self.held, []
        for f, fn, args in held:
            if f.set_running_or_notify_cancel():
                self.runner.submit(lambda f=f, fn=fn, args=args: f.set_result(fn(*args)))


def _app(pool, **kw):
    kw.setdefault("default_bot", BOT)
    return create_app(
        warm=False, hint_budget=0.2, review_budget=0.05, pool=pool, trust_proxy=True, **kw
    )


def _client(app, address):
    c = TestClient(app, base_url=BASE, raise_server_exceptions=False)
    c.headers["x-forwarded-for"] = address
    return c


def _to_hintable(c):
    """Play the client's table (its own moves by the bot) to a decision a hint covers."""
    from canasta._seat import position_for
    from sim.errors import CanastaError

    for _ in range(200):
        v = c.get("/api/state").json()
        t = table_of(c)
        if v["your_turn"]:
            try:
                position_for(t.game, t.seat)
                return v
            except CanastaError:
                pass
        c.post("/api/move", json={**move_for(t.game.policy_action(BOT)), "move_no": t.move_no})
    pytest.fail("no hintable decision")


def test_a_move_is_not_queued_behind_hints():
    """Eight clients each send ``EACH`` hints at once; their items are held in the pool. Each
    client has two in the pool and two more waiting their turn (no thread), the rest refused
    at once (429), and meanwhile a ninth player's moves answer at once. Released, every hint
    admitted answers."""
    ex = HeldExecutor()
    app = _app(AdvicePool(executor=ex, per_client=2, queue=16, waiting=2))
    clients = [_client(app, f"10.0.0.{k}") for k in range(1, 9)]
    for k, c in enumerate(clients):
        assert c.post("/api/new", json={"seed": k}).status_code == 200
        _to_hintable(c)
    player = _client(app, "10.0.0.99")
    assert player.post("/api/new", json={"seed": 42}).status_code == 200
    codes: list[int] = []
    lock = threading.Lock()

    def ask(c):
        r = c.post("/api/hint", json={})
        with lock:
            codes.append(r.status_code)

    threads = [threading.Thread(target=ask, args=(c,)) for c in clients for _ in range(EACH)]
    for th in threads:
        th.start()
    deadline = time.monotonic() + 60
    while len(ex.held) < 16 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(ex.held) == 16  # two per client: the eight clients' places in the pool
    while len(codes) < 8 * (EACH - 4) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert sorted(set(codes)) == [429] and len(codes) == 8 * (EACH - 4)  # refused at once
    pool = app.state.pool
    assert pool.running() == 16 and pool.in_flight() == 32 and pool.in_flight("10.0.0.1") == 4
    # the ninth player plays while 16 hints are in flight: not queued behind them
    for _ in range(5):
        t = table_of(player)
        if t.game.is_over:
            break
        s0 = time.perf_counter()
        r = player.post(
            "/api/move", json={**move_for(t.game.policy_action(BOT)), "move_no": t.move_no}
        )
        assert r.status_code == 200 and time.perf_counter() - s0 < 5.0
        assert len(ex.held) == 16 and pool.in_flight() == 32  # the hints still held
    ex.release()
    for th in threads:
        th.join(60)
    assert codes.count(200) == 32 and codes.count(429) == 8 * (EACH - 4)
    assert pool.in_flight() == 0 and pool.running() == 0


def test_the_server_queue_is_bounded_and_a_held_hint_times_out():
    """Past the server's queue and backlog a hint is a 503 at once; a hint held past its cap
    (budget plus grace) is a 503 with one line, its place freed."""
    ex = HeldExecutor()
    app = _app(AdvicePool(executor=ex, per_client=1, queue=1, grace=0.5, waiting=0, backlog=0))
    a, b = _client(app, "10.0.0.1"), _client(app, "10.0.0.2")
    for c in (a, b):
        assert c.post("/api/new", json={"seed": 3}).status_code == 200
        _to_hintable(c)
    out = {}
    th = threading.Thread(target=lambda: out.setdefault("a", a.post("/api/hint", json={})))
    th.start()
    for _ in range(100):
        if ex.held:
            break
        time.sleep(0.05)
    r = b.post("/api/hint", json={})
    assert r.status_code == 503 and "as many hints as it can" in r.json()["error"]
    th.join(30)
    assert out["a"].status_code == 503 and "took over" in out["a"].json()["error"]
    assert app.state.pool.in_flight() == 0


def test_a_waiting_hint_has_a_cap_and_frees_its_place():
    """A hint waiting for its place (the client's one place taken) waits at most ``wait_cap``
    (a 503 with one line), then leaves the place to the next; the first hint answers once
    released."""
    ex = HeldExecutor()
    app = _app(AdvicePool(executor=ex, per_client=1, queue=1, waiting=2, wait_cap=0.5))
    c = _client(app, "10.0.0.1")
    assert c.post("/api/new", json={"seed": 3}).status_code == 200
    _to_hintable(c)
    out: list = []
    first = threading.Thread(target=lambda: out.append(c.post("/api/hint", json={})))
    first.start()
    for _ in range(100):
        if ex.held:
            break
        time.sleep(0.05)
    s0 = time.perf_counter()
    r = c.post("/api/hint", json={})
    assert r.status_code == 503 and "waited too long" in r.json()["error"]
    assert 0.4 < time.perf_counter() - s0 < 10 and r.headers["retry-after"]
    assert app.state.pool.in_flight("10.0.0.1") == 1  # only the first, still held
    ex.release()
    first.join(60)
    assert out[0].status_code == 200 and app.state.pool.in_flight() == 0


def test_the_review_runs_in_the_pool_outside_the_tables_lock():
    """While a finished hand's review is being computed, the table's lock is free: the next
    hand of the game is dealt at once; the review then answers, and again from its cache."""
    ex = HeldExecutor()
    app = _app(AdvicePool(executor=ex))
    c = _client(app, "10.0.0.1")
    assert c.post("/api/new", json={"seed": 4, "mode": "game"}).status_code == 200
    t = table_of(c)
    while not t.game.is_over:
        c.post("/api/move", json={**move_for(t.game.policy_action(BOT)), "move_no": t.move_no})
    out = {}
    th = threading.Thread(target=lambda: out.setdefault("r", c.post("/api/review", json={})))
    th.start()
    for _ in range(200):
        if ex.held:
            break
        time.sleep(0.05)
    assert ex.held  # the review is in the pool
    assert not app.state.tables.lock(t.id).locked()
    s0 = time.perf_counter()
    assert c.get("/api/state").status_code == 200 and time.perf_counter() - s0 < 5.0
    ex.release()
    th.join(60)
    assert out["r"].status_code == 200 and isinstance(out["r"].json()["decisions"], list)


def test_a_hint_through_the_process_pool():
    """The default pool: the hint's simulation in a worker process (spawned, picklable work
    items), the answer as before."""
    app = create_app(warm=False, default_bot=BOT, hint_budget=0.3)
    c = TestClient(app, base_url=BASE)
    assert c.post("/api/new", json={"seed": 11}).status_code == 200
    _to_hintable(c)
    r = c.post("/api/hint", json={})
    assert r.status_code == 200, r.text
    hint = r.json()
    assert hint["choices"] and hint["why"] and hint["decision"] in ("draw", "play")
    executor = app.state.pool.executor
    assert executor._processes  # a worker process did it
    assert all(p.pid != __import__("os").getpid() for p in executor._processes.values())


def _unlocked_ready(dispatcher, args, barrier):
    """The old ``ready_kernel``: check, compile, close, with no lock (a barrier after the
    check, so every thread checks before any compiles, as the race had it)."""
    if args not in dispatcher.signatures:
        barrier.wait()
        dispatcher.compile(args)
        dispatcher.disable_compile()


def _race(fn, n=4) -> list[BaseException]:
    errors: list[BaseException] = []

    def run():
        try:
            fn()
        except BaseException as exc:  # the race's error is the finding
            errors.append(exc)

    threads = [threading.Thread(target=run) for _ in range(n)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(120)
    return errors


def test_compile_once_under_threads():
    """Four threads ask for a kernel at once: the unlocked check-compile-close failed
    ("compilation disabled"); :func:`compile_once` (what ``ready_kernel`` calls) compiles it
    once and every thread can run it."""
    from numba import types

    args = (types.int64,)

    @njit
    def old(x):
        return x + 1

    barrier = threading.Barrier(4)
    errors = _race(lambda: _unlocked_ready(old, args, barrier))
    assert errors and all("compil" in str(e) for e in errors)  # the race this test catches

    @njit
    def new(x):
        return x + 2

    results = []
    errors = _race(lambda: (compile_once(new, args), results.append(new(1))))
    assert not errors and results == [3] * 4
    assert new.signatures == [args]


def test_a_hint_during_the_warm_up_waits_and_answers():
    """A hint asked while the server warms up (four at once) waits for it and answers: no 5xx."""
    app = create_app(warm=True, default_bot=BOT, hint_budget=0.3)
    c = TestClient(app, base_url=BASE)
    assert c.post("/api/new", json={"seed": 11}).status_code == 200
    _to_hintable(c)
    codes: list[int] = []
    errors = _race(lambda: codes.append(c.post("/api/hint", json={}).status_code))
    assert not errors
    assert all(code < 500 for code in codes) and 200 in codes, codes
    assert set(codes) <= {200, 429}  # the client's own cap on hints in flight
    assert app.state.warmup.json()["ready"]
