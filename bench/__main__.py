"""`python -m bench`: run every benchmark in turn (each writes its own results file)."""

import sys

from bench import core_bench

sys.exit(core_bench.main(sys.argv[1:]))
