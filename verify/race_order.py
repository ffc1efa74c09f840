"""Inside an oracle run: run the global step's racy reads before its increment (one fixed order).

google-research/bert's optimizer reads the global step for its learning-rate schedule and
increments it in the same step with nothing ordering the two (verify/global_step_race.py): TF
1.15 picks the order by thread timing, so its runs differ from step 1 and no side could be judged
against it (VER006 on half of a random draw of TPU programs). The order the program wrote --
schedule from the step, then the increment -- is one of the orders TF 1.15 may run, and the one
current TensorFlow runs (automatic control dependencies follow program order). Before each
Session is created, this module finds those (read, increment) pairs in its graph and adds a
control edge from each read to its increment (ops.Operation._add_control_input, in TF 1.15 and
TF 2.x); nothing else changes. The pairs are written to the file named by VERIFY_RACE_LOG, one
`read -> increment` per line, so that verify names the race it ordered.

    python verify/race_order.py PROGRAM ARGS...     (what verify runs in the oracle)

Runs inside every oracle (Python 3.7 + TF 1.15 too): standard library only, run by file path.
TensorFlow is not imported here: the patch is applied when the program imports it.
"""

import importlib.abc
import importlib.util
import os
import runpy
import sys

SESSION_MODULE = "tensorflow.python.client.session"
LOG_VARIABLE = "VERIFY_RACE_LOG"


def _racy_pairs():
    """global_step_race.racy_pairs, loaded by file path (verify's folder never joins sys.path)."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "global_step_race.py")
    spec = importlib.util.spec_from_file_location("_verify_global_step_race", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.racy_pairs


def order_races(graph, log_path=None):
    """Add a control edge from each racy read of `graph`'s global step to the increment; the pairs.

    A graph this cannot order runs as it is, with the error in the log (verify then falls back
    to naming the race, VER006)."""
    try:
        pairs = _racy_pairs()(graph.as_graph_def().node)
        for read, write in pairs:
            graph.get_operation_by_name(write)._add_control_input(graph.get_operation_by_name(read))
    except Exception as error:  # the program must run as it would without verify
        lines, pairs = ["not ordered: %s: %s\n" % (type(error).__name__, error)], []
    else:
        lines = ["%s -> %s\n" % pair for pair in pairs]
    if lines and log_path:
        with open(log_path, "a") as log:
            log.writelines(lines)
    return pairs


def _patch(session_module):
    original = session_module.BaseSession.__init__
    log_path = os.environ.get(LOG_VARIABLE)

    def __init__(self, target="", graph=None, config=None):
        from tensorflow.python.framework import ops

        order_races(graph if graph is not None else ops.get_default_graph(), log_path)
        original(self, target, graph, config)

    session_module.BaseSession.__init__ = __init__


class _PatchOnImport(importlib.abc.MetaPathFinder):
    """Patches the Session module right after the program (or TensorFlow) first imports it."""

    def find_spec(self, name, path, target=None):
        if name != SESSION_MODULE:
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(name)
        if spec is None or spec.loader is None:
            return spec
        execute = spec.loader.exec_module

        def exec_module(module):
            execute(module)
            _patch(module)

        spec.loader.exec_module = exec_module
        return spec


def main(argv):
    """Run the program at argv[0] as __main__ with argv[1:], the patch armed."""
    script = argv[0]
    sys.argv = list(argv)
    sys.path[0] = os.path.dirname(os.path.abspath(script))
    sys.meta_path.insert(0, _PatchOnImport())
    runpy.run_path(script, run_name="__main__")


if __name__ == "__main__":
    main(sys.argv[1:])
