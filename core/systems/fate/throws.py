"""How four Fate dice fall: the 81 throws of 4dF counted by their sum, which the contest's
odds (``odds``) and the conflict's (``conflict_odds``) both count with."""

from __future__ import annotations

import itertools


def four_df() -> dict[int, int]:
    """How many of the 81 throws of four Fate dice give each sum (-4..+4)."""
    counts: dict[int, int] = {}
    for faces in itertools.product((-1, 0, 1), repeat=4):
        counts[sum(faces)] = counts.get(sum(faces), 0) + 1
    return dict(sorted(counts.items()))


FOUR_DF = four_df()
FOUR_DF_THROWS = 81
