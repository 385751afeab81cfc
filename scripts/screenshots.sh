#!/usr/bin/env bash
# Pictures of every preset for the user guide's gallery: for each scene `boids presets` lists, a headless
# recording (offscreen EGL, no display needed) of its state after a fixed number of steps from a fixed seed,
# saved as docs/screenshots/<preset>.png (640x480), and the gallery block of docs/USER_GUIDE.md rewritten
# to show them all. The step is deterministic, so the same build draws the same pictures. Re-run it after
# adding a preset:
#
#   cmake --build --preset release --target boids && ./scripts/screenshots.sh
#
# Environment: BOIDS (the executable, default build/release/boids), STEPS (default 300), SEED (default 4760).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
boids=${BOIDS:-$root/build/release/boids}
steps=${STEPS:-300}
seed=${SEED:-4760}
out=$root/docs/screenshots
guide=$root/docs/USER_GUIDE.md

if [[ ! -x $boids ]]; then
    echo "screenshots.sh: $boids is not built (cmake --build --preset release --target boids)" >&2
    exit 2
fi

# Scenes pictured earlier, while what they show is still in the frame (the picture frames the world):
# - couzin: the plane is open beyond the 10 x 10 spawn box, and the group flies out of it;
steps_for() {
    case $1 in
    couzin) echo 100 ;;
    *) echo "$steps" ;;
    esac
}

mkdir -p "$out"
gallery=$(mktemp)
trap 'rm -f "$gallery"' EXIT
{
    echo "<!-- gallery: written by scripts/screenshots.sh; edit the script, not this block -->"
    echo "| | |"
    echo "|---|---|"
} >"$gallery"

column=0
row=""
while read -r name description; do
    [[ -n $name ]] || continue
    n=$(steps_for "$name")
    env -u DISPLAY -u WAYLAND_DISPLAY "$boids" run --headless --preset "$name" --seed "$seed" --steps "$n" \
        --size 640x480 --record "$out/$name.png" >/dev/null
    echo "screenshots.sh: docs/screenshots/$name.png ($n steps, seed $seed)"
    cell="<img src=\"screenshots/$name.png\" width=\"400\" alt=\"$name\"><br>\`$name\`: ${description//|/\\|} (step $n)"
    if ((column == 0)); then
        row="| $cell "
        column=1
    else
        echo "$row| $cell |" >>"$gallery"
        column=0
    fi
done < <("$boids" presets)
if ((column == 1)); then
    echo "$row| |" >>"$gallery"
fi

# Replace what lies between the gallery markers of the user guide.
start='<!-- gallery:start -->'
end='<!-- gallery:end -->'
if ! grep -qF "$start" "$guide" || ! grep -qF "$end" "$guide"; then
    echo "screenshots.sh: docs/USER_GUIDE.md has no '$start' ... '$end' block to fill" >&2
    exit 2
fi
awk -v start="$start" -v end="$end" -v file="$gallery" '
    $0 == start { print; while ((getline line < file) > 0) print line; skipping = 1; next }
    $0 == end { skipping = 0 }
    !skipping { print }
' "$guide" >"$guide.tmp"
mv "$guide.tmp" "$guide"
echo "screenshots.sh: docs/USER_GUIDE.md gallery updated"
