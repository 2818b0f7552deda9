"""The embedded phone simulator: apps, screens and state, in-process, on a CPU."""

from __future__ import annotations

from cerebellum_gym.sim.phone import Phone, PhoneState

__all__ = ["Phone", "PhoneState"]
