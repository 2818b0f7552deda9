"""Content providers of the simulated phone: the tables behind ``content query`` URIs.

Rows are dicts of strings, as ``content query`` prints them. A URI maps to a table and to the
column values that the URI implies (``content://sms/inbox`` is the ``sms`` table where
``type=1``), so queries and inserts through either URI agree.
"""

from __future__ import annotations

from typing import Final

#: URI -> (table, implied column values).
URIS: Final[dict[str, tuple[str, dict[str, str]]]] = {
    "content://com.android.contacts/data/phones": ("contacts", {}),
    # One phone number per contact in the simulator: the raw contacts are the same rows.
    "content://com.android.contacts/raw_contacts": ("contacts", {}),
    "content://contacts/phones": ("contacts", {}),
    "content://sms": ("sms", {}),
    "content://sms/inbox": ("sms", {"type": "1"}),
    "content://sms/sent": ("sms", {"type": "2"}),
    "content://call_log/calls": ("calls", {}),
    # Stand-ins for app databases that AndroidWorld reads with root sqlite3 (one table each).
    "content://com.google.android.deskclock/alarms": ("alarms", {}),
    "content://com.simplemobiletools.calendar.pro/events": ("calendar_events", {}),
    "content://com.arduia.expense/expenses": ("expenses", {}),
    "content://com.flauschcode.broccoli/recipes": ("broccoli_recipes", {}),
    "content://org.tasks/tasks": ("tasksorg_tasks", {}),
    "content://de.dennisguse.opentracks.content/tracks": ("opentracks_tracks", {}),
    "content://net.cozic.joplin/folders": ("joplin_folders", {}),
    "content://net.cozic.joplin/notes": ("joplin_notes", {}),
    # VLC's media library (Media, Playlist, PlaylistMediaRelation).
    "content://org.videolan.vlc/media": ("vlc_media", {}),
    "content://org.videolan.vlc/playlists": ("vlc_playlists", {}),
    "content://org.videolan.vlc/playlist_media": ("vlc_playlist_media", {}),
    "content://net.osmand/map_markers": ("osmand_map_markers", {}),
}

CONTACTS_URI: Final = "content://com.android.contacts/data/phones"
SMS_URI: Final = "content://sms"
#: Alarms: ``hour``, ``minutes``, ``enabled`` (0/1), ``label``.
ALARMS_URI: Final = "content://com.google.android.deskclock/alarms"
#: Simple Calendar Pro's events: ``title``, ``description``, ``location``, ``start_ts`` and
#: ``end_ts`` (POSIX seconds, device time zone UTC), ``repeat_interval`` (seconds, 0 = once).
CALENDAR_URI: Final = "content://com.simplemobiletools.calendar.pro/events"
#: Pro Expense's expenses: ``name``, ``amount`` (in cents), ``category``, ``note``, ``created_at`` (ms).
EXPENSES_URI: Final = "content://com.arduia.expense/expenses"
#: Tasks.org's tasks: the columns of its ``tasks`` table (``title``, ``importance``, ``dueDate``,
#: ``hideUntil``, ``completed`` in ms, ...; a NULL column is a missing key).
TASKS_URI: Final = "content://org.tasks/tasks"
#: OpenTracks' tracks: the columns of its ``tracks`` table (``name``, ``category``,
#: ``starttime`` and ``totaltime`` in ms, ``totaldistance`` in metres, speeds in m/s, ...).
TRACKS_URI: Final = "content://de.dennisguse.opentracks.content/tracks"


def resolve(uri: str) -> tuple[str, dict[str, str]]:
    """The table and implied columns of ``uri``.

    Raises:
        KeyError: no provider answers this URI.
    """
    try:
        return URIS[uri.rstrip("/")]
    except KeyError:
        raise KeyError(f"Unknown URI {uri}") from None
