"""The coin race on the dashboard (:class:`tui.systems.SystemView`): the scoreboard's
points, the keypad's coins (1 tails, 2 heads) and verdict, the odds; one key (``l``: flip
again, for a point of luck). The participants, roster and options are the defaults'."""

from __future__ import annotations

from typing import Any

from textual.binding import Binding

from core.campaign.state import ContestRecord
from core.model import Contest, RollDice
from tests.plugins.coin_race.rules import (
    D2,
    FACE_NAMES,
    CoinContest,
    CoinOptions,
    CoinSheet,
    scorer,
)
from tests.plugins.coin_race.sheet import SHEET
from tui.draft import Draft, Preview, faces_of
from tui.fields import Field
from tui.systems import SystemView
from tui.systems.common import cell, cells, pct, pips
from tui.systems.roster_part import RosterPart, sheet_roster
from tui.systems.screen_part import ContestActions, ContestKeys, Key, ScreenPart
from tui.systems.setup_part import SetupPart, options_part
from tui.widgets.keypad import KeypadRow
from tui.widgets.lines import e


def _own(state: Contest) -> CoinContest:
    assert isinstance(state, CoinContest)
    return state


def _coin(typed: str) -> int | None:
    faces = faces_of(D2, typed)
    return None if faces is None else faces[0]


def _reflip(screen: ContestActions) -> None:
    """``l``: a flipper with luck spends a point of it to flip again (the one under the
    keypad's cursor first)."""
    luck = _own(screen.state).luck
    lucky = [w for w in screen.slots() if luck.get(w, 0) > 0]
    if not lucky:
        screen.notify("Nobody who flips has any luck left", severity="warning")
        return
    who = next((w for w in lucky if w == screen.current()), lucky[0])
    screen.ask(
        f"{who} flips again (a point of luck)",
        [Field("coin", "The new coin: 1 tails, 2 heads")],
        lambda a: RollDice(who=who, faces=faces_of(D2, a["coin"].strip()) or ()),
        rule_field="coin",  # a coin that is not one: the rules' words, under it
    )


class CoinKeys(
    ContestKeys, keys=(Key("modifier", Binding("l", "reflip", "Flip again", id="reflip"), _reflip),)
):
    """``l``: flip again, for a point of luck."""


class CoinView(SystemView):
    SCREEN = ScreenPart(keys=CoinKeys)

    def score(self, record: ContestRecord) -> tuple[str, dict[str, str]]:
        c = _own(record.state)
        need = c.options.target
        return f"Coin race · first to {need}", {
            side: f"[$accent]{pips(c.points.get(side, 0), need)}[/] {c.points.get(side, 0)}"
            for side in c.sides
        }

    def rows(self, preview: Preview, draft: Draft) -> list[KeypadRow]:
        out = []
        flips = _own(preview.state).flips  # a coin flipped again shows as it fell last
        for i, who in enumerate(preview.slots):
            typed = draft.typed.get(who, "")
            face = flips.get(who, _coin(typed))
            shown = FACE_NAMES[face] if face is not None else "1 tails, 2 heads"
            out.append(KeypadRow(who, cells(typed, 1), shown, i == draft.cursor))
        return out

    def verdict(self, preview: Preview, draft: Draft) -> str:
        c = _own(preview.state)
        coins = {c.participant(w).side: c.flips.get(w) for w in preview.slots}
        if not coins or any(face is None for face in coins.values()):
            return ""
        side = scorer({s: f for s, f in coins.items() if f is not None})
        return "⇒ a tie: nobody scores" if side is None else f"⇒ [b]{e(side)}[/b] would score"

    def odds_cells(
        self, exchange: dict[str, Any], contest_odds: dict[str, float | None], state: Contest
    ) -> tuple[dict[str, str], str]:
        return {
            side: cell(o["win"], contest_odds.get(side), "race")
            for side, o in exchange["sides"].items()
        }, f"tie {pct(exchange['tie'])}"

    def roster(self) -> RosterPart:
        return sheet_roster(CoinSheet, ratings_label="No ratings", parse_rating=SHEET.typed_rating)

    def setup(self) -> SetupPart:
        return options_part(CoinOptions, no_skill="A coin", typed_example="none: a coin")


VIEW = CoinView()
