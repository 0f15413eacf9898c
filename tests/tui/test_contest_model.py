"""The contest screen's contract, headless (issue 25): the keypad's draft and the campaign,
where the invariants live, without Textual, so thousands of examples run in seconds.

A GM at each demo campaign's keypad: Fate dice and d20 or d100 faces typed, moves, erasing,
Tussle's rolls, clearing, modifiers and each system's actions, commits, undo and redo, and
corrections of old exchanges. The keypad is modelled with the very functions the screen
calls (:mod:`tui.draft`: ``type_face``, ``preview``, ``try_extra``, ``commit_commands``,
``settled``) and the campaign's own ``decide``/``apply``; the key handling around them (the
cursor, a Backspace stepping back) is the screen's, written here as the README describes
it. The Pilot machine (tests/tui/test_contest_machine.py) checks that the real screen is
wired to the same behaviour, with fewer examples.

After every step:

* the campaign is a function of its actions in force: the same actions, the same contest
  and roster (undo then redo comes back exactly);
* a fold of the log written gives the campaign held in memory (what a reload does; at the
  end of each example);
* the keypad never holds an exchange the log has (after a redo: not the redone dice);
* the keypad's preview never fails (it reports a refusal, it does not raise).

And at each step: a commit adds exactly one exchange when the keypad is complete and
the rules take it, none otherwise; undo takes back the last action, redo puts exactly it
back; a correction never adds an exchange.

``--hypothesis-show-statistics`` lists, per system, how many examples committed, undid,
redid and corrected. Five times the profile's examples per system, of up to 25 steps:
500 in CI and a plain ``pytest`` (some ten seconds each), 100 with
``HYPOTHESIS_PROFILE=dev``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import ClassVar

from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from core.campaign.actions import Campaign
from core.campaign.corrections import reopen
from core.campaign.log import (
    AddCharacter,
    Correct,
    Entry,
    Play,
    Redo,
    StartContest,
    Undo,
    WriteBack,
)
from core.campaign.setup import build_contest
from core.campaign.sheet import find_sheet
from core.dice import DiceKind, RandomDice
from core.errors import BadDice, RuleError
from core.model import Command, Contest, EndContest, ResolveExchange, RollDice, SetModifier
from core.rules import BUILT_IN
from core.systems.fate.events import InvokeAspect
from core.systems.fate.state import FateContest
from core.systems.heroquest.events import SpendHeroPoints
from tests.strategies import examples
from tui.draft import (
    Draft,
    commit_commands,
    dice_kind,
    faces_of,
    preview,
    settled,
    try_extra,
    type_face,
    typed_text,
)

CID = "c1"
SYSTEMS = [p.name for p in BUILT_IN.values() if p.demo]
TYPED_KEYS = ("+", "-", "=", "0", "1", "2", "3", "5", "7", "9")
MOVE_KEYS = ("tab", "shift+tab", "backspace", "r", "R", "escape")


@dataclass
class Tally:
    examples: int = 0
    counts: dict[str, int] = field(default_factory=dict)


TALLIES = {system: Tally() for system in SYSTEMS}


def demo_campaign(system: str) -> tuple[Campaign, list[Entry]]:
    """The system's demo, as ``tussle`` creates it (core.cli.demo), in memory: its entries.
    Decided once per system (:func:`demo_entries`); each example folds those entries into a
    campaign of its own, as loading the demo's save does."""
    entries = demo_entries(system)
    campaign = Campaign(name="Demo", system=system)
    for entry in entries:
        campaign.apply(entry)
    return campaign, list(entries)


@cache
def demo_entries(system: str) -> tuple[Entry, ...]:
    """The demo's log entries, decided by the campaign as ``tussle`` does (entries are
    immutable: every example shares them)."""
    demo = find_sheet(system).demo()
    campaign = Campaign(name="Demo", system=system)
    entries = [campaign.act(AddCharacter(character=c)) for c in demo.characters]
    contest = build_contest(system, campaign.roster, demo.picks, demo.options or {}, demo.aspects)
    uses = {p.character: p.rating for p in demo.picks if p.rating}
    entries.append(campaign.act(StartContest(title=demo.title, contest=contest, uses=uses)))
    return tuple(entries)


class ContestModel(RuleBasedStateMachine):
    """The contest screen's keypad and the campaign it commits to, without a screen."""

    system: ClassVar[str]

    def __init__(self) -> None:
        super().__init__()
        self.campaign, self.log = demo_campaign(self.system)
        self.start_action = self.campaign.done[-1]  # the contest's start: never undone
        self.dice = RandomDice(0)
        self.draft = Draft()
        self.moved_on: tuple[int, int, tuple[tuple[str, str], ...]] | None = None
        self.correcting: tuple[int, Contest] | None = None
        self.seen: dict[tuple[int, ...], tuple[object, ...]] = {}
        self.did: set[str] = set()
        # The model of the keypad after undos (as in the Pilot machine): the actions whose
        # dice undos put back, newest last, and what it held before the first of them.
        self.on_keypad: list[int] = []
        self.under_keypad: dict[str, str] | None = None
        # The undone action the draft under them came back from, if any: once it is in
        # force again (a redo), that draft gives way in turn, and the model stops predicting.
        self.under_from: int | None = None

    def teardown(self) -> None:
        self.a_fold_of_the_log_is_the_campaign()
        tally = TALLIES[self.system]
        tally.examples += 1
        for what in ("committed", "undid", "redid", "corrected"):
            if what in self.did:
                tally.counts[what] = tally.counts.get(what, 0) + 1
            event(f"{self.system}: examples that {what}" + ("" if what in self.did else " none"))

    # -- plumbing -----------------------------------------------------------------------
    @property
    def record_state(self) -> Contest:
        return self.campaign.contest(CID).state

    @property
    def state(self) -> Contest:
        """The contest the keypad plays on: the one before the exchange being corrected."""
        return self.correcting[1] if self.correcting else self.record_state

    @property
    def kind(self) -> DiceKind:
        return dice_kind(self.state)

    def slots(self) -> list[str]:
        return preview(self.state, self.draft).slots

    def act(self, command: Command) -> Entry:
        """What the bus does: decide (RuleError if refused), write, apply."""
        entry = self.campaign.decide(command)
        self.log.append(entry)
        self.campaign.apply(entry)
        return entry

    def exchanges(self) -> int:
        return len(self.campaign.contest(CID).exchanges)

    def forget_keypad(self) -> None:
        self.on_keypad = []
        self.under_keypad = None

    def keypad_now(self) -> tuple[int, int, tuple[tuple[str, str], ...]]:
        return id(self.draft), self.draft.cursor, tuple(self.draft.typed.items())

    def complete(self) -> bool:
        if self.state.finished:
            return False
        shown = preview(self.state, self.draft)
        return (
            bool(shown.slots)
            and shown.error is None
            and all(faces_of(self.kind, self.draft.typed.get(s, "")) for s in shown.slots)
        )

    # -- the keypad's keys (README "Keys"), as the screen handles them --------------------
    def key(self, key: str) -> None:
        slots = self.slots()
        if key in TYPED_KEYS:
            if not slots:
                return
            who = slots[self.draft.cursor % len(slots)]
            try:
                text, whole = type_face(self.kind, self.draft.typed.get(who, ""), key)
            except BadDice:
                return  # said, and nothing typed
            self.draft.typed[who] = text
            self.draft.sources[who] = "table"
            if whole:
                self.advance(slots)
        elif key == "tab":
            if self.moved_on == self.keypad_now():
                self.moved_on = None  # the keypad moved on by itself just now
            elif slots:
                self.draft.cursor = (self.draft.cursor + 1) % len(slots)
        elif key == "shift+tab":
            if slots:
                self.draft.cursor = (self.draft.cursor - 1) % len(slots)
        elif key == "backspace":
            if not slots:
                return
            who = slots[self.draft.cursor % len(slots)]
            text = self.draft.typed.get(who, "")
            if not text and self.draft.cursor > 0:  # an empty roller: the one before
                self.draft.cursor -= 1
                who = slots[self.draft.cursor]
                text = self.draft.typed.get(who, "")
            self.draft.typed[who] = text[:-1]
        elif key in ("r", "R"):
            if not slots:
                return
            targets = (
                [s for s in slots if faces_of(self.kind, self.draft.typed.get(s, "")) is None]
                if key == "R"
                else [slots[self.draft.cursor % len(slots)]]
            )
            for who in targets:
                self.draft.typed[who] = typed_text(self.kind, self.dice.roll(self.kind))
                self.draft.sources[who] = "tussle"
            self.advance(slots)
        elif key == "escape":
            if self.correcting:
                self.end_correction()
            else:
                self.draft.clear()

    def advance(self, slots: list[str]) -> None:
        for step in range(1, len(slots) + 1):
            i = (self.draft.cursor + step) % len(slots)
            if faces_of(self.kind, self.draft.typed.get(slots[i], "")) is None:
                self.draft.cursor = i
                self.moved_on = self.keypad_now()
                return

    def restore_draft(self, commands: list[Command], came_back_from: int | None = None) -> None:
        draft = Draft(came_back_from=came_back_from, before=self.draft)
        for command in commands:
            if isinstance(command, RollDice):
                draft.typed[command.who] = typed_text(self.kind, command.faces)
                draft.sources[command.who] = command.source
            elif isinstance(command, EndContest):
                draft.end_after = True
            elif not isinstance(command, ResolveExchange):
                draft.extras.append(command)
        self.draft = draft

    def end_correction(self) -> None:
        if self.correcting:
            self.correcting = None
            self.draft = self.draft.before or Draft()

    # -- invariants ---------------------------------------------------------------------
    @invariant()
    def the_campaign_is_a_function_of_its_actions_in_force(self) -> None:
        record = self.campaign.contest(CID)
        now = (record.state, len(record.exchanges), tuple(sorted(self.campaign.roster.items())))
        assert self.seen.setdefault(tuple(self.campaign.done), now) == now

    def a_fold_of_the_log_is_the_campaign(self) -> None:
        """Checked at the end of each example (a fold after every step costs more than
        all the rest): a divergence at any step shows in the state at the end too."""
        folded = Campaign(name="Demo", system=self.system)
        for entry in self.log:
            folded.apply(entry)
        assert folded.done == self.campaign.done and folded.undone == self.campaign.undone
        assert folded.contest(CID).state == self.record_state
        assert folded.roster == self.campaign.roster

    @invariant()
    def the_keypad_never_holds_a_logged_exchange(self) -> None:
        if self.correcting:
            return
        assert self.draft.came_back_from not in self.campaign.done, "a redone draft stayed"
        assert not [a for a in self.on_keypad if a in self.campaign.done]
        if self.on_keypad:
            command = self.campaign.actions[self.on_keypad[-1]].command
            assert isinstance(command, Play)
            dice = {
                c.who: typed_text(self.kind, c.faces)
                for c in command.commands
                if isinstance(c, RollDice)
            }
            assert self.draft.typed == dice
        elif self.under_keypad is not None:
            assert self.draft.typed == self.under_keypad

    @invariant()
    def the_preview_reports_never_raises(self) -> None:
        shown = preview(self.state, self.draft)
        assert shown.error is None or shown.error

    # -- rules ---------------------------------------------------------------------------
    @initialize(seed=st.integers(0, 2**16))
    def start(self, seed: int) -> None:
        self.dice = RandomDice(seed)

    @rule(keys=st.lists(st.sampled_from(TYPED_KEYS + MOVE_KEYS), max_size=8))
    def keypad_keys(self, keys: list[str]) -> None:
        exchanges, done = self.exchanges(), tuple(self.campaign.done)
        for key in keys:
            self.key(key)
        if keys:
            self.forget_keypad()
        assert (self.exchanges(), tuple(self.campaign.done)) == (exchanges, done)

    @precondition(lambda self: not self.state.finished)
    @rule(seeds=st.lists(st.integers(0, 2**16), min_size=4, max_size=4))
    def type_a_whole_exchange(self, seeds: list[int]) -> None:
        """Every roller's dice typed (old ones erased first), then Enter."""
        for i, who in enumerate(self.slots()):
            self.draft.cursor = i
            self.draft.typed[who] = ""
            for key in self.keys_for(seeds[i % len(seeds)]):
                self.key(key)
        self.forget_keypad()
        self.commit()

    @precondition(lambda self: not self.state.finished)
    @rule()
    def roll_a_whole_exchange(self) -> None:
        self.key("R")
        self.forget_keypad()
        self.commit()

    @rule()
    def enter(self) -> None:
        self.commit()

    @rule(who=st.integers(0, 3), value=st.integers(-20, 20))
    def modifier(self, who: int, value: int) -> None:
        names = [p.name for p in self.state.participants]
        self.extra(SetModifier(who=names[who % len(names)], value=value))

    @precondition(lambda self: self.can_undo())
    @rule()
    def undo(self) -> None:
        done, undone = tuple(self.campaign.done), tuple(self.campaign.undone)
        action = self.campaign.actions[done[-1]]
        typed_before = dict(self.draft.typed)
        came_back_from = self.draft.came_back_from
        exchanges = self.exchanges()
        self.act(Undo())
        self.did.add("undid")
        assert tuple(self.campaign.done) == done[:-1], "undo takes back the last action only"
        assert tuple(self.campaign.undone) == (*undone, done[-1])
        # Undoing an exchange takes it back; undoing a correction may bring back exchanges
        # the corrected contest no longer had (it ended sooner).
        assert self.exchanges() <= exchanges or not isinstance(action.command, Play)
        was_correcting = self.correcting is not None
        self.end_correction()
        command = action.command
        if isinstance(command, Play) and command.contest_id == CID:
            self.restore_draft(list(command.commands), came_back_from=action.action_id)
            if was_correcting:
                self.forget_keypad()
            else:
                if not self.on_keypad:
                    self.under_keypad = typed_before
                    self.under_from = came_back_from
                self.on_keypad.append(action.action_id)
        elif was_correcting:
            self.forget_keypad()
        self.draft = settled(self.draft, self.campaign.done)

    @precondition(lambda self: bool(self.campaign.undone))
    @rule()
    def redo(self) -> None:
        done, undone = tuple(self.campaign.done), tuple(self.campaign.undone)
        self.act(Redo())
        self.did.add("redid")
        assert tuple(self.campaign.done) == (*done, undone[-1]), "redo puts back exactly it"
        assert tuple(self.campaign.undone) == undone[:-1]
        if self.correcting:
            self.end_correction()
            self.forget_keypad()
        self.draft = settled(self.draft, self.campaign.done)
        while self.on_keypad and self.on_keypad[-1] in self.campaign.done:
            self.on_keypad.pop()
        if not self.on_keypad and self.under_from in self.campaign.done:
            self.forget_keypad()  # the draft under them came back from it: gone too

    @precondition(lambda self: self.exchanges() > 0 and not self.correcting)
    @rule(n=st.integers(1, 40))
    def correct(self, n: int) -> None:
        """C and an exchange's number: its commands come back on the keypad."""
        record = self.campaign.contest(CID)
        if record.written:
            return  # refused: its results are on the roster
        n = (n - 1) % len(record.exchanges) + 1
        state, commands = reopen(self.campaign, CID, n)
        self.correcting = (n, state)
        self.restore_draft(commands)
        self.forget_keypad()

    # -- the steps rules share ------------------------------------------------------------
    def can_undo(self) -> bool:
        done = self.campaign.done
        return bool(done) and done[-1] != self.start_action

    def keys_for(self, seed: int) -> list[str]:
        if self.kind.fudge:
            return ["+-0"[(seed // 3**i) % 3] for i in range(4)]
        return list(str(seed % self.kind.high + 1))

    def extra(self, command: Command) -> None:
        """An action added to the keypad if the rules take it now; nothing changes if not."""
        extras = list(self.draft.extras)
        try:
            try_extra(self.state, self.draft, command)
        except RuleError:
            assert self.draft.extras == extras, "a refused action is not on the keypad"
            return
        assert self.draft.extras == [*extras, command]
        self.forget_keypad()

    def commit(self) -> None:
        """Enter: one exchange more when the keypad is complete and the rules take it (a
        tie's twist named), none otherwise; a correction adds none."""
        exchanges, done = self.exchanges(), tuple(self.campaign.done)
        if self.record_state.finished and not self.correcting:
            return  # Enter on a finished contest shows its summary
        expected = int(self.complete())
        try:
            commands = commit_commands(self.state, self.draft, twist="A twist")
        except RuleError:
            assert self.exchanges() == exchanges
            return
        if self.correcting:
            n = self.correcting[0]
            try:
                self.act(Correct(contest_id=CID, n=n, commands=tuple(commands)))
            except RuleError:
                return  # said on the keypad; nothing changed
            self.did.add("corrected")
            assert self.exchanges() <= exchanges, "a correction added an exchange"
            self.end_correction()
            self.forget_keypad()
        else:
            played = preview(self.state, self.draft).state
            try:
                self.act(Play(contest_id=CID, commands=tuple(commands)))
            except RuleError:  # the bus's Rejected: said on the keypad, nothing saved
                assert not expected, "a complete keypad the preview took was refused"
                assert (self.exchanges(), tuple(self.campaign.done)) == (exchanges, done)
                return
            added = self.exchanges() - exchanges
            if expected:
                assert added == 1, f"Enter on a complete keypad added {added} exchanges"
            else:  # the engine may resolve without dice (a party leaving): one at most
                assert added in (0, 1)
            if added:
                self.did.add("committed")
                assert played.n == exchanges  # the preview stopped short of resolving
            self.draft.clear()
            self.forget_keypad()
        assert tuple(self.campaign.done)[: len(done)] == done
        if self.record_state.finished and not self.campaign.contest(CID).written:
            self.act(WriteBack(contest_id=CID))  # as the screen does at once


class FateModel(ContestModel):
    system = "fate"

    @rule(by=st.integers(0, 3), free=st.booleans(), aspect=st.integers(0, 5))
    def invoke(self, by: int, free: bool, aspect: int) -> None:
        state = self.state
        assert isinstance(state, FateContest)
        names = [p.name for p in state.participants]
        aspects = [a.name for a in state.aspects] or ["Nothing here"]
        self.extra(
            InvokeAspect(
                by=names[by % len(names)], aspect=aspects[aspect % len(aspects)], free=free
            )
        )


class HeroQuestModel(ContestModel):
    system = "heroquest"

    @rule(who=st.integers(0, 3), count=st.integers(1, 2))
    def hero_point(self, who: int, count: int) -> None:
        names = [p.name for p in self.state.participants]
        self.extra(SpendHeroPoints(who=names[who % len(names)], count=count))


class ForgeModel(ContestModel):
    system = "forge"

    @rule()
    def end_after_this_stage(self) -> None:
        """e: end the contest once this stage is committed (or at once, between stages)."""
        self.draft.end_after = not self.draft.end_after
        self.forget_keypad()


def run_model(model: type[ContestModel]) -> None:
    tally = TALLIES[model.system]
    tally.examples, tally.counts = 0, {}
    run_state_machine_as_test(
        model,
        settings=settings(
            examples(5),
            stateful_step_count=25,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
        ),
    )
    print(f"{model.system}: {tally.examples} examples; {tally.counts}")
    # Each kind of step happens in some examples, or the model tests nothing of it (in
    # CI: about 60% commit, 30% undo, 15% correct, 10% redo; a share as a bound would fail
    # by chance with the 100 examples of HYPOTHESIS_PROFILE=dev).
    for what in ("committed", "undid", "redid", "corrected"):
        assert tally.counts.get(what, 0) > 0, (what, tally)


def hypothesis_test(test: object) -> object:
    """Mark a plain test that runs a state machine as Hypothesis's own, so
    --hypothesis-show-statistics reports its events."""
    test.is_hypothesis_test = True  # type: ignore[attr-defined]
    return test


@hypothesis_test
def test_the_fate_keypad_and_campaign_keep_their_contract() -> None:
    run_model(FateModel)


@hypothesis_test
def test_the_heroquest_keypad_and_campaign_keep_their_contract() -> None:
    run_model(HeroQuestModel)


@hypothesis_test
def test_the_forge_keypad_and_campaign_keep_their_contract() -> None:
    run_model(ForgeModel)
