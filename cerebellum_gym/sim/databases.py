"""The apps' SQLite databases at their real paths, with their real schemas, kept in step with the
simulated app state both ways.

A database here is not stored: its file is a real SQLite image generated from the provider
tables (``phone.state.content``) that hold the app's state, built when something reads it (sync
``STAT``/``LIST``/``RECV``, ``ls -l``, the ``sqlite3`` command) and cached until the rows change.
Writing the file (sync ``SEND``, a ``sqlite3`` statement that changes it) parses the image back
into the rows, so what the app shows is what the database holds. The provider tables stay the
one source of truth.

A database may hold several tables. Each *bound* table is one provider table: a provider row is
a dict of strings keyed by the table's column names, with the primary key as ``_id`` (so
``phone.content_insert`` gives new rows their keys). Values as strings: INTEGER and REAL columns
as numbers (``"450"``, ``"1234.5"``), TEXT as is, BLOB as lowercase hex; a column missing from a
row is NULL where the schema allows it and otherwise its default (the declaration's
``defaults``, the schema's ``DEFAULT``, else ``0``, ``0.0``, ``""`` or an empty blob). A NULL read
back from the database leaves the column out of the row. Tables that are not bound
(``event_types``, Tasks.org's ``tags``) keep what was last written to them, as does any change
to the schema a pushed database brings (an extra column's values stay in the provider rows under
their names), so a pull, an edit and a push lose nothing.

A write that is not a database holding every bound table (a corrupt push, a stray file) is kept
as the file's bytes (reads then fail as a corrupt database does) and leaves the app's state as
it was. Wrong-typed values read as the app would default them (text in an INTEGER column is the
column's default, never text where the app expects a number).

Every declared database exists from the first boot, with its schema, once its app is installed
(a phone starts as AndroidWorld's set-up leaves it: every app has run once), so AndroidWorld
never takes its "table missing: launch the app and wait" path; ``pm clear`` and ``rm`` remove
it until the app starts again.

Declared beside the apps that own them (the telephony provider's in :mod:`~cerebellum_gym.sim.telephony`),
with the provider tables their apps read and write, among others:

=================================  ===============================================  =====================
app                                database                                         table -> provider
=================================  ===============================================  =====================
Simple Calendar Pro                ``com.simplemobiletools.calendar.pro/databases/  ``events`` ->
                                   events.db``                                      ``calendar_events``
Pro Expense                        ``com.arduia.expense/databases/accounting.db``   ``expense`` ->
                                                                                    ``expenses``
telephony provider (SMS)           ``com.android.providers.telephony/databases/     ``sms`` -> ``sms``
                                   mmssms.db``
Broccoli                           ``com.flauschcode.broccoli/databases/broccoli``  ``recipes`` ->
                                                                                    ``broccoli_recipes``
Tasks.org                          ``org.tasks/databases/database``                 ``tasks`` ->
                                                                                    ``tasksorg_tasks``
OpenTracks                         ``de.dennisguse.opentracks/databases/            ``tracks`` ->
                                   database.db``                                    ``opentracks_tracks``
=================================  ===============================================  =====================

(paths under ``/data/data``). To give a new app its database, declare it once, at import time
of the module that defines the app, with the SQL the real app creates it with; the
columns, their types, nullability and defaults are read from that SQL by SQLite itself:

Example:
    >>> NOTES_DB = declare(AppDatabase(
    ...     path="/data/data/org.example.notes/app_db/notes.db",
    ...     schema="CREATE TABLE `notes` (`id` INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, "
    ...            "`title` TEXT NOT NULL, `score` REAL, `order` INTEGER, `thumb` BLOB);",
    ...     tables=(Table("notes", provider="example_notes", defaults={"score": 0.0}),),
    ... ))
    >>> [(c.name, c.kind, c.nullable, c.default) for c in NOTES_DB.columns("notes")]
    [('title', 'TEXT', False, ''), ('score', 'REAL', True, 0.0), ('order', 'INTEGER', True, None), ('thumb', 'BLOB', True, None)]
    >>> image = build(NOTES_DB, {"example_notes": [{"_id": "7", "title": "Hi", "thumb": "00ff"}]})
    >>> import sqlite3
    >>> con = sqlite3.connect(":memory:"); con.deserialize(image)
    >>> con.execute("SELECT * FROM notes").fetchall()
    [(7, 'Hi', 0.0, None, b'\\x00\\xff')]
    >>> parse(NOTES_DB, image)
    {'example_notes': [{'_id': '7', 'title': 'Hi', 'score': '0.0', 'thumb': '00ff'}]}
    >>> undeclare(NOTES_DB)

The app then keeps its rows in ``phone.state.content["example_notes"]`` (or through a provider
URI in :mod:`~cerebellum_gym.sim.providers`); ``sqlite3``, ``adb pull`` and ``adb push`` see
them as the database.
"""

from __future__ import annotations

import contextlib
import copy
import hashlib
import math
import posixpath
import sqlite3
import weakref
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final, Protocol

from cerebellum_gym.devices.base import Row


# What the databases need of the phone, as protocols: the phone and its apps call this module, and
# it needs no import of them back (``sim.phone.Phone`` and ``sim.phone.PhoneState`` fit these).
class _InstalledApp(Protocol):
    def initial_data(self) -> dict[str, Any]: ...


class _PhoneState(Protocol):
    content: dict[str, list[Row]]
    files: dict[str, bytes]
    mtimes: dict[str, float]
    dirs: set[str]
    app_data: dict[str, dict[str, Any]]
    clock: float
    next_id: int


class HostPhone(Protocol):
    """The phone whose files hold the databases (:class:`cerebellum_gym.sim.phone.Phone`)."""

    @property
    def apps(self) -> Mapping[str, _InstalledApp]: ...

    @property
    def state(self) -> _PhoneState: ...

    @property
    def pristine(self) -> _PhoneState: ...

    def invalidate(self) -> None: ...

    def new_id(self) -> int: ...


#: Where installed apps keep their private data.
DATA_ROOT: Final = "/data/data"
#: Where AndroidWorld keeps its snapshot of each app's data (``device_constants.SNAPSHOT_DATA``).
SNAPSHOT_ROOT: Final = f"{DATA_ROOT}/android_world/snapshots"
#: The owner of :data:`SNAPSHOT_ROOT`'s folder (``phone.state.app_data`` keeps the saved snapshots there).
SNAPSHOT_OWNER: Final = "android_world"
_ZERO: Final[dict[str, Any]] = {"INTEGER": 0, "REAL": 0.0, "TEXT": "", "BLOB": b""}


@dataclass(frozen=True)
class Column:
    """One column of a bound table, as its schema declares it.

    Attributes:
        name: the column's name.
        kind: its type affinity: ``INTEGER``, ``REAL``, ``TEXT`` or ``BLOB``.
        default: the value a new row gets when its provider row lacks the column.
        nullable: whether the schema allows NULL (then a missing value may stay NULL).
    """

    name: str
    kind: str
    default: Any = None
    nullable: bool = True


@dataclass(frozen=True, eq=False)
class Table:
    """A table of an app database bound to a provider table.

    Attributes:
        name: the table's name in the database.
        provider: the provider table (``phone.state.content``) that holds its rows.
        defaults: what a new row gets for columns its provider row lacks, where that is not the
            schema's own default (Room writes no ``DEFAULT``, yet the app fills its columns).
        to_db: provider rows -> per row, the column values that differ from a verbatim copy
            (``None``: every row verbatim).
        from_db: a database row -> provider values that differ from a verbatim copy.
        not_kept: database columns that are not copied into the provider row (:attr:`from_db`
            renames them, or :attr:`to_db` derives them).
    """

    name: str
    provider: str
    defaults: Mapping[str, Any] = field(default_factory=dict)
    to_db: Callable[[list[Row]], list[dict[str, Any]]] | None = None
    from_db: Callable[[dict[str, Any]], dict[str, str]] | None = None
    not_kept: frozenset[str] = frozenset()


@dataclass(frozen=True)
class _Layout:
    """A bound table as SQLite reads its schema: the key column and the others, in order."""

    table: Table
    key: Column
    columns: tuple[Column, ...]


def _affinity(declared: str) -> str:
    """SQLite's type affinity of a declared column type (section 3.1 of its datatype page)."""
    kind = declared.upper()
    if "INT" in kind:
        return "INTEGER"
    if any(word in kind for word in ("CHAR", "CLOB", "TEXT")):
        return "TEXT"
    if "BLOB" in kind or not kind:
        return "BLOB"
    return "REAL"  # REAL, FLOAT, DOUBLE and NUMERIC: numbers either way


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


@dataclass(frozen=True, eq=False)
class AppDatabase:
    """One app database: its file, the SQL that creates it and the tables bound to providers.

    Attributes:
        path: the file, under ``/data/data/<package>/`` (``databases/``, ``app_db/``, ...).
        schema: the SQL that creates the database, as the app (Room, SQLiteOpenHelper) does.
        tables: the bound tables.
        derived: provider tables -> rows of other tables made from them (``{table: rows}``;
            SMS threads), rewritten whenever the image is built.
        launched_by_app: whether the database exists only while its app is installed and
            has not lost its data (after ``pm clear`` the app makes it on its next start);
            ``False`` for a system provider's.

    Raises:
        ValueError: the path is not an app's private file, the schema does not run, or a bound
            table is missing from it or has no single primary key.
    """

    path: str
    schema: str
    tables: tuple[Table, ...]
    derived: Callable[[Mapping[str, list[Row]]], dict[str, list[dict[str, Any]]]] | None = None
    launched_by_app: bool = True
    _layouts: tuple[_Layout, ...] = field(init=False, repr=False)
    _derived_tables: tuple[str, ...] = field(init=False, repr=False)
    _empty_dump: str = field(init=False, repr=False)

    def __post_init__(self) -> None:
        parts = self.path.split("/")
        if not self.path.startswith(DATA_ROOT + "/") or len(parts) < 6 or "" in parts[1:] or ".." in parts:
            raise ValueError(f"{self.path}: an app database lives at {DATA_ROOT}/<package>/<folder>/<file>")
        if not self.tables:
            raise ValueError(f"{self.path}: no bound table")
        con = sqlite3.connect(":memory:")
        try:
            try:
                con.executescript(self.schema)
            except sqlite3.Error as exc:
                raise ValueError(f"{self.path}: the schema does not run: {exc}") from None
            layouts = tuple(_layout(con, self.path, table) for table in self.tables)
            derived = tuple(self.derived({t.provider: [] for t in self.tables})) if self.derived else ()
            object.__setattr__(self, "_layouts", layouts)
            object.__setattr__(self, "_derived_tables", derived)
            object.__setattr__(self, "_empty_dump", _dump(con, (*(t.name for t in self.tables), *derived)))
        finally:
            con.close()

    @property
    def package(self) -> str:
        """The package that owns the database."""
        return self.path.split("/")[3]

    @property
    def directory(self) -> str:
        return posixpath.dirname(self.path)

    @property
    def name(self) -> str:
        """The file's name."""
        return posixpath.basename(self.path)

    @property
    def providers(self) -> tuple[str, ...]:
        """The provider tables bound to the database's tables."""
        return tuple(t.provider for t in self.tables)

    def columns(self, table: str) -> tuple[Column, ...]:
        """The columns of bound table ``table`` other than its key, in the schema's order."""
        return self._layout(table).columns

    def key(self, table: str) -> str:
        """The primary key column of bound table ``table`` (the provider row's ``_id``)."""
        return self._layout(table).key.name

    def _layout(self, table: str) -> _Layout:
        for layout in self._layouts:
            if layout.table.name == table:
                return layout
        raise KeyError(f"{self.path} binds no table {table!r}")


def _layout(con: sqlite3.Connection, path: str, table: Table) -> _Layout:
    info = con.execute(f"PRAGMA table_info({_quote(table.name)})").fetchall()
    if not info:
        raise ValueError(f"{path}: the schema makes no table {table.name!r}")
    keys = [row for row in info if row[5]]
    if len(keys) != 1:
        raise ValueError(f"{path}: table {table.name!r} needs exactly one primary key column")
    unknown = set(table.defaults) - {row[1] for row in info}
    if unknown:
        raise ValueError(f"{path}: defaults for columns {table.name!r} lacks: {sorted(unknown)}")
    columns = []
    for _, name, declared, notnull, default_sql, pk in info:
        kind = _affinity(declared)
        if name in table.defaults:
            default = table.defaults[name]
        elif default_sql is not None:
            default = con.execute(f"SELECT {default_sql}").fetchone()[0]
        else:
            default = None if not notnull else _ZERO[kind]
        column = Column(name, kind, default, not notnull)
        if pk:
            key = column
        else:
            columns.append(column)
    return _Layout(table, key, tuple(columns))


def _dump(con: sqlite3.Connection, emptied: tuple[str, ...]) -> str:
    """The database as SQL without the rows of ``emptied`` (bound and derived tables) and
    without the AUTOINCREMENT counters (the phone hands out ids): what a build starts from."""
    copy = sqlite3.connect(":memory:")
    try:
        con.backup(copy)
        for name in emptied:
            copy.execute(f"DELETE FROM {_quote(name)}")
        with contextlib.suppress(sqlite3.Error):
            copy.execute("DELETE FROM sqlite_sequence")
        copy.commit()
        return "\n".join(copy.iterdump())
    finally:
        copy.close()


#: Every declared database, by path.
DATABASES: Final[dict[str, AppDatabase]] = {}


def declare(db: AppDatabase) -> AppDatabase:
    """Make ``db`` part of every phone's file system (see the module's example).

    Returns:
        ``db``, for ``NAME_DB = declare(AppDatabase(...))``.

    Raises:
        ValueError: its path, or one of its provider tables, is another database's.
    """
    if db.path in DATABASES:
        raise ValueError(f"{db.path} is declared already")
    taken = {p for other in DATABASES.values() for p in other.providers}
    clash = taken.intersection(db.providers)
    if clash:
        raise ValueError(f"{db.path}: provider tables {sorted(clash)} are bound to another database")
    DATABASES[db.path] = db
    return db


def undeclare(db: AppDatabase) -> None:
    """Take back :func:`declare` (tests that declare a database of their own)."""
    if DATABASES.get(db.path) is db:
        del DATABASES[db.path]


def each_row(convert: Callable[[Row], dict[str, Any]]) -> Callable[[list[Row]], list[dict[str, Any]]]:
    """A :attr:`Table.to_db` that converts every row on its own."""
    return lambda rows: [convert(row) for row in rows]


# --- Room ----------------------------------------------------------------------------------------

_ROOM_META = (
    "CREATE TABLE android_metadata (locale TEXT);\n"
    "INSERT INTO android_metadata VALUES ('en_US');\n"
    "CREATE TABLE room_master_table (id INTEGER PRIMARY KEY,identity_hash TEXT);\n"
)


def room_schema(identity: str, *tables: str) -> str:
    """A Room database's SQL: its metadata tables, then ``tables`` (statements, in order)."""
    return _ROOM_META + f"INSERT INTO room_master_table VALUES (42, '{identity}');\n" + "".join(t + ";\n" for t in tables)


# --- presence ------------------------------------------------------------------------------------


def _flags(phone: HostPhone, db: AppDatabase) -> dict[str, Any]:
    """The database's state kept with its owner's data (so snapshots and ``pm clear`` cover it)."""
    store = phone.state.app_data
    owner = store.get(db.package)
    if owner is None:
        # The app's own data starts as the app would start it, not as an empty dict.
        app = phone.apps.get(db.package)
        owner = store[db.package] = app.initial_data() if app is not None else {}
    flags: dict[str, Any] = owner.setdefault("databases", {}).setdefault(db.name, {})
    return flags


def _installed(phone: HostPhone, db: AppDatabase) -> bool:
    return not db.launched_by_app or db.package in phone.apps


def present(phone: HostPhone, db: AppDatabase) -> bool:
    """Whether the database file exists: its app is installed and has not lost it (``pm clear``,
    ``rm``) since it last ran. A phone starts as AndroidWorld's set-up leaves it: every app has
    run once, so every database exists."""
    if not _installed(phone, db):
        return False
    owner = phone.state.app_data.get(db.package)
    if owner is None:
        return True
    return bool(owner.get("databases", {}).get(db.name, {}).get("present", True))


def _exists(phone: HostPhone, db: AppDatabase) -> bool:
    """Whether there is a file at the database's path (a database, or bytes written there)."""
    return db.path in phone.state.files or present(phone, db)


def _forget(phone: HostPhone, db: AppDatabase) -> None:
    """The database and the app's rows in it go (``rm``, ``pm clear``)."""
    for provider in db.providers:
        phone.state.content[provider] = []
    flags = _flags(phone, db)
    flags.pop("base", None)
    flags.update(present=False)
    phone.state.files.pop(db.path, None)


def app_data_cleared(phone: HostPhone, package: str) -> None:
    """``pm clear``: the app's databases go with its data (and their rows with them)."""
    for db in DATABASES.values():
        if db.package == package:
            _forget(phone, db)
            phone.state.mtimes.pop(db.path, None)
    folder = f"{DATA_ROOT}/{package}/"
    phone.state.dirs = {d for d in phone.state.dirs if not d.startswith(folder)}
    for path in [p for p in phone.state.files if p.startswith(folder)]:
        del phone.state.files[path]
        phone.state.mtimes.pop(path, None)


def app_launched(phone: HostPhone, package: str) -> None:
    """An app that starts creates its missing databases (empty), as Room does on first open."""
    for db in DATABASES.values():
        if db.package == package and db.launched_by_app and not present(phone, db):
            _flags(phone, db).update(present=True)
            phone.state.mtimes[db.path] = phone.state.clock


# --- the file system view --------------------------------------------------------------------------


def owns(path: str) -> bool:
    """Whether ``path`` is a declared database."""
    return path in DATABASES


def listing(phone: HostPhone, directory: str) -> list[str]:
    """What the databases put in ``directory``: the files present there, the folders on the way
    to them, under ``/data/data`` the installed packages (and AndroidWorld's folder), and under
    :data:`SNAPSHOT_ROOT` the apps it has a snapshot of."""
    directory = directory.rstrip("/") or "/"
    prefix = directory + "/"
    names: set[str] = set()
    if directory == posixpath.dirname(SNAPSHOT_ROOT):
        return [posixpath.basename(SNAPSHOT_ROOT)]
    if directory == SNAPSHOT_ROOT:
        return sorted(phone.apps)
    for db in DATABASES.values():
        if directory == DATA_ROOT and _installed(phone, db):
            names.add(db.package)
        if db.path.startswith(prefix) and _exists(phone, db):
            names.add(db.path[len(prefix) :].split("/", 1)[0])
    if directory == DATA_ROOT:
        names.update(phone.apps)
        names.add(SNAPSHOT_OWNER)
    return sorted(names)


def is_dir(phone: HostPhone, directory: str) -> bool:
    """Whether ``directory`` exists as a folder because of the databases or installed packages."""
    directory = directory.rstrip("/")
    if directory == DATA_ROOT or directory in (posixpath.dirname(SNAPSHOT_ROOT), SNAPSHOT_ROOT):
        return True
    if posixpath.dirname(directory) == SNAPSHOT_ROOT:
        return posixpath.basename(directory) in phone.apps
    if posixpath.dirname(directory) == DATA_ROOT:
        package = posixpath.basename(directory)
        return package in phone.apps or any(db.package == package and _installed(phone, db) for db in DATABASES.values())
    prefix = directory + "/"
    return any(db.path.startswith(prefix) and _exists(phone, db) for db in DATABASES.values())


def mtime(phone: HostPhone, path: str) -> float | None:
    """When the database last changed (the app's last write, or its last push)."""
    return phone.state.mtimes.get(path)


# --- AndroidWorld's app snapshots ---------------------------------------------------------------


def _app_state(state: _PhoneState, package: str) -> dict[str, Any]:
    """Everything of ``package``'s data in ``state`` (a copy): its private data, its databases'
    rows and the files and folders under its data folder."""
    folder = f"{DATA_ROOT}/{package}/"
    providers = [provider for db in DATABASES.values() if db.package == package for provider in db.providers]
    return copy.deepcopy(
        {
            "app_data": state.app_data.get(package),
            "content": {provider: state.content[provider] for provider in providers if provider in state.content},
            "files": {path: data for path, data in state.files.items() if path.startswith(folder)},
            "mtimes": {path: when for path, when in state.mtimes.items() if path.startswith(folder)},
            "dirs": {d for d in state.dirs if d.startswith(folder)},
        }
    )


def app_snapshot_path(path: str) -> str | None:
    """The package whose AndroidWorld snapshot folder ``path`` is, or ``None``."""
    path = path.rstrip("/")
    return posixpath.basename(path) if posixpath.dirname(path) == SNAPSHOT_ROOT else None


def app_data_path(path: str) -> str | None:
    """The package whose data folder ``path`` is (``/data/data/<package>``), or ``None``."""
    path = path.rstrip("/")
    package = posixpath.basename(path)
    return package if posixpath.dirname(path) == DATA_ROOT and package != SNAPSHOT_OWNER else None


def save_app_snapshot(phone: HostPhone, package: str) -> None:
    """``cp -a /data/data/<package>/. SNAPSHOT_ROOT/<package>/``: AndroidWorld's
    ``save_snapshot``, the app's data as it is now."""
    snapshots = phone.state.app_data.setdefault(SNAPSHOT_OWNER, {}).setdefault("snapshots", {})
    snapshots[package] = _app_state(phone.state, package)


def restore_app_snapshot(phone: HostPhone, package: str) -> None:
    """``cp -a SNAPSHOT_ROOT/<package>/. /data/data/<package>/``: AndroidWorld's
    ``restore_snapshot`` (every task's set-up and tear-down runs it for the task's apps): the
    app's data as last saved, else as the phone started, which is as AndroidWorld's set-up
    leaves it (its emulator set-up saves the snapshot then). Screens and drafts went with the
    ``am force-stop`` before."""
    saved = phone.state.app_data.get(SNAPSHOT_OWNER, {}).get("snapshots", {}).get(package)
    kept = copy.deepcopy(saved) if saved is not None else _app_state(phone.pristine, package)
    state = phone.state
    folder = f"{DATA_ROOT}/{package}/"
    if kept["app_data"] is None:
        state.app_data.pop(package, None)
    else:
        state.app_data[package] = kept["app_data"]
    for db in DATABASES.values():
        if db.package == package:
            for provider in db.providers:
                state.content.pop(provider, None)  # a table the phone fills when first read starts so again
    state.content.update(kept["content"])
    for path in [p for p in state.files if p.startswith(folder)]:
        del state.files[path]
    for path in [p for p in state.mtimes if p.startswith(folder)]:
        del state.mtimes[path]
    state.files.update(kept["files"])
    state.mtimes.update(kept["mtimes"])
    state.dirs = {d for d in state.dirs if not d.startswith(folder)} | kept["dirs"]
    phone.invalidate()


# --- images ------------------------------------------------------------------------------------------


def _content(phone: HostPhone, db: AppDatabase) -> dict[str, list[Row]]:
    return {provider: phone.state.content.setdefault(provider, []) for provider in db.providers}


def _signature(content: Mapping[str, list[Row]], base: str | None) -> bytes:
    return hashlib.blake2b(repr((content, base)).encode("utf-8", "surrogateescape"), digest_size=16).digest()


class _Cache:
    """Images built for one phone: path -> (rows' signature, image)."""

    def __init__(self) -> None:
        self.images: dict[str, tuple[bytes, bytes]] = {}


_CACHES: weakref.WeakKeyDictionary[Any, _Cache] = weakref.WeakKeyDictionary()


def _cache(phone: HostPhone) -> _Cache:
    cache = _CACHES.get(phone)
    if cache is None:
        cache = _CACHES[phone] = _Cache()
    return cache


def _number(kind: str, value: Any) -> int | float | None:
    """``value`` as an INTEGER or REAL column holds it, or ``None`` if it is no finite number."""
    text = value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)
    number: int | float
    try:
        number = float(text) if kind == "REAL" else int(text)
    except ValueError:
        try:
            number = float(text)
        except ValueError:
            return None
        if kind == "INTEGER":
            if not math.isfinite(number):
                return None
            number = int(number)
    if isinstance(number, float) and math.isnan(number):
        return None
    return number


def _from_provider(column: Column, value: str | None) -> Any:
    """A provider row's string as the column stores it (its default when missing or unusable)."""
    if value is None:
        return column.default
    if column.kind in ("INTEGER", "REAL"):
        number = _number(column.kind, value)
        return column.default if number is None else number
    if column.kind == "BLOB":
        try:
            return bytes.fromhex(value)
        except ValueError:
            return value.encode("utf-8", "surrogateescape")
    return value


def _from_db(column: Column, value: Any) -> Any:
    """A value read from the database as the app reads the column: a wrong type becomes the
    column's default (text in a number column), never text where the app expects a number."""
    if value is None:
        return None
    if column.kind in ("INTEGER", "REAL"):
        number = _number(column.kind, value)
        return column.default if number is None else number
    if column.kind == "BLOB":
        return value if isinstance(value, bytes) else str(value).encode()
    return value.decode("utf-8", "surrogateescape") if isinstance(value, bytes) else str(value)


def _text(value: Any) -> str:
    """A database value as the provider row keeps it."""
    if isinstance(value, bytes):
        return value.hex()
    return repr(value) if isinstance(value, float) else str(value)


def build(db: AppDatabase, content: Mapping[str, list[Row]], base: str | None = None) -> bytes:
    """The database image holding ``content`` (provider table -> rows), made with SQLite itself.

    Args:
        db: the database.
        content: the rows of its bound provider tables (a table left out is empty).
        base: the database as last written, without the bound tables' rows (:func:`parse`
            keeps it where it differs from the declared schema); ``None``: the schema.
    """
    con = sqlite3.connect(":memory:")
    try:
        con.executescript(base if base is not None else db.schema)
        if base is not None and "writable_schema" in base:
            # A dump writes a virtual table (Broccoli's full-text index) into sqlite_master,
            # which SQLite reads only with a fresh schema: reload it.
            con.deserialize(con.serialize())
        for layout in db._layouts:
            name = _quote(layout.table.name)
            con.execute(f"DELETE FROM {name}")
            actual = [row[1] for row in con.execute(f"PRAGMA table_info({name})")]
            declared = {c.name: c for c in (layout.key, *layout.columns)}
            rows = list(content.get(layout.table.provider, ()))
            overrides = layout.table.to_db(rows) if layout.table.to_db else [{}] * len(rows)
            insert = f"INSERT INTO {name} ({', '.join(map(_quote, actual))}) VALUES ({', '.join('?' * len(actual))})"
            for row, special in zip(rows, overrides, strict=True):
                values = []
                for column_name in actual:
                    key = column_name == layout.key.name
                    raw = (row.get("_id") or None) if key else special.get(column_name, row.get(column_name))
                    column = declared.get(column_name)
                    # A column a pushed database added keeps its values as they were read.
                    values.append(raw if column is None else _from_provider(column, None if raw is None else str(raw)))
                con.execute(insert, values)
        for table, extra_rows in (db.derived(content) if db.derived else {}).items():
            con.execute(f"DELETE FROM {_quote(table)}")
            for extra in extra_rows:
                columns = ", ".join(map(_quote, extra))
                con.execute(f"INSERT INTO {_quote(table)} ({columns}) VALUES ({', '.join('?' * len(extra))})", list(extra.values()))
        con.commit()
        return con.serialize()
    finally:
        con.close()


def read(phone: HostPhone, path: str) -> bytes | None:
    """The file at declared path ``path``: the image of its rows (cached), the bytes last
    written there if they were not a database, or ``None`` when the database does not exist."""
    db = DATABASES[path]
    written = phone.state.files.get(path)
    if written is not None:
        return written
    if not present(phone, db):
        return None
    content = _content(phone, db)
    base = phone.state.app_data.get(db.package, {}).get("databases", {}).get(db.name, {}).get("base")
    signature = _signature(content, base)
    cache = _cache(phone)
    hit = cache.images.get(path)
    if hit is not None and hit[0] == signature:
        return hit[1]
    image = build(db, content, base)
    cache.images[path] = (signature, image)
    return image


def _parse(db: AppDatabase, image: bytes) -> tuple[dict[str, list[Row]], str | None] | None:
    if not image:
        return None
    con = sqlite3.connect(":memory:")
    try:
        con.deserialize(image)
        con.row_factory = sqlite3.Row
        found = {layout.table.name: con.execute(f"SELECT * FROM {_quote(layout.table.name)}").fetchall() for layout in db._layouts}
        dump = _dump(con, (*(t.name for t in db.tables), *db._derived_tables))
    except (sqlite3.Error, OverflowError, ValueError):
        return None
    finally:
        con.close()
    content: dict[str, list[Row]] = {}
    for layout in db._layouts:
        table = layout.table
        known = {c.name: c for c in layout.columns}
        rows = content[table.provider] = []
        for record in found[table.name]:
            values = dict(record)
            key = _from_db(layout.key, values.pop(layout.key.name, None))
            row: Row = {"_id": "" if key is None else _text(key)}
            special = table.from_db(values) if table.from_db else {}
            for name, value in values.items():
                if name in table.not_kept:
                    continue
                column = known.get(name)
                kept = _from_db(column, value) if column is not None else value
                if kept is not None:
                    row[name] = _text(kept)
            row.update(special)
            rows.append(row)
    return content, (None if dump == db._empty_dump else dump)


def parse(db: AppDatabase, image: bytes) -> dict[str, list[Row]] | None:
    """The provider rows held in ``image`` (provider table -> rows), or ``None`` if it is not a
    database holding every bound table (the caller then keeps the bytes as they are and the
    app's rows as they were)."""
    parsed = _parse(db, image)
    return None if parsed is None else parsed[0]


def write(phone: HostPhone, path: str, data: bytes) -> None:
    """A new file at declared path ``path`` (a push, a ``sqlite3`` write): its rows become the app's.

    Bytes that are not a database with every bound table are kept as the file's content (reads
    see them, as a device's would) and leave the app's rows untouched.
    """
    db = DATABASES[path]
    parsed = _parse(db, data)
    flags = _flags(phone, db)
    phone.state.mtimes[path] = phone.state.clock
    flags.update(present=True)
    if parsed is None:
        phone.state.files[path] = bytes(data)
        phone.invalidate()
        return
    content, base = parsed
    phone.state.files.pop(path, None)
    if base is None:
        flags.pop("base", None)
    else:
        flags["base"] = base
    ids = [phone.state.next_id]
    for provider, rows in content.items():
        for row in rows:
            if not row["_id"]:
                row["_id"] = str(phone.new_id())  # a row without a key gets one, as AUTOINCREMENT gives
            with contextlib.suppress(ValueError):
                ids.append(int(row["_id"]))
        phone.state.content[provider] = rows
    # Ids from the pushed database must not be handed out again by the phone's counter.
    phone.state.next_id = max(ids)
    phone.invalidate()


def remove(phone: HostPhone, path: str) -> None:
    """``rm`` of a declared database: the file goes, and the app's rows with it (the app makes
    a new, empty database on its next start)."""
    db = DATABASES[path]
    _forget(phone, db)
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


# --- names declared here before the apps declared their own -----------------------------------------

#: Where each name this module used to hold lives now (a module beside its app).
_MOVED: Final = {
    **dict.fromkeys(("CALENDAR_DB", "CALENDAR_EVENTS"), "cerebellum_gym.sim.apps.calendar"),
    **dict.fromkeys(("EXPENSE_DB", "EXPENSES", "EXPENSE_CATEGORIES"), "cerebellum_gym.sim.apps.expense"),
    **dict.fromkeys(("SMS_DB", "SMS"), "cerebellum_gym.sim.telephony"),
    **dict.fromkeys(("BROCCOLI_DB", "BROCCOLI_RECIPES"), "cerebellum_gym.sim.apps.broccoli"),
    **dict.fromkeys(("TASKS_DB", "TASKS_ORG_TASKS"), "cerebellum_gym.sim.apps.tasks_org"),
    **dict.fromkeys(("OPENTRACKS_DB", "OPENTRACKS_TRACKS"), "cerebellum_gym.sim.apps.opentracks"),
}


def __getattr__(name: str) -> Any:
    """``databases.CALENDAR_DB`` and the like, from the app module that declares them now (imported
    on first use: the apps import this module, so it cannot import them at its own import)."""
    home = _MOVED.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(home), name)
