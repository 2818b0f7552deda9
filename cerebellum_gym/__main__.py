"""``python -m cerebellum_gym``: the ``cerebellum-gym`` command line."""

import sys

from cerebellum_gym.cli import main

sys.exit(main())
