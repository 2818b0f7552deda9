"""Training the reference agent (docs/training.md): SFT as its model card trains it and
trajectory-level DPO as its sibling card does, on torch, transformers and PEFT.

A layer above ``evaluation``, ``agents`` and ``datasets`` (it runs their regression checks) and
below ``cli``. Needs the ``agents`` extra; the card's paged 8-bit AdamW needs ``train-gpu``.

- :func:`~cerebellum_gym.training.sft.train_sft` (:class:`~cerebellum_gym.training.sft.SFTConfig`)
- :func:`~cerebellum_gym.training.dpo.train_dpo` (:class:`~cerebellum_gym.training.dpo.DPOConfig`)
- :mod:`~cerebellum_gym.training.common`: checkpoints, logs, curves, the trainable policy
- :mod:`~cerebellum_gym.training.examples`: examples from datasets and SFT exports, the quota sampler
"""
