#!/usr/bin/env bash
# Builds Jaeger v2 (the all-in-one `jaeger` binary: an OpenTelemetry collector with Jaeger's storage and query
# extensions) from Go modules into a per-user cache outside the repo, as setup-envtest.sh does for the control
# plane. The trace tests start it with in-memory storage (test/otel/support/jaeger.ts). The pin lives in
# scripts/jaeger-module/.
#
# Usage: scripts/setup-jaeger.sh            # build what is missing, print the binary's path as the last stdout line
#        CONTROLLER_SCOPE_JAEGER="$(scripts/setup-jaeger.sh | tail -n1)"
#
# Environment (all optional):
#   CONTROLLER_SCOPE_JAEGER_CACHE  cache root (default ${XDG_CACHE_HOME:-$HOME/.cache}/controller-scope/jaeger)
#   JAEGER_FORCE=1                 rebuild even when the cache stamp matches
#
# Progress goes to stderr so that stdout carries only the path.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
mod="$here/jaeger-module"

log() { printf '[setup-jaeger] %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

if command -v go >/dev/null 2>&1; then GO=go; elif [ -x /usr/local/go/bin/go ]; then GO=/usr/local/go/bin/go; else
  die "Go (>= 1.26) is required: not on PATH and not at /usr/local/go/bin/go"
fi
# A toolchain switch would try to download a Go release; make it fail loudly instead.
export GOTOOLCHAIN=local GOWORK=off CGO_ENABLED=0

version="$(awk '$1=="github.com/jaegertracing/jaeger"{print $2; exit}' "$mod/go.mod")"
[ -n "$version" ] || die "cannot read the github.com/jaegertracing/jaeger version from $mod/go.mod"
cache_root="${CONTROLLER_SCOPE_JAEGER_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/controller-scope/jaeger}"
dest="$cache_root/${version#v}-$("$GO" env GOOS)-$("$GO" env GOARCH)"
bin="$dest/jaeger"
mkdir -p "$dest"

# The stamp ties the binary to the exact pins and recipe: editing go.mod/go.sum or the recipe rebuilds.
recipe=1
stamp="$(cat "$mod/go.mod" "$mod/go.sum" | sha256sum | cut -c1-16)-r$recipe-$("$GO" env GOVERSION)"
fresh() { [ -x "$bin" ] && [ "$(cat "$dest/.stamp" 2>/dev/null)" = "$stamp" ]; }

if [ "${JAEGER_FORCE:-}" != 1 ] && fresh; then
  log "up to date: $bin"
  printf '%s\n' "$bin"
  exit 0
fi

# Serialise concurrent runs (a developer shell and a CI run on the same machine share the cache).
exec 9>"$cache_root/.lock"
flock 9
if [ "${JAEGER_FORCE:-}" != 1 ] && fresh; then
  printf '%s\n' "$bin"
  exit 0
fi

# The build cache lives beside the binary, so a rerun after a pin bump recompiles only what changed.
export GOCACHE="$cache_root/go-build"
export GOFLAGS="-trimpath -mod=readonly -buildvcs=false"

log "jaeger $version -> $bin (this takes minutes on a cold cache)"
t0=$(date +%s)
(cd "$mod" && "$GO" mod download) || die "go mod download failed for $mod"
(cd "$mod" && nice -n 10 "$GO" build -ldflags "-s -w" -o "$dest/.jaeger.tmp" github.com/jaegertracing/jaeger/cmd/jaeger)
mv -f "$dest/.jaeger.tmp" "$bin"
printf '%s\n' "$stamp" >"$dest/.stamp"
t1=$(date +%s)
log "done in $((t1 - t0))s ($(du -h "$bin" | cut -f1)), go build cache $(du -sh "$GOCACHE" | cut -f1)"
printf '%s jaeger built in %ss go=%s\n' "$(date -u +%FT%TZ)" "$((t1 - t0))" "$("$GO" env GOVERSION)" \
  >>"$dest/build-log.txt"
printf '%s\n' "$bin"
