"""Whether this process has a terminal to show a screen on, and whether it still has one.

Textual's terminal driver reads the keys in a thread that does not stop at the end of its
input: with stdin at end of file, it spins at most of a core for as long as the app runs
(Textualize/textual#6690, "Fix input thread busy-looping at 100% CPU when stdin reaches
EOF", still open upstream). Stdin is at its end when there never was a terminal
(``ssh -T``, a command added to ``ssh``, ``< /dev/null``, a pipe), and when the terminal
went away without a SIGHUP reaching the program (a dropped SSH connection). So, without
touching Textual: a screen refuses to start without a terminal (:func:`has_terminal`), and
one that runs leaves when its stdin hangs up (:func:`hung_up`, asked a few times a
second): the players' view, and the GM's dashboard (started with SIGHUP ignored,
``nohup tussle``, it used to spin holding the campaign's lock). Imports nothing of
Textual: the commands ask before loading it.
"""

from __future__ import annotations

import os
import select
import subprocess
from collections.abc import Mapping

STDIN = 0
HANG_UP_SECONDS = 0.2  # how often a screen asks whether its terminal is still there


def has_terminal(environ: Mapping[str, str] = os.environ, fd: int = STDIN) -> bool:
    """Whether stdin is a terminal, or Textual is told to use a driver of its own
    (``TEXTUAL_DRIVER``: the browser seats' web driver reads ``tussle serve``'s pipe)."""
    return bool(environ.get("TEXTUAL_DRIVER")) or os.isatty(fd)


def hung_up(fd: int = STDIN) -> bool:
    """Whether ``fd`` has hung up: its terminal is gone, the other end of its pipe is
    closed, or it is closed itself. Asked with ``poll``, which reads nothing: the keys
    waiting there stay for Textual."""
    poller = select.poll()
    poller.register(fd, 0)  # no event asked for: poll reports hang-ups and errors only
    return bool(poller.poll(0))


def clients_take_utf8(environ: Mapping[str, str] = os.environ) -> bool | None:
    """Inside tmux (``$TMUX``, ``$TMUX_PANE``): whether every client that shows this
    pane's session takes UTF-8. tmux draws ``_`` for each character past ASCII to a client
    that does not (its locale said so as it attached: ``LANG=C`` over SSH), whatever this
    process writes, and no option of the server changes that. None outside tmux, with no
    client attached, or when tmux cannot say."""
    pane = environ.get("TMUX_PANE")
    if not environ.get("TMUX") or not pane:
        return None
    try:
        done = subprocess.run(
            ["tmux", "list-clients", "-t", pane, "-F", "#{client_utf8}"],
            capture_output=True,
            text=True,
            timeout=5,
            stdin=subprocess.DEVNULL,
            env=dict(environ),
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    flags = done.stdout.split()
    if done.returncode != 0 or not flags:
        return None
    return all(flag == "1" for flag in flags)
