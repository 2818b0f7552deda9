"""Gymnasium wrappers for cerebellum-gym environments (installed as ``cerebellum_gym.wrappers``)."""
