#!/usr/bin/env bash
# One entry point for a fresh machine: creates .venv, installs the project with what the job
# needs, and runs it.
#   bash scripts/dev.sh eval    # the baselines on the simulator's mixed suite, with a report (core + [eval] only)
#   bash scripts/dev.sh test    # the test suite, what CI runs (every extra, CPU torch included)
#   bash scripts/dev.sh setup [eval|test]   # only create and fill .venv (default: what `test` needs)
set -euo pipefail
cd "$(dirname "$0")/.."
job="${1:-eval}"
shift || true
PY="${PYTHON:-python3}"
VENV=.venv

# What each job installs. `eval` needs only the core and the `eval` extra (tqdm, matplotlib: a
# couple of hundred MB, well under a minute); `test` needs every extra, torch included.
extras_for() {
    case "$1" in
        eval) echo "eval" ;;
        *) echo "all,dev" ;;
    esac
}

# torch for the `test` job (the agents and sb3 extras). TORCH_SPEC picks the build: the default
# `torch==2.13.0` is a CPU wheel on this project's package index; set TORCH_INDEX_URL to choose
# another index, e.g. https://download.pytorch.org/whl/cpu (CPU) or .../whl/cuXYZ (a CUDA build).
TORCH_SPEC="${TORCH_SPEC:-torch==2.13.0}"

setup() {
    local job="$1" extras stamp want
    extras="$(extras_for "$job")"
    if [ ! -x "$VENV/bin/python" ]; then
        echo "==> creating $VENV"
        "$PY" -m venv "$VENV"
    fi
    want="$(cat pyproject.toml setup.cfg scripts/dev.sh | sha256sum | cut -c1-16)"
    # The full install (test) covers the lean one (eval).
    for stamp in "$VENV/.installed-$extras" "$VENV/.installed-all,dev"; do
        if [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; then return 0; fi
    done
    echo "==> installing cerebellum-gym[$extras] into $VENV (log: $VENV/install.log)"
    {
        # The venv's own pip (22+ on Python 3.10+) installs editable pyproject packages; no upgrade round trip.
        if [ "$extras" != "eval" ]; then
            # torch first, pinned: an unpinned torch from PyPI on Linux pulls the multi-GB CUDA build.
            "$VENV/bin/python" -m pip install "$TORCH_SPEC" ${TORCH_INDEX_URL:+--index-url "$TORCH_INDEX_URL"}
        fi
        "$VENV/bin/python" -m pip install -e ".[$extras]"
    } > "$VENV/install.log" 2>&1 || {
        tail -n 40 "$VENV/install.log" >&2
        echo "==> installation failed; the whole log is $VENV/install.log" >&2
        exit 1
    }
    echo "$want" > "$VENV/.installed-$extras"
}

case "$job" in
    setup) setup "${1:-test}" ;;
    test)
        setup test
        # The report's browser test drives Debian's chromium through Playwright (never `playwright
        # install`, which downloads its own build). CI runs as root on a fresh machine.
        if ! command -v chromium >/dev/null; then
            echo "==> installing Debian's chromium for the report's browser test"
            if ! { apt-get update -qq && apt-get install -y -qq chromium; } > "$VENV/apt.log" 2>&1; then
                # CI must run the browser test; elsewhere it is skipped with a note.
                if [ "${CI:-}" = "true" ]; then tail -n 20 "$VENV/apt.log" >&2; exit 1; fi
                echo "==> could not install chromium (see $VENV/apt.log): the browser test will be skipped" >&2
            fi
        fi
        # AndroidWorld's Retro Music set-up writes its MP3 files with pydub, which runs an ffmpeg
        # binary on the host (the conformance tests of those tasks need it).
        if ! command -v ffmpeg >/dev/null; then
            echo "==> installing Debian's ffmpeg for AndroidWorld's Retro Music set-up"
            if ! { apt-get update -qq && apt-get install -y -qq ffmpeg; } > "$VENV/apt-ffmpeg.log" 2>&1; then
                if [ "${CI:-}" = "true" ]; then tail -n 20 "$VENV/apt-ffmpeg.log" >&2; exit 1; fi
                echo "==> could not install ffmpeg (see $VENV/apt-ffmpeg.log): AndroidWorld's Retro Music set-up will fail" >&2
            fi
        fi
        # AndroidWorld is not on PyPI and CI reaches no Git host: ../shared/third_party holds it
        # as a wheel (its dependencies come from PyPI). CI must test it; elsewhere a missing
        # wheel skips the AndroidWorld tests with a note.
        if ! "$VENV/bin/python" -c "import android_world" 2>/dev/null; then
            wheel="$(ls ../shared/third_party/android_world-*.whl 2>/dev/null | head -n 1 || true)"
            if [ -n "$wheel" ]; then
                echo "==> installing AndroidWorld from $wheel"
                if ! "$VENV/bin/python" -m pip install "$wheel" > "$VENV/androidworld.log" 2>&1; then
                    tail -n 20 "$VENV/androidworld.log" >&2
                    exit 1
                fi
            elif [ "${CI:-}" = "true" ]; then
                echo "==> ../shared/third_party/android_world-*.whl is missing; CI must test AndroidWorld" >&2
                exit 1
            else
                echo "==> no AndroidWorld wheel in ../shared/third_party: its tests will be skipped" >&2
            fi
        fi
        # Lint and types first: a regression in any of them fails the job as a failing test does.
        echo "==> ruff check, ruff format --check, mypy"
        "$VENV/bin/ruff" check --quiet .
        "$VENV/bin/ruff" format --check --quiet .
        "$VENV/bin/mypy" --no-error-summary
        exec "$VENV/bin/python" -m pytest -n 2 --dist loadgroup "$@"
        ;;
    eval)
        setup eval
        exec "$VENV/bin/cerebellum-gym" eval "$@"
        ;;
    *)
        echo "usage: bash scripts/dev.sh [eval|test|setup] [args...]" >&2
        exit 2
        ;;
esac
