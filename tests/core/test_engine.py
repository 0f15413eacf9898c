"""The engine: the one path every change takes, and the only caller of the rules.

The contest used throughout is the Fate seed contest (``fate-cynere-vs-teran``): Cynere
(Fight 4, two fate points) against Teran (Fight 3), three victories to win, with the dice
the example gives. Worked from the rules (a win is one victory, a win by 3 or more
shifts, with style, two; a tie gives no victory and a twist):

1. Cynere 4 + (---0 = -3) = 1, Teran 3 + 0 = 3: Teran wins by 2, one victory (0-1);
2. Cynere 4 + 1 = 5, Teran 3 - 1 = 2: Cynere by 3, with style, two victories (2-1);
3. Cynere 4 - 1 = 3, Teran 3 + 0 = 3: a tie, the twist "Magical Distortions" (2-1);
4. Cynere 4 + 0, invoking two aspects at a fate point each (+2 +2) = 8, Teran 3 + 1 = 4:
   Cynere by 4, with style (4-1): she has three victories, she wins, no fate point left.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

from core.engine import Run, apply, decide, fold, play, play_until_refused
from core.errors import ContestOver
from core.model import Command, ContestEnded, ExchangeEvent, ResolveExchange, RollDice
from core.systems.fate.events import InvokeAspect
from core.systems.fate.rules import NoFatePoints
from core.systems.fate.state import Aspect, FateContest, FateParticipant, new_contest
from tests.helpers import SCENARIOS

ROOT = Path(__file__).resolve().parents[2]


def start() -> FateContest:
    return new_contest(
        [
            FateParticipant(name="Cynere", side="Cynere", skill=4, fate_points=2),
            FateParticipant(name="Teran", side="Teran", skill=3, fate_points=0),
        ],
        aspects=[Aspect(name="Muddy Ground"), Aspect(name="I've Got Zird's Back")],
    )


def rolls(cynere: str, teran: str) -> list[Command]:
    faces = {"+": 1, "0": 0, "-": -1}
    return [
        RollDice(who="Cynere", faces=tuple(faces[f] for f in cynere)),
        RollDice(who="Teran", faces=tuple(faces[f] for f in teran)),
    ]


def invoke(aspect: str) -> Command:
    return InvokeAspect(by="Cynere", aspect=aspect)


EXCHANGES: list[list[Command]] = [
    [*rolls("---0", "0000"), ResolveExchange()],
    [*rolls("+000", "-000"), ResolveExchange()],
    [*rolls("-000", "0000"), ResolveExchange(twist="Magical Distortions")],
    [
        *rolls("0000", "+000"),
        invoke("I've Got Zird's Back"),
        invoke("Magical Distortions"),
        ResolveExchange(),
    ],
]
CONTEST = [c for exchange in EXCHANGES for c in exchange]


def fate(contest: object) -> FateContest:
    assert isinstance(contest, FateContest)
    return contest


# -- play -----------------------------------------------------------------------------------


def test_play_plays_the_fate_seed_contest_to_the_victories_worked_by_hand() -> None:
    contest, events = play(start(), CONTEST)
    after = fate(contest)
    assert after.victories == {"Cynere": 4, "Teran": 1}
    assert (after.finished, after.winner, after.n) == (True, "Cynere", 4)
    assert {p.name: p.fate_points for p in after.participants} == {"Cynere": 0, "Teran": 0}
    assert [a.name for a in after.aspects][-1] == "Magical Distortions"
    exchanges = [e for e in events if isinstance(e, ExchangeEvent)]
    assert [e.n for e in exchanges] == [1, 2, 3, 4]
    assert isinstance(events[-1], ContestEnded)
    # ...which is what the example's expected file states
    expected = json.loads((SCENARIOS / "fate-cynere-vs-teran.expected.json").read_text())
    assert after.victories == expected["score"]
    assert after.winner == expected["winner"]


def test_play_is_apply_command_after_command_and_its_events_fold_to_the_same_contest() -> None:
    contest, events = start(), []
    for command in CONTEST:
        contest, new = apply(contest, command)
        events.extend(new)
    assert play(start(), CONTEST) == (contest, tuple(events))
    assert fold(start(), events) == contest


def test_play_of_nothing_changes_nothing() -> None:
    assert play(start(), []) == (start(), ())


def test_play_raises_the_rules_own_error_for_the_first_refused_command() -> None:
    """Teran has no fate point to invoke with: the rules' ``NoFatePoints``, the class and
    the message ``decide`` gives, not a wrapper; the resolve after it never plays."""
    rolled, _ = play(start(), rolls("0000", "0000"))
    teran_invokes = InvokeAspect(by="Teran", aspect="Muddy Ground")
    with pytest.raises(NoFatePoints) as direct:
        decide(rolled, teran_invokes)
    with pytest.raises(NoFatePoints) as played:
        play(start(), [*rolls("0000", "0000"), teran_invokes, ResolveExchange()])
    assert type(played.value) is type(direct.value)
    assert str(played.value) == str(direct.value)


# -- play_until_refused ---------------------------------------------------------------------


def test_play_until_refused_keeps_each_commands_events_and_the_contest_after_it() -> None:
    run = play_until_refused(start(), CONTEST)
    assert run.refusal is None
    assert run.commands == tuple(CONTEST)
    assert (run.contest, run.events) == play(start(), CONTEST)
    resolves = [s for s in run.steps if isinstance(s.command, ResolveExchange)]
    assert [fate(s.contest).n for s in resolves] == [1, 2, 3, 4]
    assert [tuple(fate(s.contest).victories.values()) for s in resolves] == [
        (0, 1),
        (2, 1),
        (2, 1),
        (4, 1),
    ]
    # the last resolve is the one that also ends the contest (a Fate end says what the
    # scene owes, §1.4.1); a roll causes one event
    ended = resolves[-1].events
    assert [type(e).__name__ for e in ended] == ["ExchangeResolved", "FateContestEnded"]
    assert isinstance(ended[-1], ContestEnded) and ended[-1].winner == "Cynere"
    assert [len(s.events) for s in run.steps[:2]] == [1, 1]


def test_play_until_refused_stops_at_the_refusal_and_says_which_command_and_why() -> None:
    teran_invokes = InvokeAspect(by="Teran", aspect="Muddy Ground")
    commands = [*rolls("+000", "-000"), teran_invokes, ResolveExchange()]
    run = play_until_refused(start(), commands)
    assert run.refusal is not None
    assert (run.refusal.index, run.refusal.command) == (2, teran_invokes)
    assert isinstance(run.refusal.error, NoFatePoints)
    assert run.commands == tuple(commands[:2])
    after = fate(run.contest)
    assert (after.n, after.victories) == (0, {"Cynere": 0, "Teran": 0})  # not resolved
    assert set(after.open.dice) == {"Cynere", "Teran"}


def test_a_refused_first_command_leaves_the_start() -> None:
    run = play_until_refused(start(), [ResolveExchange()])  # nobody has rolled
    assert run.refusal is not None and run.refusal.index == 0
    assert (run.steps, run.contest, run.events, run.commands) == ((), start(), (), ())


def test_play_until_refused_stops_at_the_end_of_the_contest_only_when_asked() -> None:
    """A fifth exchange after Cynere has won: refused as the rules refuse it, or, with
    ``stop_at_end``, simply not played (what replaying a corrected contest wants)."""
    commands = [*CONTEST, *rolls("0000", "0000")]
    refused = play_until_refused(start(), commands)
    assert refused.refusal is not None
    assert refused.refusal.index == len(CONTEST)
    assert isinstance(refused.refusal.error, ContestOver)
    stopped = play_until_refused(start(), commands, stop_at_end=True)
    assert stopped.refusal is None
    assert stopped.commands == tuple(CONTEST)
    assert stopped.contest == refused.contest == play(start(), CONTEST)[0]


def test_a_run_is_a_plain_value() -> None:
    run = play_until_refused(start(), EXCHANGES[0])
    assert run == Run(start(), run.steps)
    assert fate(run.contest).victories == {"Cynere": 0, "Teran": 1}


# -- nothing else calls the rules' decide or evolve -----------------------------------------

ALLOWED = ("core/engine.py", "core/rules/")  # and each system's own rules module


def allowed(name: str, source: str = "") -> bool:
    """The engine, the registry, and a system's rules calling themselves (its
    ``rules.py``, the modules that play another kind of scene and hand it on:
    ``play.py``, Fate's ``conflict_play.py``, and any module of a system that defines a
    rules class of its own, a ``decide`` method: FORGE's rounds by beats)."""
    parts = name.split("/")
    rules = (
        parts[-1] == "rules.py"
        or parts[-1].endswith("play.py")
        or re.search(r"^    def decide\(self", source, re.MULTILINE) is not None
    )
    in_rules = parts[:2] == ["core", "systems"] and rules and len(parts) == 4
    return name.startswith(ALLOWED) or in_rules


CAMPAIGN_CLASSES = {"Campaign", "CampaignState"}


class RuleCalls(ast.NodeVisitor):
    """Every use of a ``decide`` or ``evolve`` attribute except on a campaign (whose own
    ``decide`` makes a log entry and goes through the engine): the receiver is named
    ``campaign`` (``campaign``, ``self.campaign``, ``self.tussle.campaign``) or is
    ``self`` inside the campaign's class."""

    def __init__(self) -> None:
        self.found: list[str] = []
        self.classes: list[str] = []

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self.classes.append(node.name)
        self.generic_visit(node)
        self.classes.pop()

    def visit_Attribute(self, node: ast.Attribute) -> None:
        if node.attr in ("decide", "evolve") and not self.on_campaign(node.value):
            self.found.append(f"{node.lineno}: {ast.unparse(node)}")
        self.generic_visit(node)

    def on_campaign(self, receiver: ast.expr) -> bool:
        if isinstance(receiver, ast.Name) and receiver.id == "self":
            return bool(self.classes) and self.classes[-1] in CAMPAIGN_CLASSES
        name = receiver.attr if isinstance(receiver, ast.Attribute) else None
        if isinstance(receiver, ast.Name):
            name = receiver.id
        return name == "campaign"


def rule_calls(source: str) -> list[str]:
    scan = RuleCalls()
    scan.visit(ast.parse(source))
    return scan.found


def test_the_scan_finds_the_hand_written_loops_it_is_for() -> None:
    """The loops the engine replaced, as they were written, and a few disguises."""
    old = """
rules = find_system(contest.system)
for command in commands:
    for event in rules.decide(state, command):
        state = rules.evolve(state, event)

def _run(rules, state, place, command):
    events = rules.decide(state[0], command)

state = find_system(s).evolve(state, event)
state = functools.reduce(FATE.evolve, events, state)

class Campaign:
    def act(self, command):
        return self.decide(command)

class Other:
    def act(self):
        return self.decide(1)
"""
    assert [line.split(": ")[1] for line in rule_calls(old)] == [
        "rules.decide",
        "rules.evolve",
        "rules.decide",
        "find_system(s).evolve",
        "FATE.evolve",
        "self.decide",
    ]
    fine = "entry = self.tussle.campaign.decide(cmd)\ncampaign.decide(cmd)\nself.campaign.decide(c)"
    assert rule_calls(fine) == []


def test_no_module_but_the_engine_and_the_rules_calls_decide_or_evolve() -> None:
    scanned = 0
    found: list[str] = []
    for path in sorted([*(ROOT / "core").rglob("*.py"), *(ROOT / "tui").rglob("*.py")]):
        name = path.relative_to(ROOT).as_posix()
        source = path.read_text(encoding="utf-8")
        if allowed(name, source):
            continue
        scanned += 1
        found += [f"{name}:{hit}" for hit in rule_calls(source)]
    assert scanned > 20  # the scan saw the modules
    assert found == [], "go through core.engine instead:\n" + "\n".join(found)
