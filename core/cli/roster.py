"""``tussle roster import CAMPAIGN FILE… [--replace]`` and ``tussle roster export CAMPAIGN
[-o FILE]``: a party brought in from files, a roster written out (core.campaign.roster_file).

Exit codes, as the save commands' (core.cli.saves):

* 0: done;
* 1: the campaign's files are damaged, or the disk refused a write;
* 2: what was asked for is wrong: an unknown campaign, a file that cannot be read, does
  not parse or holds a value the campaign's system refuses, a character already on the
  roster without ``--replace``. Several files are all or nothing: when one is refused,
  none goes in;
* 3: the campaign is open in another process (the dashboard holds it: import from its
  roster screen, ``I``);
* 70: a bug in Tussle.

Results go to stdout, problems to stderr, one line each.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from core.cli.saves import EXIT_DAMAGED, EXIT_INVALID, EXIT_LOCKED, _guarded, _say, find_campaign
from core.text import visible

HOLDER = "tussle roster import"


def add_roster_commands(sub: Any) -> None:
    """Register ``roster import`` and ``roster export`` on the ``tussle`` parser."""
    roster = sub.add_parser(
        "roster", help="import characters into a campaign's roster from files, or export it"
    )
    roster.set_defaults(func=_no_command(roster))
    commands = roster.add_subparsers(dest="roster_command", metavar="COMMAND")

    importer = commands.add_parser(
        "import",
        help="add characters from TOML rosters, Fari character files or Foundry VTT "
        "Fate Core Official actors (one undoable action)",
    )
    importer.add_argument("campaign_name", metavar="CAMPAIGN", help="the campaign (name or folder)")
    importer.add_argument("files", metavar="FILE", nargs="+", help="the files to read")
    importer.add_argument(
        "--replace",
        action="store_true",
        help="replace characters already on the roster (refused otherwise)",
    )
    importer.set_defaults(func=cmd_roster_import)

    exporter = commands.add_parser("export", help="write the roster as a TOML roster")
    exporter.add_argument("campaign_name", metavar="CAMPAIGN", help="the campaign (name or folder)")
    exporter.add_argument("-o", "--output", metavar="FILE", help="write to FILE, not stdout")
    exporter.set_defaults(func=cmd_roster_export)


def _no_command(parser: argparse.ArgumentParser) -> Any:
    def run(args: argparse.Namespace) -> int:
        parser.print_usage(sys.stderr)
        _say("tussle roster: say import or export")
        return EXIT_INVALID

    return run


@_guarded
def cmd_roster_import(args: argparse.Namespace) -> int:
    from core.campaign.roster_file import RosterFileError, read_files, report
    from core.errors import RuleError
    from core.files.disk import CampaignLocked, StoreError
    from core.saves.log_guard import covered_at_opening, refuse_damaged, remember
    from core.saves.store import saves_folder

    saves = saves_folder(args.saves)
    files = find_campaign(saves, args.campaign_name)
    if files is None:
        _say(f'no campaign called "{args.campaign_name}" in {saves}')
        return EXIT_INVALID
    try:
        files.lock.acquire(files.info().name, what=HOLDER)
    except CampaignLocked as error:
        _say(f"nothing imported: {error} (import from its roster screen there: I)")
        return EXIT_LOCKED
    except (StoreError, OSError) as error:
        _say(f"nothing imported: {error}")
        return EXIT_DAMAGED
    try:
        files.clean_temporary_files()
        covered = covered_at_opening(files)
        campaign = files.load()
        sums = refuse_damaged(files, covered)  # nothing written after a history gone
        try:
            found = read_files(
                [Path(f) for f in args.files], campaign.system, campaign.roster, args.replace
            )
            entry = campaign.decide(found.command)
        except (RosterFileError, RuleError) as error:
            _say(f"{error} (nothing imported)")
            return EXIT_INVALID
        before = dict(campaign.roster)
        files.append([entry])
        remember(files, sums)
        campaign.apply(entry)
    except (StoreError, OSError) as error:
        _say(f"nothing imported: {error}")
        return EXIT_DAMAGED
    finally:
        files.lock.release()
    count = len(found.arrivals)
    print(
        f'imported {count} character{"" if count == 1 else "s"} into "{visible(campaign.name)}" '
        "(one action: u on the dashboard takes it back):"
    )
    for line in report(found, before, campaign.system):
        print(f"  {line}")
    return 0


@_guarded
def cmd_roster_export(args: argparse.Namespace) -> int:
    from core.campaign.roster_file import export_text
    from core.errors import RuleError
    from core.files.disk import StoreError, write_atomically
    from core.saves.store import saves_folder

    saves = saves_folder(args.saves)
    files = find_campaign(saves, args.campaign_name)
    if files is None:
        _say(f'no campaign called "{args.campaign_name}" in {saves}')
        return EXIT_INVALID
    try:
        campaign = files.load()
    except StoreError as error:
        _say(str(error))
        return EXIT_DAMAGED
    try:
        content = export_text(campaign.system, campaign.roster.values(), campaign.name)
    except RuleError as error:
        _say(f"not exported: {error}")
        return EXIT_INVALID
    if args.output in (None, "-"):
        sys.stdout.write(content)
        return 0
    try:
        write_atomically(Path(args.output), content, keep_mode=True)
    except OSError as exc:
        _say(f"{args.output}: not written ({exc.strerror or exc})")
        return EXIT_DAMAGED
    count = len(campaign.roster)
    print(
        f'exported {count} character{"" if count == 1 else "s"} of "{visible(campaign.name)}" '
        f"to {visible(args.output)}"
    )
    return 0
