# The README's commands. `start` and `test` install what they need and are safe to run twice; `check` is the
# inner loop (types, lint, format, unit tests; no database, browser or Android) on an installed workspace.
.PHONY: start test check

start:
	@bash .ci/start.sh

test:
	@bash .ci/test.sh

check:
	@bash .ci/check.sh
