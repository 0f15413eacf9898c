"""``tussle export`` and ``tussle import``: a campaign as one self-contained JSON object.

The export is written for two readers. Other tools read its summary: ``name``,
``system``, ``settings``, ``participants`` (the roster, every field of each character) and
``contests`` (each with its ``id``, ``title``, ``participants`` as the contest started,
``finished``, ``winner``, its ``exchanges`` as ``tussle resolve`` prints them, and the keys
``tussle resolve`` adds after them). Tussle's import reads only ``log``: every entry of the
campaign's log as saved (undos and redos included), replayed to rebuild the campaign
exactly, so a round trip gives an equal campaign and a damaged export is refused whole.

``format`` is the export's own version (:data:`EXPORT_FORMAT`), ``campaign_format`` the
version of the saved log entries it carries; an import refuses newer ones of either.
"""

from __future__ import annotations

import fcntl
import json
import os
import re
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec

from core.campaign.actions import Campaign
from core.campaign.log import FORMAT_VERSION, Character, Entry, now
from core.campaign.state import ContestRecord
from core.files.codec import encode
from core.files.disk import MAX_DEPTH, BadSave, change_point, entry_problem, make_folder, too_deep
from core.model import TAG
from core.rules import SYSTEM_NAMES, find_system
from core.saves.check import load_checked
from core.saves.migrate import upgrade_log
from core.saves.replay import number_problem, replay_entry
from core.saves.store import CampaignFiles, Saves, safe_name
from core.text import control_problem, refuse_control_in

EXPORT_FORMAT = 1
APP = "tussle"
KIND = "campaign"
IMPORT_PREFIX = ".tmp-import-"


class TransferError(ValueError):
    """An export that cannot be imported, or a name already taken: one line, naming it."""


# -- export ---------------------------------------------------------------------------------


def plain(value: Any) -> Any:
    """``value`` as JSON for other tools: dataclasses as objects of their fields (no
    class tags), tuples as lists."""
    return _untag(encode(value))


def _untag(data: Any) -> Any:
    if isinstance(data, dict):
        return {k: _untag(v) for k, v in data.items() if k != TAG}
    if isinstance(data, list):
        return [_untag(v) for v in data]
    return data


def character_json(character: Character) -> dict[str, Any]:
    out: dict[str, Any] = plain(character)
    return out


def contest_json(record: ContestRecord) -> dict[str, Any]:
    """One contest: who took part as it started, how it stands, every exchange."""
    rules = find_system(record.start.system)
    before, after = contest_parts(record)
    exchanges = [rules.exchange_json(e) for e in record.exchanges]
    return {**before, "exchanges": exchanges, **after}


def contest_parts(record: ContestRecord) -> tuple[dict[str, Any], dict[str, Any]]:
    """A contest's export without its exchanges: the members before them, and after."""
    rules = find_system(record.start.system)
    state = record.state
    out: dict[str, Any] = {
        "id": record.contest_id,
        "title": record.title,
        "uses": dict(record.uses),
    }
    options = getattr(record.start, "options", None)
    if isinstance(options, msgspec.Struct):
        out["options"] = plain(options)
    out.update(
        {
            "participants": [plain(p) for p in record.start.participants],
            "finished": state.finished,
            "winner": state.winner,
        }
    )
    after = {k: v for k, v in rules.final_json(state).items() if k not in out and k != "exchanges"}
    return out, after


def export_campaign(files: CampaignFiles) -> dict[str, Any]:
    """The campaign as one JSON object; ``StoreError`` naming the file when it is damaged."""
    campaign, raw_log = load_checked(files)
    return export_json(campaign, raw_log, files.settings_at_start())


def export_json(
    campaign: Campaign, raw_log: list[dict[str, Any]], at_start: dict[str, Any]
) -> dict[str, Any]:
    """The export of ``campaign``, whose saved log entries are ``raw_log`` and whose
    settings before its first entry were ``at_start``."""
    return {
        **export_head(campaign, at_start),
        "contests": [contest_json(r) for r in campaign.contests.values()],
        "log": raw_log,
    }


def export_head(campaign: Campaign, at_start: dict[str, Any]) -> dict[str, Any]:
    """The export's members before its contests and its log, in order. ``settings`` are
    the campaign's now (for a reader); ``settings_at_start`` those its log starts from:
    replaying the log from them gives ``settings`` again (a session start counts on from
    the sessions before it), so import starts from them, never from ``settings``."""
    return {
        "app": APP,
        "kind": KIND,
        "format": EXPORT_FORMAT,
        "campaign_format": FORMAT_VERSION,
        "exported": now(),
        "name": campaign.name,
        "system": campaign.system,
        "settings": dict(campaign.settings),
        "settings_at_start": dict(at_start),
        "participants": [character_json(c) for c in campaign.roster.values()],
    }


def to_text(data: dict[str, Any]) -> str:
    """An export as the file holds it: indented JSON, UTF-8 characters as they are."""
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


# -- import ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Imported:
    name: str
    folder: Path
    entries: int


@dataclass(frozen=True, slots=True)
class Export:
    """An export read back: the campaign its log rebuilds, and the log's entries."""

    campaign: Campaign
    entries: list[Entry]
    settings_at_start: dict[str, Any]  # the campaign's before its log (see export_head)


def read_export(data: bytes, source: str) -> Export:
    """An export's campaign, rebuilt by replaying its log; ``TransferError`` naming
    ``source`` (the file) and the first problem."""
    try:
        doc = json.loads(data)
    except UnicodeDecodeError:
        raise TransferError(f"{source}: not a Tussle export (not text)") from None
    except json.JSONDecodeError as exc:
        raise TransferError(
            f"{source}: not valid JSON ({exc.msg}, line {exc.lineno} column {exc.colno})"
        ) from None
    except RecursionError:
        raise TransferError(f"{source}: not a Tussle campaign export (nested too deep)") from None
    except ValueError:  # an integer of more digits than Python converts
        line, column = _long_number(data)
        raise TransferError(
            f"{source}: line {line} column {column}: a number of thousands of digits"
        ) from None
    if not isinstance(doc, dict) or doc.get("app") != APP or doc.get("kind") != KIND:
        raise TransferError(f"{source}: not a Tussle campaign export")
    if too_deep(doc, MAX_DEPTH):  # as opening the campaign would refuse its files
        raise TransferError(f"{source}: not a Tussle campaign export (nested too deep)")
    refuse_control_in(doc, source, TransferError)  # names are plain text (core.text)
    for key, newest in (("format", EXPORT_FORMAT), ("campaign_format", FORMAT_VERSION)):
        version = doc.get(key)
        if not isinstance(version, int) or isinstance(version, bool) or version < 1:
            raise TransferError(f"{source}: not a Tussle campaign export (no {key})")
        if version > newest:
            raise TransferError(
                f"{source}: {key.replace('_', ' ')} {version} is newer than this Tussle "
                f"reads ({newest}); upgrade Tussle to import it"
            )
        if version < newest and key == "format":  # no older export format exists yet
            raise TransferError(f"{source}: {key.replace('_', ' ')} {version} is not supported")
    name, system, log = (doc.get(k) for k in ("name", "system", "log"))
    if not isinstance(name, str) or not name.strip():
        raise TransferError(f"{source}: the campaign has no name")
    problem = control_problem(name, "the campaign's name")  # as a new campaign's is
    if problem is not None:
        raise TransferError(f"{source}: {problem}")
    if not isinstance(system, str) or system not in SYSTEM_NAMES:
        raise TransferError(f"{source}: unknown rule system {system!r}")
    # The log is replayed from the settings it started from (an export of an older
    # Tussle has none: every campaign it made started with none, but for an import).
    # ``settings``, what they became, is the engine's to derive, not the file's to say.
    settings = doc.get("settings_at_start", {})
    if not isinstance(settings, dict):
        raise TransferError(f"{source}: the settings at start are not an object")
    problem = number_problem(settings)  # as opening the campaign will check them
    if problem is not None:
        raise TransferError(f"{source}: settings_at_start.{problem}")
    problem = entry_problem(settings)  # the manifest holds them: as much as an entry
    if problem is not None:
        raise TransferError(f"{source}: the settings at start are too large ({problem})")
    if not isinstance(log, list) or not all(isinstance(e, dict) for e in log):
        raise TransferError(f"{source}: the log is not a list of entries")
    for n, entry in enumerate(log):  # each as the dashboard would have saved it, or none
        problem = entry_problem(entry)
        if problem is not None:
            raise TransferError(f"{source}: log entry {n} cannot be saved ({problem})")
    campaign = Campaign(name=name, system=system, settings=dict(settings))  # its own, changed
    # A log of an older campaign format is brought up to this one's, as opening does.
    upgrade_log(system, doc["campaign_format"], log)
    try:  # each action's events the engine's own, never the file's (core.saves.replay)
        entries = [replay_entry(source, n, raw, campaign, derive=True) for n, raw in enumerate(log)]
    except BadSave as error:
        raise TransferError(str(error)) from None
    return Export(campaign, entries, settings)


def _long_number(data: bytes) -> tuple[int, int]:
    """Line and column (from 1) of the first run of digits too long to convert."""
    match = re.search(rb"\d{4000,}", data)
    start = match.start() if match else 0
    return data.count(b"\n", 0, start) + 1, start - (data.rfind(b"\n", 0, start) + 1) + 1


def import_campaign(saves: Saves, data: bytes, source: str, name: str | None) -> Imported:
    """Create a campaign from an export, named ``name`` or as exported.

    ``TransferError`` for an export that does not replay or a name already taken; then
    nothing is created. The campaign is built in a temporary folder inside the saves
    folder (one ``Saves`` does not list) and renamed into place whole, under the saves
    folder's lock on names (two imports of one name: one is refused).
    """
    exported = read_export(data, source)
    campaign = exported.campaign
    target = campaign.name if name is None else name
    if not target.strip():
        raise TransferError("a campaign needs a name (--as)")
    clash = saves.find(target)
    if clash is not None:
        raise TransferError(
            f'a campaign called "{target}" already exists (in {clash.folder}); '
            "import it under another name with --as NAME"
        )
    make_folder(saves.folder)
    slug = _free_slug(saves.folder, safe_name(target))
    with saves.names_locked():  # a killed import's folder cleared; this one made, held
        _clear_leftovers(saves.folder)
        work = Path(tempfile.mkdtemp(prefix=IMPORT_PREFIX, dir=saves.folder))
        held = _hold(work)
    try:
        files = CampaignFiles(work / slug)
        files.create(target, campaign.system, exported.settings_at_start)
        files.append(exported.entries)
        with saves.names_locked():  # no other import or new campaign takes the name now
            clash = saves.find(target)
            if clash is not None:
                raise TransferError(
                    f'a campaign called "{target}" already exists (in {clash.folder}); '
                    "import it under another name with --as NAME"
                )
            saves.refuse_beside_damaged(target)
            folder = _move_into_place(work / slug, saves.folder, slug)
    finally:
        change_point(work)
        shutil.rmtree(work, ignore_errors=True)
        os.close(held)
    return Imported(target, folder, len(exported.entries))


def _free_slug(saves: Path, base: str) -> str:
    """``base``, or ``base-2``, ``base-3``... : the first name no folder has (as
    ``Saves.create`` picks them)."""
    slug, n = base, 1
    while (saves / slug).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


def _move_into_place(built: Path, saves: Path, base: str) -> Path:
    """Rename the finished campaign folder into the saves folder, under the next free
    name if another process took ``base`` meanwhile; its manifest names that folder
    before it is renamed there (a manifest naming another folder is damage)."""
    slug, n = base, 1
    while True:
        target = saves / slug
        if not target.exists():
            _write_slug(built, slug)
            try:
                change_point(target)
                os.rename(built, target)
            except OSError:  # taken meanwhile by another process
                if not target.exists():
                    raise
            else:
                return target
        n += 1
        slug = f"{base}-{n}"


def _write_slug(folder: Path, slug: str) -> None:
    """The manifest in ``folder`` records ``slug`` as its folder's name."""
    from core.saves.migrate import read_manifest, write_manifest

    doc = read_manifest(folder)
    if doc.get("slug") != slug:
        write_manifest(folder, {**doc, "slug": slug})


def _hold(folder: Path) -> int:
    """An exclusive ``flock`` on an import's own folder, for as long as the import runs:
    the kernel lets it go when the process ends, however it ends."""
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
    fcntl.flock(fd, fcntl.LOCK_EX)
    return fd


def _clear_leftovers(saves: Path) -> None:
    """Remove the folders of imports that were killed (call with the lock on names: an
    import makes and locks its folder under it). A folder whose lock can be taken has no
    import running in it any more; what is not a folder is left alone."""
    for path in saves.glob(f"{IMPORT_PREFIX}*"):
        try:
            fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
        except OSError:
            continue  # a link, a file, gone: nothing of an import's
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            continue  # an import running now
        try:
            shutil.rmtree(path, ignore_errors=True)
        finally:
            os.close(fd)


__all__ = [
    "EXPORT_FORMAT",
    "Export",
    "Imported",
    "TransferError",
    "export_campaign",
    "export_json",
    "import_campaign",
    "plain",
    "read_export",
    "to_text",
]
