"""``python -m demo_site`` is a shortcut for ``python -m demo_site.server``."""

import sys

from .server import main

sys.exit(main())
