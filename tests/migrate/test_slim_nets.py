"""Every `tensorflow.contrib.slim.nets` network name either migrates to an importable tf_slim.nets
module or stays as written with a finding naming where the network lives now (tensorflow/models'
research/slim). mobilenet_v1, inception_v4, nasnet and nets_factory are networks of that
repository, which TF-Slim users imported beside TF 1.15's ten."""

import importlib

import pytest

from migrate.engine import migrate_text
from migrate.tables.contrib import SLIM_NETS

ONLY_IN_TENSORFLOW_MODELS = ("mobilenet_v1", "inception_v4", "nasnet", "nets_factory")


@pytest.mark.parametrize("net", SLIM_NETS)
def test_a_network_tf_slim_holds_is_imported_from_it(net):
    # (a name every module has: the final check reports a name the module lacks, such as `{net}.x`)
    migrated, findings = migrate_text(f"from tensorflow.contrib.slim.nets import {net}\n{net}.__name__\n", "m.py")
    assert migrated == f"from tf_slim.nets import {net}\n{net}.__name__\n"
    assert findings == []
    importlib.import_module(f"tf_slim.nets.{net}")


@pytest.mark.parametrize("spelling", ["from tensorflow.contrib.slim.nets import {net}\n{net}.build(x)\n",
                                      "import tensorflow as tf\ntf.contrib.slim.nets.{net}.build(x)\n",
                                      "from tensorflow.contrib import slim\nslim.nets.{net}.build(x)\n"])
@pytest.mark.parametrize("net", ONLY_IN_TENSORFLOW_MODELS)
def test_a_network_tf_slim_lacks_is_reported_not_rewritten(net, spelling):
    source = spelling.format(net=net)
    migrated, findings = migrate_text(source, "m.py")
    assert "tf_slim" not in migrated
    assert any("research/slim" in finding.hint and net in finding.message for finding in findings), findings
