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
from collections.abc import Hashable, Mapping
from typing import TYPE_CHECKING, Any, ClassVar, Final

from PIL import ImageDraw

from cerebellum_gym.core.tree import Bounds, UINode
from cerebellum_gym.devices.base import Row
from cerebellum_gym.sim import providers, render
from cerebellum_gym.sim.apps.base import App, Route
from cerebellum_gym.sim.apps.broccoli import Paragraph
from cerebellum_gym.sim.apps.common import edit_field, field_key
from cerebellum_gym.sim.databases import DATA_ROOT, AppDatabase, Table, declare
from cerebellum_gym.sim.render import font, text_fit
from cerebellum_gym.sim.screen import ScreenSpec
from cerebellum_gym.sim.widgets import BODY_SIZE, PAD, Callback, IconButton, ListItem, Text, Widget

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


class NoteItem(Widget):
    """One row of the note list: a to-do's check box (ticked when done), then the title (struck
    through when done). A tap on the box toggles the to-do; elsewhere it opens the note."""

    class_name = "android.view.ViewGroup"
    default_height = 150
    BOX = 150

    def __init__(self, title: str, *, todo: bool, done: bool, on_toggle: Callback, on_open: Callback) -> None:
        super().__init__(text=title, on_tap=on_open)
        self.todo, self.done, self.on_toggle = todo, done, on_toggle

    def tap(self, phone: Phone, x: int, y: int, bounds: Bounds) -> bool:
        if self.todo and x < bounds[0] + self.BOX:
            self.on_toggle()
            return True
        return super().tap(phone, x, y, bounds)

    def render_key(self) -> Hashable:
        return (self.text, self.todo, self.done)

    def tree_key(self) -> Hashable:
        return (super().tree_key(), self.todo, self.done)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        pad = round(PAD * scale)
        size = round(BODY_SIZE * scale)
        top = (height - size) / 2
        left = pad
        if self.todo:
            d = round(56 * scale)
            box_top = (height - d) / 2
            draw.rectangle((pad, box_top, pad + d, box_top + d), outline=render.TEXT_SECONDARY, width=max(1, round(5 * scale)))
            if self.done:
                draw.line(
                    (pad + d * 0.2, box_top + d * 0.5, pad + d * 0.42, box_top + d * 0.75), fill=render.TEXT, width=max(1, round(6 * scale))
                )
                draw.line(
                    (pad + d * 0.42, box_top + d * 0.75, pad + d * 0.82, box_top + d * 0.25),
                    fill=render.TEXT,
                    width=max(1, round(6 * scale)),
                )
            left = round(self.BOX * scale)
        shown = text_fit(draw, self.text, size, width - left - pad)
        draw.text((left, top), shown, font=font(size), fill=render.TEXT_SECONDARY if self.done else render.TEXT)
        if self.done:
            length = draw.textlength(shown, font=font(size))
            draw.line((left, top + size * 0.6, left + length, top + size * 0.6), fill=render.TEXT_SECONDARY, width=max(1, round(3 * scale)))
        draw.line((0, height - 1, width, height - 1), fill=render.DIVIDER)

    def encode(self, bounds: Bounds, package: str) -> UINode:
        row = super().encode(bounds, package)
        left, top, right, bottom = bounds
        text_left = left + (self.BOX if self.todo else PAD)
        children = []
        if self.todo:
            children.append(
                UINode(
                    "android.widget.CheckBox",
                    (left, top, left + self.BOX, bottom),
                    content_desc="Complete to-do" if not self.done else "Uncomplete to-do",
                    package=package,
                    checkable=True,
                    checked=self.done,
                    clickable=True,
                    focusable=True,
                )
            )
        children.append(UINode("android.widget.TextView", (text_left, top, right - PAD, bottom), text=self.text, package=package))
        for i, child in enumerate(children):
            child.index = i
        row.children = children
        return row


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
        title = self._folder_title()
        body: list[Widget] = [self._item(row) for row in self.notes(self.data.get("folder"))]
        if not body:
            body.append(Text("There are currently no notes.", size=40, center=True, height=300))
        actions: list[Widget] = [
            IconButton("Side menu", "☰", on_tap=lambda: self.push("notebooks")),
            IconButton("Search", "⌕", on_tap=self._search),
        ]
        return ScreenSpec(title=title, body=body, actions=actions)

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
        return ScreenSpec(title="Search", up=self.pop, body=body)

    def screen_notebooks(self, route: Route) -> ScreenSpec:
        def choose(folder_id: str | None) -> None:
            self.data["folder"] = folder_id
            self.pop()

        current = self.data.get("folder")
        body: list[Widget] = [ListItem(ALL_NOTES, avatar="✓" if current is None else "", on_tap=lambda: choose(None))]
        body.append(Text("NOTEBOOKS", size=36, color=render.TEXT_SECONDARY))
        for row in self.folders():
            fid = row["_id"]
            body.append(ListItem(row.get("title", ""), avatar="✓" if fid == current else "", on_tap=lambda f=fid: choose(f)))
        return ScreenSpec(title="Joplin", up=self.pop, body=body)

    def screen_note(self, route: Route) -> ScreenSpec:
        row = self._note(route["note_id"])
        if row is None:
            return ScreenSpec(title="Note", up=self.pop, body=[Text("This note could not be found", size=44)])
        note_id = row["_id"]
        todo, done = bool(flag(row, "is_todo")), bool(flag(row, "todo_completed"))
        body: list[Widget] = []
        if todo:
            body.append(
                NoteItem(
                    row.get("title", "") or "Untitled",
                    todo=True,
                    done=done,
                    on_toggle=lambda: self._toggle(note_id),
                    on_open=self.phone.invalidate,
                )
            )
        else:
            body.append(Paragraph(row.get("title", "") or "Untitled", size=52, bold=True, rid=f"{PACKAGE}:id/title"))
        for text, heading in rendered_lines(row.get("body", "")):
            body.append(Paragraph(text, size=46 if heading else 40, bold=heading))
        folder = next((f.get("title", "") for f in self.phone.content_query(FOLDERS_URI, where={"_id": row.get("parent_id", "")})), "")
        return ScreenSpec(title=folder or ALL_NOTES, up=self.pop, body=body)
