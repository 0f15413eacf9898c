"""``tussle check`` and ``tussle export`` read a campaign's log a segment at a time and
hold neither the log nor its actions: the export is written as it goes, and is the text
the whole-campaign export made."""

from __future__ import annotations

import io
import json
import random
import re
from pathlib import Path

from core.campaign.log import Character, Correct, Redo, Undo, UpdateCharacter
from core.cli.bench import exchange_action, fate_campaign
from core.saves.check import check_campaign, exchanges_of, replay_checked
from core.saves.export_stream import write_export
from core.saves.lazy import ExchangeDigest
from core.saves.store import CampaignFiles, Saves
from core.saves.transfer import export_campaign, to_text
from core.systems.fate.character import FateCharacter
from core.text import json_safe

STAMP = re.compile(r'"exported": "[^"]*"')


def whole(files: CampaignFiles) -> str:
    """The export as it was made before it streamed: one object, dumped at once."""
    return json_safe(to_text(export_campaign(files)))


def streamed(files: CampaignFiles) -> str:
    out = io.StringIO()
    write_export(files, out, json_safe)
    return out.getvalue()


def played(tmp_path: Path) -> CampaignFiles:
    """Three contests, a correction, a character changed, undos and a redo."""
    files, campaign = fate_campaign(tmp_path, 30, "Sample «ß» ✓", per_contest=10)
    files.lock.acquire("Sample", what="a test")
    rng = random.Random(9)
    fixed = exchange_action("c2", random.Random(4)).commands  # exchange 3 of c2, rolled again
    for command in (
        Correct(contest_id="c2", n=3, commands=fixed),
        exchange_action("c2", rng),
        exchange_action("c3", rng),
        UpdateCharacter(
            name="Teran", character=Character(name="Teran", sheet=FateCharacter(fate_points=2))
        ),
        Undo(),
        Undo(),
        Redo(),
    ):
        files.append([campaign.act(command)])
    files.lock.release()
    return files


def test_the_streamed_export_is_the_text_the_whole_export_made(tmp_path: Path) -> None:
    files = played(tmp_path)
    old, new = whole(files), streamed(CampaignFiles(files.folder))
    assert STAMP.search(old) and STAMP.search(new)
    assert STAMP.sub("", new) == STAMP.sub("", old)
    assert "«ß» ✓" in new  # UTF-8 as it is, as before


def test_a_campaign_with_nothing_in_it_streams_as_it_exported(tmp_path: Path) -> None:
    files = Saves(tmp_path).create("Empty", "heroquest")
    assert STAMP.sub("", streamed(files)) == STAMP.sub("", whole(files))


def test_check_and_export_hold_no_action_once_replayed(tmp_path: Path) -> None:
    files = played(tmp_path)
    campaign = replay_checked(CampaignFiles(files.folder))
    assert len(campaign.actions) == 39
    assert not any(campaign.actions.loaded(i) for i in campaign.actions)  # type: ignore[attr-defined]
    # Read back when asked for: what an undo or the contests' check needs.
    teran = Character(name="Teran", sheet=FateCharacter(fate_points=2))
    assert campaign.actions[39].command == UpdateCharacter(name="Teran", character=teran)
    assert check_campaign(CampaignFiles(files.folder)).entries == 42


def test_check_keeps_of_the_exchanges_their_count_and_digest(tmp_path: Path) -> None:
    files = played(tmp_path)
    campaign = replay_checked(CampaignFiles(files.folder), bounded=True)
    records = [campaign.contests[k] for k in campaign.contests]
    assert all(isinstance(r.exchanges, ExchangeDigest) for r in records)
    assert [len(r.exchanges) for r in records] == [10, 11, 11]
    # ...and reads them again, one at a time, as a campaign that keeps them holds them.
    kept = CampaignFiles(files.folder).load()
    for record in records:
        assert list(exchanges_of(campaign, record)) == kept.contests[record.contest_id].exchanges
    assert check_campaign(CampaignFiles(files.folder)).exchanges == 32


def test_a_damaged_campaign_exports_what_stands_before_the_damage(tmp_path: Path) -> None:
    files = played(tmp_path)
    (files.folder / "log" / "000000.json").write_text("{}")
    out = io.StringIO()
    reader = CampaignFiles(files.folder)
    write_export(reader, out, json_safe)  # up to log entry 0: nothing (core.saves.set_aside)
    assert reader.bad_entry is not None and "000000.json" in reader.bad_entry.reason
    assert json.loads(out.getvalue())["log"] == []
