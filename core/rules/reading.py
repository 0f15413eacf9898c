"""Reading scenario JSON with a place for every problem (``exchanges[0].rolls.Teran``).

A :class:`Node` is one JSON value with its path. Its getters check types, ranges and
unknown keys and raise :class:`ScenarioError` naming the exact place, so the per-system
readers read like the spec they implement. :class:`SystemReader` is what each rule
system's ``scenario`` module provides, and the helpers below it read what every system's
scenario has (the participants and their sides).
"""

from __future__ import annotations

import json
import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Collection, Iterable, Iterator
from typing import Any, NoReturn, TypeVar

from core.limits import SIZE, field_problem
from core.model import Command, Contest, Participant
from core.text import refuse_control

FORBIDDEN_IN_NAMES = ".[]"


class ScenarioError(Exception):
    """Invalid scenario input: ``str()`` is the one ``PLACE: PROBLEM`` line."""

    def __init__(self, place: str, problem: str) -> None:
        super().__init__(f"{place}: {problem}")
        self.place = place
        self.problem = problem


def _type_name(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a number with a fraction or exponent"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    return "an object"


def is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class Node:
    """A JSON value at ``place`` (``""`` for the root)."""

    __slots__ = ("place", "value")

    def __init__(self, value: Any, place: str = "") -> None:
        self.value = value
        self.place = place

    # -- places ---------------------------------------------------------------------------
    def child_place(self, key: str | int) -> str:
        if isinstance(key, int):
            return f"{self.place}[{key}]"
        return f"{self.place}.{key}" if self.place else key

    def fail(self, problem: str) -> NoReturn:
        raise ScenarioError(self.place or "(root)", problem)

    def fail_key(self, key: str | int, problem: str) -> NoReturn:
        raise ScenarioError(self.child_place(key), problem)

    # -- shapes ---------------------------------------------------------------------------
    def expect_object(self, what: str = "an object") -> dict[str, Any]:
        if not isinstance(self.value, dict):
            self.fail(f"expected {what}, got {_type_name(self.value)}")
        return self.value

    def expect_list(self) -> list[Any]:
        if not isinstance(self.value, list):
            self.fail(f"expected a list, got {_type_name(self.value)}")
        return self.value

    def check_keys(self, allowed: Iterable[str]) -> None:
        """Unknown keys are errors (a typo must never be silently ignored)."""
        allowed = set(allowed)
        for key in self.expect_object():
            if key not in allowed:
                self.fail_key(key, "unknown key")

    def has(self, key: str) -> bool:
        """True when ``key`` is present and not null (null takes the default)."""
        return self.expect_object().get(key) is not None

    def get(self, key: str) -> Node | None:
        raw = self.expect_object().get(key)
        return None if raw is None else Node(raw, self.child_place(key))

    def need(self, key: str) -> Node:
        node = self.get(key)
        if node is None:
            self.fail_key(key, "missing")
        return node

    # -- scalars --------------------------------------------------------------------------
    def as_int(self, minimum: int | None = None, maximum: int | None = None) -> int:
        if not is_int(self.value):
            self.fail(f"expected an integer, got {_type_name(self.value)}")
        value: int = self.value
        if abs(value) > SIZE:  # as a save's log or an import is checked
            self.fail(f"must be at most {SIZE} in size")
        if minimum is not None and value < minimum:
            self.fail(f"must be at least {minimum}, got {value}")
        if maximum is not None and value > maximum:
            self.fail(f"must be at most {maximum}, got {value}")
        return value

    def as_field(self, of: type, name: str) -> int:
        """A whole number for field ``name`` of ``of``: within the limit declared there
        (core.limits), in the same words as the forms and the loader."""
        value = self.as_int()
        problem = field_problem(of, name, value)
        if problem is not None:
            self.fail(problem)
        return value

    def as_str(self, choices: Collection[str] | None = None) -> str:
        if not isinstance(self.value, str):
            self.fail(f"expected a string, got {_type_name(self.value)}")
        refuse_control(self.value, "the text", lambda problem: ScenarioError(self.place, problem))
        if choices is not None and self.value not in choices:
            self.fail(f'"{self.value}" is not one of {", ".join(choices)}')
        return self.value

    def as_bool(self) -> bool:
        if not isinstance(self.value, bool):
            self.fail(f"expected true or false, got {_type_name(self.value)}")
        return self.value

    def as_name(self) -> str:
        """A participant or side name: non-empty, without ``.``, ``[`` or ``]``."""
        name = self.as_str()
        if not name:
            self.fail("a name cannot be empty")
        bad = [ch for ch in FORBIDDEN_IN_NAMES if ch in name]
        if bad:
            self.fail(f'a name cannot contain "{bad[0]}"')
        return name

    def as_nonempty_str(self) -> str:
        text = self.as_str()
        if not text:
            self.fail("cannot be empty")
        return text

    # -- keyed getters with defaults ------------------------------------------------------
    def int_(self, key: str, default: int | None = None, of: type | None = None) -> int:
        """Whole number ``key`` (``default`` when absent; None: it is required); ``of``:
        the type whose field ``key`` it fills, whose declared limit it keeps."""
        node = self.get(key)
        if node is None:
            if default is None:
                self.fail_key(key, "missing")
            return default
        return node.as_int() if of is None else node.as_field(of, key)

    def str_(self, key: str, default: str, choices: Collection[str] | None = None) -> str:
        node = self.get(key)
        return default if node is None else node.as_str(choices)

    def bool_(self, key: str, default: bool) -> bool:
        node = self.get(key)
        return default if node is None else node.as_bool()

    def items(self) -> Iterator[Node]:
        for i, raw in enumerate(self.expect_list()):
            yield Node(raw, self.child_place(i))

    def entries(self) -> Iterator[tuple[str, Node]]:
        """A map keyed by names; a null entry counts as left out."""
        for key, raw in self.expect_object().items():
            if raw is not None:
                yield key, Node(raw, self.child_place(key))


def parse_json(data: bytes) -> Any:
    """Parse RFC 8259 JSON strictly, with ``(json): line L column C: ...`` on failure."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise ScenarioError("(json)", f"line {line} column {column}: not UTF-8") from None
    if text.startswith("\ufeff"):
        raise ScenarioError("(json)", "line 1 column 1: a byte-order mark is not allowed")

    def no_constants(name: str) -> Any:
        raise _NotJSON(name)

    try:
        return json.loads(text, parse_constant=no_constants)
    except json.JSONDecodeError as exc:
        raise ScenarioError("(json)", f"line {exc.lineno} column {exc.colno}: {exc.msg}") from None
    except _NotJSON as exc:
        line, column = _position_of_constant(text)
        raise ScenarioError("(json)", f"line {line} column {column}: {exc} is not JSON") from None
    except RecursionError:
        raise ScenarioError("(json)", "line 1 column 1: nested too deeply") from None
    except ValueError:  # an integer of more digits than Python converts (4,300)
        match = re.search(r"\d{4000,}", text)
        start = match.start() if match else 0
        line, column = text.count("\n", 0, start) + 1, start - (text.rfind("\n", 0, start) + 1) + 1
        raise ScenarioError("(json)", f"line {line} column {column}: a number too long") from None


class _NotJSON(ValueError):
    """NaN or Infinity: Python's json accepts them, RFC 8259 does not."""


_STRING_OR_CONSTANT = re.compile(r'"(?:[^"\\]|\\.)*"|NaN|-?Infinity')


def _position_of_constant(text: str) -> tuple[int, int]:
    for match in _STRING_OR_CONSTANT.finditer(text):
        if not match.group().startswith('"'):
            start = match.start()
            return text.count("\n", 0, start) + 1, start - (text.rfind("\n", 0, start) + 1) + 1
    return 1, 1


# -- what every system's scenario has ----------------------------------------------------

P = TypeVar("P", bound=Participant)
Steps = Iterable[tuple[str, Command]]


class SystemReader(ABC):
    """How one system's scenarios read (see scenario.md): its plug-in's ``scenario``.
    ``read_contest`` and ``exchange_steps`` are each system's own; a system whose
    scenarios have no keys of their own at the top and say nothing of the coming
    exchange keeps the defaults of the rest."""

    top_keys: frozenset[str] = frozenset()  # top-level keys beyond system/options/...
    exchange_keys: frozenset[str] = frozenset()
    next_keys: frozenset[str] = frozenset()  # ``next``'s: what is known of the coming exchange

    @abstractmethod
    def read_contest(self, root: Node) -> Contest:
        """Options, participants (and aspects), in that order, as the starting contest."""

    @abstractmethod
    def exchange_steps(self, ex: Node, current: Callable[[], Contest]) -> Steps:
        """The exchange's commands in order, each with the place a rule error names.

        Lazy: ``current()`` is the contest after the commands yielded so far.
        """

    def next_steps(self, node: Node | None, current: Callable[[], Contest]) -> Steps:
        """``next``'s commands for the coming exchange (``tussle odds``), each with the
        place a rule error names; also the commands a missing ``next`` (``None``) implies
        (the previous exchange's parties...). Lazy, like ``exchange_steps``. None by
        default."""
        return iter(())


def read_participants(
    root: Node, keys: Iterable[str], build: Callable[[Node, str, str], P]
) -> tuple[P, ...]:
    """``participants``: a list of objects with ``name``, optional ``side`` and ``keys``.

    ``build(item, name, side)`` reads the system's own fields. Names are unique and
    there must be at least two sides.
    """
    allowed = {"name", "side", *keys}
    node = root.need("participants")
    seen: set[str] = set()
    out: list[P] = []
    for item in node.items():
        item.check_keys(allowed)
        name = item.need("name").as_name()
        side_node = item.get("side")
        side = name if side_node is None else side_node.as_name()
        if name in seen:
            item.fail_key("name", f'"{name}" is listed twice')
        seen.add(name)
        out.append(build(item, name, side))
    if len({p.side for p in out}) < 2:
        node.fail("a contest needs at least two sides")
    return tuple(out)


def name_in(node: Node, names: Iterable[str], what: str = "participant") -> str:
    """A string that must be one of ``names``: ``no participant "Zird"`` otherwise."""
    name = node.as_str()
    if name not in set(names):
        node.fail(f'no {what} "{name}"')
    return name


def missing_next(node: Node | None, key: str, why: str) -> NoReturn:
    """``next.KEY: missing (why)``, or ``next: missing (why: give next.KEY)`` without
    a ``next``."""
    if node is None:
        raise ScenarioError("next", f"missing ({why}: give next.{key})")
    node.fail_key(key, f"missing ({why})")
