#!/usr/bin/env bash
# The two quick-start commands: `./dev.sh play` and `./dev.sh test`.
# Each sets up (or refreshes) the virtual environment in .venv first, so both
# work on a fresh Debian or Raspberry Pi OS machine with Python 3.11 or newer.
set -euo pipefail
cd "$(dirname "$0")"

VENV=${MAGBOARD_VENV:-.venv}

find_python() {
  for candidate in python3.13 python3.12 python3.11 python3; do
    if command -v "$candidate" >/dev/null 2>&1 &&
      "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
      echo "$candidate"
      return
    fi
  done
  echo "magboard needs Python 3.11 or newer (python3 --version says: $(python3 --version 2>&1))" >&2
  exit 1
}

setup() {  # $1: the extra to install ("" or "dev")
  if [ ! -x "$VENV/bin/python" ]; then
    local python
    python=$(find_python)
    if ! "$python" -m venv "$VENV"; then
      echo "Could not create a virtual environment. On Debian or Raspberry Pi OS: sudo apt install python3-venv" >&2
      exit 1
    fi
  fi
  local stamp="$VENV/.installed${1:+-$1}"
  if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
    # Errors only (-qq): pip's warnings here are noise a new user takes for a failure - setuptools' note on
    # every editable install of a flat layout ("Please be careful with folders in your working directory"),
    # and a pip configuration's index that lacks a package ("Location ... is ignored").  A failed install
    # still says why, and stops here.
    "$VENV/bin/python" -m pip install -qq --upgrade pip
    # Always the pure build: the tests need it (they build the compiled one themselves; README, "A compiled AI").
    env -u MAGBOARD_COMPILE "$VENV/bin/python" -m pip install -qq --editable ".${1:+[$1]}"
    touch "$stamp"
  fi
}

setup_wasm() {  # where no unix port wheel exists (x86_64 only): MicroPython's WebAssembly port in node
  [ -x "$VENV/bin/micropython" ] && return
  [ -d emulator/node_modules/@micropython/micropython-webassembly-pyscript ] && return
  if ! command -v npm >/dev/null 2>&1; then
    echo "The simulated board needs MicroPython: on $(uname -m) its WebAssembly port in node. On Debian or Raspberry Pi OS: sudo apt install nodejs npm" >&2
    exit 1
  fi
  npm ci --prefix emulator --no-audit --no-fund --loglevel=error
}

case "${1:-}" in
  play)
    shift
    setup sim
    setup_wasm
    exec "$VENV/bin/magboard" play "$@"
    ;;
  test)
    shift
    setup dev
    status=0
    # One pytest worker per core (pytest-xdist); tests that share a costly fixture share a worker (loadgroup).
    "$VENV/bin/python" -m pytest -n auto --dist loadgroup "$@" || status=1
    "$VENV/bin/ruff" check . || status=1
    "$VENV/bin/mypy" engines host || status=1
    "$VENV/bin/lint-imports" --no-logo || status=1  # the layers in pyproject.toml
    exit $status
    ;;
  *)
    echo "usage: ./dev.sh play [GAME] [options]   set up and play against the AI" >&2
    echo "       ./dev.sh test [PYTEST ARGS]        set up and run every test, ruff, mypy and lint-imports" >&2
    exit 2
    ;;
esac
