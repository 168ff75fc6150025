#!/usr/bin/env bash
# Set up a Raspberry Pi OS machine (Bookworm: Debian 12, Python 3.11; or the 2025
# release, Trixie: Debian 13, Python 3.13) to run splendor-companion at boot on
# its screen:
#
#   1. system packages from apt (picamera2 and lgpio only come from there);
#   2. the user `splendor`, in the groups gpio, video, render, input;
#   3. a virtual environment in /opt/splendor-companion that sees apt's
#      packages (--system-site-packages), with this project installed in it;
#   4. /etc/splendor-companion/config.toml (only if absent: edits are kept);
#   5. the systemd unit, enabled.
#
# Run it again at any time (after `git pull`, say): every step is idempotent.
# Usage: sudo systemd/install-pi.sh [--dry-run] [--release bookworm|trixie]
#        (or: sudo make install-pi; make install-pi ARGS=--dry-run)
#   --dry-run   print what would be done and change nothing: root not needed, and
#               on any machine (off a Pi it shows what a Pi would run)
#   --release   with --dry-run: the plan for that release (default: this machine's,
#               or bookworm when this is not Raspberry Pi OS)
set -euo pipefail

PREFIX=/opt/splendor-companion
CONFIG_DIR=/etc/splendor-companion
UNIT_DIR=/etc/systemd/system
UNIT_NAME=splendor-companion.service
SERVICE_USER=splendor
STATE_DIR=/var/lib/splendor-companion
GROUPS_NEEDED=(gpio video render input)
APT_PACKAGES=(
    python3-venv python3-pip   # the virtual environment
    python3-picamera2          # the camera (libcamera bindings; not installable from PyPI)
    python3-lgpio              # gpiozero's pin library on the Pi 4 and Pi 5
    rpicam-apps-lite           # rpicam-hello, to check the camera by hand
    fonts-dejavu-core          # the screen's font
    libsdl2-2.0-0              # SDL with the KMS/DRM video driver
    espeak-ng                  # speech (--speech): offline, French and English
    fonts-wqy-zenhei           # players' names in Chinese, Japanese, Korean on the screen
)
# Overridable for the tests only (they point these at fake files).
MODEL_FILE=${SPLENDOR_MODEL_FILE:-/proc/device-tree/model}
OS_RELEASE=${SPLENDOR_OS_RELEASE:-/etc/os-release}
SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DRY_RUN=0
RELEASE=

die() { echo "install-pi: $*" >&2; exit 1; }

while (($#)); do
    case $1 in
        --dry-run) DRY_RUN=1 ;;
        --release) RELEASE=${2:-}; shift ;;
        -h | --help) sed -n '2,24p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) die "unknown option $1 (use --dry-run, --release or --help)" ;;
    esac
    shift
done

# -- checks: refuse before touching anything ----------------------------------------------
# Off a Pi (or off Raspberry Pi OS) a real run refuses; a dry run says so and goes on.
model=$(tr -d '\0' 2>/dev/null <"$MODEL_FILE" || true)
os_id=$( (. "$OS_RELEASE" 2>/dev/null && echo "${ID:-}") || true)
codename=$( (. "$OS_RELEASE" 2>/dev/null && echo "${VERSION_CODENAME:-}") || true)
on_pi=1
if [[ $model != "Raspberry Pi"* ]]; then
    ((DRY_RUN)) ||
        die "this is not a Raspberry Pi with Raspberry Pi OS (no board model in $MODEL_FILE); nothing done"
    on_pi=0
elif [[ $os_id != debian && $os_id != raspbian ]]; then
    ((DRY_RUN)) || die "this is not Raspberry Pi OS (ID=${os_id:-unknown} in $OS_RELEASE); nothing done"
    on_pi=0
fi
[[ -n $RELEASE ]] && ! ((DRY_RUN)) && die "--release is for --dry-run only (a real run uses this machine's)"
if [[ -z $RELEASE ]]; then
    RELEASE=$codename
    ((on_pi)) || [[ $RELEASE == bookworm || $RELEASE == trixie ]] || RELEASE=bookworm
fi
# The venv's numpy must keep the ABI of apt's numpy, which picamera2's compiled parts
# (simplejpeg ...) were built against: 1.x on Bookworm (apt has 1.24), 2.x on Trixie
# (apt has 2.2, and numpy 1.x has no wheels for Python 3.13 anyway).
case $RELEASE in
    bookworm) CONSTRAINTS=systemd/pi-constraints.txt; PYTHON_EXPECTED=3.11 ;;
    trixie) CONSTRAINTS=systemd/pi-constraints-trixie.txt; PYTHON_EXPECTED=3.13 ;;
    *) die "Raspberry Pi OS ${RELEASE:-of unknown release} is not supported: Bookworm or Trixie (2025) is; nothing done" ;;
esac
((DRY_RUN)) || [[ $EUID -eq 0 ]] || die "run it as root: sudo make install-pi"
[[ -f $SRC/pyproject.toml && -f $SRC/systemd/$UNIT_NAME && -f $SRC/$CONSTRAINTS ]] ||
    die "cannot find the project next to this script ($SRC)"
if ! ((on_pi)); then
    echo "install-pi: this is not a Raspberry Pi with Raspberry Pi OS; the plan below is what" \
        "one with Raspberry Pi OS $RELEASE (Python $PYTHON_EXPECTED) would run" >&2
fi

step() { echo "==> $*"; }
run() {
    if ((DRY_RUN)); then
        printf '+'
        printf ' %q' "$@" | sed 's/\\\[/[/g; s/\\\]/]/g'
        printf '\n'
    else
        "$@"
    fi
}

step "Raspberry Pi OS $RELEASE, Python $PYTHON_EXPECTED; constraints $CONSTRAINTS"
step "system packages"
run apt-get update
run apt-get install -y --no-install-recommends "${APT_PACKAGES[@]}"

step "user $SERVICE_USER"
if ! id -u "$SERVICE_USER" >/dev/null 2>&1; then
    run useradd --system --user-group --home-dir "$STATE_DIR" --no-create-home \
        --shell /usr/sbin/nologin "$SERVICE_USER"
fi
for group in "${GROUPS_NEEDED[@]}"; do
    if getent group "$group" >/dev/null || ((DRY_RUN)); then
        run usermod --append --groups "$group" "$SERVICE_USER"
    else
        echo "install-pi: warning: group $group does not exist; skipped" >&2
    fi
done

step "virtual environment $PREFIX"
if ! ((DRY_RUN)); then
    python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))' ||
        die "python3 is $(python3 -V 2>&1 | cut -d' ' -f2); splendor-companion needs 3.11 or later"
fi
if [[ ! -x $PREFIX/bin/python ]]; then
    run python3 -m venv --system-site-packages "$PREFIX"
fi
# pip builds in the checkout and reuses its build/ folder: a checkout updated since an
# earlier install would carry modules that were deleted (a stale build/lib), so start
# from none
run rm -rf "$SRC/build"
run "$PREFIX/bin/pip" install --disable-pip-version-check --quiet \
    --constraint "$SRC/$CONSTRAINTS" "$SRC[pi]"
run install -m 0644 "$SRC/hardware.md" "$PREFIX/hardware.md"

step "configuration $CONFIG_DIR/config.toml"
run install -d -m 0755 "$CONFIG_DIR"
if [[ -e $CONFIG_DIR/config.toml ]]; then
    echo "    kept the existing $CONFIG_DIR/config.toml"
elif ((DRY_RUN)); then
    echo "+ write $CONFIG_DIR/config.toml from firmware/config.example.toml with fullscreen = true"
else
    sed 's/^fullscreen = false/fullscreen = true /' "$SRC/firmware/config.example.toml" \
        >"$CONFIG_DIR/config.toml"
    chmod 0644 "$CONFIG_DIR/config.toml"
fi

if [[ -e $CONFIG_DIR/service.env ]]; then
    echo "    kept the existing $CONFIG_DIR/service.env"
elif ((DRY_RUN)); then
    echo "+ write $CONFIG_DIR/service.env with SPLENDOR_RUN_ARGS=\"--players 4 --fullscreen\""
else
    cat >"$CONFIG_DIR/service.env" <<'ENV'
# Options of `splendor-companion run` for the service (see `splendor-companion run --help`),
# e.g. SPLENDOR_RUN_ARGS="--players 3 --names Ann,Bob,Cy --fullscreen"
SPLENDOR_RUN_ARGS="--players 4 --fullscreen"
ENV
    chmod 0644 "$CONFIG_DIR/service.env"
fi

step "systemd unit $UNIT_DIR/$UNIT_NAME"
run install -m 0644 "$SRC/systemd/$UNIT_NAME" "$UNIT_DIR/$UNIT_NAME"
run systemctl daemon-reload
run systemctl enable "$UNIT_NAME"

step "checks"
if ((DRY_RUN)); then
    echo "+ $PREFIX/bin/python -c 'import picamera2, lgpio, pygame, cv2'"
elif ! "$PREFIX/bin/python" -c 'import picamera2, lgpio, pygame, cv2' 2>/dev/null; then
    echo "install-pi: warning: the venv cannot import picamera2/lgpio/pygame/cv2; see hardware.md, Troubleshooting" >&2
fi

((DRY_RUN)) && echo "(dry run: nothing was changed)"
cat <<MSG
Done.  Next: wire and calibrate (hardware.md), then
    sudo systemctl start $UNIT_NAME      (or reboot)
    journalctl -u $UNIT_NAME -f          (its log)
MSG
