"""HeroQuest group extended contests (HQ2 "Group Extended Contests"), as pure values.

A series of extended contests between pairs of characters (engagements), one exchange
per engagement each round, always in the same order, new engagements added at the end.
Each exchange is a simple contest scored by ``rules.simple_contest`` and lodges
``rules.lodged_points`` (risky gambits and defensive responses included); a character is
eliminated when one opponent has scored the goal (5; a follower acting as a contestant,
3) against them. Several opponents on one: -3 for each exchange of the round after the
first (cumulative, or by option uniform); followers as contestants, secondary contestants
or supporters; assists; disengaging and parting shots; group boosts and hero points as in
group simple contests; the contest's end and each participant's consequences by the
rising-action or climactic method (``rules.rising_action``, ``rules.climactic``).

Everything here is a frozen value and a pure function: the odds (``group_extended_odds``)
score through the same functions. The module knows nothing of the saves (import-linter
holds that). Where HQ2 reads two ways, the reading chosen is named where it is made, and
:class:`GroupRules` makes it an option where that was cheap.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Literal, get_args

from msgspec.structs import replace

from core.errors import OutOfTurn, RuleError, UnknownName
from core.limits import Count, Int, Positive
from core.model import Saved
from core.systems.heroquest.extended import EXTENDED_GOAL, climactic, lodged_points, rising_action
from core.systems.heroquest.modifiers import (
    EXTRA_OPPONENT_PENALTY,
    STRETCH_PENALTY,
    boost_cost,
    boosted,
)
from core.systems.heroquest.ratings import MASTERY
from core.systems.heroquest.resolution import (
    RESOLUTION_POINTS,
    Outcome,
    Party,
    TieBreak,
    simple_contest,
)
from core.systems.heroquest.rules import NoHeroPoints

CODEC_TAG = "heroquest"  # saved as "heroquest.GroupMember"..., beside the contest's classes

Role = Literal["character", "contestant", "secondary", "supporter"]
# A follower's roles (HQ2, Followers), as the setup offers them: all but "character".
FOLLOWER_ROLES: tuple[Role, ...] = tuple(r for r in get_args(Role) if r != "character")
Status = Literal["active", "eliminated", "disengaged", "removed"]
Aim = Literal["win", "disengage", "other"]

# HQ2, Assists: Moderate, then "High, then Very High, then Nearly Impossible" (Resistance
# Class Table, rules §2.5: +0, +6, +9, +W2); past Nearly Impossible it stays there.
ASSIST_STEPS = (0, 6, 9, 2 * MASTERY)
# HQ2, Assist Results Table: the change to the score against the recipient, by the
# assist's result from the helper's side: complete .. marginal victory, then marginal ..
# complete defeat. A tie is not in the table: no change (the reading chosen here).
ASSIST_VICTORY = (0, -1, -2, -3, -4)  # by victory level TIE..COMPLETE
ASSIST_DEFEAT = (0, 0, 1, 2, 3)
FOLLOWER_REMOVED = 2  # "an additional 2 RPs are lodged against them"


class GroupError(RuleError):
    """What the group extended contest's rules forbid."""

    title = "Not in this group contest"


class GroupRules(Saved):
    """The table's options for a group extended contest.

    ``goal``: points one opponent must score to eliminate a character (5);
    ``follower_goal``: for a follower acting as a contestant (3); ``gritty_followers``:
    such a follower, removed, takes 2 more ("a gritty genre"). ``extra_opponent_penalty``
    (3) and ``penalty``: "cumulative" (HQ2's example: 6W, then 3W, then 20, each exchange
    of the round after the first another -3) or "uniform" (every exchange -3 per opponent
    after the first, as rules.md §2.4 and the group simple contest read it).
    ``counter_disengage_penalty``: -5 for countering a disengagement while engaged by
    someone else too (replacing the multiple-opponent penalty for that roll).
    ``assist_base``: the Moderate resistance assists start from.
    """

    goal: Positive = EXTENDED_GOAL
    follower_goal: Positive = 3
    gritty_followers: bool = False
    extra_opponent_penalty: Count = EXTRA_OPPONENT_PENALTY
    penalty: Literal["cumulative", "uniform"] = "cumulative"
    counter_disengage_penalty: Count = 5
    consequences: Literal["rising", "climactic"] = "rising"
    tie_break: TieBreak = "low"
    assist_base: Int = 14
    hero_points_per_exchange: Positive = 1


class GroupMember(Saved):
    """One character in the contest. ``rating`` is the linear value of the ability it
    fights with; ``condition`` and ``bumps_down`` what earlier contests left (rules §2.6).

    ``role``: "character", or a follower of ``leader`` acting as a "contestant" (rolls,
    out at 3), a "secondary" contestant (never rolls: the leader ignores the multiple-
    opponent penalty for one foe and may shift points to it) or a "supporter" (assists
    and other unrelated actions only). ``extra_against``: points against it outside any
    engagement (shifted to it, the 2 more of a removed follower). ``felled_round``: the
    round it was taken out in; ``shot``: a parting shot was made at it; ``assisted``:
    the assists attempted for it so far (each makes the next one harder).
    """

    name: str
    side: str
    rating: Int
    vitality: Int = 0
    condition: Int = 0
    bumps_down: Count = 0
    hero_points: Count = 0
    role: Role = "character"
    leader: str | None = None
    status: Status = "active"
    extra_against: Count = 0
    felled_round: Count | None = None
    shot: bool = False
    assisted: Count = 0

    @property
    def active(self) -> bool:
        return self.status == "active"

    @property
    def fights(self) -> bool:
        """Whether it may be engaged (a secondary contestant or a supporter may not)."""
        return self.role in ("character", "contestant")


class Engagement(Saved):
    """One pairing: the points scored against ``a`` and against ``b``. ``open`` until one
    of them is out of it; ``felled`` names who it took out (None: left incomplete).
    ``top_a``/``top_b``: the highest rating each used in it (HQ2: a winner's final
    victory level is the one against the opponent with the highest target number)."""

    a: str
    b: str
    against_a: Count = 0
    against_b: Count = 0
    open: bool = True
    felled: str | None = None
    top_a: Int = 0
    top_b: Int = 0

    def against(self, name: str) -> int:
        return self.against_a if name == self.a else self.against_b

    def other(self, name: str) -> str:
        return self.b if name == self.a else self.a

    def has(self, name: str) -> bool:
        return name in (self.a, self.b)

    def scored(self, name: str, points: int) -> Engagement:
        """``points`` more (or fewer) against ``name``, never below 0."""
        if name == self.a:
            return replace(self, against_a=max(0, self.against_a + points))
        return replace(self, against_b=max(0, self.against_b + points))


class GroupBoost(Saved):
    """A group boost bought for ``side`` for the round (rules §2.7.4): ``steps`` levels
    on each of its exchanges this round that it ties or wins; ``cost`` hero points paid."""

    side: str
    steps: Positive
    cost: Count


class GroupContest(Saved):
    """A group extended contest: its members, engagements (in their order of play), the
    round, the engagements that have had their exchange this round (``done``, indexes),
    each exchange of the round as (character, opponent) (``met``: the multiple-opponent
    penalty counts them), the round's boost, and the end."""

    members: tuple[GroupMember, ...]
    engagements: tuple[Engagement, ...] = ()
    rules: GroupRules = GroupRules()
    round: Positive = 1
    done: tuple[Count, ...] = ()
    met: tuple[tuple[str, str], ...] = ()
    boost: GroupBoost | None = None
    finished: bool = False
    winner: str | None = None

    def member(self, name: str) -> GroupMember:
        for m in self.members:
            if m.name == name:
                return m
        names = ", ".join(m.name for m in self.members)
        raise UnknownName(f'no participant "{name}" (taking part: {names})')

    @property
    def sides(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(m.side for m in self.members))

    def with_member(self, new: GroupMember) -> GroupContest:
        return replace(self, members=tuple(new if m.name == new.name else m for m in self.members))

    def with_engagement(self, index: int, new: Engagement) -> GroupContest:
        found = list(self.engagements)
        found[index] = new
        return replace(self, engagements=tuple(found))

    def open_engagements(self, name: str) -> tuple[int, ...]:
        return tuple(i for i, e in enumerate(self.engagements) if e.open and e.has(name))

    def standing(self, side: str) -> tuple[str, ...]:
        """Who keeps ``side`` in the contest: its active characters and contestant
        followers (secondary contestants and supporters do not engage the other side)."""
        return tuple(m.name for m in self.members if m.side == side and m.active and m.fights)


def new_group_contest(
    members: Sequence[GroupMember],
    pairs: Sequence[tuple[str, str]] = (),
    rules: GroupRules | None = None,
) -> GroupContest:
    """A contest before its first round, with the initial pairings in order of play."""
    contest = GroupContest(members=tuple(members), rules=rules or GroupRules())
    names = [m.name for m in contest.members]
    if len(set(names)) != len(names):
        raise GroupError("two participants share a name")
    if len(contest.sides) != 2:
        raise GroupError("a group extended contest is between exactly two sides")
    for m in contest.members:
        if m.role != "character" and (m.leader is None or contest.member(m.leader).side != m.side):
            raise GroupError(f"{m.name} follows nobody on side {m.side}")
    for a, b in pairs:
        contest = engage(contest, a, b)
    return contest


# -- who acts, and at what -------------------------------------------------------------


def pending(contest: GroupContest) -> tuple[int, ...]:
    """The engagements still to have their exchange this round, in order of play."""
    return tuple(i for i, e in enumerate(contest.engagements) if e.open and i not in contest.done)


def next_round(contest: GroupContest) -> GroupContest:
    """The next round, once every open engagement has had its exchange (HQ2: "until all
    pairings have resolved a single exchange. Once this happens, the round concludes")."""
    if contest.finished:
        raise OutOfTurn("the contest is over")
    if pending(contest):
        raise OutOfTurn("every engagement has its exchange before the round ends")
    return replace(contest, round=contest.round + 1, done=(), met=(), boost=None)


def engage(contest: GroupContest, a: str, b: str) -> GroupContest:
    """``a`` engages ``b``: a new engagement at the end of the order (HQ2: "new contests,
    which are then added to the end of the existing sequence"). Two who were engaged
    before (one disengaged, or was taken out and came back) resume their old engagement
    with its scores ("Original scores remain intact if you re-enter")."""
    if contest.finished:
        raise OutOfTurn("the contest is over")
    ma, mb = contest.member(a), contest.member(b)
    for m in (ma, mb):
        if not m.active:
            raise GroupError(f"{m.name} is out of the contest ({m.status})")
        if not m.fights:
            raise GroupError(f"{m.name} is a {m.role} follower: it does not engage")
    if ma.side == mb.side:
        raise GroupError(f"{a} and {b} are both on side {ma.side}")
    for i, e in enumerate(contest.engagements):
        if e.has(a) and e.has(b):
            if e.open:
                raise GroupError(f"{a} and {b} are already engaged")
            resumed = replace(e, open=True, felled=None)
            moved = [x for j, x in enumerate(contest.engagements) if j != i]
            return replace(contest, engagements=(*moved, resumed), done=_reindexed(contest, i))
    return replace(contest, engagements=(*contest.engagements, Engagement(a=a, b=b)))


def _reindexed(contest: GroupContest, removed: int) -> tuple[int, ...]:
    return tuple(d if d < removed else d - 1 for d in contest.done if d != removed)


def secondaries(contest: GroupContest, name: str) -> int:
    """Active followers of ``name`` acting as secondary contestants."""
    return sum(
        1 for m in contest.members if m.leader == name and m.role == "secondary" and m.active
    )


def opponent_penalty(contest: GroupContest, name: str) -> int:
    """The multiple-opponent penalty on ``name``'s next exchange this round (HQ2,
    Engaging Multiple Opponents): -3 for each exchange it already had this round against
    an opponent still engaging it (Skullhead, his first opponent knocked out, faces the
    next at no penalty), one foe ignored per secondary-contestant follower. By option
    ``uniform``: -3 per open engagement after the first, on each of them."""
    r = contest.rules
    if r.penalty == "uniform":
        count = len(contest.open_engagements(name)) - 1
    else:
        count = sum(
            1
            for who, opponent in contest.met
            if who == name
            and any(contest.engagements[i].has(opponent) for i in contest.open_engagements(name))
        )
    return r.extra_opponent_penalty * max(0, count - secondaries(contest, name))


class Move(Saved):
    """What one party does in its exchange: its roll (None only at a target of 0 or
    less), a modifier (an augment's bonus, circumstances), hero points (one per exchange),
    its ``aim``: "win" the engagement, "disengage", or "other" (an asymmetrical exchange:
    a win scores nothing; HQ2, Asymmetrical Exchanges), a risky gambit or a defensive
    response, a stretch, another ability's ``rating`` for this exchange, and points it
    shifts to its secondary-contestant follower after the exchange (``shift``)."""

    roll: Int | None = None
    modifier: Int = 0
    hero_points: Count = 0
    aim: Aim = "win"
    gambit: bool = False
    defensive: bool = False
    stretched: bool = False
    rating: Int | None = None
    shift: Count = 0


PLAIN = Move()


class GroupExchange(Saved):
    """One exchange, scored: the two targets and the simple contest's outcome (levels,
    winner "a"/"b"/None, victory), the points lodged against the loser, who was taken
    out by it (eliminated, or a follower removed), who disengaged."""

    engagement: Count
    a: str
    b: str
    targets: tuple[Int, Int]
    outcome: Outcome
    points: Count
    out: tuple[str, ...] = ()
    disengaged: str | None = None


def exchange_targets(
    contest: GroupContest, index: int, a: Move = PLAIN, b: Move = PLAIN
) -> tuple[int, int]:
    """Both parties' linear targets for engagement ``index``'s exchange: rating (or the
    move's) + vitality + condition + modifier, -6 stretched, less the multiple-opponent
    penalty; the party countering a disengagement while engaged by someone else too takes
    -5 instead (HQ2, Disengagement in Group Extended Contests)."""
    e = contest.engagements[index]
    out: list[int] = []
    for name, move, other in ((e.a, a, b), (e.b, b, a)):
        value = _plain_target(contest, name, move)
        if other.aim == "disengage" and len(contest.open_engagements(name)) > 1:
            value -= contest.rules.counter_disengage_penalty
        else:
            value -= opponent_penalty(contest, name)
        out.append(value)
    return out[0], out[1]


def _party(contest: GroupContest, name: str, target: int, move: Move) -> Party:
    return Party(
        target=target,
        roll=move.roll,
        hero_points=move.hero_points,
        stretched=move.stretched,
        bumps_down=contest.member(name).bumps_down,
    )


def exchange_parties(
    contest: GroupContest, index: int, a: Move = PLAIN, b: Move = PLAIN
) -> tuple[Party, Party]:
    """Engagement ``index``'s two parties as ``rules.simple_contest`` scores them."""
    e = contest.engagements[index]
    ta, tb = exchange_targets(contest, index, a, b)
    return _party(contest, e.a, ta, a), _party(contest, e.b, tb, b)


def boosted_outcome(contest: GroupContest, index: int, out: Outcome) -> Outcome:
    """``out`` raised by the round's group boost (rules §2.7.4, as in a group simple
    contest): when the boosting side's party ties or wins this exchange, its victory goes
    up the boost's steps (a tie becomes its marginal victory). Read here as applying to
    each exchange of that side in the round it was bought for."""
    boost = contest.boost
    if boost is None:
        return out
    e = contest.engagements[index]
    mine: Literal["a", "b"] | None = (
        "a"
        if contest.member(e.a).side == boost.side
        else "b"
        if contest.member(e.b).side == boost.side
        else None
    )
    if mine is None or out.winner not in (None, mine):
        return out
    return replace(out, winner=mine, victory=boosted(out.victory, boost.steps))


def _check_exchange(contest: GroupContest, index: int, a: Move, b: Move) -> None:
    if contest.finished:
        raise OutOfTurn("the contest is over")
    if not 0 <= index < len(contest.engagements):
        raise GroupError(f"no engagement {index}")
    e = contest.engagements[index]
    if not e.open:
        raise GroupError(f"{e.a} and {e.b} are no longer engaged")
    if index in contest.done:
        raise OutOfTurn(f"{e.a} and {e.b} have had their exchange this round")
    if a.aim != "win" and b.aim != "win":
        raise GroupError("at least one party tries to win the exchange")
    for name, move in ((e.a, a), (e.b, b)):
        _check_move(contest, name, move)
        if move.gambit and move.defensive:
            raise GroupError(f"{name} makes a risky gambit or a defensive response, not both")
        if move.roll is not None and not 1 <= move.roll <= 20:
            raise GroupError(f"{name}'s d20 shows 1 to 20, not {move.roll}")
        if move.shift and not secondaries(contest, name):
            raise GroupError(f"{name} has no follower acting as a secondary contestant")


def exchange_points(out: Outcome, a: Move, b: Move) -> int:
    """The points an exchange's winner lodges: none on a tie, none when the winner was
    not trying to win (HQ2, Asymmetrical Exchanges: "does not score points against the
    other if he wins"; a disengagement is one), else ``rules.lodged_points`` (risky
    gambits and defensive responses, rules §2.8.4-5)."""
    if out.winner is None:
        return 0
    win, lose = (a, b) if out.winner == "a" else (b, a)
    if win.aim != "win":
        return 0
    return lodged_points(
        out.victory,
        winner_gambled=win.gambit,
        loser_gambled=lose.gambit,
        winner_defensive=win.defensive,
        loser_defensive=lose.defensive,
    )


def score_exchange(contest: GroupContest, index: int, a: Move, b: Move) -> tuple[Outcome, int]:
    """The simple contest of engagement ``index`` (boost included) and the points its
    winner lodges (:func:`exchange_points`)."""
    pa, pb = exchange_parties(contest, index, a, b)
    out = boosted_outcome(contest, index, simple_contest(pa, pb, contest.rules.tie_break))
    return out, exchange_points(out, a, b)


def apply_exchange(
    contest: GroupContest,
    index: int,
    a: Move,
    b: Move,
    winner: Literal["a", "b"] | None,
    points: int,
) -> tuple[GroupContest, tuple[str, ...], str | None]:
    """Engagement ``index``'s exchange, scored (``winner`` lodging ``points``), applied:
    the hero points spent, the points against the loser, what a party shifts to its
    follower, whoever reached the goal taken out (and their other engagements ended
    incomplete), a winning disengager gone, the end when a side has nobody standing.
    Returns the contest, who was taken out, who disengaged."""
    e = contest.engagements[index]
    c = _spend(_spend(contest, e.a, a), e.b, b)
    engaged = replace(
        e,
        top_a=max(e.top_a, a.rating if a.rating is not None else c.member(e.a).rating),
        top_b=max(e.top_b, b.rating if b.rating is not None else c.member(e.b).rating),
    )
    disengaged: str | None = None
    if winner is not None:
        won, lost = (e.a, e.b) if winner == "a" else (e.b, e.a)
        engaged = engaged.scored(lost, points)
        if (a if winner == "a" else b).aim == "disengage":
            disengaged = won
    c = c.with_engagement(index, engaged)
    c = replace(c, done=(*c.done, index), met=(*c.met, (e.a, e.b), (e.b, e.a)))
    for name, move in ((e.a, a), (e.b, b)):
        if move.shift:
            c = shift_points(c, name, index, move.shift)
    taken: list[str] = []
    for name in (e.a, e.b):
        if c.member(name).active and c.engagements[index].against(name) >= _goal(c, name):
            c = _take_out(c, name, index, "eliminated")
            taken.append(name)
    if disengaged is not None and c.member(disengaged).active:
        c = _leave(c, disengaged, "disengaged")
    return _check_end(c), tuple(taken), disengaged


def resolve_exchange(
    contest: GroupContest, index: int, a: Move = PLAIN, b: Move = PLAIN
) -> tuple[GroupContest, GroupExchange]:
    """Play engagement ``index``'s exchange this round (:func:`score_exchange`, then
    :func:`apply_exchange`)."""
    _check_exchange(contest, index, a, b)
    e = contest.engagements[index]
    _rolled(*zip((e.a, e.b), exchange_parties(contest, index, a, b), strict=True))
    targets = exchange_targets(contest, index, a, b)
    out, points = score_exchange(contest, index, a, b)
    c, taken, disengaged = apply_exchange(contest, index, a, b, out.winner, points)
    report = GroupExchange(
        engagement=index,
        a=e.a,
        b=e.b,
        targets=targets,
        outcome=out,
        points=points,
        out=taken,
        disengaged=disengaged,
    )
    return c, report


def _goal(contest: GroupContest, name: str) -> int:
    r = contest.rules
    return r.follower_goal if contest.member(name).role == "contestant" else r.goal


def _leave(contest: GroupContest, name: str, status: Status) -> GroupContest:
    """``name`` out of the contest with ``status``: its open engagements end incomplete."""
    engagements = tuple(
        replace(e, open=False) if e.open and e.has(name) else e for e in contest.engagements
    )
    m = contest.member(name)
    return replace(contest, engagements=engagements).with_member(replace(m, status=status))


def _take_out(contest: GroupContest, name: str, index: int, status: Status) -> GroupContest:
    """``name`` taken out by engagement ``index`` (HQ2: "When a character has 5 points
    scored against him by a single opponent, he is eliminated"); a follower acting as a
    contestant takes 2 more in a gritty genre."""
    c = _leave(contest, name, status)
    c = c.with_engagement(index, replace(c.engagements[index], felled=name))
    m = c.member(name)
    extra = FOLLOWER_REMOVED if m.role == "contestant" and c.rules.gritty_followers else 0
    return c.with_member(replace(m, felled_round=c.round, extra_against=m.extra_against + extra))


def _check_end(contest: GroupContest) -> GroupContest:
    """HQ2: "The group extended contest ends as soon as there are no active characters on
    one side of the conflict. The side with one or more characters left standing wins."
    """
    left = [side for side in contest.sides if contest.standing(side)]
    if len(left) == 2:
        return replace(contest, finished=False, winner=None)
    return replace(contest, finished=True, winner=left[0] if left else None)


# -- followers ----------------------------------------------------------------------------


def shift_points(contest: GroupContest, leader: str, index: int, points: int) -> GroupContest:
    """``leader`` shifts ``points`` scored against it in engagement ``index`` to its
    follower acting as a secondary contestant (HQ2, Followers: "at any point, shift any
    number of RPs to a follower"); the follower, at 3 or more, is removed from the scene
    with 2 more lodged against it. With several such followers, the first still active."""
    if not 0 <= index < len(contest.engagements):
        raise GroupError(f"no engagement {index}")
    e = contest.engagements[index]
    if not e.has(leader):
        raise GroupError(f"{leader} is not in engagement {index}")
    if points < 1 or points > e.against(leader):
        raise GroupError(f"{leader} has {e.against(leader)} points against it there to shift")
    follower = next(
        (m for m in contest.members if m.leader == leader and m.role == "secondary" and m.active),
        None,
    )
    if follower is None:
        raise GroupError(f"{leader} has no follower acting as a secondary contestant")
    c = contest.with_engagement(index, e.scored(leader, -points))
    total = follower.extra_against + points
    if total >= contest.rules.follower_goal:
        removed = replace(
            follower, status="removed", felled_round=c.round, extra_against=total + FOLLOWER_REMOVED
        )
        return c.with_member(removed)
    return c.with_member(replace(follower, extra_against=total))


def remove_follower(
    contest: GroupContest,
    attacker: str,
    follower: str,
    attack: Move,
    defence: Move,
) -> tuple[GroupContest, Outcome]:
    """An otherwise unengaged opponent tries to remove a follower (HQ2, Followers): a
    simple contest of relevant abilities (``Move.rating`` for another ability); on any
    defeat the follower is out, with the usual points for the result plus 2."""
    ma, mf = contest.member(attacker), contest.member(follower)
    if contest.finished:
        raise OutOfTurn("the contest is over")
    if mf.role == "character" or not mf.active:
        raise GroupError(f"{follower} is not a follower in the contest")
    if not ma.active or ma.side == mf.side:
        raise GroupError(f"{attacker} is not an active opponent of {follower}")
    if contest.open_engagements(attacker):
        raise GroupError(f"{attacker} is engaged: only an unengaged opponent removes a follower")
    out = _contest(contest, attacker, attack, follower, defence)
    c = _spend(_spend(contest, attacker, attack), follower, defence)
    if out.winner != "a":
        return c, out
    points = RESOLUTION_POINTS[out.victory] + FOLLOWER_REMOVED
    c = _leave(c, follower, "removed")
    m = c.member(follower)
    c = c.with_member(replace(m, felled_round=c.round, extra_against=m.extra_against + points))
    return _check_end(c), out


def _contest(contest: GroupContest, a: str, move_a: Move, b: str, move_b: Move) -> Outcome:
    """A simple contest outside the engagements (no multiple-opponent penalty)."""
    parties = []
    for name, move in ((a, move_a), (b, move_b)):
        _check_move(contest, name, move)
        parties.append(_party(contest, name, _plain_target(contest, name, move), move))
    _rolled((a, parties[0]), (b, parties[1]))
    return simple_contest(parties[0], parties[1], contest.rules.tie_break)


def _check_move(contest: GroupContest, name: str, move: Move) -> None:
    m = contest.member(name)
    most = contest.rules.hero_points_per_exchange
    if move.hero_points > most:
        raise GroupError(f"{name} may spend at most {most} hero point per exchange")
    if move.hero_points > m.hero_points:
        raise NoHeroPoints(f"{name} has only {m.hero_points} hero points")
    if move.roll is not None and not 1 <= move.roll <= 20:
        raise GroupError(f"{name}'s d20 shows 1 to 20, not {move.roll}")


def _rolled(*parties: tuple[str, Party]) -> None:
    """Every party that rolls has its roll (a target of 0 or less rolls none, rules
    §2.2)."""
    for name, party in parties:
        if party.target > 0 and party.roll is None:
            raise OutOfTurn(f"{name} has not rolled yet")


def _spend(contest: GroupContest, name: str, move: Move) -> GroupContest:
    m = contest.member(name)
    return contest.with_member(replace(m, hero_points=m.hero_points - move.hero_points))


# -- assists ------------------------------------------------------------------------------


def assist_resistance(contest: GroupContest, beneficiary: str, adjust: int = 0) -> int:
    """The resistance to the next assist for ``beneficiary`` (HQ2, Assists): Moderate
    (the base), then High, Very High and Nearly Impossible, whoever makes it; ``adjust``
    moves the starting class a step up (1) or down (-1) as the Narrator sees fit (down
    from Moderate: Low, -6)."""
    step = contest.member(beneficiary).assisted + adjust
    if step < 0:
        return contest.rules.assist_base - 6
    return contest.rules.assist_base + ASSIST_STEPS[min(step, len(ASSIST_STEPS) - 1)]


def assist_change(out: Outcome) -> int:
    """The change to the score against the recipient for an assist's result, ``a`` the
    helper (HQ2, Assist Results Table): complete victory -4, major -3, minor -2, marginal
    -1; marginal defeat 0, minor +1, major +2, complete +3; a tie 0."""
    if out.winner == "a":
        return ASSIST_VICTORY[out.victory]
    if out.winner == "b":
        return ASSIST_DEFEAT[out.victory]
    return 0


def assist(
    contest: GroupContest,
    helper: str,
    beneficiary: str,
    index: int,
    help_move: Move,
    resistance_roll: int | None,
    resistance: int | None = None,
) -> tuple[GroupContest, Outcome]:
    """``helper``, not engaged, assists a teammate in engagement ``index`` (HQ2,
    Assists): a simple contest against ``resistance`` (default: the escalating class of
    :func:`assist_resistance`); the result changes the score against the beneficiary in
    that one engagement, never below 0, and may eliminate it."""
    mh, mb = contest.member(helper), contest.member(beneficiary)
    if contest.finished:
        raise OutOfTurn("the contest is over")
    if helper == beneficiary:
        raise GroupError("a character cannot assist itself")
    if mh.side != mb.side:
        raise GroupError(f"{helper} and {beneficiary} are not on the same side")
    if mh.status in ("eliminated", "removed"):
        raise GroupError(f"{helper} is out of the contest")
    if contest.open_engagements(helper):
        raise GroupError(f"{helper} is engaged: only a character not enmeshed assists")
    if index not in contest.open_engagements(beneficiary):
        raise GroupError(f"{beneficiary} is not in an open engagement {index}")
    value = assist_resistance(contest, beneficiary) if resistance is None else resistance
    _check_move(contest, helper, help_move)
    helper_party = _party(contest, helper, _plain_target(contest, helper, help_move), help_move)
    res_party = Party(target=value, roll=resistance_roll)
    _rolled((helper, helper_party), ("the resistance", res_party))
    out = simple_contest(helper_party, res_party, contest.rules.tie_break)
    c = _spend(contest, helper, help_move)
    c = c.with_member(replace(c.member(beneficiary), assisted=mb.assisted + 1))
    c = c.with_engagement(index, c.engagements[index].scored(beneficiary, assist_change(out)))
    if c.engagements[index].against(beneficiary) >= _goal(c, beneficiary):
        c = _check_end(_take_out(c, beneficiary, index, "eliminated"))
    return c, out


def _plain_target(contest: GroupContest, name: str, move: Move) -> int:
    m = contest.member(name)
    value = (m.rating if move.rating is None else move.rating) + m.vitality + m.condition
    return value + move.modifier - (STRETCH_PENALTY if move.stretched else 0)


# -- parting shots ------------------------------------------------------------------------


def parting_shot(
    contest: GroupContest,
    shooter: str,
    target: str,
    shot: Move,
    defence: Move,
) -> tuple[GroupContest, Outcome]:
    """A parting shot at ``target`` in the round after it was taken out (HQ2, Parting
    Shot), by an opponent (its victor, or an unengaged one): a simple contest (the
    target's ``defence.rating`` may be the resistance the Narrator rolls for it). A win
    adds its points to those against the target in the engagement that removed it; the
    target's win takes its points off them, and below the goal it returns to the
    contest (and the contest goes on if it had ended). One parting shot per target."""
    ms, mt = contest.member(shooter), contest.member(target)
    if mt.status != "eliminated" or mt.felled_round is None:
        raise GroupError(f"{target} has not been taken out of the contest")
    after = mt.felled_round + 1
    if contest.round != after and not (contest.finished and contest.round == mt.felled_round):
        raise OutOfTurn(f"a parting shot at {target} is for the round after it fell")
    if mt.shot:
        raise GroupError(f"a parting shot was already made at {target}")
    if ms.side == mt.side:
        raise GroupError("no parting shots at a teammate")
    if not ms.active:
        raise GroupError(f"{shooter} is out of the contest")
    index = next((i for i, e in enumerate(contest.engagements) if e.felled == target), None)
    if index is None:
        raise GroupError(f"no engagement took {target} out")
    out = _contest(contest, shooter, shot, target, defence)
    c = _spend(_spend(contest, shooter, shot), target, defence)
    c = c.with_member(replace(c.member(target), shot=True))
    e = c.engagements[index]
    if out.winner == "a":
        return c.with_engagement(index, e.scored(target, RESOLUTION_POINTS[out.victory])), out
    if out.winner == "b":
        e = e.scored(target, -RESOLUTION_POINTS[out.victory])
        c = c.with_engagement(index, e)
        if e.against(target) < _goal(c, target):
            c = c.with_engagement(index, replace(e, felled=None))
            c = c.with_member(replace(c.member(target), status="active", felled_round=None))
            c = _check_end(c)
    return c, out


# -- boosts -------------------------------------------------------------------------------


def buy_boost(
    contest: GroupContest, side: str, paid: Mapping[str, int], double: bool = False
) -> GroupContest:
    """A group boost for ``side`` this round, bought before its rolls (rules §2.7.4): 1
    hero point for 1-3 members, 2 for 4-6... (``rules.boost_cost``), twice for a double.
    One boost a round (as one per group simple contest)."""
    if contest.boost is not None:
        raise GroupError(f"this round already has a boost, for {contest.boost.side}")
    if side not in contest.sides:
        raise UnknownName(f'no side "{side}"')
    members = [m for m in contest.members if m.side == side]
    if any(contest.member(n).side == side for n, _ in contest.met):
        raise OutOfTurn(f"{side} has rolled this round already: a boost comes before the rolls")
    cost = boost_cost(len(members), double)
    c = contest
    for name, count in paid.items():  # each payer first: the total says nothing of -1
        m = c.member(name)
        if m.side != side:
            raise GroupError(f"{name} is not on side {side}")
        if count < 0:
            raise GroupError(f"{name} pays {count}: hero points paid cannot be negative")
        if count > m.hero_points:
            raise NoHeroPoints(f"{name} has only {m.hero_points} hero points")
        c = c.with_member(replace(m, hero_points=m.hero_points - count))
    if sum(paid.values()) != cost:
        raise GroupError(
            f"a {'double ' if double else ''}boost for {side} costs {cost}, "
            f"not {sum(paid.values())}"
        )
    return replace(c, boost=GroupBoost(side=side, steps=2 if double else 1, cost=cost))


# -- the end ------------------------------------------------------------------------------


class GroupConsequences(Saved):
    """Each participant's states of adversity (several: a rising-action winner may be
    hurt once per exchange it won by 1) and the victory levels of the winners."""

    states: Mapping[str, tuple[str, ...]]
    victories: Mapping[str, Int]


def total_against(contest: GroupContest, name: str) -> int:
    """Every point scored against ``name``: in each engagement, won, lost or left
    incomplete, and outside them (shifted to a follower, a follower's 2 more)."""
    inside = sum(e.against(name) for e in contest.engagements if e.has(name))
    return inside + contest.member(name).extra_against


def consequences(contest: GroupContest) -> GroupConsequences:
    """Each participant's consequences (HQ2, Group Extended Contests).

    Rising action: only the engagement that felled a character counts, by its difference
    (``rules.rising_action``); its victor gets that victory level (hurt too at 1); those
    not felled, and those who disengaged, suffer nothing. A follower removed outside an
    engagement counts its points against it as the difference. A character that won
    several takes the level against the opponent with the highest rating.

    Climactic: everyone's total (:func:`total_against`), 1 more for each member of the
    losing side (disengaged or not), by ``rules.climactic``; every member of the winning
    side takes the level from the second-worst state among the losers."""
    if contest.rules.consequences == "climactic":
        losers = [m.name for m in contest.members if contest.winner and m.side != contest.winner]
        level, states = climactic(
            {m.name: total_against(contest, m.name) for m in contest.members}, losers
        )
        victories = (
            {m.name: level for m in contest.members if m.side == contest.winner}
            if contest.winner
            else {}
        )
        return GroupConsequences(states={n: (s,) for n, s in states.items()}, victories=victories)
    found: dict[str, list[str]] = {}
    best: dict[str, tuple[int, int]] = {}  # winner -> (opponent's top rating, level)
    for e in contest.engagements:
        if e.felled is None:
            continue
        victor = e.other(e.felled)
        difference = e.against(e.felled) - e.against(victor)
        level, state = rising_action(difference)
        found.setdefault(e.felled, []).append(state)
        if difference <= 1:  # rules §2.8.6: at a difference of 1 the winner is hurt too
            found.setdefault(victor, []).append("hurt")
        top = e.top_b if e.felled == e.b else e.top_a
        if victor not in best or top > best[victor][0]:
            best[victor] = (top, level)
    for m in contest.members:
        if m.status == "removed" and m.name not in found:
            found[m.name] = [rising_action(m.extra_against)[1]]
    return GroupConsequences(
        states={n: tuple(s) for n, s in found.items()},
        victories={n: lv for n, (_, lv) in best.items()},
    )
