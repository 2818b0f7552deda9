"""Joplin (net.cozic.joplin): notebooks, notes and to-dos, over the app's ``joplin.sqlite``.

The database sits where AndroidWorld reads and writes it (``/data/data/net.cozic.joplin/
databases/joplin.sqlite``) with the columns of its ``folders``, ``notes`` and
``notes_normalized`` tables as AndroidWorld's ``sqlite_schema_utils`` reads them (``SELECT *``
into its dataclasses, so no column more or less). Folders and notes are bound to provider
tables (``content://net.cozic.joplin/folders``, ``.../notes``; the key is the text ``id``);
``notes_normalized`` is the search index the app keeps of its notes (lower-cased titles), so it
is made from the notes whenever the file is read, whatever was written into it.

The app shows what Joplin's Android app shows: a note list of the chosen notebook (All notes
at first), newest first with uncompleted to-dos on top, to-dos with a check box; a side menu
(☰) with the notebooks by name; a search over titles and bodies; a note page with the title and the Markdown body as the app's
viewer renders it (list items as bullets, headings bold, emphasis markers dropped). A tap on a
to-do's box completes it or brings it back (``todo_completed`` is the time in ms, 0 if open).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Hashable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Final

from PIL import ImageDraw

from cerebellum_gym.core.tree import Bounds, UINode
from cerebellum_gym.devices.base import Row
from cerebellum_gym.sim import providers, render
from cerebellum_gym.sim.apps.base import App, Route
from cerebellum_gym.sim.apps.broccoli import Paragraph
from cerebellum_gym.sim.apps.common import edit_field, field_key
from cerebellum_gym.sim.apps.registry import register_app
from cerebellum_gym.sim.databases import DATA_ROOT, AppDatabase, Table, declare
from cerebellum_gym.sim.render import font, text_fit
from cerebellum_gym.sim.screen import ScreenSpec
from cerebellum_gym.sim.widgets import BODY_SIZE, PAD, Callback, Column, IconButton, Text, TextField, Widget

if TYPE_CHECKING:
    from cerebellum_gym.sim.phone import Phone

PACKAGE: Final = "net.cozic.joplin"
FOLDERS_URI: Final = "content://net.cozic.joplin/folders"
NOTES_URI: Final = "content://net.cozic.joplin/notes"
#: The provider tables behind the two bound tables.
JOPLIN_FOLDERS: Final = "joplin_folders"
JOPLIN_NOTES: Final = "joplin_notes"
ALL_NOTES: Final = "All notes"

_NORMALIZED_COLUMNS: Final = (
    "parent_id", "title", "body", "latitude", "longitude", "altitude", "source_url", "is_todo", "todo_due",
    "todo_completed", "user_created_time", "user_updated_time",
)  # fmt: skip


def _normalized(content: Mapping[str, list[Row]]) -> dict[str, list[dict[str, Any]]]:
    """``notes_normalized``: each note with its title lower-cased, as the app's search engine keeps it."""
    rows = []
    for note in content.get(JOPLIN_NOTES, ()):
        row: dict[str, Any] = {"id": note.get("_id", "")}
        for column in _NORMALIZED_COLUMNS:
            row[column] = note.get(column, "")
        row["title"] = str(row["title"]).lower()
        rows.append(row)
    return {"notes_normalized": rows}


JOPLIN_DB: Final = declare(
    AppDatabase(
        path=f"{DATA_ROOT}/{PACKAGE}/databases/joplin.sqlite",
        schema=(
            "CREATE TABLE android_metadata (locale TEXT);\n"
            "INSERT INTO android_metadata VALUES ('en_US');\n"
            'CREATE TABLE folders (id TEXT PRIMARY KEY, title TEXT NOT NULL DEFAULT "", created_time INT NOT NULL, '
            "updated_time INT NOT NULL, user_created_time INT NOT NULL DEFAULT 0, user_updated_time INT NOT NULL DEFAULT 0, "
            'deleted_time INT NOT NULL DEFAULT 0, encryption_cipher_text TEXT NOT NULL DEFAULT "", '
            'encryption_applied INT NOT NULL DEFAULT 0, parent_id TEXT NOT NULL DEFAULT "", is_shared INT NOT NULL DEFAULT 0, '
            'share_id TEXT NOT NULL DEFAULT "", master_key_id TEXT NOT NULL DEFAULT "", icon TEXT NOT NULL DEFAULT "", '
            'user_data TEXT NOT NULL DEFAULT "");\n'
            "CREATE INDEX folders_title ON folders (title);\n"
            "CREATE INDEX folders_updated_time ON folders (updated_time);\n"
            'CREATE TABLE notes (id TEXT PRIMARY KEY, parent_id TEXT NOT NULL DEFAULT "", title TEXT NOT NULL DEFAULT "", '
            'body TEXT NOT NULL DEFAULT "", created_time INT NOT NULL, updated_time INT NOT NULL, '
            "is_conflict INT NOT NULL DEFAULT 0, latitude NUMERIC NOT NULL DEFAULT 0, longitude NUMERIC NOT NULL DEFAULT 0, "
            'altitude NUMERIC NOT NULL DEFAULT 0, author TEXT NOT NULL DEFAULT "", source_url TEXT NOT NULL DEFAULT "", '
            "is_todo INT NOT NULL DEFAULT 0, todo_due INT NOT NULL DEFAULT 0, todo_completed INT NOT NULL DEFAULT 0, "
            'source TEXT NOT NULL DEFAULT "", source_application TEXT NOT NULL DEFAULT "", '
            'application_data TEXT NOT NULL DEFAULT "", "order" NUMERIC NOT NULL DEFAULT 0, '
            "user_created_time INT NOT NULL DEFAULT 0, user_updated_time INT NOT NULL DEFAULT 0, "
            'encryption_cipher_text TEXT NOT NULL DEFAULT "", encryption_applied INT NOT NULL DEFAULT 0, '
            'markup_language INT NOT NULL DEFAULT 1, is_shared INT NOT NULL DEFAULT 0, share_id TEXT NOT NULL DEFAULT "", '
            'conflict_original_id TEXT DEFAULT NULL, master_key_id TEXT NOT NULL DEFAULT "", user_data TEXT NOT NULL DEFAULT "");\n'
            "CREATE INDEX notes_title ON notes (title);\n"
            "CREATE INDEX notes_updated_time ON notes (updated_time);\n"
            "CREATE INDEX notes_is_todo ON notes (is_todo);\n"
            "CREATE INDEX notes_order ON notes (`order`);\n"
            'CREATE TABLE notes_normalized (id TEXT NOT NULL, title TEXT NOT NULL DEFAULT "", body TEXT NOT NULL DEFAULT "", '
            "user_created_time INT NOT NULL DEFAULT 0, user_updated_time INT NOT NULL DEFAULT 0, is_todo INT NOT NULL DEFAULT 0, "
            'todo_completed INT NOT NULL DEFAULT 0, parent_id TEXT NOT NULL DEFAULT "", latitude NUMERIC NOT NULL DEFAULT 0, '
            'longitude NUMERIC NOT NULL DEFAULT 0, altitude NUMERIC NOT NULL DEFAULT 0, source_url TEXT NOT NULL DEFAULT "", '
            "todo_due INT NOT NULL DEFAULT 0);\n"
            "CREATE INDEX notes_normalized_id ON notes_normalized (id);\n"
        ),
        tables=(Table("folders", JOPLIN_FOLDERS), Table("notes", JOPLIN_NOTES)),
        derived=_normalized,
    )
)


def flag(row: Row, column: str) -> int:
    """An integer column (0 when unset or unreadable)."""
    try:
        return int(float(row.get(column) or 0))
    except ValueError:
        return 0


_EMPHASIS = re.compile(r"(\*\*|__|\*|_|~~|`)(?=\S)(.+?)(?<=\S)\1")


def rendered_lines(body: str) -> list[tuple[str, bool]]:
    """The Markdown body as the note viewer shows it: one entry per block line, ``(text, heading)``;
    list items as bullets (numbered ones keep their numbers), emphasis and code markers dropped,
    blank lines left out (the viewer shows them as spacing)."""
    out: list[tuple[str, bool]] = []
    for raw in body.splitlines():
        line = raw.strip()
        if not line:
            continue
        heading = re.match(r"#{1,6}\s+(.*)", line)
        if heading:
            out.append((_EMPHASIS.sub(r"\2", heading.group(1)), True))
            continue
        check = re.match(r"[-*+]\s+\[( |x|X)\]\s+(.*)", line)
        if check:
            out.append((("☑ " if check.group(1) != " " else "☐ ") + _EMPHASIS.sub(r"\2", check.group(2)), False))
            continue
        bullet = re.match(r"[-*+]\s+(.*)", line)
        if bullet:
            line = "• " + bullet.group(1)
        out.append((_EMPHASIS.sub(r"\2", line), False))
    return out


#: Joplin's light theme (packages/lib/themes/light.ts): the header's dark grey and white text,
#: the page, text, faded text, dividers and the selected row.
HEADER_BG: Final = (0x31, 0x36, 0x40)
HEADER_FG: Final = (255, 255, 255)
PAGE: Final = (255, 255, 255)
TEXT: Final = (0x32, 0x37, 0x3F)
FADED: Final = (0x7C, 0x8B, 0x9E)
DIVIDER: Final = (0xDD, 0xDD, 0xDD)
SELECTED: Final = (0xE5, 0xE5, 0xE5)
FAB_RED: Final = (231, 76, 60)
HEADER_HEIGHT: Final = 158


class NoteItem(Widget):
    """One row of the note list (``note-item.js``): a touchable row (a ``ViewGroup``) holding a
    to-do's check box (a ``CheckBox`` described "to-do: <title>", ticked when done) and the
    title. A tap on the box toggles the to-do; elsewhere it opens the note. ``in_note`` is the
    note screen's box, which has no description."""

    class_name = "android.view.ViewGroup"
    default_height = 110  # 42 dp: a 22 dp box with 10 dp above and below (16 sp text, 10 dp padding)
    BOX = 124

    def __init__(self, title: str, *, todo: bool, done: bool, on_toggle: Callback, on_open: Callback | None, in_note: bool = False) -> None:
        super().__init__(text=title, on_tap=on_open, height=150 if in_note else None)
        self.todo, self.done, self.on_toggle, self.in_note = todo, done, on_toggle, in_note
        self.background = PAGE

    def tap(self, phone: Phone, x: int, y: int, bounds: Bounds) -> bool:
        if self.todo and x < bounds[0] + self.BOX:
            self.on_toggle()
            return True
        return super().tap(phone, x, y, bounds)

    def long_press(self, phone: Phone, x: int, y: int, bounds: Bounds) -> bool:
        # The real row starts the note selection mode, which the simulator does not have.
        return False

    def render_key(self) -> Hashable:
        return (self.text, self.todo, self.done, self.in_note)

    def tree_key(self) -> Hashable:
        return (super().tree_key(), self.todo, self.done, self.in_note)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        pad = round(PAD * scale)
        size = round((52 if self.in_note else BODY_SIZE) * scale)
        top = (height - size) / 2
        left = pad
        color = FADED if self.done else TEXT
        if self.todo:
            d = round(56 * scale)
            box_top = (height - d) / 2
            draw.rounded_rectangle(
                (pad, box_top, pad + d, box_top + d), radius=max(1, round(6 * scale)), outline=color, width=max(1, round(5 * scale))
            )
            if self.done:
                draw.line(
                    (pad + d * 0.2, box_top + d * 0.5, pad + d * 0.42, box_top + d * 0.75), fill=color, width=max(1, round(6 * scale))
                )
                draw.line(
                    (pad + d * 0.42, box_top + d * 0.75, pad + d * 0.82, box_top + d * 0.25), fill=color, width=max(1, round(6 * scale))
                )
            left = round(self.BOX * scale)
        shown = text_fit(draw, self.text, size, width - left - pad)
        draw.text((left, top), shown, font=font(size, "medium" if self.in_note else "regular"), fill=color)
        if not self.in_note:
            draw.line((0, height - 1, width, height - 1), fill=DIVIDER)

    def encode(self, bounds: Bounds, package: str) -> UINode:
        row = super().encode(bounds, package)
        if self.in_note:
            row.clickable = row.focusable = False
        else:
            row.long_clickable = True
        left, top, right, bottom = bounds
        text_left = left + (self.BOX if self.todo else PAD)
        children = []
        if self.todo:
            children.append(
                UINode(
                    "android.widget.CheckBox",
                    (left, top, left + self.BOX, bottom),
                    content_desc="" if self.in_note else f"to-do: {self.text}",
                    package=package,
                    checkable=True,
                    checked=self.done,
                    clickable=True,
                    focusable=True,
                )
            )
        if self.in_note:
            row.text = ""
        else:
            row.text = ""
            children.append(UINode("android.widget.TextView", (text_left, top, right - PAD, bottom), text=self.text, package=package))
        for i, child in enumerate(children):
            child.index = i
        row.children = children
        return row


class HeaderButton(IconButton):
    """A header button of ``ScreenHeader.tsx``: a touchable with the button role and a label."""

    class_name = "android.widget.Button"
    background = HEADER_BG

    def __init__(self, desc: str, glyph: str, on_tap: Callback) -> None:
        super().__init__(desc, glyph, color=HEADER_FG, on_tap=on_tap, height=HEADER_HEIGHT)


class HeaderTitle(Text):
    background = HEADER_BG

    def __init__(self, text: str) -> None:
        super().__init__(text, size=50, bold=True, color=HEADER_FG, ellipsize=True, height=HEADER_HEIGHT)


class FolderDropdown(Widget):
    """The note screen's notebook picker in the header (``Dropdown.tsx``): a touchable showing
    the notebook's title and a ``▼``."""

    class_name = "android.view.ViewGroup"
    background = HEADER_BG

    def __init__(self, title: str) -> None:
        super().__init__(height=HEADER_HEIGHT, on_tap=lambda: None)
        self.title = title

    def render_key(self) -> Hashable:
        return (self.title,)

    def tree_key(self) -> Hashable:
        return (super().tree_key(), self.title)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        size = round(46 * scale)
        shown = text_fit(draw, self.title, size, width - round(120 * scale))
        draw.text((round(20 * scale), height / 2), shown, font=font(size), fill=HEADER_FG, anchor="lm")
        x = round(20 * scale) + draw.textlength(shown, font=font(size)) + round(20 * scale)
        r = 12 * scale  # the "▼", drawn (the bundled font lacks it)
        cy = height / 2
        draw.polygon([(x, cy - r * 0.6), (x + 2 * r, cy - r * 0.6), (x + r, cy + r * 0.8)], fill=HEADER_FG)

    def encode(self, bounds: Bounds, package: str) -> UINode:
        node = super().encode(bounds, package)
        left, top, right, bottom = bounds
        node.children = [
            UINode("android.widget.TextView", (left + 20, top, right - 100, bottom), text=self.title, package=package, index=0),
            UINode("android.widget.TextView", (right - 100, top, right - 40, bottom), text="▼", package=package, index=1),
        ]
        return node


class Header(Widget):
    """``ScreenHeader``'s row: fixed-size buttons, and the title (or picker) taking what is left."""

    class_name = "android.view.ViewGroup"
    opaque = True
    background = HEADER_BG

    def __init__(self, before: list[Widget], title: Widget, after: list[Widget]) -> None:
        super().__init__(height=HEADER_HEIGHT)
        self.before, self.title, self.after = before, title, after

    def render_key(self) -> Hashable:
        return ()

    def tree_key(self) -> Hashable:
        return (super().tree_key(), len(self.before), len(self.after))

    def children(self, bounds: Bounds) -> Sequence[tuple[Widget, Bounds]]:
        left, top, right, bottom = bounds
        out: list[tuple[Widget, Bounds]] = []
        x = left
        for w in self.before:
            out.append((w, (x, top, x + HEADER_HEIGHT, bottom)))
            x += HEADER_HEIGHT
        end = right - HEADER_HEIGHT * len(self.after)
        out.append((self.title, (x + (0 if self.before else PAD), top, end, bottom)))
        for w in self.after:
            out.append((w, (end, top, end + HEADER_HEIGHT, bottom)))
            end += HEADER_HEIGHT
        return out


class TodoTitle(Widget):
    """A to-do's title row on the note screen: its box, then the title field."""

    class_name = "android.view.ViewGroup"
    opaque = False

    def __init__(self, box: NoteItem, field: TextField) -> None:
        super().__init__(height=150)
        self.box, self.field = box, field

    def render_key(self) -> Hashable:
        return ()

    def children(self, bounds: Bounds) -> Sequence[tuple[Widget, Bounds]]:
        left, top, right, bottom = bounds
        return [(self.box, (left, top, left + NoteItem.BOX, bottom)), (self.field, (left + NoteItem.BOX, top, right, bottom))]


class ActionFab(Widget):
    """React Native Paper's ``FAB.Group`` of ``ActionButton.tsx``: a round red button with the
    button role, described by its label ("Add new", "Edit")."""

    class_name = "android.widget.Button"
    default_height = 168

    def __init__(self, desc: str, glyph: str, on_tap: Callback) -> None:
        super().__init__(desc=desc, on_tap=on_tap)
        self.glyph = glyph
        self.background = PAGE

    def render_key(self) -> Hashable:
        return (self.desc, self.glyph)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        side = min(width, height)
        x0, y0 = (width - side) // 2, (height - side) // 2
        draw.ellipse((x0, y0, x0 + side - 1, y0 + side - 1), fill=FAB_RED)
        size = round(64 * scale)
        box = ((width - size) / 2, (height - size) / 2, (width + size) / 2, (height + size) / 2)
        render.draw_icon(draw, self.glyph, box, (255, 255, 255))


class SideButton(Widget):
    """A side-menu entry (``renderSidebarButton``/``renderFolderItem``): a touchable row with an
    icon and its text; a folder's row is long-clickable too; the "Notebooks" header is not
    touchable."""

    class_name = "android.view.ViewGroup"
    default_height = 126

    def __init__(
        self, title: str, icon: str, *, on_tap: Callback | None, selected: bool = False, indent: int = 0, folder: bool = False
    ) -> None:
        super().__init__(text=title, on_tap=on_tap, selected=False)
        self.icon, self.indent, self.chosen, self.folder = icon, indent, selected, folder
        self.background = SELECTED if selected else PAGE

    def long_press(self, phone: Phone, x: int, y: int, bounds: Bounds) -> bool:
        # A notebook's long press opens its Edit / Delete dialog in the app; not simulated.
        return False

    def render_key(self) -> Hashable:
        return (self.text, self.icon, self.indent, self.chosen)

    def tree_key(self) -> Hashable:
        return (super().tree_key(), self.indent, self.folder)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        left = round((PAD + self.indent) * scale)
        size = round(56 * scale)
        render.draw_icon(draw, self.icon, (left, (height - size) / 2, left + size, (height + size) / 2), FADED)
        text_size = round(42 * scale)
        x = left + size + round(30 * scale)
        draw.text((x, height / 2), text_fit(draw, self.text, text_size, width - x - PAD), font=font(text_size), fill=TEXT, anchor="lm")

    def encode(self, bounds: Bounds, package: str) -> UINode:
        node = super().encode(bounds, package)
        node.text = ""
        left, top, right, bottom = bounds
        child = UINode(
            "android.widget.TextView", (left + PAD + self.indent + 200, top, right - PAD, bottom), text=self.text, package=package
        )
        if self.on_tap is None:
            return UINode("android.view.ViewGroup", bounds, package=package, children=[child])
        node.children = [child]
        node.long_clickable = self.folder
        return node


@register_app
class JoplinApp(App):
    package: ClassVar[str] = PACKAGE
    activity: ClassVar[str] = "net.cozic.joplin.MainActivity"
    label: ClassVar[str] = "Joplin"
    color: ClassVar[tuple[int, int, int]] = (0, 101, 217)
    clock_dependent: ClassVar[bool] = False

    def initial_data(self) -> dict[str, Any]:
        return {"folder": None}

    # --- rows ----------------------------------------------------------------------------------

    def folders(self) -> list[Row]:
        """The notebooks, by name (as the side menu lists them)."""
        return sorted(self.phone.content_query(FOLDERS_URI), key=lambda r: (r.get("title", "").lower(), r.get("_id", "")))

    def notes(self, folder_id: str | None) -> list[Row]:
        """The notes of a notebook (every note for All notes): uncompleted to-dos first, then by
        time updated, newest first (the app's defaults), then by title."""
        rows = [r for r in self.phone.content_query(NOTES_URI) if folder_id is None or r.get("parent_id") == folder_id]

        def key(r: Row) -> tuple[Any, ...]:
            open_todo = flag(r, "is_todo") and not flag(r, "todo_completed")
            return (0 if open_todo else 1, -flag(r, "user_updated_time"), r.get("title", "").lower())

        return sorted(rows, key=key)

    def _note(self, note_id: str) -> Row | None:
        rows = self.phone.content_query(NOTES_URI, where={"_id": note_id})
        return rows[0] if rows else None

    def _toggle(self, note_id: str) -> None:
        """Complete a to-do (now, in ms) or bring it back (0), stamping its update times."""
        now = str(int(self.phone.state.clock * 1000))
        table = self.phone.state.content.setdefault(providers.resolve(NOTES_URI)[0], [])
        for row in table:
            if row.get("_id") == note_id:
                row["todo_completed"] = "0" if flag(row, "todo_completed") else now
                row["updated_time"] = row["user_updated_time"] = now
        self.phone.invalidate()

    def _set_title(self, note_id: str, title: str) -> None:
        """The note screen's title field writes the note's title as it changes."""
        now = str(int(self.phone.state.clock * 1000))
        table = self.phone.state.content.setdefault(providers.resolve(NOTES_URI)[0], [])
        for row in table:
            if row.get("_id") == note_id:
                row["title"] = title
                row["updated_time"] = row["user_updated_time"] = now
        self.phone.invalidate()

    # --- screens -------------------------------------------------------------------------------

    def _item(self, row: Row) -> NoteItem:
        """A note's row of a list: its box toggles a to-do, a tap elsewhere opens the note."""
        note_id = row["_id"]
        return NoteItem(
            row.get("title", "") or "Untitled",
            todo=bool(flag(row, "is_todo")),
            done=bool(flag(row, "todo_completed")),
            on_toggle=functools.partial(self._toggle, note_id),
            on_open=functools.partial(self.push, "note", note_id=note_id),
        )

    def _folder_title(self) -> str:
        folder_id = self.data.get("folder")
        if folder_id is None:
            return ALL_NOTES
        for row in self.phone.content_query(FOLDERS_URI, where={"_id": folder_id}):
            return row.get("title", "")
        self.data["folder"] = None  # the notebook is gone
        return ALL_NOTES

    def screen_main(self, route: Route) -> ScreenSpec:
        """The note list (``screens/Notes.tsx``): the header with Sidebar, the notebook's title,
        Search and Sort notes by; the notes in a ``FlatList``; the "Add new" button."""
        title = self._folder_title()
        body: list[Widget] = [self._item(row) for row in self.notes(self.data.get("folder"))]
        if not body:
            body.append(
                Text(
                    "There are currently no notes. Create one by clicking on the (+) button.", size=40, center=True, height=300, color=FADED
                )
            )
        header = Header(
            [HeaderButton("Sidebar", "menu", lambda: self.push("notebooks"))],
            HeaderTitle(title),
            [HeaderButton("Search", "search", self._search), HeaderButton("Sort notes by", "filter_list", lambda: None)],
        )
        fab = ActionFab("Add new", "add", lambda: None) if self.folders() else None
        return ScreenSpec(
            title=None, app_bar=header, body=body, fab=fab, background=PAGE, list_id="", list_class="android.widget.ScrollView"
        )

    def _search(self) -> None:
        self.push("search", query="")
        self.phone.focus(field_key(self, self.route, "query"))

    def screen_search(self, route: Route) -> ScreenSpec:
        """Search over every note's title and body (case aside), as the app's search screen:
        the matching notes, a tap opens one."""
        query = str(route.get("query", "")).strip().lower()
        body: list[Widget] = [edit_field(self, route, "query", hint="Search...", rid=f"{PACKAGE}:id/search")]
        if query:
            body += [self._item(r) for r in self.notes(None) if query in r.get("title", "").lower() or query in r.get("body", "").lower()]
        header = Header([HeaderButton("Back", "arrow_back", self.pop)], HeaderTitle("Search"), [])
        return ScreenSpec(title=None, app_bar=header, body=body, background=PAGE, list_id="", list_class="android.widget.ScrollView")

    def screen_notebooks(self, route: Route) -> ScreenSpec:
        """The side menu (``side-menu-content.tsx``): All notes, the "Notebooks" header and the
        notebooks by name, then New Notebook, Tags, Configuration and Synchronise."""

        def choose(folder_id: str | None) -> None:
            self.data["folder"] = folder_id
            self.pop()

        current = self.data.get("folder")
        body: list[Widget] = [
            SideButton(ALL_NOTES, "description", on_tap=lambda: choose(None), selected=current is None),
            SideButton("Notebooks", "folder", on_tap=None),
        ]
        for row in self.folders():
            fid = row["_id"]
            body.append(
                SideButton(
                    row.get("title", ""),
                    "folder_open",
                    on_tap=functools.partial(choose, fid),
                    selected=fid == current,
                    indent=40,
                    folder=True,
                )
            )
        # The bottom panel (below the notebooks' scroll view in the app; after them here).
        body += [
            SideButton("New Notebook", "create_new_folder", on_tap=lambda: None),
            SideButton("Tags", "label", on_tap=lambda: None),
            SideButton("Configuration", "settings", on_tap=lambda: None),
            SideButton("Synchronise", "sync", on_tap=lambda: None),
        ]
        return ScreenSpec(title=None, body=body, background=PAGE, list_id="", list_class="android.widget.ScrollView")

    def screen_note(self, route: Route) -> ScreenSpec:
        """A note (``screens/Note.tsx``) in view mode: the header with Back, the notebook picker
        and Actions; the to-do's box and the title field; the body as the viewer renders it; the
        "Edit" button."""
        row = self._note(route["note_id"])
        if row is None:
            header = Header([HeaderButton("Back", "arrow_back", self.pop)], HeaderTitle(""), [])
            return ScreenSpec(title=None, app_bar=header, body=[Text("This note could not be found", size=44)], background=PAGE)
        note_id = row["_id"]
        todo, done = bool(flag(row, "is_todo")), bool(flag(row, "todo_completed"))
        folder = next((f.get("title", "") for f in self.phone.content_query(FOLDERS_URI, where={"_id": row.get("parent_id", "")})), "")
        header = Header(
            [HeaderButton("Back", "arrow_back", self.pop)],
            FolderDropdown(folder),
            [HeaderButton("Actions", "more_vert", lambda: None)],
        )
        key = f"{self.package}:note-title:{note_id}"
        title_field = TextField(
            key,
            str(row.get("title", "")),
            hint="Add title",
            on_change=functools.partial(self._set_title, note_id),
            focused=self.phone.state.focus == key,
            height=150,
        )
        top: list[Widget] = [header]
        if todo:
            top.append(
                TodoTitle(
                    NoteItem("", todo=True, done=done, on_toggle=lambda: self._toggle(note_id), on_open=None, in_note=True), title_field
                )
            )
        else:
            top.append(title_field)
        body: list[Widget] = []
        for text, heading in rendered_lines(row.get("body", "")):
            body.append(Paragraph(text, size=46 if heading else 40, bold=heading, color=TEXT))
        fab = ActionFab("Edit", "edit", lambda: None)
        return ScreenSpec(
            title=None, app_bar=Column(top), body=body, fab=fab, background=PAGE, list_id="", list_class="android.webkit.WebView"
        )
