#!/usr/bin/env bash
# install-deps.sh - installs the Debian packages in debian-packages.txt that
# are missing (make demo runs it). Needs root or sudo only when something is
# missing.
set -eu
cd "$(dirname "$0")"
missing=()
for pkg in $(grep -v '^#' debian-packages.txt); do
	dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" ||
		missing+=("$pkg")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing: ${missing[*]}"
sudo=
[ "$(id -u)" -eq 0 ] || sudo=sudo
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q
$sudo apt-get install -y -q "${missing[@]}"
