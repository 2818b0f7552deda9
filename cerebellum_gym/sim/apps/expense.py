"""Pro Expense (com.arduia.expense) as its v1.0.0-beta05 shows it (the APK AndroidWorld installs).

Dark, with a navigation drawer (Home, Expense Logs, Statistics, Backup, Feedback, About,
Settings). Home: the "Totals" card (this month's Income and Outcome), "Expenses in this Week"
with its chart, "Recent" (the four newest expenses, a MORE button to the logs) and an add button
with no description. The entry ("Expense Entry"): Name, Amount, a category chip per category
(Income first, Others last), Note and Save ("Update" when editing). Expense Logs: every expense,
newest first; a tap shows its "Expense Detail" sheet (Edit; a delete button in the logs), a long
press selects it (the toolbar then reads "N items" and offers Delete), and deleting asks on a
"Delete Items" sheet (Confirm). Resource-ids, strings, the order of categories and the date
formats ("Today 5:00 PM", "Yesterday 8:00 AM", "Dec 31", "2023 Oct 3": the app's own
formatter, which gives the full date for an earlier day of this month) are the app's.

Expenses live in ``content://com.arduia.expense/expenses`` (amount in cents), the sim's stand-in
for the app's database that AndroidWorld reads with sqlite.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable, Sequence
from datetime import datetime, timedelta, timezone
from typing import Any, ClassVar, Final

from PIL import ImageDraw

from cerebellum_gym.core.tree import Bounds, UINode
from cerebellum_gym.sim import render
from cerebellum_gym.sim.apps.base import App, Route
from cerebellum_gym.sim.apps.common import edit_field
from cerebellum_gym.sim.apps.registry import register_app
from cerebellum_gym.sim.databases import DATA_ROOT, AppDatabase, Table, declare, each_row, room_schema
from cerebellum_gym.sim.material import Theme, dp
from cerebellum_gym.sim.material.components import ActionMenuItem, Fab, MaterialIconButton, TopAppBar
from cerebellum_gym.sim.providers import EXPENSES_URI
from cerebellum_gym.sim.screen import ScreenSpec
from cerebellum_gym.sim.widgets import Button, Dialog, ListItem, Row, Text, Widget

TEAL = (0, 121, 107)
#: The categories as the database numbers them (``CATEGORIES.index``).
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
#: The entry's chips, in the app's order (ExpenseCategoryProviderImpl).
CHIP_ORDER: Final = (*CATEGORIES[1:], CATEGORIES[0])  # Income first, Others last
#: The navigation drawer's items (menu_home.xml).
DRAWER_ITEMS: Final = ("Home", "Expense Logs", "Statistics", "Backup", "Feedback", "About", "Settings")
#: Rows the home screen's "Recent" card shows (ExpenseDao.getRecentExpense: LIMIT 4).
RECENT: Final = 4

LANGUAGES = ("English", "Myanmar (Unicode)", "Myanmar (Zawgyi)")
CURRENCIES = ("USD - $", "EUR - €", "MMK - Ks", "JPY - ¥")

THEME: Final = Theme.dark_theme(primary=(79, 195, 247), on_primary=(0, 0, 0))
PAGE: Final = (18, 18, 18)
CARD: Final = (37, 37, 37)
ON_PAGE: Final = (236, 236, 236)
MUTED: Final = (170, 170, 170)


def amount_text(cents: int) -> str:
    """The app's amount: English grouping, at most two decimals, no trailing zeros."""
    whole, frac = divmod(abs(int(cents)), 100)
    text = f"{whole:,}" + (f".{frac:02d}".rstrip("0") if frac else "")
    return ("-" if cents < 0 else "") + text


def parse_cents(text: str) -> int | None:
    try:
        value = float(text.strip().lstrip("$").replace(",", ""))
    except ValueError:
        return None
    return round(value * 100) if value > 0 else None


def date_text(when: datetime, now: datetime) -> str:
    """ExpenseRecentDateFormatter: today and yesterday with the time, another month of this year
    as "Oct 3", anything else (an earlier day of this month too) as "2023 Oct 3"."""
    same_year, same_month = when.year == now.year, when.month == now.month
    if same_year and same_month and when.day == now.day:
        return "Today " + when.strftime("%-I:%M %p")
    if same_year and same_month and when.day == now.day - 1:
        return "Yesterday " + when.strftime("%-I:%M %p")
    if same_year and not same_month:
        return when.strftime("%b %-d")
    return when.strftime("%Y %b %-d")


def _when(row: dict[str, str]) -> datetime:
    return datetime.fromtimestamp(int(row.get("created_at", 0)) / 1000, timezone.utc)


class ExpenseRow(Widget):
    """An expense in a list (``cd_expense``): name and date on the left, amount and currency
    symbol on the right; a selected row shows its check."""

    default_height = dp(72)

    def __init__(self, row: dict[str, str], date: str, *, log: bool, **kwargs: Any) -> None:
        kwargs.setdefault("background", CARD)
        super().__init__(rid="com.arduia.expense:id/cd_expense", **kwargs)
        self.name = row.get("name", "")
        self.date = date
        self.amount = amount_text(int(row.get("amount", 0)))
        self.log = log

    @property
    def class_name(self) -> str:  # type: ignore[override]
        return "android.widget.FrameLayout" if self.log else "android.widget.RelativeLayout"

    def render_key(self) -> Hashable:
        return (self.name, self.date, self.amount, self.selected, self.background)

    def tree_key(self) -> Hashable:
        return (super().tree_key(), self.name, self.date, self.amount, self.log)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        d = round(dp(40) * scale)
        left = round(dp(16) * scale)
        top = (height - d) // 2
        draw.rounded_rectangle((left, top, left + d, top + d), radius=d // 4, fill=(79, 195, 247) if not self.selected else (102, 187, 106))
        if self.selected:
            render.draw_icon(draw, "check", (left + d * 0.2, top + d * 0.2, left + d * 0.8, top + d * 0.8), (0, 0, 0))
        x = left + d + round(dp(16) * scale)
        big, small = round(dp(16) * scale), round(dp(13) * scale)
        draw.text(
            (x, height * 0.3), render.text_fit(draw, self.name, big, width // 2), font=render.font(big, "medium"), fill=ON_PAGE, anchor="lm"
        )
        draw.text((x, height * 0.7), self.date, font=render.font(small), fill=MUTED, anchor="lm")
        shown = f"{self.amount} $"
        draw.text((width - round(dp(16) * scale), height / 2), shown, font=render.font(big, "medium"), fill=ON_PAGE, anchor="rm")

    def encode(self, bounds: Bounds, package: str) -> UINode:
        node = super().encode(bounds, package)
        left, top, right, bottom = bounds
        mid = (top + bottom) // 2
        x = left + dp(72)
        pieces = [
            ("tv_name", self.name, (x, top + dp(10), right - dp(120), mid)),
            ("tv_date", self.date, (x, mid, right - dp(120), bottom - dp(10))),
            ("tv_amount", self.amount, (right - dp(112), top + dp(20), right - dp(32), bottom - dp(20))),
            ("tv_currency_symbol", "$", (right - dp(32), top + dp(20), right - dp(16), bottom - dp(20))),
        ]
        children = [
            UINode("android.widget.TextView", b, text=t, resource_id=f"{package}:id/{rid}", package=package) for rid, t, b in pieces
        ]
        if self.selected:
            children.insert(
                0,
                UINode(
                    "android.widget.ImageView",
                    (left + dp(16), top + dp(16), left + dp(56), bottom - dp(16)),
                    resource_id=f"{package}:id/imv_check",
                    package=package,
                ),
            )
        for i, child in enumerate(children):
            child.index = i
        node.children = children
        node.selected = False
        return node


class _Money(Widget):
    """A total: its value and the currency symbol, each a TextView of its own."""

    class_name = "android.widget.LinearLayout"
    default_height = dp(48)
    background = CARD

    def __init__(self, value: str, value_id: str, symbol_id: str) -> None:
        super().__init__(text=value)
        self.ids = (value_id, symbol_id)

    def render_key(self) -> Hashable:
        return (self.text,)

    def tree_key(self) -> Hashable:
        return (super().tree_key(), self.ids)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        size = round(dp(20) * scale)
        left = round(dp(16) * scale)
        draw.text((left, height / 2), self.text, font=render.font(size, "medium"), fill=ON_PAGE, anchor="lm")
        x = left + draw.textlength(self.text, font=render.font(size, "medium")) + round(dp(6) * scale)
        draw.text((x, height / 2), "$", font=render.font(round(dp(14) * scale)), fill=MUTED, anchor="lm")

    def encode(self, bounds: Bounds, package: str) -> UINode:
        node = super().encode(bounds, package)
        node.text = ""
        left, top, right, bottom = bounds
        split = min(right - dp(24), left + dp(16) + dp(11) * len(self.text))
        node.children = [
            UINode(
                "android.widget.TextView",
                (left + dp(16), top, split, bottom),
                text=self.text,
                resource_id=f"{package}:id/{self.ids[0]}",
                package=package,
            ),
            UINode(
                "android.widget.TextView",
                (split, top, split + dp(16), bottom),
                text="$",
                resource_id=f"{package}:id/{self.ids[1]}",
                index=1,
                package=package,
            ),
        ]
        return node


class _Chip(Widget):
    """A category of the entry (``cd_category``, its name in ``tv_name``)."""

    class_name = "android.widget.FrameLayout"
    default_height = dp(48)

    def render_key(self) -> Hashable:
        return (self.text, self.selected, self.background)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        inset = round(dp(4) * scale)
        fill = (79, 195, 247) if self.selected else CARD
        draw.rounded_rectangle((inset, inset, width - inset, height - inset), radius=(height - 2 * inset) // 2, fill=fill)
        size = round(dp(14) * scale)
        draw.text(
            (width / 2, height / 2),
            render.text_fit(draw, self.text, size, width - 4 * inset),
            font=render.font(size),
            fill=(0, 0, 0) if self.selected else ON_PAGE,
            anchor="mm",
        )

    def encode(self, bounds: Bounds, package: str) -> UINode:
        node = super().encode(bounds, package)
        node.resource_id, node.text = f"{package}:id/cd_category", ""
        node.children = [UINode("android.widget.TextView", bounds, text=self.text, resource_id=f"{package}:id/tv_name", package=package)]
        return node


class _Graph(Widget):
    """ "Expenses in this Week": the week's outcome per day as bars (``expense_graph``)."""

    class_name = "android.view.View"
    default_height = dp(160)

    def __init__(self, days: Sequence[int], **kwargs: Any) -> None:
        super().__init__(rid="com.arduia.expense:id/expense_graph", background=CARD, **kwargs)
        self.days = tuple(days)

    def render_key(self) -> Hashable:
        return self.days

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        top = max(*self.days, 1)
        step = width / 8
        margin = max(1, round(10 * scale))
        room = max(0, height - 2 * margin)  # a tiny screenshot leaves no room: flat bars
        for i, value in enumerate(self.days):
            h = int(room * max(0, value) / top)
            x = step * (i + 0.75)
            draw.rectangle((x, height - margin - h, x + step * 0.5, height - margin), fill=(79, 195, 247))


@register_app
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

    # --- data ----------------------------------------------------------------------------------

    def expenses(self) -> list[dict[str, str]]:
        return sorted(self.phone.content_query(EXPENSES_URI), key=lambda r: (-int(r.get("created_at", 0)), -int(r.get("_id", 0))))

    def _row(self, expense_id: str) -> dict[str, str] | None:
        rows = self.phone.content_query(EXPENSES_URI, where={"_id": expense_id})
        return rows[0] if rows else None

    # --- shared pieces -------------------------------------------------------------------------

    def _bar(self, title: str, *, back: Callable[[], None] | None = None, actions: Sequence[MaterialIconButton] = ()) -> TopAppBar:
        # The navigation button has no description in the app (AndroidWorld lists it unlabelled).
        icon = "arrow_back" if back is not None else "menu"
        navigation = MaterialIconButton("", icon, theme=THEME, on_tap=back or self._open_drawer)
        return TopAppBar(title, navigation=navigation, actions=actions, theme=THEME, rid=f"{self.package}:id/toolbar")

    def _open_drawer(self) -> None:
        self.push("drawer")

    def _detail(self, route: Route, *, deletable: bool) -> Dialog | None:
        row = self._row(str(route.get("detail_id", "")))
        if row is None:
            return None
        when = _when(row).strftime("%-d-%-m-%Y %-I:%M %p")
        body: list[Widget] = [
            Text(row.get("name", ""), size=dp(18), bold=True, rid=f"{self.package}:id/tv_name_value"),
            Text("Amount", size=dp(13), color=render.TEXT_SECONDARY, rid=f"{self.package}:id/tv_amount"),
            Text(f"{amount_text(int(row.get('amount', 0)))} $", rid=f"{self.package}:id/tv_amount_value"),
            Text("Date", size=dp(13), color=render.TEXT_SECONDARY, rid=f"{self.package}:id/tv_date"),
            Text(when, rid=f"{self.package}:id/tv_date_value"),
            Text("Note", size=dp(13), color=render.TEXT_SECONDARY, rid=f"{self.package}:id/tv_note"),
            Text(row.get("note", "") or "-", rid=f"{self.package}:id/tv_note_value"),
        ]
        buttons: list[Button] = []
        if deletable:
            buttons.append(
                _IconTextButton(
                    "delete", on_tap=lambda: self.set_dialog("delete", delete_ids=[row["_id"]]), rid=f"{self.package}:id/btn_delete"
                )
            )
        buttons.append(Button("Edit", filled=True, on_tap=lambda: self._edit(row), rid=f"{self.package}:id/btn_edit"))
        return Dialog("Expense Detail", buttons, body=body)

    def _delete_sheet(self, ids: Sequence[str]) -> Dialog:
        count = len(ids)
        items = " item " if count == 1 else f"{count}  items "

        def confirm() -> None:
            for expense_id in ids:
                self.phone.content_delete(EXPENSES_URI, where={"_id": expense_id})
            self.route.update(selected=[], detail_id=None)
            self.set_dialog(None)

        return Dialog(
            "Delete Items",
            [Button("Confirm", filled=True, on_tap=confirm, rid=f"{self.package}:id/btn_confirm")],
            message=f"{items}will be deleted!",
        )

    def _show_detail(self, expense_id: str) -> None:
        self.set_dialog("detail", detail_id=expense_id)

    # --- home ----------------------------------------------------------------------------------

    def screen_main(self, route: Route) -> ScreenSpec:
        rows = self.expenses()
        now = self.phone.now()
        month = [r for r in rows if (w := _when(r)).year == now.year and w.month == now.month]
        income = sum(int(r.get("amount", 0)) for r in month if r.get("category") == "Income")
        outcome = sum(int(r.get("amount", 0)) for r in month if r.get("category") != "Income")
        start = (now - timedelta(days=now.weekday() + 1 if now.weekday() != 6 else 0)).date()
        week = [0] * 7
        for r in rows:
            offset = (_when(r).date() - start).days
            if 0 <= offset < 7 and r.get("category") != "Income":
                week[offset] += int(r.get("amount", 0))
        rid = f"{self.package}:id/"
        last = (now.replace(day=28) + timedelta(days=4)).replace(day=1) - timedelta(days=1)
        body: list[Widget] = [
            Text("Totals", size=dp(16), bold=True, color=ON_PAGE, rid=rid + "tv_expense_in_out_title", background=CARD),
            Text(now.strftime(f"%Y %b 1 - {last.day}").upper(), size=dp(12), color=MUTED, rid=rid + "tv_date_range", background=CARD),
            Row(
                [
                    Text("Income", size=dp(13), color=MUTED, rid=rid + "tv_income", background=CARD),
                    Text("Outcome", size=dp(13), color=MUTED, rid=rid + "tv_outcome", background=CARD),
                ]
            ),
            Row(
                [
                    _Money(amount_text(income), "tv_income_value", "tv_income_symobol"),
                    _Money(amount_text(outcome), "tv_outcome_value", "tv_outcome_symbol"),
                ]
            ),
            _Graph(week),
            Text("Expenses in this Week", size=dp(14), color=ON_PAGE, rid=rid + "tv_title", background=CARD),
            Text("Recent", size=dp(16), bold=True, color=ON_PAGE, rid=rid + "tv_recent_lists", background=CARD),
        ]
        for row in rows[:RECENT]:
            body.append(ExpenseRow(row, date_text(_when(row), now), log=False, on_tap=lambda i=row["_id"]: self._show_detail(i)))
        body.append(Button("MORE", filled=False, on_tap=lambda: self.push("logs", selected=[]), rid=rid + "btn_more_logs", background=CARD))
        dialog = self._detail(route, deletable=False) if route.get("dialog") == "detail" else None
        fab = Fab("", "add", theme=THEME, on_tap=self._add, rid=rid + "fb_main_add", background=CARD)
        return ScreenSpec(title=None, app_bar=self._bar("Home"), body=body, fab=fab, dialog=dialog, background=PAGE, list_id="rv_home")

    def _add(self) -> None:
        self.push("edit", expense_id=None, title="", amount="", note="", category="Others", error="")

    def _edit(self, row: dict[str, str]) -> None:
        self.set_dialog(None)
        self.push(
            "edit",
            expense_id=row["_id"],
            title=row.get("name", ""),
            amount=amount_text(int(row.get("amount", 0))).replace(",", ""),
            note=row.get("note", ""),
            category=row.get("category", "Others"),
            error="",
        )

    # --- navigation drawer ------------------------------------------------------------------

    def screen_drawer(self, route: Route) -> ScreenSpec:
        under = self.stack[-2]["screen"] if len(self.stack) > 1 else "main"
        current = {"main": "Home", "logs": "Expense Logs"}.get(under, "")

        def go(item: str) -> None:
            if item == "Home":
                self.reset_to("main")
            elif item == "Expense Logs":
                self.reset_to("main")
                self.push("logs", selected=[])
            else:
                self.pop()  # the other destinations are not simulated: the drawer closes

        items: list[Widget] = [Text("Pro Expense", size=dp(20), bold=True, color=ON_PAGE, height=dp(120), background=CARD)]
        for item in DRAWER_ITEMS:
            items.append(
                _DrawerItem(
                    text=item, selected=item == current, on_tap=functools.partial(go, item), rid=f"{self.package}:id/design_menu_item_text"
                )
            )
        return ScreenSpec(title=None, body=items, background=CARD, list_id="design_navigation_view")

    # --- expense logs --------------------------------------------------------------------------

    def screen_logs(self, route: Route) -> ScreenSpec:
        rows = self.expenses()
        now = self.phone.now()
        selected: list[str] = list(route.get("selected", []))

        def toggle(expense_id: str) -> None:
            chosen = list(self.route.get("selected", []))
            if expense_id in chosen:
                chosen.remove(expense_id)
            else:
                chosen.append(expense_id)
            self.route["selected"] = chosen

        def tap(expense_id: str) -> None:
            if self.route.get("selected"):
                toggle(expense_id)
            else:
                self._show_detail(expense_id)

        body: list[Widget] = []
        for row in rows:
            body.append(
                ExpenseRow(
                    row,
                    date_text(_when(row), now),
                    log=True,
                    selected=row["_id"] in selected,
                    on_tap=lambda i=row["_id"]: tap(i),
                    on_long_press=lambda i=row["_id"]: toggle(i),
                )
            )
        if not rows:
            body.append(Text("No expense logs", center=True, color=MUTED, background=PAGE, height=dp(120)))
        dialog = None
        if route.get("dialog") == "detail":
            dialog = self._detail(route, deletable=True)
        elif route.get("dialog") == "delete":
            dialog = self._delete_sheet(list(route.get("delete_ids") or selected))
        if selected:
            count = len(selected)
            bar = self._bar(
                f"{count}  item" if count == 1 else f"{count}  items",
                back=lambda: self.route.update(selected=[]),
                actions=[
                    ActionMenuItem(
                        "Delete",
                        "delete",
                        theme=THEME,
                        on_tap=lambda: self.set_dialog("delete", delete_ids=None),
                        rid=f"{self.package}:id/delete",
                    )
                ],
            )
        else:
            bar = self._bar(
                "Expense Logs",
                actions=[ActionMenuItem("Filter", "filter_list", theme=THEME, on_tap=lambda: None, rid=f"{self.package}:id/filter")],
            )
        return ScreenSpec(title=None, app_bar=bar, body=body, dialog=dialog, background=PAGE, list_id="rv_expense")

    def back(self) -> bool:
        route = self.route
        if route["screen"] == "logs" and route.get("selected") and not route.get("dialog"):
            route["selected"] = []
            return True
        return super().back()

    # --- the entry -----------------------------------------------------------------------------

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
            old = self._row(route["expense_id"])
            if old is not None:
                values["created_at"] = old.get("created_at", values["created_at"])
            self.phone.content_delete(EXPENSES_URI, where={"_id": route["expense_id"]})
        self.phone.content_insert(EXPENSES_URI, values)
        self.pop()

    def screen_edit(self, route: Route) -> ScreenSpec:
        rid = f"{self.package}:id/"
        stamp = datetime.fromtimestamp(self.phone.state.clock, timezone.utc).strftime("%-d-%-m-%Y %-I:%M %p")
        body: list[Widget] = [Text(stamp, size=dp(13), color=MUTED, background=PAGE)]
        if route.get("error"):
            body.append(Text(route["error"], size=40, color=(239, 83, 80), background=PAGE))
        body += [
            edit_field(self, route, "title", hint="Name", rid=rid + "edt_name"),
            edit_field(self, route, "amount", hint="Amount", rid=rid + "edt_amount"),
        ]

        def pick(category: str) -> None:
            self.route["category"] = category

        chips = [_Chip(text=c, selected=c == route["category"], on_tap=functools.partial(pick, c), background=PAGE) for c in CHIP_ORDER]
        for i in range(0, len(chips), 4):
            body.append(Row(chips[i : i + 4], columns=4, rid=rid + "rv_category" if i == 0 else ""))
        body.append(edit_field(self, route, "note", hint="Note", rid=rid + "edt_note"))
        save = Button(
            "Update" if route["expense_id"] is not None else "Save", filled=True, on_tap=lambda: self._save(route), rid=rid + "btn_save"
        )
        body.append(save)
        actions = [
            ActionMenuItem("Time", "schedule", theme=THEME, on_tap=lambda: None, rid=rid + "time"),
            ActionMenuItem("Calendar", "calendar_today", theme=THEME, on_tap=lambda: None, rid=rid + "calendar"),
        ]
        return ScreenSpec(
            title=None, app_bar=self._bar("Expense Entry", back=self.pop, actions=actions), body=body, background=PAGE, list_id="sv_entry"
        )


class _DrawerItem(Widget):
    """A navigation drawer entry (``NavigationMenuItemView``'s ``CheckedTextView``)."""

    class_name = "android.widget.CheckedTextView"
    default_height = dp(48)
    background = CARD

    def render_key(self) -> Hashable:
        return (self.text, self.selected)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        if self.selected:
            draw.rounded_rectangle(
                (round(dp(8) * scale), 2, width - round(dp(8) * scale), height - 2), radius=round(dp(4) * scale), fill=(45, 65, 80)
            )
        size = round(dp(14) * scale)
        draw.text((round(dp(72) * scale), height / 2), self.text, font=render.font(size, "medium"), fill=ON_PAGE, anchor="lm")

    def encode(self, bounds: Bounds, package: str) -> UINode:
        node = super().encode(bounds, package)
        node.checkable = True
        node.checked = self.selected
        return node


class _IconTextButton(Button):
    """The detail sheet's delete button: an unlabelled ``ImageView`` with a bin."""

    class_name = "android.widget.ImageView"

    def __init__(self, icon: str, **kwargs: Any) -> None:
        super().__init__("", filled=False, **kwargs)
        self.icon = icon

    def render_key(self) -> Hashable:
        return (self.icon,)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        size = round(dp(24) * scale)
        render.draw_icon(draw, self.icon, ((width - size) / 2, (height - size) / 2, (width + size) / 2, (height + size) / 2), (239, 83, 80))


# --- the app's database: accounting.db (Room) ----------------------------------------------------------------
#: The provider table the app's expenses live in.
EXPENSES: Final = "expenses"
#: The categories under the name the database module gave them.
EXPENSE_CATEGORIES: Final = CATEGORIES


def _expense_to_db(row: dict[str, str]) -> dict[str, Any]:
    category = row.get("category", "Others")
    created = row.get("created_at", "0")
    return {
        "category": CATEGORIES.index(category) + 1 if category in CATEGORIES else 1,
        "created_date": created,
        "modified_date": row.get("modified_date", created),
    }


def _expense_from_db(row: dict[str, Any]) -> dict[str, str]:
    category = row.get("category")
    index = category - 1 if isinstance(category, int) and 1 <= category <= len(CATEGORIES) else 0
    # An id the app does not know shows as its first category, as the app falls back.
    return {"created_at": str(row.get("created_date") or 0), "category": CATEGORIES[index]}


EXPENSE_DB: Final = declare(
    AppDatabase(
        path=f"{DATA_ROOT}/com.arduia.expense/databases/accounting.db",
        schema=room_schema(
            "7c1c4e9fbb5d7a3b2e0a6f1d8c9b4e21",
            "CREATE TABLE `expense` (`expense_id` INTEGER PRIMARY KEY AUTOINCREMENT, `name` TEXT, `amount` INTEGER NOT NULL, "
            "`category` INTEGER NOT NULL, `note` TEXT, `created_date` INTEGER NOT NULL, `modified_date` INTEGER NOT NULL)",
        ),
        tables=(
            Table(
                "expense",
                EXPENSES,
                defaults={"name": "", "note": "", "category": 1},
                to_db=each_row(_expense_to_db),
                from_db=_expense_from_db,
                not_kept=frozenset({"created_date"}),
            ),
        ),
    )
)


__all__ = ["CATEGORIES", "ProExpenseApp", "date_text", "parse_cents"]
