"""Exact chances, knowing no rule system: the Markov solver (:mod:`core.chance.solver`)
and the small JSON and text helpers every system's odds are written with
(:mod:`core.chance.common`).

Below both the rule systems (whose odds, ``core.rules.<system>_odds``, build on it) and
:mod:`core.odds` (which finds each system's odds through the registry), so neither of
those imports the other's way up.
"""
