"""Tasks.org and OpenTracks on the simulated phone: what their lists and pages show, their filters,
their edits reaching the database, and the activities AndroidWorld starts.

Real: the phone, its shell (``am``, ``sqlite3``) and the apps' SQLite databases as AndroidWorld
pulls them; nothing is replaced.
"""

from __future__ import annotations

import sqlite3

import pytest
from screenhelpers import node, tap, texts

from cerebellum_gym.sim import databases, providers
from cerebellum_gym.sim.apps.opentracks import elapsed, miles, speed_parts
from cerebellum_gym.sim.apps.tasks_org import due_text
from cerebellum_gym.sim.phone import Phone
from cerebellum_gym.sim.providers import TASKS_URI, TRACKS_URI
from cerebellum_gym.sim.shell import Shell

TASKS_DB = "/data/data/org.tasks/databases/database"
TRACKS_DB = "/data/data/de.dennisguse.opentracks/databases/database.db"
DAY = 86_400_000
OCT15 = 1_697_328_000_000  # October 15 2023 00:00 UTC, the device's today (now 15:34)


def task(title: str, **values: str) -> dict[str, str]:
    return {"title": title, "importance": "2", "dueDate": "0", "hideUntil": "0", "completed": "0", **values}


def sql(sh: Shell, db: str, statement: str) -> str:
    done = sh.run(f'sqlite3 {db} "{statement}"')
    assert done.code == 0, done.stderr
    return done.stdout.decode()


@pytest.mark.parametrize(
    ("component", "package"),
    [
        ("org.tasks/com.todoroo.astrid.activity.MainActivity", "org.tasks"),
        ("de.dennisguse.opentracks/de.dennisguse.opentracks.TrackListActivity", "de.dennisguse.opentracks"),
    ],
)
def test_the_activities_androidworld_starts_resolve(sh: Shell, component: str, package: str) -> None:
    done = sh.run(f"am start -W -n {component}")
    assert done.code == 0, done.stderr
    assert sh.phone.foreground_package() == package
    # Their databases exist from first boot, with the table AndroidWorld reads.
    db = TASKS_DB if package == "org.tasks" else TRACKS_DB
    assert sql(sh, db, "SELECT COUNT(*) FROM " + ("tasks" if package == "org.tasks" else "tracks") + ";") == "0\n"


def test_the_apps_uris_are_their_databases_bound_tables() -> None:
    assert providers.resolve(TASKS_URI)[0] == databases.TASKS_ORG_TASKS
    assert providers.resolve(TRACKS_URI)[0] == databases.OPENTRACKS_TRACKS


def test_the_list_shows_completed_and_unstarted_tasks_until_the_overflow_menu_hides_them(sh: Shell) -> None:
    phone = sh.phone
    phone.content_insert(TASKS_URI, task("Open one", dueDate=str(OCT15 + DAY)))
    phone.content_insert(TASKS_URI, task("Not started", dueDate=str(OCT15 + 3 * DAY), hideUntil=str(OCT15 + 2 * DAY)))
    phone.content_insert(TASKS_URI, task("Done one", dueDate=str(OCT15 - DAY), completed=str(OCT15 - 2 * DAY)))
    phone.content_insert(TASKS_URI, task("Deleted one", deleted=str(OCT15)))
    phone.start_app("org.tasks")
    shown = texts(phone)
    # Preferences' defaults: completed (at the bottom) and unstarted tasks are shown.
    assert [t for t in shown if t in {"Open one", "Not started", "Done one"}] == ["Open one", "Not started", "Done one"]
    assert "Deleted one" not in shown
    chip = next(n for n in phone.ui_tree().iter() if n.resource_id == "org.tasks:id/chip_group")
    assert [n.text for n in chip.iter() if n.text] == ["Tue"]  # the unstarted task's start date chip
    tap(phone, desc="More options")
    menu = [n.text for n in phone.ui_tree().iter() if n.resource_id == "org.tasks:id/title"]
    assert menu == ["Clear Completed", "Collapse subtasks", "Expand subtasks", "Show completed", "Show unstarted", "Share"]
    boxes = [n.checked for n in phone.ui_tree().iter() if n.resource_id == "org.tasks:id/checkbox"]
    assert boxes == [True, True]
    tap(phone, text="Show completed")  # a tap flips the preference and closes the menu
    shown = texts(phone)
    assert "Done one" not in shown and "Not started" in shown and "Show unstarted" not in shown
    tap(phone, desc="More options")
    tap(phone, text="Show unstarted")
    shown = texts(phone)
    assert "Open one" in shown and not {"Not started", "Done one"} & set(shown)
    # The drawer (the bottom bar's navigation button): Today is what is due by today's end.
    bar = next(n for n in phone.ui_tree().iter() if n.resource_id == "org.tasks:id/bottomAppBar")
    nav = next(n for n in bar.iter() if n.class_name == "android.widget.ImageButton")
    phone.tap((nav.bounds[0] + nav.bounds[2]) // 2, (nav.bounds[1] + nav.bounds[3]) // 2)
    assert {"My Tasks", "Today", "Recently modified"} <= set(texts(phone))
    tap(phone, text="Today")
    assert "Open one" not in texts(phone) and node(phone, text="Today")


def test_the_list_is_the_real_apps_layout(sh: Shell) -> None:
    phone = sh.phone
    phone.content_insert(TASKS_URI, task("Call Grandma", dueDate=str(OCT15 + DAY), notes="Ask for the recipe"))
    phone.start_app("org.tasks")
    ids = [n.resource_id.split("/")[-1] for n in phone.ui_tree().iter() if n.resource_id.startswith("org.tasks:")]
    assert ids[:3] == ["toolbar", "menu_search", "recycler_view"]
    assert ids[3:9] == ["row", "rowBody", "completeBox", "due_date", "title", "description"]
    assert {"bottomAppBar", "menu_voice_add", "menu_sort", "fab"} <= set(ids)
    assert node(phone, desc="Create new task").class_name == "android.widget.ImageButton"
    assert node(phone, text="Tmrw").resource_id == "org.tasks:id/due_date"
    tap(phone, desc="More options")
    tap(phone, text="Clear Completed")
    assert node(phone, text="Clear completed tasks?") and node(phone, text="OK")


def test_the_editors_menu_deletes_after_asking(sh: Shell) -> None:
    phone = sh.phone
    phone.content_insert(TASKS_URI, task("Call Grandma", dueDate=str(OCT15 + 9 * DAY)))
    phone.start_app("org.tasks")
    tap(phone, text="Call Grandma")
    assert "Tuesday, October 24" in texts(phone)  # beyond six days: the full date, this year's left out
    tap(phone, desc="More options")
    assert {"Discard changes", "Delete task"} <= set(texts(phone))
    tap(phone, text="Delete task")
    assert node(phone, text="Delete this task?") and node(phone, text="Cancel")
    tap(phone, text="OK")
    assert int(sql(sh, TASKS_DB, "SELECT deleted FROM tasks;")) > 0
    assert "Call Grandma" not in texts(phone)


def test_the_sort_sheet_picks_the_order_and_keeps_completed_tasks_at_the_bottom(sh: Shell) -> None:
    phone = sh.phone
    phone.content_insert(TASKS_URI, task("Zebra", dueDate=str(OCT15 + DAY)))
    phone.content_insert(TASKS_URI, task("Apple", dueDate=str(OCT15 + 2 * DAY)))
    phone.content_insert(TASKS_URI, task("Done early", dueDate=str(OCT15 - DAY), completed=str(OCT15 - DAY)))
    phone.start_app("org.tasks")
    titles = lambda: [n.text for n in phone.ui_tree().iter() if n.resource_id == "org.tasks:id/title"]  # noqa: E731
    assert titles() == ["Zebra", "Apple", "Done early"]
    tap(phone, desc="Sort")
    shown = texts(phone)
    assert shown[shown.index("Grouping") :][:8] == [
        "Grouping",
        "None",
        "Sorting",
        "Smart sort",
        "Subtasks",
        "My order",
        "Move completed tasks to bottom",
        "Completed",
    ]
    tap(phone, text="Sorting")
    tap(phone, text="By title")
    assert node(phone, text="By title") and "Smart sort" not in texts(phone)
    tap(phone, text="Move completed tasks to bottom")
    assert "Completed" not in texts(phone)
    phone.press_key(4)
    assert titles() == ["Apple", "Done early", "Zebra"]


def test_the_search_view_filters_as_you_type_and_submits_a_matching_list(sh: Shell) -> None:
    phone = sh.phone
    phone.content_insert(TASKS_URI, task("Call Grandma", dueDate=str(OCT15 + DAY), notes="Ask for the recipe"))
    phone.content_insert(TASKS_URI, task("Water plants", dueDate=str(OCT15 + 2 * DAY)))
    phone.start_app("org.tasks")
    titles = lambda: [n.text for n in phone.ui_tree().iter() if n.resource_id == "org.tasks:id/title"]  # noqa: E731
    tap(phone, desc="Search")
    assert node(phone, desc="Collapse") and titles() == ["Call Grandma", "Water plants"]
    phone.type_text("RECIPE")  # the notes match too, case aside
    assert titles() == ["Call Grandma"] and node(phone, desc="Clear query")
    phone.press_key(66)  # submit: a list of its own
    assert node(phone, text="Matching 'RECIPE'") and titles() == ["Call Grandma"]
    phone.press_key(4)
    assert node(phone, text="My Tasks") and titles() == ["Call Grandma", "Water plants"]
    tap(phone, desc="Search")
    phone.type_text("water")
    phone.press_key(4)  # back collapses the search view
    assert node(phone, desc="Search") and titles() == ["Call Grandma", "Water plants"]


def test_due_dates_read_as_the_app_writes_them() -> None:
    today = Phone().now().date()
    assert due_text(OCT15, today) == "Today"
    assert due_text(OCT15 + 17 * 3_600_000 + 1000, today) == "5:00 PM"  # a due time: off a whole minute
    assert due_text(OCT15 + 17 * 3_600_000, today) == "Today"  # AndroidWorld's whole-minute dates: all day
    assert due_text(OCT15 + DAY, today) == "Tmrw"
    assert due_text(OCT15 - DAY + 9 * 3_600_000 + 30 * 60_000 + 1000, today) == "Yest 9:30 AM"
    assert due_text(OCT15 + 2 * DAY, today) == "Tue"  # within six days: the weekday
    assert due_text(OCT15 + 7 * DAY, today) == "Oct 22"
    assert due_text(OCT15 + 90 * DAY, today) == "Jan 13, 2024"
    assert due_text(0, today) == ""


def test_a_sqlite3_write_shows_in_the_list_and_the_apps_edits_reach_the_database(sh: Shell) -> None:
    phone = sh.phone
    sql(
        sh,
        TASKS_DB,
        "INSERT INTO tasks (title, importance, dueDate, hideUntil, created, modified, completed, deleted, notes, "
        "estimatedSeconds, elapsedSeconds, timerStart, notificationFlags, lastNotified, collapsed, parent, \\`order\\`) "
        f"VALUES ('Call Grandma', 1, {OCT15 + DAY}, 0, 0, 0, 0, 0, 'Ask for the recipe', 0, 0, 0, 0, 0, 0, 0, NULL);",
    )
    phone.start_app("org.tasks")
    assert {"Call Grandma", "Tmrw", "Ask for the recipe"} <= set(texts(phone))
    box = next(n for n in phone.ui_tree().iter() if n.resource_id == "org.tasks:id/completeBox")
    assert box.clickable and not box.content_desc  # CheckableImageView: no description
    before = phone.state.clock
    phone.tap((box.bounds[0] + box.bounds[2]) // 2, (box.bounds[1] + box.bounds[3]) // 2)  # completes the task
    assert before * 1000 <= int(sql(sh, TASKS_DB, "SELECT completed FROM tasks;")) <= phone.state.clock * 1000
    assert "Call Grandma" in texts(phone)  # completed tasks stay (at the bottom) while "Show completed" is on
    # Back again, then the task page: a new priority and title are saved when the page closes.
    sql(sh, TASKS_DB, "UPDATE tasks SET completed = 0;")
    tap(phone, text="Call Grandma")
    # The editor's rows in TEA_control_sets_prefs' order, dates as getRelativeDateTime(FULL) writes them.
    shown = texts(phone)
    assert shown.index("No start date") < shown.index("Tomorrow") < shown.index("Does not repeat") < shown.index("Priority")
    radios = [n for n in phone.ui_tree().iter() if n.class_name == "android.widget.RadioButton"]
    assert [r.checked for r in radios] == [False, False, True, False]  # None, Low, Medium, High
    high = radios[3].bounds
    phone.tap((high[0] + high[2]) // 2, (high[1] + high[3]) // 2)
    phone.press_key(4)  # back
    assert sql(sh, TASKS_DB, "SELECT title, importance, notes FROM tasks;") == "Call Grandma|0|Ask for the recipe\n"


def test_a_new_task_needs_a_title_and_gets_every_column(sh: Shell) -> None:
    phone = sh.phone
    phone.start_app("org.tasks")
    tap(phone, desc="Create new task")
    phone.press_key(4)  # no title: nothing is saved
    assert sql(sh, TASKS_DB, "SELECT COUNT(*) FROM tasks;") == "0\n"
    tap(phone, desc="Create new task")
    phone.type_text("Water plants")
    tap(phone, desc="Save")
    con = sqlite3.connect(":memory:")
    con.deserialize(databases.read(phone, TASKS_DB) or b"")
    con.row_factory = sqlite3.Row
    (row,) = [dict(r) for r in con.execute("SELECT * FROM tasks")]
    assert (row["title"], row["importance"], row["dueDate"], row["order"], row["notes"]) == ("Water plants", 3, 0, None, None)
    assert 0 < row["created"] == row["modified"] <= phone.state.clock * 1000


def track(name: str, start: int, minutes: int, metres: float, category: str = "running") -> dict[str, str]:
    return {
        "name": name,
        "category": category,
        "activity_type": category,
        "starttime": str(start),
        "stoptime": str(start + minutes * 60_000),
        "totaltime": str(minutes * 60_000),
        "movingtime": str(minutes * 60_000),
        "totaldistance": repr(metres),
        "elevationgain": "50.0",
        "elevationloss": "30.0",
    }


def test_tracks_list_newest_first_with_distance_and_time(sh: Shell) -> None:
    phone = sh.phone
    phone.content_insert(TRACKS_URI, track("Morning Run", OCT15 - 3 * DAY + 8 * 3_600_000, 45, 4828.0))
    phone.content_insert(TRACKS_URI, track("Lake Kayaking", OCT15 - DAY + 17 * 3_600_000, 125, 6437.0, "kayaking"))
    phone.start_app("de.dennisguse.opentracks")
    shown = texts(phone)
    assert shown.index("Lake Kayaking") < shown.index("Morning Run")
    # track_list_item: name, relative day, "time ‧ distance", HH:mm (ListItemUtils).
    assert shown[shown.index("Lake Kayaking") :][:4] == ["Lake Kayaking", "Yesterday", "2:05:00 ‧ 4.00 mi", "17:00"]
    assert shown[shown.index("Morning Run") :][:4] == ["Morning Run", "Thursday", "45:00 ‧ 3.00 mi", "08:00"]
    assert node(phone, desc="Record").resource_id == "de.dennisguse.opentracks:id/track_list_fab_action"
    tap(phone, text="Morning Run")
    page = texts(phone)
    assert page[:4] == ["Stats", "Intervals", "By time", "By distance"]
    for label, value in (
        ("Distance", "3.00"),
        ("Total time", "45:00"),
        ("Moving time", "45:00"),
        ("Avg pace", "15:00"),  # running reports a pace
        ("Gain", "164"),
        ("Loss", "98"),
    ):
        assert page[page.index(label) + 1] == value, label
    assert page[page.index("Distance") + 2] == "mi"
    phone.press_key(4)
    tap(phone, text="Lake Kayaking")
    page = texts(phone)
    assert page[page.index("Avg speed") + 1 : page.index("Avg speed") + 3] == ["1.9", "mph"]  # kayaking reports a speed


def test_opentracks_reads_androidworlds_rows_and_deletes_into_the_database(sh: Shell) -> None:
    """A row as AndroidWorld inserts it (its average speed in its own units, a BLOB uuid): the app
    works the speed out from distance over time, and a deleted track leaves the table."""
    sql(
        sh,
        TRACKS_DB,
        "INSERT INTO tracks (name, description, category, activity_type, starttime, stoptime, numpoints, totaldistance, "
        "totaltime, movingtime, avgspeed, avgmovingspeed, maxspeed, minelevation, maxelevation, elevationgain, uuid, "
        f"elevationloss, starttime_offset) VALUES ('Trail Hike', 'Slow day', 'hiking', 'hiking', {OCT15 - 2 * DAY}, "
        f"{OCT15 - 2 * DAY + 5_400_000}, 0, 8047.0, 5400000, 5400000, 1.49e-06, 1.49e-06, 0.0, 0.0, 0.0, 120.0, "
        "X'00112233445566778899aabbccddeeff', 80.0, 0);",
    )
    phone = sh.phone
    phone.start_app("de.dennisguse.opentracks")
    tap(phone, text="Trail Hike")
    page = texts(phone)
    assert page[page.index("Avg pace") + 1] == "17:59"  # hiking: a pace, from distance over time
    assert page[page.index("Total time") + 1] == "1:30:00"
    assert node(phone, text="Slow day").resource_id.endswith("stats_description_value")
    tap(phone, desc="More options")
    assert [n.text for n in sh.phone.ui_tree().iter() if n.resource_id.endswith(":id/title")] == [
        "Markers",
        "Edit",
        "Delete",
        "Resume track",
        "Settings",
    ]
    tap(phone, text="Delete")
    assert node(phone, text="Delete track?") and node(phone, text="Cancel")
    tap(phone, text="OK")
    assert sql(sh, TRACKS_DB, "SELECT COUNT(*) FROM tracks;") == "0\n"
    assert "Trail Hike" not in texts(phone)


def test_the_search_view_filters_by_name_description_or_category_and_back_drops_it(sh: Shell) -> None:
    phone = sh.phone
    phone.content_insert(TRACKS_URI, track("Morning Run", OCT15 - 3 * DAY + 8 * 3_600_000, 45, 4828.0))
    phone.content_insert(TRACKS_URI, track("Lake Trip", OCT15 - DAY + 17 * 3_600_000, 125, 6437.0, "kayaking"))
    phone.start_app("de.dennisguse.opentracks")
    tap(phone, desc="Search")
    field = next(n for n in phone.ui_tree().iter() if n.resource_id.endswith(":id/search_src_text"))
    assert field.class_name == "android.widget.EditText" and node(phone, desc="Submit query")
    phone.type_text("KAYAK")  # the category matches, LIKE ignores case
    phone.press_key(66)  # enter: submit
    shown = texts(phone)
    assert "Lake Trip" in shown and "Morning Run" not in shown
    phone.press_key(4)  # back closes the search and lists every track again
    shown = texts(phone)
    assert {"OpenTracks", "Lake Trip", "Morning Run"} <= set(shown)
    phone.press_key(4)
    assert phone.foreground_package() != "de.dennisguse.opentracks"


def test_a_wrong_typed_track_shows_as_nothing_not_a_crash(sh: Shell) -> None:
    sh.phone.content_insert(TRACKS_URI, {"name": "Odd", "totaldistance": "far", "totaltime": "long", "starttime": "soon"})
    sh.phone.start_app("de.dennisguse.opentracks")
    assert "00:00 ‧ 0.00 ft" in texts(sh.phone)


def test_unit_formats() -> None:
    assert (elapsed(59_000), elapsed(45 * 60_000), elapsed(3_900_000)) == ("00:59", "45:00", "1:05:00")
    assert miles(1609.344) == "1.00 mi" and miles(100) == "328.08 ft"  # feet under half a mile
    assert speed_parts(1609.344 / 3600, pace=False) == ("1.0", "mph") and speed_parts(1609.344 / 480, pace=True) == ("8:00", "min/mi")
