"""Planted bugs: a mutation run of our own (issue 25, item 3) over what a GM would notice:
the rules, the redaction, the keypad, the scoreboard and the players' view.

Each mutant is one small change a slip of the keyboard could make (a ``<`` for a ``<=``,
a branch dropped, a mask left off), with why a GM would see it. ``main`` copies the tree
as committed (``git archive HEAD``) to a temporary folder, runs each area's tests there
(those failing already are left out), then plants one mutant at a time, runs the tests
named for its area, and reports it caught (a test failed) or survived. The working tree
is never touched: others edit it while this runs.

    .venv/bin/python -m tests.mutants               # every mutant
    .venv/bin/python -m tests.mutants keypad-equals watch-points   # some, by name
    .venv/bin/python -m tests.mutants --list

A mutant whose text is no longer in its file is reported "stale": the code moved on and
the list wants updating. Uses the Hypothesis "dev" profile (quick) and stops each run at
the first failure. Not collected by pytest (no ``test_`` prefix): it runs the tests.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

KEYPAD = (
    "tests/tui/test_what_the_gm_sees.py",
    "tests/tui/test_keypad_draft.py",
    "tests/tui/test_keypad_moves_on.py",
    "tests/tui/test_contest_model.py",
)
BOARD = (
    "tests/tui/test_what_the_gm_sees.py",
    "tests/tui/test_fate_dashboard.py",
    "tests/tui/test_other_dashboards.py",
)
PLAYERS = (
    "tests/tui/test_what_the_gm_sees.py",
    "tests/tui/test_secrets.py",
    "tests/tui/test_watch.py",
    "tests/tui/test_secret_wording.py",
)
SECRETS = (
    "tests/core/test_secrets.py",
    "tests/tui/test_secrets.py",
    "tests/tui/test_secret_wording.py",
    "tests/tui/test_what_the_gm_sees.py",
    "tests/core/test_recap.py",
)
FATE = (
    "tests/core/test_fate.py",
    "tests/core/test_fate_properties.py",
    "tests/core/test_scenarios.py",
)
HQ = (
    "tests/core/test_heroquest.py",
    "tests/core/test_heroquest_scenarios.py",
    "tests/core/test_scenarios.py",
)
FORGE = ("tests/core/test_forge.py", "tests/core/test_scenarios.py")


@dataclass(frozen=True)
class Mutant:
    name: str
    path: str
    old: str
    new: str
    seen: str  # what the GM would see
    tests: tuple[str, ...]


MUTANTS = [
    # -- the keypad ---------------------------------------------------------------------
    Mutant(
        "keypad-equals",
        "tui/draft.py",
        '{"=": "+",',
        '{"=": "-",',
        "= (an unshifted +) types a minus",
        KEYPAD,
    ),
    Mutant(
        "keypad-equals-binding",
        "tui/widgets/keypad.py",
        "\"screen.keypad_type('=')\"",
        "\"screen.keypad_type('-')\"",
        "= types a minus (the binding)",
        KEYPAD,
    ),
    Mutant(
        "keypad-backspace-back",
        "tui/keypad.py",
        "if not text and self.draft.cursor > 0:",
        "if False:",
        "Backspace on an empty roller stays there",
        KEYPAD,
    ),
    Mutant(
        "keypad-d20-early",
        "tui/draft.py",
        "return candidate, int(candidate) * 10 > high",
        "return candidate, int(candidate) * 10 >= high",
        "a d20's 2 moves on before 20 can be typed",
        KEYPAD,
    ),
    Mutant(
        "keypad-previous",
        "tui/widgets/keypad.py",
        '"screen.keypad_move(-1)"',
        '"screen.keypad_move(1)"',
        "Shift+Tab, left and up go forward",
        KEYPAD,
    ),
    Mutant(
        "keypad-escape",
        "tui/screens/contest_keypad.py",
        "            self.draft.clear()\n",
        "            pass\n",
        "Esc leaves the dice on the keypad",
        KEYPAD,
    ),
    Mutant(
        "keypad-roll-all",
        "tui/keypad.py",
        "            if everyone\n",
        "            if not everyone\n",
        "R rolls for one, r for all",
        KEYPAD,
    ),
    Mutant(
        "keypad-fifth-die",
        "tui/draft.py",
        "if len(typed) >= 4:",
        "if len(typed) >= 5:",
        "a fifth Fate die is taken",
        KEYPAD,
    ),
    Mutant(
        "keypad-redo-settled",
        "tui/draft.py",
        "while draft.came_back_from is not None and draft.came_back_from in in_force:",
        "while False:",
        "a redone exchange stays on the keypad (Enter commits it twice)",
        KEYPAD,
    ),
    # -- the scoreboard -------------------------------------------------------------------
    Mutant(
        "board-attack",
        "tui/views.py",
        "if escalated is not None:",
        "if False:",
        'the "ended by an attack" verdict is gone',
        BOARD,
    ),
    Mutant(
        "board-no-winner",
        "tui/views.py",
        '"[b]No winner[/]"',
        '""',
        "a contest without a winner shows no verdict",
        BOARD,
    ),
    # -- the players' view ------------------------------------------------------------------
    Mutant(
        "watch-points",
        "tui/watch.py",
        'count = HIDDEN if record.hidden("participant", p.name) else points[0]',
        "count = points[0]",
        "a hidden PC's points (Fate's fate points, HeroQuest's hero points) reach the players",
        PLAYERS,
    ),
    Mutant(
        "watch-npc-points",
        "tui/watch.py",
        'character.kind == "npc"',
        'character.kind == "nobody"',
        "the NPCs' points reach the players",
        PLAYERS,
    ),
    Mutant(
        "watch-secret-contest",
        "tui/watch.py",
        "        if record.secret:\n",
        "        if False:\n",
        "a secret contest is shown to the players",
        PLAYERS,
    ),
    Mutant(
        "watch-no-winner",
        "tui/watch.py",
        '" · no winner"',
        '""',
        "the players' title says nothing when a contest ends without a winner",
        PLAYERS,
    ),
    # -- the redaction ---------------------------------------------------------------------
    Mutant(
        "redact-participant",
        "core/redact.py",
        "return self.contest or name in self.participants",
        "return name in self.participants",
        "a secret contest's participants' numbers show (recap)",
        SECRETS,
    ),
    Mutant(
        "redact-aspect",
        "core/redact.py",
        "return self.contest or name in self.aspects",
        "return name in self.aspects",
        "a secret contest's aspects show (recap)",
        SECRETS,
    ),
    Mutant(
        "redact-side",
        "core/redact.py",
        "return self.contest or name in self.sides",
        "return name in self.sides",
        "a secret contest's sides' totals show (recap)",
        SECRETS,
    ),
    Mutant(
        "redact-aspect-part",
        "core/redact.py",
        "if self.aspect and secrets.aspect(self.text):",
        "if False:",
        "a hidden aspect's name reaches the players",
        SECRETS,
    ),
    Mutant(
        "redact-hq-points",
        "core/systems/heroquest/wording.py",
        "secret(points_words(count), name, mask=HIDDEN_POINTS)",
        "points_words(count)",
        "how many hero points a hidden participant spent reaches the players",
        SECRETS,
    ),
    # -- the rules --------------------------------------------------------------------------
    Mutant(
        "fate-style",
        "core/systems/fate/scoring.py",
        "victories=2 if margin >= options.style_threshold else 1",
        "victories=2 if margin > options.style_threshold else 1",
        "a win by exactly 3 is not with style",
        FATE,
    ),
    Mutant(
        "fate-tie-twist",
        "core/systems/fate/scoring.py",
        "        return ExchangeScore(winner=None, victories=0, twist=True)\n    winner",
        "        return ExchangeScore(winner=None, victories=0, twist=False)\n    winner",
        "a tie makes no twist",
        FATE,
    ),
    Mutant(
        "hq-success",
        "core/systems/heroquest/resolution.py",
        "return SUCCESS if roll <= base else FAILURE",
        "return SUCCESS if roll < base else FAILURE",
        "a roll equal to the target fails",
        HQ,
    ),
    Mutant(
        "hq-tie-break",
        "core/systems/heroquest/resolution.py",
        'winner = "a" if a_lower == (tie_break == "low") else "b"',
        'winner = "a" if a_lower != (tie_break == "low") else "b"',
        "the high roll wins a tie",
        HQ,
    ),
    Mutant(
        "hq-bump-down",
        "core/systems/heroquest/resolution.py",
        "left = bumps - (raised - own)",
        "left = 0",
        "a mastery past critical no longer bumps the other down",
        HQ,
    ),
    Mutant(
        "hq-stretch",
        "core/systems/heroquest/resolution.py",
        "victory = min(victory, MINOR)",
        "victory = victory",
        "a stretched winner gets more than a minor victory",
        HQ,
    ),
    Mutant(
        "forge-success",
        "core/systems/forge/scoring.py",
        "return roll <= target",
        "return roll < target",
        "a roll equal to the target fails",
        FORGE,
    ),
    Mutant(
        "forge-reactor-ties",
        "core/systems/forge/scoring.py",
        "return roll > thrown or (reactor_wins_ties and roll == thrown)",
        "return roll > thrown",
        "the reactor no longer wins ties",
        FORGE,
    ),
    Mutant(
        "forge-low-damage",
        "core/systems/forge/scoring.py",
        "hit = tens * multiplier if tens else round_half_up(multiplier, 2)",
        "hit = tens * multiplier",
        "a hit of 1-9 does no damage",
        FORGE,
    ),
]


def copy_tree(into: Path) -> Path:
    """The project as committed (HEAD: others' edits under way are not in it), with
    ../shared beside it, as in CI."""
    main = into / "main"
    main.mkdir()
    archive = subprocess.run(
        ["git", "archive", "HEAD"], cwd=ROOT, capture_output=True, check=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(main)], input=archive, check=True)
    shared = ROOT.parent / "shared"
    if shared.exists():
        (into / "shared").symlink_to(shared)
    return main


def pytest_in(tree: Path, tests: tuple[str, ...], *options: str) -> tuple[bool, set[str]]:
    """Whether ``tests`` pass in ``tree`` (quick profile), and the ids of those failing."""
    env = {**os.environ, "PYTHONPATH": str(tree), "HYPOTHESIS_PROFILE": "dev"}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-rf", "-p", "no:cacheprovider", *options, *tests],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
    )
    failed = {line.split()[1] for line in done.stdout.splitlines() if line.startswith("FAILED ")}
    return done.returncode == 0, failed


# Tests that fail with no bug planted (someone's work under way): left out of every run.
ALREADY_FAILING: set[str] = set()


def run(mutant: Mutant, tree: Path) -> str:
    """Plant ``mutant`` in ``tree``, run its tests, take it out: caught, survived or stale."""
    path = tree / mutant.path
    text = path.read_text()
    if text.count(mutant.old) != 1:
        return "stale"
    path.write_text(text.replace(mutant.old, mutant.new))
    try:
        skip = [f"--deselect={t}" for t in sorted(ALREADY_FAILING)]
        passed, _ = pytest_in(tree, mutant.tests, "-x", *skip)
    finally:
        path.write_text(text)
    return "survived" if passed else "caught"


def main(argv: list[str]) -> int:
    if "--list" in argv:
        for m in MUTANTS:
            print(f"{m.name:24} {m.path:34} {m.seen}")
        return 0
    chosen = [m for m in MUTANTS if not argv or m.name in argv]
    with tempfile.TemporaryDirectory(prefix="tussle-mutants-") as folder:
        tree = copy_tree(Path(folder))
        check = subprocess.run(
            [sys.executable, "-c", "import core; print(core.__file__)"],
            cwd=tree,
            env={**os.environ, "PYTHONPATH": str(tree)},
            capture_output=True,
            text=True,
        )
        assert check.stdout.startswith(str(tree)), f"the copy is not what runs: {check}"
        # Unplanted, what fails already says nothing of a mutant: it is left out.
        for tests in sorted({m.tests for m in chosen}):
            _, failed = pytest_in(tree, tests)
            ALREADY_FAILING.update(failed)
        for test in sorted(ALREADY_FAILING):
            print(f"failing with no bug planted, left out: {test}", flush=True)
        results = {}
        for mutant in chosen:
            results[mutant.name] = run(mutant, tree)
            print(f"{results[mutant.name]:9} {mutant.name:24} {mutant.seen}", flush=True)
    counts = {k: list(results.values()).count(k) for k in ("caught", "survived", "stale")}
    print(
        f"planted {len(results)}: {counts['caught']} caught, {counts['survived']} survived, "
        f"{counts['stale']} stale"
    )
    return 1 if counts["survived"] or counts["stale"] else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
