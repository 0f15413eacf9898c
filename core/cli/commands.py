"""The headless commands' handlers: ``tussle resolve``, ``tussle odds`` and ``tussle
roll``, and the checks every command makes of its options. The ``tussle`` command itself
(its parser, the dashboard's commands) is tui.cli, a layer up; core/cli/saves.py has the
save commands."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING

from core.text import control_problem, visible, visible_lines

if TYPE_CHECKING:
    from core.scenario import Resolution

EXIT_SAVE_FAILED = 1
EXIT_INVALID = 2
EXIT_LOCKED = 3
EXIT_BUG = 70


def _read_input(path: str) -> bytes:
    from pathlib import Path

    from core.files.named_files import SCENARIO_BYTES, read_named, read_stream
    from core.rules.reading import ScenarioError

    try:  # a file (never a pipe, which would stop here), of a bounded size
        if path == "-":
            return read_stream(sys.stdin.buffer, SCENARIO_BYTES)
        return read_named(Path(path), SCENARIO_BYTES)
    except OSError as exc:
        raise ScenarioError("(file)", exc.strerror or str(exc)) from None


def cmd_resolve(args: argparse.Namespace) -> int:
    from core.rules.reading import ScenarioError
    from core.scenario import load

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
        print(visible_lines(resolution.to_text()))
    else:
        print(json.dumps(resolution.to_json(), indent=2, ensure_ascii=False))
    return 0


def close_to(saves_option: str | None, name: str) -> list[str]:
    """The campaigns a GM may have meant by ``name``, one that does not exist (a typo,
    ``Fridy Fate`` beside ``Friday Fate``): a command that would make ``name`` refuses,
    naming them, unless told ``--new``. Empty when ``name`` exists or nothing is close."""
    from core.saves.store import Saves, close_names, saves_folder

    saves = Saves(saves_folder(saves_option))
    if not saves.folder.is_dir() or saves.find(name) is not None:
        return []
    return close_names([i.name for i in saves.campaigns() if i.problem is None], name)


def close_refusal(name: str, close: list[str], use: str) -> str:
    """Why ``name`` is refused beside ``close`` (see :func:`close_to`); ``use`` is how to
    take the first of them instead (``open`` or ``resolve FILE --record``)."""
    import shlex

    offered = " or ".join(f'"{visible(n)}"' for n in close)
    return (
        f'tussle: no campaign called "{visible(name)}", but there is {offered}: '
        f"{use} {shlex.quote(visible(close[0]))}  (or add --new to make "
        f'"{visible(name)}" beside it)'
    )


def _record(args: argparse.Namespace, resolution: Resolution) -> int:
    """Save the contest into a campaign; 0 once it is on disk, else the exit code."""
    from pathlib import Path

    from core.cli.record import record
    from core.errors import RuleError
    from core.files.disk import CampaignLocked, StoreError
    from core.saves.store import Saves, saves_folder

    title = "Recorded contest" if args.file == "-" else Path(args.file).stem
    for what, text in (("--record", args.record), ("the contest's title", title)):
        problem = control_problem(text, what)  # a campaign's name and a title are plain text
        if problem is not None:
            print(f"(record): {problem}", file=sys.stderr)
            return EXIT_INVALID
    close = [] if args.new else close_to(args.saves, args.record)
    if close:  # a typo would make a second campaign and spread the evening over two
        use = f"record into it with  tussle resolve {_quoted(args.file)} --record"
        print(close_refusal(args.record, close, use), file=sys.stderr)
        return EXIT_INVALID
    try:
        done = record(resolution, Saves(saves_folder(args.saves)), args.record, title, args.wait)
    except CampaignLocked as error:
        print(f"(lock): {visible(str(error))}", file=sys.stderr)
        return EXIT_LOCKED
    except RuleError as error:
        print(f"(record): {visible(str(error))}", file=sys.stderr)
        return EXIT_INVALID
    except (StoreError, OSError) as error:
        print(f"(record): not saved: {visible(str(error))}", file=sys.stderr)
        return EXIT_SAVE_FAILED
    if done.set_aside is not None:
        print(f"(record): {visible(done.set_aside)}", file=sys.stderr)
    print(
        f"recorded: {visible(done.campaign)} contest {done.contest_id}, "
        f"{done.entries} entries saved",
        file=sys.stderr,
        flush=True,
    )
    return 0


def _quoted(text: str) -> str:
    import shlex

    return shlex.quote(visible(text))


def cmd_odds(args: argparse.Namespace) -> int:
    from core.odds.next import read_for_odds
    from core.odds.report import odds_for, odds_text
    from core.rules.reading import ScenarioError

    try:
        odds = odds_for(*read_for_odds(_read_input(args.file)))
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


def cmd_roll(args: argparse.Namespace) -> int:
    """``tussle roll EXPR [--dice DICE] [--system S]``: the roll, its outcome, its chance;
    a bad expression or bad dice is one line on stderr and exit 2."""
    from core.campaign.quick_roll import quick_roll
    from core.errors import RuleError

    expression = " ".join(args.expression)
    try:
        result = quick_roll(expression, args.dice, args.system)
    except RuleError as error:
        print(f"tussle roll: {_one_line(str(error))}", file=sys.stderr)
        return EXIT_INVALID
    except Exception as exc:  # a bug: say so in one line, never a traceback at the table
        print(f"(internal): a bug in Tussle, please report it: {exc!r}", file=sys.stderr)
        return EXIT_BUG
    print("\n".join(result.lines()))
    return 0


def system_conflict(args: argparse.Namespace) -> str | None:
    """What is wrong with ``open NAME --system S``: a system no plug-in provides, or NAME
    existing in another system (it would open as it is, whatever S says); or None."""
    if args.system is None:
        return None
    from core.rules import SYSTEM_NAMES

    if args.system not in SYSTEM_NAMES:
        return f'tussle: no rule system "{args.system}" (try {", ".join(SYSTEM_NAMES)})'
    if args.campaign is None:
        return None
    from core.saves.store import Saves, saves_folder

    files = Saves(saves_folder(args.saves)).find(args.campaign)
    info = files.info() if files is not None else None
    if info is None or info.problem is not None or info.system == args.system:
        return None
    return (
        f'tussle: "{visible(info.name)}" is a {info.system} campaign, not {args.system} '
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
    from core.files.disk import make_folder

    try:
        make_folder(folder)  # the GM's alone, as everything Tussle writes in it
    except OSError as exc:
        print(f"tussle: saves folder {folder} not created ({exc.strerror or exc})", file=sys.stderr)
        return EXIT_SAVE_FAILED
    return 0


def _one_line(text: str) -> str:
    """An error on one line, a control character in it written out (core.text)."""
    return " ".join(visible(part) for part in text.split("\n"))
