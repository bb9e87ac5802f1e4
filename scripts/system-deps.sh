#!/usr/bin/env bash
# The system libraries radioflow links: libzmq (the ZeroMQ blocks use the same library GNU
# Radio's gr-zeromq links, found by pkg-config). Installs them with apt-get when missing
# (as root, or with sudo); otherwise says what to install.
set -euo pipefail
if command -v pkg-config >/dev/null && pkg-config --exists libzmq; then
  exit 0
fi
packages="pkg-config libzmq3-dev"
if command -v apt-get >/dev/null; then
  sudo=""
  [ "$(id -u)" = 0 ] || sudo="sudo"
  echo "installing $packages (apt-get)" >&2
  ($sudo apt-get install -y -qq $packages || { $sudo apt-get update -qq && $sudo apt-get install -y -qq $packages; }) >/dev/null
else
  echo "radioflow needs pkg-config and libzmq (development files): install them with your package manager" >&2
  exit 1
fi
