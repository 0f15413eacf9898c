"""Seats for players away from the GM's keyboard (issue 14): an SSH key that gets the
players' view and nothing else (``tussle share NAME --ssh-key KEYFILE``)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from core.cli.demo import create_demos
from core.saves.store import Saves
from tests.e2e.tmux import TMUX, Terminal
from tests.helpers import clean_env, tussle_command, tussle_script

KEY = (
    "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHNvbWUtcGxheWVyLXB1YmxpYy1rZXktZm9yLXRlc3Rz alice@laptop"
)
# authorized_keys: options, then the key. command="…" holds \" for a quote, nothing else.
LINE = re.compile(r'^restrict,pty,command="((?:[^"\\]|\\.)*)" (.*)$')


def tussle(saves: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*tussle_command(), "--saves", str(saves), *args],
        capture_output=True,
        text=True,
        timeout=60,
        env=clean_env(),
        stdin=subprocess.DEVNULL,
    )


def forced_command(line: str) -> tuple[str, str]:
    """The command an authorized_keys line forces, as sshd reads it, and its key."""
    found = LINE.match(line)
    assert found is not None, line
    return found.group(1).replace('\\"', '"'), found.group(2)


def test_the_ssh_line_gives_the_key_the_players_view_and_nothing_else(tmp_path: Path) -> None:
    saves = tmp_path / "saves"
    create_demos(Saves(saves))
    keyfile = tmp_path / "alice.pub"
    keyfile.write_text(f"# Alice's laptop\n{KEY}\n")
    done = tussle(saves, "share", "Fate demo", "--ssh-key", str(keyfile))
    assert (done.returncode, done.stderr) == (0, "")
    [line] = done.stdout.splitlines()
    command, key = forced_command(line)
    assert key == KEY
    # The absolute tussle and saves folder: sshd runs it from the player's login, in the
    # home folder, with a PATH of its own.
    assert command == f"{tussle_script()} --saves {saves.resolve()} watch 'Fate demo'"


@pytest.mark.skipif(TMUX is None, reason="tmux is not installed")
def test_the_forced_command_runs_the_view_whatever_the_player_asked_for(tmp_path: Path) -> None:
    saves = tmp_path / "saves"
    name = 'Bob\'s "big" night; rm -rf ~'  # quotes and a semicolon must stay a name
    Saves(saves).create(name, "fate")
    keyfile = tmp_path / "bob.pub"
    keyfile.write_text(KEY + "\n")
    done = tussle(saves, "share", name, "--ssh-key", str(keyfile))
    assert done.returncode == 0, done.stderr
    command, _ = forced_command(done.stdout.strip())
    # sshd runs the forced command with the user's shell, "-c", in a pty, and puts what
    # the client asked for in SSH_ORIGINAL_COMMAND, which the command ignores.
    asked = tmp_path / "asked-for"
    terminal = Terminal((80, 24))
    try:
        terminal.start(
            ["sh", "-c", command],
            {"SSH_ORIGINAL_COMMAND": f"touch {asked}; sh -i"},
            cwd=tmp_path,
        )
        seen = terminal.wait_for("following")
        assert "Waiting for a contest" in seen
        assert 'following Bob\'s "big" night; rm -rf ~' in seen
        pid = terminal.tmux("display-message", "-p", "#{pane_pid}").strip()
        children = subprocess.run(
            ["ps", "-o", "args=", "--ppid", pid], capture_output=True, text=True
        ).stdout
        assert "watch" in children and "sh -i" not in children
        assert not asked.exists()
    finally:
        terminal.kill()


def test_a_file_that_holds_no_public_key_is_refused(tmp_path: Path) -> None:
    saves = tmp_path / "saves"
    create_demos(Saves(saves))
    private = tmp_path / "id_ed25519"
    private.write_text("-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk=\n")
    done = tussle(saves, "share", "Fate demo", "--ssh-key", str(private))
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.startswith(f"(share): {private}: not a public key")
    missing = tussle(saves, "share", "Fate demo", "--ssh-key", str(tmp_path / "nope.pub"))
    assert missing.returncode == 2
    assert (
        missing.stderr
        == f"(share): cannot read {tmp_path / 'nope.pub'}: No such file or directory\n"
    )
    unknown = tussle(saves, "share", "No such game", "--ssh-key", str(private))
    assert (unknown.returncode, unknown.stderr) == (2, '(share): no campaign "No such game"\n')
