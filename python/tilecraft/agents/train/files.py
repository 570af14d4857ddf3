"""A training run's files: each written whole or not at all, read back with errors that name them,
and the lock by which one run at a time holds a folder."""
from __future__ import annotations

import datetime
import json
import os
import pathlib
import secrets
import socket
import subprocess
import sys
import zipfile
import zlib
from typing import Any, Callable, Dict, IO, List, Optional, Tuple

import numpy as np


class RunFileError(ValueError):
    """A file of a training run that cannot be used as it is (damaged, or not what the run wrote);
    the message names the file and, in a JSON file, where in it."""


class RunInUseError(ValueError):
    """Another ``tilecraft train`` run holds the folder (``DIR/run.lock``); the message names it."""


TEMP = ".tmp-"  # a temporary file is NAME.tmp-PID-RANDOM beside the file NAME it becomes


_ZIP_DATE = (1980, 1, 1, 0, 0, 0)  # every .npz entry's date: the same content gives the same bytes


LOCK_FILE = "run.lock"

# what a run's files measure rather than compute (generations.json): the only parts that differ between two
# runs (the equal-time measurement's shares among them: a time budget plays differently on every run)
CURVE_TIMES = ("seconds", "wall", "seconds_per_move", "opponent_seconds_per_move", "equal_time")


def publish(path: pathlib.Path, write: Callable[[str], Any]) -> pathlib.Path:
    """Writes ``path`` whole or not at all: ``write(tmp)`` makes a temporary file of a unique name
    beside it (two processes never share one), the entries of a zip (.npz) get a fixed date, the
    bytes reach the disk, and one rename puts the file in place. On any failure (Ctrl-C included)
    the temporary file is removed and ``path`` is as it was."""
    tmp = path.with_name(f"{path.name}{TEMP}{os.getpid()}-{secrets.token_hex(4)}")
    try:
        write(str(tmp))
        if path.suffix == ".npz":
            _fix_zip_dates(tmp)
        fd = os.open(tmp, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    finally:
        if os.path.lexists(tmp):
            os.unlink(tmp)
    return path


def _fix_zip_dates(path: pathlib.Path) -> None:
    """numpy dates each entry of an .npz file with the time it was written: rewrites them with one
    fixed date (the content, its order and its compression unchanged)."""
    with zipfile.ZipFile(path) as z:
        entries = [(info, z.read(info)) for info in z.infolist()]
    if all(info.date_time == _ZIP_DATE for info, _ in entries):
        return
    with zipfile.ZipFile(path, "w") as z:
        for info, data in entries:
            fixed = zipfile.ZipInfo(info.filename, date_time=_ZIP_DATE)
            fixed.compress_type, fixed.external_attr = info.compress_type, info.external_attr
            z.writestr(fixed, data)


def write_json(path: pathlib.Path, value: Any) -> None:
    def write(tmp: str) -> None:
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(json.dumps(value, indent=1))

    publish(path, write)


def read_json(path: pathlib.Path, what: str) -> Any:
    """A JSON file of the run; RunFileError naming it, the line and column, and ``what`` it holds."""
    try:
        return json.loads(path.read_bytes().decode("utf-8"))
    except UnicodeDecodeError as e:
        raise RunFileError(f"{path}: not UTF-8 text (byte {e.start}); it holds {what}") from None
    except json.JSONDecodeError as e:
        raise RunFileError(f"{path}: not valid JSON (line {e.lineno}, column {e.colno}: {e.msg}); it holds "
                           f"{what}") from None
    except RecursionError:
        raise RunFileError(f"{path}: JSON nested too deeply; it holds {what}") from None


def _damage(path: pathlib.Path) -> Optional[str]:
    """Why the .npz file ``path`` cannot be read whole (truncated, a bad checksum), or None."""
    try:
        with zipfile.ZipFile(path) as z:
            bad = z.testzip()  # reads every entry and checks its CRC
    except (OSError, zipfile.BadZipFile, EOFError, ValueError, zlib.error) as e:
        return f"{type(e).__name__}: {e}"
    return None if bad is None else f"entry {bad} fails its checksum"


def usable(path: pathlib.Path) -> bool:
    """Whether a file that can be made again is there and whole; a damaged one is reported on stderr
    (and then replaced by the caller, with the content it should have had)."""
    if not path.exists():
        return False
    why = _damage(path)
    if why is not None:
        print(f"tilecraft: {path}: damaged ({why}); making it again", file=sys.stderr, flush=True)
        return False
    return True


def check_record(path: pathlib.Path, record: Any) -> List[Dict[str, Any]]:
    """generations.json as the run writes it: a list of one object per generation, in order, each
    naming the best network so far."""
    if not isinstance(record, list):
        raise RunFileError(f"{path}: expected a JSON list with one object per generation, got "
                           f"{type(record).__name__}")
    for i, entry in enumerate(record):
        if not isinstance(entry, dict):
            raise RunFileError(f"{path}: [{i}] must be an object (generation {i}), got {type(entry).__name__}")
        if entry.get("generation") != i:
            raise RunFileError(f"{path}: [{i}].generation must be {i} (the generations in order), got "
                               f"{entry.get('generation')!r}")
        best = entry.get("best")
        if not isinstance(best, int) or isinstance(best, bool) or not 0 <= best <= i:
            raise RunFileError(f"{path}: [{i}].best must be the generation of the best network so far (0..{i}), "
                               f"got {best!r}")
        if not isinstance(entry.get("wall"), (int, float)) or isinstance(entry.get("wall"), bool):
            raise RunFileError(f"{path}: [{i}].wall must be a number of seconds, got {entry.get('wall')!r}")
    return record


class Lock:
    """The run's hold on its folder: ``DIR/run.lock``, locked (fcntl.flock; msvcrt on Windows) for as
    long as the run lasts and holding its pid, host, start time and command. The operating system
    frees the lock when the process ends, however it ends; the file itself stays."""

    def __init__(self, folder: pathlib.Path, command: str):
        self.path = folder / LOCK_FILE
        self.file: Optional[IO[str]] = open(self.path, "a+", encoding="utf-8")
        try:
            self._lock(True)
        except OSError:
            self.file.seek(0)
            text = self.file.read()
            self.file.close()
            self.file = None
            raise RunInUseError(f"{folder} is in use by another tilecraft train run ({_holder(text)}; "
                                f"{self.path}); wait for it to end or stop it, or use another --out") from None
        self.file.seek(0)
        self.file.truncate()
        self.file.write(json.dumps(dict(pid=os.getpid(), host=socket.gethostname(), command=command,
                                        started=datetime.datetime.now(datetime.timezone.utc)
                                        .isoformat(timespec="seconds"))) + "\n")
        self.file.flush()

    def _lock(self, take: bool) -> None:
        assert self.file is not None
        try:
            import fcntl
        except ImportError:  # Windows
            import msvcrt

            self.file.seek(0)
            msvcrt.locking(self.file.fileno(), msvcrt.LK_NBLCK if take else msvcrt.LK_UNLCK, 1)  # type: ignore
            return
        fcntl.flock(self.file.fileno(), (fcntl.LOCK_EX | fcntl.LOCK_NB) if take else fcntl.LOCK_UN)

    def release(self) -> None:
        if self.file is None:
            return
        try:
            self.file.seek(0)
            self.file.truncate()  # a folder no run holds has an empty run.lock
            self.file.flush()
            self._lock(False)
        finally:
            self.file.close()
            self.file = None


def _holder(text: str) -> str:
    """The lock holder's details as the run wrote them, in words."""
    try:
        h = json.loads(text)
        return f"pid {h['pid']} on {h['host']}, started {h['started']}: {h['command']}"
    except (ValueError, KeyError, TypeError):
        return "its details are not written yet" if not text.strip() else f"holder: {text.strip()[:200]}"


def remove_stale_temporaries(folder: pathlib.Path) -> None:
    """Temporary files left by a run that was killed outright (with the lock held, no other run can
    be writing them); also those of older versions (NAME.tmp)."""
    for where in (folder, folder / "data"):
        for p in where.glob("*.tmp*"):
            if (TEMP in p.name or p.name.endswith(".tmp")) and p.is_file():
                p.unlink()


def savez(path: pathlib.Path, arrays: Dict[str, np.ndarray], compressed: bool = True) -> None:
    """An .npz file of the run, written whole or not at all (``publish``)."""
    save: Any = np.savez_compressed if compressed else np.savez

    def write(tmp: str) -> None:
        with open(tmp, "wb") as f:
            save(f, **arrays)

    publish(path, write)


def save_checkpoint(arrays: Dict[str, np.ndarray], path: pathlib.Path, info: Optional[Dict[str, Any]] = None) -> None:
    """The weights after a generation's fit (all of them: the margin head and the input normalisation
    too), with ``info`` (the generation, its data and losses, and the network file's metadata) under
    ``meta``: a stopped run resumes from it."""
    out = dict(arrays)
    if info is not None:
        out["meta"] = np.array(json.dumps(info, sort_keys=True))
    savez(path, out, compressed=False)


def load_checkpoint(path: pathlib.Path) -> Tuple[Dict[str, np.ndarray], Dict[str, Any]]:
    """The arrays and info of ``save_checkpoint``."""
    why = _damage(path)
    try:
        if why is not None:
            raise ValueError(why)
        with np.load(path, allow_pickle=False) as z:
            arrays = {k: z[k] for k in z.files if k != "meta"}
            info = json.loads(str(z["meta"])) if "meta" in z.files else None
        if not (isinstance(info, dict) and isinstance(info.get("generation"), int)):
            raise ValueError(f"meta must be an object with an integer 'generation', got {info!r}")
    except (OSError, ValueError, KeyError, TypeError, EOFError, zipfile.BadZipFile, zlib.error) as e:
        raise RunFileError(f"{path}: the run's checkpoint cannot be read ({e}); it holds the weights the next "
                           "generation trains from and cannot be made again without training the generations "
                           "again (in a new --out)") from None
    return arrays, info


def commit() -> str:
    here = pathlib.Path(__file__).resolve().parent
    try:
        r = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=here, capture_output=True, text=True, timeout=10)
        return r.stdout.strip() or "unknown"
    except (OSError, subprocess.SubprocessError):
        return "unknown"
