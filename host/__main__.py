"""`python -m host` runs the `magboard` command line."""

import sys

from host.cli import main

sys.exit(main())
