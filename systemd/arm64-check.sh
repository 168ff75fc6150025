#!/usr/bin/env bash
# Install and test the project on the Pi's own architecture (arm64) without a Pi,
# because the wheels pip finds for aarch64 are not the ones CI sees on x86-64:
#
#   1. build a Debian arm64 root with Debian's own packages
#      (debootstrap --foreign, then its second stage run under emulation);
#   2. run it under user-mode emulation: `proot -q qemu-aarch64-static`,
#      which needs no binfmt_misc (these machines have none) and no chroot rights;
#   3. install the project the way systemd/install-pi.sh does (a venv with
#      --system-site-packages, pip with systemd/pi-constraints.txt);
#   4. run the rules tests and a vision smoke subset in it;
#   5. report the wheels pip found, what it had to build, and the time of each step.
#
# Not run in CI: on two shared cores 20 minutes for bookworm, an hour for trixie,
# most of it step 1.  The root is kept (see --root) so a second run skips step 1.
# Usage: systemd/arm64-check.sh [--suite bookworm|trixie] [--root DIR] [--fresh] [--help]
#   --suite   Debian release (bookworm: Raspberry Pi OS 12, Python 3.11; trixie: 13, Python 3.13)
#   --root    where the arm64 root lives (default /var/tmp/splendor-arm64-SUITE)
#   --fresh   delete that root first
# Needs: debootstrap, proot, qemu-user-static (installed with apt-get when run as root).
set -euo pipefail

SUITE=bookworm
ROOT=
FRESH=0
MIRROR=${ARM64_MIRROR:-http://deb.debian.org/debian}
SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

die() { echo "arm64-check: $*" >&2; exit 1; }

while (($#)); do
    case $1 in
        --suite) SUITE=${2:?--suite needs a name}; shift ;;
        --root) ROOT=${2:?--root needs a folder}; shift ;;
        --fresh) FRESH=1 ;;
        -h | --help) sed -n '2,20p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) die "unknown option $1 (use --help)" ;;
    esac
    shift
done
case $SUITE in bookworm | trixie) ;; *) die "--suite must be bookworm or trixie, not $SUITE" ;; esac
ROOT=${ROOT:-/var/tmp/splendor-arm64-$SUITE}

# Debian's packages that install-pi.sh takes from apt and that Debian itself has
# (python3-picamera2, python3-lgpio and rpicam-apps-lite are Raspberry Pi OS's own:
# they are not in Debian, so the [pi] extra is left out below, see the report).
APT_PACKAGES=python3,python3-venv,python3-pip,fonts-dejavu-core,libsdl2-2.0-0,ca-certificates

T0=$(date +%s)
declare -a TIMES=()
mark() { TIMES+=("$(printf '%-34s %6d s' "$1" $(($(date +%s) - $2)))"); }
step() { echo "==> $* ($(date -u +%H:%M:%S))"; }

# -- tools --------------------------------------------------------------------------------
need=()
command -v debootstrap >/dev/null || need+=(debootstrap)
command -v proot >/dev/null || need+=(proot)
command -v qemu-aarch64-static >/dev/null || need+=(qemu-user-static)
if ((${#need[@]})); then
    [[ $EUID -eq 0 ]] || die "missing ${need[*]}: sudo apt-get install ${need[*]}"
    step "apt-get install ${need[*]}"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi

# Everything inside runs as a faked root (-0) under the arm64 emulator, with a clean
# environment: the host's pip settings (find-links, indexes of x86 wheels) stay out.
inside() {
    env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
        LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy \
        PYGAME_HIDE_SUPPORT_PROMPT=1 MPLBACKEND=Agg PIP_DISABLE_PIP_VERSION_CHECK=1 \
        ${CERT:+PIP_CERT=/etc/ssl/certs/host-ca.crt SSL_CERT_FILE=/etc/ssl/certs/host-ca.crt} \
        proot -0 -q qemu-aarch64-static -r "$ROOT" "${DEVICES[@]}" -b /proc -b /sys -w / "$@"
}
# Only these device nodes of the host, never its whole /dev: the faked root is the real
# root here, and debootstrap's second stage recreates /dev/ptmx and unmounts /dev/pts
# in the /dev it sees (with the host's /dev bound, the host lost its terminals).
DEVICES=(-b /dev/null -b /dev/zero -b /dev/full -b /dev/random -b /dev/urandom -b /dev/shm)
# A host that reaches the registries through an intercepting proxy trusts it through
# PIP_CERT or SSL_CERT_FILE: the root gets the same bundle.
CERT=${PIP_CERT:-${SSL_CERT_FILE:-}}
[[ -z $CERT || -f $CERT ]] || CERT=

# -- 1. the root --------------------------------------------------------------------------
((FRESH)) && rm -rf "$ROOT"
if [[ ! -e $ROOT/.splendor-root-done ]]; then
    t=$(date +%s)
    rm -rf "$ROOT"
    step "debootstrap --foreign --arch arm64 $SUITE (first stage, on the host)"
    debootstrap --foreign --arch arm64 --variant=minbase --include="$APT_PACKAGES" \
        "$SUITE" "$ROOT" "$MIRROR" >"$ROOT.debootstrap.log" 2>&1 ||
        die "debootstrap (first stage) failed; see $ROOT.debootstrap.log"
    mark "debootstrap, first stage" "$t"
    t=$(date +%s)
    step "debootstrap --second-stage (under qemu-aarch64-static; slow)"
    # debootstrap leaves /proc a link to the host's when it runs in a container: a
    # folder instead, for proot to bind the real one onto
    [[ -L $ROOT/proc ]] && rm "$ROOT/proc" && mkdir "$ROOT/proc"
    inside /usr/bin/env DEBOOTSTRAP_DIR=/debootstrap /bin/sh /debootstrap/debootstrap --second-stage >>"$ROOT.debootstrap.log" 2>&1 ||
        die "debootstrap (second stage) failed; see $ROOT/debootstrap/debootstrap.log"
    touch "$ROOT/.splendor-root-done"
    mark "debootstrap, second stage" "$t"
else
    step "reusing the arm64 root $ROOT (--fresh to rebuild it)"
fi
[[ -n $CERT ]] && cp "$CERT" "$ROOT/etc/ssl/certs/host-ca.crt"
inside /usr/bin/uname -m | grep -qx aarch64 || die "the root does not run as aarch64"
PYVER=$(inside /usr/bin/python3 -c 'import platform; print(platform.python_version())')
step "arm64 root ready: $(inside /usr/bin/uname -m), Python $PYVER"

# -- 2. the project, as install-pi.sh installs it -----------------------------------------
t=$(date +%s)
step "copy the work tree (tracked and new files) to /opt/src"
rm -rf "$ROOT/opt/src" && mkdir -p "$ROOT/opt/src"
(cd "$SRC" && git ls-files -co --exclude-standard -z | tar --null -T - -cf -) |
    tar -xf - -C "$ROOT/opt/src"
PREFIX=/opt/splendor-companion
CONSTRAINTS=$(grep -o 'systemd/pi-constraints[-a-z0-9]*\.txt' "$SRC/systemd/install-pi.sh" | head -1)
[[ $SUITE == trixie && -f $SRC/systemd/pi-constraints-trixie.txt ]] &&
    CONSTRAINTS=systemd/pi-constraints-trixie.txt
step "venv $PREFIX --system-site-packages; pip install --constraint $CONSTRAINTS"
rm -rf "${ROOT:?}$PREFIX" "$ROOT/root/.local"
# --copies: under proot + qemu the venv's python, a symlink, is started by its resolved
# path (/usr/bin/python3.11), so it does not find pyvenv.cfg and pip falls back to a
# --user install; a copied interpreter is the venv install-pi.sh makes on a real Pi.
inside /usr/bin/python3 -m venv --copies --system-site-packages "$PREFIX"
inside "$PREFIX/bin/python" -c 'import sys; assert sys.prefix != sys.base_prefix, "not a venv"' ||
    die "the venv's python does not see its venv under emulation"
# The [pi] extra is picamera2 and lgpio, which the Pi takes from Raspberry Pi OS's apt
# (not in Debian); pytest and hypothesis are for step 3 only.
# `python -m pip`, not bin/pip: a script's #! line is followed by proot to the resolved
# interpreter, which again misses the venv.  PIP_USER=0: under proot access(2) calls the
# venv (made inside the root) unwritable though writes succeed, and pip would fall back
# to a --user install.
inside /usr/bin/env PIP_USER=0 "$PREFIX/bin/python" -m pip install --report /tmp/pip-report.json --constraint "/opt/src/$CONSTRAINTS" \
    /opt/src pytest hypothesis 2>&1 | tee "$ROOT.pip.log" | grep --line-buffered -E '^(Collecting|Building|Successfully)' || true
[[ -x $ROOT$PREFIX/bin/splendor-companion && ! -e $ROOT/root/.local ]] ||
    die "pip install failed (or went to --user); see $ROOT.pip.log"
mark "venv + pip install" "$t"

echo "==> what pip fetched (w = a wheel, S = a source archive it had to build)"
python3 - "$ROOT/tmp/pip-report.json" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
built = []
for item in report["install"]:
    meta, url = item["metadata"], item["download_info"]["url"]
    name = url.rsplit("/", 1)[-1]
    kind = "w" if name.endswith(".whl") else "S"
    if kind == "S":
        built.append(meta["name"])
    print(f"  {kind} {meta['name']:28} {meta['version']:12} {name if kind == 'w' else url}")
print(f"  built from source: {', '.join(built) if built else 'nothing'}")
PY

# -- 3. the tests ---------------------------------------------------------------------------
t=$(date +%s)
step "smoke: the CLI runs"
inside "$PREFIX/bin/python" -m companion --help >/dev/null
inside "$PREFIX/bin/python" -c 'import cv2, numpy, pygame, matplotlib; print("  cv2", cv2.__version__, "numpy", numpy.__version__, "pygame", pygame.version.ver, "matplotlib", matplotlib.__version__)'
inside "$PREFIX/bin/python" -m companion mats --players 2 --out /tmp/mats-arm64 --dpi 100 >/dev/null
mark "CLI smoke (--help, imports, mats)" "$t"

t=$(date +%s)
step "pytest tests/rules (under emulation)"
rules_rc=0
inside /bin/sh -c "cd /opt/src && $PREFIX/bin/python -m pytest -q -p no:cacheprovider tests/rules" \
    2>&1 | tee "$ROOT.rules.log" | tail -3 || true
grep -qE '^[0-9]+ passed' <(tail -1 "$ROOT.rules.log") && ! grep -q failed <(tail -1 "$ROOT.rules.log") || rules_rc=1
mark "pytest tests/rules" "$t"

t=$(date +%s)
# The vision smoke subset: the layout and its mats, geometry, the synthetic renderer and
# calibration: the numpy/cv2 paths whose results could differ on another architecture.
VISION=(tests/vision/test_layout.py tests/vision/test_geometry.py tests/vision/test_mats.py
    tests/vision/test_calibrate.py tests/vision/test_synth.py)
step "pytest ${VISION[*]} (under emulation)"
vision_rc=0
inside /bin/sh -c "cd /opt/src && $PREFIX/bin/python -m pytest -q -p no:cacheprovider ${VISION[*]}" \
    2>&1 | tee "$ROOT.vision.log" | tail -3 || true
grep -qE '^[0-9]+ passed' <(tail -1 "$ROOT.vision.log") && ! grep -q failed <(tail -1 "$ROOT.vision.log") || vision_rc=1
mark "pytest vision smoke" "$t"

# -- 4. the report --------------------------------------------------------------------------
echo "==> times ($SUITE arm64, Python $PYVER, host $(uname -m), $(nproc) cores)"
printf '  %s\n' "${TIMES[@]}"
printf '  %-34s %6d s\n' "total" $(($(date +%s) - T0))
echo "  logs: $ROOT.debootstrap.log $ROOT.pip.log $ROOT.rules.log $ROOT.vision.log"
((rules_rc == 0 && vision_rc == 0)) || die "tests failed under arm64 (rules $rules_rc, vision $vision_rc)"
echo "arm64-check: all passed"
