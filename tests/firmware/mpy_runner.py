"""A tiny test runner for MicroPython, which has neither unittest nor pytest.

    micropython mpy_runner.py MODULE [MODULE ...]

Imports each test module from this directory and calls every function whose
name starts with test_, in name order. Prints one line per failure with its
traceback, then "RESULT <passed> <failed>"; exits 1 when anything failed.
"""

import sys

HERE = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
if HERE not in sys.path:
    sys.path.insert(0, HERE)


def run(names):
    passed = 0
    failed = 0
    for name in names:
        module = __import__(name)
        for attr in sorted(dir(module)):
            if not attr.startswith("test_"):
                continue
            try:
                getattr(module, attr)()
                passed += 1
            except Exception as exc:  # report every failure, keep going
                failed += 1
                print("FAIL", name + "." + attr)
                sys.print_exception(exc)
    print("RESULT", passed, failed)
    return failed


if __name__ == "__main__":
    sys.exit(1 if run(sys.argv[1:]) else 0)
