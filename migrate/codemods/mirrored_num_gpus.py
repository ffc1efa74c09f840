"""`tf.contrib.distribute.MirroredStrategy(num_gpus=N)` -> `tf.distribute.MirroredStrategy(devices=[...])`.

TF 1.15's contrib MirroredStrategy took a GPU count (`num_gpus`, or `num_gpus_per_worker`) and
mirrored over `/device:GPU:0` ... `/device:GPU:N-1`, or over `/device:CPU:0` when N was 0
(contrib/distribute/python/mirrored_strategy.py -> mirrored_strategy.all_local_devices). TF 2's
class takes only the device list, so the count becomes that list: written out for a literal count,
computed for any other expression. Calls with arguments TF 2 lacks (`auto_shard_dataset`,
`cross_tower_ops`) or positional arguments are left to the generic table, which reports them.
"""

from __future__ import annotations

import libcst as cst

from migrate.codemods.registry import Codemod, watched_names_only
from migrate.resolve import canonical

KEYS = frozenset({"tensorflow.contrib.distribute.MirroredStrategy"})
COUNT_KEYWORDS = ("num_gpus", "num_gpus_per_worker")
KEPT_KEYWORDS = frozenset({"cross_device_ops"})
TARGET = "tensorflow.distribute.MirroredStrategy"


def _count_argument(rewrite, call: cst.Call) -> cst.Arg | None:
    """The `num_gpus=`/`num_gpus_per_worker=` argument of a call this codemod rewrites."""
    if not rewrite.watched(call.func):
        return None
    keys = {canonical(name) for name in rewrite.import_names(call.func)}
    if keys != set(KEYS):
        return None
    counts = [arg for arg in call.args if arg.keyword is not None and arg.keyword.value in COUNT_KEYWORDS]
    others = [arg for arg in call.args if arg not in counts]
    if len(counts) != 1 or any(arg.keyword is None or arg.keyword.value not in KEPT_KEYWORDS
                               for arg in others):
        return None
    return counts[0]


def _devices(count: cst.BaseExpression) -> cst.BaseExpression:
    if isinstance(count, cst.Integer):
        devices = [f'"/device:GPU:{index}"' for index in range(int(count.value, 0))] or ['"/device:CPU:0"']
        return cst.parse_expression(f"[{', '.join(devices)}]")
    code = cst.Module([]).code_for_node(count)
    return cst.parse_expression(f'[f"/device:GPU:{{index}}" for index in range({code})] or ["/device:CPU:0"]')


def claimed_by_call(rewrite, call: cst.Call) -> tuple[cst.CSTNode, ...]:
    return (call.func,) if _count_argument(rewrite, call) is not None else ()


def leave_call(rewrite, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression | None:
    count = _count_argument(rewrite, original_node)
    if count is None:
        return None
    index = list(original_node.args).index(count)
    args = list(updated_node.args)
    args[index] = args[index].with_changes(keyword=cst.Name("devices"), value=_devices(args[index].value))
    rewrite.consume(original_node.func)
    return updated_node.with_changes(func=rewrite.spell(TARGET), args=args)


CODEMOD = Codemod(
    name="MirroredStrategyGpuCount",
    description="Replace contrib MirroredStrategy(num_gpus=N) by tf.distribute.MirroredStrategy(devices=[...]).",
    order=14,
    leave_call=leave_call,
    claimed_by_call=claimed_by_call,
    structural_keys=KEYS,
    reach=watched_names_only,
)
