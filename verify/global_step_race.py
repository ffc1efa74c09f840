"""Does the original program read its global step racily against its increment? (VER006)

BERT's optimization.py (and the many programs that copied it) computes the learning-rate schedule from `global_step` and increments it with its own
`global_step.assign(global_step + 1)`, grouped with the weight updates but not ordered against
them. In TF 1.15 the global step is a ref variable whose `global_step/read` snapshot aliases the
variable's buffer, so an op reading the snapshot after the assign ran in the same `Session.run`
sees the new step: the schedule uses step or step + 1 depending on thread timing, and the oracle
differs from run to run in a way no number of oracle runs samples faithfully. The bridge reads
the step in program order (before the increment), which is one fixed outcome of that race, so
a side outside the oracle's spread could not be told from the race. So verify runs the oracle with
the race ordered as the program wrote it (verify/race_order.py: each racy read before the
increment, the order current TensorFlow runs it in), which is one of the orders TF 1.15 itself
may pick, and judges the sides against that; the race is named in the report. Only when that
ordering could not be applied and the oracle's runs differ does verify name the race (findings.py
VER006) instead of failing.

The test is structural, on the oracle's own `graph.pbtxt` (written by the TF1 Estimator in its
model_dir): a read of the global step that feeds a variable update (the schedule) and is neither
before nor after one of the step's increments through data or control edges. TF's own
`optimizer.minimize(loss, global_step)` increments after the updates (control dependencies), so
it is ordered and never reported.
"""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path
from typing import NamedTuple

_STEP = "global_step"
_WRITES = {"Assign", "AssignAdd", "AssignSub", "AssignVariableOp", "AssignAddVariableOp",
           "AssignSubVariableOp"}
# Ops that change a variable: what a schedule read must reach to matter for training.
_UPDATES = _WRITES | {"ScatterAdd", "ScatterSub", "ScatterUpdate", "ResourceScatterAdd",
                      "ResourceScatterUpdate"}


def _source(name: str) -> str:
    return name.lstrip("^").split(":")[0]


def _not_step_time(name: str) -> bool:
    """Initializers, savers and checkpoint restores write the step outside the training step."""
    return (name.startswith(("save/", "save_", "checkpoint_initializer"))
            or name in (f"{_STEP}/Assign", f"{_STEP}/IsInitialized")
            or "Initializer" in name or "/initial_value" in name)


class Node(NamedTuple):
    """What the test needs of a GraphDef node (a `NodeDef` has the same three fields)."""

    name: str
    op: str
    input: tuple[str, ...]


def racy_reads(graph_nodes) -> list[str]:
    """Names of ops that read the global step for a variable update, unordered with its increment.

    Args:
      graph_nodes: the training graph's nodes: `Node`s, or a `GraphDef`'s `node` field.
    """
    return sorted({read for read, _ in racy_pairs(graph_nodes)})


def racy_pairs(graph_nodes) -> list[tuple[str, str]]:
    """(read, increment) pairs of racy_reads: each read and each increment it is unordered with."""
    nodes = {node.name: node for node in graph_nodes}
    if _STEP not in nodes:
        return []
    consumers = defaultdict(list)
    for node in nodes.values():
        for name in node.input:
            consumers[_source(name)].append(node.name)
    writes = [name for name in consumers[_STEP]
              if nodes[name].op in _WRITES and not _not_step_time(name)]
    if not writes:
        return []
    reads = []
    for name in consumers[_STEP]:
        op = nodes[name].op
        if op == "Identity":  # the ref snapshot: it aliases the buffer, its consumers read
            reads += [c for c in consumers[name] if not _not_step_time(c)]
        elif op == "ReadVariableOp" and not _not_step_time(name):  # a resource read copies
            reads.append(name)
    reach = _Reach(consumers)
    pairs = []
    for read in reads:
        after_read = reach.of(read)
        if not any(_is_update(nodes[n].op) and _STEP not in _targets(nodes[n]) and not _not_step_time(n)
                   for n in after_read):
            continue  # feeds no variable update (a summary, a log): harmless
        pairs += [(read, write) for write in writes if write not in after_read and read not in reach.of(write)]
    return pairs


def _is_update(op: str) -> bool:
    """A variable update: an assignment, or an optimizer kernel (ApplyAdam, ResourceApplyMomentum...)."""
    return op in _UPDATES or op.startswith(("Apply", "ResourceApply", "SparseApply", "ResourceSparseApply"))


def _targets(node) -> set[str]:
    return {_source(node.input[0])} if node.input else set()


class _Reach:
    """Forward reachability over data and control edges, memoised per start node."""

    def __init__(self, consumers):
        self._consumers = consumers
        self._memo: dict[str, set[str]] = {}

    def of(self, start: str) -> set[str]:
        if start not in self._memo:
            seen, stack = set(), [start]
            while stack:
                for nxt in self._consumers.get(stack.pop(), ()):
                    if nxt not in seen:
                        seen.add(nxt)
                        stack.append(nxt)
            self._memo[start] = seen
        return self._memo[start]


_FIELD = re.compile(r'^  (name|op|input): "(.*)"$')


def parse_graph_pbtxt(text: str) -> list[Node]:
    """The nodes of a text-format GraphDef (graph.pbtxt): name, op and inputs of each.

    Read line by line, without TensorFlow (verify runs TF only in its program subprocesses):
    protobuf's text format puts a node's own fields at two spaces of indentation, its attrs
    deeper.
    """
    graph_nodes, current = [], None
    for line in text.splitlines():
        if line == "node {":
            current = {"name": "", "op": "", "input": []}
        elif line == "}" and current is not None:
            graph_nodes.append(Node(current["name"], current["op"], tuple(current["input"])))
            current = None
        elif current is not None:
            match = _FIELD.match(line)
            if match:
                key, value = match.groups()
                value = value.encode().decode("unicode_escape")
                if key == "input":
                    current["input"].append(value)
                else:
                    current[key] = value
    return graph_nodes


def racy_reads_in(model_dir: Path) -> list[str]:
    """`racy_reads` of the graph.pbtxt a TF1 Estimator wrote in model_dir ([] without one)."""
    path = Path(model_dir) / "graph.pbtxt"
    if not path.exists():
        return []
    return racy_reads(parse_graph_pbtxt(path.read_text()))
