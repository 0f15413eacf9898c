"""Files a user names (the settings file, a roster file, an export to import, a scenario,
a key file): read so that nothing named can stop Tussle.

A path may name a pipe (a FIFO: opening it to read waits for a writer, for ever), a
device (``/dev/zero`` never ends), a folder, or a file far larger than any Tussle reads.
:func:`read_named` opens it without blocking (``O_NONBLOCK``), asks what it is
(``fstat``) before reading a byte, reads only a regular file, and never more than the
bound its caller gives; anything else is an ``OSError`` whose ``strerror`` says what the
path is, which every caller already shows (``FILE: cannot be read (a pipe (FIFO), not a
file)``). A link is followed: the file it ends at is what is checked.

:func:`read_toml` parses TOML within bounds: nesting (:data:`core.files.disk.MAX_DEPTH`, as
the saves), and numbers of thousands of digits, each a ``ValueError`` with one line.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path
from typing import IO, Any

from core.files.disk import MAX_DEPTH, MAX_ENTRY_BYTES, MAX_FILE_BYTES, file_kind, too_deep

# The bounds, one per kind of file. A settings file is a few lines; a roster file
# becomes one log entry (one action: u takes it back), so one larger than an entry may
# be could never be imported; an export holds a whole campaign's log.
SETTINGS_BYTES = 1 << 20
ROSTER_BYTES = MAX_ENTRY_BYTES
EXPORT_BYTES = 1 << 30
SCENARIO_BYTES = MAX_FILE_BYTES  # tussle resolve and odds: a contest, as large as a save


def too_large(size: int, limit: int) -> OSError:
    return OSError(errno.EFBIG, f"{size:,} bytes, more than the {limit:,} Tussle reads of it")


def more_than(limit: int) -> OSError:
    return OSError(errno.EFBIG, f"more than the {limit:,} bytes Tussle reads of it")


def read_named(path: Path, limit: int) -> bytes:
    """The bytes of the regular file at ``path``, at most ``limit`` of them; ``OSError``
    (``FileNotFoundError`` for none there) for anything else, never waiting."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise OSError(errno.EINVAL, f"{file_kind(info.st_mode)}, not a file")
        if info.st_size > limit:
            raise too_large(info.st_size, limit)
        chunks: list[bytes] = []
        size = 0
        while chunk := os.read(fd, min(1 << 20, limit + 1 - size)):
            chunks.append(chunk)
            size += len(chunk)
            if size > limit:  # grew since the fstat
                raise more_than(limit)
        return b"".join(chunks)
    finally:
        os.close(fd)


def read_stream(stream: IO[bytes], limit: int) -> bytes:
    """At most ``limit`` bytes of ``stream`` (standard input); ``OSError`` past them."""
    data = stream.read(limit + 1)
    if len(data) > limit:
        raise more_than(limit)
    return data


def read_toml(text: str) -> dict[str, Any]:
    """``text`` as TOML; ``ValueError`` (``tomllib.TOMLDecodeError`` for the syntax) for
    what cannot be, in one line: nested deeper than :data:`MAX_DEPTH`, or a number of
    thousands of digits."""
    import tomllib

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        raise
    except RecursionError:
        raise ValueError(f"nested more than {MAX_DEPTH} deep") from None
    except ValueError:  # an integer longer than Python converts (4,300 digits)
        raise ValueError("a number of thousands of digits") from None
    if too_deep(data, MAX_DEPTH):
        raise ValueError(f"nested more than {MAX_DEPTH} deep")
    return data


__all__ = [
    "EXPORT_BYTES",
    "ROSTER_BYTES",
    "SCENARIO_BYTES",
    "SETTINGS_BYTES",
    "read_named",
    "read_stream",
    "read_toml",
]
