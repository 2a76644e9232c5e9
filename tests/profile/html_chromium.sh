#!/usr/bin/env bash
# html_chromium.sh REPORT.html OUTDIR NAME... - opens a cyclops HTML page (a
# report, or cyclops diff's) in headless Chromium: prints the DOM after its
# scripts ran to OUTDIR/dom.html (with CY_HASH, say #selftest:search=sum,
# after the URL: the report's self-test), the browser's log to
# OUTDIR/chromium.log and a screenshot to OUTDIR/report.png; checks that
# the flame graph was drawn and holds a frame for every NAME, and that the
# page logged no console errors. Exit 2 when Chromium is not installed.
set -u
html=$1
out=$2
shift 2
browser=$(command -v chromium || command -v chromium-browser) || exit 2
profile_dir=$(mktemp -d "${TMPDIR:-/tmp}/cyclops-chromium.XXXXXX")
trap 'rm -rf "$profile_dir"' EXIT
flags=(--headless --no-sandbox --disable-gpu --disable-background-networking
	--disable-component-update --disable-sync --no-first-run
	--user-data-dir="$profile_dir" --enable-logging=stderr --v=0)
url="file://$(realpath "$html")"
timeout 60 "$browser" "${flags[@]}" --dump-dom "$url${CY_HASH:-}" >"$out/dom.html" 2>"$out/chromium.log" || {
	echo "chromium failed: $(tail -3 "$out/chromium.log")"
	exit 1
}
timeout 60 "$browser" "${flags[@]}" --window-size=1300,1000 --screenshot="$out/report.png" \
	"$url" >/dev/null 2>>"$out/chromium.log"
bad=0
if grep -q 'CONSOLE' "$out/chromium.log"; then
	echo "console messages: $(grep 'CONSOLE' "$out/chromium.log" | head -3)"
	bad=1
fi
# the flame graph's init script ran and counted its frames
if ! grep -Eq '<svg[^>]* data-frames="[1-9][0-9]*"' "$out/dom.html"; then
	echo "the flame graph's script did not run"
	bad=1
fi
for name in "$@"; do
	if ! grep -q "data-name=\"$name\"" "$out/dom.html"; then
		echo "no frame for $name in the flame graph"
		bad=1
	fi
done
if [ ! -s "$out/report.png" ]; then
	echo "no screenshot"
	bad=1
fi
exit $bad
