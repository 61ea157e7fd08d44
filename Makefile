# The README's two commands. Both install what they need and are safe to run twice.
.PHONY: start test

start:
	@bash .ci/start.sh

test:
	@bash .ci/test.sh
