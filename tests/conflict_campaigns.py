"""The SRD's warehouse as a saved Fate conflict, for the tests of the players' view
and the recap (tests/tui/test_watch_conflict.py, tests/core/test_recap_conflict.py),
worked from the Fate Core SRD ("Attack", "Stress", "Consequences", "Conceding"):

* Cynere: Physique Average (+1): boxes 1, 2 and 3 ("Average or Fair adds a 3-box").
  Drisban: no Physique: boxes 1 and 2.
* Cynere attacks with Fight Good (+3) and rolls ++00: Superb (+5); Drisban defends with
  Fight Great (+4) and rolls -000: Good (+3): a 2-shift hit, taken on his 2-box.
* Drisban attacks with Fight Great (+4) and rolls ++00: Fantastic (+6); Cynere defends
  with Athletics Great (+4) and rolls --00: Fair (+2): a 4-shift hit, taken as a
  moderate consequence (moderate 4), "Cracked Ribs".
* With ``concede``: exchange 2, Cynere's turn, Drisban concedes before any roll.
* ``hide_drisban``, ``hide_cynere``: the GM hides that one from the players (``H``).
"""

from __future__ import annotations

from pathlib import Path

from core.campaign.actions import Campaign
from core.campaign.log import AddCharacter, Character, Play, StartContest, ToggleSecret
from core.saves.store import Saves
from core.systems.fate.character import FateCharacter
from core.systems.fate.conflict import Absorption
from core.systems.fate.conflict_play import Absorb, Attack, Concede
from core.systems.fate.conflict_setup import conflict_of
from core.systems.fate.state import FateParticipant
from tests.helpers import act, fate_dice

CYNERE = Character(
    name="Cynere",
    ratings={"Fight": 3, "Notice": 3, "Athletics": 4, "Physique": 1},
    sheet=FateCharacter(fate_points=2),
)
DRISBAN = Character(name="Drisban", kind="npc", ratings={"Fight": 4})


def warehouse(
    saves: Path, hide_drisban: bool = False, concede: bool = False, hide_cynere: bool = False
) -> Path:
    files = Saves(saves).create("Warehouse", "fate")
    campaign = Campaign(name="Warehouse", system="fate")
    for character in (CYNERE, DRISBAN):
        act(campaign, files, AddCharacter(character=character))
    conflict = conflict_of(
        [
            FateParticipant(name="Cynere", side="Cynere", skill=0, fate_points=2),
            FateParticipant(name="Drisban", side="Drisban", skill=0),
        ],
        {c.name: c for c in (CYNERE, DRISBAN)},
    )
    act(campaign, files, StartContest(title="The warehouse", contest=conflict))
    cid = next(iter(campaign.contests))
    hit = Attack(
        by="Cynere",
        target="Drisban",
        skill="Fight",
        faces=fate_dice("++00"),
        defense="Fight",
        defense_faces=fate_dice("-000"),
    )
    box = Absorb(who="Drisban", absorption=Absorption(track="physical", boxes=(1,)))
    back = Attack(
        by="Drisban",
        target="Cynere",
        skill="Fight",
        faces=fate_dice("++00"),
        defense="Athletics",
        defense_faces=fate_dice("--00"),
    )
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
