"""The coin race's rules: commands, events, ``decide`` and ``evolve``, and its log lines.

One exchange: each side's flipper (the side's first member) flips a coin, a ``d2``
typed as 1 (tails) or 2 (heads); ``ResolveExchange`` scores it. The side whose coin is
the only heads scores a point; every other throw is a tie (all tails, or two heads or
more: "heads beats tails", and heads does not beat heads). The first side to
``target`` points wins, and the contest ends with that exchange.

Luck (a character's ``CoinSheet``) comes into the contest: a flipper whose coin has
fallen may flip again (a second ``RollDice``) for a point of luck, as often as it lasts
before the exchange is scored. What is left goes back to the sheet.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any, ClassVar

import msgspec
from msgspec.structs import replace

from core.campaign.log import Character, Sheet
from core.dice import DiceKind, check_faces
from core.errors import NoPoints, OutOfTurn, RuleError
from core.limits import Count, Int, Positive
from core.model import (
    Contest,
    ContestEnded,
    DiceRolled,
    Event,
    ExchangeEvent,
    Participant,
    ResolveExchange,
    RollDice,
    Saved,
)
from core.redact import NO_SECRETS, Part, Secrets, render_all, secret
from core.rules.base import JSON, RuleSystem, own, require_open, unknown_command, updated

CODEC_TAG = "coin"  # the saved tags: "coin.CoinContest", "coin.ExchangeResolved"

D2 = DiceKind.die(2)  # a coin
TAILS, HEADS = 1, 2
FACE_NAMES = {TAILS: "tails", HEADS: "heads"}
FACES = {name: face for face, name in FACE_NAMES.items()}


class CoinSheet(Sheet):
    """What a coin race keeps on a character: ``luck`` to spend on flipping again, and
    the ``refresh`` a session's start brings a PC's luck back up to."""

    LABELS: ClassVar[Mapping[str, str]] = {"refresh": "luck refresh"}
    luck: Count = 0
    refresh: Count = 0


def sheet_of(character: Character) -> CoinSheet:
    """``character``'s coin race sheet (a fresh one where it has none yet)."""
    return character.sheet if isinstance(character.sheet, CoinSheet) else CoinSheet()


class CoinOptions(Saved):
    target: Positive = 3  # the points a side needs to win


class CoinContest(Contest):
    """``flips``: the open exchange's coins, by flipper; ``points``: each side's
    points (the word the summary counts in); ``luck``: each participant's luck left,
    ``reflips`` what the open exchange spent of it."""

    system: ClassVar[str] = "coin"
    options: CoinOptions = CoinOptions()
    flips: Mapping[str, Int] = msgspec.field(default_factory=dict)
    points: Mapping[str, Int] = msgspec.field(default_factory=dict)
    luck: Mapping[str, Int] = msgspec.field(default_factory=dict)
    reflips: Mapping[str, Int] = msgspec.field(default_factory=dict)


def flippers(contest: Contest) -> list[str]:
    """Who flips, in side order: each side's first member."""
    return [contest.members(side)[0].name for side in contest.sides]


def scorer(coins: Mapping[str, int]) -> str | None:
    """The side that scores, from each side's coin: the only heads, else None (a tie)."""
    heads = [side for side, face in coins.items() if face == HEADS]
    return heads[0] if len(heads) == 1 else None


def new_contest(
    participants: Sequence[Participant],
    options: CoinOptions | None = None,
    luck: Mapping[str, int] | None = None,
) -> CoinContest:
    """A race before its first flip; ``RuleError`` for fewer than two sides or a target
    below 1."""
    opts = options or CoinOptions()
    if opts.target < 1:
        raise RuleError(f"a coin race is to 1 point or more, not {opts.target}")
    contest = CoinContest(participants=tuple(participants), options=opts)
    if len(contest.sides) < 2:
        raise RuleError("a coin race needs at least two sides")
    return replace(contest, points={side: 0 for side in contest.sides}, luck=dict(luck or {}))


class ExchangeResolved(ExchangeEvent):
    """One exchange scored: each flipper's coin (``flips``), the side that scored (None:
    a tie) and every side's points after it."""

    flips: Mapping[str, Int]
    winner: str | None
    points: Mapping[str, Int]
    luck_spent: Mapping[str, Int] = msgspec.field(default_factory=dict)  # reflips, by flipper


class CoinRules(RuleSystem):
    """The coin race: a :class:`core.rules.base.RuleSystem`."""

    name: ClassVar[str] = "coin"
    title: ClassVar[str] = "Coin race"
    contest_type: ClassVar[type[Contest]] = CoinContest
    dice: ClassVar[DiceKind] = D2

    def rollers(self, contest: Contest) -> list[str]:
        return flippers(contest)

    def tally(self, contest: Contest) -> tuple[dict[str, int], str] | None:
        c = own(contest, CoinContest)
        return {side: c.points.get(side, 0) for side in c.sides}, "points"

    def decide(self, contest: Contest, command: Any) -> tuple[Event, ...]:
        c = own(contest, CoinContest)
        require_open(c)
        match command:
            case RollDice():
                flipper = c.participant(command.who)  # UnknownName for a stranger
                first = c.members(flipper.side)[0].name
                if first != flipper.name:
                    raise RuleError(
                        f"{flipper.name} does not flip: {first} flips for {flipper.side}"
                    )
                check_faces(D2, command.faces)
                if flipper.name in c.flips and c.luck.get(flipper.name, 0) < 1:
                    raise NoPoints(f"{flipper.name} has flipped; no luck left to flip again")
                return (DiceRolled(who=flipper.name, faces=command.faces, source=command.source),)
            case ResolveExchange():
                return self._resolve(c)
        raise unknown_command(self.title, command)

    @staticmethod
    def _resolve(c: CoinContest) -> tuple[Event, ...]:
        for who in flippers(c):
            if who not in c.flips:
                raise OutOfTurn(f"{who} has not flipped yet")
        flips = {who: c.flips[who] for who in flippers(c)}
        side = scorer({c.participant(who).side: face for who, face in flips.items()})
        points = dict(c.points) if side is None else updated(c.points, side, 1)
        resolved = ExchangeResolved(
            n=c.n + 1, flips=flips, winner=side, points=points, luck_spent=dict(c.reflips)
        )
        if side is not None and points[side] >= c.options.target:
            return resolved, ContestEnded(winner=side, ended_by="target")
        return (resolved,)

    def evolve(self, contest: Contest, event: Event) -> Contest:
        c = own(contest, CoinContest)
        match event:
            case DiceRolled() if event.who in c.flips:  # again, for a point of luck
                return replace(
                    c,
                    flips={**c.flips, event.who: event.faces[0]},
                    luck=updated(c.luck, event.who, -1),
                    reflips=updated(c.reflips, event.who, 1),
                )
            case DiceRolled():
                return replace(c, flips={**c.flips, event.who: event.faces[0]})
            case ExchangeResolved():
                return replace(c, n=event.n, flips={}, points=event.points, reflips={})
            case ContestEnded():
                return replace(c, finished=True, winner=event.winner)
        raise TypeError(f"{type(event).__name__} is not a coin race event")

    # -- output -------------------------------------------------------------------------
    def exchange_json(self, event: ExchangeEvent) -> JSON:
        e = _exchange(event)
        return {
            "n": e.n,
            "flips": {who: FACE_NAMES[face] for who, face in e.flips.items()},
            "winner": e.winner,
            "score": dict(e.points),
            **({"luck_spent": dict(e.luck_spent)} if e.luck_spent else {}),
        }

    def final_json(self, contest: Contest) -> JSON:
        c = own(contest, CoinContest)
        return {"score": {side: c.points.get(side, 0) for side in c.sides}}

    def points(self, contest: Contest, who: str) -> tuple[int, str] | None:
        return own(contest, CoinContest).luck.get(who, 0), "luck"

    def spent(self, event: Event) -> Iterator[tuple[str, str, int]]:
        if isinstance(event, ExchangeResolved):
            yield from ((who, "luck", n) for who, n in event.luck_spent.items())

    def describe(self, event: ExchangeEvent, secrets: Secrets = NO_SECRETS) -> list[str]:
        return render_all(self.lines(event), secrets)

    @staticmethod
    def lines(event: ExchangeEvent) -> list[list[str | Part]]:
        """``Exchange 2: Ann scores (2–0)`` or ``Exchange 3: a tie (2–0)``, then each
        coin (``  Ann: heads``). A hidden participant's coin is ``??``; who scored and
        the score stay (the table sees them)."""
        e = _exchange(event)
        score = "–".join(str(v) for v in e.points.values())
        what = f"{e.winner} scores" if e.winner is not None else "a tie"
        lines: list[list[str | Part]] = [[f"Exchange {e.n}: {what} ({score})"]]
        for who, face in e.flips.items():
            n = e.luck_spent.get(who, 0)
            again = f" (flipped again: {n} luck)" if n else ""
            lines.append([f"  {who}: ", secret(FACE_NAMES[face] + again, who)])
        return lines


def _exchange(event: ExchangeEvent) -> ExchangeResolved:
    if not isinstance(event, ExchangeResolved):
        raise TypeError(f"{type(event).__name__} is not a coin race exchange")
    return event


COIN = CoinRules()
