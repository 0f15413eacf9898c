"""Following a campaign's files from another process: the players' view (``tussle
watch``) and a dashboard opened read-only while another Tussle holds the campaign.

No lock, no writes. :meth:`Follower.poll` looks at the manifest (written last by the
writer, so it says which entries count); when it changed, it reads the entries saved
since, or the whole log when the files are another campaign's now or shorter than what
was read (a restore). A file that is missing, being replaced or unreadable keeps the
last good campaign and says why in :attr:`Follower.problem`. Nothing here knows Textual:
the callers poll on their own timers.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import Literal

from core.campaign.actions import Campaign
from core.files.disk import MANIFEST, StoreError
from core.saves.store import CampaignFiles

POLL_SECONDS = 0.25  # what the GM commits shows within a second, at little cost

Change = Literal["same", "more", "fresh", "problem"]


class Follower:
    """One campaign's files, followed. ``campaign`` is the last good state read."""

    def __init__(self, folder: Path, campaign: Campaign | None = None) -> None:
        self.folder = folder
        self.campaign = campaign
        self.stamp: tuple[int, int] | None = None
        self.identity: tuple[object, ...] = ()
        self.problem = ""
        # A log entry that does not load: shown up to it (the GM's dashboard sets it aside).
        self.warning = ""
        if campaign is not None:  # already loaded from these files: follow from there
            with contextlib.suppress(StoreError, OSError):  # if so, the first poll reads all
                self.identity = self._identity(CampaignFiles(folder).meta())

    @staticmethod
    def _identity(meta: dict[str, object]) -> tuple[object, ...]:
        return (meta.get("created"), meta.get("system"), meta.get("name"))

    def poll(self) -> Change:
        """``"same"``: nothing new; ``"more"``: entries saved since were applied to
        :attr:`campaign` (the same object); ``"fresh"``: :attr:`campaign` is a new
        object, read from the start; ``"problem"``: the files cannot be read now
        (:attr:`problem` says why; :attr:`campaign` is the last good state)."""
        try:
            info = os.stat(self.folder / MANIFEST)
        except OSError:
            self.problem = "the campaign's files are missing: showing the last good state"
            return "problem"
        stamp = (info.st_mtime_ns, info.st_size)
        if stamp == self.stamp and not self.problem:
            return "same"
        try:
            files = CampaignFiles(self.folder)
            meta = files.meta()
            identity = self._identity(meta)
            fresh = (
                self.campaign is None
                or identity != self.identity
                or meta["entries"] < self.campaign.entries
            )
            before = None if self.campaign is None else self.campaign.entries
            loaded = files.load() if fresh else files.load(into=self.campaign)
            # Read up to a bad entry, the campaign is made again: from the start, then.
            fresh = fresh or loaded is not self.campaign
            self.campaign = loaded
            self.identity = identity
        except (StoreError, OSError) as error:
            self.problem = f"cannot read the save ({error}): showing the last good state"
            return "problem"
        self.stamp, self.problem = stamp, ""
        self.warning = "" if files.bad_entry is None else files.bad_entry.message()
        if fresh:
            return "fresh"
        return "same" if self.campaign.entries == before else "more"
