"""Keys typed together, handled one after the other (a mixin of the dashboard's app).

Textual sends each key to the widget focused when the key *arrives*: it posts it to that
widget's queue and goes on to the next key at once. Keys that arrive together (a GM
typing fast, a slow SSH link, tmux send-keys) all went to the same widget before the
first had moved the focus or opened a form: Tab Tab "Lore" typed into the field the Tabs
were leaving. So a key goes only when the one before is done with: every widget of the
screen has handled what it had (as Pilot waits between keys), and what the key sent
elsewhere too (the app's ``commands_pending``: the dashboard's bus). Keys arriving
meanwhile wait here, in order (mouse events do not). The app's own loop never waits: it
looks between its messages. A key typed alone goes at once, as before.

"Done with" is told with Textual's public API alone, as its own Pilot waits between
keys: a round of callbacks (``events.Callback``, what ``call_later`` posts) to the app
and every node of the screen (each runs once the node has handled what it held), while
each node's ``message_signal`` counts the messages the nodes handle meanwhile. A round in
which no node handled anything but the round's own callbacks, after which no queue holds
a message (``message_queue_size``) and the same screen shows, is the end of the key:
nothing is left going on that the key started. Otherwise another round looks again.

While a key is still moving, a round looks only where it moves: the app, the screen,
the nodes with a message queued and those that handled one during the round before
(a key typed into the keypad is some five rounds, hopping from widget to widget, and a
callback to each of a form's hundred idle nodes every round was most of what a key
cost). Only a round over every node can end the key, so a node still inside a handler
of its own (its queue empty) is waited for exactly as before.

A key is held for as long as it is being handled, however long that takes: on a busy
machine (a GM's laptop running the players' view, a video call, a backup) the app may
wait for a core for seconds, and a next key sent before its time lands in the wrong
place (a form not yet mounted, the field a Tab was leaving). Only a key that is *stuck*
lets the next one go: for a whole KEY_CHECK_SECONDS nothing moved (no node of the screen
came back from a round, no round started, no command is on its way through the bus).
Wall time alone never does.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from collections.abc import Callable, Coroutine
from functools import partial
from typing import TYPE_CHECKING, Any
from weakref import WeakSet

from textual import events
from textual.app import App
from textual.dom import DOMNode
from textual.message import Message
from textual.message_pump import MessagePump
from textual.screen import Screen
from textual.timer import Timer

# Rounds of "has every widget of the screen handled what it had?" a key waits for before
# the next one goes: enough for a key to bubble up a deep screen and the form it opens to
# mount; past that (a widget that never stops posting), the next key goes anyway.
KEY_SETTLE_ROUNDS = 40
# How often the key in hand is checked for being stuck (see the module's docstring): a
# key that moved during the last check waits for the next one; one that did not (a
# widget that never answers) lets the next key go. A period to look, not a time limit.
KEY_CHECK_SECONDS = 1.0
# Letters (and spaces) typed together this many in a row are text, not keys: a name
# meant for a prompt ("Twist A"), not w (roster) then i (invoke).
TEXT_RUN = 3


def _letter(event: events.Key | events.Paste) -> bool:
    character = event.character if isinstance(event, events.Key) else None
    return (
        character is not None and len(character) == 1 and (character.isalpha() or character == " ")
    )


def _waiting(pump: MessagePump) -> bool:
    """Whether a message waits in ``pump``'s queue."""
    return pump.message_queue_size > 0


class KeysInOrder(App[None]):
    """An app whose keys are handled one after the other, however fast they come."""

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        # Keys (and pastes) typed behind one still being handled, in order (on_event).
        self._held_keys: deque[events.Key | events.Paste] = deque()
        self._key_in_hand = False
        self._key_round = 0  # the look at the screen a key waits on (stale ones ignored)
        self._key_guard: Timer | None = None
        self._draining: asyncio.Task[None] | None = None  # a key waiting on the app
        # The keys of the burst the key in hand belongs to (keys typed together: each
        # came while the one before was in hand), those sent so far; whether the key in
        # hand is a letter inside text typed in that burst; letters a screen refused so.
        self._burst: list[events.Key | events.Paste] = []
        self._text_in_hand = False
        self._text_refused: list[tuple[str, str]] = []  # (the text, the letter)
        self._text_run = ""  # the text the key in hand is a letter of
        self._refused_key: events.Key | None = None
        # The nodes whose handled messages the app counts while a key is in hand (their
        # message_signal), the messages counted, and the callback of the round looking.
        self._watched: WeakSet[MessagePump] = WeakSet()
        self._handled = 0
        self._active: set[MessagePump] = set()  # the nodes that handled those messages
        self._round_callback: Callable[[], None] | None = None
        self._burst_screen: object = None  # the screen the burst's last key was sent to
        # What moved while the key is in hand (rounds started, and each node's callback of
        # a round come back), as last checked (_check_key). Not any message handled: a
        # cursor's blink moves nothing a key waits for.
        self._moves = 0
        self._moves_checked = -1
        self._keys_done = asyncio.Event()  # set while no key is in hand or held
        self._keys_done.set()

    @property
    def keys_in_hand(self) -> int:
        """Keys (and pastes) typed and not yet done with: the one being handled and those
        waiting behind it (0 once every key typed so far has had all its effects)."""
        return len(self._held_keys) + (1 if self._key_in_hand else 0)

    async def keys_handled(self) -> None:
        """Wait until every key typed so far is done with (:attr:`keys_in_hand` is 0), or
        the app exits (a key closed it: no screen is left to finish the keys)."""
        while not self._keys_done.is_set() and self.return_code is None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._keys_done.wait(), KEY_CHECK_SECONDS / 10)

    def commands_pending(self) -> Coroutine[Any, Any, None] | None:
        """What to wait for before the next key, beyond the screen (None: nothing)."""
        return None

    # Textual sends each key to the widget focused when the key *arrives*: it posts it to
    # that widget's queue and goes on to the next key at once. Keys that arrive together (a
    # GM typing fast, a slow SSH link, tmux send-keys) all went to the same widget before
    # the first had moved the focus or opened a form: Tab Tab "Lore" typed into the field
    # the Tabs were leaving. So a key goes only when the one before is done with: every
    # widget of the screen has handled what it had (as Pilot waits between keys), and the
    # bus what it sent (a contest started, its screen shown). Keys arriving meanwhile wait
    # here, in order (mouse events do not). The app's own loop never waits: it looks
    # between its messages. A key typed alone goes at once, as before.
    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, events.Key | events.Paste) and not event.is_forwarded:
            if self._key_in_hand:
                self._held_keys.append(event)
                return
            self._key_in_hand = True
            self._keys_done.clear()
            self._burst = []  # a key typed alone starts a burst
            await self._send_key(event)
            return
        await super().on_event(event)

    # Typing meant for a prompt that did not appear (a tie's twist, when the exchange was
    # no tie) must not land in a screen's keys: "Twist A" opened the roster (w), and the
    # dice after it renamed a character there (issue 24, item 20). A screen whose keys
    # are letters asks :meth:`typing_text` in its ``check_action`` and refuses the key.
    def typing_text(self) -> bool:
        """Whether the key in hand is a letter (or space) inside text typed in one burst
        (three or more letters and spaces in a row), after the first of them: the first
        may open the prompt the rest is for (``a`` then a name, typed fast)."""
        return self._text_in_hand

    def refuse_text_key(self) -> None:
        """A screen did not take the letter in hand as a key (:meth:`typing_text`): the
        GM is told once the burst is over, with all the letters refused."""
        event = self._burst[-1] if self._burst else None
        if not self._text_in_hand or not isinstance(event, events.Key) or not event.character:
            return
        if event is not self._refused_key:  # asked once per binding the key matches
            self._refused_key = event
            self._text_refused.append((self._text_run, event.character))

    def _is_text(self, event: events.Key | events.Paste) -> bool:
        if not _letter(event):
            return False
        keys = [*self._burst, *self._held_keys]
        here = len(self._burst) - 1
        start = here
        while start > 0 and _letter(keys[start - 1]):
            start -= 1
        end = here
        while end + 1 < len(keys) and _letter(keys[end + 1]):
            end += 1
        if end - start + 1 < TEXT_RUN or here == start:
            return False
        self._text_run = "".join(
            k.character or "" for k in keys[start : end + 1] if isinstance(k, events.Key)
        )
        return True

    async def _send_key(self, event: events.Key | events.Paste) -> None:
        """Textual's own handling of ``event``, then a wait for the screen to finish with
        it, for as long as it takes. A widget that never answers (closing as it is
        asked) holds the next key until a check finds nothing moved (:meth:`_check_key`)."""
        self._guard()
        self._burst.append(event)
        self._burst_screen = self._shown()
        self._text_in_hand = self._is_text(event)
        try:
            await super().on_event(event)
        finally:
            self._when_screen_done(KEY_SETTLE_ROUNDS, every_node=False)

    def _guard(self) -> None:
        """Check on the key in hand in KEY_CHECK_SECONDS (:meth:`_check_key`)."""
        if self._key_guard is not None:
            self._key_guard.stop()
        self._moves_checked = self._moves
        self._key_guard = self.set_timer(KEY_CHECK_SECONDS, self._check_key, name="key guard")

    async def _check_key(self) -> None:
        """(The guard's timer.) A key that moved since the last check is slow, not stuck
        (a busy machine, a big screen to mount, a save on its way): check again later.
        One that did not move at all lets the next key go."""
        if not self._key_in_hand:
            return
        draining = self._draining is not None and not self._draining.done()
        if draining or self._moves != self._moves_checked:
            self._guard()
        else:
            await self._next_key()

    def _count_handled(self, node: MessagePump, message: Message) -> None:
        """(``node``'s message_signal, while a key is in hand.) A message it handled, not
        the round's own callback."""
        callback = message.callback if isinstance(message, events.Callback) else None
        if callback is None or callback is not self._round_callback:
            self._handled += 1
            self._active.add(node)

    def _watch(self, nodes: list[MessagePump]) -> None:
        """Count what ``nodes`` handle from now on (each once)."""
        if not self.is_running:  # the app is closing: nobody to count for
            return
        for node in nodes:
            if node not in self._watched and node.is_running:
                counter = partial(self._count_handled, node)
                node.message_signal.subscribe(self, counter, immediate=True)
                self._watched.add(node)

    def _unwatch(self) -> None:
        for node in list(self._watched):
            node.message_signal.unsubscribe(self)
        self._watched = WeakSet()

    def _when_screen_done(self, rounds: int, every_node: bool) -> None:
        """A round: once the app and every node of the screen have handled what they held
        (Pilot's own wait: a callback to each, as ``call_later`` posts it),
        :meth:`_look_again`. Not ``every_node``: only the app, the screen and the nodes
        where the key is moving (a message queued, or one handled during the round
        before)."""
        self._key_round += 1
        self._moves += 1
        this_round = self._key_round
        try:
            screen = self.screen
        except Exception:  # no screen (closing): nothing to wait for
            self.call_later(self._next_key)
            return
        nodes: list[MessagePump] = list(screen.walk_children(with_self=True))
        self._watch(nodes)
        if not every_node:
            moving = self._active
            nodes = [n for n in nodes if n is screen or n in moving or _waiting(n)]
        self._handled = 0
        self._active = set()
        left = 0

        def handled() -> None:
            nonlocal left
            left -= 1
            self._moves += 1
            if left == 0 and this_round == self._key_round:
                self.call_later(self._look_again, this_round, screen, rounds - 1, every_node)

        # Posted as call_later posts it, without the new functools.partial call_later wraps
        # every callback in: Textual counts a callback's parameters (inspect.signature)
        # each time it runs one, and keeps the count on the callable, which for a partial
        # made afresh is every time. ``handled`` itself keeps it after its first node: one
        # count a round, not one a node (some 7 times fewer; issue 25, profiled).
        self._round_callback = handled
        for pump in [self, *nodes]:
            left += pump.post_message(events.Callback(callback=handled))
        if left == 0:
            self.call_later(self._next_key)

    async def _look_again(
        self, this_round: int, screen: Screen[object], rounds: int, every_node: bool
    ) -> None:
        """(On the app's loop.) Something was handled during the round, a message waits
        or another screen shows: another round, on the screen now shown, where the key
        moves. A quiet round of only some nodes: a round of every node. A quiet round of
        every node: once the bus has handled what the key sent (its notice then comes to
        the app), another round; nothing sent, the next key."""
        if this_round != self._key_round:
            return  # the guard sent the next key meanwhile
        try:
            shown: Screen[object] | None = self.screen
        except Exception:
            shown = None
        busy = shown is not screen or self._handled > 0 or _waiting(self)
        if shown is not None and not busy:
            busy = any(_waiting(p) for p in shown.walk_children(with_self=True))
        if busy and rounds > 0:
            self._when_screen_done(rounds, every_node=False)
        elif not every_node and rounds >= 0:  # the look that may end the key: no round spent
            self._when_screen_done(rounds + 1, every_node=True)
        elif rounds > 0 and (pending := self.commands_pending()) is not None:

            async def drained() -> None:  # a task of its own: the app's loop goes on
                await pending
                if this_round == self._key_round:
                    self.call_later(self._when_screen_done, rounds - 1, False)

            self._draining = asyncio.create_task(drained())
        else:
            await self._next_key()

    async def _next_key(self) -> None:
        self._key_round += 1  # any round still out is stale
        if self._key_guard is not None:
            self._key_guard.stop()
            self._key_guard = None
        self._text_in_hand = False
        if self._shown() is None:
            self._held_keys.clear()  # the app is closing: no screen to take them
        if not self._held_keys:
            self._key_in_hand = False
            self._keys_done.set()
            self._unwatch()
            self._tell_text_refused()
            return
        if self._shown() is not self._burst_screen:
            # The key before changed the screen (S opened the summary, w the roster): the
            # keys after it are for the new one, not letters of one text with it. Under
            # load "S", "w", "q" typed one by one still arrive while the one before is in
            # hand, and q, the third letter, was left aside as text.
            self._burst = []
        await self._send_key(self._held_keys.popleft())

    def _shown(self) -> object:
        try:
            return self.screen
        except Exception:  # no screen (closing)
            return None

    def _tell_text_refused(self) -> None:
        if not self._text_refused:
            return
        refused, self._text_refused = self._text_refused, []
        texts = ", ".join(dict.fromkeys(f'"{text}"' for text, _ in refused))
        letters = ", ".join(dict.fromkeys(letter for _, letter in refused))
        self.notify(
            f"{texts} was typed with no prompt open to take it: its letters ({letters}) "
            "were not taken as keys here.",
            title="Typed text left aside",
            severity="warning",
            timeout=6,
        )
        with contextlib.suppress(Exception):  # no screen (closing): no footer
            self.screen.refresh_bindings()  # the footer, asked while a letter was refused


# What TextIsNoKey is mixed into (a screen), for the type checker alone. At run time the
# mixin is no DOMNode: Textual gives a class the CSS of its first DOMNode base only
# (DOMNode._css_bases), so a DOMNode mixin put first cut every screen that took it off
# Screen's own CSS (``Screen``'s background among it: each frame of those screens was
# drawn over the blank screen beneath, see-through, as a modal's is).
if TYPE_CHECKING:
    _Screen = DOMNode
else:
    _Screen = object


class TextIsNoKey(_Screen):
    """A screen whose keys are letters (the contest, the roster, a setup, the campaigns,
    the summary): a letter inside text typed in one burst (a name for a prompt that did
    not appear, or pasted while the screen shows) is none of its keys, and the GM is told
    (:meth:`KeysInOrder.refuse_text_key`). Put before the screen's base class; a screen's
    own ``check_action`` asks ``super()`` first."""

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        app = self.app
        # Only while this screen takes the keys: under the command palette (or a form)
        # the text is the palette's search, and its list of commands asks every binding.
        shown: DOMNode = app.screen
        if isinstance(app, KeysInOrder) and shown is self and app.typing_text():
            app.refuse_text_key()  # text for a prompt that is not there: never a key
            return False
        return super().check_action(action, parameters)
