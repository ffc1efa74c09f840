"""A web page saved under a .py name is reported as not Python, not as "Python 2 source"."""

import pytest

from migrate.engine import migrate_bytes

PAGE = b"""<!DOCTYPE html>
<html lang="en">
  <head><title>models/main.py at master</title></head>
  <body><pre>import tensorflow as tf
print "x"
tf.contrib.tpu.TPUEstimator</pre></body>
</html>
"""


@pytest.mark.parametrize("page", [PAGE, b"\n  <html>\n<body>tensorflow</body></html>\n",
                                  b"<?xml version='1.0'?>\n<svg>tensorflow</svg>\n",
                                  b"<!-- saved page -->\n<html>tensorflow</html>\n"])
def test_an_html_page_named_py_is_not_called_python_2(page):
    result = migrate_bytes(page, "main.py")
    assert result.skipped and result.migrated is None
    [finding] = result.findings
    assert finding.code == "MIG001" and "HTML" in finding.message and "2to3" not in finding.hint


def test_python_2_is_still_python_2():
    result = migrate_bytes(b"import tensorflow as tf\nprint 'hello'\n", "py2.py")
    assert [f.code for f in result.findings] == ["MIG002"]
