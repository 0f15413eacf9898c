"""The protocol every rule system implements, and the helpers they share."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, Protocol, TypeVar

from core.dice import DiceKind
from core.errors import ContestOver, RuleError
from core.model import Command, Contest, Event, ExchangeEvent
from core.redact import Secrets

JSON = dict[str, Any]
C = TypeVar("C", bound=Contest)


class GMPool(Protocol):
    """A pool of points the GM opens each contest's scene with and spends for the
    characters the GM plays (Fate's fate points, "The GM's fate points"); a system
    without one has ``gm_pool = None``."""

    def opening(self, pcs: int) -> int:
        """The pool a contest starts with, given how many PCs of the roster are in it."""
        ...

    def scene(self, contest: Contest, pool: int, npcs: frozenset[str]) -> Contest:
        """``contest`` as a scene: its pool, and the participants the pool pays for."""
        ...

    def award(self, who: str) -> Command:
        """The command giving ``who`` a point during the contest (a compel accepted)."""
        ...

    def pay(self, by: str, reason: str, count: int) -> Command:
        """The command spending ``count`` of the pool outside an invoke, for ``by``."""
        ...

    def paid(self, count: int) -> Event:
        """The event an old save's campaign-level pool spending stands for."""
        ...

    def gm_action(self, command: Command) -> bool:
        """Whether ``command`` is one :meth:`award` or :meth:`pay` makes: a GM action of
        its own, which a correction of the exchange around it keeps where it was."""
        ...


class RuleSystem(Protocol):
    """One game's contest rules; listed in ``core.rules.SYSTEM_NAMES``.

    ``decide`` and ``evolve`` are the only way a contest changes: the dashboard, undo, the
    saved log, the players' view and ``tussle resolve`` all go through them.
    """

    name: ClassVar[str]
    title: ClassVar[str]
    contest_type: ClassVar[type[Contest]]
    dice: ClassVar[DiceKind]  # what one contest roll is: 4dF, a d20, a d100
    gm_pool: ClassVar[GMPool | None]  # the GM's pool of points, where the system has one

    def decide(self, contest: Contest, command: Any) -> tuple[Event, ...]:
        """The events this command causes; ``RuleError`` if the rules forbid it."""
        ...

    def evolve(self, contest: Contest, event: Event) -> Contest:
        """The contest after one event; never fails for an event ``decide`` produced."""
        ...

    def rollers(self, contest: Contest) -> list[str]:
        """Who rolls in the open exchange (sides in Fate, participants elsewhere), in
        the order the keypad takes their dice; empty while that is not settled."""
        ...

    def tally(self, contest: Contest) -> tuple[dict[str, int], str] | None:
        """Each side's count toward winning and what it counts (``victories``,
        ``resolution points``, ``stages``); None where the contest keeps no count (a
        HeroQuest simple contest is one roll)."""
        ...

    def implicit(self, contest: Contest) -> list[Command]:
        """Commands an exchange takes for granted until the GM types otherwise (FORGE's
        first stage: who acts against whom), applied before the dice."""
        ...

    def exchange_json(self, event: ExchangeEvent) -> JSON:
        """One resolved exchange as ``tussle resolve`` prints it (scenario.md)."""
        ...

    def final_json(self, contest: Contest) -> JSON:
        """The keys ``tussle resolve`` adds after the exchanges (score, points left...)."""
        ...

    def describe(self, event: ExchangeEvent, secrets: Secrets = ...) -> list[str]:
        """The exchange log's lines for one resolved exchange, for people: all of it
        for the GM, with ``??`` for what ``secrets`` hide for the players (each system
        marks its hidden values where it writes them, :mod:`core.redact`)."""
        ...


class SystemOdds(Protocol):
    """One system's exact odds, in ``core.rules.<name>_odds`` beside its rules (found by
    ``core.rules.find_odds``): what ``tussle odds`` prints and the dashboard shows."""

    def odds_json(self, contest: Contest) -> JSON:
        """The odds of the coming exchange and of the contest from here, JSON-ready:
        ``finished``, the score, ``exchange``, ``contest`` and ``note`` (why a null)."""
        ...

    def score_lines(self, odds: JSON) -> list[str]:
        """``tussle odds --text``: the score's line(s) after the title."""
        ...

    def exchange_lines(self, exchange: JSON) -> list[str]:
        """``tussle odds --text``: the lines under "Next exchange:"."""
        ...

    def clear_caches(self) -> None:
        """Forget every memoised count and chain (for a cold measurement)."""
        ...


def own(contest: Contest, kind: type[C]) -> C:
    """``contest`` as the system's own type (a contest of another system is a bug)."""
    if not isinstance(contest, kind):
        raise TypeError(f"expected a {kind.__name__}, got {type(contest).__name__}")
    return contest


def require_open(contest: Contest) -> None:
    if contest.finished:
        raise ContestOver(f"the contest ended at exchange {contest.n}")


def round_half_up(numerator: int, denominator: int) -> int:
    """``numerator / denominator`` rounded half up (never Python's banker's ``round``)."""
    return (2 * numerator + denominator) // (2 * denominator)


def updated(mapping: Mapping[str, int], key: str, delta: int) -> dict[str, int]:
    """A copy of ``mapping`` with ``delta`` added to ``key`` (missing counts as 0)."""
    out = dict(mapping)
    out[key] = out.get(key, 0) + delta
    return out


def unknown_command(system: str, command: object) -> RuleError:
    return RuleError(f"{type(command).__name__} is not an action in {system} contests")
