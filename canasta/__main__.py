import sys

from canasta import main

sys.exit(main())
