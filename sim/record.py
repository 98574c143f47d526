"""The hand record's old home: ``sim.play.record`` owns it now. Importing this module gives
the owner itself (the same module object), for the callers written against ``sim.record``."""

import sys

from sim.play import record as _owner

__all__: list[str] = []  # every name is the owner's (sim.play.record.__all__)

sys.modules[__name__] = _owner
