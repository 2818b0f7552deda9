"""Pro Expense tasks, judged on the expenses provider (the stand-in for the app database that
AndroidWorld pulls with root sqlite)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np

from cerebellum_gym.core.som import LabelledScreen
from cerebellum_gym.core.tree import UINode
from cerebellum_gym.devices.base import Device, Row
from cerebellum_gym.tasks import awdata
from cerebellum_gym.tasks.base import Oracle
from cerebellum_gym.tasks.common import fuzzy_match
from cerebellum_gym.tasks.gallery import DCIM, ReadPictureOracle, clear_gallery, text_picture, wrapped
from cerebellum_gym.tasks.markor import ROOT as MARKOR_ROOT
from cerebellum_gym.tasks.oracle import ScriptedOracle, by_id, find, label_for
from cerebellum_gym.tasks.registry import register_task
from cerebellum_gym.tasks.rowstore import AddRowsTask, DeleteDuplicateRowsTask, DeleteRowsTask, RowStoreTask

EXPENSE_PACKAGE = "com.arduia.expense"
EXPENSES_URI = "content://com.arduia.expense/expenses"
#: AndroidWorld's expense names by category (its 11 categories, ids 1-11 in this order) and notes.
NAMES_BY_CATEGORY = awdata.EXPENSE_NAMES
NOTES = awdata.EXPENSE_NOTES
CATEGORY_NAMES = list(NAMES_BY_CATEGORY)
#: AndroidWorld dates expenses between October 1 and the device's today, October 15, 2023.
FIRST_DAY_MS = 1696118400000  # 2023-10-01 00:00 UTC
LAST_DAY_MS = 1697328000000  # 2023-10-15 00:00 UTC


def random_expense(rng: np.random.Generator, avoid: set[str]) -> dict[str, str]:
    """One expense as AndroidWorld's ``_generate_expense`` draws it (amount in cents, $10-$500)."""
    while True:
        category = awdata.pick(rng, list(NAMES_BY_CATEGORY))
        name = awdata.pick(rng, NAMES_BY_CATEGORY[category])
        if name not in avoid:
            break
    day = int(rng.integers(0, (LAST_DAY_MS - FIRST_DAY_MS) // 86_400_000 + 1))
    created = FIRST_DAY_MS + day * 86_400_000 + int(rng.integers(0, 24)) * 3_600_000
    return {
        "name": name,
        "amount": str(int(rng.integers(1000, 50001))),
        "category": category,
        "note": awdata.pick(rng, NOTES),
        "created_at": str(created),
    }


def distinct_expenses(rng: np.random.Generator, count: int) -> list[dict[str, str]]:
    """``count`` random expenses, each named differently."""
    rows: list[dict[str, str]] = []
    for _ in range(count):
        rows.append(random_expense(rng, {r["name"] for r in rows}))
    return rows


def from_aw_row(expense: Any) -> dict[str, str]:
    """One of AndroidWorld's ``Expense`` rows (a dataclass, category by id) as a provider row."""
    return {
        "name": str(expense.name),
        "amount": str(int(expense.amount)),
        "category": CATEGORY_NAMES[int(expense.category) - 1],
        "note": str(expense.note or ""),
        "created_at": str(int(expense.created_date)),
    }


def dollars(cents: str | int) -> str:
    """``$`` and the amount as Python prints ``cents / 100`` (AndroidWorld's ``amount_dollars``: $123.4, $50.0)."""
    return f"${int(cents) / 100}"


def amount_text(cents: int) -> str:
    """An amount as the app's lists show it: English grouping, at most two decimals, no
    trailing zeros (``1,200``, ``12.5``)."""
    whole, frac = divmod(abs(int(cents)), 100)
    return ("-" if cents < 0 else "") + f"{whole:,}" + (f".{frac:02d}".rstrip("0") if frac else "")


def typed_amount(cents: str | int) -> str:
    """What to type in the amount field."""
    return f"{int(cents) / 100:.2f}"


def shows_desc(screen: LabelledScreen, desc: str) -> bool:
    return screen.root.find(content_desc=desc) is not None


def matches(row: Row, want: dict[str, str]) -> bool:
    return (
        row.get("amount") == want["amount"]
        and row.get("category") == want["category"]
        and fuzzy_match(row.get("name", ""), want["name"])
        and fuzzy_match(row.get("note", ""), want["note"])
    )


def render_expenses(rows: list[dict[str, str]], csv: bool, wrap: int | None = None) -> str:
    """The goal's listing in AndroidWorld's two representations (``get_text_representation_of_rows``):
    ``|``-separated values under a header, or one ``Expense: <name>`` block per row, its values
    wrapped at ``wrap`` characters when given (as in the pictures AndroidWorld pushes)."""
    fields = ("name", "amount_dollars", "category_name", "note")
    values = [(r["name"], dollars(r["amount"]), r["category"], r["note"]) for r in rows]
    if csv:
        return "|".join(fields) + "\n" + "\n".join("|".join(v) for v in values)
    blocks = [
        f"Expense: {v[0]}\n" + "".join(f" {field}: {wrapped(value, wrap)}\n" for field, value in zip(fields[1:], v[1:], strict=True))
        for v in values
    ]
    return "\n".join(blocks)


def _id(name: str) -> str:
    return f"{EXPENSE_PACKAGE}:id/{name}"


def _child_text(node: UINode, rid: str) -> str | None:
    found = node.find(resource_id=_id(rid))
    return found.text if found is not None else None


class AddExpensesOracle(ScriptedOracle):
    """Home's add button, then the entry: Name, Amount, Note typed, the category's chip, Save."""

    def __init__(self, rows: list[dict[str, str]]) -> None:
        super().__init__()
        self.rows = rows
        self.done = 0

    def act(self, screen: LabelledScreen) -> str:
        step = self.open_app(screen, EXPENSE_PACKAGE, "Pro Expense")
        if step is not None:
            return step
        if self.done >= len(self.rows):
            return "F"
        want = self.rows[self.done]
        if screen.root.find(resource_id=_id("edt_amount")) is not None:
            for rid, value in (("edt_name", want["name"]), ("edt_amount", typed_amount(want["amount"])), ("edt_note", want["note"])):
                hit = find(screen, by_id(_id(rid)))
                if hit is not None and hit[1].text != value:
                    return self.type_into(screen, hit[1], hit[0], value)
            chip = find(screen, lambda n: n.resource_id == _id("cd_category") and _child_text(n, "tv_name") == want["category"])
            if chip is not None and not chip[1].selected:
                return self.tap(chip[0])
            save = find(screen, by_id(_id("btn_save")))
            if save is None:
                return self.scroll_search(screen)
            self.done += 1
            return self.tap(save[0])
        add = find(screen, by_id(_id("fb_main_add")))
        return self.tap(add[0]) if add is not None else "B"


class _Expenses(RowStoreTask):
    """Pro Expense's expenses: the table every task of the family works on."""

    app: ClassVar[str] = "Pro Expense"
    family: ClassVar[str] = "expense"
    uri: ClassVar[str] = EXPENSES_URI


class _AddExpenses(_Expenses, AddRowsTask):
    template = "Add the following expenses into the pro expense:\n{expenses}"
    judge = (
        "Every earlier expense is unchanged (else 0); each target must appear with equal amount and category and fuzzy name and note; "
        "credit is matched targets over max(targets, rows added), so a missing or an extra row costs (AndroidWorld scores it 0/1)."
    )
    count: ClassVar[int] = 1

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        rows = distinct_expenses(rng, cls.count)
        csv = bool(rng.random() < 0.5)
        return {"rows": rows, "expenses": render_expenses(rows, csv), "noise_seed": int(rng.integers(2**31))}

    @classmethod
    def from_androidworld(cls, params: dict[str, Any]) -> dict[str, Any]:
        rows = [from_aw_row(r) for r in params["row_objects"]]
        csv = params.get("text_representation_type") == "csv"
        return {"rows": rows, "expenses": render_expenses(rows, csv), "noise_seed": 0}

    def initialize(self, device: Device) -> None:
        self.clear(device)
        rng = np.random.default_rng(self.params["noise_seed"])
        avoid = {r["name"] for r in self.params["rows"]}
        for _ in range(10):  # AndroidWorld's ten noise rows, none named like a target
            self.insert(device, random_expense(rng, avoid))
        self.baseline(device)

    def matches(self, row: Row, want: dict[str, str]) -> bool:
        return matches(row, want)

    def text_candidates(self) -> list[str]:
        out: list[str] = []
        for r in self.params["rows"]:
            out += [r["name"], typed_amount(r["amount"]), r["note"]]
        return out

    def oracle(self) -> Oracle:
        return AddExpensesOracle(self.params["rows"])


@register_task
class ExpenseAddSingle(_AddExpenses):
    mirrors = "ExpenseAddSingle"
    complexity: ClassVar[float] = 1.2


@register_task
class ExpenseAddMultiple(_AddExpenses):
    mirrors = "ExpenseAddMultiple"
    complexity: ClassVar[float] = 6.0
    count = 3


class DeleteExpensesOracle(ScriptedOracle):
    """Expense Logs (through the navigation drawer), a long press on each target to select it,
    the toolbar's Delete, and Confirm on the "Delete Items" sheet."""

    def __init__(self, names: list[str]) -> None:
        super().__init__()
        self.wanted = list(names)
        self.marked: list[str] = []
        self.names = list(names)  # what is left to delete

    def key(self, node: UINode) -> str | None:
        """The target a log row stands for, if it is one."""
        return _child_text(node, "tv_name")

    def act(self, screen: LabelledScreen) -> str:
        step = self.open_app(screen, EXPENSE_PACKAGE, "Pro Expense")
        if step is not None:
            return step
        if not self.names:
            return "F"
        if screen.root.find(text="Delete Items") is not None:
            confirm = find(screen, by_id(_id("btn_confirm")))
            self.names = [n for n in self.names if n not in self.marked]
            self.marked = []
            return self.tap(confirm[0]) if confirm is not None else "B"
        if screen.root.find(resource_id=_id("rv_expense")) is None:
            if screen.root.find(resource_id=_id("fb_main_add")) is not None:
                menu = find(screen, lambda n: n.class_name == "android.widget.ImageButton" and not n.content_desc and not n.resource_id)
                return self.tap(menu[0]) if menu is not None else "B"
            logs = label_for(screen, text="Expense Logs")
            return self.tap(logs) if logs is not None else "B"
        for label, node in zip(screen.labels, screen.nodes, strict=True):
            if node.resource_id != _id("cd_expense") or node.find(resource_id=_id("tv_amount")) is None:
                continue  # not a row, or a row cut by the list's edge (its check may be out of view)
            key = self.key(node)
            chosen = node.find(resource_id=_id("imv_check")) is not None
            if key in self.names and key not in self.marked:
                if chosen:
                    self.marked.append(key)
                    continue
                self._moved()
                return f"P {label}"
        if self.marked and sorted(self.marked) == sorted(self.names):
            delete = find(screen, by_id(_id("delete")))
            if delete is not None:
                return self.tap(delete[0])
        return self.scroll_search(screen)


class _DeleteExpenses(_Expenses, DeleteRowsTask):
    template = "Delete the following expenses from pro expense: {expense_names}."
    judge = "Every non-target expense is unchanged and none was added (else 0); credit is the share of target expenses deleted."
    count: ClassVar[int] = 1
    noise: ClassVar[int] = 0
    #: Whether the noise rows' names differ from each other too (AndroidWorld draws every row
    #: with a name of its own).
    distinct_noise: ClassVar[bool] = False

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        rows = distinct_expenses(rng, cls.count)
        return {"rows": rows, "expense_names": ", ".join(r["name"] for r in rows), "noise_seed": int(rng.integers(2**31))}

    @classmethod
    def from_androidworld(cls, params: dict[str, Any]) -> dict[str, Any]:
        rows = [from_aw_row(r) for r in params["row_objects"]]
        return {"rows": rows, "expense_names": ", ".join(r["name"] for r in rows), "noise_seed": 0}

    def initialize(self, device: Device) -> None:
        self.clear(device)
        rng = np.random.default_rng(self.params["noise_seed"])
        names = {r["name"] for r in self.params["rows"]}
        for row in self.params["rows"]:
            self.insert(device, row)
        for _ in range(self.noise):
            row = random_expense(rng, names)
            if self.distinct_noise:
                names.add(row["name"])
            self.insert(device, row)
        self.baseline(device)

    def target_ids(self, before: Mapping[str, Row]) -> set[str]:
        # The rows named in the goal (no noise row shares a target's name).
        names = {r["name"] for r in self.params["rows"]}
        return {i for i, r in before.items() if r.get("name") in names}

    def text_candidates(self) -> list[str]:
        return []

    def oracle(self) -> Oracle:
        return DeleteExpensesOracle([r["name"] for r in self.params["rows"]])


@register_task
class ExpenseDeleteSingle(_DeleteExpenses):
    mirrors = "ExpenseDeleteSingle"
    complexity: ClassVar[float] = 1.0
    noise = 4  # AndroidWorld seeds only the target, so "delete everything" passes there; not here


@register_task
class ExpenseDeleteMultiple(_DeleteExpenses):
    mirrors = "ExpenseDeleteMultiple"
    complexity: ClassVar[float] = 2.0
    count = 3
    noise = 4


@register_task
class ExpenseDeleteMultiple2(_DeleteExpenses):
    mirrors = "ExpenseDeleteMultiple2"
    complexity: ClassVar[float] = 3.4
    judge = (
        "The three named expenses are gone among 50 other expenses (every name distinct), every other expense unchanged and none "
        "added (else 0); credit is the share of targets deleted (AndroidWorld scores it 0/1)."
    )
    count = 3
    noise = 50
    distinct_noise = True


class DedupOracle(DeleteExpensesOracle):
    """Delete one of the two identical expenses: a log row with the name and the amount (an
    expense of the same name but another amount is not one)."""

    def __init__(self, name: str, amount: str) -> None:
        self.line = f"{name}|{amount}"
        super().__init__([self.line])

    def key(self, node: UINode) -> str | None:
        return f"{_child_text(node, 'tv_name')}|{_child_text(node, 'tv_amount')}"


@register_task
class ExpenseDeleteDuplicates(_Expenses, DeleteDuplicateRowsTask):
    mirrors = "ExpenseDeleteDuplicates"
    complexity: ClassVar[float] = 1.2
    template = (
        "Delete all but one of any expenses in pro expense that are exact duplicates, "
        "ensuring at least one instance of each unique expense remains."
    )
    judge = "Exactly one of the two identical expenses is deleted and every other expense is unchanged."

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        return {"noise_seed": int(rng.integers(2**31))}

    @classmethod
    def from_androidworld(cls, params: dict[str, Any]) -> dict[str, Any]:
        return {"noise_seed": 0}

    #: Distinct expenses besides the target (AndroidWorld's ``n_rows_noise``, less the near copies).
    noise: ClassVar[int] = 5
    #: Near copies of the target: its name, category and note with another amount and date.
    near_copies: ClassVar[int] = 0

    def initialize(self, device: Device) -> None:
        if self.near_copies:
            self._initialize_with_copies(device)
            return
        self.clear(device)
        rng = np.random.default_rng(self.params["noise_seed"])
        # AndroidWorld: six distinct expenses, one of them twice.
        target = random_expense(rng, set())
        names = {target["name"]}
        for _ in range(5):
            row = random_expense(rng, names)
            names.add(row["name"])
            self.insert(device, row)
        self.insert(device, target)
        self.insert(device, target)
        self.baseline(device)

    def _initialize_with_copies(self, device: Device) -> None:
        """AndroidWorld's harder set-up: distinct expenses, near copies of the target (50 to 999
        cents more, another day), and the target twice, all in one shuffled list."""
        self.clear(device)
        rng = np.random.default_rng(self.params["noise_seed"])
        rows = distinct_expenses(rng, self.noise + 1)
        target = rows.pop()
        for extra in rng.choice(np.arange(50, 1000), size=self.near_copies, replace=False):
            copy = random_expense(rng, set())
            rows.append({**target, "amount": str(int(target["amount"]) + int(extra)), "created_at": copy["created_at"]})
        rows += [target, target]
        for i in rng.permutation(len(rows)):
            self.insert(device, rows[int(i)])
        self.baseline(device)

    def target_ids(self, before: Mapping[str, Row]) -> set[str]:
        # The duplicates: the rows equal in every column but their id.
        seen: dict[tuple[tuple[str, str], ...], list[str]] = {}
        for i, row in before.items():
            seen.setdefault(tuple(sorted((k, v) for k, v in row.items() if k != "_id")), []).append(i)
        return next((set(ids) for ids in seen.values() if len(ids) > 1), set())

    def baseline(self, device: Device) -> None:
        super().baseline(device)
        self._target = next((self._before[i]["name"] for i in self._dupes), "")

    def oracle(self) -> Oracle:
        row = self._before[min(self._dupes, key=int)] if self._dupes else {"category": "", "amount": "0"}
        return DedupOracle(self._target, amount_text(int(row["amount"])))


@register_task
class ExpenseDeleteDuplicates2(ExpenseDeleteDuplicates):
    mirrors = "ExpenseDeleteDuplicates2"
    complexity: ClassVar[float] = 1.8
    judge = (
        "Exactly one of the two identical expenses is deleted and every other expense is unchanged, among 37 distinct expenses "
        "and three near copies of the duplicate (same name, category and note; another amount and date)."
    )
    noise = 37
    near_copies = 3


@register_task
class ExpenseAddMultipleFromMarkor(_AddExpenses):
    mirrors = "ExpenseAddMultipleFromMarkor"
    complexity: ClassVar[float] = 6.0
    template = "Go through the transactions in my_expenses.txt in Markor. Log the reimbursable transactions in the pro expense."
    judge = (
        "As for adding expenses: the two transactions of my_expenses.txt whose note ends in 'Reimbursable.' are added (equal amount "
        "and category, fuzzy name and the note without that marker), among 100 others in the file that the app already holds; "
        "every earlier expense unchanged (AndroidWorld scores it 0/1)."
    )
    count = 2
    #: The other transactions, in the app and in the file.
    noise: ClassVar[int] = 100
    file: ClassVar[str] = "my_expenses.txt"

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        rows = distinct_expenses(rng, cls.count)
        return {"rows": rows, "noise_seed": int(rng.integers(2**31))}

    @classmethod
    def from_androidworld(cls, params: dict[str, Any]) -> dict[str, Any]:
        return {"rows": [from_aw_row(r) for r in params["row_objects"]], "noise_seed": 0}

    def initialize(self, device: Device) -> None:
        self.clear(device)
        rng = np.random.default_rng(self.params["noise_seed"])
        avoid = {r["name"] for r in self.params["rows"]}
        noise = [random_expense(rng, avoid) for _ in range(self.noise)]
        for row in noise:
            self.insert(device, row)
        # The file lists the targets, marked, among the others, shuffled (AndroidWorld's csv form).
        marked = [{**r, "note": r["note"] + ". Reimbursable."} for r in self.params["rows"]]
        listed = marked + noise
        order = rng.permutation(len(listed))
        device.remove_path(MARKOR_ROOT)
        device.write_file(f"{MARKOR_ROOT}/{self.file}", render_expenses([listed[int(i)] for i in order], csv=True).encode())
        self.baseline(device)


@register_task
class ExpenseAddMultipleFromGallery(_AddExpenses):
    mirrors = "ExpenseAddMultipleFromGallery"
    complexity: ClassVar[float] = 6.0
    template = "Add the expenses from expenses.jpg in Simple Gallery Pro to pro expense."
    judge = (
        "As for adding expenses: the three expenses pictured in DCIM/expenses.jpg (text only in its pixels) are added with equal "
        "amount and category and fuzzy name and note, and not the ten older ones that old_expenses_0-9.jpg picture and the app "
        "already holds; every earlier expense unchanged (AndroidWorld scores it 0/1)."
    )
    count = 3
    picture: ClassVar[str] = "expenses.jpg"
    #: AndroidWorld pictures values wrapped at this many characters.
    wrap: ClassVar[int] = 60

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        rows = distinct_expenses(rng, cls.count)
        avoid = {r["name"] for r in rows}
        return {"rows": rows, "noise": [random_expense(rng, avoid) for _ in range(10)]}  # n_rows_noise

    @classmethod
    def from_androidworld(cls, params: dict[str, Any]) -> dict[str, Any]:
        return {"rows": [from_aw_row(r) for r in params["row_objects"]], "noise": [from_aw_row(r) for r in params["noise_row_objects"]]}

    def initialize(self, device: Device) -> None:
        # AndroidWorld: the app's table cleared, the storage cleared, the targets pictured as text
        # blocks in expenses.jpg and the noise rows in old_expenses_0.jpg to _9.jpg. Here the
        # older expenses are in the app too, as the other add tasks hold their noise.
        self.clear(device)
        for row in self.params["noise"]:
            self.insert(device, row)
        clear_gallery(device)
        device.write_file(f"{DCIM}/{self.picture}", text_picture(render_expenses(self.params["rows"], False, self.wrap)))
        old = text_picture(render_expenses(self.params["noise"], False, self.wrap))
        for i in range(10):
            device.write_file(f"{DCIM}/old_expenses_{i}.jpg", old)
        self.baseline(device)

    def tear_down(self, device: Device) -> None:
        clear_gallery(device)

    def oracle(self) -> Oracle:
        return ReadPictureOracle(self.picture, AddExpensesOracle(self.params["rows"]))
