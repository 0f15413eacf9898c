"""The ``tussle`` command. Textual is imported lazily: ``tussle resolve`` never loads it."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from core.scenario import Resolution

EXIT_SAVE_FAILED = 1
EXIT_INVALID = 2
EXIT_LOCKED = 3
EXIT_BUG = 70


def _read_input(path: str) -> bytes:
    from core.scenario import ScenarioError

    try:
        if path == "-":
            return sys.stdin.buffer.read()
        with open(path, "rb") as handle:
            return handle.read()
    except OSError as exc:
        raise ScenarioError("(file)", exc.strerror or str(exc)) from None


def cmd_resolve(args: argparse.Namespace) -> int:
    from core.scenario import ScenarioError, load

    try:
        resolution = load(_read_input(args.file))
    except ScenarioError as error:
        print(_one_line(str(error)), file=sys.stderr)
        return EXIT_INVALID
    except Exception as exc:  # a bug: say so in one line, never a traceback at the table
        print(f"(internal): a bug in Tussle, please report it: {exc!r}", file=sys.stderr)
        return EXIT_BUG
    if args.record is not None:
        code = _record(args, resolution)
        if code:
            return code
    if args.text:
        print(resolution.to_text())
    else:
        print(json.dumps(resolution.to_json(), indent=2, ensure_ascii=False))
    return 0


def _record(args: argparse.Namespace, resolution: Resolution) -> int:
    """Save the contest into a campaign; 0 once it is on disk, else the exit code."""
    from pathlib import Path

    from core.errors import RuleError
    from core.record import record
    from core.store import CampaignLocked, Saves, StoreError, saves_folder

    title = "Recorded contest" if args.file == "-" else Path(args.file).stem
    try:
        done = record(resolution, Saves(saves_folder(args.saves)), args.record, title, args.wait)
    except CampaignLocked as error:
        print(f"(lock): {error}", file=sys.stderr)
        return EXIT_LOCKED
    except RuleError as error:
        print(f"(record): {error}", file=sys.stderr)
        return EXIT_INVALID
    except (StoreError, OSError) as error:
        print(f"(record): not saved: {error}", file=sys.stderr)
        return EXIT_SAVE_FAILED
    print(
        f"recorded: {done.campaign} contest {done.contest_id}, {done.entries} entries saved",
        file=sys.stderr,
        flush=True,
    )
    return 0


def cmd_odds(args: argparse.Namespace) -> int:
    from core.odds import load_for_odds, odds_for, odds_text
    from core.scenario import ScenarioError

    try:
        odds = odds_for(load_for_odds(_read_input(args.file)))
    except ScenarioError as error:
        print(_one_line(str(error)), file=sys.stderr)
        return EXIT_INVALID
    except Exception as exc:  # a bug: say so in one line, never a traceback at the table
        print(f"(internal): a bug in Tussle, please report it: {exc!r}", file=sys.stderr)
        return EXIT_BUG
    if args.text:
        print(odds_text(odds))
    else:
        print(json.dumps(odds, indent=2, ensure_ascii=False))
    return 0


def cmd_bench(args: argparse.Namespace) -> int:
    from core.bench import main as bench_main

    return bench_main(args.part)


def cmd_dashboard(args: argparse.Namespace) -> int:
    conflict = _system_conflict(args)
    if conflict is not None:
        print(conflict, file=sys.stderr)
        return EXIT_INVALID
    from tui.app import run

    return run(args)


def _system_conflict(args: argparse.Namespace) -> str | None:
    """What is wrong with ``open NAME --system S`` when NAME exists in another system (it
    would open as it is, whatever S says), or None."""
    if args.campaign is None or args.system is None:
        return None
    from core.store import Saves, saves_folder

    files = Saves(saves_folder(args.saves)).find(args.campaign)
    info = files.info() if files is not None else None
    if info is None or info.problem is not None or info.system == args.system:
        return None
    return (
        f'tussle: "{info.name}" is a {info.system} campaign, not {args.system} '
        "(leave out --system to open it)"
    )


def check_saves(args: argparse.Namespace) -> int:
    """0 when the saves folder named by ``--saves`` is there (``--mkdir`` creates it);
    else the exit code, said in one line. A mistyped folder must not look like a folder
    whose campaigns are lost, nor be filled with new ones. The default folder (``./saves``
    or ``$TUSSLE_SAVES``) is not checked: whoever writes in it first creates it."""
    from pathlib import Path

    if args.saves is None:
        return 0
    folder = Path(args.saves).expanduser()
    if folder.is_dir():
        return 0
    if folder.exists():
        print(f"tussle: the saves folder {folder} is a file, not a folder", file=sys.stderr)
        return EXIT_INVALID
    if not args.mkdir:
        print(f"tussle: no saves folder {folder} (add --mkdir to create it)", file=sys.stderr)
        return EXIT_INVALID
    try:
        folder.mkdir(parents=True)
    except OSError as exc:
        print(f"tussle: saves folder {folder} not created ({exc.strerror or exc})", file=sys.stderr)
        return EXIT_SAVE_FAILED
    return 0


def cmd_watch(args: argparse.Namespace) -> int:
    from tui.watch import run_watch

    return run_watch(args.saves, args.campaign)


def cmd_share(args: argparse.Namespace) -> int:
    from core.share import share

    return share(args.saves, args.campaign, args.socket)


def _one_line(text: str) -> str:
    return " ".join(text.split("\n"))


def _version() -> str:
    """The installed distribution's version (pyproject.toml's), or a plain word when
    Tussle runs from a source tree that was never installed."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("tussle")
    except PackageNotFoundError:
        return "(not installed)"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tussle",
        description="Run opposed-roll contests (Fate Core, HeroQuest, FORGE) at the table.",
    )
    parser.set_defaults(func=cmd_dashboard, campaign=None, system=None)
    parser.add_argument("--version", action="version", version=f"tussle {_version()}")
    parser.add_argument(
        "--saves",
        metavar="DIR",
        help="the saves folder, which must exist (default: $TUSSLE_SAVES or ./saves, "
        "created when first used, with three demo campaigns)",
    )
    parser.add_argument(
        "--mkdir",
        action="store_true",
        help="create the --saves folder when it does not exist (empty: no demos)",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    resolve = sub.add_parser("resolve", help="play a scenario file and print the outcome")
    resolve.add_argument("file", metavar="FILE", help="a scenario JSON file, or - for stdin")
    resolve.add_argument("--text", action="store_true", help="a readable account, not JSON")
    resolve.add_argument(
        "--record",
        metavar="NAME",
        help="also append the contest to campaign NAME (created when missing)",
    )
    resolve.add_argument(
        "--wait",
        type=float,
        default=10.0,
        metavar="SECONDS",
        help="with --record: how long to wait for a campaign open elsewhere (default 10)",
    )
    resolve.set_defaults(func=cmd_resolve)

    odds = sub.add_parser(
        "odds", help="the exact odds of the next exchange and of the contest from there"
    )
    odds.add_argument(
        "file",
        metavar="FILE",
        help='a scenario JSON file (with an optional "next" object), or - for stdin',
    )
    odds.add_argument("--text", action="store_true", help="readable lines, not JSON")
    odds.set_defaults(func=cmd_odds)

    opener = sub.add_parser("open", help="open a campaign (creating it when it does not exist)")
    opener.add_argument("campaign", metavar="NAME", help="the campaign's name")
    opener.add_argument(
        "--system",
        choices=["fate", "heroquest", "forge"],
        help="its rule system, for a new campaign (default: fate); "
        "an existing campaign must be of that system",
    )
    opener.set_defaults(func=cmd_dashboard)

    watch = sub.add_parser("watch", help="the players' read-only view of a campaign")
    watch.add_argument("campaign", metavar="NAME", help="the campaign's name")
    watch.set_defaults(func=cmd_watch)

    share = sub.add_parser(
        "share", help="one tmux server with the GM's dashboard and the players' view"
    )
    share.add_argument("campaign", metavar="NAME", help="the campaign's name")
    share.add_argument(
        "--socket",
        metavar="NAME",
        help="the tmux socket (default: $TUSSLE_SHARE_SOCKET or tussle)",
    )
    share.set_defaults(func=cmd_share)

    from core.cli_saves import add_save_commands

    add_save_commands(sub)

    bench = sub.add_parser("bench", help="print the benchmark figures beside their targets")
    bench.add_argument(
        "part",
        nargs="?",
        default="engine",
        choices=["engine", "dashboard", "saves", "watch", "odds"],
    )
    bench.set_defaults(func=cmd_bench)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    from core.dataclass_cache import install

    install()  # before the modules defining dataclasses load: see core/dataclass_cache.py
    parser = build_parser()
    args = parser.parse_args(argv)
    code: int = check_saves(args)
    if code:
        return code
    try:
        code = args.func(args)
    except KeyboardInterrupt:
        return 130
    return code


if __name__ == "__main__":
    sys.exit(main())
