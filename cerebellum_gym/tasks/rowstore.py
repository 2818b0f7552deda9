"""Tasks over one app's table of rows (Pro Expense's expenses, Broccoli's recipes): the base the
row-store families share.

The table is read and written through its content provider (``uri``), the stand-in for the app
database AndroidWorld pulls with root sqlite, and rows are compared by id. The judges are
AndroidWorld's ``sqlite_validators`` with partial credit on the way:

- adding (:class:`AddRowsTask`): every earlier row unchanged, the targets matched among the new
  rows over max(targets, rows added) (``validate_rows_addition_integrity``);
- deleting (:class:`DeleteRowsTask`): every other row unchanged and none added, credit the share
  of the targets gone (``validate_rows_removal_integrity``);
- deleting duplicates (:class:`DeleteDuplicateRowsTask`): exactly one of the identical rows left,
  unchanged, every other row unchanged and none added (``DeleteDuplicateRows``).

A family names its table (``uri``, ``new_row``) and what its targets are; the set-up and the
oracles stay the family's.
"""

from __future__ import annotations

import abc
from collections.abc import Mapping
from typing import Any, ClassVar

from cerebellum_gym.devices.base import Device, Row
from cerebellum_gym.tasks.base import Task
from cerebellum_gym.tasks.common import added_share


class RowStoreTask(Task):
    """A task whose state is the rows of one provider table, compared with their state at
    :meth:`baseline`."""

    #: The provider URI of the table.
    uri: ClassVar[str] = ""
    #: Every column with the value a new row gets (an inserted row is laid over it).
    new_row: ClassVar[Mapping[str, str]] = {}

    @classmethod
    def rows_by_id(cls, device: Device) -> dict[str, Row]:
        return {r["_id"]: r for r in device.content_query(cls.uri)}

    @classmethod
    def insert(cls, device: Device, row: Mapping[str, str]) -> None:
        device.content_insert(cls.uri, {**cls.new_row, **row})

    @classmethod
    def clear(cls, device: Device) -> None:
        device.content_delete(cls.uri)

    def baseline(self, device: Device) -> None:
        self._before = self.rows_by_id(device)

    def others_intact(self, after: Mapping[str, Row], targets: set[str]) -> bool:
        """Every row but ``targets`` as it was, and no row added."""
        unchanged = all(after.get(i) == row for i, row in self._before.items() if i not in targets)
        return unchanged and all(i in self._before for i in after)


class AddRowsTask(RowStoreTask):
    """Rows to add (``params["rows"]``): credit as :func:`~cerebellum_gym.tasks.common.added_share`."""

    @abc.abstractmethod
    def matches(self, row: Row, want: Any) -> bool:
        """Whether the added ``row`` counts as the target ``want``."""

    def progress(self, device: Device, answer: str | None = None) -> float:
        return added_share(self._before, self.rows_by_id(device), self.params["rows"], self.matches)


class DeleteRowsTask(RowStoreTask):
    """Rows to delete, chosen at :meth:`baseline` by :meth:`target_ids`."""

    @abc.abstractmethod
    def target_ids(self, before: Mapping[str, Row]) -> set[str]:
        """The ids of the rows to delete among ``before``."""

    def baseline(self, device: Device) -> None:
        super().baseline(device)
        self._targets = self.target_ids(self._before)

    def progress(self, device: Device, answer: str | None = None) -> float:
        after = self.rows_by_id(device)
        if not self.others_intact(after, self._targets):
            return 0.0
        if not self._targets:
            return 1.0  # nothing to delete, and nothing was
        return sum(i not in after for i in self._targets) / len(self._targets)


class DeleteDuplicateRowsTask(DeleteRowsTask):
    """Identical rows (the targets, ``_dupes``) of which exactly one must stay, unchanged."""

    def baseline(self, device: Device) -> None:
        super().baseline(device)
        self._dupes = set(self._targets)

    def progress(self, device: Device, answer: str | None = None) -> float:
        after = self.rows_by_id(device)
        kept = [i for i in self._dupes if i in after]
        one_left = len(kept) == 1 and after[kept[0]] == self._before[kept[0]]
        return 1.0 if self.others_intact(after, self._dupes) and one_left else 0.0
