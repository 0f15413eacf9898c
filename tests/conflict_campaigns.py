"""The SRD's warehouse as a Fate conflict: one builder for every conflict test (the
engine's, the dashboard's, the players' view, the recap, the summary), worked from the
Fate Core SRD ("Attack", "Stress", "Consequences", "Conceding"):

* Cynere: Fight Good (+3), Notice Good (+3): first by Notice ("Turn Order"); Athletics
  Great (+4); Physique Average (+1): boxes 1, 2 and 3 ("Average or Fair adds a 3-box");
  2 fate points. Drisban, an NPC: Fight Great (+4); no Notice, no Physique (Mediocre):
  boxes 1 and 2; no fate points. Each has the three slots: mild 2, moderate 4, severe 6.
* :func:`opening` is the conflict before anyone acts; :func:`start` saves it in a new
  campaign; :func:`attack` is an attack with each roll's dice typed.
* :func:`warehouse`, saved, goes on: Cynere attacks with Fight Good (+3) and rolls ++00:
  Superb (+5); Drisban defends with Fight Great (+4) and rolls -000: Good (+3): a
  2-shift hit, taken on his 2-box. Drisban attacks with Fight Great (+4) and rolls ++00:
  Fantastic (+6); Cynere defends with Athletics Great (+4) and rolls --00: Fair (+2): a
  4-shift hit, taken as a moderate consequence (moderate 4), "Cracked Ribs".
* With ``concede``: exchange 2, Cynere's turn, Drisban concedes before any roll.
* ``hide_drisban``, ``hide_cynere``: the GM hides that one from the players (``H``).
"""

from __future__ import annotations

from pathlib import Path

from msgspec.structs import replace

from core.campaign.actions import Campaign
from core.campaign.log import AddCharacter, Character, Play, StartContest, ToggleSecret
from core.saves.store import CampaignFiles, Saves
from core.systems.fate.character import FateCharacter
from core.systems.fate.conflict import Absorption
from core.systems.fate.conflict_play import Absorb, Attack, Concede, ConflictInvoke, FateConflict
from core.systems.fate.conflict_setup import conflict_of
from core.systems.fate.state import Aspect, FateParticipant
from tests.helpers import act, fate_dice

CYNERE = Character(
    name="Cynere",
    ratings={"Fight": 3, "Notice": 3, "Athletics": 4, "Physique": 1},
    sheet=FateCharacter(fate_points=2),
)
DRISBAN = Character(name="Drisban", kind="npc", ratings={"Fight": 4})
ROSTER = {c.name: c for c in (CYNERE, DRISBAN)}


def opening(*aspects: str, npcs: bool = False, gm_pool: int = 0) -> FateConflict:
    """The warehouse before anyone acts: Cynere's turn, exchange 1; ``aspects`` are
    situation aspects (nobody's, no free invoke); ``npcs``: the table knows Drisban is
    an NPC (the GM's pool may pay for him), the pool holding ``gm_pool``."""
    conflict = conflict_of(
        [
            FateParticipant(name="Cynere", side="Cynere", skill=0, fate_points=2),
            FateParticipant(name="Drisban", side="Drisban", skill=0),
        ],
        ROSTER,
    )
    return replace(
        conflict,
        aspects=tuple(Aspect(name=a) for a in aspects),
        npcs=frozenset({"Drisban"}) if npcs else frozenset(),
        gm_pool=gm_pool,
    )


def attack(
    by: str,
    dice: str,
    defense_dice: str,
    *invokes: ConflictInvoke,
    skill: str = "Fight",
    defense: str = "Fight",
) -> Attack:
    """``by`` attacks the other one with ``skill``, its dice ``dice`` as typed (``++00``);
    the other defends with ``defense``, its dice ``defense_dice``."""
    return Attack(
        by=by,
        target="Drisban" if by == "Cynere" else "Cynere",
        skill=skill,
        faces=fate_dice(dice),
        defense=defense,
        defense_faces=fate_dice(defense_dice),
        invokes=invokes,
    )


def start(
    saves: Path, conflict: FateConflict | None = None, title: str = "The warehouse"
) -> tuple[Campaign, CampaignFiles, str]:
    """A new campaign "Warehouse" in ``saves``: the pair on its roster, ``conflict`` (the
    :func:`opening` when left out) started in it; the campaign, its files, the conflict's
    id."""
    files = Saves(saves).create("Warehouse", "fate")
    campaign = Campaign(name="Warehouse", system="fate")
    for character in (CYNERE, DRISBAN):
        act(campaign, files, AddCharacter(character=character))
    act(campaign, files, StartContest(title=title, contest=conflict or opening()))
    return campaign, files, next(iter(campaign.contests))


def warehouse(
    saves: Path, hide_drisban: bool = False, concede: bool = False, hide_cynere: bool = False
) -> Path:
    campaign, files, cid = start(saves)
    hit = attack("Cynere", "++00", "-000")
    box = Absorb(who="Drisban", absorption=Absorption(track="physical", boxes=(1,)))
    back = attack("Drisban", "++00", "--00", defense="Athletics")
    moderate = Absorb(
        who="Cynere",
        absorption=Absorption(track="physical", slots=(1,)),
        names=("Cracked Ribs",),
    )
    for command in (hit, box, back, moderate):
        act(campaign, files, Play(contest_id=cid, commands=(command,)))
    if concede:  # exchange 2, Cynere's turn: Drisban concedes before any roll
        act(campaign, files, Play(contest_id=cid, commands=(Concede(who="Drisban"),)))
    if hide_drisban:
        act(campaign, files, ToggleSecret(contest_id=cid, kind="participant", name="Drisban"))
    if hide_cynere:
        act(campaign, files, ToggleSecret(contest_id=cid, kind="participant", name="Cynere"))
    return files.folder
