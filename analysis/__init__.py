"""Analysis: tables in, tables out (intervals, odds, risk, what-if, comparisons)."""
