"""The dashboard's quick roll: a roll outside any contest (``ctrl+r`` on the contest screen
and the roster), asked in a small form, read by the campaign's system (core.campaign.quick_roll),
sent to the bus as one GM action (so ``u`` takes it back), and shown with its chance once
the log has it. Which system reads the roll is the campaign's: nothing here names one.
(core.campaign.quick_roll is loaded with the first roll: the contest screen, shown first, needs
only the key.)"""

from __future__ import annotations

from textual.app import App
from textual.binding import Binding
from textual.screen import Screen

from core.campaign.log import ActionRecorded, ActionRedone, ActionUndone, QuickRoll
from core.rules import system_title
from tui.fields import Answers, Field, blame
from tui.host import host


def binding(prefix: str = "") -> Binding:
    """The quick roll's key on a screen (``prefix``: the screen's binding ids' own, like
    ``roster.``): ctrl+r, free on every screen that has it and on the keypad."""
    return Binding("ctrl+r", "quick_roll", "Quick roll", id=f"{prefix}quick_roll", show=False)


def ask_quick_roll(screen: Screen[None]) -> None:
    """The form: the roll (``4dF+3 vs 2``) and, optionally, the dice the table rolled; on
    Enter the campaign decides it (a roll it cannot read keeps the form open, the problem
    under its field) and the bus logs it."""
    from core.campaign.quick_roll import examples, parse_dice, quick_rolls_of, read, roll_dice
    from tui.screens.forms import FormScreen

    tussle = host(screen.app)
    if tussle.read_only:
        tussle.notify(
            "This campaign is open read-only: a roll here would not be saved.",
            title="Read-only",
            severity="warning",
        )
        return
    system = tussle.campaign.system
    rolls = quick_rolls_of(system)
    if rolls is None:
        tussle.notify(
            f"{system_title(system)} has no quick rolls: roll in a contest.", severity="warning"
        )
        return

    def parse(answers: Answers) -> QuickRoll:
        expression = " ".join(answers["expression"].split())
        with blame("expression"):
            _, reading = read(expression, system)
        with blame("dice"):
            typed = answers["dice"]
            faces = parse_dice(reading, typed) if typed else roll_dice(reading, tussle.dice)
        command = QuickRoll(expression=expression, faces=faces)
        with blame("expression"):
            tussle.campaign.decide(command)  # a pure check: what the log will take
        return command

    def done(command: QuickRoll | None) -> None:
        if command is not None:
            tussle.send(command)

    fields = [
        Field("expression", f"Roll, like {examples(system)}", placeholder=rolls.examples[0]),
        Field(
            "dice",
            "Dice from the table, as on the keypad (blank: Tussle rolls)",
            placeholder="Tussle rolls",
            required=False,
        ),
    ]
    screen.app.push_screen(FormScreen("A quick roll", fields, parse=parse), done)


def tell_roll(app: App[None], entry: ActionRecorded | ActionUndone | ActionRedone) -> None:
    """Once the log has a quick roll (made or redone), show it with its chance."""
    tussle = host(app)
    action = entry if isinstance(entry, ActionRecorded) else None
    if isinstance(entry, ActionRedone):
        action = tussle.campaign.actions.get(entry.action_id)
    if action is None or not isinstance(action.command, QuickRoll):
        return
    rolled = next((r for i, r in tussle.campaign.rolls if i == action.action_id), None)
    if rolled is None:
        return
    from core.campaign.quick_roll import dice_text

    dice = f"{dice_text(rolled.faces)} → " if rolled.faces else ""
    lines = [f"{rolled.expression}: {dice}{rolled.outcome}", *rolled.details, rolled.chance]
    lines = [line for line in lines if line]
    from tui.screens.contest_paint import Painter
    from tui.widgets.lines import e

    painter = getattr(app.screen, "painter", None)  # a contest screen's
    if isinstance(painter, Painter) and painter.keypad_open():  # not over the keypad
        painter.say_aside(f"[b]Quick roll[/b] {e(' · '.join(lines))}")
        return
    tussle.notify("\n".join(lines), title="Quick roll", timeout=20)
