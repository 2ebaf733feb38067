"""One thread for numpy's BLAS and OpenMP pools, set before numpy is first imported.

The cleaner imports numpy (the language identifier's arrays, the line model's trees) but
never does BLAS work; an OpenBLAS pool of one thread per core would only spin beside the
crawl (charging the process CPU time for nothing). Importing this module first, as the
package's ``__init__`` does, pins the pools to one thread unless the user's environment
already chose a number, or numpy was imported before (then nothing changes).
"""

from __future__ import annotations

import os
import sys

#: The environment variables that size numpy's thread pools.
THREAD_VARIABLES = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


def pin_numpy_threads() -> None:
    """Set each of :data:`THREAD_VARIABLES` to 1 unless set, if numpy is not imported yet."""
    if "numpy" in sys.modules:
        return
    for name in THREAD_VARIABLES:
        os.environ.setdefault(name, "1")


pin_numpy_threads()
