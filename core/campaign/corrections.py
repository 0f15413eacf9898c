"""Correcting an old exchange: a mistyped die, a forgotten invoke three exchanges back.

The contest's rule commands in force are split by exchange (the commands up to and
including the one that resolved it); exchange ``n``'s are replaced; then every command is
decided again from the contest's start, so the later exchanges are resolved again with the
dice they had. Nothing is rolled again. The result is one ``ContestCorrected`` event
carrying the new commands and events: the log keeps the correction (and undo takes it
back), it never rewrites what was saved.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from core.campaign.log import ContestCorrected, Correct
from core.campaign.state import CampaignState
from core.engine import play_until_refused
from core.errors import RuleError
from core.model import Command, Contest, ExchangeEvent
from core.rules import find_system
from core.rules.base import Pool


class Correction(msgspec.Struct, frozen=True):
    """A correction worked out, for the GM to look at before it is made."""

    event: ContestCorrected
    before: Contest
    after: Contest
    before_exchanges: tuple[ExchangeEvent, ...]
    after_exchanges: tuple[ExchangeEvent, ...]
    dropped: int  # later commands no longer played: the contest now ends sooner

    def changes(self) -> list[str]:
        """What changes, exchange by exchange from the corrected one, then the result."""
        rules = find_system(self.after.system)
        n = self.event.n
        lines: list[str] = []
        count = max(len(self.before_exchanges), len(self.after_exchanges))
        for k in range(n, count + 1):
            was = _line(rules, self.before_exchanges, k)
            now = _line(rules, self.after_exchanges, k)
            if was == now:
                lines.append(f"  same  {now}")
            else:
                lines.append(f"  was   {was or f'(no exchange {k})'}")
                lines.append(f"  now   {now or '(not played: the contest is over before it)'}")
        if self.dropped:
            lines.append(
                f"  {self.dropped} later command(s) no longer play: the contest ends sooner"
            )
        was = _ending(self.before, rules.exchanges_played(self.before_exchanges))
        now = _ending(self.after, rules.exchanges_played(self.after_exchanges))
        lines.append(f"Result: {now}" if was == now else f"Result was: {was}; now: {now}")
        return lines


def _line(rules: object, exchanges: Sequence[ExchangeEvent], k: int) -> str:
    if k > len(exchanges):
        return ""
    return str(rules.describe(exchanges[k - 1])[0])  # type: ignore[attr-defined]


def _ending(state: Contest, played: int) -> str:
    """``played``: the exchanges as the GM counts them (a conflict's, not its actions)."""
    after = f"after {played} exchange{'s' if played != 1 else ''}"  # not "1 exchanges"
    if not state.finished:
        return f"not over {after}"
    return f"{state.winner or 'nobody'} wins {after}"


def exchange_commands(
    start: Contest, commands: Sequence[Command]
) -> tuple[list[list[Command]], list[Contest]]:
    """``commands`` split by exchange: the k-th list holds the commands from the end of
    exchange k-1 to the one that resolved exchange k, a last list the ones after; and
    the contest as it stood before each list (after the command that resolved the
    exchange before it). The commands are the log's: a refusal raises the rules' error."""
    run = play_until_refused(start, commands)
    if run.refusal is not None:
        raise run.refusal.error
    groups: list[list[Command]] = [[]]
    states = [start]
    for step in run.steps:
        groups[-1].append(step.command)
        for event in step.events:
            if isinstance(event, ExchangeEvent):
                groups.append([])
                states.append(step.contest)
    return groups, states


def reopen(campaign: CampaignState, contest_id: str, n: int) -> tuple[Contest, list[Command]]:
    """Exchange ``n`` as the keypad takes it back to be corrected: the contest just
    before it, and its commands (compels, GM actions of their own, stay where they are)."""
    groups, states = _exchanges(campaign, contest_id, n)
    pool = find_system(campaign.system).pool
    return states[n - 1], [c for c in groups[n - 1] if not _kept(c, pool)]


def _exchanges(
    campaign: CampaignState, contest_id: str, n: int
) -> tuple[list[list[Command]], list[Contest]]:
    """The contest's commands by exchange, once it is sure exchange ``n`` can be
    corrected: it exists, and the results are not on the roster yet."""
    record = campaign.contest(contest_id)
    refused = find_system(record.state.system).not_corrected(record.state)
    if refused is not None:
        raise RuleError(refused)
    if record.written:
        raise RuleError(
            f'the results of "{record.title}" are already on the roster: '
            "undo writing them back before correcting an exchange"
        )
    groups, states = exchange_commands(record.start, campaign.contest_log(contest_id)[0])
    played = len(groups) - 1
    if not 1 <= n <= played:
        raise RuleError(
            f"no exchange {n} to correct"
            + (
                f" (this contest has 1 to {played})"
                if played > 1
                else " (this contest has exchange 1 only)"
                if played
                else " (none played yet)"
            )
        )
    if not groups[n - 1] or (n < played and not groups[n]):
        # One command resolved it with others (a FORGE round's beat: every attack sent in
        # it): its commands are not its own to change.
        raise RuleError(
            f"exchange {n} was played in one step with the exchanges beside it "
            "(a round's beat): u takes that step back whole"
        )
    return groups, states


def _kept(command: Command, pool: Pool | None) -> bool:
    # Compels and the GM's pool spent outside an invoke: GM actions of their own.
    return pool is not None and pool.gm_action(command)


def correct(campaign: CampaignState, command: Correct) -> Correction:
    """Work out ``command``: ``RuleError`` (saying which exchange) when it cannot stand."""
    record = campaign.contest(command.contest_id)
    groups, _ = _exchanges(campaign, command.contest_id, command.n)
    # Compels are GM actions of their own, not part of the exchange typed on the keypad:
    # they stay where they were.
    pool = find_system(campaign.system).pool
    kept = [c for c in groups[command.n - 1] if _kept(c, pool)]
    replacement = [*kept, *(c for c in command.commands if not _kept(c, pool))]
    if replacement == groups[command.n - 1]:
        raise RuleError(f"exchange {command.n} is unchanged: nothing to correct")
    new_commands = [
        *(c for g in groups[: command.n - 1] for c in g),
        *replacement,
        *(c for g in groups[command.n :] for c in g),
    ]
    corrected_end = sum(len(g) for g in groups[: command.n - 1]) + len(replacement)
    # From the start (the events are the whole run) until the contest ends. The first
    # problem in the order played is the one named: a refusal within the corrected
    # exchange, the corrected exchange not resolved by its last command, a later refusal.
    run = play_until_refused(record.start, new_commands, stop_at_end=True)
    refused = run.refusal
    if refused is not None and refused.index < corrected_end:
        raise RuleError(f"the corrected exchange no longer plays: {refused.error}")
    if 0 < corrected_end <= len(run.steps) and run.steps[corrected_end - 1].contest.n != command.n:
        raise RuleError(
            f"exchange {command.n} is not resolved: give every roll and commit it whole"
        )
    if refused is not None:
        raise RuleError(f"exchange {run.contest.n + 1} no longer plays: {refused.error}")
    events = run.events
    return Correction(
        event=ContestCorrected(
            contest_id=command.contest_id, n=command.n, commands=run.commands, events=events
        ),
        before=record.state,
        after=run.contest,
        before_exchanges=tuple(record.exchanges),
        after_exchanges=tuple(e for e in events if isinstance(e, ExchangeEvent)),
        dropped=len(new_commands) - len(run.steps),
    )
