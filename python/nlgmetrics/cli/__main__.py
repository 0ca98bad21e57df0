from nlgmetrics.__main__ import run

run()  # `python -m nlgmetrics.cli`: as `python -m nlgmetrics` (the package's modules are loaded by now)
