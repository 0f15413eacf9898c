"""Secrets kept from the players: what the GM hides, and lines built from marked parts.

The GM hides a participant's numbers, an aspect, or a whole contest (``ToggleSecret`` in
:mod:`core.campaign.actions`). Each rule system's ``describe(event, secrets)`` builds its lines
from plain text and :class:`Part` s, each part saying whose secret it is; :func:`render`
joins them, writing a hidden part's ``mask`` (``??``) instead of its text. So what the
players may see is decided where the line is written, value by value, whatever its
wording: the players' view (``tussle watch``) and the recap show the lines rendered with
the contest's :class:`Secrets`; the GM's panes render them with none.

Which values a system marks, and what stays in sight, is written beside its ``describe``
(``core.systems.fate``, ``heroquest``, ``forge``). A hidden aspect's name is ``??``
everywhere.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import msgspec

HIDDEN = "??"


class Secrets(msgspec.Struct, frozen=True):
    """What one contest keeps from the players: everything (``contest``), the numbers
    of some participants (and so the totals of their sides), some aspects' names."""

    contest: bool = False
    participants: frozenset[str] = frozenset()
    sides: frozenset[str] = frozenset()  # the sides with a hidden member
    aspects: frozenset[str] = frozenset()

    def __bool__(self) -> bool:
        return self.contest or bool(self.participants or self.aspects)

    def participant(self, name: str) -> bool:
        return self.contest or name in self.participants

    def side(self, name: str) -> bool:
        return self.contest or name in self.sides

    def aspect(self, name: str) -> bool:
        return self.contest or name in self.aspects


NO_SECRETS = Secrets()


# -- lines from parts -----------------------------------------------------------------------


class Part(msgspec.Struct, frozen=True):
    """A piece of a line that some participant, side or aspect keeps secret: hidden when
    any of ``of`` (participants) or ``sides`` is hidden, or, for an ``aspect``, when the
    aspect named ``text`` is. Hidden, it shows as ``mask``."""

    text: str
    of: tuple[str, ...] = ()
    sides: tuple[str, ...] = ()
    aspect: bool = False
    mask: str = HIDDEN

    def hidden(self, secrets: Secrets) -> bool:
        if self.aspect and secrets.aspect(self.text):
            return True
        return any(secrets.participant(n) for n in self.of) or any(
            secrets.side(s) for s in self.sides
        )


Line = Sequence["str | Part"]


def secret(value: object, *of: str | None, mask: str = HIDDEN) -> Part:
    """``value`` (a number, a roll, a rating) as the secret of the participants ``of``."""
    return Part(str(value), of=tuple(n for n in of if n), mask=mask)


def side_secret(value: object, *sides: str, mask: str = HIDDEN) -> Part:
    """``value`` as the secret of ``sides``: hidden when any has a hidden member."""
    return Part(str(value), sides=sides, mask=mask)


def aspect_name(name: str) -> Part:
    """An aspect's name, ``??`` when the GM hides that aspect."""
    return Part(name, aspect=True)


def render(line: Line, secrets: Secrets = NO_SECRETS) -> str:
    """``line`` as text, each part the ``secrets`` hide written as its mask."""
    return "".join(
        piece if isinstance(piece, str) else piece.mask if piece.hidden(secrets) else piece.text
        for piece in line
    )


def render_all(lines: Iterable[Line], secrets: Secrets = NO_SECRETS) -> list[str]:
    return [render(line, secrets) for line in lines]
