"""`python -m migrate` is the `estimator-migrate` command."""

import sys

from migrate.cli import main

sys.exit(main())
