"""Racing writers, forked from a lean process (tests/core/test_saves_race.py).

Run as ``python -m tests.core.race_writers``: it loads what a writer needs (the core,
tinydb), records once into a folder of its own so that every module a writer loads is
loaded before any fork, then reads one race per line of stdin and answers each with one
line, the writers' exit codes as a JSON list::

    {"kind": "record", "saves": "/dev/shm/...", "writers": 6}
    {"kind": "import", "saves": "/tmp/...", "writers": 2, "export": "<json>"}

A "record" writer records ONE_EXCHANGE into campaign "Race" (``tussle resolve FILE
--record Race``); an "import" writer imports the export as campaign "Imported".

Forked from here rather than from the pytest worker: forking copies the parent's page
tables and each writer then copies every page it touches, so a writer forked from a
worker of some 300 MB cost about twice the CPU of one forked from this process of 40 MB
(issue 25, measured: 19 against 11 ms a writer, 59 against 13 ms a race of six for the
parent). The race is the same: each writer still creates or opens the campaign, takes
the lock and saves, against the others, released together through one pipe.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from core.cli.record import record
from core.saves.store import Saves
from core.saves.transfer import TransferError, import_campaign
from core.scenario import load

# One exchange keeps each writer quick, so the race can be run hundreds of times.
ONE_EXCHANGE = json.dumps(
    {
        "system": "fate",
        "participants": [
            {"name": "Cynere", "skill": 4, "fate_points": 2},
            {"name": "Teran", "skill": 3, "fate_points": 0},
        ],
        "exchanges": [{"rolls": {"Cynere": "+000", "Teran": "-000"}}],
    }
).encode()

# A writer's exit code: 0 done, 1 any other failure, 2 refused (TransferError: an import
# under a name another import took).
DONE, FAILED, REFUSED = 0, 1, 2


def race(writers: int, write: Callable[[], None]) -> list[int]:
    """Fork ``writers`` processes that each ``write()``, release them together, and
    return their exit codes."""
    gate_read, gate_write = os.pipe()
    children = []
    for _ in range(writers):
        pid = os.fork()
        if pid == 0:  # the writer
            code = FAILED
            try:
                os.close(gate_write)
                os.read(gate_read, 1)  # blocks until the gate opens
                write()
                code = DONE
            except TransferError:
                code = REFUSED
            except BaseException:
                code = FAILED
            finally:
                os._exit(code)
        children.append(pid)
    os.close(gate_read)
    os.close(gate_write)  # every writer's read returns at once: the gate opens
    return [os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) for pid in children]


def writer(request: dict[str, str]) -> Callable[[], None]:
    """What each writer of ``request`` does."""
    saves = Saves(Path(request["saves"]))
    if request["kind"] == "record":
        resolution = load(ONE_EXCHANGE)
        return lambda: record(resolution, saves, "Race", "race", wait=30.0)
    data = request["export"].encode()
    return lambda: import_campaign(saves, data, "race.json", "Imported")


def warm_up() -> None:
    """What a writer loads the first time it records (the Fate sheet's modules, the
    codec's decoders, the limits read from the fields), loaded once before any fork:
    otherwise each of the 1,600 writers loads them again for itself."""
    with tempfile.TemporaryDirectory(prefix="tussle-race-warm-") as folder:
        for _ in range(2):  # creating the campaign, then recording into it
            record(load(ONE_EXCHANGE), Saves(Path(folder)), "Race", "race")


def main() -> None:
    warm_up()
    print("ready", flush=True)
    for line in sys.stdin:
        request = json.loads(line)
        codes = race(int(request["writers"]), writer(request))
        print(json.dumps(codes), flush=True)


if __name__ == "__main__":
    main()
