"""The ``tussle`` command: its parser, and the commands that start the dashboard, the
players' view, a shared table in tmux and the benchmarks.

Above core: the headless commands are core.cli.commands's and core.cli.saves's handlers. Textual
is imported lazily, by the commands that show something: ``tussle resolve`` never loads
it.
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from core.cli.commands import (
    EXIT_INVALID,
    check_saves,
    cmd_odds,
    cmd_resolve,
    cmd_roll,
    system_conflict,
)
from core.rules import BUILT_IN, DEFAULT_SYSTEM


def cmd_bench(args: argparse.Namespace) -> int:
    from tui.bench import main as bench_main

    return bench_main(args.part)


@contextmanager
def loading_for_good() -> Iterator[None]:
    """Loading the modules a screen needs: what they make lives as long as the program.
    The cyclic garbage collector would walk it again and again while it loads, and once
    in full just before the first frame (some 30 ms of a 0.3 s start, measured with
    gc.callbacks, where a bare Textual app spends 12): it is paused while they load, and
    what they made is frozen after (gc.freeze: never walked again, never collected).
    Public gc calls, nothing patched; the collector runs as usual afterwards."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if enabled:
            gc.enable()


def close_match(args: argparse.Namespace) -> str | None:
    """``tussle open NAME`` for a campaign that does not exist, beside one whose name is
    close (``Fridy Fate`` beside ``Friday Fate``): why it is refused, naming that one;
    ``--new`` makes NAME all the same. None when there is nothing to say."""
    if args.campaign is None or getattr(args, "new", False):
        return None
    from core.cli.commands import close_refusal, close_to

    close = close_to(args.saves, args.campaign)
    if not close:
        return None
    return close_refusal(args.campaign, close, "open it with  tussle open")


def cmd_dashboard(args: argparse.Namespace) -> int:
    conflict = system_conflict(args) or close_match(args)
    if conflict is not None:
        print(conflict, file=sys.stderr)
        return EXIT_INVALID
    from tui.terminal import has_terminal

    # Before the campaign's lock is taken: without a terminal, Textual would spin on
    # stdin's end for ever, holding it (tui/terminal.py).
    if not has_terminal():
        print("tussle: the dashboard needs a terminal, and stdin is not one", file=sys.stderr)
        return EXIT_INVALID
    with loading_for_good():
        from tui.app import run
        from tui.glyphs import choose

    choose()  # ASCII in a terminal that is not UTF-8
    return run(args)


def cmd_watch(args: argparse.Namespace) -> int:
    from tui.watch_refusal import refused

    # Before Textual loads: a view refused (no such campaign, no terminal) says so at once.
    found = refused(args.saves, args.campaign)
    if isinstance(found, tuple):
        code, why = found
        print(why, file=sys.stderr)
        return code
    with loading_for_good():
        from tui.glyphs import choose
        from tui.watch import run_watch

    choose()
    return run_watch(args.saves, args.campaign)


def cmd_share(args: argparse.Namespace) -> int:
    from tui.share import authorized_keys, share

    if args.ssh_key is not None:
        return authorized_keys(args.saves, args.campaign, args.ssh_key)
    return share(args.saves, args.campaign, args.socket, args.player)


def cmd_serve(args: argparse.Namespace) -> int:
    from tui.serve import serve

    return serve(args.saves, args.campaign, args.host, args.port, args.public_url)


def _version() -> str:
    """The installed distribution's version (pyproject.toml's), or a plain word when
    Tussle runs from a source tree that was never installed."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("tussle")
    except PackageNotFoundError:
        return "(not installed)"


class _Version(argparse.Action):
    """``--version``, looking the version up only when asked: importlib.metadata and its
    search of the installed distributions would cost every start some 10 ms."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS) -> None:
        super().__init__(
            option_strings,
            dest,
            nargs=0,
            default=argparse.SUPPRESS,
            help="show the version and exit",
        )

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: str | Sequence[object] | None,
        option_string: str | None = None,
    ) -> None:
        print(f"tussle {_version()}")
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tussle",
        description="Run opposed-roll contests (Fate Core, HeroQuest, FORGE) at the table.",
    )
    parser.set_defaults(func=cmd_dashboard, campaign=None, system=None)
    parser.add_argument("--version", action=_Version)
    parser.add_argument(
        "--saves",
        metavar="DIR",
        help="the saves folder, which must exist (default: $TUSSLE_SAVES, else ./saves "
        "when there is one, else ~/.local/share/tussle/saves ($XDG_DATA_HOME), created "
        "when first used, with three demo campaigns)",
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
    resolve.add_argument(
        "--new",
        action="store_true",
        help="with --record: make a new campaign NAME even beside one whose name is close "
        '("Fridy Fate" beside "Friday Fate"; without it, that is refused)',
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

    roll = sub.add_parser(
        "roll",
        help="a quick roll outside any contest: 4dF+3 vs 2, 4M vs 14, d100 vs 45",
        description="A quick roll outside any contest, with its outcome and exact chance.",
    )
    roll.add_argument(
        "expression",
        nargs="+",
        metavar="EXPR",
        help='the roll: "4dF+3", "4dF+3 vs 2" (or vs Fair), "4M vs 14", "d20 vs 14", "d100 vs 45"',
    )
    roll.add_argument(
        "--dice",
        metavar="DICE",
        help='the dice the table rolled, as on the keypad ("++0-", "7 12", "45"); '
        "without it Tussle rolls",
    )
    roll.add_argument("--system", metavar="SYSTEM", help="read the roll as this rule system's only")
    roll.set_defaults(func=cmd_roll)

    opener = sub.add_parser("open", help="open a campaign (creating it when it does not exist)")
    opener.add_argument("campaign", metavar="NAME", help="the campaign's name")
    opener.add_argument(
        "--system",
        metavar="SYSTEM",
        help=f"its rule system, for a new campaign: {', '.join(BUILT_IN)} or a plug-in's "
        f"(default: {DEFAULT_SYSTEM}); an existing campaign must be of that system",
    )
    opener.add_argument(
        "--new",
        action="store_true",
        help="make a new campaign NAME even beside one whose name is close to it "
        '("friday fate" beside "Friday Fate"; without it, that is refused)',
    )
    opener.set_defaults(func=cmd_dashboard)

    watch = sub.add_parser("watch", help="the players' read-only view of a campaign")
    watch.add_argument("campaign", metavar="NAME", help="the campaign's name")
    watch.set_defaults(func=cmd_watch)

    share = sub.add_parser(
        "share", help="the GM's dashboard and the players' view, on two tmux servers"
    )
    share.add_argument("campaign", metavar="NAME", help="the campaign's name")
    share.add_argument(
        "--socket",
        metavar="NAME",
        help="the tmux socket (default: $TUSSLE_SHARE_SOCKET or tussle)",
    )
    share.add_argument(
        "--player",
        action="append",
        metavar="USER",
        help="let this Unix user attach to the players' view, read-only (repeatable)",
    )
    share.add_argument(
        "--ssh-key",
        metavar="KEYFILE",
        help="set nothing up: print the authorized_keys line that gives this public key "
        "the players' view and nothing else",
    )
    share.set_defaults(func=cmd_share)

    serve = sub.add_parser("serve", help="serve the players' view to web browsers")
    serve.add_argument("campaign", metavar="NAME", help="the campaign's name")
    serve.add_argument(
        "--host", default="127.0.0.1", help="the address to listen on (default: 127.0.0.1)"
    )
    serve.add_argument("--port", type=int, default=8000, help="the port (default: 8000)")
    serve.add_argument(
        "--public-url",
        metavar="URL",
        help="the address browsers use, when it is not http://HOST:PORT (a proxy in front)",
    )
    serve.set_defaults(func=cmd_serve)

    from core.cli.saves import add_save_commands

    add_save_commands(sub)

    from core.cli.roster import add_roster_commands

    add_roster_commands(sub)

    bench = sub.add_parser("bench", help="print the benchmark figures beside their targets")
    bench.add_argument(
        "part",
        nargs="?",
        default="engine",
        choices=["engine", "dashboard", "saves", "watch", "odds"],  # tui.bench.PARTS
    )
    bench.set_defaults(func=cmd_bench)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    code: int = check_saves(args)
    if code:
        return code
    try:
        code = args.func(args)
        sys.stdout.flush()  # a reader gone is found here, not at the interpreter's exit
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # ``tussle odds FILE | head``: the reader left before the output ended. No
        # traceback, and nothing more written (Python's docs, "Note on SIGPIPE"): stdout
        # goes to /dev/null for the interpreter's last flush; exit 1, the output cut short.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    return code


if __name__ == "__main__":
    sys.exit(main())
