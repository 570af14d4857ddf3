"""Reading a file that comes from a user (a data file, a network file) one safe way: only a regular
file (after symlinks are followed), opened without blocking (a FIFO with no writer, or a device,
would wait forever or never end) and checked on the open descriptor (so that a file swapped for one
of those between a check and the open cannot hang the reader either), at most ``max_bytes`` long
(checked before reading and while reading, in case it grows). Each caller turns
:class:`UnreadableFile` into its own error, naming the file its own way."""
from __future__ import annotations

import os
import stat
from typing import Optional


class UnreadableFile(Exception):
    """Why a file cannot be read. ``missing``: there is no such file; ``kind``: what it is instead of
    a regular file ("a FIFO", "a device", ...); ``size``: its size past the cap, ``grew`` when it grew
    past it while read (``size`` is then what was read); else ``why``, the system's reason."""

    def __init__(self, why: str, missing: bool = False, kind: Optional[str] = None, size: Optional[int] = None,
                 grew: bool = False):
        super().__init__(why)
        self.why, self.missing, self.kind, self.size, self.grew = why, missing, kind, size, grew


def _kind(mode: int) -> str:
    return ("a directory" if stat.S_ISDIR(mode) else "a FIFO" if stat.S_ISFIFO(mode)
            else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode)
            else "a socket" if stat.S_ISSOCK(mode) else "not a regular file")


def read_regular(path: str, max_bytes: int) -> bytes:
    """The bytes of the regular file ``path`` of at most ``max_bytes``; UnreadableFile otherwise."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError as e:
        broken = os.path.islink(path)
        raise UnreadableFile((e.strerror or str(e)) + (" (a broken symlink or a symlink loop)" if broken else ""),
                             missing=not broken) from None
    except OSError as e:
        why = e.strerror or str(e)
        if os.path.islink(path) and not os.path.exists(path):
            why += " (a broken symlink or a symlink loop)"
        raise UnreadableFile(why) from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise UnreadableFile(f"it is {_kind(st.st_mode)}", kind=_kind(st.st_mode))
        if st.st_size > max_bytes:
            raise UnreadableFile(f"it has {st.st_size} bytes", size=st.st_size)
        chunks, total = [], 0
        while total <= max_bytes:
            chunk = os.read(fd, max_bytes + 1 - total)
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        if total > max_bytes:  # it grew while being read
            raise UnreadableFile("it grew while read", size=total, grew=True)
        return b"".join(chunks)
    except OSError as e:
        raise UnreadableFile(e.strerror or str(e)) from None
    finally:
        os.close(fd)
