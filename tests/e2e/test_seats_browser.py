"""Browser seats (issue 14): ``tussle serve NAME`` answers over HTTP, and over its
websocket as a browser's page does it starts a watcher of its own for each browser, whose
screen holds the contest's exchanges and none of the GM's secrets.

The campaign is tests/helpers.py's knife fight with Sly Vasquez's numbers and the Hidden
Blade hidden, after its two exchanges: the players see Cynere's dice and totals, and
``??`` for Sly's (Fight +7, 13 fate points, totals +9 and +8 are the GM's).
"""

from __future__ import annotations

import asyncio
import re
import shutil
import subprocess
import time
from pathlib import Path

import aiohttp
import pytest

from tests.e2e.seats import ESCAPES, Served, page, raw_seat, saved_knife_fight, seat, watchers
from tests.helpers import (
    NAME,
    clean_env,
    leaks,
)


def test_each_browser_gets_a_watcher_of_its_own_and_no_secret(tmp_path: Path) -> None:
    saves = tmp_path / "saves"
    saved_knife_fight(saves)
    served = Served(saves, tmp_path / "serve.log")
    try:
        html = asyncio.run(page(served.url))
        assert f"ws:{served.url.removeprefix('http:')}/ws" in html  # the key's own
        assert f"{NAME} · players&#39; view" in html or f"{NAME} · players' view" in html

        async def two_browsers() -> list[str]:
            return list(
                await asyncio.gather(
                    seat(served.url, "Exchange 2: Sly Vasquez wins"),
                    seat(served.url, "Exchange 2: Sly Vasquez wins", (60, 20)),
                )
            )

        for shown in asyncio.run(two_browsers()):
            assert "Knife fight in the alley" in shown
            assert "Cynere: ++00 → Fantastic (+6)" in shown
            assert "Sly Vasquez: ?? → ??" in shown
            assert leaks(shown) == []
    finally:
        code = served.stop()
    assert code == 0, served.log.read_text()
    deadline = time.monotonic() + 10
    while watchers(saves) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert watchers(saves) == 0  # each browser's watcher ended with its page


def test_two_open_pages_are_two_watchers(tmp_path: Path) -> None:
    saves = tmp_path / "saves"
    saved_knife_fight(saves)
    served = Served(saves, tmp_path / "serve.log")
    counted: list[int] = []

    async def open_two() -> None:
        async with aiohttp.ClientSession() as session:
            sockets = [await session.ws_connect(f"{served.url}/ws") for _ in range(2)]
            deadline = time.monotonic() + 30
            while watchers(saves) < 2 and time.monotonic() < deadline:
                await asyncio.sleep(0.1)
            counted.append(watchers(saves))
            for ws in sockets:
                await ws.close()

    try:
        asyncio.run(page(served.url))
        asyncio.run(open_two())
    finally:
        served.stop()
    assert counted == [2]


BROWSER = next(
    (found for name in ("chromium", "chromium-browser") if (found := shutil.which(name))), None
)


@pytest.mark.skipif(BROWSER is None, reason="no headless browser (chromium) is installed")
def test_a_real_browser_opens_a_seat(tmp_path: Path) -> None:
    assert BROWSER is not None
    saves = tmp_path / "saves"
    saved_knife_fight(saves)
    served = Served(saves, tmp_path / "serve.log")
    try:
        asyncio.run(page(served.url))
        browser = subprocess.Popen(
            [BROWSER, "--headless", "--no-sandbox", "--disable-gpu", served.url],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=clean_env(),
        )
        try:
            deadline = time.monotonic() + 60
            while not watchers(saves) and time.monotonic() < deadline:
                time.sleep(0.2)
            assert watchers(saves) == 1  # the page ran, and opened its websocket
        finally:
            browser.kill()
            browser.wait()
    finally:
        served.stop()


# -- what a seat may ask for (issue 30, item 9) ---------------------------------------------

MOVE = re.compile(r"\x1b\[(\d+);(\d+)H")


def drawn_size(raw: str) -> tuple[int, int]:
    """The columns and rows a terminal's screen took to draw ``raw``: the farthest cell
    written after each cursor move (Textual moves to each line's start, then writes it)."""
    width = height = 0
    moves = list(MOVE.finditer(raw))
    for move, after in zip(moves, [*moves[1:], None], strict=True):
        row, column = int(move[1]), int(move[2])
        text = ESCAPES.sub("", raw[move.end() : after.start() if after else len(raw)])
        text = text.replace("\r", "").replace("\n", "")  # a line ends with a newline
        height = max(height, row)
        width = max(width, column - 1 + len(text))
    return width, height


@pytest.mark.parametrize("asked", [(20000, 20000), (600, 300)], ids=["20000x20000", "600x300"])
def test_a_browser_gets_a_terminal_of_at_most_500x200(
    asked: tuple[int, int], tmp_path: Path
) -> None:
    saves = tmp_path / "saves"
    saved_knife_fight(saves)
    served = Served(saves, tmp_path / "serve.log")
    try:
        asyncio.run(page(served.url))
        # Asked for in the page's address and again in a resize, as a browser does.
        raw = asyncio.run(raw_seat(served.url, "Exchange 2: Sly Vasquez wins", asked))
        assert drawn_size(raw) == (500, 200)
    finally:
        served.stop()
    assert watchers(saves) == 0


async def handshake(url: str, headers: dict[str, str]) -> int:
    """The status a websocket's opening gets with these headers (101: opened)."""
    async with aiohttp.ClientSession() as session:
        try:
            async with session.ws_connect(f"{url}/ws", headers=headers) as ws:
                await ws.close()
                return 101
        except aiohttp.WSServerHandshakeError as error:
            return error.status


async def index_status(url: str, headers: dict[str, str]) -> int:
    async with aiohttp.ClientSession() as session, session.get(url, headers=headers) as got:
        return got.status


def test_a_page_of_another_site_cannot_open_a_seat(tmp_path: Path) -> None:
    saves = tmp_path / "saves"
    saved_knife_fight(saves)
    served = Served(saves, tmp_path / "serve.log")
    port = served.port
    try:
        asyncio.run(page(served.url))
        others = [
            "http://evil.example",
            f"http://evil.example:{port}",
            f"http://127.0.0.1.evil.example:{port}",
            f"http://127.0.0.1:{port + 1}",  # another program of this machine
            f"https://127.0.0.1:{port}@evil.example",
            "null",  # a sandboxed frame, a file
            "http://[::1",  # no address at all
            f"http://127.0.0.1:{port}0000",
        ]
        for origin in others:
            assert asyncio.run(handshake(served.url, {"Origin": origin})) == 403, origin
        # A site whose own name it made point at 127.0.0.1 (DNS rebinding): its page's
        # origin and the host it asks for agree, and are neither this machine's nor the
        # public URL's.
        rebound = {"Host": f"evil.example:{port}", "Origin": f"http://evil.example:{port}"}
        assert asyncio.run(handshake(served.url, rebound)) == 403
        assert asyncio.run(index_status(served.url, {"Host": f"evil.example:{port}"})) == 403
        assert asyncio.run(index_status(served.url, {"Host": "["})) == 403
        assert watchers(saves) == 0  # nothing was started for them

        # The page served here, at the address the browser used: 127.0.0.1, or localhost.
        for origin in (served.url, f"http://localhost:{port}", f"http://LOCALHOST:{port}"):
            shown = asyncio.run(
                seat(served.url, "Exchange 2: Sly Vasquez wins", headers={"Origin": origin})
            )
            assert "Cynere: ++00 → Fantastic (+6)" in shown
        local = {"Host": f"localhost:{port}", "Origin": f"http://localhost:{port}"}
        assert asyncio.run(handshake(served.url, local)) == 101
    finally:
        assert served.stop() == 0, served.log.read_text()
