"""The Textual app: opens a campaign, runs the bus, routes what it says to the screens.

``make_app()`` is the one factory the CLI and the tests share.
"""

from __future__ import annotations

import argparse
import os
from collections import deque
from collections.abc import Coroutine, Iterable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual.app import SystemCommand
from textual.binding import Binding
from textual.message import Message
from textual.notifications import Notification, SeverityLevel
from textual.screen import Screen
from textual.timer import Timer

from core.bus import Applied, Bus, Notice
from core.campaign.actions import Campaign
from core.campaign.log import ActionRecorded, ActionRedone, ActionUndone, ContestStarted
from core.campaign.state import ContestRecord
from core.dice import RandomDice
from core.files.disk import CampaignLocked, ReadOnlySaves, StoreError
from core.model import Command
from core.rules import DEFAULT_SYSTEM
from core.saves.store import CampaignFiles, Saves, saves_folder
from core.text import visible, visible_lines
from tui.config import Settings
from tui.draft import Kept, settled
from tui.follow import POLL_SECONDS, Follower
from tui.glyphs import DrawsGlyphs
from tui.host import Host, Step
from tui.keys_in_order import KeysInOrder
from tui.looks import Looks, read_settings, terminal_has_sixteen_colours
from tui.screens.contest import ContestScreen, draft_lines
from tui.screens.quick_roll import tell_roll
from tui.terminal import HANG_UP_SECONDS, STDIN, hung_up
from tui.widgets.key_part import allowed, screen_keys
from tui.widgets.keybar import keys_of, pretty_key

if TYPE_CHECKING:
    from core.saves.backup import BackupResult


def _unstarted(action: ActionRecorded) -> ContestRecord | None:
    """The contest ``action`` started, as it stood at its start (what a setup copies)."""
    for event in action.events:
        if isinstance(event, ContestStarted):
            return ContestRecord(
                contest_id=event.contest_id,
                title=event.title,
                start=event.contest,
                state=event.contest,
                uses=event.uses,
                tussle_rolls=event.tussle_rolls,
                secret=event.secret,
                secret_participants=set(event.secret_participants),
                secret_aspects=set(event.secret_aspects),
            )
    return None


class BusNotice(Message):
    """Wraps what the bus published (Textual messages cannot be frozen dataclasses)."""

    def __init__(self, notice: Notice) -> None:
        super().__init__()
        self.notice = notice


TRAIL_LENGTH = 50  # steps kept for Esc: enough for an evening of to and fro
TOLD_KEPT = 100  # toasts remembered in TussleApp.told


class TussleApp(Looks, KeysInOrder, DrawsGlyphs):
    """The GM's dashboard."""

    TITLE = "Tussle"
    CSS_PATH = "styles/app.tcss"
    BINDINGS = [Binding("ctrl+q", "quit", "Quit", id="app.quit", show=False)]

    def __init__(
        self,
        saves: Path,
        campaign: str | None = None,
        system: str | None = None,
        dice: RandomDice | None = None,
        ansi_color: bool = False,
        demos: bool = True,
        settings: Settings | None = None,
        stdin: int | None = None,
    ) -> None:
        """``stdin``: the file descriptor whose hang-up ends the dashboard (``tussle``:
        its stdin); None for none (a test's app, which has no terminal of its own)."""
        super().__init__(ansi_color=ansi_color)
        self.stdin = stdin
        self.sixteen_colours = ansi_color
        # The GM's keys and theme (tui.looks), unless the CLI read them first.
        self.settings = settings if settings is not None else read_settings(self.BINDINGS)
        self.saves = Saves(saves)
        self.demos = demos  # the demo campaigns, into a saves folder with none
        self.start_with = campaign
        self.start_system = system
        seed = os.environ.get("TUSSLE_SEED")
        self.dice = dice or RandomDice(int(seed) if seed and seed.isdigit() else None)
        self.files: CampaignFiles | None = None
        self.bus: Bus | None = None
        self.read_only = False
        # Read-only: the campaign's files, followed as tussle watch follows them.
        self.follower: Follower | None = None
        self._following: Timer | None = None
        # Each contest's keypad while the GM is on another screen, by (campaign, contest).
        self.kept: dict[tuple[str, str], Kept] = {}
        # The setup left unstarted in a campaign the GM has left for another, by campaign:
        # n brings it back when that campaign is open again, and q asks before losing it.
        self.setups_left: dict[str, Step] = {}
        self._quit_anyway = False
        self.show_odds = True  # d hides them: some tables prefer not to know
        self._campaign: Campaign | None = None
        self._sent = 0  # commands sent to the bus (it counts those it handled)
        # Where Esc goes back to: the main screens shown before this one, oldest first.
        self.trail: list[Step] = []
        # What the toasts told the GM since they were last cleared, oldest first (the last
        # TOLD_KEPT): Textual keeps its own list privately; tests read this one.
        self.told: deque[Notification] = deque(maxlen=TOLD_KEPT)

    def commands_pending(self) -> Coroutine[Any, Any, None] | None:
        """The bus's drain while it has commands a key sent still to handle."""
        if self.bus is not None and self._sent > self.bus.handled:
            return self.bus.drain()
        return None

    @property
    def campaign(self) -> Campaign:
        assert self._campaign is not None, "no campaign is open"
        return self._campaign

    def host(self) -> Host:
        """This app as its screens see it (so mypy checks that it is a Host)."""
        return self

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = False,
    ) -> None:
        """A toast as plain text (not Textual's default, markup): what toasts say quotes
        names, which are data; a control character in one is written out (core.text)."""
        message, title = visible_lines(message), visible(title)
        super().notify(message, title=title, severity=severity, timeout=timeout, markup=markup)
        wait = self.NOTIFICATION_TIMEOUT if timeout is None else timeout
        self.told.append(Notification(message, title, severity, wait, markup))

    def clear_notifications(self) -> None:
        super().clear_notifications()
        self.told.clear()

    def toast_shown(self) -> bool:
        return any(not told.has_expired for told in self.told)

    # -- start ----------------------------------------------------------------------------
    def on_mount(self) -> None:
        self.apply_settings(self.sixteen_colours)
        if self.stdin is not None:
            self.set_interval(HANG_UP_SECONDS, self._leave_when_hung_up, name="hang-up")
        if self.demos and not self.saves.campaigns():
            from core.cli.demo import create_demos

            create_demos(self.saves)
        # The first screen is pushed once the app runs, not inside Textual's start-up
        # batch: a screen refreshed there has its first frame rendered and then dropped
        # (about 45 ms, and the next frame is drawn piecemeal).
        slug = self._first_campaign()
        if slug is None:
            self.call_later(self.open_campaigns)
        else:
            self.call_later(self.open_campaign, slug)

    def _leave_when_hung_up(self) -> None:
        """The GM's terminal is gone, and no SIGHUP came (``nohup tussle``, a dropped
        connection): the dashboard ends as a SIGHUP would end it, the campaign's lock
        released, instead of spinning on its stdin's end (:mod:`tui.terminal`)."""
        if self.stdin is not None and hung_up(self.stdin):
            self.stdin = None
            self.close_campaign()
            self.exit()

    def _first_campaign(self) -> str | None:
        if self.start_with is not None:
            found = self.saves.find(self.start_with)
            system = found.info().system if found is not None else None
            if self.start_system is not None and system not in (None, self.start_system):
                self.notify(
                    f'"{self.start_with}" is a {system} campaign, not {self.start_system}',
                    title="Another rule system",
                    severity="error",
                    timeout=10,
                )
                return None
            if found is None:
                try:
                    found = self.saves.create(self.start_with, self.start_system or DEFAULT_SYSTEM)
                except StoreError as error:
                    self.notify(str(error), title=error.title, severity="error")
                    return None
            return found.slug
        from core.saves.manage import listed

        # The last one played, among those not archived.
        usable = [c.info for c in listed(self.saves) if c.info.problem is None]
        if not usable:
            return None
        from core.cli.demo import FIRST_DEMO

        first_demo = self.saves.find(FIRST_DEMO)
        if all(c.entries <= 4 for c in usable) and first_demo is not None:
            return first_demo.slug  # a fresh install: the (Fate) demo, as promised
        return max(usable, key=lambda c: c.updated).slug

    # -- campaigns ------------------------------------------------------------------------
    def open_campaign(self, slug: str, read_only: bool = False) -> None:
        """Open a campaign: hold its lock, load its log, start the bus. ``read_only``
        takes no lock and sends nothing (for a campaign another Tussle has open)."""
        self.close_campaign()
        files = CampaignFiles(self.saves.folder / slug)
        try:
            name = str(files.meta()["name"])
            if not read_only:
                files.lock.acquire(name)
            try:
                if not read_only:
                    files.clean_temporary_files()
                campaign = files.load()
            except BaseException:
                files.lock.release()
                raise
        except CampaignLocked as error:
            self.open_campaigns()
            self._offer_read_only(slug, error)
            return
        except ReadOnlySaves as error:  # shown, never saved to: said once, then read-only
            self.notify(f"{error}: opened read-only", title=error.title, severity="warning")
            self.open_campaign(slug, read_only=True)
            return
        except StoreError as error:
            self.notify(str(error), title=error.title, severity="error", timeout=10)
            self.open_campaigns()
            return
        self.files, self._campaign, self.read_only = files, campaign, read_only
        self.trail = []  # Esc from its first screen: the campaigns (see back)
        if not read_only:
            # The bus backs the campaign up, in a thread, before it saves anything (and at
            # each session start): a backup is never a reason to wait for the screen.
            self.bus = Bus(campaign, files, on_backup=self._backed_up)
            self._sent = 0  # commands sent to this bus (it counts those it handled)
            self.bus.subscribe(self._forward)
            self.run_worker(self.bus.run(), group="bus", exclusive=True, name="bus")
        else:
            # Another Tussle writes: follow its saves, as the players' view does.
            self.follower = Follower(files.folder, campaign)
            self._following = self.set_interval(POLL_SECONDS, self._follow, name="follow")
        self.sub_title = f"{campaign.name} · {campaign.system}"
        self.back_to_contest(remember=False)  # Esc there: the campaigns (see back)
        self._tell_what_opening_found(files)

    def _tell_what_opening_found(self, files: CampaignFiles) -> None:
        """A log entry that did not load (set aside, or shown up to it read-only), and a
        snapshot that was not used: said once, as the campaign opens."""
        if files.bad_entry is not None:
            self.notify(
                files.bad_entry.message(),
                title="Opened as it stood before a damaged entry",
                severity="warning",
                markup=False,
                timeout=30,
            )
        elif files.snapshot_problem is not None and "(stale)" not in files.snapshot_problem:
            self.notify(
                f"{files.snapshot_problem}: the campaign was read from its log instead "
                "(nothing is lost; the snapshot is written again).",
                title="Snapshot not used",
                markup=False,
                timeout=10,
            )

    def _backed_up(self, result: BackupResult) -> None:
        """What the bus's backup (at opening, at each session start) found worth saying."""
        if result.problem:
            self.notify(result.problem, title="No backup made", severity="warning", timeout=8)
        if result.damage:
            self.notify(result.damage, title="Damaged save?", severity="error", timeout=15)

    def _offer_read_only(self, slug: str, error: CampaignLocked) -> None:
        from tui.fields import Answers, Field
        from tui.screens.forms import FormScreen

        def chosen(answers: Answers | None) -> None:
            if answers is not None and answers["choice"] == "read":
                self.open_campaign(slug, read_only=True)

        choices = (("Open it read-only", "read"), ("Back to the campaigns", "back"))
        self.push_screen(
            FormScreen(error.title, [Field("choice", str(error), "read", choices)]), chosen
        )

    def _forward(self, notice: Notice) -> None:
        self.post_message(BusNotice(notice))

    def create_campaign(self, name: str, system: str) -> None:
        try:
            files = self.saves.create(name, system)
        except StoreError as error:
            self.notify(str(error), title=error.title, severity="error")
            return
        self.open_campaign(files.slug)

    def close_campaign(self) -> None:
        self.workers.cancel_group(self, "bus")
        for screen in self.screen_stack:  # the keypads are kept for when it opens again
            if isinstance(screen, ContestScreen):
                screen.keep()
        if self.files is not None:
            left = [step for step in self.trail if step.kind == "setup"]
            if left:  # Esc's trail is the campaign's own: its setup is kept apart
                self.setups_left[self.files.slug] = left[-1]
            self.files.lock.release()
        self.files, self.bus, self._campaign = None, None, None
        if self._following is not None:
            self._following.stop()
        self.read_only, self.follower, self._following = False, None, None

    def _follow(self) -> None:
        """Read-only: show what the other Tussle saved since the last look (four times a
        second, like tussle watch), or say once why the files cannot be read."""
        follower = self.follower
        if follower is None:
            return
        problem = follower.problem
        change = follower.poll()
        if change == "problem":
            if follower.problem != problem:
                self.notify(follower.problem, title="Read-only", severity="warning", timeout=8)
            return
        if change == "same" or follower.campaign is None:
            return
        if change == "fresh":  # another campaign's files now, or a restore: from the start
            self._campaign = follower.campaign
            self.sub_title = f"{follower.campaign.name} · {follower.campaign.system}"
        main = next((s for s in reversed(self.screen_stack) if not s.is_modal), None)
        if isinstance(main, ContestScreen):
            latest = self.campaign.latest_contest
            if change == "fresh" or latest is None or latest.contest_id != main.contest_id:
                self.back_to_contest(remember=False)  # a new contest, or this one undone
                return
        from core.bus import Saved

        for screen in self.screen_stack:
            if isinstance(screen, ContestScreen):
                screen.followed()
            else:
                handler = getattr(screen, "notice", None)
                if handler is not None:
                    handler(Saved(()))  # the others repaint on news of a save

    def send(self, command: Command) -> None:
        """Put a GM action on the bus."""
        if self.read_only:
            self.notify(
                "This campaign is open read-only: nothing done here is saved.",
                title="Read-only",
                severity="warning",
            )
            return
        if self.bus is None:
            self.notify("No campaign is open.", severity="warning")
            return
        self.bus.send(command)
        self._sent += 1

    # -- screens --------------------------------------------------------------------------
    def _show(self, screen: Screen[None], remember: bool = True) -> None:
        """Make ``screen`` the one main screen (over Textual's default one); the one it
        replaces goes on the trail Esc goes back along (unless ``remember`` is False)."""
        for shown in self.screen_stack:  # leaving a contest keeps its keypad
            if isinstance(shown, ContestScreen):
                shown.keep()
        while len(self.screen_stack) > 2 and self.screen.is_modal:
            self.pop_screen()
        if len(self.screen_stack) <= 1:
            self.push_screen(screen)
            return
        if remember:
            step = self._step_of(self.screen)
            if step is not None:
                self.trail = [*self.trail, step][-TRAIL_LENGTH:]
        self.switch_screen(screen)

    def _step_of(self, screen: Screen[Any]) -> Step | None:
        """How to show ``screen`` again, for Esc."""
        if isinstance(screen, ContestScreen):
            return Step("contest", self._contest_screen)
        step = getattr(screen, "step", None)  # roster, setup, campaigns
        return step() if callable(step) else None

    def back(self) -> None:
        """Esc: back one step, to the main screen shown before this one. With none left,
        a campaign's screens go back to the campaigns, and the campaigns to the campaign
        open; with no campaign open, the GM is told why nothing happens."""
        while self.trail:
            step = self.trail.pop()
            screen = step.make()
            if screen is not None:
                self._show(screen, remember=False)
                return
        from tui.screens.campaigns import CampaignScreen

        if not isinstance(self.screen, CampaignScreen):
            self._show(CampaignScreen(), remember=False)
        elif self._campaign is not None:
            self._show(self._first_screen(), remember=False)
        else:
            self.notify(
                "No campaign is open, so there is nothing to go back to: Enter opens the "
                "highlighted campaign, n makes a new one, q quits.",
                title="Nowhere back",
            )

    def _contest_screen(self) -> Screen[None] | None:
        """The latest contest's screen (None when the campaign has no contest)."""
        if self._campaign is None:
            return None
        latest = self._campaign.latest_contest
        if latest is None:
            return None
        return ContestScreen(latest.contest_id)

    def _first_screen(self) -> Screen[None]:
        """What a campaign opens on: its latest contest, else the setup of one, else (an
        empty roster) the roster."""
        screen = self._contest_screen()
        if screen is not None:
            return screen
        if self.campaign.roster:
            from tui.screens.setup import SetupScreen

            return SetupScreen()
        from tui.screens.roster import RosterScreen

        return RosterScreen()

    def back_to_contest(self, remember: bool = True) -> None:
        self._show(self._first_screen(), remember)

    def _no_campaign(self) -> bool:
        """True (and the GM told why) when no campaign is open for a roster or a setup."""
        if self._campaign is not None:
            return False
        self.notify(
            "No campaign is open: Enter opens the highlighted one, n makes a new one.",
            title="No campaign open",
            severity="warning",
        )
        return True

    # The other screens load when first asked for: start-up is measured.
    def open_roster(self) -> None:
        from tui.screens.roster import RosterScreen

        if not self._no_campaign():
            self._show(RosterScreen())

    def open_setup(self, like: ContestRecord | None = None) -> None:
        """The contest setup screen: with ``like``'s sides, options and aspects; else the
        setup the GM left unstarted (on Esc's trail: one who went to the roster to mend a
        sheet comes back to the participants and options they chose, not to an empty
        setup with theirs hidden behind it); else an empty one."""
        from tui.screens.setup import SetupScreen

        if self._no_campaign():
            return
        if like is None and self.files is not None:
            slug = self.files.slug
            kept = self.setups_left.get(slug)  # left before the GM opened another campaign
            for step in [*reversed(self.trail), *([kept] if kept else [])]:
                left = step.make() if step.kind == "setup" else None
                if left is not None:
                    self.trail = [s for s in self.trail if s is not step]
                    if step is kept:
                        del self.setups_left[slug]
                    self._show(left)
                    return
        self._show(SetupScreen(like))

    def open_campaigns(self) -> None:
        from tui.screens.campaigns import CampaignScreen

        self._show(CampaignScreen())

    def on_bus_notice(self, message: BusNotice) -> None:
        notice = message.notice
        if isinstance(notice, Applied):
            entry = notice.entry
            tell_roll(self, entry)  # a quick roll outside the contests: its outcome
            action = entry if isinstance(entry, ActionRecorded) else None
            if isinstance(entry, ActionUndone | ActionRedone):
                action = self.campaign.actions[entry.action_id]
            started = action is not None and any(
                isinstance(e, ContestStarted) for e in action.events
            )
            on_contest = isinstance(self.screen, ContestScreen) and (
                self.screen.contest_id in self.campaign.contests
            )
            undone_start = started and isinstance(entry, ActionUndone)
            if undone_start and not isinstance(self.screen, ContestScreen):
                pass  # taken back from the roster: the GM stays there, and u goes on there
            elif started or (isinstance(self.screen, ContestScreen) and not on_contest):
                if undone_start and action is not None:
                    # Its start taken back from its screen: the moment before it, its
                    # setup, comes back (U there starts it again), not an empty one. The
                    # keypad (an exchange undone just before, its dice back on it) is
                    # kept for U: the contest is gone, so its screen keeps nothing itself.
                    self._keep_unstarted()
                    self.open_setup(_unstarted(action))
                    return
                self.back_to_contest()
                if started:  # the setup it came from (put on the trail as it was left) is
                    # done with: neither Esc nor n brings it back
                    self.trail = [step for step in self.trail if step.kind != "setup"]
                return
        for screen in self.screen_stack:
            handler = getattr(screen, "notice", None)
            if handler is not None:
                handler(notice)

    def _keep_unstarted(self) -> None:
        """The keypad of the contest screen whose start was just taken back, kept as a
        contest's keypad is kept while the GM is elsewhere: U starts the contest again
        (the same contest) with it, as the GM left it."""
        shown = self.screen
        if isinstance(shown, ContestScreen) and self.files is not None and not shown.draft.empty:
            self.kept[(self.files.slug, shown.contest_id)] = Kept(
                draft=shown.draft, correcting=None, entries=self.campaign.entries, lost=[]
            )

    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        """Textual's own commands, then every action of the screen, by its name."""
        seen = set()
        for command in super().get_system_commands(screen):
            seen.add(command.title)
            yield command
        for binding in screen_keys(screen):  # its own, and a rule system's among them
            if not allowed(screen, binding):
                continue
            if binding.description in seen:
                continue
            key = pretty_key(keys_of(binding, self)[0])
            yield SystemCommand(
                binding.description,
                f"key {key}",
                partial(screen.run_action, binding.action),
            )

    def action_undo(self) -> None:
        """Take back the last GM action in force (from any screen that binds ``u``)."""
        from core.campaign.log import Undo

        self.send(Undo())

    def action_redo(self) -> None:
        from core.campaign.log import Redo

        self.send(Redo())

    def unsaved_work(self) -> list[str]:
        """What is typed on a keypad (this contest's, or one kept while the GM is on
        another screen) or set up for a contest not yet started (on screen, or left for
        another on Esc's trail), and in no log: quitting would lose it."""
        lines = [line for step in self.trail for line in step.unsaved]
        for slug, step in self.setups_left.items():  # a campaign deleted since: nothing lost
            if (self.saves.folder / slug).is_dir():
                lines += step.unsaved
        for screen in self.screen_stack:
            unsaved = getattr(screen, "unsaved_work", None)  # a contest's, a setup's
            if callable(unsaved):
                lines += unsaved()
        for (slug, contest_id), kept in self.kept.items():
            if self.files is not None and slug == self.files.slug:
                record = self.campaign.latest_contest  # the one that would show again
                if record is not None and record.contest_id == contest_id:
                    draft = settled(kept.draft, self.campaign.done)
                    same = kept.entries == self.campaign.entries
                    lines += draft_lines(record, draft, kept.correcting if same else None)
            elif (self.saves.folder / slug).is_dir():
                lines += kept.lost
        return lines

    async def action_quit(self) -> None:
        """Quit. With dice or actions on a keypad, ask first (Enter or y quits, Esc or n
        stays, everything kept); with actions the disk has not taken yet (the bus keeps
        retrying), ask for a second q before losing them."""
        if self.screen.id == "quit-question":
            return  # asked already
        if self.bus is not None and self.bus.unsaved and not self._quit_anyway:
            self._quit_anyway = True
            self.notify(
                f"{len(self.bus.unsaved)} action(s) are not saved: the disk still refuses. "
                "Press q again to quit and lose them.",
                title="Not saved",
                severity="error",
                timeout=10,
            )
            return
        lost = self.unsaved_work()
        if lost:
            from tui.screens.confirm import ConfirmScreen

            def answered(yes: bool | None) -> None:
                if yes:
                    self.close_campaign()
                    self.exit()

            question = ConfirmScreen(
                "Quit? This is not in the log",
                [*lost, "", "Quitting loses it."],
                "Enter or y: quit",
                "Esc or n: stay, all kept",
            )
            question.id = "quit-question"
            self.push_screen(question, answered)
            return
        self.close_campaign()
        self.exit()


def make_app(
    saves: str | os.PathLike[str] | None = None,
    campaign: str | None = None,
    system: str | None = None,
    dice: RandomDice | None = None,
    ansi_color: bool = False,
    demos: bool = True,
    settings: Settings | None = None,
    stdin: int | None = None,
) -> TussleApp:
    """The one factory the CLI and the tests share."""
    return TussleApp(
        saves_folder(saves),
        campaign=campaign,
        system=system,
        dice=dice,
        ansi_color=ansi_color,
        demos=demos,
        settings=settings,
        stdin=stdin,
    )


def run(args: argparse.Namespace) -> int:
    settings = read_settings(TussleApp.BINDINGS, on_stderr=True)
    app = make_app(
        args.saves,
        getattr(args, "campaign", None),
        getattr(args, "system", None),
        ansi_color=terminal_has_sixteen_colours(),
        # The demos go into the default saves folder only (core.saves.store.saves_folder), not
        # into one named with --saves, made by --mkdir or not.
        demos=args.saves is None,
        settings=settings,
        stdin=STDIN,  # its hang-up ends the dashboard
    )
    app.run()
    return 0
