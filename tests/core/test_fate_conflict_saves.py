"""A conflict's saved values decode in a process that never imported the conflict module
(issue 28, slice 1): the codec loads a rule system by its tag's first word ("fate"), so
the classes a ``fate.*`` tag names must come with Fate's rules."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from core.files.codec import encode
from core.systems.fate.conflict import Conflict, absorb, absorptions, concede, new_combatant

ROOT = Path(__file__).resolve().parents[2]

READER = """
import json, sys
assert "core.systems.fate.conflict" not in sys.modules
from core.files.codec import decode
from core.model import Saved
value = decode(json.load(open(sys.argv[1])), Saved)
print(type(value).__name__, value.combatants[1].slots[1].aspect, value.combatants[0].conceded)
"""


def test_a_saved_conflict_opens_in_a_fresh_process(tmp_path: Path) -> None:
    # SRD, Consequences: Drisban takes a 4-shift hit as a moderate consequence.
    cynere = new_combatant("Cynere", "Cynere", physique=2, will=1)
    drisban = new_combatant("Drisban", "Drisban", physique=3)
    moderate = next(a for a in absorptions(drisban, "physical", 4) if a.slots and not a.boxes)
    drisban = absorb(drisban, moderate, 4, names=("Slashed Arm",), by="Cynere")
    conflict = concede(Conflict(combatants=(cynere, drisban)), "Cynere")
    saved = tmp_path / "conflict.json"
    saved.write_text(json.dumps(encode(conflict)))
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    run = subprocess.run(
        [sys.executable, "-c", READER, str(saved)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["Conflict", "Slashed", "Arm", "True"]
