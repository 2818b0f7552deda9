"""Progress display: a live bar with success rate and ETA on a terminal, plain lines elsewhere.

On a TTY (and with tqdm installed) a tqdm bar shows cases done, the live success rate, infra
skips and the ETA. In CI logs and pipes, a bar's carriage returns make a mess, so a plain line is
printed at most every ``interval`` seconds and at the end.
"""

from __future__ import annotations

import sys
import time
from typing import Any, TextIO


class Progress:
    """Counts finished cases and shows them.

    Args:
        total: cases in the run (including those already done when resuming).
        done: cases already done (resume).
        solved: successes among those.
        label: shown before the counts (agent name).
        stream: where to write (stderr by default).
        mode: ``auto`` (a bar on a TTY, else lines), ``bar``, ``lines`` or ``off``.
        interval: seconds between plain lines.
    """

    def __init__(
        self,
        total: int,
        *,
        done: int = 0,
        solved: int = 0,
        label: str = "eval",
        stream: TextIO | None = None,
        mode: str = "auto",
        interval: float = 5.0,
    ) -> None:
        self.total = total
        self.done = done
        self.solved = solved
        self.skipped = 0
        self.label = label
        self.stream = stream if stream is not None else sys.stderr
        self.interval = interval
        self._start = time.perf_counter()
        self._initial = done
        self._last_line = self._start
        self._bar: Any = None
        if mode == "auto":
            mode = "bar" if _isatty(self.stream) else "lines"
        if mode == "bar":
            try:
                from tqdm import tqdm
            except ImportError:
                mode = "lines"
                print("no progress bar: tqdm is missing; install the 'eval' extra: pip install 'cerebellum-gym[eval]'", file=self.stream)
            else:
                self._bar = tqdm(total=total, initial=done, desc=label, unit="case", file=self.stream, dynamic_ncols=True, smoothing=0.1)
                self._bar.set_postfix_str(self._postfix(), refresh=False)
        self.mode = mode

    def update(self, *, success: bool, skipped: bool = False) -> None:
        """One more case finished."""
        self.done += 1
        self.solved += int(success)
        self.skipped += int(skipped)
        if self._bar is not None:
            self._bar.set_postfix_str(self._postfix(), refresh=False)
            self._bar.update(1)
        elif self.mode == "lines":
            now = time.perf_counter()
            if now - self._last_line >= self.interval or self.done == self.total:
                self._last_line = now
                self._line()

    def write(self, message: str) -> None:
        """Print a message without breaking the bar."""
        if self._bar is not None:
            self._bar.write(message, file=self.stream)
        elif self.mode != "off":
            print(message, file=self.stream, flush=True)

    def close(self) -> None:
        """Finish the display (a final line in line mode)."""
        if self._bar is not None:
            self._bar.close()
            self._bar = None
        elif self.mode == "lines" and self.done < self.total:
            self._line()

    def _postfix(self) -> str:
        ran = self.done - self.skipped
        rate = 100.0 * self.solved / ran if ran else 0.0
        text = f"success {self.solved}/{ran} = {rate:.1f}%"
        return text + (f", infra skips {self.skipped}" if self.skipped else "")

    def _line(self) -> None:
        elapsed = time.perf_counter() - self._start
        new = self.done - self._initial
        left = self.total - self.done
        eta = f"{elapsed / new * left:.0f}s" if new else "?"
        print(
            f"[{self.label}] {self.done}/{self.total} cases, {self._postfix()}, {elapsed:.1f}s elapsed, ETA {eta}",
            file=self.stream,
            flush=True,
        )


def _isatty(stream: TextIO) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False
