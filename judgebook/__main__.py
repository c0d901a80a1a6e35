import sys

from judgebook.cli import main

sys.exit(main())
