"""``tussle check``, ``export``, ``import`` and ``restore``: the campaign files' commands;
and ``rename``, ``archive`` and ``delete`` (done by :mod:`core.saves.manage`).

Exit codes, the same for all of them:

* 0: done (for ``check``: the campaign is sound);
* 1: a campaign's files are damaged, or the disk refused a write (the message names the
  file and the problem);
* 2: what was asked for is wrong: an unknown campaign, an export that cannot be imported,
  a name already taken, a backup that does not exist;
* 3: the campaign is open in another process (``restore``, ``rename``, ``archive``,
  ``delete``; the message names it);
* 70: a bug in Tussle.

Results go to stdout, problems to stderr, one line each. A campaign is named as typed or
by its folder's name (as ``Saves.find``); a campaign whose manifest is too damaged to give
its name is found by the folder its name maps to.
"""

from __future__ import annotations

import argparse
import functools
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from core.text import json_safe, visible, visible_lines

if TYPE_CHECKING:
    from datetime import datetime

    from core.saves.backup import Backup
    from core.saves.store import CampaignFiles, Saves

EXIT_DAMAGED = 1
EXIT_INVALID = 2
EXIT_LOCKED = 3
EXIT_BUG = 70

Command = Callable[[argparse.Namespace], int]


def add_save_commands(sub: Any) -> None:
    """Register the save commands on the ``tussle`` parser's subcommands."""
    check = sub.add_parser(
        "check", help="verify a campaign's files (JSON, format, log) and that its log replays"
    )
    check.add_argument("campaign_name", metavar="NAME", help="the campaign (name or folder)")
    check.add_argument(
        "--repair",
        action="store_true",
        help="bring back the log entries set aside (set-aside/) that now load, in order",
    )
    check.set_defaults(func=cmd_check)

    export = sub.add_parser(
        "export", help="write a campaign as one JSON object, or a Markdown session recap"
    )
    export.add_argument("campaign_name", metavar="NAME", help="the campaign (name or folder)")
    export.add_argument(
        "--format", choices=["json", "markdown"], default="json", help="(default: json)"
    )
    export.add_argument(
        "--since",
        metavar="DATE",
        help="markdown: the contests played since DATE (default: the last session)",
    )
    export.add_argument(
        "--secrets",
        action="store_true",
        help="markdown: include what the GM hides from the players (left out by default)",
    )
    export.add_argument("-o", "--output", metavar="FILE", help="write to FILE rather than stdout")
    export.set_defaults(func=cmd_export)

    importer = sub.add_parser("import", help="make a campaign from a `tussle export` file")
    importer.add_argument("file", metavar="FILE", help="an export file, or - for stdin")
    importer.add_argument(
        "--as", dest="as_name", metavar="NAME", help="the new campaign's name (default: as saved)"
    )
    importer.set_defaults(func=cmd_import)

    restore = sub.add_parser("restore", help="list a campaign's backups, or restore one")
    restore.add_argument("campaign_name", metavar="NAME", help="the campaign (name or folder)")
    restore.add_argument(
        "--backup",
        metavar="N|TIMESTAMP",
        help="the backup to restore: its number in the list (1 is the newest) or its timestamp",
    )
    restore.set_defaults(func=cmd_restore)

    renamer = sub.add_parser("rename", help="give a campaign a new name (its folder keeps its own)")
    renamer.add_argument("campaign_name", metavar="NAME", help="the campaign (name or folder)")
    renamer.add_argument("new_name", metavar="NEW", help="its new name")
    renamer.set_defaults(func=cmd_rename)

    archiver = sub.add_parser(
        "archive", help="hide a campaign from the campaign screen (its files are kept)"
    )
    archiver.add_argument("campaign_name", metavar="NAME", help="the campaign (name or folder)")
    archiver.add_argument("--undo", action="store_true", help="list it again (unarchive)")
    archiver.set_defaults(func=cmd_archive)

    deleter = sub.add_parser("delete", help="delete a campaign, a backup kept first")
    deleter.add_argument("campaign_name", metavar="NAME", help="the campaign (name or folder)")
    deleter.add_argument("--yes", action="store_true", help="really delete it (required)")
    deleter.set_defaults(func=cmd_delete)


def _guarded(command: Command) -> Command:
    """A bug is one line and exit 70, never a traceback at the table."""

    @functools.wraps(command)
    def run(args: argparse.Namespace) -> int:
        try:
            return command(args)
        except Exception as exc:
            _say(f"(internal): a bug in Tussle, please report it: {exc!r}")
            return EXIT_BUG

    return run


def _say(line: str) -> None:
    print(" ".join(visible(part) for part in line.split("\n")), file=sys.stderr)


def _tell(line: str) -> None:
    """Print one line of a report: what it quotes from the saves (a campaign's name, a
    backup's) is written out (core.text), never sent to the terminal raw."""
    print(visible(line))


def _saves(args: argparse.Namespace) -> Path:
    from core.saves.store import saves_folder

    return saves_folder(args.saves)


def find_campaign(saves: Path, name: str) -> CampaignFiles | None:
    """The campaign called ``name`` (or in folder ``name``); failing that, a damaged one
    in the folder ``name`` maps to, whose manifest cannot say what it is called."""
    from core.saves.store import CampaignFiles, Saves, creation_cut_short, safe_name

    found = Saves(saves).find(name)
    if found is not None:
        return found
    folder = saves / safe_name(name)
    if folder.is_dir() and not creation_cut_short(folder):  # that is no campaign yet
        files = CampaignFiles(folder)
        if not files.manifest_path.exists() or files.info().problem is not None:
            return files
    return None


def _unknown(saves: Path, name: str) -> int:
    _say(f'no campaign called "{name}" in {saves}')
    return EXIT_INVALID


@_guarded
def cmd_check(args: argparse.Namespace) -> int:
    from core.files.disk import StoreError
    from core.saves.check import check_campaign

    saves = _saves(args)
    files = find_campaign(saves, args.campaign_name)
    if files is None:
        return _unknown(saves, args.campaign_name)
    if args.repair:
        return _repair(files)
    try:
        report = check_campaign(files)
    except StoreError as error:
        _say(str(error))
        return EXIT_DAMAGED
    if report.bad is not None:  # the campaign up to it, and what to do
        _tell(report.line())
        for warning in report.warnings:
            _tell(f"warning: {warning}")
        _say(report.bad.message())
        return EXIT_DAMAGED
    _tell(report.line())
    for warning in report.warnings:
        _tell(f"warning: {warning}")
    _warn_of_backups(files)
    return 0


def _warn_of_backups(files: CampaignFiles) -> None:
    """``check``'s word on the campaign's backups: those whose files are not as backed
    up (sha256), and a full log segment changed since the newest backup."""
    from core.saves.backup import backup_problems

    for problem in backup_problems(files):
        _tell(f"warning: {problem}")


def _repair(files: CampaignFiles) -> int:
    """``tussle check NAME --repair``: the entries set aside that now load brought back."""
    from core.files.disk import CampaignLocked, StoreError

    try:
        name = str(files.meta()["name"])
        files.lock.acquire(name, what="tussle check --repair")
    except CampaignLocked as error:
        _say(str(error))
        return EXIT_LOCKED
    except StoreError as error:
        _say(str(error))
        return EXIT_DAMAGED
    try:
        files.clean_temporary_files()
        back, left, failed = files.repair()
        opened = files.bad_entry  # what this opening set aside first
    except StoreError as error:
        _say(str(error))
        return EXIT_DAMAGED
    except OSError as exc:  # a full disk: nothing was brought back
        _say(f"{files.folder}: not repaired ({exc.strerror or exc}); nothing changed")
        return EXIT_DAMAGED
    finally:
        files.lock.release()
    if opened is not None:
        _say(opened.message())
    _tell(
        f'repaired "{name}": {_count(back)} brought back, '
        f"{_count(left)} still set aside"
        + ("" if failed is None else f" (the first still fails: {failed.reason})")
    )
    return 0 if left == 0 else EXIT_DAMAGED


@_guarded
def cmd_export(args: argparse.Namespace) -> int:
    from core.files.disk import StoreError, writing_atomically
    from core.saves.export_stream import write_export

    saves = _saves(args)
    files = find_campaign(saves, args.campaign_name)
    if files is None:
        return _unknown(saves, args.campaign_name)
    if args.format == "markdown":
        return _export_markdown(args, files)
    if args.since is not None:
        _say("--since goes with --format markdown")
        return EXIT_INVALID
    try:
        if args.output is None or args.output == "-":
            write_export(files, sys.stdout, json_safe)  # checked whole before it writes
            return _exported_up_to(files)
        with writing_atomically(Path(args.output), keep_mode=True) as out:
            campaign = write_export(files, out, json_safe)
    except StoreError as error:
        _say(str(error))
        return EXIT_DAMAGED
    except OSError as exc:
        _say(f"{args.output}: not written ({exc.strerror or exc})")
        return EXIT_DAMAGED
    contests = len(campaign.contests)
    _tell(
        f'exported "{campaign.name}" ({_count(campaign.entries)}, '
        f"{contests} contest{'' if contests == 1 else 's'}) to {args.output}"
    )
    return _exported_up_to(files)


def _exported_up_to(files: CampaignFiles) -> int:
    """Exit 0, or 1 saying so when the export stops before a log entry that does not
    load (the campaign as it stood before it was written). Entries set aside, which the
    export leaves out, are said as check says them."""
    from core.saves.set_aside import summary

    aside = summary(files.meta(), files.slug)
    if aside is not None:
        _say(f"warning: {aside}")
    if files.bad_entry is None:
        return 0
    _say(f"exported up to log entry {files.bad_entry.n} only. {files.bad_entry.message()}")
    return EXIT_DAMAGED


def _export_markdown(args: argparse.Namespace, files: Any) -> int:
    """``tussle export NAME --format markdown [--since DATE] [-o FILE]``: the recap."""
    from datetime import UTC, datetime

    from core.campaign.recap import recap_markdown
    from core.files.disk import StoreError

    since = None
    if args.since is not None:
        try:
            since = datetime.fromisoformat(args.since)
        except ValueError:
            _say(f"--since: {args.since!r} is not a date (like 2026-11-29 or 2026-11-29T18:00)")
            return EXIT_INVALID
        if since.tzinfo is None:
            since = since.replace(tzinfo=UTC)
    try:
        text = recap_markdown(files.load(), since, secrets=args.secrets)
    except StoreError as error:
        _say(str(error))
        return EXIT_DAMAGED
    if files.bad_entry is not None:
        _say(files.bad_entry.message())
    written = _emit(text, args.output)
    if written == 0 and args.output not in (None, "-"):
        _tell(f"recap written to {args.output}")
    return written


def _emit(text: str, output: str | None) -> int:
    """``text`` to stdout, or atomically to the file ``output``; the exit code."""
    from core.files.disk import write_atomically

    if output is None or output == "-":
        sys.stdout.write(text)
        return 0
    try:
        write_atomically(Path(output), text, keep_mode=True)
    except OSError as exc:
        _say(f"{output}: not written ({exc.strerror or exc})")
        return EXIT_DAMAGED
    return 0


@_guarded
def cmd_import(args: argparse.Namespace) -> int:
    from core.files.disk import StoreError
    from core.files.named_files import EXPORT_BYTES, read_named, read_stream
    from core.saves.store import Saves
    from core.saves.transfer import TransferError, import_campaign

    try:
        data = (
            read_stream(sys.stdin.buffer, EXPORT_BYTES)
            if args.file == "-"
            else read_named(Path(args.file), EXPORT_BYTES)  # never a pipe: nothing blocks
        )
    except OSError as exc:
        _say(f"{args.file}: cannot be read ({exc.strerror or exc})")
        return EXIT_INVALID
    source = "(stdin)" if args.file == "-" else args.file
    try:
        done = import_campaign(Saves(_saves(args)), data, source, args.as_name)
    except TransferError as error:
        _say(str(error))
        return EXIT_INVALID
    except (StoreError, OSError) as error:
        _say(f"not imported: {error}")
        return EXIT_DAMAGED
    _tell(f'imported "{done.name}" ({_count(done.entries)}) into {done.folder}')
    return 0


@_guarded
def cmd_restore(args: argparse.Namespace) -> int:
    from core.files.disk import CampaignLocked, StoreError
    from core.saves.backup import backups_folder, list_backups, restore
    from core.saves.store import CampaignFiles, safe_name

    saves = _saves(args)
    name = args.campaign_name
    files = find_campaign(saves, name)
    if files is None:  # a campaign deleted outright: its backups may still be there
        slug = safe_name(name)
        if not backups_folder(saves, slug).is_dir():
            _say(f'no campaign called "{name}" in {saves}, and no backups of one')
            return EXIT_INVALID
        files = CampaignFiles(saves / slug)
    backups = list_backups(saves, files.slug)
    info = files.info()
    title = info.name if info.problem is None else files.slug
    if args.backup is None:
        _list(title, files.slug, backups, backups_folder(saves, files.slug))
        return 0
    chosen = _pick(backups, args.backup)
    if chosen is None:
        _say(
            f'no backup "{args.backup}" of "{title}" (there are {len(backups)}; '
            f"`tussle restore {files.slug}` lists them)"
        )
        return EXIT_INVALID
    try:
        done = restore(files, chosen)
    except CampaignLocked as error:
        _say(f"not restored: {error}")
        return EXIT_LOCKED
    except (StoreError, OSError) as error:
        _say(f"not restored: {error}")
        return EXIT_DAMAGED
    from core.saves.log_guard import remember

    remember(CampaignFiles(files.folder))  # checked as it was restored: sound
    _tell(f'restored "{title}" to its backup of {_local(chosen.when)} ({_count(chosen.entries)})')
    if done.before is not None and done.before != chosen:
        _tell(
            f"the state it replaced is backup {done.before.stamp}: "
            f"tussle restore {files.slug} --backup {done.before.stamp} takes this back"
        )
    return 0


def _list(title: str, slug: str, backups: list[Backup], folder: Path) -> None:
    if not backups:
        _tell(
            f'no backups of "{title}" yet (one is made each time the dashboard opens it, '
            "and at each session start)"
        )
        return
    _tell(f'backups of "{title}" in {folder}, newest first:')
    width = len(str(len(backups)))
    for number, b in enumerate(backups, start=1):
        why = f"  {b.why}" if b.why else ""  # opened, session 3 started...
        _tell(f"  {number:>{width}}  {_local(b.when)}  {_count(b.entries):>14}  {b.stamp}{why}")
    _tell(f"restore one with: tussle restore {slug} --backup N")


def _pick(backups: list[Backup], wanted: str) -> Backup | None:
    """The backup numbered ``wanted`` (1 the newest), or whose timestamp is or begins with
    it (when only one does)."""
    if wanted.isdigit():
        number = int(wanted)
        return backups[number - 1] if 1 <= number <= len(backups) else None
    matches = [b for b in backups if b.stamp == wanted] or [
        b for b in backups if b.stamp.startswith(wanted)
    ]
    return matches[0] if len(matches) == 1 else None


def _local(when: datetime) -> str:
    return when.astimezone().strftime("%Y-%m-%d %H:%M:%S")


def _count(entries: int | None) -> str:
    if entries is None:
        return "damaged"
    return f"{entries} log {'entry' if entries == 1 else 'entries'}"


# -- rename, archive, delete (core.saves.manage) -------------------------------------------------


def _managed(args: argparse.Namespace, what: str, work: Callable[[Saves, str], str]) -> int:
    """Run ``work(saves, name)``, printing what it says; the exit code for what it raised."""
    from core.files.disk import CampaignLocked, StoreError
    from core.saves.manage import BadName, UnknownCampaign
    from core.saves.store import Saves

    try:
        print(visible_lines(work(Saves(_saves(args)), args.campaign_name)))
    except (UnknownCampaign, BadName) as error:
        _say(f"not {what}: {error}")
        return EXIT_INVALID
    except CampaignLocked as error:
        _say(f"not {what}: {error}")
        return EXIT_LOCKED
    except (StoreError, OSError) as error:
        _say(f"not {what}: {error}")
        return EXIT_DAMAGED
    return 0


@_guarded
def cmd_rename(args: argparse.Namespace) -> int:
    from core.saves.manage import find, rename

    def work(saves: Saves, name: str) -> str:
        old = find(saves, name).info().name
        info = rename(saves, name, args.new_name)
        return f'renamed "{old}" to "{info.name}" (its folder stays {saves.folder / info.slug})'

    return _managed(args, "renamed", work)


@_guarded
def cmd_archive(args: argparse.Namespace) -> int:
    from core.saves.manage import find, set_archived

    def work(saves: Saves, name: str) -> str:
        files = find(saves, name)
        title = files.info().name
        changed = set_archived(saves, name, not args.undo)
        if args.undo:
            return f'"{title}" is listed again' if changed else f'"{title}" was not archived'
        if not changed:
            return f'"{title}" was archived already'
        return (
            f'archived "{title}": hidden from the campaign screen, kept in {files.folder} '
            f"(tussle archive {files.slug} --undo lists it again)"
        )

    return _managed(args, "archived" if not args.undo else "unarchived", work)


@_guarded
def cmd_delete(args: argparse.Namespace) -> int:
    from core.saves.manage import delete

    if not args.yes:
        _say(
            f'"{args.campaign_name}" not deleted: add --yes to delete it '
            "(a backup is kept, and tussle restore brings it back)"
        )
        return EXIT_INVALID
    return _managed(args, "deleted", lambda saves, name: delete(saves, name).message())
