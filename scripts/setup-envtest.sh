#!/usr/bin/env bash
# Builds the control-plane binaries (kube-apiserver, etcd, kube-controller-manager, kubectl) from Go modules
# into a per-user cache outside the repo, laid out like KUBEBUILDER_ASSETS. The module pins live in
# scripts/envtest-module/.
#
# Usage: scripts/setup-envtest.sh            # build what is missing, print the assets dir as the last stdout line
#        KUBEBUILDER_ASSETS="$(scripts/setup-envtest.sh | tail -n1)"
#
# Environment (all optional):
#   CONTROLLER_SCOPE_ENVTEST_CACHE  cache root (default ${XDG_CACHE_HOME:-$HOME/.cache}/controller-scope/envtest)
#   ENVTEST_SKIP_KUBECTL=1          don't build kubectl (the TypeScript harness never needs it)
#   ENVTEST_FORCE=1                 rebuild even when the cache stamp matches
#
# Progress goes to stderr so that stdout carries only the directory.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
mod_k8s="$here/envtest-module/k8s"
mod_etcd="$here/envtest-module/etcd"

log() { printf '[setup-envtest] %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

# Go: prefer PATH, fall back to the standard install location.
if command -v go >/dev/null 2>&1; then GO=go; elif [ -x /usr/local/go/bin/go ]; then GO=/usr/local/go/bin/go; else
  die "Go (>= 1.26) is required: not on PATH and not at /usr/local/go/bin/go"
fi

# A toolchain switch would try to download a Go release; make it fail loudly instead.
export GOTOOLCHAIN=local GOWORK=off CGO_ENABLED=0
go_minor="$("$GO" env GOVERSION | sed -n 's/^go1\.\([0-9]*\).*/\1/p')"
[ -n "$go_minor" ] && [ "$go_minor" -ge 26 ] || die "Go >= 1.26 required, found $("$GO" env GOVERSION)"

# The required version of a module, from either a one-line `require` or a require block (not a replace line).
required_version() { awk -v m="$1" '$1=="require"{$1="";$0=$0} $1==m && $3!="=>"{print $2; exit}' "$2"; }
k8s_version="$(required_version k8s.io/kubernetes "$mod_k8s/go.mod")"
etcd_version="$(required_version go.etcd.io/etcd/server/v3 "$mod_etcd/go.mod")"
[ -n "$k8s_version" ] || die "cannot read k8s.io/kubernetes version from $mod_k8s/go.mod"
[ -n "$etcd_version" ] || die "cannot read go.etcd.io/etcd/server/v3 version from $mod_etcd/go.mod"

goos="$("$GO" env GOOS)"
goarch="$("$GO" env GOARCH)"
cache_root="${CONTROLLER_SCOPE_ENVTEST_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/controller-scope/envtest}"
dest="$cache_root/k8s/${k8s_version#v}-$goos-$goarch"
mkdir -p "$dest"

# The stamp ties the cached binaries to the exact module pins and build recipe, so editing go.mod/go.sum or
# this script's recipe version triggers a rebuild and nothing else does.
recipe=2
want_kubectl=1
[ "${ENVTEST_SKIP_KUBECTL:-}" = 1 ] && want_kubectl=0
stamp="$(cat "$mod_k8s/go.mod" "$mod_k8s/go.sum" "$mod_etcd/go.mod" "$mod_etcd/go.sum" |
  sha256sum | cut -c1-16)-r$recipe-$("$GO" env GOVERSION)"

have() { [ -x "$dest/$1" ] && [ "$(cat "$dest/.stamp-$1" 2>/dev/null)" = "$stamp" ]; }

all_present() {
  have etcd && have kube-apiserver && have kube-controller-manager && { [ $want_kubectl = 0 ] || have kubectl; }
}

if [ "${ENVTEST_FORCE:-}" != 1 ] && all_present; then
  log "up to date: $dest"
  printf '%s\n' "$dest"
  exit 0
fi

# Serialise concurrent runs (a developer shell and a CI run on the same machine share the cache).
exec 9>"$cache_root/.lock"
flock 9

# The Go build cache lives beside the binaries so that a rerun after a pin bump recompiles only what changed.
# The module cache stays at Go's default, shared with every other Go build on the machine.
export GOCACHE="$cache_root/go-build"
export GOFLAGS="-trimpath -mod=readonly -buildvcs=false"
# nice keeps the rest of the machine (tests, editors) responsive on small CI boxes.
nice_cmd=(nice -n 10)

k8s_minor="$(printf '%s' "$k8s_version" | cut -d. -f2)"
build_date="$(date -u +%Y-%m-%dT%H:%M:%SZ)"
ldflags="-s -w"
for pkg in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
  ldflags+=" -X $pkg.gitVersion=$k8s_version -X $pkg.gitMajor=1 -X $pkg.gitMinor=$k8s_minor"
  ldflags+=" -X $pkg.gitTreeState=clean -X $pkg.buildDate=$build_date"
done

build_one() { # name moduleDir package ldflags [tags]
  local name="$1" dir="$2" pkg="$3" ldf="$4" tags="${5:-}" t0 t1
  if [ "${ENVTEST_FORCE:-}" != 1 ] && have "$name"; then
    log "$name: cached"
    return
  fi
  log "$name: building $pkg (this takes minutes on a cold cache)"
  t0=$(date +%s)
  (cd "$dir" && "${nice_cmd[@]}" "$GO" build ${tags:+-tags "$tags"} -ldflags "$ldf" -o "$dest/.$name.tmp" "$pkg")
  mv -f "$dest/.$name.tmp" "$dest/$name"
  printf '%s\n' "$stamp" >"$dest/.stamp-$name"
  t1=$(date +%s)
  log "$name: done in $((t1 - t0))s ($(du -h "$dest/$name" | cut -f1))"
  printf '%s %s built in %ss go=%s\n' "$(date -u +%FT%TZ)" "$name" "$((t1 - t0))" "$("$GO" env GOVERSION)" \
    >>"$dest/build-log.txt"
}

started=$(date +%s)
log "k8s $k8s_version, etcd $etcd_version -> $dest"
log "GOCACHE=$GOCACHE GOMODCACHE=$("$GO" env GOMODCACHE)"
(cd "$mod_k8s" && "$GO" mod download) || die "go mod download failed for $mod_k8s"
(cd "$mod_etcd" && "$GO" mod download) || die "go mod download failed for $mod_etcd"

build_one etcd "$mod_etcd" go.etcd.io/etcd/server/v3 "-s -w"
build_one kube-apiserver "$mod_k8s" k8s.io/kubernetes/cmd/kube-apiserver "$ldflags" "selinux,notest,grpcnotrace"
# The garbage collector, namespace lifecycle and workload controllers: `run --envtest` starts it beside the
# API server so owner references and namespace deletion behave as on a cluster (--envtest=bare leaves it out).
build_one kube-controller-manager "$mod_k8s" k8s.io/kubernetes/cmd/kube-controller-manager "$ldflags" \
  "selinux,notest,grpcnotrace"
if [ $want_kubectl = 1 ]; then
  build_one kubectl "$mod_k8s" k8s.io/kubernetes/cmd/kubectl "$ldflags" "selinux,notest,grpcnotrace"
fi

log "all built in $(($(date +%s) - started))s; binaries $(du -shc "$dest"/etcd "$dest"/kube-apiserver \
  "$dest"/kube-controller-manager "$dest"/kubectl 2>/dev/null | tail -n1 | cut -f1), go build cache $(du -sh "$GOCACHE" | cut -f1)"
printf '%s\n' "$dest"
