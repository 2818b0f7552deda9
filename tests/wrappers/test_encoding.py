"""The observation encoder: stable hashing, per-slot texts, shapes, and recreation from the spec."""

from __future__ import annotations

import gymnasium as gym
import numpy as np

import cerebellum_gym  # noqa: F401
from cerebellum_gym.wrappers import EncodeObservation, EncoderConfig, FlatActions, ObservationEncoder
from cerebellum_gym.wrappers.encoding import bucket, slot_texts


def test_hash_buckets_are_the_same_in_every_process() -> None:
    # CRC-32, not Python's salted hash(): a saved model must see the same features tomorrow.
    assert bucket("wifi", 64) == 2539889227 % 64


def test_slot_texts_take_unlabelled_children_and_stop_at_siblings() -> None:
    tree = '[AB] LinearLayout "Wi-Fi"\n TextView "Connected"\n [CD] Switch on\nTextView "Add network"'
    assert slot_texts(tree, ("AB", "CD")) == {"AB": ('LinearLayout "Wi-Fi"\nTextView "Connected"', 0), "CD": ("Switch on", 1)}


def test_encoded_screens_differ_where_the_screen_differs() -> None:
    env = EncodeObservation(FlatActions(gym.make("Cerebellum-Sim-v0", task="SystemWifiTurnOn", pixels=False)), history_len=2)
    first, _ = env.reset(seed=0)
    assert env.observation_space.contains(first)
    phone = int(  # the Phone app, in the home screen's tray
        env.get_wrapper_attr("raw_observation")["labels"].index(
            next(
                label
                for label, node in zip(env.unwrapped.screen.labels, env.unwrapped.screen.nodes, strict=True)
                if node.text == "Phone"  # type: ignore[attr-defined]
            )
        )
    )
    second, *_ = env.step(phone)
    assert env.observation_space.contains(second)
    assert not np.array_equal(first["screen"], second["screen"])
    assert second["history"][-env.encoder.history_width :][0] == 1.0  # the newest frame is present
    again, _ = env.reset(seed=0)
    for key in first:
        np.testing.assert_array_equal(first[key], again[key])


def test_goal_words_and_order_matter() -> None:
    enc = ObservationEncoder(EncoderConfig(max_labels=4))
    on = enc.encode({"goal": "Turn wifi on.", "labels": ()})["goal"]
    off = enc.encode({"goal": "Turn wifi off.", "labels": ()})["goal"]
    assert not np.array_equal(on, off)


def test_encoder_config_round_trips_through_json_shapes() -> None:
    cfg = EncoderConfig(max_labels=8, screenshot_size=(32, 16))
    assert EncoderConfig.from_dict(cfg.to_dict()) == cfg
    raw = {"goal": "x", "labels": ("AB",), "screenshot": np.full((100, 50, 3), 200, np.uint8), "action_mask": np.ones(12)}
    out = ObservationEncoder(cfg).encode(raw)
    assert out["screenshot"].shape == (32, 16, 3) and int(out["screenshot"].mean()) == 200


def test_encode_observation_is_recreated_from_its_spec() -> None:
    env = EncodeObservation(FlatActions(gym.make("Cerebellum-Sim-v0", task="ContactsAddContact", pixels=False)), token_dim=16)
    again = gym.make(env.spec)  # type: ignore[arg-type]
    assert isinstance(again, EncodeObservation) and again.encoder == env.encoder
    a, _ = env.reset(seed=2)
    b, _ = again.reset(seed=2)
    for key in a:
        np.testing.assert_array_equal(a[key], b[key])
    assert a["texts"][0] == 1.0  # the contact's name is a candidate text
