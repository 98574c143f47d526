"""Data files of the policies (strong's weights), read with ``importlib.resources``."""

__all__: list[str] = []
