import sys

from cerebellum_gym.cli import main

sys.exit(main())
