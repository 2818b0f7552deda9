"""Simple Calendar Pro (versionCode 238, tag 6.22.2) as AndroidWorld's emulator shows it:

- the main screen under Simple-Commons' search bar (``MySearchMenu``): the month view, weeks from
  Sunday, its days and events drawn on a canvas under 42 clickable ``month_view_background``
  cells; a typed search lists matching events under month and day sections;
- a tapped day opens the day view (``top_navigation`` and ``event_list_item`` rows);
- the FAB opens the Event / Task chooser; the event editor (``activity_event.xml``) sets dates and
  times on the platform's date and time pickers (:mod:`cerebellum_gym.sim.material.pickers`) and
  the repetition on a radio-group dialog (``repeat_interval`` and ``repeat_rule`` written as the
  app writes them); a repeating event shows on every occurrence;
- deleting asks Yes / No (``DeleteEventDialog``) and, for a repeating event, which occurrences;
  saving an edited occurrence asks which to update (``EditRepeatingEventDialog``).

Events live in ``content://com.simplemobiletools.calendar.pro/events``, the sim's stand-in for
the app's ``events`` table that AndroidWorld reads with sqlite. Times are POSIX seconds; the
device's time zone is UTC; times read in the 12-hour form of a US-English phone.
"""

from __future__ import annotations

import calendar as pycal
import functools
from collections.abc import Callable, Hashable, Sequence
from datetime import date, datetime, timedelta, timezone
from typing import Any, ClassVar, Final

from PIL import ImageDraw

from cerebellum_gym.core.tree import Bounds, UINode
from cerebellum_gym.sim import render
from cerebellum_gym.sim.apps.base import App, Route
from cerebellum_gym.sim.apps.common import edit_field, field_key, parse_int, time_picker
from cerebellum_gym.sim.apps.registry import register_app
from cerebellum_gym.sim.databases import DATA_ROOT, AppDatabase, Table, declare, room_schema
from cerebellum_gym.sim.material import Theme, dp, sp
from cerebellum_gym.sim.material.components import ActionMenuItem, Fab, MaterialIconButton, OverflowButton, TopAppBar
from cerebellum_gym.sim.material.pickers import (
    UntitledDialog,
    date_picker_dialog,
    picked_time,
)
from cerebellum_gym.sim.providers import CALENDAR_URI
from cerebellum_gym.sim.render import font
from cerebellum_gym.sim.screen import ScreenSpec
from cerebellum_gym.sim.widgets import Button, Column, Dialog, Row, Text, Widget

ORANGE = (255, 111, 0)
WEEKDAYS = ("M", "T", "W", "T", "F", "S", "S")
DAY = 24 * 60 * 60
#: The repetition picker's choices and the ``repeat_interval`` each writes (seconds), as Simple
#: Calendar Pro's constants have them (a month is 30 days, a year 365).
REPETITIONS: dict[str, int] = {"No repetition": 0, "Daily": DAY, "Weekly": 7 * DAY, "Monthly": 30 * DAY, "Yearly": 365 * DAY}
#: ``repeat_rule`` for a monthly or yearly event: the same day each time (``REPEAT_SAME_DAY``).
REPEAT_SAME_DAY = 1


def repetition_name(interval: int) -> str:
    """The picker's name of ``repeat_interval`` (an interval it does not offer reads as custom)."""
    for name, seconds in REPETITIONS.items():
        if seconds == interval:
            return name
    return f"Every {interval // DAY} days" if interval % DAY == 0 else "Custom"


def repeat_rule(interval: int, start: datetime) -> int:
    """What the app writes as ``repeat_rule``: for a weekly event the weekday bits (Monday 1,
    Tuesday 2, ..., Sunday 64; the start's day), for monthly and yearly the same day, else 0."""
    if interval == 7 * DAY:
        return 1 << (start.isoweekday() - 1)
    if interval in (30 * DAY, 365 * DAY):
        return REPEAT_SAME_DAY
    return 0


def ts(day: date, hour: int, minute: int) -> int:
    return int(datetime(day.year, day.month, day.day, hour, minute, tzinfo=timezone.utc).timestamp())


def from_ts(value: str | int) -> datetime:
    return datetime.fromtimestamp(int(value), timezone.utc)


def occurrences(event: dict[str, str], low: int, high: int) -> list[tuple[int, int]]:
    """The (start, end) times of ``event``'s occurrences that start before ``high`` and end at or
    after ``low``: the event itself, and for a repeating one (``repeat_interval``; forever unless
    ``repeat_limit`` gives a last time) every repetition, as the app lays them out: daily every
    interval, weekly on the ``repeat_rule`` weekdays, monthly and yearly on the same date."""
    start, end = int(event.get("start_ts", 0) or 0), int(event.get("end_ts", 0) or 0)
    interval = int(event.get("repeat_interval", 0) or 0)
    limit = int(event.get("repeat_limit", 0) or 0)
    if interval <= 0:
        return [(start, end)] if start < high and end >= low else []
    duration, last = end - start, limit if limit > 0 else high
    first = from_ts(start)
    starts: list[int] = []
    if interval == 7 * DAY:
        rule = int(event.get("repeat_rule", 0) or 0) or 1 << (first.isoweekday() - 1)
        week = (max(low - duration, start) - start) // (7 * DAY)
        monday = first - timedelta(days=first.weekday())
        while True:
            base = monday + timedelta(weeks=int(week))
            if int(base.timestamp()) >= min(high, last + 1):
                break
            starts += [int((base + timedelta(days=d)).timestamp()) for d in range(7) if rule & (1 << d)]
            week += 1
    elif interval in (30 * DAY, 365 * DAY):
        months = 12 if interval == 365 * DAY else 1
        step = 0
        while True:
            total = first.month - 1 + step * months
            year, month = first.year + total // 12, total % 12 + 1
            moment = int(first.timestamp()) if step == 0 else None
            if pycal.monthrange(year, month)[1] >= first.day:
                moment = int(first.replace(year=year, month=month).timestamp())
            if moment is not None and moment >= min(high, last + 1):
                break
            if moment is not None:
                starts.append(moment)
            step += 1
            if step > 12 * 200:
                break
    else:
        k = max(0, (low - duration - start) // interval)
        while start + k * interval < min(high, last + 1):
            starts.append(start + k * interval)
            k += 1
    skipped = set(repetition_exceptions(event))
    return [
        (s, s + duration)
        for s in starts
        if start <= s < high and s <= last and s + duration >= low and from_ts(s).strftime("%Y%m%d") not in skipped
    ]


def repetition_exceptions(event: dict[str, str]) -> list[str]:
    """The day codes (``YYYYMMDD``) a repeating event skips: ``repetition_exceptions`` as the
    app writes it (a Kotlin list's text, ``[20231016, 20231023]``) or as JSON."""
    text = str(event.get("repetition_exceptions", "") or "").strip("[] ")
    return [part.strip().strip('"') for part in text.split(",") if part.strip().strip('"')]


def exceptions_text(codes: list[str]) -> str:
    return "[" + ", ".join(codes) + "]"


def _runs_on(start_ts: int, end_ts: int, day_start: int, day_end: int) -> bool:
    """Whether an event from ``start_ts`` to ``end_ts`` starts on a day or runs into it."""
    return start_ts < day_end and (end_ts > day_start or start_ts >= day_start)


#: Simple Calendar's colours (Simple-Commons defaults: primary #F57C00, light theme).
THEME: Final = Theme(primary=(245, 124, 0), on_primary=(255, 255, 255), surface=(255, 255, 255), on_surface=(51, 51, 51))
PKG: Final = "com.simplemobiletools.calendar.pro"
#: The month view starts weeks on Sunday (``config.isSundayFirst`` on a US-English phone).
FIRST_WEEKDAY: Final = pycal.SUNDAY
DEFAULT_REMINDER: Final = "10 minutes before"


def time_text(moment: datetime) -> str:
    """``Formatter.getTime`` with the 12-hour pattern ``hh:mm a`` (``use24HourFormat`` follows
    the phone, 12-hour on AndroidWorld's US-English emulator)."""
    return moment.strftime("%I:%M %p")


def day_title(day: date, today: date) -> str:
    """``Formatter.getDayTitle``: "October 15 (Sun)", the year added when it is not this year's."""
    year = f" {day.year}" if day.year != today.year else ""
    return f"{day.strftime('%B')} {day.day}{year} ({day.strftime('%a')})"


def month_title(year: int, month: int, today: date) -> str:
    """``Formatter.getLongMonthYear``: the month's name, with the year when it is not this year."""
    return pycal.month_name[month] + (f" {year}" if year != today.year else "")


def month_days(year: int, month: int) -> list[date]:
    """The 42 days the month view lays out: six weeks from the Sunday on or before the 1st."""
    first = date(year, month, 1)
    start = first - timedelta(days=(first.weekday() - FIRST_WEEKDAY) % 7)
    return [start + timedelta(days=i) for i in range(42)]


class _Plain(Widget):
    """A view the tree lists by its id only (the parent paints it)."""

    opaque = False

    def __init__(self, rid: str, class_name: str = "android.view.View") -> None:
        super().__init__(rid=rid)
        self.node_class = class_name

    def encode(self, bounds: Bounds, package: str) -> UINode:
        node = super().encode(bounds, package)
        node.class_name = self.node_class
        return node

    def tree_key(self) -> Hashable:
        return (super().tree_key(), self.node_class)


class _DayBackground(Widget):
    """``month_view_background``: the clickable view over a day cell (the canvas draws the day)."""

    opaque = False

    def __init__(self, on_tap: Callable[[], None]) -> None:
        super().__init__(rid=f"{PKG}:id/month_view_background", on_tap=on_tap)


class MonthGrid(Widget):
    """``MonthViewWrapper``: ``MonthView`` draws the weekday letters, the day numbers and each
    day's events (their titles on coloured bars) on a canvas; over every day lies a clickable
    ``month_view_background`` with no text."""

    class_name = "android.widget.FrameLayout"
    LETTERS: ClassVar[int] = dp(24)

    def __init__(
        self, days: list[date], month: int, today: date, titles: tuple[tuple[str, ...], ...], on_day: Callable[[date], None], height: int
    ) -> None:
        super().__init__(rid=f"{PKG}:id/month_view_wrapper", height=height, background=THEME.surface)
        self.days = days
        self.month = month
        self.today = today
        self.titles = titles
        self.on_day = on_day

    def render_key(self) -> Hashable:
        return (tuple(self.days), self.month, self.today, self.titles)

    def tree_key(self) -> Hashable:
        return (super().tree_key(), self.days[0])

    def children(self, bounds: Bounds) -> Sequence[tuple[Widget, Bounds]]:
        left, top, right, bottom = bounds
        cw, ch = (right - left) / 7, (bottom - top - self.LETTERS) / 6
        out: list[tuple[Widget, Bounds]] = [(_Plain(f"{PKG}:id/month_view"), bounds)]
        for i, day in enumerate(self.days):
            x, y = left + (i % 7) * cw, top + self.LETTERS + (i // 7) * ch
            out.append((_DayBackground(functools.partial(self.on_day, day)), (round(x), round(y), round(x + cw), round(y + ch))))
        return out

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        letters = round(self.LETTERS * scale)
        cw, ch = width / 7, (height - letters) / 6
        small = font(max(1, round(sp(12) * scale)))
        tiny = font(max(1, round(sp(10) * scale)))
        for i in range(7):
            draw.text(
                (cw * (i + 0.5), letters / 2), pycal.day_abbr[(FIRST_WEEKDAY + i) % 7][0], font=small, fill=(120, 120, 120), anchor="mm"
            )
        for i, day in enumerate(self.days):
            x, y = (i % 7) * cw, letters + (i // 7) * ch
            color = THEME.on_surface if day.month == self.month else (170, 170, 170)
            if day == self.today:
                r = sp(12) * scale
                draw.ellipse((x + cw / 2 - r, y + 4 * scale, x + cw / 2 + r, y + 4 * scale + 2 * r), fill=THEME.primary)
                color = THEME.on_primary
            draw.text((x + cw / 2, y + 4 * scale + sp(12) * scale), str(day.day), font=small, fill=color, anchor="mm")
            line = sp(13) * scale
            for j, title in enumerate(self.titles[i]):
                ty = y + sp(28) * scale + j * line
                if ty + line > y + ch:
                    break
                # (at a tiny screenshot width a chip may be under 4 px: never a negative box)
                draw.rectangle((x + 2, ty, max(x + 2, x + cw - 2), ty + max(0.0, line - 2)), fill=THEME.primary)
                draw.text(
                    (x + 4, ty + (line - 2) / 2),
                    render.text_fit(draw, title, round(sp(10) * scale), round(cw - 6), "regular"),
                    font=tiny,
                    fill=THEME.on_primary,
                    anchor="lm",
                )


class SearchMenu(Widget):
    """Simple-Commons' ``MySearchMenu`` (``top_app_bar_layout``): the toolbar holding the search
    icon (an up arrow when a day is open), the search field ("Search") and the menu's items."""

    class_name = "android.widget.LinearLayout"
    opaque = False

    def __init__(self, icon: Widget, field: Widget, actions: Sequence[Widget]) -> None:
        super().__init__(rid=f"{PKG}:id/top_app_bar_layout", height=dp(56))
        self.items = [icon, field, *actions]

    def render_key(self) -> Hashable:
        return ()

    def tree_key(self) -> Hashable:
        return (super().tree_key(), len(self.items))

    def children(self, bounds: Bounds) -> Sequence[tuple[Widget, Bounds]]:
        left, top, right, bottom = bounds
        icon, field, *actions = self.items
        end = right - dp(4) - dp(48) * len(actions)
        out: list[tuple[Widget, Bounds]] = [
            (icon, (left + dp(8), top + dp(4), left + dp(56), bottom - dp(4))),
            (field, (left + dp(56), top + dp(4), end, bottom - dp(4))),
        ]
        for i, action in enumerate(actions):
            out.append((action, (end + i * dp(48), top + dp(4), end + (i + 1) * dp(48), bottom - dp(4))))
        return out


class _ShownRoute(dict[str, Any]):
    """The route of the screen the app shows, whichever it is when read: a reused screen's
    callbacks hold this, not the route of the episode that first made the screen."""

    def __init__(self, app: App) -> None:
        super().__init__()
        self.app = app

    def __getitem__(self, key: str) -> Any:
        return self.app.route[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.app.route[key] = value

    def __contains__(self, key: object) -> bool:
        return key in self.app.route

    def get(self, key: str, default: Any = None) -> Any:
        return self.app.route.get(key, default)

    def pop(self, key: str, default: Any = None) -> Any:
        return self.app.route.pop(key, default)

    def update(self, *args: Any, **kwargs: Any) -> None:
        self.app.route.update(*args, **kwargs)


class _ImageView(MaterialIconButton):
    """A clickable ``ImageView`` (the search icon, the top navigation's arrows)."""

    class_name = "android.widget.ImageView"


class _Holder(Row):
    """A ``RelativeLayout`` row of the editor (the event type's, the colour's)."""

    class_name = "android.widget.RelativeLayout"


class _Nav(Row):
    """``top_navigation``: the left arrow, the title (``top_value``, described by its text) and the right arrow."""

    def children(self, bounds: Bounds) -> Sequence[tuple[Widget, Bounds]]:
        left, top, right, bottom = bounds
        arrow = dp(56)  # the chevron with activity_margin padding each side
        first, title, last = self.items
        return [
            (first, (left, top, left + arrow, bottom)),
            (title, (left + arrow, top, right - arrow, bottom)),
            (last, (right - arrow, top, right, bottom)),
        ]


class _Overlay(Widget):
    """``fab_extended_overlay``: a tap on it folds the chooser away."""

    class_name = "android.widget.RelativeLayout"
    opaque = False

    def __init__(self, on_tap: Callable[[], None]) -> None:
        super().__init__(rid=f"{PKG}:id/fab_extended_overlay", on_tap=on_tap)


class _FabHolder(Widget):
    """The FAB and, while the chooser is out, the Event label, the Task button and its label above it."""

    class_name = "android.view.ViewGroup"
    opaque = False

    def __init__(self, fab: Widget, extras: Sequence[Widget]) -> None:
        super().__init__(rid=f"{PKG}:id/main_holder", height=fab.height)
        self.fab = fab
        self.extras = list(extras)

    def render_key(self) -> Hashable:
        return ()

    def tree_key(self) -> Hashable:
        return (super().tree_key(), len(self.extras))

    def encode(self, bounds: Bounds, package: str) -> UINode:
        node = super().encode(bounds, package)
        node.clickable = node.focusable = False
        return node

    def children(self, bounds: Bounds) -> Sequence[tuple[Widget, Bounds]]:
        left, top, right, bottom = bounds
        out: list[tuple[Widget, Bounds]] = []
        if self.extras:
            overlay, event_label, task_icon, task_label = self.extras
            # fab_extended_overlay covers the calendar under the search bar (84 px status bar + 56 dp).
            out.append((overlay, (0, 84 + dp(56), right + dp(16), bottom + dp(16))))
            mid = (top + bottom) // 2
            out.append((event_label, (left - dp(96), mid - dp(20), left, mid + dp(20))))
            icon_top = top - dp(16) - dp(40)
            cx = (left + right) // 2
            out.append((task_icon, (cx - dp(20), icon_top, cx + dp(20), icon_top + dp(40))))
            out.append((task_label, (left - dp(96), icon_top, left, icon_top + dp(40))))
        out.append((self.fab, bounds))
        return out


@register_app
class SimpleCalendarApp(App):
    package: ClassVar[str] = PKG
    #: Its screens show no time finer than the minute (the phone rebuilds every screen on a new one).
    clock_dependent: ClassVar[bool] = False
    activity: ClassVar[str] = "com.simplemobiletools.calendar.pro.activities.MainActivity"
    label: ClassVar[str] = "Simple Calendar Pro"
    color: ClassVar[tuple[int, int, int]] = ORANGE

    def events(self) -> list[dict[str, str]]:
        return sorted(self.phone.content_query(CALENDAR_URI), key=lambda r: (int(r.get("start_ts", 0)), r.get("title", "")))

    def events_on(self, day: date, events: list[dict[str, str]] | None = None) -> list[dict[str, str]]:
        start, end = ts(day, 0, 0), ts(day + timedelta(days=1), 0, 0)
        out = []
        for event in self.events() if events is None else events:
            for begin, finish in occurrences(event, start, end):
                if _runs_on(begin, finish, start, end):
                    # A repetition shows at its own time; it opens the event it repeats.
                    out.append(
                        event if begin == int(event.get("start_ts", 0)) else {**event, "start_ts": str(begin), "end_ts": str(finish)}
                    )
                    break
        return out

    def make_route(self, name: str, **params: object) -> Route:  # type: ignore[override]
        route = App.make_route(name, **params)
        if name == "main" and "year" not in route:
            today = self.phone.now().date()
            route.update(year=today.year, month=today.month)
        return route

    def back(self) -> bool:
        if self.route.get("chooser"):  # back folds the FAB's chooser away first
            self.route["chooser"] = False
            return True
        if str(self.route.get("search", "")):  # and closes an open search
            self.route["search"] = ""
            return True
        return super().back()

    def rid(self, name: str) -> str:
        return f"{self.package}:id/{name}"

    # --- the main screen's parts -------------------------------------------------------------

    def _search_menu(self, route: Route, *, back: bool, today_shown: bool, searching: bool = False) -> SearchMenu:
        if searching:  # MySearchMenu's open search: the icon is an arrow that closes it
            icon: Widget = _ImageView(
                "", "arrow_back", theme=THEME, on_tap=lambda: route.update(search=""), rid=self.rid("top_toolbar_search_icon")
            )
        elif back:
            icon = _ImageView("", "arrow_back", theme=THEME, on_tap=self.pop, rid=self.rid("top_toolbar_search_icon"))
        else:
            icon = _ImageView(
                "",
                "search",
                theme=THEME,
                on_tap=lambda: self.phone.focus(field_key(self, route, "search")),
                rid=self.rid("top_toolbar_search_icon"),
            )
        field = edit_field(self, route, "search", hint="Search", rid=self.rid("top_toolbar_search"))
        # menu_main.xml: Go to today and Change view always show; of the ifRoom items (Filter,
        # hidden with one event type shown; CalDAV refresh, hidden unsynced; Settings, About...)
        # the first visible takes the last slot a 411 dp bar has (3, one kept for More options)
        # when Go to today is hidden.
        actions: list[Widget] = []
        if today_shown:
            actions.append(
                ActionMenuItem("Go to today", "today", theme=THEME, on_tap=lambda: self._go_today(route), rid=self.rid("go_to_today"))
            )
        actions.append(ActionMenuItem("Change view", "view_module", theme=THEME, on_tap=lambda: None, rid=self.rid("change_view")))
        if not today_shown:
            actions.append(ActionMenuItem("Settings", "settings", theme=THEME, on_tap=lambda: None, rid=self.rid("settings")))
        actions.append(OverflowButton(on_tap=lambda: None, theme=THEME))
        return SearchMenu(icon, field, actions)

    def _go_today(self, route: Route) -> None:
        today = self.phone.now().date()
        if route.get("screen") == "day":  # the day view goes to today's day, the month view to its month
            route.update(day=today.isoformat(), scroll=0)
        else:
            route.update(year=today.year, month=today.month)

    def _nav(self, title: str, on_left: Callable[[], None], on_right: Callable[[], None]) -> Row:
        return _Nav(
            [
                _ImageView("", "chevron_left", theme=THEME, on_tap=on_left, rid=self.rid("top_left_arrow")),
                Text(title, size=sp(22), center=True, desc=title, height=dp(56), rid=self.rid("top_value"), background=THEME.surface),
                _ImageView("", "chevron_right", theme=THEME, on_tap=on_right, rid=self.rid("top_right_arrow")),
            ],
            height=dp(56),
        )

    def _fab(self, route: Route, day: date) -> Widget:
        def tap() -> None:
            if route.get("chooser"):
                route["chooser"] = False
                self._new_event(day)
            else:
                route["chooser"] = True

        def new_event() -> None:
            route["chooser"] = False
            self._new_event(day)

        def new_task() -> None:
            route["chooser"] = False
            self._new_event(day, task=True)

        fab = Fab("New Event", "add", theme=THEME, on_tap=tap, rid=self.rid("calendar_fab"))
        extras: list[Widget] = []
        if route.get("chooser"):
            extras = [
                _Overlay(lambda: route.update(chooser=False)),
                Text("Event", size=sp(18), rid=self.rid("fab_event_label"), on_tap=new_event),
                _ImageView("", "task_alt", theme=THEME, on_tap=new_task, rid=self.rid("fab_task_icon")),
                Text("Task", size=sp(18), rid=self.rid("fab_task_label"), on_tap=new_task),
            ]
        return _FabHolder(fab, extras)

    # --- month -------------------------------------------------------------------------------

    def _shift_month(self, route: Route, delta: int) -> None:
        month = route["month"] + delta
        route.update(year=route["year"] + (month - 1) // 12, month=(month - 1) % 12 + 1)

    def screen_main(self, route: Route) -> ScreenSpec:
        year, month = route["year"], route["month"]
        today = self.phone.now().date()
        days = month_days(year, month)
        events = self.events()
        titles = tuple(tuple(e.get("title", "") for e in self.events_on(d, events)) for d in days)
        state = tuple(sorted((k, repr(v)) for k, v in route.items() if k != "scroll"))
        if str(route.get("search", "")).strip():
            titles = (tuple(e.get("_id", "") + e.get("title", "") + e.get("description", "") + e.get("location", "") for e in events),)
        # The month screen depends on nothing else: made once per key (reused_spec), its
        # callbacks reading the shown route.
        return self.reused_spec(("main", today, titles, state), lambda: self._month_screen(year, month, today, days, titles))

    def _month_screen(self, year: int, month: int, today: date, days: list[date], titles: tuple[tuple[str, ...], ...]) -> ScreenSpec:
        shown = _ShownRoute(self)
        query = str(self.route.get("search", "")).strip()
        if query:
            return self._search_screen(shown, query, today)
        grid = MonthGrid(
            days, month, today, titles, lambda d: self.push("day", day=d.isoformat()), height=2400 - 84 - dp(56) - dp(56) - 126 - 2
        )
        body: list[Widget] = [
            self._nav(month_title(year, month, today), lambda: self._shift_month(shown, -1), lambda: self._shift_month(shown, 1)),
            grid,
        ]
        today_shown = (year, month) != (today.year, today.month)
        return ScreenSpec(
            title=None,
            app_bar=self._search_menu(shown, back=False, today_shown=today_shown),
            body=body,
            fab=self._fab(shown, today),
            background=THEME.surface,
            list_id="fragments_holder",
            list_class="android.widget.FrameLayout",
        )

    def _search_screen(self, route: Route, query: str, today: date) -> ScreenSpec:
        """``search_holder`` over the calendar while the search field holds text: from two
        characters on, the events whose title, location or description hold it (within two years
        either side of today, as ``searchQueryChanged`` fetches first), under month and day
        sections (``getEventListItems``); "No items found" when none match or one character is typed."""
        rows: list[Widget] = []
        if len(query) >= 2:
            low, high = ts(today - timedelta(days=730), 0, 0), ts(today + timedelta(days=730), 0, 0)
            needle = query.lower()
            found: list[tuple[int, int, dict[str, str]]] = []
            for event in self.events():
                if any(needle in event.get(k, "").lower() for k in ("title", "location", "description")):
                    found += [(begin, finish, event) for begin, finish in occurrences(event, low, high)]
            found.sort(key=lambda f: (f[0], f[1], f[2].get("title", "")))
            month_label = day_label = ""
            for begin, finish, event in found:
                start, end = from_ts(begin), from_ts(finish)
                label = month_title(start.year, start.month, today)
                if label != month_label:
                    rows.append(Text(label, size=sp(22), height=dp(48), rid=self.rid("event_section_title")))
                    month_label, day_label = label, ""
                day = f"{start.day} {start:%A}"  # Formatter.getDateDayTitle: "d EEEE"
                if day != day_label:
                    rows.append(Text(day, size=sp(14), height=dp(32), color=(96, 94, 102), rid=self.rid("event_section_title")))
                    day_label = day
                rows.append(self._event_row({**event, "start_ts": str(begin), "end_ts": str(finish)}, start, end))
        holder: list[Widget]
        if rows:
            holder = [Column(rows, class_name="androidx.recyclerview.widget.RecyclerView", rid=self.rid("search_results_list"))]
        else:
            holder = [
                Text("No items found", size=sp(18), center=True, height=dp(64), color=(96, 94, 102), rid=self.rid("search_placeholder"))
            ]
        return ScreenSpec(
            title=None,
            app_bar=self._search_menu(route, back=False, today_shown=False, searching=True),
            body=[Column(holder, class_name="android.widget.RelativeLayout", rid=self.rid("search_holder"))],
            background=THEME.surface,
            list_id="calendar_coordinator",
            list_class="android.view.ViewGroup",
        )

    # --- day ---------------------------------------------------------------------------------

    def screen_day(self, route: Route) -> ScreenSpec:
        day = date.fromisoformat(route["day"])
        today = self.phone.now().date()

        def shift(delta: int) -> None:
            route.update(day=(day + timedelta(days=delta)).isoformat(), scroll=0)

        body: list[Widget] = [self._nav(day_title(day, today), lambda: shift(-1), lambda: shift(1))]
        for event in self.events_on(day):
            start, end = from_ts(event["start_ts"]), from_ts(event["end_ts"])
            body.append(self._event_row(event, start, end))
        return ScreenSpec(
            title=None,
            app_bar=self._search_menu(route, back=True, today_shown=day != today),
            body=body,
            fab=self._fab(route, day),
            background=THEME.surface,
            list_id="day_events",
        )

    def _event_row(self, event: dict[str, str], start: datetime, end: datetime) -> Widget:
        items: list[Widget] = [
            Text(event.get("title", ""), size=sp(16), bold=True, height=dp(24), rid=self.rid("event_item_title")),
            Text(f"{time_text(start)} - {time_text(end)}", size=sp(14), height=dp(20), rid=self.rid("event_item_time")),
        ]
        description = event.get("description", "").replace("\n", " ")
        if description:
            items.append(
                Text(description, size=sp(14), height=dp(20), ellipsize=True, color=(96, 94, 102), rid=self.rid("event_item_description"))
            )
        return _EventItem(items, on_tap=lambda: self._open_event(event["_id"], int(event["start_ts"])), rid=self.rid("event_item_holder"))

    # --- event editor ------------------------------------------------------------------------

    def _new_event(self, day: date, *, task: bool = False) -> None:
        now = self.phone.now()
        start = datetime(day.year, day.month, day.day, now.hour, tzinfo=timezone.utc) + timedelta(hours=1)
        self._push_editor(None, "", "", "", start, start if task else start + timedelta(hours=1), 0)
        self.route["task"] = task  # TaskActivity: a task is an events row of type 1, ending as it starts

    def _open_event(self, event_id: str, occurrence: int | None = None) -> None:
        rows = self.phone.content_query(CALENDAR_URI, where={"_id": event_id})
        if rows:
            e = rows[0]
            interval = parse_int(e.get("repeat_interval", "0"), 0, 2**62) or 0
            first = int(e["start_ts"])
            shift = (occurrence or first) - first  # the editor shows the occurrence opened
            self._push_editor(
                event_id,
                e.get("title", ""),
                e.get("location", ""),
                e.get("description", ""),
                from_ts(first + shift),
                from_ts(int(e["end_ts"]) + shift),
                interval,
            )
            self.route.update(occurrence=first + shift, original=first, was_repeating=interval > 0, task=e.get("type") == "1")

    def _push_editor(
        self, event_id: str | None, title: str, location: str, description: str, start: datetime, end: datetime, repeat: int
    ) -> None:
        self.push(
            "event",
            event_id=event_id,
            title=title,
            location=location,
            description=description,
            start=int(start.timestamp()),
            end=int(end.timestamp()),
            repeat=repeat,
            all_day=False,
            error="",
        )

    def _open_date(self, route: Route, which: str) -> None:
        current = from_ts(route[which]).date()
        route.update(dialog=f"{which}_date", pick=current.isoformat(), page=f"{current.year}-{current.month}")

    def _open_time(self, route: Route, which: str) -> None:
        current = from_ts(route[which])
        route.update(dialog=f"{which}_time", hour=current.hour, minute=current.minute, text_mode=False, minutes=False, p1="", p2="")

    def _set_moment(self, route: Route, which: str, new: datetime) -> None:
        if which == "start":
            # Moving the start keeps the duration, as Simple Calendar does.
            route["end"] = int(route["end"]) + int(new.timestamp()) - int(route["start"])
        route[which] = int(new.timestamp())
        route.update(dialog=None, error="")

    def _apply_date(self, route: Route) -> None:
        which = str(route["dialog"]).split("_")[0]
        day = date.fromisoformat(route["pick"])
        self._set_moment(route, which, from_ts(route[which]).replace(year=day.year, month=day.month, day=day.day))

    def _apply_time(self, route: Route) -> None:
        which = str(route["dialog"]).split("_")[0]
        picked = picked_time(route)
        if picked is None:
            return  # the platform picker keeps the dialog open on an invalid entry
        self._set_moment(route, which, from_ts(route[which]).replace(hour=picked[0], minute=picked[1]))

    def _save(self, route: Route) -> None:
        title = str(route.get("title", "")).strip()
        if not title:
            route["error"] = "Title cannot be empty"
            return
        if int(route["end"]) < int(route["start"]):
            route["error"] = "The event cannot end earlier than it starts"
            return
        repeat = int(route.get("repeat", 0))
        if route["event_id"] is not None and repeat and route.get("was_repeating") and route.get("dialog") != "edit_repeat":
            self.set_dialog("edit_repeat")  # EditRepeatingEventDialog: which occurrences to update
            return
        self._store(route, "all")

    def _values(self, route: Route, start: int, end: int) -> dict[str, str]:
        repeat = int(route.get("repeat", 0))
        values = {
            "title": str(route.get("title", "")).strip(),
            "location": str(route.get("location", "")).strip(),
            "description": str(route.get("description", "")).strip(),
            "start_ts": str(start),
            "end_ts": str(end),
            "repeat_interval": str(repeat),
            "repeat_rule": str(repeat_rule(repeat, from_ts(start))) if repeat else "0",
        }
        if route.get("task"):
            values.update(location="", end_ts=str(start), type="1")
        return values

    def _store(self, route: Route, rule: str) -> None:
        """Write the edited event: a new one, or an edit of all occurrences (moved by as much as
        the shown occurrence was), of the shown one only (a repetition exception on the series
        and a single event in its place) or of it and the later ones (the series ends before it,
        a new series starts), as ``EventActivity`` does after EditRepeatingEventDialog."""
        start, end = int(route["start"]), int(route["end"])
        old: dict[str, str] = {}
        if route["event_id"] is not None:
            rows = self.phone.content_query(CALENDAR_URI, where={"_id": route["event_id"]})
            old = {k: v for k, v in rows[0].items() if k != "_id"} if rows else {}
            self.phone.content_delete(CALENDAR_URI, where={"_id": route["event_id"]})
        occurrence = int(route.get("occurrence") or start)
        if old and rule in ("one", "future"):
            series = dict(old)
            if rule == "one":
                series["repetition_exceptions"] = exceptions_text([*repetition_exceptions(old), from_ts(occurrence).strftime("%Y%m%d")])
            else:
                interval = int(old.get("repeat_interval", 0) or 0)
                series["repeat_limit"] = str(ts(from_ts(occurrence - interval).date(), 23, 59) + 59)
            self.phone.content_insert(CALENDAR_URI, series)
            values = self._values(route, start, end)
            if rule == "one":
                values.update(repeat_interval="0", repeat_rule="0")
            self.phone.content_insert(CALENDAR_URI, values)
        else:
            shift = occurrence - int(route.get("original") or occurrence)
            self.phone.content_insert(CALENDAR_URI, {**old, **self._values(route, start - shift, end - shift)})
        self.pop()

    def _delete(self, route: Route) -> None:
        """``DeleteEventDialog``'s rule: a plain event goes; of a repeating one the shown
        occurrence only (a repetition exception: its day code), it and the later ones
        (``EventsHelper.addEventRepeatLimit``: the repetition ends at 23:59:59 on the previous
        occurrence's day), or all of them."""
        rows = self.phone.content_query(CALENDAR_URI, where={"_id": route["event_id"]})
        interval = int(route.get("repeat", 0))
        rule = str(route.get("delete_rule", "one")) if interval else "all"
        self.phone.content_delete(CALENDAR_URI, where={"_id": route["event_id"]})
        if rows and rule != "all":
            row = {k: v for k, v in rows[0].items() if k != "_id"}
            occurrence = int(route.get("occurrence") or row["start_ts"])
            if rule == "future":
                previous = from_ts(occurrence - interval).date()
                row["repeat_limit"] = str(ts(previous, 23, 59) + 59)
            else:
                row["repetition_exceptions"] = exceptions_text([*repetition_exceptions(row), from_ts(occurrence).strftime("%Y%m%d")])
            self.phone.content_insert(CALENDAR_URI, row)
        self.pop()

    def _dialog(self, route: Route) -> Dialog | None:
        kind = route.get("dialog")
        close = lambda: self.set_dialog(None)  # noqa: E731
        if kind in ("start_date", "end_date"):
            year, month = (int(x) for x in str(route["page"]).split("-"))

            def page(delta: int) -> None:
                total = year * 12 + month - 1 + delta
                route["page"] = f"{total // 12}-{total % 12 + 1}"

            return date_picker_dialog(
                date.fromisoformat(route["pick"]),
                (year, month),
                on_pick=lambda d: route.update(pick=d.isoformat()),
                on_month=page,
                on_ok=lambda: self._apply_date(route),
                on_cancel=close,
                first_weekday=FIRST_WEEKDAY,
                theme=THEME,
            )
        if kind in ("start_time", "end_time"):
            return time_picker(self, route, on_ok=lambda: self._apply_time(route), on_cancel=close, theme=THEME)
        if kind == "repeat":

            def choose(seconds: int) -> None:
                route["repeat"] = seconds
                self.set_dialog(None)

            current = int(route.get("repeat", 0))
            items: list[Widget] = [
                _Radio(name, checked=seconds == current, on_tap=lambda s=seconds: choose(s)) for name, seconds in REPETITIONS.items()
            ]
            items.append(_Radio("Custom", checked=current not in REPETITIONS.values(), on_tap=close))
            # Simple-Commons' RadioGroupDialog: dialog_radio_holder (ScrollView) > dialog_radio_group.
            group = Column(items, class_name="android.widget.RadioGroup", rid=self.rid("dialog_radio_group"))
            return UntitledDialog([], body=[Column([group], class_name="android.widget.ScrollView", rid=self.rid("dialog_radio_holder"))])
        if kind == "edit_repeat":
            radios: list[Widget] = [
                _Radio(text, checked=False, on_tap=functools.partial(self._store, route, name), rid=self.rid(rid))
                for name, text, rid in (
                    ("one", "Update the selected occurrence only", "edit_repeating_event_one_only"),
                    ("future", "Update this and all future occurrences", "edit_repeating_event_this_and_future_occurences"),
                    ("all", "Update all occurrences", "edit_repeating_event_all_occurrences"),
                )
            ]
            return UntitledDialog(
                [],
                body=[
                    Text("The event is repeatable", size=sp(16), rid=self.rid("edit_repeating_event_title")),
                    Column(radios, class_name="android.widget.RadioGroup", rid=self.rid("edit_repeating_event_radiogroup")),
                ],
            )
        if kind == "delete":
            body: list[Widget] = [
                Text("Are you sure you want to proceed with the deletion?", size=sp(16), rid=self.rid("delete_event_description"))
            ]
            if int(route.get("repeat", 0)):
                rule = route.get("delete_rule", "one")  # dialog_delete_event.xml checks "one only"
                body.append(Text("The event is repeatable", size=sp(16), rid=self.rid("delete_event_repeat_description")))
                for name, text, rid in (
                    ("one", "Delete the selected occurrence only", "delete_event_one_only"),
                    ("future", "Delete this and all future occurrences", "delete_event_future"),
                    ("all", "Delete all occurrences", "delete_event_all"),
                ):
                    body.append(
                        _Radio(text, checked=rule == name, on_tap=functools.partial(route.update, delete_rule=name), rid=self.rid(rid))
                    )
            return UntitledDialog(
                [Button("No", filled=False, on_tap=close), Button("Yes", filled=False, on_tap=lambda: self._delete(route))], body=body
            )
        return None

    def screen_event(self, route: Route) -> ScreenSpec:
        start, end = from_ts(route["start"]), from_ts(route["end"])
        today = self.phone.now().date()
        editing = route["event_id"] is not None
        task = bool(route.get("task"))
        k = "task" if task else "event"  # activity_task.xml names its views as activity_event.xml does
        body: list[Widget] = []
        if route.get("error"):
            body.append(Text(route["error"], size=sp(14), color=(200, 30, 30)))
        body.append(edit_field(self, route, "title", hint="Title", rid=self.rid(f"{k}_title")))
        if not task:
            body.append(edit_field(self, route, "location", hint="Location", rid=self.rid("event_location")))
        end_row = Row(
            [
                Text(
                    day_title(end.date(), today),
                    size=sp(16),
                    on_tap=lambda: self._open_date(route, "end"),
                    rid=self.rid(f"{k}_end_date"),
                ),
                Text(time_text(end), size=sp(16), on_tap=lambda: self._open_time(route, "end"), rid=self.rid(f"{k}_end_time")),
            ],
            height=dp(48),
        )
        body += [
            edit_field(self, route, "description", hint="Description", rid=self.rid(f"{k}_description")),
            _SwitchCompat(
                "All-day",
                checked=bool(route.get("all_day")),
                on_tap=lambda: route.update(all_day=not route.get("all_day")),
                rid=self.rid(f"{k}_all_day"),
            ),
            Row(
                [
                    Text(
                        day_title(start.date(), today),
                        size=sp(16),
                        on_tap=lambda: self._open_date(route, "start"),
                        rid=self.rid("task_date" if task else "event_start_date"),
                    ),
                    Text(
                        time_text(start),
                        size=sp(16),
                        on_tap=lambda: self._open_time(route, "start"),
                        rid=self.rid("task_time" if task else "event_start_time"),
                    ),
                ],
                height=dp(48),
            ),
            *([] if task else [end_row]),
            Text(DEFAULT_REMINDER, size=sp(16), height=dp(48), on_tap=lambda: None, rid=self.rid(f"{k}_reminder_1")),
            Text("Add another reminder", size=sp(16), height=dp(48), on_tap=lambda: None, rid=self.rid(f"{k}_reminder_2")),
            Text(
                repetition_name(int(route.get("repeat", 0))),
                size=sp(16),
                height=dp(48),
                on_tap=lambda: self.set_dialog("repeat"),
                rid=self.rid(f"{k}_repetition"),
            ),
        ]
        if int(route.get("repeat", 0)):
            body.append(
                Row(
                    [
                        Text("Repeat till", size=sp(16), rid=self.rid(f"{k}_repetition_limit_label")),
                        Text("Forever", size=sp(16), rid=self.rid(f"{k}_repetition_limit")),
                    ],
                    height=dp(48),
                    rid=self.rid(f"{k}_repetition_limit_holder"),
                    on_tap=lambda: None,
                )
            )
        body += [
            _Holder(
                [Text("Regular event", size=sp(16), rid=self.rid(f"{k}_type"))],
                height=dp(48),
                rid=self.rid(f"{k}_type_holder"),
                on_tap=lambda: None,
            ),
            _Holder(
                [Text("Task color" if task else "Event color", size=sp(16), rid=self.rid(f"{k}_color_text"))],
                height=dp(48),
                rid=self.rid(f"{k}_color_holder"),
                on_tap=lambda: None,
            ),
        ]
        if task and editing:
            body.append(Button("Mark completed", filled=False, on_tap=lambda: None, rid=self.rid("toggle_mark_complete")))
        actions: list[MaterialIconButton] = [
            ActionMenuItem("Save", "check", theme=THEME, on_tap=lambda: self._save(route), rid=self.rid("save"))
        ]
        if editing:
            actions += [
                ActionMenuItem("Delete", "delete", theme=THEME, on_tap=lambda: self.set_dialog("delete"), rid=self.rid("delete")),
                ActionMenuItem(
                    "Duplicate task" if task else "Duplicate event",
                    "content_copy",
                    theme=THEME,
                    on_tap=lambda: None,
                    rid=self.rid("duplicate"),
                ),
                OverflowButton(on_tap=lambda: None, theme=THEME),  # Share (ifRoom) finds no room
            ]
        bar = TopAppBar(
            ("Edit Task" if editing else "New Task") if task else ("Edit Event" if editing else "New Event"),
            navigation=MaterialIconButton("Navigate up", "arrow_back", theme=THEME, on_tap=self.pop),
            actions=actions,
            theme=THEME,
            rid=self.rid(f"{k}_toolbar"),
        )
        return ScreenSpec(
            title=None,
            app_bar=bar,
            body=body,
            dialog=self._dialog(route),
            background=THEME.surface,
            list_id=f"{k}_nested_scrollview",
            list_class="android.widget.ScrollView",
        )


class _EventItem(Widget):
    """``event_list_item``: the row (``event_item_holder``) with its colour bar, title, time and description."""

    class_name = "android.view.ViewGroup"

    def __init__(self, items: Sequence[Widget], **kwargs: object) -> None:
        super().__init__(height=dp(72), background=THEME.surface, **kwargs)  # type: ignore[arg-type]
        self.items = list(items)

    def render_key(self) -> Hashable:
        return tuple(w.text for w in self.items)

    def tree_key(self) -> Hashable:
        return (super().tree_key(), tuple(w.text for w in self.items))

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        draw.rectangle(
            (round(dp(12) * scale), round(dp(8) * scale), round(dp(16) * scale), height - round(dp(8) * scale)), fill=THEME.primary
        )

    def children(self, bounds: Bounds) -> Sequence[tuple[Widget, Bounds]]:
        left, top, right, bottom = bounds
        out: list[tuple[Widget, Bounds]] = [
            (
                _Plain(f"{PKG}:id/event_item_color_bar", "android.widget.ImageView"),
                (left + dp(12), top + dp(8), left + dp(16), bottom - dp(8)),
            )
        ]
        y = top + dp(4)
        for w in self.items:
            out.append((w, (left + dp(28), y, right - dp(16), y + w.height)))
            y += w.height
        return out


class _Radio(Text):
    """A ``RadioButton`` of ``RadioGroupDialog`` / ``DeleteEventDialog``."""

    class_name = "android.widget.RadioButton"

    def __init__(self, text: str, *, checked: bool, **kwargs: object) -> None:
        super().__init__(text, size=sp(16), height=dp(48), **kwargs)  # type: ignore[arg-type]
        self.checked = checked

    def tree_key(self) -> Hashable:
        return (super().tree_key(), self.checked)

    def encode(self, bounds: Bounds, package: str) -> UINode:
        node = super().encode(bounds, package)
        node.checkable = True
        node.checked = self.checked
        return node

    def render_key(self) -> Hashable:
        return (super().render_key(), self.checked)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        r, cx, cy = dp(10) * scale, dp(24) * scale, height / 2
        color = THEME.primary if self.checked else (117, 117, 117)
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), outline=color, width=max(1, round(2 * scale)))
        if self.checked:
            draw.ellipse((cx - r / 2, cy - r / 2, cx + r / 2, cy + r / 2), fill=color)
        f = font(max(1, round(sp(16) * scale)))
        draw.text(
            (dp(48) * scale, cy),
            render.text_fit(draw, self.text, round(sp(16) * scale), round(width - dp(56) * scale), "regular"),
            font=f,
            fill=THEME.on_surface,
            anchor="lm",
        )


class _SwitchCompat(_Radio):
    """``MySwitchCompat``: one ``Switch`` node holding its text, the track drawn at the end."""

    class_name = "android.widget.Switch"

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        Text.paint(self, draw, width, height, scale)
        w, h = dp(36) * scale, dp(14) * scale
        x, y = width - w - dp(8) * scale, (height - h) / 2
        draw.rounded_rectangle((x, y, x + w, y + h), radius=h / 2, fill=(250, 190, 130) if self.checked else (190, 190, 190))
        r = dp(10) * scale
        cx = x + w - r if self.checked else x + r
        draw.ellipse((cx - r, height / 2 - r, cx + r, height / 2 + r), fill=THEME.primary if self.checked else (245, 245, 245))

    def render_key(self) -> Hashable:
        return (super().render_key(), self.checked)


# --- the app's database: events.db (Room) ------------------------------------------------------

#: The provider table the app's events live in.
CALENDAR_EVENTS: Final = "calendar_events"

CALENDAR_DB: Final = declare(
    AppDatabase(
        path=f"{DATA_ROOT}/com.simplemobiletools.calendar.pro/databases/events.db",
        schema=room_schema(
            "f5b1d2f3a9c04e6e9c7a7f0b3b1e2d44",
            "CREATE TABLE `events` (`id` INTEGER PRIMARY KEY AUTOINCREMENT, `start_ts` INTEGER NOT NULL, "
            "`end_ts` INTEGER NOT NULL, `title` TEXT NOT NULL, `location` TEXT NOT NULL, `description` TEXT NOT NULL, "
            "`reminder_1_minutes` INTEGER NOT NULL, `reminder_2_minutes` INTEGER NOT NULL, `reminder_3_minutes` INTEGER NOT NULL, "
            "`reminder_1_type` INTEGER NOT NULL, `reminder_2_type` INTEGER NOT NULL, `reminder_3_type` INTEGER NOT NULL, "
            "`repeat_interval` INTEGER NOT NULL, `repeat_rule` INTEGER NOT NULL, `repeat_limit` INTEGER NOT NULL, "
            "`repetition_exceptions` TEXT NOT NULL, `attendees` TEXT NOT NULL, `import_id` TEXT NOT NULL, "
            "`time_zone` TEXT NOT NULL, `flags` INTEGER NOT NULL, `event_type` INTEGER NOT NULL, `parent_id` INTEGER NOT NULL, "
            "`last_updated` INTEGER NOT NULL, `source` TEXT NOT NULL, `availability` INTEGER NOT NULL, `color` INTEGER NOT NULL, "
            "`type` INTEGER NOT NULL)",
            "CREATE UNIQUE INDEX `index_events_id` ON `events` (`id`)",
            "CREATE TABLE `event_types` (`id` INTEGER PRIMARY KEY AUTOINCREMENT, `title` TEXT NOT NULL, `color` INTEGER NOT NULL, "
            "`caldav_calendar_id` INTEGER NOT NULL, `caldav_display_name` TEXT NOT NULL, `caldav_email` TEXT NOT NULL, "
            "`type` INTEGER NOT NULL)",
            "CREATE UNIQUE INDEX `index_event_types_id` ON `event_types` (`id`)",
            "INSERT INTO event_types VALUES (1, 'Regular event', -14575885, 0, '', '', 0)",
            "CREATE TABLE `widgets` (`id` INTEGER PRIMARY KEY AUTOINCREMENT, `widget_id` INTEGER NOT NULL, `period` INTEGER NOT NULL)",
            "CREATE TABLE `tasks` (`id` INTEGER PRIMARY KEY AUTOINCREMENT, `task_id` INTEGER NOT NULL, "
            "`start_ts` INTEGER NOT NULL, `flags` INTEGER NOT NULL)",
        ),
        tables=(
            Table(
                "events",
                CALENDAR_EVENTS,
                defaults={
                    "reminder_1_minutes": -1,
                    "reminder_2_minutes": -1,
                    "reminder_3_minutes": -1,
                    "repetition_exceptions": "[]",
                    "time_zone": "UTC",
                    "event_type": 1,
                    "source": "simple-calendar",
                },
            ),
        ),
    )
)
