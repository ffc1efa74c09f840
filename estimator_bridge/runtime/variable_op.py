"""`variable.op.name` in a model_fn, for the bridge's eagerly created TF1 variables.

TF1 code reads a variable's name through its op: `{v.op.name: v.op.name for v in ...}` as an
init_from_checkpoint assignment map, `if scope in v.op.name` to skip variables when
warm-starting, `tf.summary.histogram(v.op.name, v)`. In TF 1.15
every variable had a graph op (`VarHandleOp` named after the variable). The bridge creates its
variables once, eagerly (runtime/variables.py), and a model_fn traced later sees them through an
eager handle, whose `.op` raises "Tensor.op is undefined when eager execution is enabled". The
cached variables therefore answer `.op` with what TF1 code reads from it: the op's name (the
variable's TF1 name), type, device; any other use of the op keeps failing with TF's error.
"""

from __future__ import annotations

from typing import NamedTuple

from tensorflow.python.ops import resource_variable_ops


class EagerVariableOp(NamedTuple):
    """The parts of TF1's `VarHandleOp` that TF1 code reads off `variable.op`."""

    name: str
    type: str
    device: str
    graph: object = None       # read by DistributedVarOp (tf.distribute's cross-replica .op)
    traceback: object = None


class TF1NamedResourceVariable(resource_variable_ops.ResourceVariable):
    """A ResourceVariable whose `.op` also answers when its handle is eager (see module doc)."""

    @property
    def op(self):
        try:
            return super().op
        except AttributeError:
            return EagerVariableOp(name=self._tf1_op_name, type="VarHandleOp", device=self.device)


def answer_op_name(variable) -> None:
    """Make `variable` (or each component of a distributed one) answer `.op` as above.

    Every component answers with the variable's TF1 name: TF 1.15 ran the model_fn of every
    TPU shard in one graph on one variable, so replica 1 saw `dense/kernel`, not MirroredStrategy's
    component name `dense/kernel/replica_1`.
    """
    name = variable.name.rsplit(":", 1)[0]
    components = getattr(variable, "_values", None) or (variable,)
    for component in components:
        if type(component) is resource_variable_ops.ResourceVariable:
            component.__class__ = TF1NamedResourceVariable
            component._tf1_op_name = name
