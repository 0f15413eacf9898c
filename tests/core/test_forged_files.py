"""Files that are not what they claim (issue 30, item 7): a log segment swapped in from
another campaign's folder, and a manifest copied from another campaign's folder, are
damage that ``check`` names (exit 1, as for any damaged campaign), never a campaign
that passes; and old saves, written before segments knew their campaign, still open.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from core.campaign.actions import Campaign
from core.campaign.log import AddCharacter, Character
from core.saves.store import CampaignFiles, Saves
from tests.helpers import SCENARIOS, act, opened, seed, tussle


def people(saves: Path, name: str, prefix: str, count: int) -> CampaignFiles:
    """A campaign of ``count`` characters, ``prefix`` + a number, one action each (one
    append: 100 entries to a log segment)."""
    files = Saves(saves).create(name, "fate")
    campaign = Campaign(name=name, system="fate")
    entries = [
        campaign.act(AddCharacter(character=Character(name=f"{prefix}{n:03d}")))
        for n in range(count)
    ]
    files.lock.acquire(name)
    files.append(entries)
    files.lock.release()
    return files


def test_a_log_segment_swapped_in_from_another_campaign_is_damage(
    saves: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ours = people(saves, "Ours", "C", 150)
    theirs = people(saves, "Theirs", "Q", 150)
    # Their first segment over ours: 100 characters that replay as well in ours (each is
    # one AddCharacter), so only where the file comes from tells it is not ours.
    shutil.copyfile(theirs.segment_path(0), ours.segment_path(0))
    capsys.readouterr()
    assert tussle(saves, "check", "Ours") == 1
    err = capsys.readouterr().err
    assert str(ours.segment_path(0)) in err and "another campaign" in err
    assert tussle(saves, "check", "Theirs") == 0  # the campaign it came from is sound
    # Opened, it is damage as any other in the log (issue 23, item 3): the campaign as it
    # stood before it, their entries set aside, named.
    campaign, files = opened(ours.folder)
    assert campaign.entries == 0 and not any(n.startswith("Q") for n in campaign.roster)
    assert files.bad_entry is not None and "another campaign" in files.bad_entry.reason


def test_the_segment_a_save_writes_swapped_in_is_damage_too(
    saves: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ours = people(saves, "Ours", "C", 50)
    theirs = people(saves, "Theirs", "Q", 50)
    shutil.copyfile(theirs.segment_path(0), ours.segment_path(0))
    capsys.readouterr()
    assert tussle(saves, "check", "Ours") == 1
    assert "another campaign" in capsys.readouterr().err
    # --record sets their entries aside (as any damaged entries: issue 23, item 3) and
    # records after what is ours; never on top of theirs.
    scenario = str(SCENARIOS / "fate-cynere-vs-teran.json")
    assert tussle(saves, "resolve", scenario, "--record", "Ours") == 0
    assert "another campaign" in capsys.readouterr().err
    campaign, _ = opened(ours.folder)
    assert not any(n.startswith("Q") for n in campaign.roster)
    assert [r.title for r in campaign.contests.values()] == ["fate-cynere-vs-teran"]
    assert tussle(saves, "check", "Ours") == 0


def test_a_manifest_copied_from_another_campaigns_folder_is_damage(
    saves: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first, _ = seed(saves, "Mud")
    second, _ = seed(saves, "Clay")
    # Clay's folder now claims to be Mud: two folders, one name.
    shutil.copyfile(first.manifest_path, second.manifest_path)
    capsys.readouterr()
    assert tussle(saves, "check", "clay") == 1
    err = capsys.readouterr().err
    assert str(second.manifest_path) in err and '"mud"' in err
    assert tussle(saves, "check", "Mud") == 0  # the campaign it was copied from is sound
    # --record goes into Mud's own folder, never the copy's.
    scenario = str(SCENARIOS / "fate-cynere-vs-teran.json")
    before = second.segment_path(0).read_bytes()
    assert tussle(saves, "resolve", scenario, "--record", "Mud") == 0
    assert second.segment_path(0).read_bytes() == before
    assert opened(first.folder)[0].entries > 7


def test_a_whole_campaign_folder_copied_by_hand_is_named_not_a_second_campaign(
    saves: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first, _ = seed(saves, "Mud")
    shutil.copytree(first.folder, saves / "mud-copy")
    capsys.readouterr()
    assert tussle(saves, "check", "mud-copy") == 1
    assert "export it and import it" in capsys.readouterr().err
    assert [c.name for c in Saves(saves).campaigns() if c.problem is None] == ["Mud"]


# -- old saves --------------------------------------------------------------------------------


def as_older_tussle_wrote_it(files: CampaignFiles) -> None:
    """Take out what today's Tussle adds that an older one did not write: the manifest's
    campaign id, and each segment's stamp of its campaign."""
    data = json.loads(files.manifest_path.read_text())
    doc = data["manifest"]["1"]
    for key in [k for k in doc if k.startswith("campaign_") or k == "stamped_from"]:
        del doc[key]
    files.manifest_path.write_text(json.dumps(data))
    for path in sorted((files.folder / "log").glob("*.json")):
        segment = json.loads(path.read_text())
        for stamp in segment.get("format", {}).values():
            stamp.pop("campaign", None)
        path.write_text(json.dumps(segment))


def test_a_campaign_an_older_tussle_wrote_opens_checks_and_is_stamped_as_it_is_saved(
    saves: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = people(saves, "Old", "C", 150)
    as_older_tussle_wrote_it(files)
    assert tussle(saves, "check", "Old") == 0
    campaign, writer = opened(files.folder)
    assert campaign.entries == 150
    writer.lock.acquire("Old")
    act(campaign, writer, AddCharacter(character=Character(name="Late")))
    writer.lock.release()
    assert tussle(saves, "check", "Old") == 0
    assert opened(files.folder)[0].entries == 151
    # Trusted once, stamped from then on: the segment it wrote names the campaign now,
    # so the one another campaign could swap in is told.
    stamp = json.loads(files.segment_path(1).read_text())["format"]["1"]
    assert stamp.get("campaign")
    theirs = people(saves, "Theirs", "Q", 150)
    shutil.copyfile(theirs.segment_path(1), files.segment_path(1))
    capsys.readouterr()
    assert tussle(saves, "check", "Old") == 1
    assert "another campaign" in capsys.readouterr().err


def test_the_demo_campaigns_open_and_check(saves: Path) -> None:
    from core.cli.demo import create_demos

    create_demos(Saves(saves))
    for info in Saves(saves).campaigns():
        assert tussle(saves, "check", info.slug) == 0
        as_older_tussle_wrote_it(CampaignFiles(saves / info.slug))
        assert tussle(saves, "check", info.slug) == 0
        assert opened(saves / info.slug)[0].entries == info.entries


def test_an_import_under_a_name_taken_meanwhile_names_its_own_folder_at_every_point(
    saves: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import errno

    from core.files import disk
    from core.saves import transfer

    seed(tmp_path / "source", "Mud")
    export = tmp_path / "mud.json"
    assert tussle(tmp_path / "source", "export", "Mud", "-o", str(export)) == 0
    # Another process took the folder "clay" after the import chose it: it goes to
    # "clay-2", whose name its manifest must give from the moment it is there.
    monkeypatch.setattr(transfer, "_free_slug", lambda _saves, base: base)
    done = [0]

    def count(path: Path) -> None:
        done[0] += 1

    monkeypatch.setattr(disk, "WRITE_FAULTS", [count])
    monkeypatch.setattr(disk, "CHANGE_FAULTS", [count])
    (tmp_path / "probe" / "clay").mkdir(parents=True)
    assert tussle(tmp_path / "probe", "import", str(export), "--as", "Clay") == 0
    points = done[0]
    assert tussle(tmp_path / "probe", "check", "clay-2") == 0
    for n in range(1, points + 1):
        folder = tmp_path / f"cut-{n}"
        (folder / "clay").mkdir(parents=True)
        done[0] = 0

        def cut(path: Path, n: int = n) -> None:
            done[0] += 1
            if done[0] == n:
                raise OSError(errno.ENOSPC, "No space left on device", str(path))

        monkeypatch.setattr(disk, "WRITE_FAULTS", [cut])
        monkeypatch.setattr(disk, "CHANGE_FAULTS", [cut])
        tussle(folder, "import", str(export), "--as", "Clay")
        monkeypatch.setattr(disk, "WRITE_FAULTS", [])
        monkeypatch.setattr(disk, "CHANGE_FAULTS", [])
        found = Saves(folder).campaigns()
        assert [c.problem for c in found] in ([], [None]), n  # no campaign, or a sound one
        if found:
            assert tussle(folder, "check", "Clay") == 0, n
