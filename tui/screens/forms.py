"""A small modal form: labelled fields, Enter to accept, Escape to cancel.

Every dialog of the dashboard (an invoke, an advantage, a character, a new campaign) is
one of these, so they all work the same way from the keyboard. A form may take a
``parse``: it turns the answers into what the form gives back, or raises a
:class:`FieldError` (any ``ValueError``, a ``RuleError`` included, is the form's as a
whole). Then the form shows the message under that field, focuses it, and stays open with
everything typed kept: a bad value never throws the GM's typing away.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast, overload

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.css.query import QueryType
from textual.events import Key
from textual.geometry import Size
from textual.message import Message
from textual.reactive import Reactive
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Input, Label, Static

from core.text import control_problem, visible
from tui.fields import Answers, Field, FieldError
from tui.widgets.choice import Choice
from tui.widgets.lines import e

__all__ = ["FormScreen"]

ResultT = TypeVar("ResultT")

# What a text field can hold: anything but a control character (core.text), which a paste
# could bring (ESC, BEL, CR) and which the field itself would send to the terminal raw.
PLAIN_TEXT = r"[^\x00-\x1f\x7f-\x9f\ud800-\udfff]*"


class PlainInput(Input):
    """A text field that refuses a control character as it is typed or pasted: nothing
    is inserted, and the form says why under the field (no bell)."""

    # An Input's virtual size follows its text (one column a character), and Textual
    # lays the whole screen out whenever it changes: once for every key typed into a
    # field. A field's size here is set by the form, never by its text, so the new
    # virtual size is kept (the field scrolls by it) and the field redrawn, without a
    # layout of the screen (issue 25: most of what typing into a form cost). The same
    # reactive as Widget's, but for ``layout``.
    virtual_size = Reactive(Size(0, 0), layout=False)

    class Refused(Message):
        def __init__(self, field: PlainInput) -> None:
            super().__init__()
            self.field = field

    def __init__(self, value: str, placeholder: str, id: str) -> None:
        # A stored name that holds one (an older save) is offered written out (\x1b).
        super().__init__(
            value=visible(value), placeholder=placeholder, id=id, compact=True, restrict=PLAIN_TEXT
        )
        self._mending = False

    def restricted(self) -> None:
        self.post_message(self.Refused(self))

    def focus_to_mend(self) -> None:
        """Focus with the cursor after the text and nothing selected: a field the form
        refused is put right, not typed again (selected whole, as Tab leaves it, a
        Backspace would wipe everything the GM wrote)."""
        self._mending = True
        self.focus()

    def on_focus(self) -> None:
        # Runs before Input's own focus handler selects the text; the cursor is moved after it.
        if self._mending:
            self._mending = False
            self.call_later(self.action_end)


class FormScreen(ModalScreen[ResultT | None]):
    """Ask for ``fields``; dismiss with ``parse(answers)`` (the answers themselves when
    there is no parser), or None when cancelled."""

    DEFAULT_CSS = """
    FormScreen #dialog { overflow-y: auto; }
    FormScreen .field-error { color: $text-error; text-style: bold; }
    FormScreen .field-error.unseen { display: none; }
    """
    BINDINGS = [
        Binding("escape", "cancel", "Cancel", id="form.cancel"),
        Binding("enter", "accept", "OK", id="form.accept"),
    ]

    @overload
    def __init__(
        self: FormScreen[Answers],
        title: str,
        fields: list[Field],
        hint: str = "",
        parse: None = None,
    ) -> None: ...

    @overload
    def __init__(
        self,
        title: str,
        fields: list[Field],
        hint: str = "",
        *,
        parse: Callable[[Answers], ResultT],
    ) -> None: ...

    def __init__(
        self,
        title: str,
        fields: list[Field],
        hint: str = "",
        parse: Callable[[Answers], Any] | None = None,
    ) -> None:
        super().__init__()
        self.form_title = title
        self.fields = fields
        self.hint = hint
        self.parse: Callable[[Answers], ResultT] = cast(
            "Callable[[Answers], ResultT]", parse or dict
        )

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog") as dialog:
            dialog.border_title = self.form_title
            for f in self.fields:
                yield Label(f.label, classes="field-label", id=f"l-{f.key}")
                if f.is_choice:
                    yield Choice(list(self._options(f)), f.default, id=f"f-{f.key}")
                else:
                    yield PlainInput(f.default, placeholder=f.placeholder, id=f"f-{f.key}")
                yield Static("", id=f"e-{f.key}", classes="field-error unseen", markup=False)
            yield Static(
                self.hint or "Enter: OK · Tab: next · ←/→ or letters: choose · Esc: cancel",
                id="hint",
            )
            yield Static("", id="error")

    def on_mount(self) -> None:
        for choice in self.query(Choice):
            choice.on_change = self._choice_changed
        self._show_fields()

    def _options(self, f: Field) -> tuple[tuple[str, str], ...]:
        """A choice's options: its own, or those for the value of the field it follows."""
        if not f.follows:
            return f.choices
        leader = next((x for x in self.fields if x.key == f.follows), None)
        value = leader.default if leader is not None else ""
        if self.is_mounted:
            widget = self.query_one(f"#f-{f.follows}")
            if isinstance(widget, Choice):
                value = widget.value
        return f.choices_by.get(value, f.choices)

    def _shown(self, f: Field, answers: Answers) -> bool:
        if f.shown_when is None:
            return True
        key, value = f.shown_when
        return answers.get(key) == value

    def _show_fields(self) -> None:
        answers = self.answers()
        for f in self.fields:
            shown = self._shown(f, answers)
            for part in (f"#l-{f.key}", f"#f-{f.key}"):
                widget = self.query_one(part)
                if widget.display != shown:  # setting it lays the form out, even unchanged
                    widget.display = shown
            if not shown:
                self._set_error(f.key, "")

    def _choice_changed(self, choice: Choice) -> None:
        key = (choice.id or "").removeprefix("f-")
        for f in self.fields:
            if f.follows == key:
                follower = self.query_one(f"#f-{f.key}", Choice)
                follower.set_options(list(self._options(f)), follower.value)
        self._show_fields()
        self._set_error(key, "")

    @on(Input.Changed)
    def _typed(self, event: Input.Changed) -> None:
        """Typing into a field clears the message about it."""
        self._set_error((event.input.id or "").removeprefix("f-"), "")

    @on(PlainInput.Refused)
    def _refused(self, event: PlainInput.Refused) -> None:
        key = (event.field.id or "").removeprefix("f-")
        label = next((f.label for f in self.fields if f.key == key), "This field")
        self._set_error(key, f"▲ {label} takes plain text: a control character was left out")

    # Tab goes through the fields in the order they are asked, skipping hidden ones. (The
    # screen's own order goes by position on screen, and a field shown by the key just
    # before has none until the next layout: a quick ←, Tab would skip it.)
    def _focus_order(self) -> list[Widget]:
        order = [self.query_one(f"#f-{f.key}") for f in self.fields]
        return [w for w in order if w.display and not w.disabled]

    def _step_focus(self, step: int) -> Widget | None:
        order = self._focus_order()
        if not order:
            return None
        at = order.index(self.focused) if self.focused in order else -1 if step > 0 else 0
        target = order[(at + step) % len(order)]
        self.set_focus(target)
        return target

    def focus_next(self, selector: str | type[QueryType] = "*") -> Widget | None:
        return self._step_focus(1) if selector == "*" else super().focus_next(selector)

    def focus_previous(self, selector: str | type[QueryType] = "*") -> Widget | None:
        return self._step_focus(-1) if selector == "*" else super().focus_previous(selector)

    def answers(self) -> Answers:
        out: Answers = {}
        for f in self.fields:
            widget = self.query_one(f"#f-{f.key}")
            if isinstance(widget, Choice):
                out[f.key] = widget.value
            elif isinstance(widget, Input):
                out[f.key] = widget.value.strip()
        return out

    def _set_error(self, key: str, message: str) -> None:
        found = self.query(f"#e-{key}")
        if found:
            line = found.first(Static)
            if not message and line.has_class("unseen"):
                return  # none shown: each key typed into a field clears its message, and
                # an update would lay the form out again for every one (issue 25)
            line.update(visible(message))  # a message may quote what was typed
            line.set_class(not message, "unseen")

    def fail(self, message: str, key: str | None = None) -> None:
        """Show a problem and keep the form open: under field ``key`` (focused), or at
        the foot of the form when no one field is at fault."""
        for f in self.fields:
            self._set_error(f.key, "")
        self.query_one("#error", Static).update("")
        known = key is not None and any(f.key == key for f in self.fields)
        if key is None or not known:
            self.query_one("#error", Static).update(f"[b $text-error]{e(message)}[/]")
            return
        self._set_error(key, f"▲ {message}")
        widget: Widget = self.query_one(f"#f-{key}")
        if widget.display:
            if isinstance(widget, PlainInput):
                widget.focus_to_mend()
            else:
                widget.focus()
            widget.scroll_visible()

    # A number typed on a choice that hands its digits on (Field.typed_to): the digit or
    # sign goes to the end of that field, which takes the focus (nothing selected, so the
    # next digit follows it).
    NUMBER_KEYS = frozenset("0123456789+-−")

    def on_key(self, event: Key) -> None:
        focused = self.focused
        char = event.character
        if not isinstance(focused, Choice) or char is None or char not in self.NUMBER_KEYS:
            return
        key = (focused.id or "").removeprefix("f-")
        field = next((f for f in self.fields if f.key == key), None)
        if field is None or not field.typed_to:
            return
        target = self.query_one(f"#f-{field.typed_to}")
        if not isinstance(target, PlainInput) or not target.display:
            return
        event.stop()
        target.value += char
        target.focus_to_mend()

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_accept()

    def action_accept(self) -> None:
        answers = self.answers()
        for f in self.fields:
            # A choice is always answered, even by a choice whose value is "" ("No
            # relevant ability: 6"); "required" is about text left blank.
            if f.required and not f.is_choice and self._shown(f, answers) and not answers[f.key]:
                self.fail("required: type a value here (Esc cancels the form)", f.key)
                return
            problem = control_problem(answers[f.key], f.label) if not f.is_choice else None
            if problem is not None and self._shown(f, answers):
                self.fail(problem, f.key)  # a value set without typing it (not by a GM)
                return
        try:
            result = self.parse(answers)
        except FieldError as error:
            self.fail(error.message, error.key)
            return
        except ValueError as error:  # a RuleError the parser did not pin on a field
            self.fail(str(error))
            return
        self.dismiss(result)

    def action_cancel(self) -> None:
        self.dismiss(None)
