"""The main job: run the shipped legacy examples on current TensorFlow and compare with their goldens.

Until the examples and goldens land (issue 4) this is a smoke check of the installation: the
codemod CLI answers, both packages import, and current TensorFlow is the one we target.
"""

from __future__ import annotations

import subprocess
import sys


def main() -> int:
    subprocess.run([sys.executable, "-m", "migrate", "--help"], check=True)
    import tensorflow as tf

    import estimator_bridge
    import migrate

    print(f"smoke check: tensorflow {tf.__version__}, estimator_bridge {estimator_bridge.__version__}, "
          f"migrate {migrate.__version__}: OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
