"""``tussle odds``: the odds of a contest as JSON (``odds_for``) and as text for people.

The generic frame is here (the system, the exchange played, the contest's chances, the
note, the assumptions); each system's own part comes from its odds module, found through
the rule system registry (``core.rules.find_odds``).
"""

from __future__ import annotations

from core.chance.common import JSON, pct
from core.model import Contest
from core.rules import SYSTEM_NAMES, find_odds, find_system

ASSUMPTIONS = (
    "Assumes fair dice and no further choices (invokes, advantages, hero points) beyond "
    "those entered; later exchanges are played plain."
)


def clear_caches() -> None:
    """Forget every memoised count and chain, in every system (for a cold measurement)."""
    for system in SYSTEM_NAMES:
        find_odds(system).clear_caches()


def odds_for(contest: Contest, played: int | None = None) -> JSON:
    """The odds of the coming exchange and of the contest from here, JSON-ready: what
    ``tussle odds`` prints and the dashboard shows. ``note`` explains a null. With
    ``played``, the exchanges played so far as the GM counts them (``read_for_odds``;
    a conflict's exchanges, not its actions), ``after_exchange``."""
    out: JSON = {"system": contest.system}
    if played is not None:
        out["after_exchange"] = played
    out.update(find_odds(contest.system).odds_json(contest))
    return out


def odds_text(odds: JSON) -> str:
    """``odds_for``'s JSON as lines for people (``tussle odds --text``)."""
    system = odds["system"]
    own = find_odds(system)
    played = odds.get("after_exchange")  # odds_for's count, when it was given one
    after = "" if played is None else f" after exchange {played}"
    lines = [f"{find_system(system).title} odds{after}"]
    lines.extend(own.score_lines(odds))
    ex, contest = odds.get("exchange"), odds.get("contest")
    if ex is not None:
        lines.append(own.exchange_heading(ex))
        lines.extend(own.exchange_lines(ex))
    if contest is not None:
        lines.append(own.whole_heading(odds))
        width = max(len(s) for s in contest["sides"]) + 2
        for side, o in contest["sides"].items():
            lines.append(f"  {side:<{width}}wins {pct(o['win'])}")
    if odds.get("note"):
        lines.append(f"Note: {odds['note']}")
    if ex is not None:
        lines.append(ASSUMPTIONS)
    return "\n".join(lines)
