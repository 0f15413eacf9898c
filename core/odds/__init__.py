"""Exact odds: the chance of each outcome of the coming exchange, and of the whole contest.

Everything is counted, not simulated: the dice of every system are few enough to
enumerate, and each outcome is scored by the system's own pure scoring function, never
by a second copy of the rules. Probabilities are :class:`fractions.Fraction`, always
exact; a contest with more than ``MAX_SCORES`` possible scores is not solved (its odds
are null, with a note).

Assumptions (the README states them too):

* Dice are fair.
* Nobody makes further choices beyond those already entered for the coming exchange.
  What is entered counts for that exchange only (it is one roll's bonus); the contest's
  later exchanges are played plain, between the same sides.
* Exchanges are independent. An exchange that changes nothing (a tie, nobody scoring)
  repeats, so the contest odds are those of the next *scoring* exchange, repeated: the
  geometric series is summed exactly by conditioning on scoring.
* A contest that ends when somebody leaves or the GM says so has exchange odds but no
  contest odds.

The package knows no rule system (``tests/core/test_odds_split.py`` checks):

* :mod:`core.chance.solver`: the generic exact solver, a race to a goal as a Markov chain;
* :mod:`core.chance.common`: what every system's odds build their JSON and text from;
* :mod:`core.odds.report`: ``odds_for`` (JSON) and ``odds_text`` (``tussle odds``),
  ``clear_caches``;
* :mod:`core.odds.next`: a scenario's ``next`` played onto its contest (``load_for_odds``).

Each system's own odds live beside its rules, in ``core.systems.<system>.odds``, found
through the rule system registry (``core.rules.find_odds``); a caller imports a name
from the module that defines it.
"""
