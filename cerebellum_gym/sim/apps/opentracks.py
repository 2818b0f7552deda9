"""OpenTracks (de.dennisguse.opentracks): the list of recorded tracks, newest first, and a track's
statistics (distance, total and moving time, average, moving and maximum speed, elevation gain
and loss, activity type, description).

Tracks live in ``content://de.dennisguse.opentracks.content/tracks``: rows keyed by the columns
of the app's ``tracks`` table in ``databases/database.db`` (``name``, ``category``,
``starttime``, ``stoptime``, ``totaltime`` and ``movingtime`` in ms, ``totaldistance`` in
metres, speeds in m/s, elevations in metres), which AndroidWorld seeds and reads with sqlite.
The phone uses imperial units, as AndroidWorld's device does: miles with two decimals, feet and
miles per hour. Speeds are worked out from distance over time, as the app recalculates them
when the stored ones do not agree. Times are shown as the app does, ``45:00`` or ``1:05:00``.
"""

from __future__ import annotations

from collections.abc import Hashable
from datetime import datetime, timezone
from typing import ClassVar

from PIL import ImageDraw

from cerebellum_gym.core.tree import Bounds, UINode
from cerebellum_gym.sim import render
from cerebellum_gym.sim.apps.base import App, Route
from cerebellum_gym.sim.apps.common import confirm_dialog
from cerebellum_gym.sim.providers import TRACKS_URI
from cerebellum_gym.sim.render import font, text_fit
from cerebellum_gym.sim.screen import ScreenSpec
from cerebellum_gym.sim.widgets import BODY_SIZE, PAD, SECONDARY_SIZE, Callback, IconButton, ListItem, Text, Widget

BLUE = (25, 118, 210)
#: Metres in a mile and in a foot (the app's unit conversions).
METRES_PER_MILE = 1609.344
METRES_PER_FOOT = 0.3048


def number(row: dict[str, str], column: str) -> float:
    """A numeric column (0 when unset or unreadable)."""
    try:
        return float(row.get(column) or 0)
    except ValueError:
        return 0.0


def elapsed(ms: float) -> str:
    """A duration as the app writes it: ``45:00``, ``1:05:00``."""
    seconds = max(0, round(ms / 1000))
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes:02d}:{secs:02d}"


def miles(metres: float) -> str:
    return f"{metres / METRES_PER_MILE:.2f} mi"


def feet(metres: float) -> str:
    return f"{round(metres / METRES_PER_FOOT)} ft"


def mph(metres_per_second: float) -> str:
    return f"{metres_per_second * 3600 / METRES_PER_MILE:.2f} mph"


def started(row: dict[str, str]) -> str:
    """``Oct 12, 2023 8:00 AM``."""
    when = datetime.fromtimestamp(number(row, "starttime") / 1000, timezone.utc)
    return f"{when:%b} {when.day}, {when.year} {when:%-I:%M %p}"


def average_speed(row: dict[str, str], time_column: str) -> float:
    """Distance over ``time_column`` in m/s (0 for no time)."""
    ms = number(row, time_column)
    return number(row, "totaldistance") / (ms / 1000) if ms > 0 else 0.0


class TrackItem(Widget):
    """One track of the list: its activity type's icon, the name, the type and start, and the
    distance and total time."""

    class_name = "android.view.ViewGroup"
    default_height = 252
    ICON = 190

    def __init__(self, name: str, *, category: str, when: str, distance: str, duration: str, on_tap: Callback) -> None:
        super().__init__(text=name, on_tap=on_tap)
        self.category, self.when, self.distance, self.duration = category, when, distance, duration

    def _lines(self) -> tuple[str, str]:
        first = f"{self.category} · {self.when}" if self.category else self.when
        return first, f"{self.distance} · {self.duration}"

    def render_key(self) -> Hashable:
        return (self.text, self.category, self.when, self.distance, self.duration)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        pad = round(PAD * scale)
        d = round(110 * scale)
        top = (height - d) // 2
        draw.ellipse((pad, top, pad + d, top + d), fill=BLUE)
        initial = (self.category or "?")[:1].upper()
        asz = round(52 * scale)
        aw = draw.textlength(initial, font=font(asz))
        draw.text((pad + (d - aw) / 2, top + (d - asz) / 2), initial, font=font(asz), fill=render.ON_PRIMARY)
        left = round(self.ICON * scale)
        max_w = width - left - pad
        size, small = round(BODY_SIZE * scale), round(SECONDARY_SIZE * scale)
        y = round(36 * scale)
        draw.text((left, y), text_fit(draw, self.text, size, max_w), font=font(size), fill=render.TEXT)
        y += size + round(14 * scale)
        for line in self._lines():
            draw.text((left, y), text_fit(draw, line, small, max_w), font=font(small), fill=render.TEXT_SECONDARY)
            y += small + round(14 * scale)
        draw.line((left, height - 1, width, height - 1), fill=render.DIVIDER)

    def tree_key(self) -> Hashable:
        return (super().tree_key(), self.category, self.when, self.distance, self.duration)

    def encode(self, bounds: Bounds, package: str) -> UINode:
        row = super().encode(bounds, package)
        left, top, right, bottom = bounds
        text_left = left + self.ICON
        first, second = self._lines()
        specs = (
            ("trackListItemName", self.text, top + 30, top + 100),
            ("trackListItemCategory", first, top + 100, top + 170),
            ("trackListItemStatistics", second, top + 170, bottom - 10),
        )
        row.children = [
            UINode(
                "android.widget.TextView",
                (text_left, t, right - PAD, b),
                text=text,
                resource_id=f"{package}:id/{rid}",
                package=package,
                index=i,
            )
            for i, (rid, text, t, b) in enumerate(specs)
        ]
        row.content_desc = self.category
        return row


class OpenTracksApp(App):
    package: ClassVar[str] = "de.dennisguse.opentracks"
    activity: ClassVar[str] = "de.dennisguse.opentracks.TrackListActivity"
    label: ClassVar[str] = "OpenTracks"
    color: ClassVar[tuple[int, int, int]] = BLUE
    clock_dependent: ClassVar[bool] = False

    def tracks(self) -> list[dict[str, str]]:
        return sorted(self.phone.content_query(TRACKS_URI), key=lambda r: (-number(r, "starttime"), -int(r.get("_id") or 0)))

    def _opener(self, track_id: str) -> Callback:
        return lambda: self.push("track", track_id=track_id)

    def screen_main(self, route: Route) -> ScreenSpec:
        body: list[Widget] = [
            TrackItem(
                row.get("name", ""),
                category=row.get("category", ""),
                when=started(row),
                distance=miles(number(row, "totaldistance")),
                duration=elapsed(number(row, "totaltime")),
                on_tap=self._opener(row["_id"]),
            )
            for row in self.tracks()
        ]
        if not body:
            body.append(Text("No tracks yet. Tap the record button to start.", size=40, center=True, height=300))
        return ScreenSpec(title="OpenTracks", body=body)

    def screen_track(self, route: Route) -> ScreenSpec:
        rows = self.phone.content_query(TRACKS_URI, where={"_id": route["track_id"]})
        if not rows:
            return ScreenSpec(title="Track", up=self.pop, body=[Text("Track not found", size=44)])
        row = rows[0]
        stats = (
            ("Distance", miles(number(row, "totaldistance")), "stats_distance_value"),
            ("Total time", elapsed(number(row, "totaltime")), "stats_total_time_value"),
            ("Moving time", elapsed(number(row, "movingtime")), "stats_moving_time_value"),
            ("Average speed", mph(average_speed(row, "totaltime")), "stats_average_speed_value"),
            ("Average moving speed", mph(average_speed(row, "movingtime")), "stats_average_moving_speed_value"),
            ("Max speed", mph(number(row, "maxspeed")), "stats_max_speed_value"),
            ("Elevation gain", feet(number(row, "elevationgain")), "stats_elevation_gain_value"),
            ("Elevation loss", feet(number(row, "elevationloss")), "stats_elevation_loss_value"),
        )
        body: list[Widget] = [
            Text(row.get("name", ""), size=56, height=160, rid=f"{self.package}:id/track_name"),
            ListItem("Activity type", row.get("category", "") or "Unknown", rid=f"{self.package}:id/activity_type"),
            ListItem("Started", started(row), rid=f"{self.package}:id/stats_start_datetime_value"),
        ]
        body += [ListItem(label, value, rid=f"{self.package}:id/{rid}") for label, value, rid in stats]
        if row.get("description"):
            body.append(ListItem("Description", row["description"], rid=f"{self.package}:id/description"))

        def delete() -> None:
            self.phone.content_delete(TRACKS_URI, where={"_id": row["_id"]})
            self.pop()

        dialog = (
            confirm_dialog(self, "Delete track?", "This track will be permanently deleted.", "Delete", delete)
            if route.get("dialog") == "delete"
            else None
        )
        actions: list[Widget] = [IconButton("Delete", "✕", on_tap=lambda: self.set_dialog("delete"))]
        return ScreenSpec(title="Statistics", up=self.pop, body=body, actions=actions, dialog=dialog)
