"""`keras_to_tpu_model` / `TPUDistributionStrategy` -> Keras on `tf.distribute.TPUStrategy`.

keras_to_tpu_model cloned the compiled model onto the TPU, copied its weights and compiled the
clone with the same optimizer, loss and metrics. The same in TF2, where it has to happen inside
`strategy.scope()`:

    tpu_model = tf.contrib.tpu.keras_to_tpu_model(model, strategy=tf.contrib.tpu.TPUDistributionStrategy(R))
->
    strategy = tf.distribute.TPUStrategy(<R after connect + initialize_tpu_system>)
    with strategy.scope():
        tpu_model = tf.keras.models.clone_model(model)
        tpu_model.set_weights(model.get_weights())
        tpu_model.compile_from_config(model.get_compile_config())

Handled: `X = keras_to_tpu_model(M, strategy=S)` and `return keras_to_tpu_model(...)` with X and M
names or attributes (`self.model`), S an inline TPUDistributionStrategy(R) or a name;
`S = TPUDistributionStrategy(R)` on its own line. An attribute's later `.compile(...)` runs in
`X.distribute_strategy.scope()` (the TPU strategy when the conversion ran, the default one when a
condition skipped it). Other shapes stay and are reported (MIG203). `.experimental_run_v2(` becomes `.run(`.

KerasTPUModel's own method `X.sync_to_cpu()` (the CPU model given to keras_to_tpu_model, with the
TPU weights; a Keras 3 model has no such method) becomes
`estimator_bridge.compat.keras_tpu.sync_to_cpu(X, M)` when X is a model converted above in the
same scope (notebook cells are one module); on any other receiver it is reported (MIG203) with
the replacement, since which CPU model X came from cannot be seen.
"""

from __future__ import annotations

import re
from typing import Callable, NamedTuple

import libcst as cst

from migrate.codemods.base import dotted_name
from migrate.codemods.call_arguments import argument
from migrate.codemods.registry import Codemod
from migrate.keras_target import keras_target
from migrate.resolve import canonical

KERAS_TO_TPU = "tensorflow.contrib.tpu.keras_to_tpu_model"
TPU_DISTRIBUTION = "tensorflow.contrib.tpu.TPUDistributionStrategy"
# Strategy methods renamed in TF 2.2 (a method name only tf.distribute strategies had).
RENAMED_METHODS = {"experimental_run_v2": "run"}

SYNC_TO_CPU = "sync_to_cpu"
# `x.sync_to_cpu()` (no arguments); the helper it becomes, `sync_to_cpu(x, m)`, is not work.
_SYNC_CALL = re.compile(r"\.\s*sync_to_cpu\s*\(\s*\)")
SYNC_HELPER = "estimator_bridge.compat.keras_tpu.sync_to_cpu"
# KerasTPUModel's fit/evaluate took a dataset *function* and fed each core its own batch of it.
INPUT_HELPER = "estimator_bridge.compat.keras_tpu.tpu_model_input"
INPUT_METHODS = {"fit": ("x", "validation_data"), "evaluate": ("x",)}
# `--keras 2`: the clone is tf-keras', and compiled by a helper (tf-keras models have no `compiled`, and
# their compile config does not serialise TF1 optimizers). Spelled tf_keras here: the KerasToTfKeras
# pass runs before this one, so a tf.keras spelling would be left for a second run to rewrite.
CLONE = {3: "tensorflow.keras.models.clone_model", 2: "tf_keras.models.clone_model"}
COMPILE_HELPER = "estimator_bridge.compat.keras_tpu.compile_like"

Names = Callable[[cst.CSTNode], set]


class Conversion(NamedTuple):
    """A keras_to_tpu_model conversion rewritten above: the strategy's name, the CPU model's, and
    the block (id of its IndentedBlock or Module) the conversion's lines were written in."""

    strategy: str
    source: str
    block: int


class _Blocks(cst.CSTVisitor):
    """For each statement line of a module: the ids of the blocks it sits in, innermost first; and
    for each `.fit(`/`.evaluate(` call in a statement line: that line (its scope is the call's)."""

    def __init__(self) -> None:
        self.stack: list[int] = []
        self.enclosing: dict[int, tuple[int, ...]] = {}
        self.line: cst.SimpleStatementLine | None = None
        self.input_lines: dict[int, cst.SimpleStatementLine] = {}

    def visit_Module(self, node: cst.Module) -> None:
        self.stack.append(id(node))

    def leave_Module(self, original_node: cst.Module) -> None:
        self.stack.pop()

    def visit_IndentedBlock(self, node: cst.IndentedBlock) -> None:
        self.stack.append(id(node))

    def leave_IndentedBlock(self, original_node: cst.IndentedBlock) -> None:
        self.stack.pop()

    def visit_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> None:
        self.enclosing[id(node)] = tuple(reversed(self.stack))
        self.line = node

    def leave_SimpleStatementLine(self, original_node: cst.SimpleStatementLine) -> None:
        self.line = None

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if self.line is not None and isinstance(func, cst.Attribute) and func.attr.value in INPUT_METHODS:
            self.input_lines[id(node)] = self.line


def start(rewrite, module: cst.Module) -> dict:
    """The pass's state: conversions found so far, and the blocks enclosing each statement line
    (a strategy bound inside `if use_tpu:` is no name on the path that skips the `if`)."""
    blocks = _Blocks()
    if "keras_to_tpu_model" in rewrite.source_text:
        module.visit(blocks)
    return {"conversions": {}, "blocks": blocks.enclosing, "input_lines": blocks.input_lines}


def _key(node: cst.BaseExpression, names: Names) -> str | None:
    if dotted_name(node) is None:
        return None
    keys = {canonical(name) for name in names(node)}
    return keys.pop() if len(keys) == 1 else None


def _call_of(node: cst.BaseExpression, key: str, names: Names) -> cst.Call | None:
    if isinstance(node, cst.Call) and _key(node.func, names) == key:
        return node
    return None


def strategy_resolver(call: cst.Call) -> cst.BaseExpression | None:
    """R of TPUDistributionStrategy(R) (its only argument that matters here), else None."""
    if any(arg.keyword is not None and arg.keyword.value not in ("tpu_cluster_resolver",) for arg in call.args):
        return None
    return argument(call, 0, "tpu_cluster_resolver")


def plan(line: cst.SimpleStatementLine, names: Names) -> tuple[str, dict] | None:
    """What to do with a statement line: ("strategy"|"model", parts), or None when not handled."""
    if len(line.body) != 1:
        return None
    statement = line.body[0]
    if isinstance(statement, cst.Assign) and len(statement.targets) == 1 \
            and dotted_name(statement.targets[0].target) is not None:
        target, value = dotted_name(statement.targets[0].target), statement.value
    elif isinstance(statement, cst.Return) and statement.value is not None:
        target, value = None, statement.value
    else:
        return None
    strategy_call = _call_of(value, TPU_DISTRIBUTION, names)
    if strategy_call is not None and target is not None and "." not in target:
        resolver = strategy_resolver(strategy_call)
        return None if resolver is None else ("strategy", {"name": target, "resolver": resolver,
                                                          "handled": [strategy_call.func]})
    model_call = _call_of(value, KERAS_TO_TPU, names)
    if model_call is None:
        return None
    model = argument(model_call, 0, "model")
    strategy = argument(model_call, 1, "strategy")
    if dotted_name(model) is None or strategy is None or len(model_call.args) != 2:
        return None
    handled = [model_call.func]
    inline = _call_of(strategy, TPU_DISTRIBUTION, names)
    if inline is not None:
        resolver = strategy_resolver(inline)
        if resolver is None:
            return None
        handled.append(inline.func)
        strategy = None
    elif isinstance(strategy, cst.Name):
        resolver = None
    else:
        return None
    return ("model", {"target": target, "model": dotted_name(model), "strategy": strategy, "resolver": resolver,
                      "handled": handled})


def _strategy_lines(rewrite, name: str, resolver: cst.BaseExpression) -> list[cst.BaseStatement]:
    tf = rewrite.spell("tensorflow.distribute.TPUStrategy")
    code = cst.Module([]).code_for_node
    connect = code(rewrite.spell("tensorflow.config.experimental_connect_to_cluster"))
    initialize = code(rewrite.spell("tensorflow.tpu.experimental.initialize_tpu_system"))
    lines = []
    if not isinstance(resolver, cst.Name):
        resolver_name = f"{name}_resolver"
        lines.append(cst.parse_statement(f"{resolver_name} = {code(resolver)}\n"))
    else:
        resolver_name = resolver.value
    lines += [cst.parse_statement(f"{connect}({resolver_name})\n"),
              cst.parse_statement(f"{initialize}({resolver_name})\n"),
              cst.parse_statement(f"{name} = {code(tf)}({resolver_name})\n")]
    return lines


def leave_statement(rewrite, original_node: cst.SimpleStatementLine, updated_node: cst.SimpleStatementLine):
    """The replacement lines for a handled statement (parts read from `updated_node`), else None."""
    names = rewrite.import_names
    decided = plan(original_node, names)
    if decided is None:
        return None
    handled = decided[1]["handled"]
    for func in handled:
        rewrite.consume(func)
    planned = plan(updated_node, lambda node: next((names(h) for h in handled if node.deep_equals(h)), set()))
    if planned is None:
        return None
    kind, parts = planned
    if kind == "strategy":
        lines = _strategy_lines(rewrite, parts["name"], parts["resolver"])
    else:
        strategy = parts["strategy"]
        lines = []
        if strategy is None:
            lines += _strategy_lines(rewrite, "strategy", parts["resolver"])
            strategy = "strategy"
        else:
            strategy = strategy.value
        target = parts["target"] or "tpu_model"
        code = cst.Module([]).code_for_node
        clone = code(rewrite.spell(CLONE[keras_target()]))
        model = parts["model"]
        if target == model:
            # `model = keras_to_tpu_model(model, ...)`: keep the original under another name,
            # or the clone's fresh weights would be copied onto themselves.
            source_name = unused_name(rewrite.source_text, f"cpu_{model.rsplit('.', 1)[-1]}")
            lines.append(cst.parse_statement(f"{source_name} = {model}\n"))
            model = source_name
        compiled = (f"    if {model}.compiled:\n"
                    f"        {target}.compile_from_config({model}.get_compile_config())\n"
                    if keras_target() == 3 else f"    {code(rewrite.spell(COMPILE_HELPER))}({target}, {model})\n")
        body = (f"with {strategy}.scope():\n"
                f"    {target} = {clone}({model})\n"
                f"    {target}.set_weights({model}.get_weights())\n"
                + compiled)
        lines.append(cst.parse_statement(body))
        scope = _scope_of(rewrite, original_node)
        if scope is not None and parts["target"] is not None:
            state = rewrite.state[NAME]
            block = state["blocks"].get(id(original_node), (0,))[0]
            state["conversions"][(id(scope), target)] = Conversion(strategy, model, block)
        if parts["target"] is None:
            lines.append(cst.parse_statement(f"return {target}\n"))
    lines[0] = lines[0].with_changes(leading_lines=original_node.leading_lines)
    return cst.FlattenSentinel(lines)


def _scope_of(rewrite, line: cst.SimpleStatementLine):
    """The libcst scope (function or module) a statement line runs in, or None."""
    return rewrite.statement_scope(line.body[0]) if line.body else None


def _compile_receiver(line: cst.SimpleStatementLine) -> str | None:
    """`m` for a statement line `m.compile(...)`, else None."""
    if len(line.body) != 1 or not isinstance(line.body[0], cst.Expr):
        return None
    call = line.body[0].value
    if not isinstance(call, cst.Call):
        return None
    func = call.func
    if isinstance(func, cst.Attribute) and func.attr.value == "compile":
        return dotted_name(func.value)
    return None


def compile_in_scope(rewrite, original_node: cst.SimpleStatementLine, updated_node: cst.SimpleStatementLine):
    """`<converted model>.compile(...)` after the conversion -> the same line in the strategy's scope.

    The 2018 colabs converted an uncompiled model and compiled the TPU model after; Keras 3
    refuses an optimizer created outside the model's strategy scope ("Mixing different
    tf.distribute.Strategy objects"), so the line moves into `with <strategy>.scope():`.
    """
    state = rewrite.state.get(NAME)
    converted = state["conversions"] if state else None
    if not converted:
        return None
    target = _compile_receiver(original_node)
    scope = _scope_of(rewrite, original_node) if target is not None else None
    conversion = converted.get((id(scope), target)) if scope is not None else None
    if conversion is None:
        return None
    # a model converted behind a condition (`if use_tpu:`) and compiled after it on both paths: the
    # strategy's name is bound on one path only, the model's own strategy (the converted one or the
    # default) on both. An attribute (`self.model`) is converted so more often than not.
    inside = conversion.block in state["blocks"].get(id(original_node), ())
    strategy = conversion.strategy if inside and "." not in target else f"{target}.distribute_strategy"
    wrapper = cst.parse_statement(f"with {strategy}.scope():\n    pass\n")
    inner = updated_node.with_changes(leading_lines=())
    return wrapper.with_changes(body=wrapper.body.with_changes(body=[inner]), leading_lines=updated_node.leading_lines)


def _sync_receiver(call: cst.CSTNode) -> str | None:
    """`X` of a call `X.sync_to_cpu()` (no arguments, X a name), else None."""
    if not isinstance(call, cst.Call) or call.args:
        return None
    func = call.func
    if isinstance(func, cst.Attribute) and func.attr.value == SYNC_TO_CPU:
        return dotted_name(func.value)
    return None


class _SyncCalls(cst.CSTVisitor):
    """`.sync_to_cpu(...)` calls in a statement line, in order."""

    def __init__(self) -> None:
        self.calls: list[cst.Call] = []

    def visit_Call(self, node: cst.Call) -> None:
        if isinstance(node.func, cst.Attribute) and node.func.attr.value == SYNC_TO_CPU:
            self.calls.append(node)


def _mentions_sync_to_cpu(text: str) -> bool:
    return SYNC_TO_CPU in text


def _converted_sync_calls(rewrite, line: cst.SimpleStatementLine) -> tuple[list[cst.Call], dict[int, Conversion]]:
    """The line's sync_to_cpu calls, and those whose receiver is a model converted in its scope (by id)."""
    if not rewrite.source_has(_mentions_sync_to_cpu):
        return [], {}
    finder = _SyncCalls()
    line.visit(finder)
    if not finder.calls:
        return [], {}
    converted = (rewrite.state.get(NAME) or {}).get("conversions", {})
    scope = _scope_of(rewrite, line)
    known = {}
    for call in finder.calls:
        receiver = _sync_receiver(call)
        conversion = converted.get((id(scope), receiver)) if receiver is not None and scope is not None else None
        if conversion is not None:
            known[id(call)] = conversion
    return finder.calls, known


class _SyncRewrite(cst.CSTTransformer):
    """`X.sync_to_cpu()` -> `<helper>(X, M)` for the calls of `known` (original ids, in order)."""

    def __init__(self, rewrite, calls: list[cst.Call], known: dict[int, Conversion]) -> None:
        self.helper = rewrite.spell(SYNC_HELPER)
        self.pending = [known.get(id(call)) for call in calls]

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        if not (isinstance(original_node.func, cst.Attribute) and original_node.func.attr.value == SYNC_TO_CPU):
            return updated_node
        conversion = self.pending.pop(0) if self.pending else None
        if conversion is None or _sync_receiver(updated_node) is None:
            return updated_node
        return cst.Call(func=self.helper, args=[cst.Arg(updated_node.func.value),
                                                cst.Arg(cst.parse_expression(conversion.source))])


def sync_to_cpu_findings(rewrite, line: cst.SimpleStatementLine) -> list[tuple]:
    """MIG203 for `.sync_to_cpu()` on a receiver that is no model converted in this scope."""
    calls, known = _converted_sync_calls(rewrite, line)
    return [(call, "MIG203", "`.sync_to_cpu()` was a method of TF 1.x's KerasTPUModel (the model "
             "keras_to_tpu_model returned): a Keras 3 model has none (AttributeError), and the model it "
             "copies the TPU weights into is not known here",
             "call `estimator_bridge.compat.keras_tpu.sync_to_cpu(tpu_model, cpu_model)` with the model "
             "that was given to keras_to_tpu_model (or read the weights of the TPU model itself: "
             "`tpu_model.get_weights()`)")
            for call in calls if id(call) not in known]


def sync_to_cpu_in_line(rewrite, original_node: cst.SimpleStatementLine,
                        updated_node: cst.SimpleStatementLine) -> cst.SimpleStatementLine | None:
    calls, known = _converted_sync_calls(rewrite, original_node)
    if not known:
        return None
    return updated_node.visit(_SyncRewrite(rewrite, calls, known))


class _InputRewrite(cst.CSTTransformer):
    """`X.fit(data, ..., validation_data=V)` / `X.evaluate(data, ...)` on a converted model X ->
    `data` and `V` through INPUT_HELPER (inside `restarted_each_epoch(V)` when that wraps V)."""

    def __init__(self, rewrite, converted: set[str]) -> None:
        self.rewrite, self.converted, self.changed = rewrite, converted, False

    def _wrap(self, value: cst.BaseExpression, receiver: cst.BaseExpression) -> cst.BaseExpression:
        if isinstance(value, cst.Call) and (dotted_name(value.func) or "").endswith("restarted_each_epoch") \
                and len(value.args) == 1:
            return value.with_changes(args=[value.args[0].with_changes(value=self._wrap(value.args[0].value, receiver))])
        if _is_input_helper(value):
            return value
        self.changed = True
        return cst.Call(func=self.rewrite.spell(INPUT_HELPER),
                        args=[cst.Arg(value, comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))),
                              cst.Arg(receiver)])

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        func = updated_node.func
        if not (isinstance(func, cst.Attribute) and dotted_name(func.value) in self.converted):
            return updated_node
        wanted = dataset_arguments(updated_node)
        if not wanted:
            return updated_node
        args = [arg.with_changes(value=self._wrap(arg.value, func.value)) if index in wanted else arg
                for index, arg in enumerate(updated_node.args)]
        return updated_node.with_changes(args=args)


def dataset_arguments(call: cst.Call) -> set[int]:
    """Indexes of the arguments of `X.fit(...)` / `X.evaluate(...)` that may be dataset functions
    (x, validation_data); x given with y, and (x, y) tuples or lists, are arrays."""
    func = call.func
    if not (isinstance(func, cst.Attribute) and func.attr.value in INPUT_METHODS):
        return set()
    wanted = set(INPUT_METHODS[func.attr.value])
    positional = [arg for arg in call.args if arg.keyword is None]
    if len(positional) > 1 or any(arg.keyword is not None and arg.keyword.value == "y" for arg in call.args):
        wanted.discard("x")   # x with y: arrays (KerasTPUModel refused y with a dataset function)
    found = set()
    for index, arg in enumerate(call.args):
        name = arg.keyword.value if arg.keyword is not None else ("x" if arg is positional[0] and not arg.star else None)
        if name in wanted and not isinstance(arg.value, (cst.Tuple, cst.List)):   # (x_val, y_val): arrays
            found.add(index)
    return found


def _is_input_helper(node: cst.BaseExpression) -> bool:
    return isinstance(node, cst.Call) and (dotted_name(node.func) or "").endswith("tpu_model_input")


def feeds_tpu_model_input(rewrite, original_node: cst.Call, call: cst.Call) -> bool:
    """Whether the x of `call` (the original call `original_node` as other call rewrites left it)
    is fed through INPUT_HELPER: by this codemod's statement rewrite (a converted model's
    fit/evaluate given a dataset function) or already (its output, migrated again). Call rewrites
    that would wrap the whole call, hiding `X.evaluate(` from the statement rewrite, which runs
    after them, leave such a call."""
    wrapped = dataset_arguments(call)
    positional = [arg for arg in call.args if arg.keyword is None]
    x = next((index for index, arg in enumerate(call.args)
              if (arg.keyword is not None and arg.keyword.value == "x") or (positional and arg is positional[0])), None)
    if x not in wrapped:
        return False
    if _is_input_helper(call.args[x].value):
        return True
    state = rewrite.state.get(NAME)
    line = state["input_lines"].get(id(original_node)) if state and state["conversions"] else None
    receiver = dotted_name(call.func.value)
    scope = _scope_of(rewrite, line) if line is not None and receiver is not None else None
    return scope is not None and (id(scope), receiver) in state["conversions"]


def inputs_in_line(rewrite, original_node: cst.SimpleStatementLine,
                   updated_node: cst.SimpleStatementLine) -> cst.SimpleStatementLine | None:
    """The line with its converted models' fit/evaluate inputs through INPUT_HELPER, or None."""
    converted = (rewrite.state.get(NAME) or {}).get("conversions")
    if not converted or not any(f".{method}" in rewrite.source_text for method in INPUT_METHODS):
        return None
    scope = _scope_of(rewrite, original_node)
    names = {target for (scope_id, target) in converted if scope is not None and scope_id == id(scope)}
    if not names:
        return None
    transformer = _InputRewrite(rewrite, names)
    rewritten = updated_node.visit(transformer)
    return rewritten if transformer.changed else None


def leave_any_statement(rewrite, original_node: cst.SimpleStatementLine, updated_node: cst.SimpleStatementLine):
    rewritten = leave_statement(rewrite, original_node, updated_node)
    if rewritten is not None:
        return rewritten
    changed = None
    for step in (sync_to_cpu_in_line, inputs_in_line):
        result = step(rewrite, original_node, updated_node)
        if result is not None:
            updated_node = changed = result
    moved = compile_in_scope(rewrite, original_node, updated_node)
    return moved if moved is not None else changed


def any_line(text: str) -> bool:
    """Can this codemod act on lines without a TensorFlow name? Only after a conversion (the
    compile moved into the scope, `X.sync_to_cpu()`) or on a renamed strategy method."""
    return "keras_to_tpu_model" in text or any(word in text for word in RENAMED_METHODS) \
        or _SYNC_CALL.search(text) is not None


def unused_name(text: str, wanted: str) -> str:
    """`wanted`, or `wanted_2`, ... : a name the module's source `text` does not mention."""
    candidate, number = wanted, 1
    while re.search(rf"\b{re.escape(candidate)}\b", text):
        number += 1
        candidate = f"{wanted}_{number}"
    return candidate


def leave_attribute(rewrite, original_node: cst.Attribute, updated_node: cst.Attribute) -> cst.Attribute | None:
    """`x.experimental_run_v2` -> `x.run` when `x` is not a TensorFlow module."""
    if updated_node.attr.value not in RENAMED_METHODS:
        return None
    if rewrite.import_names(original_node):
        return None
    return updated_node.with_changes(attr=cst.Name(RENAMED_METHODS[updated_node.attr.value]))


def claimed_by_statement(rewrite, line: cst.SimpleStatementLine) -> list[cst.CSTNode]:
    planned = plan(line, rewrite.import_names)
    return [] if planned is None else planned[1]["handled"]


NAME = "KerasToTPUStrategy"
CODEMOD = Codemod(
    name=NAME,
    description="Turn keras_to_tpu_model/TPUDistributionStrategy into a Keras model compiled in TPUStrategy.scope().",
    order=12,
    start=start,
    leave_statement=leave_any_statement,
    leave_attribute=leave_attribute,
    claimed_by_statement=claimed_by_statement,
    statement_findings=sync_to_cpu_findings,
    structural_keys=frozenset({KERAS_TO_TPU, TPU_DISTRIBUTION}),
    source_words=tuple(RENAMED_METHODS),
    text_trigger=lambda text: _SYNC_CALL.search(text) is not None,
    reach=lambda text: None if any_line(text) else frozenset(),
)
