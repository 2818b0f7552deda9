"""Retro Music's screens as v6.1.0 lays them out: the bottom navigation, a song's popup menu,
Add to playlist then New playlist, the mini player and the player's queue."""

from __future__ import annotations

import pytest

from cerebellum_gym.core.tree import UINode
from cerebellum_gym.sim.apps.retro import NAV_ITEMS, SONG_MENU, duration_text, info_string
from cerebellum_gym.sim.phone import Phone
from cerebellum_gym.tasks.retro import mp3

RETRO = "code.name.monkey.retromusic"
RID = f"{RETRO}:id/"


def find(phone: Phone, **want: str) -> UINode | None:
    for n in phone.ui_tree().iter():
        if all(getattr(n, key) == value for key, value in want.items()):
            return n
    return None


def tap(phone: Phone, **want: str) -> None:
    hit = find(phone, **want)
    assert hit is not None, want
    phone.tap(*hit.center)


@pytest.fixture
def phone() -> Phone:
    phone = Phone()
    for title, ms in (("Moments", 180_000), ("Bright Lights", 200_000)):
        phone.write_file(f"/sdcard/Music/{title}.mp3", mp3(title, "Bob", ms))
    phone.start_app(RETRO)
    tap(phone, content_desc="Songs")  # the app opens on For you
    return phone


def test_bottom_navigation_and_song_rows(phone: Phone) -> None:
    tabs = [(n.content_desc, n.resource_id) for n in phone.ui_tree().iter() if n.resource_id.startswith(RID + "action_")]
    assert tabs == [(label, RID + rid) for label, rid, _ in NAV_ITEMS]
    assert [n.text for n in phone.ui_tree().iter() if n.resource_id == RID + "title"] == ["Bright Lights", "Moments"]
    assert [n.text for n in phone.ui_tree().iter() if n.resource_id == RID + "text"] == ["Bob", "Bob"]
    assert find(phone, resource_id=RID + "shuffle_button", content_desc="Shuffle") is not None


def test_song_menu_adds_to_a_new_playlist(phone: Phone) -> None:
    tap(phone, resource_id=RID + "menu")
    assert [n.text for n in phone.ui_tree().iter() if n.resource_id == RID + "title"] == list(SONG_MENU)
    tap(phone, text="Add to playlist")
    assert find(phone, resource_id="android:id/alertTitle", text="Add to playlist") is not None
    tap(phone, resource_id="android:id/text1", text="New playlist")
    assert find(phone, resource_id=RID + "actionNewPlaylist") is not None
    phone.type_text("Mix")
    tap(phone, text="Create")
    tap(phone, content_desc="Playlists")
    tap(phone, resource_id=RID + "title", text="Mix")
    subtitle = find(phone, resource_id=RID + "subtitle")
    assert subtitle is not None and subtitle.text == "1 Song  •  03:20"


def test_playing_shows_the_mini_player_and_the_queue(phone: Phone) -> None:
    assert find(phone, resource_id=RID + "miniPlayerTitle") is None
    tap(phone, resource_id=RID + "title", text="Moments")
    tap(phone, content_desc="Playing Queue")
    assert [n.text for n in phone.ui_tree().iter() if n.resource_id == RID + "title"] == ["Moments", "Bright Lights"]
    phone.press_key(4)
    phone.press_key(4)
    mini = find(phone, resource_id=RID + "miniPlayerTitle")
    assert mini is not None and mini.text.startswith("Moments")


def test_info_strings_follow_music_util() -> None:
    assert duration_text(200_000) == "03:20" and duration_text(3_723_000) == "1:02:03"
    assert info_string([{"duration": "60000"}, {"duration": "30000"}]) == "2 Songs  •  01:30"


def test_the_app_opens_on_for_you() -> None:
    phone = Phone()
    phone.start_app(RETRO)
    home = find(phone, resource_id=RID + "action_home")
    assert home is not None and home.selected
    assert [n.text for n in phone.ui_tree().iter() if n.resource_id.startswith(RID) and n.class_name == "android.widget.Button"] == [
        "History",
        "Last added",
        "Most played",
        "Shuffle",
    ]
