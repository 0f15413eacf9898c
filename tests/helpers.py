"""Small helpers the tests share."""

from __future__ import annotations

import hashlib
import json
import os
import re
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from collections.abc import Callable, Mapping, MutableMapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from core.campaign.actions import Campaign
from core.campaign.log import (
    AddCharacter,
    Character,
    Entry,
    Play,
    Redo,
    StartContest,
    ToggleSecret,
    Undo,
)
from core.campaign.sheet import Pick
from core.model import Command, ResolveExchange, RollDice
from core.saves.store import CampaignFiles, Saves
from core.systems.fate.character import FateCharacter
from core.systems.fate.events import InvokeAspect
from core.systems.fate.state import FateContest, FateParticipant, new_contest

if TYPE_CHECKING:
    from textual.pilot import Pilot

# The terminal pytest was started from must not reach what the tests run: its size
# (COLUMNS, LINES: Textual and Rich read them before asking the terminal), the tmux it
# runs in (TMUX, TMUX_PANE), its colours (TERM, COLORTERM, NO_COLOR, FORCE_COLOR), its
# locale (LANG, LANGUAGE, LC_*), and settings of Textual or Tussle (TEXTUAL_*, TUSSLE_*:
# a user's TUSSLE_SAVES would point a test at real campaigns). Tests set what they need.
TERMINAL_VARIABLES = frozenset(
    {"COLUMNS", "LINES", "TMUX", "TMUX_PANE", "TERM", "COLORTERM", "NO_COLOR", "FORCE_COLOR"}
    | {"LANG", "LANGUAGE"}
)
TERMINAL_PREFIXES = ("LC_", "TEXTUAL_", "TUSSLE_")
# pytest-textual-snapshot's own, set in this run; and the switch that regenerates the
# README's 80x24 capture (tests/tui/test_readme_capture.py).
KEPT = ("TEXTUAL_SNAPSHOT_", "TUSSLE_UPDATE_README")
# What every test sees instead: one locale, one terminal type.
NEUTRAL = {"LANG": "C.UTF-8", "TERM": "xterm-256color"}


def from_the_terminal(name: str) -> bool:
    if name.startswith(KEPT):
        return False
    return name in TERMINAL_VARIABLES or name.startswith(TERMINAL_PREFIXES)


def clean_env(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment for a process a test starts: this one's, without anything from the
    terminal pytest runs in, plus ``extra``. Pass it as ``env=``: a child started without
    one inherits the C-level environment, which can hold more than ``os.environ`` (pytest
    imports readline, and readline sets COLUMNS and LINES there when stdin is a tty)."""
    env = {k: v for k, v in os.environ.items() if not from_the_terminal(k)}
    return {**env, **NEUTRAL, **(extra or {})}


def neutralise_environment(environ: MutableMapping[str, str] = os.environ) -> None:
    """Make the tests' own environment the same whatever started them, for the tests
    themselves and for any child started without ``env=`` (see ``clean_env``)."""
    for name in [name for name in environ if from_the_terminal(name)]:
        del environ[name]
    for name in ("COLUMNS", "LINES"):  # set by readline below os.environ: unset there too
        os.unsetenv(name)
    environ.update(NEUTRAL)


def contains(expected: Any, actual: Any, path: str = "$") -> str | None:
    """The first place where ``actual`` does not contain ``expected`` (extra keys are
    fine; lists must match item by item), or None. As shared/tools/check_scenarios.py."""
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return f"{path}: expected an object, got {actual!r}"
        for key, value in expected.items():
            if key not in actual:
                return f"{path}.{key}: missing"
            found = contains(value, actual[key], f"{path}.{key}")
            if found:
                return found
        return None
    if isinstance(expected, list):
        if not isinstance(actual, list) or len(actual) != len(expected):
            return f"{path}: expected a list of {len(expected)}, got {actual!r}"
        for i, (e, a) in enumerate(zip(expected, actual, strict=True)):
            found = contains(e, a, f"{path}[{i}]")
            if found:
                return found
        return None
    if type(expected) is not type(actual) or expected != actual:
        return f"{path}: expected {expected!r}, got {actual!r}"
    return None


def tussle_command() -> list[str]:
    """The installed ``tussle`` console script as an argv prefix (never ``python -m``)."""
    return [str(tussle_script())]


def tussle_script() -> Path:
    """The installed ``tussle`` console script: beside this Python (a venv's bin), else on
    PATH. Never ``python -m``: a test of what the GM runs runs what the GM runs."""
    beside = Path(sys.executable).parent / "tussle"
    if beside.exists():
        return beside
    found = shutil.which("tussle")
    if found is None:
        raise AssertionError(
            f"no tussle console script beside {sys.executable} nor on PATH: pip install -e ."
        )
    return Path(found)


# -- shared by several test modules (a test module never imports another) -----------------

SCENARIOS = Path(__file__).parent / "scenarios"


def files_of(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` and its bytes, but the lock (a process's, not data)."""
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and p.name != "campaign.lock"
    }


def tussle(saves: Path, *argv: str) -> int:
    """The real command's entry point, in this process (the CLI tests run it as one)."""
    from tui.cli import main

    return main(["--saves", str(saves), *argv])


def in_process(
    *argv: str, stdin: str | None = None, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """``tussle ARGV`` run in this process, as ``subprocess.run(..., capture_output=True,
    text=True)`` would report it: its exit code, what it printed. For the command-line
    behaviour (issue 25: an interpreter started per call cost more than the call); what
    needs a process of its own (its imports, a console script, a kill) keeps one.
    ``cwd``: the folder it runs from (the one this process is in again after)."""
    import contextlib
    import io

    from tui.cli import main

    if cwd is not None:
        here = Path.cwd()
        os.chdir(cwd)
        try:
            return in_process(*argv, stdin=stdin)
        finally:
            os.chdir(here)
    out, err = io.BytesIO(), io.BytesIO()
    stdout = io.TextIOWrapper(out, encoding="utf-8", write_through=True)
    stderr = io.TextIOWrapper(err, encoding="utf-8", write_through=True)
    given = io.TextIOWrapper(io.BytesIO((stdin or "").encode()), encoding="utf-8")
    old_stdin = sys.stdin
    sys.stdin = given
    try:
        with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
            try:
                code = main(list(argv))
            except SystemExit as exit:  # argparse's usage errors
                code = exit.code if isinstance(exit.code, int) else 1
    finally:
        sys.stdin = old_stdin
    return subprocess.CompletedProcess(
        ["tussle", *argv], code, out.getvalue().decode(), err.getvalue().decode()
    )


def in_a_forked_process(work: Callable[[], Any], timeout: float) -> Any:
    """``work()`` run in a child forked from this process, its JSON-able result returned.

    A child of its own, so that a crash (a segfault, a recursion too deep for C) or a hang
    in any command ends that child, not the test: the test fails saying so. Forked, not a
    fresh interpreter: the case starts in milliseconds with everything imported, where an
    interpreter took about 0.7 CPU-s to start and import Tussle and Textual again. What the
    child writes to its stdout and stderr at the file level goes to a file, shown if the
    child fails."""
    result_read, result_write = os.pipe()
    with tempfile.TemporaryFile() as said:
        pid = os.fork()
        if pid == 0:  # the child: never returns into pytest
            code = 1
            try:
                os.close(result_read)
                os.dup2(said.fileno(), 1)
                os.dup2(said.fileno(), 2)
                try:
                    payload = json.dumps({"ok": work()})
                except BaseException:
                    payload = json.dumps({"error": traceback.format_exc()})
                with os.fdopen(result_write, "w") as out:
                    out.write(payload)
                code = 0
            finally:
                os._exit(code)
        os.close(result_write)
        chunks: list[bytes] = []
        deadline = time.monotonic() + timeout
        with os.fdopen(result_read, "rb") as result:
            while True:
                left = deadline - time.monotonic()
                ready, _, _ = select.select([result], [], [], max(left, 0))
                if not ready:
                    os.kill(pid, signal.SIGKILL)
                    os.waitpid(pid, 0)
                    raise AssertionError(f"still running after {timeout} s: a hang")
                chunk = os.read(result.fileno(), 1 << 16)
                if not chunk:
                    break
                chunks.append(chunk)
        _, status = os.waitpid(pid, 0)
        said.seek(0)
        output = said.read().decode(errors="replace")[-3000:]
    code = os.waitstatus_to_exitcode(status)
    assert code == 0, f"the case's process ended with {code} (a negative: that signal)\n{output}"
    report = json.loads(b"".join(chunks))
    assert "error" not in report, report.get("error", "") + output
    return report["ok"]  # type: ignore[no-any-return]


def in_a_fork(
    *argv: str, stdin: str | None = None, timeout: float = 30
) -> subprocess.CompletedProcess[str]:
    """``in_process(*argv)`` in a child forked from this process: a command that hangs (on
    a FIFO) or crashes fails the test by name after ``timeout`` seconds, and nothing it
    does stays behind in this process; no interpreter is started for it."""
    done = in_a_forked_process(
        lambda: vars(in_process(*argv, stdin=stdin)) | {"args": list(argv)}, timeout
    )
    return subprocess.CompletedProcess(
        done["args"], done["returncode"], done["stdout"], done["stderr"]
    )


def manifest_doc(files: CampaignFiles) -> dict[str, Any]:
    doc = json.loads(files.manifest_path.read_text())["manifest"]["1"]
    assert isinstance(doc, dict)
    return doc


def act(campaign: Campaign, files: CampaignFiles, command: Command) -> Entry:
    """What the bus does for one GM action: decide, save, apply."""
    entry = campaign.decide(command)
    files.append([entry])
    campaign.apply(entry)
    return entry


# -- the seed campaign ----------------------------------------------------------------------
#
# Worked by hand from Fate Core's contest rules (rules.md §1): Cynere (Athletics 4) races
# Teran (Athletics 3). Exchange 1: Cynere rolls 0 (total 4), Teran -1 (total 2): Cynere
# wins by 2 shifts, under the style threshold of 3, so 1 victory. Exchange 2: Cynere -1
# (3), Teran +1 (4): Teran wins by 1, 1 victory. The second exchange is undone and redone.
# Log: 2 characters + 1 start + 2 exchanges + undo + redo = 7 entries.

SEED_LINE = 'OK "Seed" (seed): fate, 7 log entries, 2 characters, 1 contest, 2 exchanges'
SEED_CYNERE = Character(
    name="Cynere",
    ratings={"Athletics": 4},
    sheet=FateCharacter(aspects=("I've Got Zird's Back",), fate_points=3),
)
SEED_TERAN = Character(name="Teran", kind="npc", ratings={"Athletics": 3})


def seed_race() -> FateContest:
    return new_contest(
        [
            FateParticipant(name="Cynere", side="Cynere", skill=4, fate_points=3),
            FateParticipant(name="Teran", side="Teran", skill=3),
        ]
    )


def seed_exchange(cynere: tuple[int, ...], teran: tuple[int, ...]) -> Play:
    return Play(
        contest_id="c1",
        commands=(
            RollDice(who="Cynere", faces=cynere),
            RollDice(who="Teran", faces=teran),
            ResolveExchange(),
        ),
    )


def seed(saves: Path, name: str = "Seed") -> tuple[CampaignFiles, Campaign]:
    """The seed campaign worked out above, saved entry by entry."""
    files = Saves(saves).create(name, "fate")
    campaign = Campaign(name=name, system="fate")
    for command in (
        AddCharacter(character=SEED_CYNERE),
        AddCharacter(character=SEED_TERAN),
        StartContest(title="The race", contest=seed_race(), uses={"Cynere": "Athletics"}),
        seed_exchange((0, 0, 0, 0), (-1, 0, 0, 0)),
        seed_exchange((-1, 0, 0, 0), (1, 0, 0, 0)),
        Undo(),
        Redo(),
    ):
        act(campaign, files, command)
    return files, campaign


def many_characters(saves: Path, count: int) -> CampaignFiles:
    """A campaign of ``count`` entries (one character each), saved in one append."""
    files = Saves(saves).create("Crowd", "fate")
    campaign = Campaign(name="Crowd", system="fate")
    entries = []
    for n in range(count):
        entry = campaign.decide(AddCharacter(character=Character(name=f"C{n:03d}")))
        campaign.apply(entry)
        entries.append(entry)
    files.append(entries)
    return files


# -- the knife fight: a secret NPC (issue 6) -------------------------------------------------
#
# The secret NPC, Sly Vasquez, has values found nowhere else: Fight +7 (Epic) and 13 fate
# points. Against Cynere (Athletics +4) his totals, worked from the dice typed (rules §1.3:
# skill + dice + invokes), are:
#
# * exchange 1: dice 0000, and a paid invoke of Hidden Blade (+2): 7 + 0 + 2 = +9,
#   "Legendary+1 (+9)"; Cynere -000: 4 - 1 = +3, Good. Margin 6 >= 3: Sly wins with
#   style, 2 victories (0–2);
# * exchange 2: dice +000: 7 + 1 = +8, "Legendary (+8)"; Cynere ++00: 4 + 2 = +6,
#   Fantastic. Margin 2: one victory, 0–3, and Sly wins the contest (first to 3).
#
# So neither "+7", "Epic", "13" (nor 12, his fate points after the invoke), "+8", "+9",
# "Legendary" nor "Hidden Blade" may reach the players.

NAME = "Knife fight"
TITLE = "Knife fight in the alley"
CID = "c1"
SLY = "Sly Vasquez"
KNIFE_CYNERE = Character(
    name="Cynere", ratings={"Athletics": 4}, sheet=FateCharacter(fate_points=3, refresh=3)
)
SLY_NPC = Character(name=SLY, kind="npc", ratings={"Fight": 7}, sheet=FateCharacter(fate_points=13))
PICKS = [
    Pick(character="Cynere", side="Cynere", rating="Athletics"),
    Pick(character=SLY, side=SLY, rating="Fight"),
]
ASPECTS = ("Muddy Ground", "Hidden Blade")
# What the players must never see while Sly and Hidden Blade are hidden.
SECRET_VALUES = ("+7", "Epic", "13", "12", "+8", "+9", "Legendary", "Hidden Blade")
FATE_FACES = {"+": 1, "0": 0, "-": -1}


def fate_dice(text: str) -> tuple[int, ...]:
    """Fate dice as typed ("+0-0") as faces."""
    return tuple(FATE_FACES[ch] for ch in text)


EXCHANGES: list[tuple[Command, ...]] = [
    (
        RollDice(who="Cynere", faces=fate_dice("-000")),
        RollDice(who=SLY, faces=fate_dice("0000")),
        InvokeAspect(by=SLY, aspect="Hidden Blade"),
        ResolveExchange(),
    ),
    (
        RollDice(who="Cynere", faces=fate_dice("++00")),
        RollDice(who=SLY, faces=fate_dice("+000")),
        ResolveExchange(),
    ),
]
HIDE_SLY = ToggleSecret(contest_id=CID, kind="participant", name=SLY)
HIDE_BLADE = ToggleSecret(contest_id=CID, kind="aspect", name="Hidden Blade")
HIDE_ALL = ToggleSecret(contest_id=CID, kind="contest")


def knife_fight(*secrets: ToggleSecret) -> tuple[Campaign, list[Entry]]:
    """The campaign with the contest started and ``secrets`` toggled; its entries."""
    from core.campaign.setup import build_contest

    campaign = Campaign(name=NAME, system="fate")
    entries = [campaign.act(AddCharacter(character=c)) for c in (KNIFE_CYNERE, SLY_NPC)]
    contest = build_contest("fate", campaign.roster, PICKS, {}, ASPECTS)
    uses = {"Cynere": "Athletics", SLY: "Fight"}
    entries.append(campaign.act(StartContest(title=TITLE, contest=contest, uses=uses)))
    entries += [campaign.act(s) for s in secrets]
    return campaign, entries


def leaks(text: str) -> list[str]:
    """The secret values found in ``text`` ("12" and "13" as whole numbers). A clock time
    (the players' view's "updated 20:13:07") is no secret: it is left out first, or the
    check would fail for a minute in every hour."""
    text = re.sub(r"\b\d{1,2}:\d{2}(?::\d{2})?\b", "", text)
    found = []
    for value in SECRET_VALUES:
        pattern = rf"(?<![\d+]){re.escape(value)}(?!\d)" if value.isdigit() else re.escape(value)
        if re.search(pattern, text):
            found.append(value)
    return found


# A process holding the Fate demo's lock for a minute, as another dashboard would:
# ``[sys.executable, "-c", HOLD_DEMO, folder]``; it prints "held" once it holds it.
HOLD_DEMO = """
import sys, time
from pathlib import Path
from core.files.disk import CampaignLock
CampaignLock(Path(sys.argv[1])).acquire("Fate demo")
print("held", flush=True)
time.sleep(60)
"""


# -- the dashboard -----------------------------------------------------------------------------


async def wait_for_odds(pilot: Pilot[None]) -> None:
    """The odds are worked out in a worker: wait for it (never a sleep)."""
    app = pilot.app
    for _ in range(400):  # generous: the first odds come 0.3 s after the first frame
        await pilot.pause(0.01)
        painter = next(s.painter for s in app.screen_stack if hasattr(s, "painter"))
        idle = all(w.is_finished for w in app.workers if w.group == "odds")
        if painter.odds_ready and idle and painter.odds is not None:
            break
    await pilot.pause()


# -- roster files (issue 16): sample files written from each format's description ----------

ROSTER_FILES = Path(__file__).parent / "data" / "roster"


# -- what a saves folder holds (the write-point sweep and the crash tests) -----------------


def opened(folder: Path) -> tuple[Campaign, CampaignFiles]:
    """The campaign in ``folder`` opened as the dashboard opens it (its lock held)."""
    files = CampaignFiles(folder)
    files.lock.acquire("test")
    try:
        return files.load(), files
    finally:
        files.lock.release()


State = dict[str, object]


def content_of(folder: Path) -> str:
    """A digest of everything under ``folder`` (each folder and file by its path, each
    file's bytes) but the lock: two folders with the same digest hold the same data."""
    digest = hashlib.sha256()
    for path in sorted(folder.rglob("*")):
        if path.name == "campaign.lock":
            continue
        digest.update(path.relative_to(folder).as_posix().encode() + b"\0")
        if path.is_file():
            digest.update(b"F%d\0" % path.stat().st_size + path.read_bytes())
        else:
            digest.update(b"D\0")
    return digest.hexdigest()


CampaignMemo = dict[tuple[str, str, bool, str], object]


def state_of(saves: Path, memo: CampaignMemo | None = None) -> State:
    """What a saves folder holds, as a GM sees it: each campaign listed (archived or not) as
    ``check`` passes it and as it opens, and each campaign's backups as they restore.
    Fails when a campaign does not pass ``check`` or does not open.

    ``memo``: for a caller that reads many copies of one folder (a crash at each point of
    an operation): a campaign whose folder holds, byte for byte, what one already read held
    is not checked and opened again (checking and opening read only its folder, and give
    the same answer for the same bytes); what it read then is its state."""
    from core.saves import snapshot
    from core.saves.backup import check_backup, list_backups
    from core.saves.manage import listed

    state: State = {}
    for item in listed(Saves(saves), show_archived=True):
        info = item.info
        assert info.problem is None, info.problem
        key = (info.slug, info.name, item.archived, content_of(saves / info.slug))
        if memo is not None and key in memo:
            state[info.name] = memo[key]
            continue
        assert tussle(saves, "check", info.slug) == 0, info.slug
        campaign, _ = opened(saves / info.slug)
        contests = tuple(
            (r.title, len(r.exchanges), r.state.finished, r.state.winner)
            for r in campaign.contests.values()
        )
        people = sorted(repr(c) for c in campaign.roster.values())
        roster = (len(people), hashlib.sha256(repr(people).encode()).hexdigest()[:12])
        covered = snapshot.covered(CampaignFiles(saves / info.slug))  # one check found sound
        state[info.name] = (info.slug, item.archived, campaign.entries, roster, contests, covered)
        if memo is not None:
            memo[key] = state[info.name]
    backups = saves / ".backups"
    for slug in sorted(p.name for p in backups.iterdir()) if backups.is_dir() else []:
        found = list_backups(saves, slug)
        for b in found:
            check_backup(b)  # BadSave unless it verifies and checks
        if found:
            state[f"backups of {slug}"] = sorted(b.entries or 0 for b in found)
    return state


# -- format 3: a system's character fields in its own sheet (issue 26) ----------------------
#
# Worked from core.saves.migrate's account of format 3, not from its code: a roster character
# saved flat (format 2: every system's fields beside its name) keeps its name, kind and
# ratings; the fields of the campaign's system go, under the same names, into its sheet
# (tagged in the log, untagged in an export's ``participants``); another system's go.

FORMAT_3_SHEETS = {
    "fate": ("fate.FateCharacter", ("aspects", "fate_points", "refresh")),
    "heroquest": (
        "heroquest.HeroQuestCharacter",
        ("hero_points", "vitality", "adversity", "benefits", "adversity_of", "related"),
    ),
    "forge": (
        "forge.ForgeCharacter",
        ("multiplier", "max_damage", "armor", "armor_capacity", "trauma", "trauma_pool"),
    ),
}


# Fields a system's sheet gained after format 3, at their defaults (what an old character
# reads as): Fate's stress tracks the sheet names (none) and consequence slots (None: Fate
# Core's, by Physique and Will; issue 28).
ADDED_SINCE = {
    "fate": {"stress": [], "consequences": None},
    "forge": {"agility": None},  # Physical Agility: unknown (issue 29)
}

# Fields other saved classes gained since, last in their class, at their defaults: a
# modifier's preset name (issue 29 item 4); FORGE's rounds by beats (issue 29 item 2): a
# participant's Physical Agility, the participation pattern option, the round.
ADDED_TO = {
    "model.SetModifier": {"label": None},
    "model.ModifierSet": {"label": None},
    "forge.ForgeParticipant": {"agility": None},
    "forge.ForgeOptions": {"beat_pattern": "every_later_beat"},
    "forge.ForgeContest": {"modifier_labels": {}, "round": None, "beat_targets": {}},
    "forge.ExchangeResolved": {"modifier_labels": {}},
    "heroquest.HQOptions": {"group_extended": False, "followers": []},
    "heroquest.HQContest": {"dying": None},
    "heroquest.OpenExchange": {"automatic": None, "modifier_labels": {}},
    "heroquest.ExchangeResolved": {"automatic": None, "modifier_labels": {}},
}


def as_format_3(value: Any, system: str, tagged: bool = True) -> Any:
    """``value`` (an old log entry, or an export's roster with ``tagged`` False) with each
    roster character in format 3's shape."""
    tag, fields = FORMAT_3_SHEETS[system]
    if isinstance(value, list):
        return [as_format_3(v, system, tagged) for v in value]
    if not isinstance(value, dict):
        return value
    flat = value.get("@") == "campaign.Character" if tagged else "fate_points" in value
    if not flat:
        return {k: as_format_3(v, system, tagged) for k, v in value.items()}
    sheet = {**{f: value[f] for f in fields}, **ADDED_SINCE.get(system, {})}
    return {
        **({"@": value["@"]} if tagged else {}),
        "name": value["name"],
        "kind": value["kind"],
        "ratings": value["ratings"],
        "sheet": {"@": tag, **sheet} if tagged else sheet,
    }


def with_fields_added(value: Any) -> Any:
    """``value`` (an old log entry) as Tussle writes it again today: each saved object
    with the fields its class gained since (:data:`ADDED_TO`), at their defaults."""
    if isinstance(value, list):
        return [with_fields_added(v) for v in value]
    if not isinstance(value, dict):
        return value
    added = ADDED_TO.get(str(value.get("@", "")), {})
    return {**{k: with_fields_added(v) for k, v in value.items()}, **added}


def _contest_now(contest: dict[str, Any], system: str) -> dict[str, Any]:
    """An export's contest (untagged) with what its participants and options gained."""
    if system == "heroquest":
        return {**contest, "options": {**contest["options"], **ADDED_TO["heroquest.HQOptions"]}}
    if system != "forge":
        return contest
    return {
        **contest,
        "options": {**contest["options"], **ADDED_TO["forge.ForgeOptions"]},
        "participants": [
            {**p, **ADDED_TO["forge.ForgeParticipant"]} for p in contest["participants"]
        ],
    }


def as_format_4(value: Any) -> Any:
    """``value`` (old log entries) with each session start's ``hero_points`` named
    ``reset``, as format 4 names it (issue 26 item 2)."""
    if isinstance(value, list):
        return [as_format_4(v) for v in value]
    if not isinstance(value, dict):
        return value
    renamed = {k: as_format_4(v) for k, v in value.items()}
    if renamed.get("@") == "campaign.StartSession" and "hero_points" in renamed:
        renamed["reset"] = renamed.pop("hero_points")
    return renamed


def export_as_now(doc: dict[str, Any]) -> dict[str, Any]:
    """What ``tussle export`` gives of a format 2 campaign once it is upgraded to format 4:
    its characters in format 3's shape, its session starts' field named as format 4 names
    it (and since exports name the settings the log starts from: none, for a campaign
    Tussle made)."""
    system = doc["system"]
    return {
        **doc,
        "settings_at_start": {},
        "campaign_format": 4,
        "participants": as_format_3(doc["participants"], system, tagged=False),
        "log": as_format_4(as_format_3(doc["log"], system)),
        **(
            {"contests": [_contest_now(c, system) for c in doc["contests"]]}
            if "contests" in doc
            else {}
        ),
    }
