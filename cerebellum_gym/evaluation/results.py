"""Results on disk: one append-only JSONL line per finished case, and the run's metadata.

A run folder holds:

- ``run.json``: what was run (agent, suite and its digest, env, seed, ...), written first;
- ``.lock``: held (``flock``) by the run writing the folder, and naming its PID, so a second
  run on the same folder refuses instead of interleaving its lines;
- ``results.jsonl``: one line per finished case, written and flushed as each case finishes, so
  a killed run loses at most the episodes in flight;
- ``frames/``: recorded screens (JPEG) that the report steps through;
- ``summary.md``, ``summary.json``, ``report.html``, ``success_by_family.png``: derived, rewritten
  at the end of every run (and by ``cerebellum-gym compare``).

Every line is a JSON object with the keys of :data:`RECORD_KEYS`; ``status`` is ``ok`` (the
episode ran), ``infra_skip`` (every attempt met a device fault: the case says nothing about the
agent), ``error`` (the env or task crashed: a harness bug, counted as a failure) or
``unavailable`` (the case's task does not run on this env at all, such as an AndroidWorld task
the embedded simulator does not mirror: listed, never run, never counted; ``error`` says why).
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import IO, Any, Final

from cerebellum_gym.errors import CerebellumError

RESULTS_FILE: Final = "results.jsonl"
RUN_FILE: Final = "run.json"
LOCK_FILE: Final = ".lock"
FRAMES_DIR: Final = "frames"
FORMAT_VERSION: Final = 1

#: Keys of a results line, in the order they are written.
RECORD_KEYS: Final = (
    "case",
    "task",
    "family",
    "app",
    "seed",
    "status",
    "success",
    "start_progress",
    "progress",
    "return",
    "steps",
    "terminated",
    "truncated",
    "invalid_actions",
    "attempts",
    "infra_errors",
    "error",
    "goal",
    "max_steps",
    "actions",
    "rewards",
    "progress_trace",
    "latency_s",
    "frames",
    "wall_s",
)

#: Run metadata that must match for ``--resume`` to continue a run.
RESUME_KEYS: Final = ("agent", "suite_digest", "env")

STATUSES: Final = ("ok", "infra_skip", "error", "unavailable")
#: Statuses of cases that did not run to an episode: left out of N (``evaluation.summary``).
NOT_RUN: Final = frozenset({"infra_skip", "unavailable"})


class ResultsError(CerebellumError):
    """A run folder that cannot be written, resumed or read."""


def read_results(path: str | os.PathLike[str]) -> list[dict[str, Any]]:
    """The records of a ``results.jsonl`` (or of the run folder holding one), first line per case wins.

    A last line cut short by a killed writer is ignored; any other unreadable line raises.

    Raises:
        ResultsError: no such file, or a corrupt line that is not the last.
    """
    file = Path(path)
    if file.is_dir():
        file = file / RESULTS_FILE
    if not file.is_file():
        raise ResultsError(f"no results at {file}")
    records, _ = _parse(file.read_bytes(), str(file))
    return records


def _parse(data: bytes, where: str) -> tuple[list[dict[str, Any]], int]:
    """Records, and the byte length of the intact prefix (the end of the last complete record)."""
    records: list[dict[str, Any]] = []
    seen: set[str] = set()
    good = 0
    pos = 0
    lines = data.split(b"\n")
    for index, raw in enumerate(lines):
        end = pos + len(raw) + (1 if index < len(lines) - 1 else 0)
        # Only a final line without its newline can be a write cut short; the newline goes last.
        last = index == len(lines) - 1
        if raw.strip():
            try:
                record = json.loads(raw)
                if not isinstance(record, dict) or "case" not in record:
                    raise ValueError("not a results record")
            except ValueError as exc:
                if last:
                    break  # a write cut short by a kill: the case was not finished
                raise ResultsError(f"{where}: line {index + 1} is corrupt ({exc}); fix or remove it") from None
            if record["case"] not in seen:
                seen.add(record["case"])
                records.append(record)
        good = end
        pos = end
    return records, good


def json_line(record: Mapping[str, Any]) -> str:
    """``record`` as one JSON line. Text stays readable UTF-8; a record holding a string that
    UTF-8 cannot encode (a lone surrogate, which an agent may well produce) is written with
    ``\\u`` escapes instead, which read back to the very same string.

    Example:
        >>> json_line({"a": "é"}), json_line({"a": "F \\ud800"})
        ('{"a":"é"}\\n', '{"a":"F \\\\ud800"}\\n')
        >>> json.loads(json_line({"a": "F \\ud800"})) == {"a": "F \\ud800"}
        True
    """
    text = json.dumps(record, ensure_ascii=False, separators=(",", ":"))
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = json.dumps(record, ensure_ascii=True, separators=(",", ":"))
    return text + "\n"


class RunFolderLock:
    """An exclusive lock on a run folder (``flock`` on ``.lock``, which names the holder's PID).

    The kernel drops the lock when its process ends, however it ends (SIGKILL included), so a
    killed run never leaves a stale lock behind. Where ``fcntl`` is missing (Windows) there is
    no lock.

    Raises:
        ResultsError: another process holds the lock (the message names its PID).
    """

    def __init__(self, run_dir: Path) -> None:
        self.path = run_dir / LOCK_FILE
        self._fd: int | None = None
        try:
            import fcntl
        except ImportError:  # pragma: no cover - not on POSIX
            return
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.read(fd, 64).decode("ascii", "replace").strip() or "unknown"
            os.close(fd)
            raise ResultsError(
                f"{run_dir} is in use by another cerebellum-gym run (PID {holder}); wait for it to end or choose another --out"
            ) from None
        except OSError:
            os.close(fd)
            raise
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        self._fd = fd

    def release(self) -> None:
        """Let go of the lock. Idempotent."""
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.ftruncate(self._fd, 0)
            os.close(self._fd)  # closing the descriptor drops the flock
            self._fd = None


class ResultsWriter:
    """Appends records to a run folder's ``results.jsonl``, one flushed line per case.

    The folder is locked while the writer is open (:class:`RunFolderLock`): a second run on it
    refuses, naming the first's PID.

    Args:
        run_dir: the run folder (created if missing).
        meta: the run's metadata, saved as ``run.json``.
        resume: continue the records already there; otherwise the folder must hold none.

    Raises:
        ResultsError: the folder cannot be created or written, another run holds it, results
            exist and ``resume`` is off, or ``resume`` finds a different run.
    """

    def __init__(self, run_dir: str | os.PathLike[str], meta: Mapping[str, Any], *, resume: bool) -> None:
        self.run_dir = Path(run_dir)
        self.path = self.run_dir / RESULTS_FILE
        self._file: IO[str] | None = None
        try:
            self.run_dir.mkdir(parents=True, exist_ok=True)
            self._lock = RunFolderLock(self.run_dir)
        except OSError as exc:
            raise self.unwritable(exc) from None
        try:
            self._open(meta, resume)
        except BaseException:
            self._lock.release()
            raise

    def _open(self, meta: Mapping[str, Any], resume: bool) -> None:
        existing: list[dict[str, Any]] = []
        try:
            (self.run_dir / FRAMES_DIR).mkdir(exist_ok=True)
            if self.path.exists() and self.path.stat().st_size > 0:
                if not resume:
                    raise ResultsError(f"{self.path} already holds results; pass --resume to continue that run, or choose another --out")
                self._check_same_run(meta)
                existing = self._repair()
            self.records: list[dict[str, Any]] = existing
            self.done: set[str] = {r["case"] for r in existing}
            if not (resume and (self.run_dir / RUN_FILE).exists()):
                write_json(self.run_dir / RUN_FILE, {"format": FORMAT_VERSION, **meta})
            self._file = self.path.open("a", encoding="utf-8")
        except OSError as exc:
            raise self.unwritable(exc) from None

    def unwritable(self, exc: OSError) -> ResultsError:
        """The error for a run folder the OS refuses to write (it blames the folder, not the agent)."""
        reason = exc.strerror or str(exc)
        where = exc.filename or self.run_dir
        return ResultsError(f"cannot write the run folder {self.run_dir} ({where}: {reason}); choose another --out")

    def _check_same_run(self, meta: Mapping[str, Any]) -> None:
        run_file = self.run_dir / RUN_FILE
        if not run_file.exists():
            return
        try:
            old = json.loads(run_file.read_text(encoding="utf-8"))
        except ValueError as exc:
            raise ResultsError(f"{run_file} is unreadable ({exc}); cannot check it is the same run") from None
        for key in RESUME_KEYS:
            if old.get(key) != meta.get(key):
                raise ResultsError(
                    f"cannot resume {self.run_dir}: it ran {key}={old.get(key)!r}, this run has {key}={meta.get(key)!r}; use another --out"
                )

    def _repair(self) -> list[dict[str, Any]]:
        data = self.path.read_bytes()
        records, good = _parse(data, str(self.path))
        if good < len(data) or (data and not data.endswith(b"\n")):
            # Drop a line cut short by a kill (its case reruns); end the last good line properly.
            with self.path.open("r+b") as f:
                f.truncate(good)
                if good and not data[:good].endswith(b"\n"):
                    f.seek(good)
                    f.write(b"\n")
        return records

    def write(self, record: Mapping[str, Any]) -> None:
        """Append one finished case and flush it to the OS (it survives a killed process)."""
        if self._file is None:
            raise ResultsError("results writer is closed")
        if record["case"] in self.done:
            raise ResultsError(f"case {record['case']!r} is already recorded")
        ordered = {key: record[key] for key in RECORD_KEYS if key in record}
        ordered.update({k: v for k, v in record.items() if k not in ordered})
        try:
            self._file.write(json_line(ordered))
            self._file.flush()
        except OSError as exc:
            raise self.unwritable(exc) from None
        self.done.add(str(record["case"]))
        self.records.append(dict(ordered))

    def close(self) -> None:
        """Flush to disk, close, and release the folder. Idempotent."""
        try:
            if self._file is not None:
                file, self._file = self._file, None
                with contextlib.suppress(OSError):  # a full disk was reported by write(); closing must not mask it
                    file.flush()
                    os.fsync(file.fileno())
                file.close()
        finally:
            self._lock.release()


def read_run(run_dir: str | os.PathLike[str]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A run folder's metadata (``{}`` when ``run.json`` is missing) and records."""
    folder = Path(run_dir)
    meta: dict[str, Any] = {}
    run_file = folder / RUN_FILE
    if run_file.exists():
        try:
            meta = json.loads(run_file.read_text(encoding="utf-8"))
        except ValueError as exc:
            raise ResultsError(f"{run_file} is not valid JSON: {exc}") from None
    return meta, read_results(folder)


def write_json(path: Path, data: Any) -> None:
    """Write JSON through a temporary file and rename, so readers never see half a file (strings
    UTF-8 cannot encode are written ``\\u``-escaped, as in :func:`json_line`)."""
    text = json.dumps(data, indent=2, ensure_ascii=False)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = json.dumps(data, indent=2, ensure_ascii=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text + "\n", encoding="utf-8")
    os.replace(tmp, path)


def write_text(path: Path, text: str) -> None:
    """Write text through a temporary file and rename (anything UTF-8 cannot encode backslash-escaped)."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8", errors="backslashreplace")
    os.replace(tmp, path)
