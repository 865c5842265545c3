# shellcheck shell=bash
# shellcheck disable=SC2154 # repo, tools, out, version, CARGO_TARGET_DIR: set by scripts/release or scripts/test-wasm
# The light web build of a release (docs/wasm.md): bindings/web compiled for
# wasm32-unknown-unknown by scripts/build-web (sno.wasm, formats.wasm beside the JavaScript in
# bindings/web/js), checked here, and laid out by scripts/release-npm.mjs --web in the main npm
# package's web/: browsers, workerd, Vercel's Edge, Deno and Bun load it through the package's
# export conditions, and Node.js falls back to it where no native addon loads. There is no
# WebAssembly platform package.
#
# Sourced by scripts/release (which defines step, die, cross_run, $repo, $tools,
# $CARGO_TARGET_DIR) and by scripts/test-wasm. Needs Rust with rustup; the runs (wasm_test_*)
# Node.js with npm, the npm registry and Debian's chromium.

# The folder scripts/build-web fills: the web build's JavaScript and modules (release-npm --web).
wasm_web_dir() { echo "$repo/bindings/web/js"; }

wasm_setup() {
  step "WebAssembly: rustup target wasm32-unknown-unknown" >&2
  rustup target add wasm32-unknown-unknown >/dev/null 2>&1 || die "wasm: rustup target add wasm32-unknown-unknown failed"
}

# scripts/release --cross-check: cargo check of what the release builds for WebAssembly, the web
# build (bindings/web, the crate sno-web: sno-core without std, its randomness imported) for
# wasm32-unknown-unknown, nothing linked.
wasm_cross_check() {
  wasm_setup
  step "WebAssembly: cargo check of sno-web (wasm32-unknown-unknown)"
  cross_run "wasm32-unknown-unknown (sno-web)" cargo check --release -p sno-web --target wasm32-unknown-unknown
}

# The web build (scripts/build-web), then the facts of each module: valid WebAssembly that
# imports only the host's clock and randomness (module `sno`: now_unix_ms, random_fill) and
# exports its own memory; its size (raw and gzip -9) and pages at start. Prints to stderr.
wasm_web() {
  local dir facts
  dir=$(wasm_web_dir)
  {
    step "WebAssembly: the web build (scripts/build-web: sno.wasm, formats.wasm for wasm32-unknown-unknown)"
    bash "$repo/scripts/build-web" || die "wasm: scripts/build-web failed"
    facts=$(node - "$dir" <<'JS'
const { readFileSync, readdirSync } = require('node:fs')
const { join } = require('node:path')
const { gzipSync } = require('node:zlib')
const dir = process.argv[2]
const modules = readdirSync(dir).filter((f) => f.endsWith('.wasm')).sort()
if (modules.length === 0) { console.log(`FAIL no .wasm in ${dir}`); process.exit(0) }
for (const name of modules) {
  const bytes = readFileSync(join(dir, name))
  const fail = (why) => { console.log(`FAIL ${name}: ${why}`); process.exit(0) }
  if (!WebAssembly.validate(bytes)) fail('not valid WebAssembly')
  const module = new WebAssembly.Module(bytes)
  const imports = WebAssembly.Module.imports(module).map((i) => `${i.module}.${i.name}:${i.kind}`).sort()
  const allowed = ['sno.now_unix_ms:function', 'sno.random_fill:function']
  const other = imports.filter((i) => !allowed.includes(i))
  if (other.length) fail(`imports ${other.join(', ')} (only ${allowed.join(', ')} allowed)`)
  if (!WebAssembly.Module.exports(module).some((e) => e.name === 'memory' && e.kind === 'memory')) fail('exports no memory')
  const instance = new WebAssembly.Instance(module, { sno: { now_unix_ms: Date.now, random_fill() {} } })
  console.log(`OK ${name} ${bytes.length} ${gzipSync(bytes, { level: 9 }).length} ${instance.exports.memory.buffer.byteLength / 65536} ${imports.join(' ')}`)
}
JS
) || die "wasm: node could not read the modules in $dir"
    while read -r status name raw gz pages imports; do
      [ "$status" = OK ] || die "wasm: $name $raw $gz $pages $imports"
      echo "  $name: $raw bytes, $gz gzipped (-9), $pages pages of memory at start; imports $imports"
    done <<<"$facts"
  } >&2
}

# scripts/release's node part for --platforms wasm: the web build only (it goes into the main
# package, which scripts/release packs with --web "$(wasm_web_dir)"); no platform package.
wasm_node() {
  wasm_web
}

# --- Runs of the packed main package (scripts/test-wasm; wasm_check_more after a release) -----

# The main package of "$1" (a dist node/ folder), checked to exist and to hold the web build.
wasm_tarball() {
  local main="$1/libsno-$version.tgz" list
  [ -f "$main" ] || die "wasm: no $main"
  list=$(tar -tzf "$main") || die "wasm: $main is not a tarball"
  for f in web/sno.wasm web/libsno.mjs web/fs/libsno.mjs web/module/libsno.mjs web/source/libsno.mjs wasm/fallback.js; do
    grep -qx "package/$f" <<<"$list" || die "wasm: $(basename "$main") has no $f"
  done
  echo "$main"
}

# A fresh project "$1" with the main tarball installed from the registry's view of it: the
# native platform packages (not published before a release) are skipped as optional, so Node
# can only fall back to the web build; no .node file may be there.
wasm_app() {
  local app=$1 main=$2 addon
  rm -rf "$app" && mkdir -p "$app"
  echo '{ "name": "app", "version": "1.0.0", "private": true, "type": "module" }' >"$app/package.json"
  (cd "$app" && npm install -s --no-audit --no-fund --no-package-lock "$main" "${@:3}" >/dev/null) \
    || die "wasm: npm install of $main into $app failed"
  addon=$(find "$app/node_modules" -name '*.node' | head -n 1)
  [ -z "$addon" ] || die "wasm: a native addon was installed: $addon"
}

# 1. Node without a native addon, on this machine's Node and on Node 22 (scripts/node-lts):
#    libsno falls back to the web build (web/fs/, required as an ES module), the vector-driven
#    test files of the Node package run against it (their copies import `libsno`), and the
#    lease API and SNO_LEASE_URL / SNO_PARTITION are refused with their codes. Returns 1 when a
#    check fails (its output shown).
wasm_test_node() {
  local main=$1 app="$CARGO_TARGET_DIR/wasm-node-app" t out bin node22 status=0
  step "WebAssembly in Node without a native addon: libsno's fallback to the web build"
  wasm_app "$app" "$main" fast-check@4
  mkdir -p "$app/__test__"
  for t in vectors seed_formats formats typeid detect bad_input; do
    sed -e "s#new URL('\.\./index\.mjs', import\.meta\.url)\.href#import.meta.resolve('libsno')#" \
      -e "s#'\.\./index\.mjs'#'libsno'#" \
      "$repo/bindings/node/__test__/$t.test.mjs" >"$app/__test__/$t.test.mjs"
  done
  sed "s#require('\.\./sno\.js')#require('libsno')#" "$repo/bindings/node/__test__/child.cjs" >"$app/__test__/child.cjs"
  cp "$repo/bindings/node/__test__/helpers.mjs" "$app/__test__/"
  ! grep -rq "\.\./index\|\.\./sno" "$app/__test__" || die "wasm: a copied test still imports the source tree"
  # All but one test: formats.test.mjs's worker test expects a process's worker threads to share
  # its generators (one native addon per process); each thread instantiates the web build anew,
  # as another process would (docs/wasm.md). Its copy is marked skipped.
  local skipped='worker_threads and child processes: no duplicate in any format'
  grep -qx "test('${skipped}', async () => {" "$app/__test__/formats.test.mjs" \
    || die "wasm: formats.test.mjs has no test '${skipped}' to leave out"
  sed -i "s/^test('${skipped}', async/test.skip('${skipped}', async/" "$app/__test__/formats.test.mjs"
  # The fallback's own checks: what loaded, the lease API and the environment it refuses.
  cat >"$app/fallback.cjs" <<'JS'
const assert = require('node:assert/strict')
const sno = require('libsno')
const files = Object.keys(require.cache)
assert.ok(!files.some((f) => f.endsWith('.node')), 'a native addon was loaded')
assert.ok(files.some((f) => f.endsWith('/libsno/web/fs/libsno.mjs')), 'web/fs/libsno.mjs was not loaded')
const id = sno.Id.parse(sno.newString(7))
assert.equal(id.meta, 7)
assert.ok(Buffer.isBuffer(id.bytes), 'bytes are not a Buffer')
assert.throws(() => new sno.Lease({ url: 'postgres://db.invalid/sno' }), { code: 'ERR_SNO_LEASE_INVALID_URL', message: /native addon/ })
assert.throws(() => new sno.Generator({ lease: {} }), { code: 'ERR_SNO_LEASE_INVALID_URL' })
assert.throws(() => sno.newStrings(sno.MAX_BATCH + 1), (e) => e.code === 'ERR_SNO_BATCH_TOO_LARGE' && e.max === sno.MAX_BATCH)
assert.equal(sno.releaseProcessLease(), false)
sno.Lease.acquire({ url: 'redis://db.invalid' }).then(
  () => assert.fail('Lease.acquire resolved'),
  (e) => {
    assert.equal(e.code, 'ERR_SNO_LEASE_INVALID_URL')
    console.log(`  Node ${process.version}: web/fs/libsno.mjs loaded, no addon; ${id} (Buffer bytes); leases refused (ERR_SNO_LEASE_INVALID_URL)`)
  },
)
JS
  cat >"$app/environment.cjs" <<'JS'
const assert = require('node:assert/strict')
const sno = require('libsno')
const code = process.env.SNO_LEASE_URL ? 'ERR_SNO_LEASE_INVALID_URL' : 'ERR_SNO_INVALID_ENVIRONMENT'
for (const call of [() => sno.newString(), () => sno.newId(), () => sno.newStrings(2), () => sno.newIds(2)]) {
  assert.throws(call, { code })
}
assert.ok(new sno.Generator({ partition: 9 }).next().partition === 9)
JS
  # The same API: the fallback's surface (bindings/node/__test__/surface.mjs, over the installed
  # package) against the committed baseline of the native package's, module libsno (libsno/pg
  # needs the native addon: it reads columns through native functions).
  sed -e "s#^const root = .*#const root = path.dirname(require.resolve('libsno'))#" \
    -e "/describe('libsno\/pg'/d" "$repo/bindings/node/__test__/surface.mjs" >"$app/surface.mjs"
  sed -n '/^module libsno$/,/^module libsno\/pg$/p' "$repo/bindings/node/__test__/surface.txt" | sed '$d' >"$app/surface-native.txt"
  sed -n '/^class /,$p' "$repo/bindings/node/__test__/surface.txt" >>"$app/surface-native.txt"
  for bin in "" "$(bash "$repo/scripts/node-lts" 22.23.3)"; do
    node22=${bin:+$bin/}node
    out=$(cd "$app" && "$node22" fallback.cjs 2>&1 && SNO_LEASE_URL=postgres://db.invalid/sno "$node22" environment.cjs 2>&1 \
      && SNO_PARTITION=5 "$node22" environment.cjs 2>&1) \
      || { echo "$out"; echo "  FAIL the fallback's checks on $("$node22" --version)"; status=1; continue; }
    echo "$out"
    (cd "$app" && "$node22" surface.mjs >surface-web.txt) || { echo "  FAIL surface.mjs on the fallback"; status=1; }
    # Each line under its module or class, so that a difference names where it is.
    out=$(cd "$app" && for f in native web; do awk '/^(module|class) /{h=$0; next} {print h ":" $0}' "surface-$f.txt" | sort >"surface-$f.lines"; done \
      && diff surface-native.lines surface-web.lines | grep '^[<>]' || true)
    [ -z "$out" ] || { echo "$out" | sed 's/^< /  native only: /; s/^> /  web build only: /; s/  */ /g' | head -n 80
      echo "  FAIL the fallback's API differs from the native package's (bindings/node/__test__/surface.txt), $("$node22" --version)"; status=1; }
    out=$(cd "$app" && SNO_VECTORS_DIR="$repo/testdata/vectors" PATH="${bin:+$bin:}$PATH" node --test __test__/*.test.mjs 2>&1) \
      || { echo "$out" | grep -E '^not ok|^# (tests|pass|fail)|code:|message:|expected|actual' | head -n 80; echo "  FAIL the vector tests on the fallback, $("$node22" --version)"; status=1; continue; }
    grep -E '^# (tests|pass|fail|skipped) ' <<<"$out" | tr '\n' ' ' | sed "s/^/  $("$node22" --version): /; s/ *\$/\n/"
  done
  return "$status"
}

# Debian's chromium: installed when missing and this is root.
wasm_chromium() {
  command -v chromium >/dev/null && { command -v chromium; return; }
  [ "$(id -u)" = 0 ] || die "wasm: chromium missing (apt-get install chromium)"
  echo "  apt-get install chromium" >&2
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium; } >/dev/null \
    || die "wasm: apt-get install chromium failed"
  command -v chromium
}

# The app the browser and edge runs share, under $tools/web-app: tests/browser and tests/edge,
# the Node package's vector-driven test files (node-tests/, as they are: the edge harness maps
# their imports), testdata/, and node_modules with the devDependencies of both package.json
# files (kept between runs) and the main tarball "$1".
wasm_web_app() {
  local main=$1 app="$tools/web-app" t
  mkdir -p "$app"
  (cd "$app" && rm -rf browser edge node-tests testdata node_modules/libsno && mkdir -p node-tests testdata \
    && cp -r "$repo/tests/browser" "$repo/tests/edge" . && cp -r "$repo/testdata/vectors" "$repo/testdata/bad_input.tsv" testdata/) \
    || die "wasm: cannot lay out $app"
  for t in vectors seed_formats formats typeid detect bad_input; do cp "$repo/bindings/node/__test__/$t.test.mjs" "$app/node-tests/"; done
  cp "$repo/bindings/node/__test__/helpers.mjs" "$app/node-tests/"
  node -e "
    const b = require('$repo/tests/browser/package.json'), e = require('$repo/tests/edge/package.json')
    require('fs').writeFileSync('$app/package.json', JSON.stringify({ name: 'libsno-web-tests', private: true, type: 'module',
      devDependencies: { ...b.devDependencies, ...e.devDependencies } }, null, 2) + '\n')" || die "wasm: cannot write $app/package.json"
  (cd "$app" && npm install -s --no-audit --no-fund --no-package-lock >/dev/null && npm install -s --no-audit --no-fund --no-package-lock --no-save "$main" >/dev/null) \
    || die "wasm: npm install in $app failed"
  ! find "$app/node_modules/libsno" -name '*.node' | grep -q . || die "wasm: a native addon in $app"
  echo "$app"
}

# 2. Headless Chromium: tests/browser's pages built by Vite against the main package (its
#    browser condition), the bundle-size check, the first ID's time, the checks page
#    (tests/browser/run.mjs). With `bench`, the benchmark table instead. Returns 1 on a failure.
wasm_test_browser() {
  local app=$1 mode=${2:-check} chromium
  step "WebAssembly in headless Chromium: Vite production builds of tests/browser"
  chromium=$(wasm_chromium)
  if [ "$mode" = bench ]; then
    (cd "$app/browser" && node run.mjs --chromium "$chromium" --bench)
  else
    (cd "$app/browser" && node run.mjs --chromium "$chromium" --tsv "$repo/testdata/bad_input.tsv")
  fi
}

# 3. The edge runtimes from npm (workerd, edge-runtime, Deno, Bun): tests/edge/run.mjs, the
#    vector tests and the frozen-clock bursts in each. With `bench`, newString() against uuid's
#    v7() in each. Returns 1 on a failure.
wasm_test_edge() {
  local app=$1 mode=${2:-check}
  step "WebAssembly in the edge runtimes: workerd, edge-runtime, Deno, Bun (tests/edge)"
  if [ "$mode" = bench ]; then
    (cd "$app/edge" && node run.mjs --bench)
  else
    (cd "$app/edge" && node run.mjs)
  fi
}

# After a release (P_check_more): the runs on the release's main tarball.
wasm_check_more() {
  local main app failed=()
  if [ ! -f "$out/node/libsno-$version.tgz" ]; then
    echo "  WebAssembly: no $out/node/libsno-$version.tgz (the node part not built): not run"
    return 0
  fi
  main=$(wasm_tarball "$out/node")
  wasm_test_node "$main" || failed+=(node)
  app=$(wasm_web_app "$main")
  wasm_test_browser "$app" || failed+=(chromium)
  wasm_test_edge "$app" || failed+=(edge)
  [ "${#failed[@]}" = 0 ] || die "wasm: failed in ${failed[*]} (above)"
}
