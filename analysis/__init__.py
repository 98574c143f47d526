"""Analysis: tables in, tables out, every estimate with its interval (``analysis.intervals``).

Holds (one module each):

- ``schema``: the record schema as analysis reads it, and the team view;
- ``intervals``: proportions, means and paired differences with 95% intervals;
- ``multiple``: Holm and Benjamini-Hochberg corrections of a family of p-values;
- ``special``: dealt special-hand odds, special hands in play, the chasing gain;
- ``risk``: seven, ace and wild meld risk and the in-hand penalties;
- ``compare``: duplicate-deal policy comparison, round robin, parameter sweeps;
- ``backend``: the one injected engine object the report and the comparisons take;
- ``stream``: the report's record tables from records arriving chunk by chunk;
- ``whatif``: fixed positions, the rest dealt at random; ``advise``: one decision ranked
  (its choices compared on paired deals by ``compare_choices``);
  ``review``: a played game reviewed decision by decision (costs, tags, error rate, luck);
  ``luck``: the draws' luck taken out of the advice's play-outs (a frozen control variate);
- ``decisions``, ``specs``, ``claims``: the decision experiments, as code and as data, and
  the published claims they check; ``decisions`` runs them from its parts ``positions``
  (sampled and generated positions), ``arms`` (the choices played out), ``decision_tables``
  (tables and thresholds), ``rules_of_thumb`` and ``experiment_set``; ``decisions_game``:
  the same experiments in game terms (the chance of winning the game, by score region);
  ``numbers``: first numbers of the modern game;
- ``equity``: the chance of winning the game from any pair of scores (GAME-1), cached;
  ``equity_numbers``: what the tier edges, 100 points and playing first are worth;
  ``game_styles``: the style table of the ``game_strong`` policy, derived through it;
- ``training``, ``distill``: tuning ``strong`` and distilling the search into its evaluator;
- ``synthetic``: records with known answers, for tests.

Notebooks: ``analysis/notebooks/``.
"""

__all__: list[str] = []
