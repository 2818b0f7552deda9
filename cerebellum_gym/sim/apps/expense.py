"""Pro Expense (com.arduia.expense): a list of expenses with a total, an add/edit form with a
category picker, and a detail page with delete.

Expenses live in ``content://com.arduia.expense/expenses`` (amount in cents), the sim's
stand-in for the app's database that AndroidWorld reads with sqlite.
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import ClassVar

from cerebellum_gym.sim.apps.base import App, Route
from cerebellum_gym.sim.apps.common import confirm_dialog, edit_field, field_key
from cerebellum_gym.sim.providers import EXPENSES_URI
from cerebellum_gym.sim.screen import ScreenSpec
from cerebellum_gym.sim.widgets import Button, Dialog, IconButton, ListItem, Text, Widget

TEAL = (0, 121, 107)
CATEGORIES = (
    "Others",
    "Income",
    "Food",
    "Housing",
    "Social",
    "Entertainment",
    "Transportation",
    "Clothes",
    "Health Care",
    "Education",
    "Donation",
)


LANGUAGES = ("English", "Myanmar (Unicode)", "Myanmar (Zawgyi)")
CURRENCIES = ("USD - $", "EUR - €", "MMK - Ks", "JPY - ¥")


def money(cents: int) -> str:
    return f"${cents // 100:,}.{cents % 100:02d}"


def parse_cents(text: str) -> int | None:
    try:
        value = float(text.strip().lstrip("$").replace(",", ""))
    except ValueError:
        return None
    return round(value * 100) if value > 0 else None


class ProExpenseApp(App):
    package: ClassVar[str] = "com.arduia.expense"
    #: Its screens show no time finer than the minute (the phone rebuilds every screen on a new one).
    clock_dependent: ClassVar[bool] = False
    activity: ClassVar[str] = "com.arduia.expense.ui.MainActivity"
    label: ClassVar[str] = "Pro Expense"
    color: ClassVar[tuple[int, int, int]] = TEAL

    def first_run_data(self) -> dict[str, object]:
        return {"onboarded": False}

    def on_launch(self) -> None:
        super().on_launch()
        if not self.data.get("onboarded", True) and self.route["screen"] != "onboarding":
            self.reset_to("onboarding", step="language", choice="English")

    # --- first run: language, then currency ---------------------------------------------------

    def screen_onboarding(self, route: Route) -> ScreenSpec:
        """The first start's two pages (after a fresh install or ``pm clear``): the language,
        NEXT, then the currency, CONTINUE."""
        language = route["step"] == "language"
        choices = LANGUAGES if language else CURRENCIES

        def pick(choice: str) -> None:
            route["choice"] = choice

        def advance() -> None:
            if language:
                route.update(step="currency", choice=CURRENCIES[0])
            else:
                self.data["onboarded"] = True
                self.reset_to("main")

        body: list[Widget] = [Text("Choose language" if language else "Choose currency", size=56, height=200)]
        body += [ListItem(c, avatar="✓" if c == route["choice"] else "", on_tap=lambda c=c: pick(c), height=140) for c in choices]
        button = Button("NEXT" if language else "CONTINUE", filled=True, on_tap=advance, rid=f"{self.package}:id/btn_next")
        return ScreenSpec(title=None, body=body, bottom=[button])

    def expenses(self) -> list[dict[str, str]]:
        return sorted(self.phone.content_query(EXPENSES_URI), key=lambda r: (-int(r.get("created_at", 0)), -int(r.get("_id", 0))))

    def screen_main(self, route: Route) -> ScreenSpec:
        rows = self.expenses()
        total = sum(int(r.get("amount", 0)) for r in rows)
        body: list[Widget] = [Text(f"Total {money(total)}", size=56, height=200, rid=f"{self.package}:id/tv_total")]
        for row in rows:
            name = row.get("name", "")
            body.append(
                ListItem(
                    name,
                    f"{row.get('category', '')} · {money(int(row.get('amount', 0)))}",
                    avatar=name[:1].upper(),
                    avatar_color=TEAL,
                    on_tap=lambda i=row["_id"]: self.push("detail", expense_id=i),
                )
            )
        if len(body) == 1:
            body.append(Text("No expenses yet", size=44, center=True, height=300))

        def add() -> None:
            self.push("edit", expense_id=None, title="", amount="", note="", category="Others", error="")
            self.phone.focus(field_key(self, self.route, "title"))

        fab = IconButton("Add expense", "+", color=(255, 255, 255), round_fill=TEAL, on_tap=add)
        return ScreenSpec(title="Pro Expense", body=body, fab=fab)

    def screen_detail(self, route: Route) -> ScreenSpec:
        rows = self.phone.content_query(EXPENSES_URI, where={"_id": route["expense_id"]})
        if not rows:
            return ScreenSpec(title="Expense", up=self.pop, body=[Text("Expense not found", size=44)])
        row = rows[0]
        when = datetime.fromtimestamp(int(row.get("created_at", 0)) / 1000, timezone.utc).strftime("%b %-d, %Y %H:%M")
        body: list[Widget] = [
            Text(row.get("name", ""), size=64, height=200, rid=f"{self.package}:id/tv_name"),
            Text(money(int(row.get("amount", 0))), size=56, height=160, color=TEAL, rid=f"{self.package}:id/tv_amount"),
            ListItem("Category", row.get("category", "")),
            ListItem("Note", row.get("note", "") or "-"),
            ListItem("Date", when),
        ]

        def delete() -> None:
            self.phone.content_delete(EXPENSES_URI, where={"_id": row["_id"]})
            self.pop()

        def edit() -> None:
            self.push(
                "edit",
                expense_id=row["_id"],
                title=row.get("name", ""),
                amount=f"{int(row.get('amount', 0)) / 100:.2f}",
                note=row.get("note", ""),
                category=row.get("category", "Others"),
                error="",
            )

        dialog = confirm_dialog(self, "Delete", "Delete this expense?", "Delete", delete) if route.get("dialog") == "delete" else None
        actions: list[Widget] = [IconButton("Edit", "✎", on_tap=edit), IconButton("Delete", "✕", on_tap=lambda: self.set_dialog("delete"))]
        return ScreenSpec(title="Expense", up=self.pop, body=body, actions=actions, dialog=dialog)

    def _save(self, route: Route) -> None:
        name = str(route.get("title", "")).strip()
        cents = parse_cents(str(route.get("amount", "")))
        if not name or cents is None:
            route["error"] = "Enter a name and an amount"
            return
        values = {
            "name": name,
            "amount": str(cents),
            "category": route["category"],
            "note": str(route.get("note", "")).strip(),
            "created_at": str(int(self.phone.state.clock * 1000)),
        }
        if route["expense_id"] is not None:
            old = self.phone.content_query(EXPENSES_URI, where={"_id": route["expense_id"]})
            if old:
                values["created_at"] = old[0].get("created_at", values["created_at"])
            self.phone.content_delete(EXPENSES_URI, where={"_id": route["expense_id"]})
            self.pop()  # the detail page of the old row
        self.phone.content_insert(EXPENSES_URI, values)
        self.pop()

    def screen_edit(self, route: Route) -> ScreenSpec:
        body: list[Widget] = []
        if route.get("error"):
            body.append(Text(route["error"], size=40, color=(200, 30, 30)))
        body += [
            edit_field(self, route, "title", hint="Name", rid=f"{self.package}:id/name"),
            edit_field(self, route, "amount", hint="Amount"),
            ListItem("Category", route["category"], on_tap=lambda: self.set_dialog("category"), rid=f"{self.package}:id/category"),
            edit_field(self, route, "note", hint="Note"),
        ]
        dialog = None
        if route.get("dialog") == "category":

            def pick(category: str) -> None:
                route["category"] = category
                self.set_dialog(None)

            dialog = Dialog(
                "Category",
                [Button("Cancel", filled=False, on_tap=lambda: self.set_dialog(None))],
                body=[ListItem(c, on_tap=lambda c=c: pick(c), height=120) for c in CATEGORIES],
            )
        title = "Edit expense" if route["expense_id"] is not None else "Add expense"
        return ScreenSpec(
            title=title, up=self.pop, body=body, bottom=[Button("Save", filled=True, on_tap=lambda: self._save(route))], dialog=dialog
        )
