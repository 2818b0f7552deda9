"""Trainers of the reference agent (``cerebellum-gym train ...``)."""
