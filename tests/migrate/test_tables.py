"""The tables: every TensorFlow target exists in the installed TensorFlow, every bridge target is in
the bridge's API table (and shipped, but for an explicit allow-list), the tables are disjoint, and
the generated tables are what their generators produce today."""

import importlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

from migrate.codemods import PIPELINE
from migrate.tables import contrib, estimator, keras, layers, cluster_resolvers
from migrate.tables.bridge_api import BRIDGE_API
from migrate.tables.entries import Replacement, Target
from migrate.tables.tf1_compat import MOVED_MODULES, MOVED_NAMES, COMPATIBLE_CALLS

REPLACEMENT_TABLES = {
    "estimator": estimator.ESTIMATOR, "layers": layers.LAYERS, "cluster_resolvers": cluster_resolvers.CLUSTER_RESOLVERS,
    "contrib": contrib.CONTRIB, "keras": keras.KERAS,
}
ALL_TARGETS = sorted({entry.target for table in REPLACEMENT_TABLES.values() for entry in table.values()}
                     | {"tensorflow.data.AUTOTUNE"})  # written by codemods/contrib_data.py

# Bridge names the bridge does not ship yet (the core helper is building them). When one ships,
# this test fails until it is removed here: the list can only shrink.
BRIDGE_NOT_YET_SHIPPED: set[str] = set()


def _resolve(dotted: str):
    top, _, rest = dotted.partition(".")
    value = importlib.import_module(top)
    for index, part in enumerate(rest.split(".") if rest else (), start=1):
        if dotted.split(".")[:2] == ["tf_slim", "nets"]:
            importlib.import_module("tf_slim.nets")  # the codemod writes `import tf_slim.nets` for these
        value = getattr(value, part)
    return value


@pytest.fixture(scope="module")
def tf():
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    import tensorflow
    return tensorflow


def test_every_tensorflow_and_keras_target_exists(tf):
    missing = []
    for target in ALL_TARGETS:
        if Replacement(target).library is Target.BRIDGE:
            continue
        try:
            _resolve(target)
        except (AttributeError, ImportError) as error:
            missing.append(f"{target}: {error}")
    assert missing == []


def test_every_slim_network_target_is_a_module_of_the_installed_tf_slim(tf):
    """`from tensorflow.contrib.slim.nets import mobilenet_v1` became `from tf_slim.nets import
    mobilenet_v1`, which tf-slim 1.1.0 lacks: a rewrite reaching below a table key lands on the
    target's attributes, so a package key must not stand for networks its target does not hold."""
    slim_nets = {key: entry.target for key, entry in contrib.CONTRIB.items()
                 if key.startswith("tensorflow.contrib.slim.nets")}
    assert "tensorflow.contrib.slim.nets" not in slim_nets  # one key per network, none for the package
    assert sorted(slim_nets) == sorted(f"tensorflow.contrib.slim.nets.{net}" for net in contrib.SLIM_NETS)
    for target in slim_nets.values():
        importlib.import_module(target)  # the codemod writes `from tf_slim.nets.inception_v3 import ...`


def test_every_compat_v1_target_exists(tf):
    missing = []
    for name in sorted(MOVED_MODULES | MOVED_NAMES | set(COMPATIBLE_CALLS)):
        try:
            _resolve(f"tensorflow.compat.v1.{name}")
        except AttributeError as error:
            missing.append(f"tf.compat.v1.{name}: {error}")
    assert missing == []


def test_every_bridge_target_is_in_the_bridge_api_table():
    bridge_targets = {t[len("estimator_bridge."):] for t in ALL_TARGETS if t.startswith("estimator_bridge.")}
    assert bridge_targets <= BRIDGE_API, bridge_targets - BRIDGE_API


def test_bridge_api_is_shipped_except_the_allow_list():
    import importlib

    import estimator_bridge  # noqa: F401 (what `import estimator_bridge` gives the rewritten code)
    missing = set()
    for name in BRIDGE_API:
        try:
            if name.startswith("compat."):  # the codemod imports compat submodules themselves
                importlib.import_module("estimator_bridge." + ".".join(name.split(".")[:2]))
            _resolve(f"estimator_bridge.{name}")
        except AttributeError:
            missing.add(name)
    assert missing == BRIDGE_NOT_YET_SHIPPED, (
        f"shipped now (remove from BRIDGE_NOT_YET_SHIPPED): {sorted(BRIDGE_NOT_YET_SHIPPED - missing)}; "
        f"missing but not allowed: {sorted(missing - BRIDGE_NOT_YET_SHIPPED)}")


def test_replacement_tables_are_disjoint():
    seen = {}
    for name, table in REPLACEMENT_TABLES.items():
        for key in table:
            assert key not in seen, f"{key} is in both {seen.get(key)} and {name}"
            seen[key] = name


def test_tables_import_no_libcst():
    code = ("import sys; import migrate.tables.contrib, migrate.tables.estimator, migrate.tables.layers, "
            "migrate.tables.tf1_compat, migrate.tables.bridge_api, migrate.tables.aliases; "
            "assert 'libcst' not in sys.modules, 'tables must be data only'")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=Path(__file__).parents[2])


def test_every_codemod_has_a_one_line_description():
    for codemod in PIPELINE:
        assert codemod.description and "\n" not in codemod.description


@pytest.mark.slow
def test_generated_compat_table_is_up_to_date():
    # Rendered in a fresh interpreter, as the generator is run by hand: in the whole suite's
    # process other tests have imported TF submodules and run the compat runner, and
    # `tf.compat.v1.nn` then walked as a plain attribute (the CI run of 09b2f85 failed so).
    from migrate.tables import generate_tf1_compat
    program = "import sys, tensorflow as tf; from migrate.tables import generate_tf1_compat as g; sys.stdout.write(g.render(tf))"
    rendered = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, check=True,
                              timeout=600, cwd=Path(generate_tf1_compat.__file__).parents[2]).stdout
    assert rendered == (Path(generate_tf1_compat.__file__).with_name("tf1_compat.py")).read_text()


def test_no_hint_is_recorded_for_a_member_the_codemod_always_rewrites():
    # stale hints: tf_slim.layers.conv2d/fully_connected/... stayed in hints.py after contrib_layers.py
    # took those names over, and tf.train.list_variables etc. after their rewrite; a hint is read only
    # for names that are reported, so such an entry is dead and misleads whoever reads the table
    from migrate.tables.contrib import CONTRIB
    from migrate.tables.entries import Replacement
    from migrate.tables.hints import HINTS

    stale = [name for name in HINTS if name.count(".") >= 3 and isinstance(CONTRIB.get(name), Replacement)
             and not CONTRIB[name].unsupported_kwargs]
    assert stale == []
