#!/usr/bin/env bash
# The system libraries radioflow links, found by pkg-config: libzmq (the ZeroMQ blocks use the
# same library GNU Radio's gr-zeromq links) and libSoapySDR (the SoapySDR device blocks and
# `radioflow fm --device`; build with --no-default-features to leave them out), libasound (ALSA:
# the audio_sink/audio_source blocks, GNU Radio's audio blocks on Linux), and SoapySDR's
# Red Pitaya module, whose TCP protocol the device tests emulate on loopback (no radio
# hardware: crates/interop/tests/soapy). Installs what is missing with apt-get, without the
# packages they only recommend (libsoapysdr recommends every SoapySDR module), as root or
# with sudo; otherwise says what to install.
set -euo pipefail
packages=""
command -v pkg-config >/dev/null || packages="$packages pkg-config"
command -v pkg-config >/dev/null && pkg-config --exists libzmq || packages="$packages libzmq3-dev"
command -v pkg-config >/dev/null && pkg-config --exists SoapySDR || packages="$packages libsoapysdr-dev"
command -v pkg-config >/dev/null && pkg-config --exists alsa || packages="$packages libasound2-dev"
# The module's file, where SoapySDR 0.8 looks for modules (Debian: soapysdr0.8-module-redpitaya).
compgen -G "/usr/lib/*/SoapySDR/modules0.8/libRedPitaya.so" >/dev/null \
  || compgen -G "/usr/lib/SoapySDR/modules0.8/libRedPitaya.so" >/dev/null \
  || compgen -G "/usr/local/lib/SoapySDR/modules0.8/libRedPitaya.so" >/dev/null \
  || packages="$packages soapysdr0.8-module-redpitaya"
[ -z "$packages" ] && exit 0
if command -v apt-get >/dev/null; then
  sudo=""
  [ "$(id -u)" = 0 ] || sudo="sudo"
  echo "installing$packages (apt-get)" >&2
  # shellcheck disable=SC2086 # a list of package names
  ($sudo apt-get install -y -qq --no-install-recommends $packages || { $sudo apt-get update -qq && $sudo apt-get install -y -qq --no-install-recommends $packages; }) >/dev/null
else
  echo "radioflow needs pkg-config, libzmq, SoapySDR and ALSA (development files), and for its device tests SoapySDR's Red Pitaya module:$packages; install them with your package manager" >&2
  exit 1
fi
