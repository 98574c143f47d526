"""The web table's warm-up plan: what ``canasta serve`` compiles (or loads from numba's cache)
as it starts, in the order a player needs it (docs/web.md, "Start-up").

On an empty cache the compile is minutes of one core (``benchmarks/bench_cold_start.py
--web-profile`` names each step's kernels). A player meets the steps in this order, so they are
compiled in it, each step only what it adds:

1. **the deal**: a table dealt (the deck, the threes, the judge); the player plays first in
   the first hand (DEAL-1), so no bot has played yet;
2. **the table's view**: the page's view of it (the moves allowed, the running score, the
   turns), its record and saved form, a move checked and refused (its words): with 1 and 2 the
   first deal is on the page;
3. **the bots' turns**: the player's first move and the bots' replies (the bots' own kernels,
   the largest single compile);
4. **the hint**: the hint's simulation at a play after a stock draw and at a draw.

A request that needs a kernel the warm-up is compiling waits for numba's compiler and then
finds it compiled, so a first deal asked for at once is ready after steps 1 and 2, not after
the whole plan.
"""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["PLAN", "warm"]

#: the steps, in order (the page's progress names them: ``GET /api/ready``)
PLAN = ("the deal", "the table's view", "the bots' turns", "the hint")


def warm(bot: str = "strong", step: Callable[[], None] | None = None) -> None:
    """Run the plan with ``bot`` at every seat but the player's; ``step()`` is called once
    after each step of :data:`PLAN` (progress for the page)."""
    from canasta.web.table import Table, move_for
    from sim.errors import CanastaError

    done = 0

    def advance(upto: int) -> None:
        nonlocal done
        while done < upto:
            done += 1
            if step is not None:
                step()

    t = Table(partner=bot, opponents=bot)  # dealt at random as a player's; the player first
    advance(1)
    t.view()
    t.record()
    t.saved()
    try:
        t.move({"move": "meld", "cards": ["4"] * 3})  # refused: its words, the moves allowed
    except CanastaError:
        pass
    advance(2)
    for _ in range(40):  # the player's moves until the bots have replied
        g = t.game
        if g.is_over or t.mark:
            break
        t.move(move_for(g.policy_action(bot)))
    t.view()
    advance(3)
    hinted: set[str] = set()
    for seed in range(8):
        if seed:
            t = Table(seed=seed, partner=bot, opponents=bot)
        for _ in range(400):
            g = t.game
            if g.is_over or len(hinted) == 2:
                break
            if g.phase in ("draw", "play") and g.phase not in hinted:
                try:
                    t.hint(budget=0.3)
                    hinted.add(g.phase)
                except CanastaError:
                    pass
            t.move(move_for(g.policy_action(bot)))
        if len(hinted) == 2:
            break
    advance(len(PLAN))
