"""The apps' SQLite databases at their real paths, with their real schemas, kept in step with the
simulated app state both ways.

A database here is not stored: its file is a real SQLite image generated from the provider
table that holds the app's state (Simple Calendar Pro's ``events`` from the calendar events,
Pro Expense's ``expense`` from the expenses, the telephony provider's ``sms`` from the SMS
provider), built when something reads it (sync ``STAT``/``LIST``/``RECV``, ``ls -l``, the
``sqlite3`` command) and cached until the rows change. Writing the file (sync ``SEND``, a
``sqlite3`` statement that changes it) parses the image back into the rows, so what the app
shows is what the database holds. The provider table stays the one source of truth.

Columns the simulated app does not use (Simple Calendar's reminders, the SMS ``thread_id``, ...)
are kept in the provider row under their database names, so a pull, an edit and a push lose
nothing. A write that is not a database holding the bound table (a corrupt push) is kept as the
file's bytes (reads then fail as a corrupt database does) and leaves the app's state as it was.

Example:
    >>> from cerebellum_gym.sim.phone import Phone
    >>> phone = Phone()
    >>> phone.content_insert("content://com.arduia.expense/expenses",
    ...     {"name": "Coffee", "amount": "450", "category": "Food", "note": "", "created_at": "0"})
    >>> image = read(phone, EXPENSE_DB.path)
    >>> import sqlite3
    >>> con = sqlite3.connect(":memory:"); con.deserialize(image)
    >>> con.execute("SELECT name, amount, category FROM expense").fetchall()
    [('Coffee', 450, 3)]
"""

from __future__ import annotations

import contextlib
import hashlib
import posixpath
import sqlite3
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from cerebellum_gym.sim.phone import Phone

#: Where installed apps keep their private data.
DATA_ROOT: Final = "/data/data"
#: Pro Expense's category ids (``Expense.category`` in the app's database).
EXPENSE_CATEGORIES: Final = (
    "Others", "Income", "Food", "Housing", "Social", "Entertainment", "Transportation", "Clothes", "Health Care",
    "Education", "Donation",
)  # fmt: skip


@dataclass(frozen=True)
class Column:
    """One column of the bound table: its name, its SQLite type and the value a new row gets."""

    name: str
    kind: str  # "INTEGER" or "TEXT"
    default: Any = None


@dataclass(frozen=True)
class AppDatabase:
    """One app database whose main table is bound to a provider table.

    Attributes:
        package: the package that owns the database (``/data/data/<package>/databases``).
        name: the file name.
        schema: the SQL that creates the database, as the app (Room, SQLiteOpenHelper) does.
        table: the bound table in the database.
        provider: the provider table (``phone.state.content``) that holds its rows.
        key: the bound table's primary key column (the provider row's ``_id``).
        columns: the bound table's other columns, in the schema's order.
        to_db: provider row -> column values that differ from a verbatim copy (``{}`` if none).
        from_db: database row -> provider values that differ from a verbatim copy.
        derived: the other tables' rows made from the provider rows (``{table: rows}``).
        launched_by_app: whether the database exists only once its app has run (after a data
            clear the app creates it on its next start).
    """

    package: str
    name: str
    schema: str
    table: str
    provider: str
    key: str
    columns: tuple[Column, ...]
    to_db: Callable[[dict[str, str]], dict[str, Any]] = lambda row: {}
    from_db: Callable[[dict[str, Any]], dict[str, str]] = lambda row: {}
    derived: Callable[[list[dict[str, str]]], dict[str, list[dict[str, Any]]]] = lambda rows: {}
    launched_by_app: bool = True
    #: Database columns that :attr:`from_db` renames (not kept under their own name).
    renamed: frozenset[str] = frozenset()

    @property
    def directory(self) -> str:
        return f"{DATA_ROOT}/{self.package}/databases"

    @property
    def path(self) -> str:
        return f"{self.directory}/{self.name}"


# --- Simple Calendar Pro: events.db ------------------------------------------------------------

_CALENDAR_COLUMNS = (
    Column("start_ts", "INTEGER", 0),
    Column("end_ts", "INTEGER", 0),
    Column("title", "TEXT", ""),
    Column("location", "TEXT", ""),
    Column("description", "TEXT", ""),
    Column("reminder_1_minutes", "INTEGER", -1),
    Column("reminder_2_minutes", "INTEGER", -1),
    Column("reminder_3_minutes", "INTEGER", -1),
    Column("reminder_1_type", "INTEGER", 0),
    Column("reminder_2_type", "INTEGER", 0),
    Column("reminder_3_type", "INTEGER", 0),
    Column("repeat_interval", "INTEGER", 0),
    Column("repeat_rule", "INTEGER", 0),
    Column("repeat_limit", "INTEGER", 0),
    Column("repetition_exceptions", "TEXT", "[]"),
    Column("attendees", "TEXT", ""),
    Column("import_id", "TEXT", ""),
    Column("time_zone", "TEXT", "UTC"),
    Column("flags", "INTEGER", 0),
    Column("event_type", "INTEGER", 1),
    Column("parent_id", "INTEGER", 0),
    Column("last_updated", "INTEGER", 0),
    Column("source", "TEXT", "simple-calendar"),
    Column("availability", "INTEGER", 0),
    Column("color", "INTEGER", 0),
    Column("type", "INTEGER", 0),
)


def _room_table(table: str, key: str, columns: tuple[Column, ...], *, nullable: frozenset[str] = frozenset()) -> str:
    """``CREATE TABLE`` as Room writes it: backquoted names, the key first, NOT NULL columns."""
    parts = [f"`{key}` INTEGER PRIMARY KEY AUTOINCREMENT"]
    parts += [f"`{c.name}` {c.kind}{'' if c.name in nullable else ' NOT NULL'}" for c in columns]
    return f"CREATE TABLE `{table}` ({', '.join(parts)})"


_ROOM_META = (
    "CREATE TABLE android_metadata (locale TEXT);\n"
    "INSERT INTO android_metadata VALUES ('en_US');\n"
    "CREATE TABLE room_master_table (id INTEGER PRIMARY KEY,identity_hash TEXT);\n"
)

CALENDAR_DB: Final = AppDatabase(
    package="com.simplemobiletools.calendar.pro",
    name="events.db",
    schema=(
        _ROOM_META
        + "INSERT INTO room_master_table VALUES (42, 'f5b1d2f3a9c04e6e9c7a7f0b3b1e2d44');\n"
        + _room_table("events", "id", _CALENDAR_COLUMNS)
        + ";\nCREATE UNIQUE INDEX `index_events_id` ON `events` (`id`);\n"
        "CREATE TABLE `event_types` (`id` INTEGER PRIMARY KEY AUTOINCREMENT, `title` TEXT NOT NULL, `color` INTEGER NOT NULL, "
        "`caldav_calendar_id` INTEGER NOT NULL, `caldav_display_name` TEXT NOT NULL, `caldav_email` TEXT NOT NULL, "
        "`type` INTEGER NOT NULL);\n"
        "CREATE UNIQUE INDEX `index_event_types_id` ON `event_types` (`id`);\n"
        "INSERT INTO event_types VALUES (1, 'Regular event', -14575885, 0, '', '', 0);\n"
        "CREATE TABLE `widgets` (`id` INTEGER PRIMARY KEY AUTOINCREMENT, `widget_id` INTEGER NOT NULL, "
        "`period` INTEGER NOT NULL);\n"
        "CREATE TABLE `tasks` (`id` INTEGER PRIMARY KEY AUTOINCREMENT, `task_id` INTEGER NOT NULL, "
        "`start_ts` INTEGER NOT NULL, `flags` INTEGER NOT NULL);\n"
    ),
    table="events",
    provider="calendar_events",
    key="id",
    columns=_CALENDAR_COLUMNS,
)


# --- Pro Expense: accounting.db ----------------------------------------------------------------

_EXPENSE_COLUMNS = (
    Column("name", "TEXT", ""),
    Column("amount", "INTEGER", 0),
    Column("category", "INTEGER", 1),
    Column("note", "TEXT", ""),
    Column("created_date", "INTEGER", 0),
    Column("modified_date", "INTEGER", 0),
)


def _expense_to_db(row: dict[str, str]) -> dict[str, Any]:
    category = row.get("category", "Others")
    created = row.get("created_at", "0")
    return {
        "category": EXPENSE_CATEGORIES.index(category) + 1 if category in EXPENSE_CATEGORIES else 1,
        "created_date": created,
        "modified_date": row.get("modified_date", created),
    }


def _expense_from_db(row: dict[str, Any]) -> dict[str, str]:
    category = row.get("category")
    index = category - 1 if isinstance(category, int) and 1 <= category <= len(EXPENSE_CATEGORIES) else 0
    # An id the app does not know shows as its first category, as the app falls back.
    return {"created_at": str(row.get("created_date") or 0), "category": EXPENSE_CATEGORIES[index]}


EXPENSE_DB: Final = AppDatabase(
    package="com.arduia.expense",
    name="accounting.db",
    schema=(
        _ROOM_META
        + "INSERT INTO room_master_table VALUES (42, '7c1c4e9fbb5d7a3b2e0a6f1d8c9b4e21');\n"
        + _room_table("expense", "expense_id", _EXPENSE_COLUMNS, nullable=frozenset({"name", "note"}))
        + ";\n"
    ),
    table="expense",
    provider="expenses",
    key="expense_id",
    columns=_EXPENSE_COLUMNS,
    to_db=_expense_to_db,
    from_db=_expense_from_db,
    renamed=frozenset({"created_date"}),
)


# --- Broccoli: broccoli ---------------------------------------------------------------------------

_RECIPE_COLUMNS = (
    Column("title", "TEXT", ""),
    Column("imageName", "TEXT", ""),
    Column("description", "TEXT", ""),
    Column("servings", "TEXT", ""),
    Column("preparationTime", "TEXT", ""),
    Column("source", "TEXT", ""),
    Column("ingredients", "TEXT", ""),
    Column("directions", "TEXT", ""),
    Column("favorite", "INTEGER", 0),
)

_FTS_INSERT = (
    "INSERT INTO `recipes_fts`(`docid`, `title`, `description`, `source`, `ingredients`) "
    "VALUES (NEW.`rowid`, NEW.`title`, NEW.`description`, NEW.`source`, NEW.`ingredients`)"
)

RECIPE_DB: Final = AppDatabase(
    package="com.flauschcode.broccoli",
    name="broccoli",
    # Room's schema of the app's database version 1 (the app AndroidWorld installs), with the
    # full-text index its search reads, kept up to date by Room's triggers.
    schema=(
        _ROOM_META + "INSERT INTO room_master_table VALUES (42, '1548e88f42d976a4b4915ca1cfa71e00');\n"
        "CREATE TABLE `recipes` (`recipeId` INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, `title` TEXT, `imageName` TEXT, "
        "`description` TEXT, `servings` TEXT, `preparationTime` TEXT, `source` TEXT, `ingredients` TEXT, `directions` TEXT, "
        "`favorite` INTEGER NOT NULL);\n"
        "CREATE TABLE `categories` (`categoryId` INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, `name` TEXT);\n"
        "CREATE TABLE `recipes_with_categories` (`recipeId` INTEGER NOT NULL, `categoryId` INTEGER NOT NULL, "
        "PRIMARY KEY(`recipeId`, `categoryId`), FOREIGN KEY(`recipeId`) REFERENCES `recipes`(`recipeId`) ON UPDATE NO ACTION "
        "ON DELETE CASCADE , FOREIGN KEY(`categoryId`) REFERENCES `categories`(`categoryId`) ON UPDATE NO ACTION ON DELETE CASCADE );\n"
        "CREATE INDEX `index_recipes_with_categories_recipeId` ON `recipes_with_categories` (`recipeId`);\n"
        "CREATE INDEX `index_recipes_with_categories_categoryId` ON `recipes_with_categories` (`categoryId`);\n"
        "CREATE VIRTUAL TABLE `recipes_fts` USING FTS4(`title` TEXT, `description` TEXT, `source` TEXT, `ingredients` TEXT, "
        "tokenize=unicode61 `tokenchars=#`, content=`recipes`);\n"
        + "".join(
            f"CREATE TRIGGER room_fts_content_sync_recipes_fts_{when}_{what} {when} {what} ON `recipes` BEGIN {body}; END;\n"
            for when, what, body in (
                ("BEFORE", "UPDATE", "DELETE FROM `recipes_fts` WHERE `docid`=OLD.`rowid`"),
                ("BEFORE", "DELETE", "DELETE FROM `recipes_fts` WHERE `docid`=OLD.`rowid`"),
                ("AFTER", "UPDATE", _FTS_INSERT),
                ("AFTER", "INSERT", _FTS_INSERT),
            )
        )
    ),
    table="recipes",
    provider="recipes",
    key="recipeId",
    columns=_RECIPE_COLUMNS,
)


# --- The telephony provider: mmssms.db -----------------------------------------------------------

_SMS_COLUMNS = (
    Column("thread_id", "INTEGER", None),
    Column("address", "TEXT", None),
    Column("person", "INTEGER", None),
    Column("date", "INTEGER", None),
    Column("date_sent", "INTEGER", 0),
    Column("protocol", "INTEGER", None),
    Column("read", "INTEGER", 0),
    Column("status", "INTEGER", -1),
    Column("type", "INTEGER", None),
    Column("reply_path_present", "INTEGER", None),
    Column("subject", "TEXT", None),
    Column("body", "TEXT", None),
    Column("service_center", "TEXT", None),
    Column("locked", "INTEGER", 0),
    Column("sub_id", "INTEGER", -1),
    Column("error_code", "INTEGER", -1),
    Column("creator", "TEXT", None),
    Column("seen", "INTEGER", 0),
)


def _digits(address: str) -> str:
    return "".join(c for c in address if c.isdigit()) or address


def _threads(rows: list[dict[str, str]]) -> dict[str, list[dict[str, Any]]]:
    """The ``threads`` and ``canonical_addresses`` tables the provider keeps for the messages."""
    ids: dict[str, int] = {}
    for row in sorted(rows, key=lambda r: (int(r.get("date", 0) or 0), int(r.get("_id", 0) or 0))):
        ids.setdefault(_digits(row.get("address", "")), len(ids) + 1)
    canonical = [{"_id": i, "address": a} for a, i in ids.items()]
    threads = []
    for address, tid in ids.items():
        mine = [r for r in rows if _digits(r.get("address", "")) == address]
        last = max(mine, key=lambda r: int(r.get("date", 0) or 0))
        threads.append(
            {
                "_id": tid,
                "date": int(last.get("date", 0) or 0),
                "message_count": len(mine),
                "recipient_ids": str(tid),
                "snippet": last.get("body", ""),
                "snippet_cs": 0,
                "read": int(all(r.get("read", "1") == "1" for r in mine)),
                "archived": 0,
                "type": 0,
                "error": 0,
                "has_attachment": 0,
            }
        )
    return {"threads": threads, "canonical_addresses": canonical, "_thread_ids": [{"address": a, "id": i} for a, i in ids.items()]}


def _sms_to_db(row: dict[str, str]) -> dict[str, Any]:
    return {"date_sent": row.get("date_sent", row.get("date", 0)), "seen": row.get("seen", row.get("read", 0))}


SMS_DB: Final = AppDatabase(
    package="com.android.providers.telephony",
    name="mmssms.db",
    schema=(
        "CREATE TABLE android_metadata (locale TEXT);\n"
        "INSERT INTO android_metadata VALUES ('en_US');\n"
        "CREATE TABLE sms (_id INTEGER PRIMARY KEY,thread_id INTEGER,address TEXT,person INTEGER,date INTEGER,"
        "date_sent INTEGER DEFAULT 0,protocol INTEGER,read INTEGER DEFAULT 0,status INTEGER DEFAULT -1,type INTEGER,"
        "reply_path_present INTEGER,subject TEXT,body TEXT,service_center TEXT,locked INTEGER DEFAULT 0,"
        "sub_id INTEGER DEFAULT -1, error_code INTEGER DEFAULT -1,creator TEXT,seen INTEGER DEFAULT 0);\n"
        "CREATE TABLE threads (_id INTEGER PRIMARY KEY AUTOINCREMENT,date INTEGER DEFAULT 0,"
        "message_count INTEGER DEFAULT 0,recipient_ids TEXT,snippet TEXT,snippet_cs INTEGER DEFAULT 0,"
        "read INTEGER DEFAULT 1,archived INTEGER DEFAULT 0,type INTEGER DEFAULT 0,error INTEGER DEFAULT 0,"
        "has_attachment INTEGER DEFAULT 0);\n"
        "CREATE TABLE canonical_addresses (_id INTEGER PRIMARY KEY AUTOINCREMENT,address TEXT);\n"
    ),
    table="sms",
    provider="sms",
    key="_id",
    columns=_SMS_COLUMNS,
    to_db=_sms_to_db,
    derived=_threads,
    launched_by_app=False,
)

#: Every bound database, by path.
DATABASES: Final[dict[str, AppDatabase]] = {db.path: db for db in (CALENDAR_DB, EXPENSE_DB, RECIPE_DB, SMS_DB)}
_BY_DIR: Final[dict[str, list[AppDatabase]]] = {}
for _db in DATABASES.values():
    _BY_DIR.setdefault(_db.directory, []).append(_db)


# --- presence ------------------------------------------------------------------------------------


def _flags(phone: Phone, db: AppDatabase) -> dict[str, Any]:
    """The database's state kept with its owner's data (so snapshots and ``pm clear`` cover it)."""
    owner = phone.state.app_data.setdefault(db.package, {})
    flags: dict[str, Any] = owner.setdefault("databases", {}).setdefault(db.name, {})
    return flags


def _installed(phone: Phone, db: AppDatabase) -> bool:
    return not db.launched_by_app or db.package in phone.apps


def present(phone: Phone, db: AppDatabase) -> bool:
    """Whether the database file exists: its app is installed and has not lost it (``pm clear``,
    ``rm``) since it last ran. A phone starts as AndroidWorld's set-up leaves it: every app has
    run once, so every database exists."""
    if not _installed(phone, db):
        return False
    owner = phone.state.app_data.get(db.package)
    if owner is None:
        return True
    return bool(owner.get("databases", {}).get(db.name, {}).get("present", True))


def app_data_cleared(phone: Phone, package: str) -> None:
    """``pm clear``: the app's databases go with its data (and their rows with them)."""
    for db in DATABASES.values():
        if db.package == package:
            phone.state.content[db.provider] = []
            _flags(phone, db).update(present=False)
            phone.state.files.pop(db.path, None)
            phone.state.mtimes.pop(db.path, None)
    folder = f"{DATA_ROOT}/{package}/"
    phone.state.dirs = {d for d in phone.state.dirs if not d.startswith(folder)}
    for path in [p for p in phone.state.files if p.startswith(folder)]:
        del phone.state.files[path]
        phone.state.mtimes.pop(path, None)


def app_launched(phone: Phone, package: str) -> None:
    """An app that starts creates its missing databases (empty), as Room does on first open."""
    for db in DATABASES.values():
        if db.package == package and db.launched_by_app and not present(phone, db):
            _flags(phone, db).update(present=True)
            phone.state.mtimes[db.path] = phone.state.clock


# --- the file system view --------------------------------------------------------------------------


def owns(path: str) -> bool:
    """Whether ``path`` is a bound database."""
    return path in DATABASES


def listing(phone: Phone, directory: str) -> list[str]:
    """The bound databases present in ``directory`` (with ``/data/data`` and each package folder)."""
    directory = directory.rstrip("/") or "/"
    names = [db.name for db in _BY_DIR.get(directory, ()) if present(phone, db) or db.path in phone.state.files]
    if directory == DATA_ROOT:
        names += sorted({db.package for db in DATABASES.values() if _installed(phone, db)} | set(phone.apps))
    elif posixpath.dirname(directory) == DATA_ROOT and any(
        db.package == posixpath.basename(directory) and (present(phone, db) or db.path in phone.state.files) for db in DATABASES.values()
    ):
        names.append("databases")
    return names


def is_dir(phone: Phone, directory: str) -> bool:
    """Whether ``directory`` exists as a folder because of the databases or installed packages."""
    directory = directory.rstrip("/")
    if directory == DATA_ROOT:
        return True
    if posixpath.dirname(directory) == DATA_ROOT:
        package = posixpath.basename(directory)
        return package in phone.apps or any(db.package == package and _installed(phone, db) for db in DATABASES.values())
    return directory in _BY_DIR and bool(listing(phone, directory))


def mtime(phone: Phone, path: str) -> float | None:
    """When the database last changed (the app's last write, or its last push)."""
    return phone.state.mtimes.get(path)


def _rows(phone: Phone, db: AppDatabase) -> list[dict[str, str]]:
    return phone.state.content.setdefault(db.provider, [])


def _signature(rows: list[dict[str, str]]) -> bytes:
    return hashlib.blake2b(repr(rows).encode("utf-8", "surrogateescape"), digest_size=16).digest()


class _Cache:
    """Images built for one phone: path -> (rows' signature, image)."""

    def __init__(self) -> None:
        self.images: dict[str, tuple[bytes, bytes]] = {}


_CACHES: weakref.WeakKeyDictionary[Any, _Cache] = weakref.WeakKeyDictionary()


def _cache(phone: Phone) -> _Cache:
    cache = _CACHES.get(phone)
    if cache is None:
        cache = _CACHES[phone] = _Cache()
    return cache


def _value(column: Column, value: Any) -> Any:
    if value is None:
        return column.default
    if column.kind == "INTEGER":
        try:
            return int(str(value))
        except ValueError:
            try:
                return int(float(str(value)))
            except (ValueError, OverflowError):  # text, NaN, infinity
                return column.default
    return str(value)


def build(db: AppDatabase, rows: list[dict[str, str]]) -> bytes:
    """The database image holding ``rows`` (provider rows), made with SQLite itself."""
    con = sqlite3.connect(":memory:")
    try:
        con.executescript(db.schema)
        derived = db.derived(rows)
        thread_ids = {r["address"]: r["id"] for r in derived.pop("_thread_ids", [])}
        names = [db.key, *(c.name for c in db.columns)]
        insert = f"INSERT INTO `{db.table}` ({', '.join(f'`{n}`' for n in names)}) VALUES ({', '.join('?' * len(names))})"
        for row in rows:
            special = db.to_db(row)
            if thread_ids and "thread_id" not in row:
                special["thread_id"] = thread_ids.get(_digits(row.get("address", "")))
            values = [_value(Column(db.key, "INTEGER"), row.get("_id"))]
            for column in db.columns:
                values.append(_value(column, special.get(column.name, row.get(column.name))))
            con.execute(insert, values)
        for table, table_rows in derived.items():
            for extra in table_rows:
                con.execute(f"INSERT INTO `{table}` ({', '.join(extra)}) VALUES ({', '.join('?' * len(extra))})", list(extra.values()))
        con.commit()
        return con.serialize()
    finally:
        con.close()


def read(phone: Phone, path: str) -> bytes | None:
    """The file at bound path ``path``: the image of its rows (cached), the bytes last written
    there if they were not a database, or ``None`` when the database does not exist."""
    db = DATABASES[path]
    written = phone.state.files.get(path)
    if written is not None:
        return written
    if not present(phone, db):
        return None
    rows = _rows(phone, db)
    signature = _signature(rows)
    cache = _cache(phone)
    hit = cache.images.get(path)
    if hit is not None and hit[0] == signature:
        return hit[1]
    image = build(db, rows)
    cache.images[path] = (signature, image)
    return image


def parse(db: AppDatabase, image: bytes) -> list[dict[str, str]] | None:
    """The provider rows held in ``image``, or ``None`` if it is not a database with the bound
    table (the caller then keeps the bytes as they are and the app's rows as they were)."""
    if not image:
        return None
    con = sqlite3.connect(":memory:")
    try:
        con.deserialize(image)
        con.row_factory = sqlite3.Row
        found = con.execute(f"SELECT * FROM `{db.table}`").fetchall()
    except (sqlite3.DatabaseError, OverflowError, ValueError):
        return None
    finally:
        con.close()
    known = {c.name: c for c in db.columns}
    rows = []
    for record in found:
        values = dict(record)
        key = _value(Column(db.key, "INTEGER"), values.pop(db.key, None))
        row: dict[str, str] = {"_id": str(key) if key else ""}
        special = db.from_db(values)
        for name, value in values.items():
            if name in db.renamed or (name == "thread_id" and db is SMS_DB):
                continue  # renamed, or derived from the address when the image is built
            column = known.get(name)
            # A value of the wrong type reads as the app would default it, never as text where
            # the app expects a number.
            kept = _value(column, value) if column is not None else value
            if kept is not None:
                row[name] = str(kept)
        row.update(special)
        rows.append(row)
    return rows


def write(phone: Phone, path: str, data: bytes) -> None:
    """A new file at bound path ``path`` (a push, a ``sqlite3`` write): its rows become the app's.

    Bytes that are not a database with the bound table are kept as the file's content (reads
    see them, as a device's would) and leave the app's rows untouched.
    """
    db = DATABASES[path]
    rows = parse(db, data)
    flags = _flags(phone, db)
    phone.state.mtimes[path] = phone.state.clock
    if rows is None:
        phone.state.files[path] = bytes(data)
        flags.update(present=True)
        phone.invalidate()
        return
    phone.state.files.pop(path, None)
    for row in rows:
        if not row["_id"]:
            row["_id"] = str(phone.new_id())  # a row without a key gets one, as AUTOINCREMENT gives
    phone.state.content[db.provider] = rows
    flags.update(present=True)
    # Ids from the pushed database must not be handed out again by the phone's counter.
    phone.state.next_id = max([phone.state.next_id, *(int(r["_id"]) for r in rows)])
    phone.invalidate()


def remove(phone: Phone, path: str) -> None:
    """``rm`` of a bound database: the file goes, and the app's rows with it (the app makes a
    new, empty database on its next start)."""
    db = DATABASES[path]
    phone.state.files.pop(path, None)
    phone.state.content[db.provider] = []
    _flags(phone, db).update(present=False)
    phone.state.dirs.add(db.directory)  # `rm -r databases/*` keeps the folder
    phone.invalidate()


# --- the sqlite3 command line ------------------------------------------------------------------------


@dataclass
class SqlResult:
    """What ``sqlite3 DB SQL`` printed, its status, and the database afterwards (``None`` if unchanged)."""

    stdout: str
    stderr: str
    code: int
    image: bytes | None


def statements(sql: str) -> list[str]:
    """``sql`` split into complete statements and dot-commands (a line starting with ``.``
    outside a statement), as the sqlite3 shell reads its input; a trailing incomplete statement
    is kept, so that it fails as the shell's does."""
    out: list[str] = []
    buffer = ""
    for line in sql.splitlines(keepends=True):
        if not buffer.strip() and line.lstrip().startswith("."):
            out.append(line.strip())
            buffer = ""
            continue
        buffer += line
        start = 0
        for i, char in enumerate(buffer):
            if char == ";" and sqlite3.complete_statement(buffer[start : i + 1]):
                out.append(buffer[start : i + 1])
                start = i + 1
        buffer = buffer[start:]
    if buffer.strip():
        out.append(buffer)
    return [s for s in out if s.strip().rstrip(";").strip()]


def _dot(con: sqlite3.Connection, command: str) -> tuple[str, str]:
    """The sqlite3 shell's ``.tables`` and ``.schema [TABLE]``: (output, error)."""
    words = command.split()
    if words[0] == ".tables":
        names = [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type IN ('table', 'view') ORDER BY name")]
        return "".join(f"{n}\n" for n in names if not n.startswith("sqlite_")), ""
    if words[0] == ".schema":
        query = "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL"
        args: tuple[str, ...] = ()
        if len(words) > 1:
            query += " AND tbl_name LIKE ?"
            args = (words[1],)
        return "".join(f"{r[0]};\n" for r in con.execute(query + " ORDER BY rowid", args)), ""
    return "", f'Error: unknown command or invalid arguments:  "{words[0][1:]}". Enter ".help" for help\n'


def _show(value: Any) -> str:
    """A value as the sqlite3 shell's list mode prints it."""
    if value is None:
        return ""
    if isinstance(value, float):
        text = f"{value:.15g}"
        return text if any(c in text for c in ".eEn") else text + ".0"
    if isinstance(value, bytes):
        return value.decode("utf-8", "surrogateescape")
    return str(value)


def run_sql(image: bytes | None, sql: str, *, header: bool = False, separator: str = "|", bail: bool = True) -> SqlResult:
    """Run ``sql`` on a database image as the ``sqlite3`` shell does (list mode), statement by
    statement; the first error stops it (``Error: ...``, status 1), earlier changes stay."""
    con = sqlite3.connect(":memory:", isolation_level=None)
    out: list[str] = []
    err: list[str] = []
    code = 0
    after = image or b""
    try:
        if image:
            try:
                con.deserialize(image)
            except (sqlite3.Error, OverflowError, ValueError) as exc:
                return SqlResult("", f"Error: {exc}\n", 1, None)
        for statement in statements(sql):
            if statement.startswith("."):
                try:
                    shown, problem = _dot(con, statement)
                except sqlite3.Error as exc:
                    shown, problem = "", f"Error: {exc}\n"
                out.append(shown)
                if problem:
                    err.append(problem)
                    code = 1
                    if bail:
                        break
                continue
            try:
                cursor = con.execute(statement)
                rows = cursor.fetchall()
            except (sqlite3.Error, OverflowError, ValueError) as exc:
                err.append(f"Error: {exc}\n")
                code = 1
                if bail:
                    break
                continue
            if header and cursor.description and rows:
                out.append(separator.join(d[0] for d in cursor.description) + "\n")
            out.extend(separator.join(_show(v) for v in row) + "\n" for row in rows)
        if con.in_transaction:
            with contextlib.suppress(sqlite3.Error):
                con.execute("ROLLBACK")  # the shell exits: what was not committed is lost
        with contextlib.suppress(sqlite3.Error):
            after = con.serialize()
    finally:
        con.close()
    changed = after != (image or b"")
    return SqlResult("".join(out), "".join(err), code, after if changed else None)
