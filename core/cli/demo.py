"""The demo campaigns ``tussle`` creates on first run, one per built-in system that has
one (its plug-in names the campaign, its sheet builds it)."""

from __future__ import annotations

from collections.abc import Mapping

from core.campaign.actions import Campaign
from core.campaign.log import AddCharacter, Character, StartContest
from core.campaign.setup import build_contest
from core.campaign.sheet import Pick, find_sheet
from core.rules import BUILT_IN
from core.saves.store import CampaignFiles, Saves

# The demo a fresh install opens on: the first built-in system's.
FIRST_DEMO = next(p.demo for p in BUILT_IN.values() if p.demo)


def create_campaign(
    saves: Saves,
    name: str,
    system: str,
    characters: tuple[Character, ...] | list[Character],
    title: str,
    picks: tuple[Pick, ...] | list[Pick],
    options: Mapping[str, object] | None = None,
    aspects: tuple[str, ...] = (),
) -> CampaignFiles:
    """A saved campaign with a roster and one contest ready to play, made through the
    campaign's own decide/apply and saved with it in one step (cut short, there is no
    such campaign, and it is made again next time; never an empty one)."""
    campaign = Campaign(name=name, system=system)
    entries = [campaign.act(AddCharacter(character=c)) for c in characters]
    contest = build_contest(system, campaign.roster, picks, options or {}, aspects)
    uses = {p.character: p.rating for p in picks if p.rating}
    entries.append(campaign.act(StartContest(title=title, contest=contest, uses=uses)))
    return saves.create(name, system, entries)


def create_demos(saves: Saves) -> None:
    """Create the demo campaigns that are missing (a system's sheet is loaded only to
    build its demo)."""
    for plugin in BUILT_IN.values():
        if plugin.demo and saves.find(plugin.demo) is None:
            d = find_sheet(plugin.name).demo()
            create_campaign(
                saves,
                plugin.demo,
                plugin.name,
                d.characters,
                d.title,
                d.picks,
                d.options,
                d.aspects,
            )
