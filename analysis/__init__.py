"""Analysis: tables in, tables out, every estimate with its interval (``analysis.intervals``).

``records`` (the record schema and a team view), ``special`` (dealt odds, special hands in
play, chasing gain), ``risk`` (seven/ace/wild meld risk, in-hand penalties), ``compare``
(duplicate-deal policy comparison, round robin, sweeps), ``whatif`` (fixed positions),
``synthetic`` (records with known answers, for tests). Notebooks: ``analysis/notebooks/``.
"""
