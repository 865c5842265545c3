#!/usr/bin/env bash
# Runs every test of the repository. Later layers (C, Python, Node) add their steps here.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n==> %s\n' "$*"; }

step "test data matches shared/ (when a shared/ checkout sits beside the repo)"
if [ -d ../shared/vectors ]; then
  for f in testdata/vectors/*; do
    cmp "$f" "../shared/vectors/$(basename "$f")"
  done
  echo "testdata/vectors is byte-identical to ../shared/vectors"
else
  echo "no ../shared/vectors here: skipped"
fi

step "Rust: workspace, all features"
cargo test --workspace --all-features

step "Rust: sno-core without default features (no_std core)"
cargo test -p sno-core --no-default-features
