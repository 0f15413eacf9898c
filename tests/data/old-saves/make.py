"""How tests/data/old-saves was made, by main at 9816d3e (before issue 27), from a clean
worktree of it: ``PYTHONPATH=. python tests/data/old-saves/make.py /tmp/old/saves``, then
``tussle --saves /tmp/old/saves export NAME -o FILE`` of each campaign, written compact
(``json.dumps(doc, separators=(",", ":"), ensure_ascii=False)``) into ``export/``, and the
lock files taken out."""

import json
import sys
from pathlib import Path

from core.cli.bench import fate_campaign
from core.cli.demo import create_demos
from core.cli.record import record
from core.saves.store import CampaignFiles, Saves
from core.scenario import resolve

saves = Path(sys.argv[1])
saves.mkdir(parents=True, exist_ok=True)
create_demos(Saves(saves))
demo = {"fate": "Fate demo", "heroquest": "HeroQuest demo", "forge": "FORGE demo"}
for f in sorted(Path("tests/scenarios").glob("*.json")):
    if f.name.endswith(".expected.json"):
        continue
    data = json.loads(f.read_text())
    res = resolve(data)
    record(res, Saves(saves), demo[res.start.system], f.stem)
fate_campaign(saves, 240, "Long Fate", per_contest=30)
for d in sorted(saves.iterdir()):
    if d.is_dir():
        files = CampaignFiles(d)
        files.lock.acquire(d.name, what="make")
        try:
            files.load()
        finally:
            files.lock.release()
print(sorted(p.name for p in saves.iterdir()))
