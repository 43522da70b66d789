#!/usr/bin/env bash
# Installs what capecc needs on Debian/Ubuntu when it is missing: Open MPI (mpicc,
# mpirun), clang + libclang, gcc, make, binutils (objcopy). Needs the Rust toolchain
# already (https://rustup.rs). Does nothing when everything is present.
# usage: scripts/deps.sh [package:command ...]   extra packages a script needs
#        (e.g. `python3:python3` for bench.sh), each installed if the command is missing
set -euo pipefail

missing=()
need_pkg() { # package, then the command that proves it is there (or "" for a dpkg check)
    local pkg=$1 cmd=${2:-}
    if [ -n "$cmd" ]; then
        command -v "$cmd" >/dev/null 2>&1 && return 0
    else
        dpkg -s "$pkg" >/dev/null 2>&1 && return 0
    fi
    missing+=("$pkg")
}

need_pkg gcc gcc
need_pkg make make
need_pkg binutils objcopy
need_pkg openmpi-bin mpirun
need_pkg libopenmpi-dev mpicc
need_pkg clang clang
need_pkg libclang-dev
for extra in "$@"; do
    need_pkg "${extra%%:*}" "${extra#*:}"
done

if ! command -v cargo >/dev/null 2>&1; then
    echo "deps.sh: \`cargo\` not found: install the Rust toolchain first (https://rustup.rs)" >&2
    exit 1
fi

if ! cargo clippy --version >/dev/null 2>&1; then
    if command -v rustup >/dev/null 2>&1; then
        echo "deps.sh: installing clippy (rustup component add clippy)"
        rustup component add clippy
    else
        echo "deps.sh: \`cargo clippy\` not found: install clippy with your Rust toolchain" >&2
        exit 1
    fi
fi

if [ ${#missing[@]} -eq 0 ]; then
    echo "deps.sh: all dependencies present"
    exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
    echo "deps.sh: missing ${missing[*]} and no apt-get here: install them with your package manager" >&2
    exit 1
fi
sudo=()
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then
        sudo=(sudo)
    else
        echo "deps.sh: missing ${missing[*]}; run as root or install sudo" >&2
        exit 1
    fi
fi
echo "deps.sh: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
