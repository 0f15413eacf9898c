"""The campaign's log, as words: a roster character, the GM actions a log records, and
the events they make (core.campaign.state folds them into the campaign).

Saves tag these classes ``campaign.…`` (``CODEC_TAG``), as when they lived in
core.campaign.actions.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from typing import TYPE_CHECKING, ClassVar, Literal

import msgspec

from core.limits import Count, Int, Positive
from core.model import AnyCommand, AnyContest, AnyEvent, Command, Event, Saved, any_of

CODEC_TAG = "campaign"  # the saved tags: campaign.ActionRecorded, campaign.Character...
# 2: FORGE armor capacity 0 is used up (1: no limit); 3: a system's character fields are
# in its sheet; 4: StartSession's hero_points is named reset (core.saves.migrate says how
# an older campaign is brought up to this one)
FORMAT_VERSION = 4


class Sheet(Saved):
    """What one rule system keeps on a character beyond what every system has: a plug-in
    subclasses it beside its other saved classes (so it is saved under the system's tag:
    ``coin.CoinSheet``), with the limits of its numbers on its fields (core.limits), and
    names its fields in the GM's words in ``LABELS`` (the summary's roster changes)."""

    LABELS: ClassVar[Mapping[str, str]] = {}


if TYPE_CHECKING:
    AnySheet = Sheet
else:
    AnySheet = any_of(Sheet)  # any system's sheet, decoded by its tag


class Character(Saved):
    """A PC or NPC on the roster. ``ratings`` are skills (Fate ladder values), abilities
    (HeroQuest linear values: 24 is 4M) or FORGE targets, by name. ``sheet`` is what the
    campaign's rule system keeps on the character (its own :class:`Sheet`: Fate's fate
    points, HeroQuest's hero points, FORGE's trauma...; unset: nothing yet, which the
    system reads as its sheet's defaults). Saves of format 2 or older held those fields
    here (core.saves.migrate reshapes them)."""

    name: str
    kind: Literal["pc", "npc"] = "pc"
    ratings: Mapping[str, Int] = msgspec.field(default_factory=dict)
    # Unset (left out of the saves, as before there were sheets) where it keeps nothing.
    sheet: AnySheet | msgspec.UnsetType = msgspec.UNSET


# -- GM actions ----------------------------------------------------------------------------


class AddCharacter(Command):
    character: Character


class UpdateCharacter(Command):
    name: str
    character: Character


class ImportCharacters(Command):
    """Characters read from files (``tussle roster import``, the roster's import key),
    added as ONE action, so one undo takes the whole import back. With ``replace``, a
    character already on the roster is replaced whole; without it, it is refused.
    ``source`` names the files, for the log and undo's message."""

    characters: tuple[Character, ...]
    replace: bool = False
    source: str = ""


Setting = bool | Int | str | None


class ChangeSettings(Command):
    """The campaign's settings (``players_see_odds``, ``sessions``...); None removes one."""

    changes: Mapping[str, Setting]


class StartContest(Command):
    """``uses`` names what each participant rolls (``{"Cynere": "Athletics"}``);
    ``tussle_rolls`` the rollers (Fate sides, or participants) whose dice Tussle rolls,
    where the table does not roll its own. ``secret`` (the whole contest),
    ``secret_participants`` and ``secret_aspects`` are hidden from the players from the
    contest's first moment (the setup's, or the previous contest's with the same sides)."""

    title: str
    contest: AnyContest
    uses: Mapping[str, str] = msgspec.field(default_factory=dict)
    tussle_rolls: tuple[str, ...] = ()
    secret: bool = False
    secret_participants: tuple[str, ...] = ()
    secret_aspects: tuple[str, ...] = ()


class Play(Command):
    """Rule commands (``RollDice``, ``InvokeAspect``...) for one contest, as one GM action:
    an exchange committed from the keypad is undone as a whole."""

    contest_id: str
    commands: tuple[AnyCommand, ...]


class WriteBack(Command):
    """Write a finished contest's results onto the roster (core.campaign.aftermath works them
    out)."""

    contest_id: str


class Correct(Command):
    """Replace the commands of exchange ``n`` of a contest and resolve every later exchange
    again with the dice it had (core.campaign.corrections works out what changes)."""

    contest_id: str
    n: Int
    commands: tuple[AnyCommand, ...]


class ToggleSecret(Command):
    """Hide from the players (or show again) a participant's numbers, an aspect, or a whole
    contest (``kind`` "contest": ``name`` is ignored)."""

    contest_id: str
    kind: Literal["participant", "aspect", "contest"]
    name: str = ""


class StartSession(Command):
    """A new session: each character as their system's sheet starts one (refresh,
    recovery), the recap's mark, and ``reset``: what every PC's points are set to where
    the system and the table reset them (HeroQuest's hero points: the roster part's
    ``session_reset`` names them), None to keep them. Not ``refresh``, Fate's own word
    for what a session gives back; ``reset`` is the hook's (``Sheet.new_session``)."""

    reset: Count | None = None


class EndScenario(Command):
    """A scenario ends: each character as their system's sheet ends one (Fate: a severe
    consequence whose recovery began clears, SRD "Recovering from a Consequence"), and
    the count of scenarios played (the ``scenarios`` setting)."""


class CharacterAction(Command):
    """A rule system's own action on roster character ``who`` outside any contest (Fate:
    a recovery action on a consequence), decided by the system's sheet
    (``SystemSheet.act``) into the character as it becomes."""

    who: str
    action: AnyCommand


class Compel(Command):
    """A compel accepted: ``who`` gains a fate point (in the contest they are playing,
    else on the roster)."""

    who: str


class SpendFromPool(Command):
    """The GM pays from the scene's pool for NPC ``by`` outside an invoke (``reason``:
    refusing a compel, a stunt); an invoke paid from the pool is an ``InvokeAspect``
    with ``pool``. A rule command of the contest, so the pool is counted where the
    invokes are (and a correction replays it)."""

    contest_id: str
    count: Positive = 1
    by: str = ""
    reason: str = ""


class QuickRoll(Command):
    """A roll outside any contest (core.campaign.quick_roll): ``expression`` in the campaign's
    system (``4dF+3 vs 2``) with the ``faces`` the table typed or Tussle rolled (saved,
    so a redo never rolls again)."""

    expression: str
    faces: tuple[tuple[Int, ...], ...]


class Undo(Command):
    """Take back the last GM action still in force."""


class Redo(Command):
    """Put back the action undone last (while nothing new was done since)."""


# -- what happened -------------------------------------------------------------------------


class CharacterAdded(Event):
    character: Character


class CharacterUpdated(Event):
    name: str
    character: Character


class SettingsChanged(Event):
    """New values, and the ones they replaced (so undo puts those back)."""

    changes: Mapping[str, Setting]
    before: Mapping[str, Setting]


class ContestStarted(Event):
    contest_id: str
    title: str
    contest: AnyContest
    uses: Mapping[str, str] = msgspec.field(default_factory=dict)
    gm_pool: Int = 0  # Fate: the GM's fate points for this scene
    tussle_rolls: tuple[str, ...] = ()
    # Hidden from the players from the start (an old save has none: defaults).
    secret: bool = False
    secret_participants: tuple[str, ...] = ()
    secret_aspects: tuple[str, ...] = ()


class PoolSpent(Event):
    """What ``SpendFromPool`` made before the pool was the contest's: read from old logs
    only (it now makes a ``Played`` Fate ``PoolPaid``)."""

    contest_id: str
    count: Count


class Played(Event):
    """One of a contest's own events."""

    contest_id: str
    event: AnyEvent


class ResultsWritten(Event):
    """A contest's results are on the roster (its ``CharacterUpdated`` events beside it)."""

    contest_id: str


class ContestCorrected(Event):
    """Exchange ``n`` was corrected: the contest's whole run of ``commands`` and the
    ``events`` they make now, from its start (replacing everything played before)."""

    contest_id: str
    n: Int
    commands: tuple[AnyCommand, ...]
    events: tuple[AnyEvent, ...]


class SecretToggled(Event):
    contest_id: str
    kind: Literal["participant", "aspect", "contest"]
    name: str
    secret: bool


class SessionStarted(Event):
    number: Int
    at: str


class QuickRolled(Event):
    """A roll outside the contests and what it made, in the GM's words as the system put
    them when it was rolled (core.campaign.quick_roll.RollResult): the recap tells it as it was."""

    expression: str
    faces: tuple[tuple[Int, ...], ...]
    outcome: str
    details: tuple[str, ...] = ()
    chance: str = ""


class ActionRecorded(Event):
    """A GM action and everything it caused: one entry of the saved log."""

    action_id: Positive
    command: AnyCommand
    events: tuple[AnyEvent, ...]
    at: str = ""


class ActionUndone(Event):
    action_id: Positive
    at: str = ""


class ActionRedone(Event):
    action_id: Positive
    at: str = ""


Entry = ActionRecorded | ActionUndone | ActionRedone


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def describe_action(command: Command) -> str:
    """A few words for an action, as undo and redo report it."""
    if isinstance(command, Play):
        return ", ".join(describe_action(c) for c in command.commands)
    if isinstance(command, CharacterAction):
        return f"{describe_action(command.action)} ({command.who})"
    if isinstance(command, ImportCharacters):
        count = len(command.characters)
        where = f" from {command.source}" if command.source else ""
        return f"import of {count} character{'' if count == 1 else 's'}{where}"
    name = type(command).__name__
    words = "".join(f" {c.lower()}" if c.isupper() else c for c in name).strip()
    who = getattr(command, "who", None) or getattr(command, "by", None)
    who = who or getattr(command, "expression", None)  # a quick roll's "4dF+3 vs 2"
    return f"{words} ({who})" if who else words
