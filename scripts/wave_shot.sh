#!/usr/bin/env bash
# Screenshot of GTKWave showing a waveform dump with a save file.
#
#   scripts/wave_shot.sh DUMP.fst SAVE.gtkw OUT.png
#
# Runs GTKWave on a private virtual X display (xvfb-run -a), waits until its
# window has been drawn and stopped changing, grabs the screen with
# ImageMagick's `import`, crops the black background away and writes OUT.png.
#
# Needs the Debian packages gtkwave, xvfb and imagemagick.
#
# Environment:
#   WAVE_SHOT_TIMEOUT   seconds before giving up (default 60)
#   WAVE_SHOT_SCREEN    virtual screen size WxH (default 1600x1000)
#   WAVE_SHOT_SETTLE    seconds the picture must stay unchanged (default 2)
set -euo pipefail

prog=${0##*/}
die() { echo "$prog: $*" >&2; exit 1; }
usage() { echo "usage: $prog DUMP.fst SAVE.gtkw OUT.png" >&2; exit 2; }

[[ $# -eq 3 ]] || usage
dump=$1 save=$2 out=$3

[[ -f $dump && -r $dump ]] || die "cannot read dump file '$dump'"
[[ -s $dump ]] || die "dump file '$dump' is empty"
[[ -f $save && -r $save ]] || die "cannot read save file '$save'"
case $out in *.png) ;; *) die "output '$out': expected a .png file name" ;; esac
outdir=$(dirname -- "$out")
[[ -d $outdir && -w $outdir ]] || die "output directory '$outdir' does not exist or is not writable"

need() { command -v "$1" >/dev/null 2>&1 || die "'$1' not found (install the Debian package $2)"; }
need xvfb-run xvfb
need gtkwave gtkwave
need import imagemagick
need convert imagemagick
need compare imagemagick
need timeout coreutils

timeout_s=${WAVE_SHOT_TIMEOUT:-60}
screen=${WAVE_SHOT_SCREEN:-1600x1000}
settle=${WAVE_SHOT_SETTLE:-2}
[[ $timeout_s =~ ^[0-9]+$ && $timeout_s -gt 0 ]] || die "WAVE_SHOT_TIMEOUT must be a positive integer"
[[ $screen =~ ^[0-9]+x[0-9]+$ ]] || die "WAVE_SHOT_SCREEN must look like 1600x1000"
[[ $settle =~ ^[0-9]+$ ]] || die "WAVE_SHOT_SETTLE must be a non-negative integer"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/wave_shot.XXXXXX")
trap 'rm -rf -- "$tmp"' EXIT

abs() { (cd -- "$(dirname -- "$1")" && printf '%s/%s\n' "$(pwd -P)" "$(basename -- "$1")"); }
dump_abs=$(abs "$dump")
save_abs=$(abs "$save")

# The part that runs inside the virtual display. It gets its own time budget
# (a few seconds less than the outer one) so it can report what went wrong.
cat >"$tmp/inner.sh" <<'EOF'
set -u
dump=$1 save=$2 tmp=$3 budget=$4 settle=$5
export NO_AT_BRIDGE=1 # no accessibility bus on the virtual display
gtkwave -f "$dump" -a "$save" >"$tmp/gtkwave.log" 2>&1 </dev/null &
gw=$!
stop() { kill "$gw" 2>/dev/null; wait "$gw" 2>/dev/null; }
start=$SECONDS prev="" stable_since=-1 n=0
while :; do
    sleep 1
    n=$((n + 1))
    if ! kill -0 "$gw" 2>/dev/null; then
        echo "gtkwave exited before a screenshot was taken; its output:" >&2
        tail -n 20 "$tmp/gtkwave.log" >&2
        exit 1
    fi
    shot="$tmp/shot$((n % 2)).png"
    if ! import -window root "$shot" 2>"$tmp/import.log"; then
        echo "import failed:" >&2; cat "$tmp/import.log" >&2; stop; exit 1
    fi
    colours=$(convert "$shot" -format '%k' info: 2>/dev/null || echo 0)
    # compare exits 0 only when the two pictures are identical
    if [[ $colours -gt 16 && -n $prev ]] &&
        compare -metric AE "$prev" "$shot" null: >/dev/null 2>&1; then
        [[ $stable_since -ge 0 ]] || stable_since=$SECONDS
        if (( SECONDS - stable_since >= settle )); then
            cp "$shot" "$tmp/final.png"
            stop
            exit 0
        fi
    else
        stable_since=-1
    fi
    [[ $colours -gt 16 ]] && prev=$shot
    if (( SECONDS - start >= budget )); then
        echo "GTKWave did not show a settled window within ${budget}s; its output:" >&2
        tail -n 20 "$tmp/gtkwave.log" >&2
        stop
        exit 1
    fi
done
EOF

inner_budget=$(( timeout_s > 10 ? timeout_s - 5 : timeout_s ))
rc=0
timeout -k 5 "$timeout_s" \
    xvfb-run -a -s "-screen 0 ${screen}x24 -nolisten tcp" \
    bash "$tmp/inner.sh" "$dump_abs" "$save_abs" "$tmp" "$inner_budget" "$settle" || rc=$?
if [[ $rc -eq 124 || $rc -eq 137 ]]; then
    die "timed out after ${timeout_s}s (set WAVE_SHOT_TIMEOUT to wait longer)"
elif [[ $rc -ne 0 ]]; then
    die "screenshot failed (exit $rc)"
fi
[[ -s $tmp/final.png ]] || die "no screenshot was produced"

# GTKWave's window sits at the top left of a black screen (no window manager):
# a black frame makes all corners black so -trim removes exactly the background.
convert "$tmp/final.png" -bordercolor black -border 1 -trim +repage "$out" ||
    die "cannot write '$out'"
echo "$prog: wrote $out"
