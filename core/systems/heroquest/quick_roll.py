"""HeroQuest's quick rolls (``tussle roll``, the dashboard's quick roll).

``4M vs 14`` is a simple contest against a resistance (rules §2.3): the ability (``4M``:
base 4, one mastery) rolls a d20, the resistance rolls a d20 against 14; masteries cancel,
the rest bump, the levels compare, equal levels go to the low roll. Scored by
``heroquest.simple_contest``, the engine's own scoring, never a copy; the chance of
victory is counted by ``heroquest.odds``. ``d20 vs 14`` is one d20 against 14 with no
opponent: its level (critical, success, failure, fumble), masteries bumping it up.
Modifiers add to a rating (``4M-6 vs 14``, as a stretch's -6)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

from core.campaign.quick_roll import Faces, RollResult, modifiers, percent, split_vs
from core.dice import DiceKind
from core.errors import RuleError
from core.systems.heroquest.ratings import format_rating, normalise, parse_rating
from core.systems.heroquest.resolution import (
    CRITICAL,
    FUMBLE,
    LEVELS,
    SUCCESS,
    VICTORIES,
    Party,
    bump,
    classify,
    simple_contest,
)

SYSTEM = "heroquest"
D20 = re.compile(r"d20", re.IGNORECASE)
RATING = re.compile(r"(?P<rating>[0-9]+(?:[MWmw][0-9]*)?)(?P<mods>.*)")
WRITTEN_AS_RATING = re.compile(r"[0-9]+(?:[MWmw][0-9]*)?(?:[+\-−][0-9]+)*")
ABILITY, RESISTANCE = "the ability", "the resistance"


def rating(text: str, what: str) -> int:
    """A rating with its modifiers (``4M-6``) as a linear value; ``RuleError`` saying
    what to write."""
    match = RATING.fullmatch(text)
    extra = modifiers(match["mods"]) if match else None
    if match is None or extra is None:
        raise RuleError(
            f'"{text}" is not a rating for {what}: write 1 to 20, then optionally M and a '
            'mastery count, then any modifiers ("14", "4M", "10M2", "4M-6")'
        )
    return parse_rating(match["rating"].upper()) + extra


def _masteries(value: int) -> int:
    return normalise(value)[1] if value > 0 else 0


def _level_line(who: str, target: int, roll: int | None, final: int, raw: int | None) -> str:
    """``the ability 4M rolls 7: failure, bumped up to success``."""
    if roll is None or raw is None:
        return f"{who} {format_rating(target)}: no roll (0 or less: a complete defeat)"
    said = f"{who} {format_rating(target)} rolls {roll}: {LEVELS[raw]}"
    if final > raw:
        said += f", bumped up to {LEVELS[final]}"
    elif final < raw:
        said += f", bumped down to {LEVELS[final]}"
    return said


def _masteries_line(a: int, b: int) -> str | None:
    ma, mb = _masteries(a), _masteries(b)
    if ma == mb:
        return f"masteries cancel ({ma} each)" if ma else None
    who, more = (ABILITY, ma - mb) if ma > mb else (RESISTANCE, mb - ma)
    bumps = "a bump" if more == 1 else f"{more} bumps"
    extra = "mastery" if more == 1 else "masteries"
    return f"{who} has {more} {extra} more: {bumps} (up, then the other down once critical)"


@dataclass(frozen=True, slots=True)
class HQContestRoll:
    """The ability against the resistance (linear values after modifiers)."""

    expression: str
    ability: int
    resistance: int

    @property
    def dice(self) -> tuple[DiceKind, ...]:
        return tuple(DiceKind.D20 for t in (self.ability, self.resistance) if t > 0)

    @property
    def roles(self) -> tuple[str, ...]:
        return tuple(
            who for who, t in ((ABILITY, self.ability), (RESISTANCE, self.resistance)) if t > 0
        )

    def resolve(self, faces: Faces) -> RollResult:
        from core.systems.heroquest.odds import heroquest_counts

        rolls = iter(f[0] for f in faces)
        roll_a = next(rolls) if self.ability > 0 else None
        roll_b = next(rolls) if self.resistance > 0 else None
        a = Party(target=self.ability, roll=roll_a)
        b = Party(target=self.resistance, roll=roll_b)
        out = simple_contest(a, b)
        raw = [
            classify(r, normalise(t)[0]) if r is not None and t > 0 else None
            for r, t in ((roll_a, self.ability), (roll_b, self.resistance))
        ]
        details = [
            _level_line(ABILITY, self.ability, roll_a, out.levels[0], raw[0]),
            _level_line(RESISTANCE, self.resistance, roll_b, out.levels[1], raw[1]),
        ]
        masteries = _masteries_line(self.ability, self.resistance)
        if masteries is not None and self.ability > 0 and self.resistance > 0:
            details.insert(0, masteries)
        if out.winner is None:
            outcome = "a tie"
            if out.levels[0] == FUMBLE and roll_a is not None:
                details.append("both fumble: a tie")
            elif roll_a is not None and roll_a == roll_b:
                details.append(f"both {LEVELS[out.levels[0]]}, equal rolls: a tie")
        else:
            side = "victory" if out.winner == "a" else "defeat"
            outcome = f"{VICTORIES[out.victory]} {side}"
            if out.levels[0] == out.levels[1]:
                details.append(f"both {LEVELS[out.levels[0]]}: the lower roll wins")
        (tie,), wins, _ = heroquest_counts(
            Party(target=self.ability), Party(target=self.resistance), "low"
        )
        chance = Fraction(sum(wins), 400)
        return RollResult(
            system=SYSTEM,
            expression=self.expression,
            faces=faces,
            outcome=outcome,
            details=tuple(details),
            chance=f"chance of victory: {percent(chance)} (tie {percent(Fraction(tie, 400))})",
        )


@dataclass(frozen=True, slots=True)
class HQLoneRoll:
    """One d20 against ``target`` (linear value after modifiers), with no opponent."""

    expression: str
    target: int

    @property
    def dice(self) -> tuple[DiceKind, ...]:
        return (DiceKind.D20,) if self.target > 0 else ()

    @property
    def roles(self) -> tuple[str, ...]:
        return ("the roll",) if self.target > 0 else ()

    def resolve(self, faces: Faces) -> RollResult:
        from core.systems.heroquest.odds import heroquest_roll_levels

        if self.target <= 0:
            return RollResult(
                system=SYSTEM,
                expression=self.expression,
                faces=faces,
                outcome="fumble: a target of 0 or less fails without a roll",
                chance=f"chance of success or better: {percent(Fraction(0))}",
            )
        roll = faces[0][0]
        base, masteries = normalise(self.target)
        raw = classify(roll, base)
        level = bump(raw, FUMBLE, masteries)[0]
        details = []
        if level != raw:
            bumps = "a mastery" if masteries == 1 else f"{masteries} masteries"
            details.append(f"{LEVELS[raw]}, bumped up to {LEVELS[level]} by {bumps}")
        chances = heroquest_roll_levels(self.target)
        return RollResult(
            system=SYSTEM,
            expression=self.expression,
            faces=faces,
            outcome=LEVELS[level],
            details=tuple(details),
            chance=f"chance of success or better: {percent(sum(chances[SUCCESS:], Fraction(0)))}"
            f" (critical {percent(chances[CRITICAL])})",
        )


class HeroQuestQuickRolls:
    """Reads ``d20 vs 14``, ``4M vs 14``, ``17 vs 10M``, ``4M-6 vs 14+3``."""

    examples = ("4M vs 14", "d20 vs 14")

    def read(self, expression: str) -> HQContestRoll | HQLoneRoll | None:
        sides = split_vs(expression)
        left = sides[0]
        lone = D20.fullmatch(left) is not None
        mastered = re.match(r"[0-9]+[MWmw]", left) is not None
        if not (lone or mastered or (len(sides) > 1 and WRITTEN_AS_RATING.fullmatch(left))):
            return None
        if len(sides) != 2:
            example = "d20 vs 14" if lone else "4M vs 14"
            raise RuleError(f'"{expression}": write the resistance after vs, like {example}')
        if lone:
            return HQLoneRoll(expression, rating(sides[1], "the roll"))
        return HQContestRoll(expression, rating(left, ABILITY), rating(sides[1], RESISTANCE))


QUICK_ROLLS = HeroQuestQuickRolls()
