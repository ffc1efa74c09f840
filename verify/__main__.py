"""`python -m verify SCRIPT [OPTIONS] -- ARGS`: the same as `estimator-migrate verify` (verify/cli.py)."""

import sys

from verify.cli import main

sys.exit(main())
