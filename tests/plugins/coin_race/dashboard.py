"""The coin race on the dashboard (:class:`tui.systems.SystemView`): the scoreboard's
points, who flips and their luck, the keypad's coins (1 tails, 2 heads), what committing
would do, the odds beside each side; one key (``l``: flip again, for a point of luck), no
ratings on the roster, one option (the target)."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from textual.binding import Binding

from core.campaign import ContestRecord
from core.errors import RuleError
from core.model import Contest
from tests.plugins.coin_race.rules import D2, FACE_NAMES, CoinContest, Reflip, flippers, scorer
from tui.draft import Draft, Preview, faces_of
from tui.fields import Answers, Field, FieldError
from tui.systems import SystemView
from tui.systems.common import cell, cells, e, hidden_mark, pct, pips, secret_heading
from tui.systems.roster_part import RosterPart
from tui.systems.screen_part import ContestActions, Key, ScreenPart
from tui.systems.setup_part import SetupPart
from tui.widgets.keypad import KeypadRow


def _own(state: Contest) -> CoinContest:
    assert isinstance(state, CoinContest)
    return state


def _coin(typed: str) -> int | None:
    faces = faces_of(D2, typed)
    return None if faces is None else faces[0]


def _reflip(screen: ContestActions) -> None:
    """``l``: the flipper under the cursor spends a point of luck to flip again."""
    who = screen.current() or ""
    screen.ask(
        f"{who} flips again (a point of luck)",
        [Field("coin", "The new coin: 1 tails, 2 heads")],
        lambda a: Reflip(who=who, faces=(_typed_coin(a["coin"]),)),
        rule_field="coin",
    )


def _typed_coin(text: str) -> int:
    face = _coin(text.strip())
    if face is None:
        raise FieldError("coin", f'"{text}" is not a coin: 1 tails, 2 heads')
    return face


def _no_rating(text: str) -> int:
    raise RuleError("a coin race has no ratings: leave them blank")


def _options(a: Answers) -> dict[str, Any]:
    text = a["target"].strip()
    if not text.isdigit() or int(text) < 1:
        raise FieldError("target", f'"{text}" is not a number of points (1 or more)')
    return {"target": int(text)}


class CoinView(SystemView):
    SCREEN = ScreenPart(
        keys=(Key("modifier", Binding("l", "reflip", "Flip again", id="reflip"), _reflip),)
    )

    def score(self, record: ContestRecord) -> tuple[str, dict[str, str]]:
        c = _own(record.state)
        need = c.options.target
        return f"Coin race · first to {need}", {
            side: f"[$accent]{pips(c.points.get(side, 0), need)}[/] {c.points.get(side, 0)}"
            for side in c.sides
        }

    def participants(self, record: ContestRecord) -> list[str]:
        c = _own(record.state)
        flipping = set(flippers(c))
        lines = secret_heading(record)
        for side in c.sides:
            for p in c.members(side):
                role = "flips" if p.name in flipping else "cheers"
                team = f" ({e(side)})" if side != p.name else ""
                luck = f" · luck {c.luck.get(p.name, 0)}"
                lines.append(
                    f"[b]{e(p.name)}[/b]{team} · {role}{luck}{hidden_mark(record, p.name)}"
                )
        return lines

    def aspects(
        self, state: Contest, hidden: Collection[str] = (), players: bool = False
    ) -> list[str]:
        target = _own(state).options.target
        return [f"First to {target} points", "A lone heads scores; anything else is a tie"]

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
        return RosterPart(ratings_label="Ratings (none: leave blank)", parse_rating=_no_rating)

    def setup(self) -> SetupPart:
        return SetupPart(
            no_skill="A coin",
            typed_example="none: a coin is a coin",
            option_fields=(Field("target", "Points to reach", "3"),),
            options_from=_options,
        )


VIEW = CoinView()
