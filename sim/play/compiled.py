"""The compiled engine's entry points that the run level outside ``sim.play`` needs, so that
within ``sim`` only ``sim.play``, ``sim.api`` and ``sim.policies`` import the engine:
:func:`ready_kernel` (a chunk kernel compiled once for any policy, ``sim.warm``)."""

from __future__ import annotations

__all__ = ["ready_kernel"]


def ready_kernel(kernel) -> None:
    """``kernel`` (a chunk kernel of ``sim.engine``) compiled to its signature, with further
    compilation disabled (``sim.engine.play.ready_kernel``): a policy passed in converts to the
    engine's policy type instead of compiling the engine again for each policy."""
    from sim.engine.play import ready_kernel as ready

    ready(kernel)
