"""An old exchange corrected on the keypad: which one, what it plays on, its steps.

``C`` reopens exchange n: its dice and actions come back onto the keypad, played on the
contest as it stood before it. While it is corrected, each change made to the keypad is a
step: ``u`` takes back the correction's last change (never a committed action), and with
none left the GM is asked whether to leave it. The contest screen holds one
:class:`Correction` while correcting, and asks it; it knows no screen.
"""

from __future__ import annotations

from core.model import Command, Contest
from tui.draft import Draft

# The keypad's draft as it stands (the dice by roller, their sources, the actions waiting,
# a FORGE end), to tell when it changed: a correction's steps, a toast's cause.
DraftNow = tuple[dict[str, str], dict[str, str], list[Command], bool]


def draft_now(draft: Draft) -> DraftNow:
    return dict(draft.typed), dict(draft.sources), list(draft.extras), draft.end_after


class Correction:
    """Exchange ``n`` being corrected, on ``before`` (the contest just before it, what the
    keypad plays on instead of the contest as it stands). ``steps``: the keypad after C,
    then after each change made to it, oldest first."""

    def __init__(self, n: int, before: Contest) -> None:
        self.n = n
        self.before = before
        self.steps: tuple[DraftNow, ...] = ()

    def note(self, draft: Draft) -> None:
        """(After each repaint of the keypad.) A keypad that changed since the last step
        is a new step."""
        now = draft_now(draft)
        if not self.steps or self.steps[-1] != now:
            self.steps = (*self.steps, now)

    @property
    def changed(self) -> bool:
        """Whether the keypad changed since C."""
        return len(self.steps) > 1

    def step_back(self, draft: Draft) -> bool:
        """Take the last change back into ``draft``; False: there is none to take back."""
        if not self.changed:
            return False
        self.steps = self.steps[:-1]
        typed, sources, extras, end_after = self.steps[-1]
        draft.typed, draft.sources = dict(typed), dict(sources)
        draft.extras, draft.end_after = list(extras), end_after
        return True
