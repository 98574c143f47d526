"""The report's decision experiments as spec files (``analysis.specs``; one TOML file each).

Every ``*.toml`` here but ``example_*.toml`` is run by ``canasta report``; the examples are for
``canasta experiment FILE.toml`` (docs/report.md).
"""

__all__: list[str] = []
