"""Driving the real ``tussle`` in a real terminal: a private tmux server per use."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from tests.helpers import clean_env

TMUX = shutil.which("tmux")


def unique_socket() -> str:
    """A tmux socket name no user's server and no parallel test uses."""
    return f"tussle-test-{uuid.uuid4().hex[:8]}"


class Terminal:
    """A tmux server of its own with one window running ``command``.

    Every tmux call gets an explicit, clean environment (``clean_env``): the server
    started by the first one passes it to the panes, so the terminal pytest runs in (its
    COLUMNS and LINES, its TMUX, its locale) never reaches the ``tussle`` inside.
    """

    def __init__(self, size: tuple[int, int] = (80, 24), socket: str | None = None) -> None:
        assert TMUX is not None
        self.socket = socket or unique_socket()
        self.size = size

    def tmux(self, *args: str) -> str:
        done = subprocess.run(
            [TMUX, "-L", self.socket, "-f", "/dev/null", *args],
            capture_output=True,
            text=True,
            timeout=30,
            env=clean_env(),
            stdin=subprocess.DEVNULL,
        )
        return done.stdout

    def start(
        self,
        command: list[str],
        env: dict[str, str],
        status: Path | None = None,
        cwd: Path | None = None,
    ) -> None:
        """Run ``command`` in the window, with ``env`` added, in folder ``cwd`` (else the
        tests' own); its exit code written to ``status`` when it ends."""
        line = shlex.join(command)
        if status is not None:
            line = f"{line}; echo $? > {shlex.quote(str(status))}"
        exports = [arg for k, v in env.items() for arg in ("-e", f"{k}={v}")]
        self.tmux(
            "new-session", "-d", "-x", str(self.size[0]), "-y", str(self.size[1]),
            *(("-c", str(cwd)) if cwd is not None else ()),
            "-e", "COLORTERM=truecolor", "-e", "TEXTUAL_ANIMATIONS=none", *exports,
            f"sh -c {shlex.quote(line)}",
            ";", "set-option", "-g", "escape-time", "10",
            ";", "set-option", "-g", "remain-on-exit", "on",
        )  # fmt: skip

    def screen(self, target: str | None = None) -> str:
        """What the pane shows (of session ``target``, on a server with several)."""
        return self.tmux("capture-pane", "-p", *(("-t", target) if target else ()))

    def wait_for(self, text: str, timeout: float = 30.0, target: str | None = None) -> str:
        deadline = time.monotonic() + timeout
        shown = ""
        while time.monotonic() < deadline:
            shown = self.screen(target)
            if text in shown:
                return shown
            time.sleep(0.05)
        raise AssertionError(f"{text!r} did not appear in {timeout} s; the screen:\n{shown}")

    def wait_gone(self, text: str, timeout: float = 30.0) -> str:
        """Until ``text`` is no longer shown (a question answered, a form closed)."""
        deadline = time.monotonic() + timeout
        shown = ""
        while time.monotonic() < deadline:
            shown = self.screen()
            if text not in shown:
                return shown
            time.sleep(0.05)
        raise AssertionError(f"{text!r} still shown after {timeout} s; the screen:\n{shown}")

    def keys(self, *keys: str) -> None:
        self.tmux("send-keys", *keys)

    def keys_to(self, target: str, *keys: str) -> None:
        """Keys for session ``target``, on a server with several."""
        self.tmux("send-keys", "-t", target, *keys)

    def kill(self) -> None:
        self.tmux("kill-server")


def wait_for_file(path: Path, timeout: float = 30.0) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if path.exists() and path.read_text().strip():
            return path.read_text().strip()
        time.sleep(0.05)
    raise AssertionError(f"{path} was not written in {timeout} s")


# -- Reading a screen as the GM reads it, and driving forms by what it shows ---------------
#
# Forms are driven by what the screen shows, never by counting keys: a field is reached by
# pressing Tab until it has the focus, a choice is made by pressing → until the wanted
# label shows. Focus is read from the pane itself: a focused choice (◀ … ▶) is drawn bold,
# and a focused text field has a background no other field has.

_CHOICE = re.compile(r"◀ (.*) ▶\s+\((\d+)/(\d+)\)")
_ESCAPE = re.compile(r"\x1b(\[[0-?]*[ -/]*[@-~]|[()][0-9A-Za-z]|[@-Z\\-_])")


@dataclass(frozen=True)
class Cell:
    char: str
    bold: bool
    background: str  # the SGR arguments that set it ("" for the terminal's default)


def styled_lines(styled: str) -> list[list[Cell]]:
    """``capture-pane -p -e`` output as lines of cells: each character with whether it is
    bold and its background."""
    lines: list[list[Cell]] = []
    bold, background = False, ""
    for raw in styled.split("\n"):
        cells: list[Cell] = []
        at = 0
        while at < len(raw):
            found = _ESCAPE.match(raw, at)
            if found is None:
                cells.append(Cell(raw[at], bold, background))
                at += 1
                continue
            at = found.end()
            code = found.group(1)
            if not code.startswith("[") or not code.endswith("m"):
                continue
            params = code[1:-1].replace(":", ";").split(";")
            i = 0
            while i < len(params):
                p = int(params[i]) if params[i].isdigit() else 0
                if p == 0:
                    bold, background = False, ""
                elif p == 1:
                    bold = True
                elif p == 22:
                    bold = False
                elif p == 49:
                    background = ""
                elif 40 <= p <= 47 or 100 <= p <= 107:
                    background = str(p)
                elif p in (38, 48, 58) and i + 1 < len(params):
                    width = 2 if params[i + 1] == "5" else 4
                    if p == 48:
                        background = ";".join(params[i + 1 : i + 1 + width])
                    i += width
                i += 1
        lines.append(cells)
    return lines


@dataclass(frozen=True)
class Dialog:
    """A modal form on the screen: its rows (the text between its borders, by screen
    row) and where it is."""

    title: str
    top: int  # the screen row of its top border
    left: int  # the column of its left border
    rows: dict[int, str]

    def row_of(self, label: str) -> int | None:
        """The screen row of the first line starting with ``label``."""
        for row, text in self.rows.items():
            if text.strip().startswith(label):
                return row
        return None

    def text(self) -> str:
        return "\n".join(self.rows.values())


def find_dialog(screen: str, title: str) -> Dialog | None:
    lines = screen.split("\n")
    for top, line in enumerate(lines):
        left = line.find(f"╭─ {title}")
        if left < 0:
            continue
        right = line.find("╮", left)
        rows: dict[int, str] = {}
        for row in range(top + 1, len(lines)):
            below = lines[row]
            if len(below) > left and below[left] == "╰":
                break
            rows[row] = below[left + 1 : right]
        return Dialog(title, top, left, rows)
    return None


def shows(screen: str, title: str, label: str, text: str) -> bool:
    """Whether form ``title`` on ``screen`` shows exactly ``text`` under ``label``."""
    dialog = find_dialog(screen, title)
    row = dialog.row_of(label) if dialog else None
    return dialog is not None and row is not None and dialog.rows.get(row + 1, "").strip() == text


class Pane:
    """One pane running ``tussle`` (session ``target`` of ``terminal``'s server, or its
    only one): keys in, the screen out, and forms filled in by reading the screen."""

    def __init__(self, terminal: Terminal, target: str | None = None) -> None:
        self.terminal = terminal
        self.target = target

    def _t(self) -> tuple[str, ...]:
        return ("-t", self.target) if self.target else ()

    # -- the screen --------------------------------------------------------------------------
    def screen(self) -> str:
        return self.terminal.tmux("capture-pane", "-p", *self._t())

    def styled(self) -> list[list[Cell]]:
        return styled_lines(self.terminal.tmux("capture-pane", "-p", "-e", *self._t()))

    def wait_until(self, test: Callable[[str], bool], what: str, timeout: float = 30.0) -> str:
        """Poll the screen until ``test`` holds on a whole frame; fail showing the screen.

        A frame reaches tmux in pieces: a read can catch the title of the next frame above
        the panes of the last (CI caught "exchange 2" over the keypad's previous prompt).
        So once ``test`` holds, the screen is read again until two reads agree, or for a
        second at most (a pane that keeps changing, as the odds do, still returns)."""
        deadline = time.monotonic() + timeout
        shown = self.screen()
        while True:
            while not test(shown):
                if time.monotonic() > deadline:
                    raise AssertionError(f"{what}: not within {timeout} s; the screen:\n{shown}")
                time.sleep(0.05)
                shown = self.screen()
            settling = time.monotonic() + 1.0
            while time.monotonic() < settling:
                time.sleep(0.05)
                again = self.screen()
                if again == shown:
                    return shown
                shown = again
                if not test(shown):
                    break
            else:
                return shown

    def wait_for(self, *texts: str, timeout: float = 30.0) -> str:
        """The screen, once it shows every one of ``texts``."""
        return self.wait_until(
            lambda s: all(t in s for t in texts), f"waiting for {texts!r}", timeout
        )

    def wait_gone(self, text: str, timeout: float = 30.0) -> str:
        return self.wait_until(lambda s: text not in s, f"waiting for {text!r} to go", timeout)

    # -- keys --------------------------------------------------------------------------------
    def keys(self, *keys: str) -> None:
        """tmux key names. Escape must come alone, and its effect be awaited before the next
        key: Escape then a letter within tmux's escape-time is Alt+letter."""
        self.terminal.tmux("send-keys", *self._t(), *keys)

    def type(self, text: str) -> None:
        """Literal text (into a text field); ``--`` first, so a text starting with a minus
        (Fate dice, ``---0``) is typed, not read by tmux as its options."""
        self.terminal.tmux("send-keys", *self._t(), "-l", "--", text)

    def alive(self) -> bool:
        found = self.terminal.tmux("list-sessions", "-F", "#{session_name} #{pane_dead}")
        wanted = self.target or ""
        return any(
            line.split()[-1] == "0" and (not wanted or line.split()[0] == wanted)
            for line in found.splitlines()
        )

    # -- forms -------------------------------------------------------------------------------
    def dialog(self, title: str, timeout: float = 30.0) -> Dialog:
        """The form titled ``title`` (waiting for it to open)."""
        shown = self.wait_until(
            lambda s: find_dialog(s, title) is not None, f"the form {title!r}", timeout
        )
        found = find_dialog(shown, title)
        assert found is not None
        return found

    def focused_row(self, title: str, dialog: Dialog | None = None) -> int | None:
        """The screen row of the field that has the focus in form ``title`` (``dialog``:
        the form as just read, else read now): the choice drawn bold; else a text field,
        told from the others by its background (every field has the same but the focused
        one)."""
        dialog = dialog or self.dialog(title)
        styled = self.styled()
        own = styled[dialog.top + 1][dialog.left + 1].background  # the form's, behind labels
        fields: dict[int, str] = {}
        inputs = []
        for row, text in dialog.rows.items():
            cells = styled[row]
            at = text.find("◀")
            if at >= 0 and cells[dialog.left + 1 + at].bold:
                return row  # a focused choice
            if len(cells) > dialog.left + 2 and cells[dialog.left + 2].background != own:
                fields[row] = cells[dialog.left + 2].background
                if at < 0:
                    inputs.append(row)
        if len(inputs) == 1:
            return inputs[0]  # no choice has the focus: the one text field has it
        backgrounds = list(fields.values())
        unique = [row for row in inputs if backgrounds.count(fields[row]) == 1]
        return unique[0] if len(unique) == 1 and len(fields) > 2 else None

    def focus(self, title: str, label: str) -> tuple[int, str]:
        """Tab to the field under ``label``; its screen row and what it shows. A form
        taller than the terminal (at 80x24) scrolls to the focused field, so a label not
        in sight is Tabbed to as well; a form that never shows it in 20 Tabs has no such
        field."""
        for _ in range(20):
            # The form is read once (a whole frame: dialog waits for two reads to agree),
            # and its focus from the styled screen read right after.
            dialog = self.dialog(title)
            row = dialog.row_of(label)
            focused = self.focused_row(title, dialog)
            if row is not None and focused == row + 1:
                return row + 1, dialog.rows[row + 1]
            before = dialog.text()
            self.keys("Tab")
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline and (
                self.focused_row(title) == focused and self.dialog(title).text() == before
            ):
                time.sleep(0.05)
        raise AssertionError(
            f"form {title!r}: Tab never reached a field {label!r}; it shows:\n{self.screen()}"
        )

    def field(self, title: str, label: str) -> str:
        """What the field under ``label`` shows (found afresh: a form that grows or
        shrinks, as a choice shows or hides a field, moves on the screen)."""
        dialog = self.dialog(title)
        row = dialog.row_of(label)
        if row is None or row + 1 not in dialog.rows:
            raise AssertionError(f"form {title!r} has no field {label!r}:\n{dialog.text()}")
        return dialog.rows[row + 1]

    def step(self, title: str, label: str) -> str:
        """→ on the focused choice under ``label``; what it shows then (unchanged only
        after 30 s: on a loaded machine a step can take seconds, and a wait cut short made
        ``choose`` press → again and count the next step twice: "does not offer 'Wight'")."""
        before = self.field(title, label)
        self.keys("Right")
        deadline = time.monotonic() + 30
        shown = before
        while shown == before and time.monotonic() < deadline:
            time.sleep(0.05)
            shown = self.field(title, label)
        return shown

    def choose(self, title: str, label: str, wanted: str) -> str:
        """In form ``title``, make the choice under ``label`` show ``wanted`` (→ until it
        does); the choice's line."""
        _, shown = self.focus(title, label)
        seen: list[str] = []
        while wanted not in shown:
            found = _CHOICE.search(shown)
            if found is None:
                raise AssertionError(
                    f"{label!r} in {title!r} is not a choice: {shown.strip()!r}\n{self.screen()}"
                )
            seen.append(found.group(1))
            if len(seen) > int(found.group(3)):
                raise AssertionError(
                    f"{label!r} in {title!r} does not offer {wanted!r}, only {seen}"
                )
            shown = self.step(title, label)
        return shown

    def options(self, title: str, label: str) -> list[str]:
        """Every label the choice under ``label`` offers, in order from the one shown (→
        once round, back where it started)."""
        _, shown = self.focus(title, label)
        found = _CHOICE.search(shown)
        if found is None:
            raise AssertionError(f"{label!r} in {title!r} is not a choice: {shown.strip()!r}")
        seen = [found.group(1)]
        for _ in range(int(found.group(3))):
            step = _CHOICE.search(self.step(title, label))
            assert step is not None, self.screen()
            seen.append(step.group(1))
        assert seen[-1] == seen[0], f"→ did not come round: {seen}"
        return seen[:-1]

    def fill(self, title: str, label: str, text: str) -> None:
        """In form ``title``, type ``text`` into the text field under ``label`` (replacing
        what it held). Keys sent while a form is drawn but not yet focused are lost: the
        text is typed again (Ctrl+U first clears the field) until it shows."""
        _, shown = self.focus(title, label)
        if "◀" in shown:
            raise AssertionError(f"{label!r} in {title!r} is a choice, not a text field")
        for attempt in range(3):
            self.keys("C-u")
            self.type(text)
            try:
                self.wait_until(
                    lambda s: shows(s, title, label, text),
                    f"{text!r} typed into {label!r}",
                    timeout=5 if attempt < 2 else 30,
                )
                return
            except AssertionError:
                if attempt == 2:
                    raise

    def accept(self, title: str) -> str:
        """Enter on form ``title``; the screen once the form has gone."""
        self.keys("Enter")
        return self.wait_until(lambda s: find_dialog(s, title) is None, f"{title!r} to close")

    # -- lists -------------------------------------------------------------------------------
    def rows(self, names: list[str]) -> tuple[dict[str, int], str | None]:
        """Where each of ``names`` (the rows of a list) shows, by screen row, and which one
        is highlighted (drawn bold)."""
        where: dict[str, int] = {}
        highlighted = None
        for y, cells in enumerate(self.styled()):
            text = "".join(c.char for c in cells)
            for name in names:
                at = text.find(f" {name}  ")
                if at >= 0:
                    where.setdefault(name, y)
                    if cells[at + 1].bold:
                        highlighted = name
        return where, highlighted

    def pick(self, names: list[str], wanted: str) -> None:
        """Move a list's highlight (↓/↑) onto the row ``wanted``, one of ``names`` (the
        list's rows, in whatever order the screen shows them). A list is painted in
        pieces: its title and header can show a moment before its rows (CI caught the
        roster so, at 71e98cb and again under a load of 20), so its highlight and the row
        ``wanted`` are waited for, 30 s at most, before the first arrow."""
        deadline = time.monotonic() + 30
        where, current = self.rows(names)
        while (current is None or wanted not in where) and time.monotonic() < deadline:
            time.sleep(0.05)
            where, current = self.rows(names)
        for _ in range(len(names) * 2):
            where, current = self.rows(names)
            if current == wanted:
                return
            if current is None or wanted not in where:
                raise AssertionError(f"no highlight, or no {wanted!r}:\n{self.screen()}")
            self.keys("Down" if where[current] < where[wanted] else "Up")
            deadline = time.monotonic() + 10
            while self.rows(names)[1] == current and time.monotonic() < deadline:
                time.sleep(0.05)
        raise AssertionError(f"could not highlight {wanted!r}:\n{self.screen()}")
