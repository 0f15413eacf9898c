"""``tussle share NAME``: the GM's dashboard and the players' view, on two tmux servers.

* The GM's server (``tmux -L SOCKET``, socket ``tussle`` unless ``--socket`` or
  ``$TUSSLE_SHARE_SOCKET`` says otherwise) holds one session, ``gm``, with the dashboard.
  Its socket stays where tmux puts it (``/tmp/tmux-UID/``, a folder only the GM's user
  can enter): no one else ever reaches it.
* The players' server (``tmux -S /tmp/tussle-UID/SOCKET-players``) holds one session,
  ``players``, whose one window runs ``tussle watch`` and nothing else: no shell is ever
  started there (the watcher is the window's command, and ``remain-on-exit off`` ends
  the server when it ends), no key is bound but ``C-b d`` (detach), and tmux reads no
  configuration for it (``-f /dev/null``). So ``C-b )``, ``C-b s`` or ``switch-client``
  reach nothing: there is no other session. Its window takes the size of the largest
  player's terminal (``window-size largest``): with ``smallest``, one player at 40x12
  shrank everyone's view to that (issue 24, item 18). A player whose terminal is smaller
  sees a part of it; the view lays itself out down to a phone's 40 columns, and says
  how many exchanges it leaves out for lack of room.
* Other Unix users reach a players' server when the GM names them (``--player USER``):
  each such user has a server of their own (``SOCKET-players-USER``), like the first,
  where tmux 3.3's ``server-access -a USER -r`` lets that user alone in, read-only
  whatever they type (``attach`` without ``-r`` is read-only all the same); the socket
  and its folder are opened to others so they can connect at all, and tmux's access list
  turns away every user it does not name. (A group on the socket would not do: since
  tmux 3.3 a user not on the list is refused whatever the socket's permissions, and one
  on it gets write access unless ``-r`` says otherwise.) A server of one's own, because
  read-only is not harmless on a shared one: a read-only client may still run
  ``detach-client`` (any client of the server, even with ``-E``: a shell command run by
  that client's own process, as its own user), ``attach -d`` (every other client
  detached), and its terminal's size counts in the window's. On a player's own server,
  all that reaches only that player, and the window is that player's size.
* ``--ssh-key KEYFILE`` sets nothing up: it prints, for each key in the file, the
  ``authorized_keys`` line that gives that key the players' view and nothing else.
"""

from __future__ import annotations

import os
import pwd
import re
import shlex
import shutil
import stat
import subprocess
import sys
from pathlib import Path

from core.saves.store import Saves, saves_folder

SOCKET = "tussle"
# Another socket than ``tussle``: two tables on one machine, and the tests (which must
# never touch a real table's server, nor each other's). ``--socket`` says the same.
SOCKET_VARIABLE = "TUSSLE_SHARE_SOCKET"
# Where the players' sockets live: a folder of the GM's, which others may pass through
# (0711) but not list; tmux's own folder (/tmp/tmux-UID) is 0700.
PLAYERS_FOLDER_VARIABLE = "TUSSLE_SHARE_FOLDER"
# The players' window before anyone attaches (then: the largest player's terminal).
PLAYERS_SIZE = (120, 40)
# The key types OpenSSH accepts at the start of an authorized_keys line.
KEY_TYPE = re.compile(r"^(ssh-(rsa|dss|ed25519|ed448)|ecdsa-sha2-\S+|sk-\S+@openssh\.com)$")


def socket_name(explicit: str | None = None) -> str:
    """``--socket NAME``, else ``$TUSSLE_SHARE_SOCKET``, else ``tussle``."""
    return explicit or os.environ.get(SOCKET_VARIABLE) or SOCKET


def players_folder() -> Path:
    """``$TUSSLE_SHARE_FOLDER``, else ``/tmp/tussle-UID``."""
    return Path(os.environ.get(PLAYERS_FOLDER_VARIABLE) or f"/tmp/tussle-{os.getuid()}")


def players_socket(socket: str, user: str | None = None) -> Path:
    """The players' server's socket: the GM's own terminals' (no ``user``), or the one
    server of the Unix user ``user``."""
    return players_folder() / (f"{socket}-players" if user is None else f"{socket}-players-{user}")


def tussle_path() -> str:
    """This ``tussle``, by its absolute path (what tmux, sshd or a browser seat runs)."""
    if sys.argv and sys.argv[0] and Path(sys.argv[0]).name == "tussle":
        return str(Path(sys.argv[0]).resolve())
    return shutil.which("tussle") or str(Path(sys.executable).parent / "tussle")


def watch_command(tussle: str, saves: Path, name: str) -> list[str]:
    """The players' view of campaign ``name``, and nothing else."""
    return [tussle, "--saves", str(saves), "watch", name]


def gm_command(name: str, saves: Path, tussle: str, socket: str = SOCKET) -> list[str]:
    """The GM's server: one session, the dashboard."""
    gm = shlex.join([tussle, "--saves", str(saves), "open", name])
    return ["tmux", "-L", socket, "new-session", "-d", "-s", "gm", "-x", "160", "-y", "48", gm]


def players_command(
    name: str, saves: Path, tussle: str, path: Path, players: list[str] | None = None
) -> list[str]:
    """The players' server: one session whose one window runs the watcher (``exec``: the
    shell tmux starts it with is replaced by it, and no prompt ever shows), no
    configuration, no key but detach, the window at the largest player's size, and
    read-only access for each of ``players``."""
    watcher = "exec " + shlex.join(watch_command(tussle, saves, name))
    width, height = PLAYERS_SIZE
    # -a then -r, in two commands (tmux 3.3a refuses "-a -r USER" as one), in the call
    # that starts the server: no client can attach between the two.
    access = [
        arg
        for user in players or []
        for arg in (";", "server-access", "-a", user, ";", "server-access", "-r", user)
    ]
    return [
        "tmux", "-S", str(path), "-f", "/dev/null",
        "new-session", "-d", "-s", "players", "-x", str(width), "-y", str(height), watcher,
        ";", "set-option", "-g", "remain-on-exit", "off",
        ";", "set-option", "-g", "window-size", "largest",
        ";", "set-option", "-g", "status", "off",
        ";", "set-option", "-g", "mouse", "off",
        ";", "unbind-key", "-a", "-T", "prefix",
        ";", "unbind-key", "-a", "-T", "root",
        ";", "unbind-key", "-a", "-T", "copy-mode",
        ";", "unbind-key", "-a", "-T", "copy-mode-vi",
        ";", "bind-key", "-T", "prefix", "d", "detach-client",
        *access,
    ]  # fmt: skip


def _error(message: str) -> int:
    print(f"(share): {message}", file=sys.stderr)
    return 2


def _own_folder(folder: Path, shared: bool) -> str | None:
    """Make ``folder`` (the players' sockets'): the GM's own, not a link, 0711 when
    others are let in, else 0700. A reason when it cannot be trusted."""
    try:
        folder.mkdir(mode=0o700, exist_ok=True)
        info = folder.lstat()
    except OSError as error:
        return f"cannot make {folder}: {error.strerror}"
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid():
        return f"{folder} is not this user's folder: remove it, or set {PLAYERS_FOLDER_VARIABLE}"
    os.chmod(folder, 0o711 if shared else 0o700)
    return None


def _running(tmux: list[str]) -> bool:
    return subprocess.run([*tmux, "has-session"], capture_output=True).returncode == 0


def share(
    saves_arg: str | None,
    name: str,
    socket_arg: str | None = None,
    players: list[str] | None = None,
) -> int:
    saves = saves_folder(saves_arg).resolve()
    if Saves(saves).find(name) is None:
        return _error(f'no campaign "{name}"')
    if shutil.which("tmux") is None:
        return _error("tmux is not installed")
    players = players or []
    for user in players:
        try:
            pwd.getpwnam(user)
        except KeyError:
            return _error(f'no user "{user}" on this machine (--player)')
    socket = socket_name(socket_arg)
    path = players_socket(socket)
    # Each player named has a server of their own: see the module's docstring.
    own = {user: players_socket(socket, user) for user in players}
    gm_tmux, players_tmux = ["tmux", "-L", socket], ["tmux", "-S", str(path)]
    servers = [
        (gm_tmux, f"-L {socket}"),
        (players_tmux, f"-S {path}"),
        *((["tmux", "-S", str(p)], f"-S {p}") for p in own.values()),
    ]
    if _running(gm_tmux):
        return _error(
            f"a tmux server is running on socket {socket} already (a table set "
            f"earlier?): attach to it, or end it with  tmux -L {socket} kill-server"
        )
    up = [(tmux, shown) for tmux, shown in servers[1:] if _running(tmux)]
    if up:  # the GM quit, the players' view stayed: take the table up again
        return _again(name, saves, socket, up)
    problem = _own_folder(path.parent, shared=bool(players))
    if problem is not None:
        return _error(problem)
    tussle = tussle_path()
    for call in (
        gm_command(name, saves, tussle, socket),
        players_command(name, saves, tussle, path),
        *(players_command(name, saves, tussle, p, [user]) for user, p in own.items()),
    ):
        done = subprocess.run(call, capture_output=True, text=True)
        if done.returncode != 0:
            for end, _ in servers:  # no half-set table
                subprocess.run([*end, "kill-server"], capture_output=True)
            print(f"(share): {shlex.join(call[:3])} …: {done.stderr.strip()}", file=sys.stderr)
            return 1
    for own_path in own.values():
        os.chmod(own_path, 0o666)  # tmux's access list says who, and read-only
    quoted = shlex.quote(str(path))
    stops = "; ".join(f"tmux {shown} kill-server" for _, shown in servers)
    print(
        "The table is set. The GM attaches with\n"
        f"    tmux -L {socket} attach -t gm\n"
        "players attach read-only, each from a terminal of their own, with\n"
        f"    tmux -S {quoted} attach -r\n"
        + "".join(
            f"user {user} (read-only whatever they type, on a server of their own) with\n"
            f"    tmux -S {shlex.quote(str(p))} attach\n"
            for user, p in own.items()
        )
        + f"and everything stops with  {stops}"
    )
    return 0


def _watching(tmux: list[str]) -> str | None:
    """The command a players' server's window runs, as share gave it (None: unread)."""
    done = subprocess.run(
        [*tmux, "display-message", "-p", "-t", "players", "#{pane_start_command}"],
        capture_output=True,
        text=True,
    )
    try:
        words = shlex.split(done.stdout.strip())  # tmux shows it quoted, as one word
    except ValueError:
        return None
    return words[0] if done.returncode == 0 and len(words) == 1 else None


def _again(name: str, saves: Path, socket: str, up: list[tuple[list[str], str]]) -> int:
    """``share`` after the GM quit (issue 24, item 17): the players' servers outlive the
    dashboard. When those still up show this campaign, the table is taken up again: the
    GM's dashboard alone, the players staying attached. Else they are another table's,
    and are left alone."""
    tussle = tussle_path()
    watcher = "exec " + shlex.join(watch_command(tussle, saves, name))
    for tmux, shown in up:
        if _watching(tmux) != watcher:
            return _error(
                f"a players' view of another table is still up on socket {socket}: end "
                f"it with  tmux {shown} kill-server, or share on another --socket"
            )
    done = subprocess.run(gm_command(name, saves, tussle, socket), capture_output=True, text=True)
    if done.returncode != 0:
        print(f"(share): tmux -L {socket} new-session …: {done.stderr.strip()}", file=sys.stderr)
        return 1
    print(
        f"The players' view of {name} was still up, and stays (the players need do "
        "nothing). The GM's dashboard is back; the GM attaches with\n"
        f"    tmux -L {socket} attach -t gm\n"
        f"(tussle open {shlex.quote(name)} in any terminal of the GM's is enough too: the "
        "players' view follows the saves, whichever dashboard writes them)"
    )
    return 0


def authorized_keys(saves_arg: str | None, name: str, keyfile: str) -> int:
    """``tussle share NAME --ssh-key KEYFILE``: the authorized_keys line for each key in
    ``keyfile``: that key gets a terminal (``pty``) running the players' view of ``name``,
    and nothing else (``restrict``: no forwarding, no agent, no X11; ``command=``: sshd
    runs it whatever the player asked for, ``SSH_ORIGINAL_COMMAND`` being ignored)."""
    saves = saves_folder(saves_arg).resolve()
    if Saves(saves).find(name) is None:
        return _error(f'no campaign "{name}"')
    from core.files.named_files import SETTINGS_BYTES, read_named

    try:  # a file (never a pipe, which would stop here), no larger than a settings file
        text = read_named(Path(keyfile), SETTINGS_BYTES).decode("utf-8")
    except (OSError, UnicodeDecodeError) as error:
        return _error(f"cannot read {keyfile}: {getattr(error, 'strerror', None) or error}")
    keys = [line.strip() for line in text.splitlines() if line.strip() and line[0] != "#"]
    if not keys:
        return _error(f"{keyfile} holds no public key")
    for key in keys:
        fields = key.split()
        if len(fields) < 2 or KEY_TYPE.match(fields[0]) is None:
            return _error(
                f"{keyfile}: not a public key (a line starts with its type, ssh-ed25519 "
                f"or ssh-rsa…): {key[:40]}"
            )
    forced = shlex.join(watch_command(tussle_path(), saves, name))
    # In authorized_keys, a " inside command="…" is written \" (no other escape exists).
    quoted = forced.replace('"', '\\"')
    for key in keys:
        print(f'restrict,pty,command="{quoted}" {key}')
    return 0
