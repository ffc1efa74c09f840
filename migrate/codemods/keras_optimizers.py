"""TF1 optimizers passed to Keras `compile` -> the Keras 3 optimizer with the same update.

TF 1.x Keras (and keras_to_tpu_model, which required it) took `tf.train.*Optimizer` objects:

    model.compile(optimizer=tf.train.RMSPropOptimizer(learning_rate=1e-3), loss=...)
->
    model.compile(optimizer=estimator_bridge.compat.keras_tf1_optimizers.RMSProp(learning_rate=1e-3), loss=...)

Keras 3 rejects TF1 optimizers (`Could not interpret optimizer identifier`), so the generic
`tf.compat.v1.train.*` rename is not enough here, and Keras 3's own optimizers compute other numbers
(RMSprop's accumulator, sparse gradients): each TF1 optimizer becomes the one migrate/tables/keras.py
names (TF 1.x's own, rebuilt as a Keras 3 optimizer, or Keras' SGD for plain gradient descent). Every
argument is carried over by name (TF1 positional arguments become keywords). Handled: the optimizer
given inline (keyword `optimizer=` or first positional argument of `X.compile(...)`) or through a
name assigned once from the TF1 constructor (`opt = tf.train.AdamOptimizer(...)`,
`model.compile(opt, ...)`). TF1 optimizers with no counterpart, or arguments that cannot be placed,
are reported (MIG206).
"""

from __future__ import annotations

import libcst as cst

from migrate.codemods.call_arguments import bind_arguments
from migrate.codemods.registry import Codemod
from migrate.resolve import canonical
from migrate.tables.keras import TF1_OPTIMIZERS, TF1_OPTIMIZERS_WITHOUT_KERAS, KerasOptimizer

OPTIMIZER_KEYS = frozenset(TF1_OPTIMIZERS) | TF1_OPTIMIZERS_WITHOUT_KERAS


def compile_optimizer(call: cst.Call) -> cst.BaseExpression | None:
    """The optimizer argument of an `X.compile(...)` call (keyword or first positional), else None."""
    if not (isinstance(call.func, cst.Attribute) and call.func.attr.value == "compile"):
        return None
    for index, arg in enumerate(call.args):
        if arg.keyword is not None and arg.keyword.value == "optimizer":
            return arg.value
        if index == 0 and arg.keyword is None and not arg.star:
            return arg.value
    return None


class _CompileSites(cst.CSTVisitor):
    """Ids of the optimizer expressions of `.compile(...)` calls; single-name assignments of calls."""

    def __init__(self) -> None:
        self.optimizer_args: set[int] = set()
        self.optimizer_nodes: list[cst.BaseExpression] = []
        self.assigned: dict[int, cst.Name] = {}   # id(call) -> the Name it is assigned to

    def visit_Call(self, node: cst.Call) -> None:
        optimizer = compile_optimizer(node)
        if optimizer is not None:
            self.optimizer_args.add(id(optimizer))
            self.optimizer_nodes.append(optimizer)

    def visit_Assign(self, node: cst.Assign) -> None:
        if len(node.targets) == 1 and isinstance(node.targets[0].target, cst.Name) \
                and isinstance(node.value, cst.Call):
            self.assigned[id(node.value)] = node.targets[0].target


def keras_arguments(entry: KerasOptimizer, args: list[cst.Arg]) -> list[cst.Arg] | None:
    """The Keras call's arguments (all keywords), or None when an argument cannot be placed."""
    no_space = cst.SimpleWhitespace("")
    passed = bind_arguments(args, entry.signature)
    if passed is None:
        return None
    converted = []
    for name, arg in passed.items():
        if name in entry.dropped:
            continue
        converted.append(arg.with_changes(
            keyword=cst.Name(entry.rename.get(name, name)),
            equal=cst.AssignEqual(whitespace_before=no_space, whitespace_after=no_space)))
    given = {arg.keyword.value for arg in converted}
    for name, text in entry.defaults.items():
        if name not in given:
            converted.append(cst.Arg(cst.parse_expression(text), keyword=cst.Name(name),
                                     equal=cst.AssignEqual(whitespace_before=no_space, whitespace_after=no_space)))
    if converted:
        converted[-1] = converted[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
        converted[:-1] = [arg if arg.comma is not cst.MaybeSentinel.DEFAULT else
                          arg.with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
                          for arg in converted[:-1]]
    return converted


def spelled(entry: KerasOptimizer) -> str:
    """The target as a reader of the finding writes it (`tf.keras...` for TensorFlow's names)."""
    return "tf." + entry.target[len("tensorflow."):] if entry.target.startswith("tensorflow.") else entry.target


def start(rewrite, module: cst.Module) -> _CompileSites:
    sites = _CompileSites()
    module.visit(sites)
    return sites


def _used_by_compile(rewrite, sites: _CompileSites, call: cst.Call) -> bool:
    if id(call) in sites.optimizer_args:
        return True
    target = sites.assigned.get(id(call))
    if target is None:
        return False
    if rewrite.names is not None:
        return bool(rewrite.names.store_accesses(target, sites.optimizer_nodes))
    scope = rewrite.scope_of(target)
    if scope is None:
        return False
    for assignment in scope.assignments[target.value]:
        if getattr(assignment, "node", None) is target:
            return any(id(access.node) in sites.optimizer_args for access in assignment.references)
    return False


def optimizer_key(rewrite, call: cst.Call) -> str | None:
    """The canonical TF1 optimizer `call` constructs, when its result goes to Keras compile."""
    sites = rewrite.state[NAME]
    if not sites.optimizer_args or not rewrite.watched(call.func):
        return None
    keys = {canonical(name) for name in rewrite.import_names(call.func)}
    if len(keys) != 1:
        return None
    key = keys.pop()
    if key not in OPTIMIZER_KEYS or not _used_by_compile(rewrite, sites, call):
        return None
    return key


def claimed_by_call(rewrite, call: cst.Call) -> tuple[cst.CSTNode, ...]:
    """The TF1 optimizer is this codemod's (not a finding of the generic tables)."""
    return (call.func,) if optimizer_key(rewrite, call) is not None else ()


def call_findings(rewrite, call: cst.Call) -> list[tuple]:
    """What remains of a TF1 optimizer given to compile: no Keras counterpart, or other numbers."""
    key = optimizer_key(rewrite, call)
    if key is None:
        return []
    name = "tf." + key[len("tensorflow."):]
    if key in TF1_OPTIMIZERS_WITHOUT_KERAS:
        return [(call, "MIG206", f"`{name}` is given to Keras compile, but Keras 3 has no such "
                 "optimizer (Keras 3 rejects TF1 optimizers); call left unchanged",
                 "choose a Keras optimizer (tf.keras.optimizers) and expect other numbers")]
    entry = TF1_OPTIMIZERS[key]
    if keras_arguments(entry, list(call.args)) is None:
        return [(call, "MIG206", f"`{name}(...)` has arguments that cannot be mapped to "
                 f"`{spelled(entry)}`; call left unchanged",
                 f"spell it as {spelled(entry)} with keyword arguments by hand")]
    if entry.difference:
        return [(call, "MIG206", f"`{name}` became `{spelled(entry)}`: {entry.difference}",
                 "expect the early steps to differ from TF 1.x; nothing to change")]
    return []


def leave_call(rewrite, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression | None:
    key = optimizer_key(rewrite, original_node)
    if key is None or key not in TF1_OPTIMIZERS:
        return None
    entry = TF1_OPTIMIZERS[key]
    args = keras_arguments(entry, list(updated_node.args))
    if args is None:
        return None
    rewrite.consume(original_node.func)
    return updated_node.with_changes(func=rewrite.spell(entry.target), args=args)


def gives_optimizers_to_compile(text: str) -> bool:
    """TF1 optimizers are rewritten only in modules that call `.compile(` at all."""
    return ".compile(" in text


NAME = "KerasCompileOptimizers"
CODEMOD = Codemod(
    name=NAME,
    description="Replace TF1 optimizers given to Keras compile() by the Keras optimizer with the same update.",
    order=13,
    start=start,
    leave_call=leave_call,
    claimed_by_call=claimed_by_call,
    call_findings=call_findings,
    structural_keys=OPTIMIZER_KEYS,
    applies=gives_optimizers_to_compile,
    # Its handlers act on TF1 optimizer references (watched); `start` reads the `.compile(...)`
    # calls and the assignments of such a reference: the lines naming `compile` are kept too.
    reach=lambda text: frozenset({"compile"}),
)
