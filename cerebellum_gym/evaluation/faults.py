"""Fault injection: a :class:`Device` decorator that drops like a flaky emulator or adb link.

Long evaluation runs on real devices meet dropped connections and timeouts. The harness must
retry such cases and then count them as infra skips, never lose them, and never blame the
agent. :class:`FaultyDevice` wraps any device and raises
:class:`~cerebellum_gym.errors.DeviceLostError` on the calls a :class:`FaultPlan` picks, so that
path is tested on the in-process simulator, and so users can check their own pipeline
(``cerebellum-gym eval --inject-faults ...``).

Decisions depend only on the plan, the case id, the attempt number and the call's position in
the episode, never on timing or on which parallel env runs the case, so a faulty run is
reproducible at any ``--num-envs``. Once dropped, the device stays lost (every later call
raises) until it is replaced, as a real dropped device does.

Example:
    >>> from cerebellum_gym.sim import Phone
    >>> device = FaultyDevice(Phone(), FaultPlan(cases={"flaky": 1}, at_call=0))
    >>> device.begin_case("flaky", attempt=0)
    >>> device.factory_reset()
    Traceback (most recent call last):
    ...
    cerebellum_gym.errors.DeviceLostError: injected fault: device dropped at call #0 (factory_reset) of case 'flaky', attempt 0
    >>> device.begin_case("flaky", attempt=1)  # a dropped device stays lost ...
    >>> device.ui_tree()
    Traceback (most recent call last):
    ...
    cerebellum_gym.errors.DeviceLostError: injected fault: device is gone (dropped at call #0 (factory_reset) of case 'flaky', attempt 0)
    >>> fresh = FaultyDevice(Phone(), device.plan)  # ... until replaced; only attempt 0 of 'flaky' drops
    >>> fresh.begin_case("flaky", attempt=1)
    >>> fresh.factory_reset()
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, TypeVar

from cerebellum_gym.devices.base import Device, DeviceWrapper
from cerebellum_gym.errors import CerebellumError, DeviceLostError

_T = TypeVar("_T")

#: ``FaultPlan.cases`` value meaning "every attempt drops".
ALWAYS: Final = 1_000_000


@dataclass(frozen=True)
class FaultPlan:
    """Which device calls drop.

    Attributes:
        rate: chance that any one call drops (decided by a hash of ``seed``, case, attempt and
            call index, so it is reproducible).
        seed: varies the ``rate`` draws.
        cases: case id -> how many of its first attempts drop (:data:`ALWAYS` for all).
        at_call: for cases in ``cases``, the index of the call that drops, counting every device
            call of the episode from 0 (the reset's ``factory_reset`` is call 0, so ``0`` makes
            ``env.reset`` fail and a larger index makes a ``step`` fail).
    """

    rate: float = 0.0
    seed: int = 0
    cases: Mapping[str, int] = field(default_factory=dict)
    at_call: int = 0

    def __post_init__(self) -> None:
        if not 0.0 <= self.rate <= 1.0:
            raise CerebellumError(f"fault rate must be within [0, 1], got {self.rate}")
        if self.at_call < 0:
            raise CerebellumError(f"fault at_call must be >= 0, got {self.at_call}")

    @classmethod
    def parse(cls, spec: str) -> FaultPlan:
        """A plan from ``key=value`` pairs separated by commas.

        Keys: ``rate=FLOAT``, ``seed=INT``, ``at=INT`` (``at_call``), and ``case=ID[:N]``
        (repeatable; N attempts drop, all when N is omitted or ``*``).

        Example:
            >>> FaultPlan.parse("case=A,case=B:1,at=5")
            FaultPlan(rate=0.0, seed=0, cases={'A': 1000000, 'B': 1}, at_call=5)

        Raises:
            CerebellumError: an unknown key or a malformed value.
        """
        rate, seed, at_call = 0.0, 0, 0
        cases: dict[str, int] = {}
        for part in filter(None, (p.strip() for p in spec.split(","))):
            key, sep, value = part.partition("=")
            try:
                if not sep:
                    raise ValueError
                if key == "rate":
                    rate = float(value)
                elif key == "seed":
                    seed = int(value)
                elif key == "at":
                    at_call = int(value)
                elif key == "case":
                    case_id, _, count = value.rpartition(":") if ":" in value else (value, "", "")
                    cases[case_id] = ALWAYS if count in ("", "*") else int(count)
                else:
                    raise CerebellumError(f"unknown fault key {key!r} in {spec!r}; use rate=, seed=, at=, case=ID[:N]")
            except ValueError:
                raise CerebellumError(f"bad fault setting {part!r} in {spec!r}; use rate=F, seed=N, at=N, case=ID[:N]") from None
        return cls(rate=rate, seed=seed, cases=cases, at_call=at_call)

    def check_cases(self, known: Sequence[str]) -> None:
        """Raise when ``cases`` names an id that is not among ``known`` (the suite's case ids):
        a plan that can never fire would make a fault-injection run pass silently.

        Example:
            >>> FaultPlan(cases={"nope-1": 1}).check_cases(["SystemWifiTurnOn-0", "ContactsAddContact-0"])
            Traceback (most recent call last):
            ...
            cerebellum_gym.errors.CerebellumError: --inject-faults names case 'nope-1', which is not in the suite; ...
        """
        ids = set(known)
        unknown = [c for c in self.cases if c not in ids]
        if unknown:
            listed = ", ".join(known[:40]) + (f", ... ({len(known)} in all)" if len(known) > 40 else "")
            names = ", ".join(repr(c) for c in unknown)
            verb = "is" if len(unknown) == 1 else "are"
            raise CerebellumError(f"--inject-faults names case {names}, which {verb} not in the suite; its case ids are: {listed}")

    def drops(self, case_id: str, attempt: int, call: int) -> bool:
        """Whether call number ``call`` of ``case_id``'s attempt ``attempt`` drops."""
        if call == self.at_call and attempt < self.cases.get(case_id, 0):
            return True
        if self.rate <= 0.0:
            return False
        digest = hashlib.blake2b(f"{self.seed}|{case_id}|{attempt}|{call}".encode(), digest_size=8).digest()
        return int.from_bytes(digest, "little") / 2**64 < self.rate


class FaultyDevice(DeviceWrapper):
    """Wraps ``device`` and drops (raises :class:`DeviceLostError`) where ``plan`` says.

    Every intercepted :class:`Device` call (:class:`DeviceWrapper`: all but the screen size, the
    info entries and :meth:`close`) counts as a call and may drop. The harness calls
    :meth:`begin_case` before each episode's reset.

    Args:
        device: the device to wrap; it is closed with this one.
        plan: which calls drop.
    """

    def __init__(self, device: Device, plan: FaultPlan) -> None:
        super().__init__(device)
        self.plan = plan
        self.backend = f"faulty-{device.backend}"
        self.case_id = ""
        self.attempt = 0
        self.calls = 0
        self.lost: str | None = None

    @property
    def inner(self) -> Device:
        """The wrapped device (``device``; the name this class had before :class:`DeviceWrapper`)."""
        return self.device

    def begin_case(self, case_id: str, attempt: int) -> None:
        """Start counting calls for ``case_id``'s attempt ``attempt``."""
        self.case_id, self.attempt, self.calls = case_id, attempt, 0

    def intercept(self, method: str, call: Callable[..., _T], *args: Any) -> _T:
        if self.lost is not None:
            raise DeviceLostError(f"injected fault: device is gone ({self.lost})")
        index = self.calls
        self.calls += 1
        if self.plan.drops(self.case_id, self.attempt, index):
            self.lost = f"dropped at call #{index} ({method}) of case {self.case_id!r}, attempt {self.attempt}"
            raise DeviceLostError(f"injected fault: device {self.lost}")
        return call(*args)
