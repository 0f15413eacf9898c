"""Browser seats behind a secret link (issue 24, item 23), and a page that fetches nothing
from outside this machine (issue 24, item 22: textual-serve's page linked a font from
fonts.googleapis.com, so an offline table got none, and every page told Google).

``tussle serve`` makes a random key when it starts and gives the link on its first lines;
the page and its websocket answer at that key alone: ``/``, ``/ws`` or another key get 403,
and no watcher is started for them.
"""

from __future__ import annotations

import asyncio
import json
import re
import shutil
import socket
import subprocess
import time
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import aiohttp
import pytest

from tests.e2e.seats import (
    PATIENCE,
    Served,
    page,
    saved_knife_fight,
    seat,
    watchers,
)
from tests.helpers import NAME, clean_env, tussle_command


async def status(url: str, websocket: bool = False) -> int:
    """The status a GET (or a websocket's opening: 101 when it opens) gets at ``url``,
    asked once: ``serve`` prints its link once it listens."""
    async with aiohttp.ClientSession() as session:
        if websocket:
            try:
                async with session.ws_connect(url) as ws:
                    await ws.close()
                    return 101
            except aiohttp.WSServerHandshakeError as error:
                return error.status
        async with session.get(url, allow_redirects=False) as got:
            return got.status


def test_a_port_in_use_gives_no_link_and_says_why(tmp_path: Path) -> None:
    """Another program listens on the port: ``serve`` prints no link (it would be that
    program's), says it cannot listen there, and ends with 1. The link is printed once
    the server listens: it was printed as the server started, before it listened, and a
    request sent at once was refused (CI, under load); every test here asks once."""
    saves = tmp_path / "saves"
    saved_knife_fight(saves)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run(
            [*tussle_command(), "--saves", str(saves), "serve", NAME, "--port", str(port)],
            capture_output=True,
            text=True,
            stdin=subprocess.DEVNULL,
            env=clean_env(),
            timeout=PATIENCE,
        )
    assert done.returncode == 1
    assert "http://" not in done.stdout
    assert f"(serve): cannot listen on 127.0.0.1:{port}: " in done.stderr


def test_a_seat_needs_the_tables_link(tmp_path: Path) -> None:
    saves = tmp_path / "saves"
    saved_knife_fight(saves)
    served = Served(saves, tmp_path / "serve.log")
    try:
        link = served.url  # waits for serve's start line
        origin = served.origin
        key = link.rsplit("/", 1)[1]
        assert len(key) >= 22  # 128 random bits, URL-safe base64
        start = served.log.read_text()
        assert f"    {link}/\n" in start
        assert "without its key, the page and its seats are refused" in start
        assert asyncio.run(page(link)).count(f"/{key}/ws") == 1
        # Wrong keys: none, a near miss, another table's, the key elsewhere in the path.
        near = key[:-1] + ("A" if key[-1] != "A" else "B")
        for path in ("/", f"/{near}/", f"/{near}", f"/{key.swapcase()}/", "/favicon.ico/"):
            assert asyncio.run(status(origin + path)) == 403, path
        for path in ("/ws", f"/{near}/ws", f"/{key}x/ws", f"/{key.swapcase()}/ws"):
            code = asyncio.run(status(f"ws://127.0.0.1:{served.port}{path}", websocket=True))
            assert code == 403, path
        for path in (f"/ws/{key}", f"/static/{key}/ws", f"/{key}/ws/"):  # no such page
            code = asyncio.run(status(f"ws://127.0.0.1:{served.port}{path}", websocket=True))
            assert code == 404, path
        assert watchers(saves) == 0  # nothing was started for them
        # With the link: the page, and a seat with the contest.
        assert asyncio.run(status(f"{link}/")) == 200
        assert asyncio.run(status(link)) == 302  # to the link's own address, with its "/"
        shown = asyncio.run(seat(link, "Exchange 2: Sly Vasquez wins"))
        assert "Cynere: ++00 → Fantastic (+6)" in shown
    finally:
        assert served.stop() == 0, served.log.read_text()
    # Another start, another key: an old link no longer opens the table.
    again = Served(saves, tmp_path / "again.log")
    try:
        assert again.url.rsplit("/", 1)[1] != key
        old = f"{again.origin}/{key}/"
        assert asyncio.run(status(old)) == 403
    finally:
        assert again.stop() == 0, again.log.read_text()


class Names(HTMLParser):
    """Every address an HTML page names for the browser to fetch or connect to."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []
        self.styles: list[str] = []
        self.in_style = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if value and (name in ("src", "href", "action", "poster") or name.endswith("-url")):
                self.found.append(value)
        self.in_style = tag == "style"

    def handle_endtag(self, tag: str) -> None:
        self.in_style = False

    def handle_data(self, data: str) -> None:
        if self.in_style:
            self.styles.append(data)


def css_names(css: str) -> list[str]:
    """The addresses a stylesheet names: ``url(...)`` and ``@import``."""
    urls = re.findall(r"url\(\s*['\"]?([^'\")]+)['\"]?\s*\)", css)
    return urls + re.findall(r"@import\s+['\"]([^'\"]+)['\"]", css)


def test_the_page_and_everything_it_names_come_from_this_server(tmp_path: Path) -> None:
    saves = tmp_path / "saves"
    saved_knife_fight(saves)
    served = Served(saves, tmp_path / "serve.log")
    origin = served.origin
    here = urlsplit(origin).netloc
    try:
        link = served.url + "/"

        async def fetch_all() -> tuple[dict[str, str], list[str], str]:
            async with aiohttp.ClientSession() as session:
                async with session.get(link) as got:
                    assert got.status == 200
                    policy = got.headers.get("Content-Security-Policy", "")
                    html = await got.text()
                names = Names()
                names.feed(html)
                named = [urljoin(link, n) for n in names.found]
                for css in names.styles:
                    named += [urljoin(link, n) for n in css_names(css)]
                fetched: dict[str, str] = {}
                for url in list(named):
                    if urlsplit(url).scheme not in ("http", "https") or url in fetched:
                        continue
                    assert urlsplit(url).netloc == here, url  # before fetching it
                    async with session.get(url) as got:
                        assert got.status == 200, url
                        body = await got.read()
                    fetched[url] = body.decode("utf-8", "replace")
                    if url.endswith(".css"):
                        named += [urljoin(url, n) for n in css_names(fetched[url])]
                return fetched, named, policy

        fetched, named, policy = asyncio.run(fetch_all())
        off_site = [n for n in named if urlsplit(n).netloc != here and not n.startswith("data:")]
        assert off_site == []
        assert {urlsplit(n).scheme for n in named} <= {"http", "ws", "data"}
        paths = {urlsplit(url).path for url in fetched}
        # The script, the terminal's CSS and the font itself, all served here.
        assert {"/static/js/textual.js", "/static/css/xterm.css"} <= paths
        assert "/static/fonts/RobotoMono-VariableFont_wght.ttf" in paths
        assert any(n.startswith(f"ws://{here}/") for n in named)  # the seat's websocket
        # And the browser is told to fetch nothing from anywhere else.
        assert "default-src 'self'" in policy and "connect-src 'self'" in policy
    finally:
        assert served.stop() == 0, served.log.read_text()


BROWSER = next(
    (found for name in ("chromium", "chromium-browser") if (found := shutil.which(name))), None
)


def logged_params(log: Path) -> list[dict[str, object]]:
    """The parameters of each event in Chromium's network log: one event a line, the
    file maybe cut short (a browser ended by a signal does not always close it)."""
    found = []
    for line in log.read_text().splitlines():
        try:
            event = json.loads(line.strip().rstrip(","))
        except ValueError:
            continue
        if isinstance(event, dict) and isinstance(event.get("params"), dict):
            found.append(event["params"])
    return found


@pytest.mark.skipif(BROWSER is None, reason="no headless browser (chromium) is installed")
def test_a_real_browser_fetches_the_page_from_this_server_alone(tmp_path: Path) -> None:
    """Chromium's own network log: every request the page made (its initiator is the
    page's origin; the browser's own calls home have none) went to this server, the
    font and the websocket among them."""
    assert BROWSER is not None
    saves = tmp_path / "saves"
    saved_knife_fight(saves)
    served = Served(saves, tmp_path / "serve.log")
    log = tmp_path / "net.json"
    try:
        link = served.url + "/"
        browser = subprocess.Popen(
            [
                BROWSER,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                f"--user-data-dir={tmp_path / 'browser'}",
                f"--log-net-log={log}",
                link,
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=clean_env(),
        )
        try:
            deadline = time.monotonic() + 60
            while not watchers(saves) and time.monotonic() < deadline:
                time.sleep(0.2)
            assert watchers(saves) == 1  # the page ran, and opened its websocket
            time.sleep(2)  # a font asked for late would still be in the log
        finally:
            browser.terminate()  # the network log is written out as it ends
            try:
                browser.wait(timeout=30)
            except subprocess.TimeoutExpired:
                browser.kill()
                browser.wait()
    finally:
        served.stop()
    asked = {
        params["url"]
        for params in logged_params(log)
        if params.get("initiator") == served.origin and "url" in params
    }
    here = urlsplit(served.origin).netloc
    assert [url for url in asked if urlsplit(url).netloc != here] == []
    paths = {urlsplit(url).path for url in asked}
    assert "/static/fonts/RobotoMono-VariableFont_wght.ttf" in paths
    assert f"{urlsplit(link).path}ws" in paths  # the websocket, at the key


def test_a_phone_seat_shows_the_score_and_the_last_exchange(tmp_path: Path) -> None:
    """A phone's browser at the page's own width (its viewport says so) has a terminal
    of some 40 columns: the score and the newest exchange show there (issue 24, item 23).
    The knife fight's second exchange: Sly Vasquez wins, Cynere's ++00 on Fight +4 is +6."""
    saves = tmp_path / "saves"
    saved_knife_fight(saves)
    served = Served(saves, tmp_path / "serve.log")
    try:
        html = asyncio.run(page(served.url))
        assert '<meta name="viewport" content="width=device-width, initial-scale=1" />' in html
        for size in ((40, 16), (40, 30)):
            shown = asyncio.run(seat(served.url, "Cynere: ++00 → Fantastic (+6)", size))
            assert "Exchange 2: Sly Vasquez wins" in shown, size
            assert "Knife fight in the alley" in shown
    finally:
        assert served.stop() == 0, served.log.read_text()
