"""Settings of the whole test run."""

from __future__ import annotations

import signal


def pytest_configure() -> None:
    """Ctrl-C as from a terminal. The tests of Ctrl-C send SIGINT to the commands they
    start. A run started where SIGINT is ignored (a shell's background job, a CI runner
    without job control) hands that on to every command it starts, and Python then never
    raises KeyboardInterrupt: the commands ran on to the end, and those tests failed.
    Here SIGINT is taken as a terminal's Ctrl-C for the whole run."""
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
