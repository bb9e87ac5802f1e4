#!/usr/bin/env bash
# Build the GNU Radio 3.10 peer: peers/gnuradio/build/gr_bench.
#   ./build.sh            build (fails with a clear message if GNU Radio dev files are missing)
#   ./build.sh --install  as root: apt-get install the prerequisites first if missing
#   ./build.sh --clean    remove build/ first
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
install=0
clean=0
for arg in "$@"; do
    case "$arg" in
        --install) install=1 ;;
        --clean) clean=1 ;;
        -h|--help) sed -n '2,5p' "$0"; exit 0 ;;
        *) echo "build.sh: unknown argument '$arg'" >&2; exit 2 ;;
    esac
done

have_deps() {
    command -v pkg-config >/dev/null 2>&1 &&
    command -v "${CXX:-g++}" >/dev/null 2>&1 &&
    command -v make >/dev/null 2>&1 &&
    pkg-config --exists gnuradio-runtime gnuradio-blocks gnuradio-filter 2>/dev/null &&
    [ -f "$(pkg-config --variable=includedir gnuradio-runtime)/gnuradio/top_block.h" ] &&
    [ -f "$(pkg-config --variable=includedir gnuradio-blocks)/gnuradio/blocks/copy.h" ]
}

if ! have_deps; then
    if [ "$install" = 1 ]; then
        if [ "$(id -u)" != 0 ]; then
            echo "build.sh: --install needs root (apt-get)." >&2
            exit 1
        fi
        echo "build.sh: installing GNU Radio dev files with apt-get ..." >&2
        export DEBIAN_FRONTEND=noninteractive
        apt-get update
        apt-get install -y gnuradio gnuradio-dev g++ make pkg-config
    fi
    if ! have_deps; then
        echo "build.sh: GNU Radio development files not found." >&2
        echo "  Need: pkg-config, g++, make and the pkg-config modules gnuradio-runtime and" >&2
        echo "  gnuradio-blocks (Debian/Ubuntu: apt-get install gnuradio gnuradio-dev g++ make pkg-config)." >&2
        echo "  As root, './build.sh --install' does this for you." >&2
        exit 1
    fi
fi

ver="$(pkg-config --modversion gnuradio-runtime)"
case "$ver" in
    3.10*) ;;
    *) echo "build.sh: warning: found GNU Radio $ver, this peer targets 3.10" >&2 ;;
esac

cd "$here"
if [ "$clean" = 1 ]; then make clean; fi
# One build at a time (parallel tests each ask for the peer): the others wait, then find it
# built. The Makefile renames the binary into place, so a running gr_bench keeps its file.
mkdir -p build
if command -v flock >/dev/null 2>&1; then
    exec 9>build/.lock
    flock 9
fi
make -j"$(nproc 2>/dev/null || echo 2)"
echo "build.sh: built $here/build/gr_bench (GNU Radio $ver)" >&2
