"""``tussle serve NAME``: the players' view in web browsers.

textual-serve serves the terminal the page draws in JavaScript (its script, CSS and
fonts); the page itself and the websocket behind it are Tussle's own (:class:`Seat`):
each browser that opens the page gets a process of its own, ``tussle watch NAME`` under
Textual's web driver, reading the campaign's files as any watcher does (no lock, no
writes); nothing the GM runs is shared, and what a browser sends reaches only its own
watcher (``q`` ends it).

A seat ends with its browser: when the websocket closes, whenever that is (the page still
loading, say), its watcher is asked to quit and its stdin closed (a watcher leaves when
its stdin hangs up: :mod:`tui.terminal`); one still there after a grace period gets
SIGTERM, then SIGKILL, and is always waited for (no zombie). When ``serve`` stops, every
seat ends the same way; when it is killed outright, each watcher's stdin hangs up.
(textual-serve's own seats wait for ever on a watcher that does not quit, and run it
through a shell: the seats here replace them, through ``Server.handle_websocket``; the
table's routes are added as the server starts, ``Server.on_startup``.)

What a browser may ask is bounded. A websocket opened by another site's page is refused
(403): its ``Origin`` must be an address of this server, so a web page the GM visits
cannot read the players' view. Listening on the loopback address, a request must name a
loopback host or ``--public-url``'s (a page of another site whose name it made point at
127.0.0.1 is refused too). The terminal's size is kept within :data:`MAX_SIZE`.

Each table has a secret link (issue 24, item 23): a random key made when ``serve``
starts, in the page's path (``/KEY/``) and its websocket's (``/KEY/ws``), shown on the
line ``serve`` starts with. Without it (``/``, ``/ws``, another key) a request gets 403,
and nothing is started. It listens on 127.0.0.1 unless ``--host`` says otherwise;
``--public-url`` is the address browsers use when a proxy stands in front (an https
one, say).

The page is Tussle's own (:data:`PAGE`): textual-serve's links a font from the internet
(fonts.googleapis.com). Everything this one names comes from this server (textual-serve's
script, its terminal's CSS and the Roboto Mono font files that ship in its package,
under ``/static``), and its Content-Security-Policy lets the browser fetch nothing from
anywhere else: an offline table works. It sets the page's width to the device's, so a
phone shows a terminal of 40 columns or so, not a tiny wide one.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import html
import ipaddress
import json
import os
import secrets
import shlex
import signal
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from core.saves.store import Saves, saves_folder
from tui.share import tussle_path, watch_command

if TYPE_CHECKING:
    from aiohttp import web
    from textual_serve.server import Server

# The largest terminal a browser may ask for (width, height), and the smallest: a
# 20000x20000 one once made a 3.4 GB watcher. A size out of bounds is brought within them.
MAX_SIZE = (500, 200)
MIN_SIZE = (1, 1)
DEFAULT_SIZE = (80, 24)  # when the browser's page says none, or nothing that is a number
# How long a watcher asked to quit has before SIGTERM, and then before SIGKILL.
GRACE_SECONDS = 3.0
# What Textual's web driver writes once it runs: the packets follow it.
READY = b"__GANGLION__\n"
# The bytes of randomness in a table's key: 128 bits, 22 characters in the link.
KEY_BYTES = 16
# What the page lets the browser fetch, and from where: this server alone ('self' takes
# in its websocket too). Its inline script and style are the page's own.
CONTENT_POLICY = (
    "default-src 'self'; script-src 'self' 'unsafe-inline'; "
    "style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self'; "
    "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
# The page: textual-serve's, with the font served here and not fetched from Google, a
# viewport for phones, and no intro picture. Filled in by :func:`page`.
PAGE = """<!DOCTYPE html>
<html>
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="referrer" content="no-referrer" />
    <title>{title}</title>
    <link rel="stylesheet" href="{static}css/xterm.css" />
    <script src="{static}js/textual.js"></script>
    <style>
      @font-face {{
        font-family: "Roboto Mono";
        src: url("{static}fonts/RobotoMono-VariableFont_wght.ttf") format("truetype");
        font-style: normal;
      }}
      @font-face {{
        font-family: "Roboto Mono";
        src: url("{static}fonts/RobotoMono-Italic-VariableFont_wght.ttf") format("truetype");
        font-style: italic;
      }}
      body {{ background: #0c181f; margin: 0; }}
      .dialog-container {{
        position: absolute; width: 100vw; height: 100vh; display: flex;
        align-items: center; justify-content: center; z-index: 10;
      }}
      .intro {{
        max-width: 90vw; padding: 32px; font-size: 16px; z-index: 20;
        font-family: "Roboto Mono", monospace; text-align: center;
        color: rgba(255, 255, 255, 0.95); background-color: #12232d;
      }}
      body.-first-byte .intro-dialog {{ display: none; }}
      body .textual-terminal {{ opacity: 0; }}
      body.-first-byte .textual-terminal {{ opacity: 1; }}
      body button {{
        padding: 16px 32px; background-color: #5e0ba7; color: rgba(255, 255, 255, 0.95);
        border: none; font-family: "Roboto Mono", monospace; margin: 16px auto 0;
        display: block;
      }}
      .closed-dialog {{ display: none; }}
      body.-closed .closed-dialog {{ display: flex; }}
      #start {{ display: none; }}
    </style>
    <script>
      function refresh() {{ window.location.reload(); }}
    </script>
  </head>
  <body>
    <div class="dialog-container intro-dialog">
      <div class="intro">{title}</div>
    </div>
    <div class="dialog-container closed-dialog">
      <div class="intro">
        <div>The seat ended.</div>
        <button type="button" onclick="refresh()">Sit again</button>
      </div>
    </div>
    <div id="start"></div>
    <div
      id="terminal"
      class="textual-terminal"
      data-session-websocket-url="{websocket}"
      data-font-size="{font_size}"
    ></div>
  </body>
</html>
"""


# The line ``serve`` starts with gives the table's link, indented so: what reads it (the
# bench's browser seat) finds it with :func:`link_in`.
LINK_INDENT = "    "


def link_in(text: str) -> str | None:
    """The table's link (``http://HOST:PORT/KEY/``) in what ``serve`` printed, if there."""
    for line in text.splitlines():
        if line.startswith(LINK_INDENT + "http") and line.rstrip().endswith("/"):
            return line.strip()
    return None


def new_key() -> str:
    """A table's secret key: random, and safe in a URL's path."""
    return secrets.token_urlsafe(KEY_BYTES)


def page(title: str, static: str, websocket: str, font_size: int) -> str:
    """The seat's HTML: its script, CSS and fonts from ``static`` (this server's
    ``/static/``), its terminal on ``websocket``."""
    return PAGE.format(
        title=html.escape(title, quote=False),
        static=html.escape(static),
        websocket=html.escape(websocket),
        font_size=font_size,
    )


def bounded(value: object, low: int, high: int, default: int) -> int:
    """``value`` (a number, or its text) brought within ``low`` and ``high``; ``default``
    for what is no whole number."""
    if not isinstance(value, int | float | str):
        return default
    try:
        number = int(value)
    except (ValueError, OverflowError):
        return default
    return min(max(number, low), high)


def terminal_size(width: object, height: object) -> tuple[int, int]:
    """The size a browser asked for, within :data:`MIN_SIZE` and :data:`MAX_SIZE`."""
    return (
        bounded(width, MIN_SIZE[0], MAX_SIZE[0], DEFAULT_SIZE[0]),
        bounded(height, MIN_SIZE[1], MAX_SIZE[1], DEFAULT_SIZE[1]),
    )


def is_loopback(hostname: str) -> bool:
    if hostname.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(hostname).is_loopback
    except ValueError:
        return False


def packet(kind: bytes, payload: bytes) -> bytes:
    """One packet for Textual's web driver: its kind (``D`` keys, ``M`` meta), its size
    in four bytes, its bytes."""
    return kind + len(payload).to_bytes(4, "big") + payload


def meta(**fields: object) -> bytes:
    return packet(b"M", json.dumps(fields).encode())


class Seat:
    """One browser's watcher: its process, and the bytes between it and the websocket."""

    def __init__(self, command: list[str], websocket: web.WebSocketResponse) -> None:
        self.command = command
        self.websocket = websocket
        self.process: asyncio.subprocess.Process | None = None

    def environment(self, size: tuple[int, int]) -> dict[str, str]:
        """The watcher's environment: Textual's web driver, at the browser's size."""
        return {
            **os.environ,
            "TEXTUAL_DRIVER": "textual.drivers.web_driver:WebDriver",
            "TEXTUAL_FPS": "60",
            "TEXTUAL_COLOR_SYSTEM": "truecolor",
            "TERM_PROGRAM": "textual",
            "COLUMNS": str(size[0]),
            "ROWS": str(size[1]),
        }

    async def run(self, size: tuple[int, int]) -> None:
        """The watcher, from the browser's arrival until it leaves or the watcher ends;
        ended in any case (cancelled included) before this returns."""
        process = self.process = await asyncio.create_subprocess_exec(
            *self.command,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            env=self.environment(size),
            start_new_session=True,  # its own process group: the signals reach it alone
        )
        reading = asyncio.create_task(self.to_browser(process))
        try:
            listening = asyncio.create_task(self.from_browser(process))
            try:
                await asyncio.wait({reading, listening}, return_when=asyncio.FIRST_COMPLETED)
            finally:
                listening.cancel()
                await asyncio.gather(listening, return_exceptions=True)
        finally:
            # Its output is still read while it ends: a watcher blocked writing to a
            # full pipe could not quit.
            await self.end()
            await asyncio.gather(reading, return_exceptions=True)
            await self.websocket.close()

    async def to_browser(self, process: asyncio.subprocess.Process) -> None:
        """What the watcher draws, to the browser, until its output ends. Once the
        browser has left, it is read all the same, and dropped."""
        stdout = process.stdout
        assert stdout is not None
        try:
            while (line := await stdout.readline()) and line != READY:
                pass  # anything before the web driver runs is not for the browser
            while True:
                head = await stdout.readexactly(5)
                payload = await stdout.readexactly(int.from_bytes(head[1:], "big"))
                if head[:1] == b"D":
                    await self.send(payload)
                elif head[:1] == b"M" and json.loads(payload).get("type") == "exit":
                    await self.websocket.close()  # the watcher ends ("q")
        except (asyncio.IncompleteReadError, ValueError, ConnectionError):
            return  # its output ended (or made no sense): the watcher is gone

    async def send(self, payload: bytes) -> None:
        with contextlib.suppress(ConnectionError, RuntimeError):  # the browser left
            await self.websocket.send_bytes(payload)

    async def from_browser(self, process: asyncio.subprocess.Process) -> None:
        """What the browser sends, to the watcher, until the browser leaves: keys, its
        terminal's new size (bounded), focus and blur; a ping is answered. Anything else
        is ignored."""
        from aiohttp import WSMsgType

        stdin = process.stdin
        assert stdin is not None
        async for message in self.websocket:
            if message.type != WSMsgType.TEXT:
                continue
            try:
                kind, data = json.loads(message.data)[:2]
            except (ValueError, TypeError, KeyError):
                continue
            if kind == "stdin" and isinstance(data, str):
                sent = packet(b"D", data.encode())
            elif kind == "resize" and isinstance(data, dict):
                width, height = terminal_size(data.get("width"), data.get("height"))
                sent = meta(type="resize", width=width, height=height)
            elif kind in ("focus", "blur"):
                sent = meta(type=kind)
            elif kind == "ping":
                with contextlib.suppress(ConnectionError, RuntimeError):
                    await self.websocket.send_json(["pong", data])
                continue
            else:
                continue
            try:
                stdin.write(sent)
                await stdin.drain()
            except (ConnectionError, RuntimeError):
                return  # the watcher is gone

    async def end(self) -> None:
        """The watcher ended: asked to quit, its stdin closed; after a grace period,
        SIGTERM; after another, SIGKILL. Waited for in any case."""
        process = self.process
        if process is None:
            return
        stdin = process.stdin
        if process.returncode is None and stdin is not None and not stdin.is_closing():
            with contextlib.suppress(ConnectionError, RuntimeError):
                stdin.write(meta(type="quit"))
            stdin.close()
        for stop in (None, signal.SIGTERM, signal.SIGKILL):
            if stop is not None and process.returncode is None:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, stop)  # its group: start_new_session
            try:
                await asyncio.wait_for(asyncio.shield(process.wait()), GRACE_SECONDS)
                return
            except TimeoutError:
                continue
        await process.wait()


class AnnouncingLoop(asyncio.SelectorEventLoop):
    """An event loop that calls ``listening`` when its server listens (``create_server``
    has bound its sockets and listens on them), once."""

    def __init__(self, listening: Callable[[], None]) -> None:
        super().__init__()
        self.listening: Callable[[], None] | None = listening

    async def create_server(self, *args: Any, **kwargs: Any) -> asyncio.Server:
        server = await super().create_server(*args, **kwargs)
        if self.listening is not None:
            listening, self.listening = self.listening, None
            listening()
        return server


def make_server(
    command: list[str],
    host: str,
    port: int,
    title: str,
    public_url: str | None,
    key: str,
) -> Server:
    """textual-serve's server, with Tussle's page, seats and their bounds (see the
    module's docstring), reached at ``/KEY/`` alone; made here so that textual-serve is
    imported only when serving."""
    from aiohttp import web
    from textual_serve.server import Server

    class SeatServer(Server):
        def __init__(self) -> None:
            super().__init__(
                shlex.join(command), host=host, port=port, title=title, public_url=public_url
            )
            self.public_url = self.public_url.rstrip("/")
            self.key = key
            self.seats: set[Seat] = set()
            public = urlsplit(self.public_url)
            self.public_origin = f"{public.scheme}://{public.netloc}".lower()
            self.public_host = (public.hostname or "").lower()
            self.loopback = is_loopback(host)

        def known_host(self, request: web.Request) -> bool:
            """Listening on the loopback address: a request names a loopback host or the
            public URL's. Listening on a network: any name it gives this machine."""
            if not self.loopback:
                return True
            try:
                hostname = urlsplit(f"//{request.host}").hostname or ""
            except ValueError:  # no host name at all ("[")
                return False
            return is_loopback(hostname) or hostname == self.public_host

        def same_origin(self, request: web.Request) -> bool:
            """The websocket is opened by this server's page: its ``Origin`` is the
            address the browser used for this server (the request's host, the public URL,
            or a loopback name with this port). A request without one comes from no web
            page (browsers always send it)."""
            origin = request.headers.get("Origin")
            if origin is None:
                return True
            try:
                parts = urlsplit(origin.lower())
                hostname, port = parts.hostname, parts.port
            except ValueError:  # no address at all ("http://[", a port of 99999)
                return False
            if parts.scheme not in ("http", "https") or not hostname:
                return False
            if parts.netloc == request.host.lower():
                return True
            if f"{parts.scheme}://{parts.netloc}" == self.public_origin:
                return True
            port = port or (443 if parts.scheme == "https" else 80)
            return self.loopback and is_loopback(hostname) and port == self.port

        @property
        def link(self) -> str:
            """The table's secret link: the page, at its key."""
            return f"{self.public_url}/{self.key}/"

        def keyed(self, request: web.Request) -> bool:
            """The request names this table's key (``/KEY/``, ``/KEY/ws``)."""
            given = request.match_info.get("key", "")
            return hmac.compare_digest(given.encode(), self.key.encode())

        async def on_startup(self, app: web.Application) -> None:
            """The table's routes, at its key (textual-serve's ``/`` and ``/ws`` stay,
            and refuse)."""
            app.router.add_get("/{key}", self.handle_slash)
            app.router.add_get("/{key}/", self.handle_index)
            app.router.add_get("/{key}/ws", self.handle_websocket)

        def serve(self, debug: bool = False) -> None:
            """textual-serve's, on a loop that prints the link once the server listens:
            aiohttp listens only after ``on_startup``, and a link printed there failed a
            browser or a script that took it at once."""
            asyncio.set_event_loop(AnnouncingLoop(self.announce))
            super().serve(debug)

        def announce(self) -> None:
            """The lines that give the GM the link: once it can be opened."""
            print(f"Serving {title} at", flush=True)
            print(f"{LINK_INDENT}{self.link}", flush=True)
            print(
                "Give that link to the players: without its key, the page and its seats "
                "are refused. Ctrl+C stops.",
                flush=True,
            )

        async def handle_slash(self, request: web.Request) -> web.StreamResponse:
            """``/KEY`` is ``/KEY/`` (only there does the page's own address end)."""
            if not (self.known_host(request) and self.keyed(request)):
                raise web.HTTPForbidden(text="(serve): this table's link is needed\n")
            raise web.HTTPFound(self.link)

        async def handle_index(self, request: web.Request) -> web.StreamResponse:
            if not self.known_host(request):
                raise web.HTTPForbidden(text="(serve): not this server's address\n")
            if not self.keyed(request):
                raise web.HTTPForbidden(text="(serve): this table's link is needed\n")
            scheme = "wss" if self.public_url.startswith("https") else "ws"
            websocket = f"{scheme}:{self.public_url.split(':', 1)[1]}/{self.key}/ws"
            font_size = bounded(request.query.get("fontsize"), 8, 48, 16)
            text = page(title, f"{self.public_url}/static/", websocket, font_size)
            return web.Response(
                text=text,
                content_type="text/html",
                headers={
                    "Content-Security-Policy": CONTENT_POLICY,
                    "Referrer-Policy": "no-referrer",  # the key stays in this page
                    "Cache-Control": "no-store",
                },
            )

        async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
            if not (self.known_host(request) and self.same_origin(request)):
                raise web.HTTPForbidden(text="(serve): a page of another site\n")
            if not self.keyed(request):
                raise web.HTTPForbidden(text="(serve): this table's link is needed\n")
            size = terminal_size(
                request.query.get("width", DEFAULT_SIZE[0]),
                request.query.get("height", DEFAULT_SIZE[1]),
            )
            websocket = web.WebSocketResponse(heartbeat=15)
            await websocket.prepare(request)
            seat = Seat(command, websocket)
            self.seats.add(seat)
            try:
                await seat.run(size)
            finally:
                self.seats.discard(seat)
            return websocket

        async def on_shutdown(self, app: web.Application) -> None:
            """``serve`` stops: every seat's watcher ends (and so does its websocket)."""
            await asyncio.gather(*(seat.end() for seat in list(self.seats)))

    return SeatServer()


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
        import textual_serve.server  # noqa: F401
    except ImportError:
        print(
            "(serve): textual-serve is not installed (pip install textual-serve)", file=sys.stderr
        )
        return 2
    command = watch_command(tussle_path(), saves, name)
    server = make_server(command, host, port, f"{name} · players' view", public_url, new_key())
    if host not in ("127.0.0.1", "localhost", "::1"):
        print(
            f"(serve): listening on {host}: anyone who reaches it with the link sees the "
            "players' view (over plain http, anyone on the way can read the link)",
            file=sys.stderr,
            flush=True,
        )
    try:
        server.serve()
    except OSError as error:  # the port is taken, the address is not this machine's
        print(f"(serve): cannot listen on {host}:{port}: {error.strerror}", file=sys.stderr)
        return 1
    return 0
