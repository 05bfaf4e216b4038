#!/usr/bin/env bash
# The Raspberry Pi path, proven without a Pi: a Debian bookworm arm64 userland (what Raspberry Pi
# OS 64-bit is built on) run under qemu-user-static, the project installed in it as the README's
# Pi section says, and the quick start, the AI, doctor and the service checked there.
#
#   sudo apt-get install debootstrap qemu-user-static binfmt-support     # once, on any Debian machine
#   sudo benchmarks/pi_arm64.sh                            # prints a table; exit 1 if a row failed
#
# The userland is made once and kept in $MAGBOARD_PI_CACHE (/var/cache/magboard-pi); /proc, /sys and
# /dev are mounted into it only while the script runs and always unmounted on the way out, so the
# script can be run again at any time. Each run copies the work tree in afresh and installs it anew.
set -uo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
CACHE=${MAGBOARD_PI_CACHE:-/var/cache/magboard-pi}
USERLAND=$CACHE/bookworm-arm64
MIRROR=${MAGBOARD_PI_MIRROR:-http://deb.debian.org/debian}
# What the README's Pi section has Raspberry Pi OS install with apt, and systemd for systemd-analyze.
PACKAGES=python3,python3-venv,nodejs,npm,systemd,ca-certificates
SECONDS_PER_MOVE=1
LOG=$CACHE/last-run
MOUNTED=()

die() {
  echo "pi_arm64: $*" >&2
  exit 1
}

unmount_all() {
  local i
  for ((i = ${#MOUNTED[@]} - 1; i >= 0; i--)); do
    umount -l "${MOUNTED[i]}" 2>/dev/null || true
  done
  MOUNTED=()
  # Whatever a killed debootstrap left mounted in a half-made userland.
  grep -o " $CACHE/[^ ]*" /proc/mounts 2>/dev/null | sort -r | while read -r dir; do
    umount -l "$dir" 2>/dev/null || true
  done
}
trap unmount_all EXIT
trap 'exit 130' INT TERM

bind() {  # $1: a host path, mounted at the same path inside the userland
  mkdir -p "$USERLAND$1"
  mount --bind "$1" "$USERLAND$1" && MOUNTED+=("$USERLAND$1")
}

make_userland() {
  [ -f "$USERLAND/.magboard-complete" ] && return 0
  local partial=$USERLAND.partial
  echo "making the arm64 userland in $USERLAND (once; about 40 minutes on a busy 2-core machine) ..." >&2
  # debootstrap's own resolver cannot order npm's hundreds of dependencies (--include=npm left them
  # unconfigured): it lays the base only, and apt installs the rest inside.
  if [ ! -f "$partial/.debootstrapped" ]; then
    unmount_all
    rm -rf "$partial"
    debootstrap --arch=arm64 --variant=minbase bookworm "$partial" "$MIRROR" >"$CACHE/debootstrap.log" 2>&1 ||
      die "debootstrap failed: see $CACHE/debootstrap.log"
    unmount_all
    touch "$partial/.debootstrapped"
  fi
  echo "deb $MIRROR bookworm main" >"$partial/etc/apt/sources.list"
  cp /etc/resolv.conf "$partial/etc/resolv.conf"
  local dir
  for dir in /proc /sys /dev /dev/pts; do
    mkdir -p "$partial$dir"
    mount --bind "$dir" "$partial$dir" && MOUNTED+=("$partial$dir")
  done
  chroot "$partial" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive \
    bash -c "dpkg --configure -a; apt-get update -q && apt-get -f install -y -q && apt-get install -y -q --no-install-recommends ${PACKAGES//,/ }" \
    >"$CACHE/apt.log" 2>&1 || die "apt-get install in the userland failed: see $CACHE/apt.log"
  unmount_all
  touch "$partial/.magboard-complete"
  rm -rf "$USERLAND"
  mv "$partial" "$USERLAND"
}

[ "$(id -u)" = 0 ] || die "run as root (debootstrap, chroot and mount need it)"
command -v debootstrap >/dev/null || die "no debootstrap: apt-get install debootstrap"
if [ ! -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ] && command -v update-binfmts >/dev/null; then
  # Where no systemd runs (a container, a CI machine), installing qemu-user-static registers nothing.
  mountpoint -q /proc/sys/fs/binfmt_misc || mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
  update-binfmts --enable qemu-aarch64 >/dev/null 2>&1
fi
[ -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ] || die "no arm64 emulation: apt-get install qemu-user-static binfmt-support"
mkdir -p "$CACHE" "$LOG"
make_userland
[ "${1:-}" = "--userland-only" ] && exit 0

# --- the project in the userland ------------------------------------------------------------------
[ "$(chroot "$USERLAND" uname -m)" = aarch64 ] || die "the userland does not run as aarch64"
for dir in /proc /sys /dev /dev/pts; do
  bind "$dir" || die "cannot mount $dir into $USERLAND"
done
cp /etc/resolv.conf "$USERLAND/etc/resolv.conf"
# This machine's certificate authorities (a registry proxy's among them), for pip and npm inside.
cp /etc/ssl/certs/ca-certificates.crt "$USERLAND/etc/ssl/certs/ca-certificates.crt"
rm -rf "$USERLAND/root/magboard" "$LOG" && mkdir -p "$USERLAND/root/magboard" "$LOG"
tar -C "$ROOT" --exclude=./.venv --exclude=./.git --exclude=node_modules --exclude=__pycache__ \
  --exclude=./build --exclude='*.egg-info' -cf - . | tar -C "$USERLAND/root/magboard" -xf -

inside() {  # a command in the userland's project folder, as a login there would run it
  chroot "$USERLAND" /usr/bin/env -i HOME=/root LANG=C.UTF-8 PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin \
    NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt PIP_CERT=/etc/ssl/certs/ca-certificates.crt \
    bash -c "set -o pipefail; cd /root/magboard && $1"
}

ROWS=()
FAILED=0
row() {  # $1: the row's name, $2: the command inside, $3: a check of its output file (a shell test), $4: what to show
  local name=$1 start end status out=$LOG/$1.txt
  start=$(date +%s)
  inside "$2" >"$out" 2>&1 </dev/null
  status=$?
  end=$(date +%s)
  local detail
  detail=$(inside "$4" 2>/dev/null < /dev/null | head -1)
  if [ $status -eq 0 ] && inside "$3" </dev/null >/dev/null 2>&1; then
    ROWS+=("$(printf '| %-22s | ok   | %5s s | %s |' "$name" $((end - start)) "$detail")")
  else
    FAILED=1
    [ -n "$detail" ] || detail=$(tail -1 "$out" | cut -c1-120)
    ROWS+=("$(printf '| %-22s | FAIL | %5s s | exit %s: %s |' "$name" $((end - start)) "$status" "$detail")")
  fi
  echo "${ROWS[-1]}" >&2
}

LOGS=/root/magboard-check  # the outputs, inside the userland (also in $LOG outside)
mkdir -p "$USERLAND$LOGS"
printf 'lift a4\nwait 5000\nplace a6\nwait 10000\n' >"$USERLAND$LOGS/moves.txt"
started=$(date +%s)
row install "rm -rf .venv && python3 -m venv .venv && .venv/bin/pip install --quiet -e '.[pi]'" \
  ".venv/bin/magboard games | grep -q flipfour" \
  ".venv/bin/python -m pip list 2>/dev/null | grep -iE '^(rpi-lgpio|adafruit-circuitpython-neopixel|mpremote) ' | tr -s ' ' | paste -sd, -"
# The quick start's own game and board (Desdemona on its 7x16 Hall build), as `./dev.sh play` starts it.
row play-script "./dev.sh play --humans --new --no-browser --script $LOGS/moves.txt --journal $LOGS/games.sqlite3 | tee $LOGS/play.jsonl" \
  "grep -q '\"event\": \"commit\", \"move\": \"a4-a6\"' $LOGS/play.jsonl" \
  "echo 'a4-a6 committed on the simulated desdemona-hall (MicroPython WebAssembly in node)'"
for game in $(inside ".venv/bin/magboard games" | awk '{print $1}'); do
  row "analyse $game" ".venv/bin/magboard analyse $game --seconds $SECONDS_PER_MOVE | tee $LOGS/analyse-$game.json" \
    ".venv/bin/python -c 'import json,sys; sys.exit(json.load(open(\"$LOGS/analyse-$game.json\"))[\"nodes\"] <= 1000)'" \
    ".venv/bin/python -c 'import json; a = json.load(open(\"$LOGS/analyse-$game.json\")); print(\"%s depth %s, %s nodes in %s s\" % (a[\"algorithm\"], a[\"depth\"], a[\"nodes\"], a[\"seconds\"]))'"
done
# The doctor walks a piece over every cell: the 19 of Flip Four's reed build take a minute here.
row doctor ".venv/bin/magboard doctor --board flipfour-reed | tee $LOGS/doctor.txt" "grep -q 'all checks passed' $LOGS/doctor.txt" \
  "tail -1 $LOGS/doctor.txt"
row service ".venv/bin/magboard service install --dry-run >$LOGS/service.txt && sed -n '/^# \/etc\/systemd\/system\/magboard.service/,/^# \/etc\/udev/p' $LOGS/service.txt | sed '1d;\$d' >$LOGS/magboard.service && systemd-analyze verify $LOGS/magboard.service" \
  "grep -q '^ExecStart=/root/magboard/.venv/bin/magboard play' $LOGS/magboard.service" \
  "echo 'unit verified by systemd-analyze'"
elapsed=$(($(date +%s) - started))
cp -r "$USERLAND$LOGS/." "$LOG/"

echo
echo "| check                  | ok?  |    time | what it showed |"
echo "| ---------------------- | ---- | ------- | -------------- |"
printf '%s\n' "${ROWS[@]}"
echo
echo "bookworm arm64 under qemu-user on $(uname -m), $(nproc) cores: ${elapsed} s for the rows (outputs in $LOG)"
exit $FAILED
