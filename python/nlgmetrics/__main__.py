import sys

try:
    from .cli import main
except KeyboardInterrupt:  # Ctrl-C while the modules load: the CLI's status, no traceback
    sys.stderr.write("nlgmetrics: interrupted\n")
    sys.exit(130)

sys.exit(main())
