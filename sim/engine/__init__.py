"""The deal-and-play engine: compiled hands (``core``, ``play``), records and the step API."""
