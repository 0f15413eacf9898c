"""The contract every rule system implements (base classes with a default for each hook
that can have one), and the helpers they share."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar, NamedTuple, TypeVar

from core.dice import DiceKind
from core.errors import ContestOver, RuleError
from core.model import Command, Contest, Event, ExchangeEvent
from core.redact import NO_SECRETS, Secrets

JSON = dict[str, Any]
C = TypeVar("C", bound=Contest)


class Pool(ABC):
    """A pool of points the GM opens each contest's scene with and spends for the
    characters the GM plays (Fate's "The GM's fate points"); a system without one keeps
    :attr:`RuleSystem.pool` ``None``. A system with one subclasses this and overrides
    what it needs: the defaults are a pool that starts empty and changes nothing."""

    def opening(self, pcs: int) -> int:
        """The pool a contest starts with, given how many PCs of the roster are in it."""
        return 0

    def scene(self, contest: Contest, pool: int, npcs: frozenset[str]) -> Contest:
        """``contest`` as a scene: its pool, and the participants the pool pays for."""
        return contest

    def left(self, contest: Contest) -> int:
        """What is left in the pool of ``contest``'s scene."""
        return 0

    @abstractmethod
    def award(self, who: str) -> Command:
        """The command giving ``who`` a point during the contest (the table's rules say
        when: Fate's compel accepted)."""

    @abstractmethod
    def pay(self, by: str, reason: str, count: int) -> Command:
        """The command spending ``count`` of the pool outside an invoke, for ``by``."""

    @abstractmethod
    def paid(self, count: int) -> Event:
        """The event an old save's campaign-level pool spending stands for."""

    def into_pool(self, event: Event) -> bool:
        """Whether ``event`` (of an :meth:`award`) put the point into the pool rather
        than on the character (Fate: a compel an NPC accepts); never, by default."""
        return False

    def gm_action(self, command: Command) -> bool:
        """Whether ``command`` is one :meth:`award` or :meth:`pay` makes: a GM action of
        its own, which a correction of the exchange around it keeps where it was."""
        return False


class Escalated(NamedTuple):
    """A contest that ended with no result to score, because the scene became something
    else (Fate: an attack turns it into a conflict): ``short`` for the scoreboard,
    ``told`` for the summary and the recap."""

    short: str
    told: str


class RuleSystem(ABC):
    """One game's contest rules; listed in ``core.rules.SYSTEM_NAMES``. A system
    subclasses this (python-chess's variants are the model): it must say what it is
    (``name``, ``title``, ``contest_type``, ``dice``), ``decide``, ``evolve`` and
    ``describe``; every other hook has a default a small system keeps.

    ``decide`` and ``evolve`` are the only way a contest changes: the dashboard, undo, the
    saved log, the players' view and ``tussle resolve`` all go through them. Generic code
    never reads a system's own fields: it asks through these hooks.

    The module defining a system's saved classes (contests, commands, events, its
    character sheet: subclasses of core.model's ``Saved`` bases) sets ``CODEC_TAG``, the
    prefix their saved tags carry (``"fate"``: ``fate.FateContest``; core.model's
    ``Tagged`` reads it), and a tag once saved must never change (old saves name it).
    """

    name: ClassVar[str]
    title: ClassVar[str]
    contest_type: ClassVar[type[Contest]]
    dice: ClassVar[DiceKind]  # what one contest roll is: 4dF, a d20, a d100
    pool: ClassVar[Pool | None] = None  # the GM's pool of points, where the system has one

    @abstractmethod
    def decide(self, contest: Contest, command: Any) -> tuple[Event, ...]:
        """The events this command causes; ``RuleError`` if the rules forbid it."""

    @abstractmethod
    def evolve(self, contest: Contest, event: Event) -> Contest:
        """The contest after one event; never fails for an event ``decide`` produced."""

    @abstractmethod
    def describe(self, event: ExchangeEvent, secrets: Secrets = NO_SECRETS) -> list[str]:
        """The exchange log's lines for one resolved exchange, for people: all of it
        for the GM, with ``??`` for what ``secrets`` hide for the players (each system
        marks its hidden values where it writes them, :mod:`core.redact`)."""

    def rollers(self, contest: Contest) -> list[str]:
        """Who rolls in the open exchange (sides in Fate, participants elsewhere), in
        the order the keypad takes their dice; empty while that is not settled. By
        default every participant, in order."""
        return [p.name for p in contest.participants]

    def tally(self, contest: Contest) -> tuple[dict[str, int], str] | None:
        """Each side's count toward winning and what it counts (``victories``,
        ``resolution points``, ``stages``); None (the default) where the contest keeps
        no count (a HeroQuest simple contest is one roll)."""
        return None

    def implicit(self, contest: Contest) -> list[Command]:
        """Commands an exchange takes for granted until the GM types otherwise (FORGE's
        first stage: who acts against whom), applied before the dice; none by default."""
        return []

    def exchange_json(self, event: ExchangeEvent) -> JSON:
        """One resolved exchange as ``tussle resolve`` prints it (scenario.md); by
        default its number and its log lines."""
        return {"n": event.n, "lines": self.describe(event)}

    def final_json(self, contest: Contest) -> JSON:
        """The keys ``tussle resolve`` adds after the exchanges (score, points left...)."""
        return {}

    # -- what generic code asks instead of reading a system's fields ---------------------

    def aspects(self, contest: Contest) -> tuple[str, ...]:
        """The names of the aspects in play (those the GM may hide); none by default."""
        return ()

    def situation(self, contest: Contest) -> tuple[str, ...]:
        """The aspects of the scene itself (no character's), which a contest set up like
        this one starts with again; none by default."""
        return ()

    def named_aspects(self, event: ExchangeEvent) -> Iterable[str]:
        """The aspects an exchange names (a twist, an advantage, an invoke's), so a
        secret contest's redaction hides every one; none by default."""
        return ()

    def created(self, event: ExchangeEvent) -> Iterable[tuple[str, str]]:
        """What an exchange created, for the recap: (aspect, how the recap lists it:
        ``"Muddy Ground (twist)"``); nothing by default."""
        return ()

    def spent(self, event: Event) -> Iterable[tuple[str, str, int]]:
        """Points an exchange (or the pool's payment event) spent, for the recap: (who,
        what: ``"fate points"``, how many); nothing by default."""
        return ()

    def points(self, contest: Contest, who: str) -> tuple[int, str] | None:
        """The points ``who`` holds in the contest now, and their word (``(3, "fate
        points")``), for the players' view; None (the default) where there are none."""
        return None

    def private_aspects(self, contest: Contest, who: str) -> Iterable[str]:
        """The aspects that are ``who``'s own numbers (a Fate consequence: the harm they
        took), kept from the players with the rest of them when the GM hides ``who``;
        none by default."""
        return ()

    def consequences(self, contest: Contest) -> Mapping[str, str] | None:
        """What a contest scored as a whole leaves each participant (a HeroQuest
        extended contest's final states, by name), once it has ended; None (the
        default) where its exchanges say it all."""
        return None

    def exchange_of(self, event: ExchangeEvent) -> int:
        """The exchange ``event`` belongs to, as the GM counts them (``"still open after
        exchange 2"``): its ``n`` by default. A Fate conflict logs each participant's
        action: the conflict's exchange (each one acts once in it)."""
        return event.n

    def exchanges_played(self, exchanges: Sequence[ExchangeEvent]) -> int:
        """How many exchanges the log ``exchanges`` holds, as the GM counts them: the
        exchange of the last one; 0 for none."""
        return self.exchange_of(exchanges[-1]) if exchanges else 0

    def not_corrected(self, contest: Contest) -> str | None:
        """Why ``contest``'s exchanges cannot be corrected (``C``), in the GM's words,
        with what to do instead; None (by default): they can."""
        return None

    def recap(
        self, contest: Contest, exchanges: Sequence[ExchangeEvent], secrets: Secrets = NO_SECRETS
    ) -> list[str]:
        """Lines the recap adds after a contest's exchanges, a whole-contest account (a
        Fate conflict: who was hit, what absorbed it, who was taken out, who conceded),
        with ``??`` for what ``secrets`` hide; none by default."""
        return []

    def ending(self, contest: Contest) -> str:
        """How a finished contest ended, after its winner's name and score (``", the
        other party left"``); nothing by default."""
        return ""

    def escalated(self, contest: Contest) -> Escalated | None:
        """Where the contest ended with no result because the scene became something
        else, what to say; None (the default) otherwise."""
        return None

    def modifier_presets(self, contest: Contest) -> tuple[tuple[str, int], ...]:
        """The modifiers a GM reaches for, by name (``("distance 51-75 yd", -40)``): the
        modifier form offers them beside a number typed, and ``SetModifier.label`` names
        the one chosen; none by default."""
        return ()

    def preset_label(self, contest: Contest, label: str | None, value: int) -> str | None:
        """``label`` checked against :meth:`modifier_presets`: it must name one, and
        ``value`` be that one's (``RuleError`` otherwise); None stays None (a number
        typed)."""
        if label is None:
            return None
        for name, preset in self.modifier_presets(contest):
            if name == label:
                if preset != value:
                    raise RuleError(f"the preset {label} is {preset:+d}, not {value:+d}")
                return label
        raise RuleError(f'{self.title} has no modifier preset "{label}"')


class SystemOdds(ABC):
    """One system's exact odds, in ``core/systems/<name>/odds.py`` beside its rules
    (found by ``core.rules.find_odds``): what ``tussle odds`` prints and the dashboard
    shows."""

    @abstractmethod
    def odds_json(self, contest: Contest) -> JSON:
        """The odds of the coming exchange and of the contest from here, JSON-ready:
        ``finished``, the score, ``exchange``, ``contest`` and ``note`` (why a null)."""

    @abstractmethod
    def score_lines(self, odds: JSON) -> list[str]:
        """``tussle odds --text``: the score's line(s) after the title."""

    @abstractmethod
    def exchange_lines(self, exchange: JSON) -> list[str]:
        """``tussle odds --text``: the lines under ``exchange_heading``."""

    def exchange_heading(self, exchange: JSON) -> str:
        """``tussle odds --text``: the line over the coming exchange's odds."""
        return "Next exchange:"

    def whole_heading(self, odds: JSON) -> str:
        """``tussle odds --text``: the line over each side's chance to win from here,
        naming what they win (a contest by default)."""
        return "Contest from here:"

    def clear_caches(self) -> None:
        """Forget every memoised count and chain (for a cold measurement); nothing to
        forget by default."""
        return None


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


def unknown_command(system: str, command: object, played: str = "contests") -> RuleError:
    """``command`` refused: not one of ``system``'s (its title) in what it plays
    (``played``: "contests"; a Fate conflict's, "conflicts")."""
    return RuleError(f"{type(command).__name__} is not an action in {system} {played}")
