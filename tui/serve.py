"""``tussle serve NAME``: the players' view in web browsers (textual-serve).

Each browser that opens the page gets a process of its own, ``tussle watch NAME``,
reading the campaign's files as any watcher does (no lock, no writes): nothing the GM
runs is shared, and what a browser sends reaches only its own watcher (``q`` ends it).
Anyone who can reach the address can watch: there is no password. So it listens on
127.0.0.1 unless ``--host`` says otherwise; ``--public-url`` is the address browsers use
when a proxy stands in front (an https one, say).
"""

from __future__ import annotations

import shlex
import sys

from core.store import Saves, saves_folder
from tui.share import tussle_path, watch_command


def serve(
    saves_arg: str | None,
    name: str,
    host: str = "127.0.0.1",
    port: int = 8000,
    public_url: str | None = None,
) -> int:
    """Serve until Ctrl+C (0); 2 for an unknown campaign or a port out of range."""
    saves = saves_folder(saves_arg).resolve()
    if Saves(saves).find(name) is None:
        print(f'(serve): no campaign "{name}"', file=sys.stderr)
        return 2
    if not 0 < port < 65536:
        print(f"(serve): --port {port}: a port is 1 to 65535", file=sys.stderr)
        return 2
    try:
        from textual_serve.server import Server
    except ImportError:
        print(
            "(serve): textual-serve is not installed (pip install textual-serve)", file=sys.stderr
        )
        return 2
    command = shlex.join(watch_command(tussle_path(), saves, name))
    server = Server(
        command, host=host, port=port, title=f"{name} · players' view", public_url=public_url
    )
    if host not in ("127.0.0.1", "localhost", "::1"):
        print(
            f"(serve): listening on {host}: anyone who reaches it sees the players' view, "
            "with no password",
            file=sys.stderr,
            flush=True,
        )
    try:
        server.serve()
    except OSError as error:  # the port is taken, the address is not this machine's
        print(f"(serve): cannot listen on {host}:{port}: {error.strerror}", file=sys.stderr)
        return 1
    return 0
