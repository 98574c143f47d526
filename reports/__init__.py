"""Strategy reports: figures and one self-contained HTML file from analysis results.

Holds ``build`` (runs or loads the simulations and calls the analysis), ``defaults`` (the
report's default sizes), ``content`` (its sections, captions and Methods facts), ``columns``
(each table's columns), ``fmt`` (number formatting), ``figures`` (matplotlib figures),
``narrative`` ('what the numbers say' sentences) and ``html`` (renders the page from
``templates/``); ``review`` (the page of ``canasta review``).
"""

__all__: list[str] = []
