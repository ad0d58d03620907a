#!/bin/sh
# vend-agent launcher, installed as <release tree>/bin/vend-agent: runs the bundled agent
# (lib/vend-agent.cjs) on the Node.js runtime shipped in the same tree (runtime/node).
# Location-independent (the same tree runs from staging for the pre-swap self-test, from current/
# and from previous/ for the fallback boot guard) and independent of PATH: only shell builtins,
# plus readlink when the launcher is reached through a symbolic link. NODE_OPTIONS is dropped:
# nothing from the environment may load code into the agent.
self=$0
hops=0
while [ -L "$self" ] && [ "$hops" -lt 16 ] && command -v readlink >/dev/null 2>&1; do
  link=$(readlink "$self") || break
  case $link in
    /*) self=$link ;;
    *) self=${self%/*}/$link ;;
  esac
  hops=$((hops + 1))
done
case $self in
  */*) bin=${self%/*} ;;
  *) bin=. ;;
esac
here=$(CDPATH='' cd -- "$bin/.." && pwd -P) || exit 70
unset NODE_OPTIONS
# V8 tuned for a small resident set rather than peak speed (docs/decisions/agent.md "Footprint", measured
# by scripts/bench-agent.ts): a compact heap with a small young generation, grown and compacted as under memory
# pressure (--memory-saver-mode); no compiler beyond the interpreter (TurboFan, Maglev: their code and zones cost
# ≈ 7 MB; Sparkplug's baseline code ≈ 1 MB of heap; the agent waits on I/O), and feedback vectors only for functions
# run 64 times (start-up code runs once). WebAssembly still works (undici's parser, for downloads). No background
# threads for V8 (its collections of a ≈ 10 MB heap run on the main thread), and bytecode not run for two major
# collections is dropped (compiled again if ever called). Date's local time from the C library, not ICU
# (--no-icu-timezone-data): the same rules and offsets, where ICU loads its time zone names (≈ 0.8 MB) for the first
# Date#toISOString. glibc's malloc keeps its mmap threshold fixed at 64 KB, so large buffers (a TLS connection's 64 KB
# read buffer among them) go back to the system when freed, and keeps one arena.
MALLOC_MMAP_THRESHOLD_=65536
MALLOC_TRIM_THRESHOLD_=65536
MALLOC_ARENA_MAX=1
# TLS trusts the root certificates Node.js bundles — the same list, kept by the build in runtime/certs as OpenSSL's
# hashed directory — plus NODE_EXTRA_CA_CERTS: through OpenSSL's store (--use-openssl-ca) a connection reads the one
# root its chain ends at, where Node's own store parses all of them at the first connection (≈ 0.9 MB resident). No
# file of the system's is read (SSL_CERT_FILE names none); every connection still verifies the server.
SSL_CERT_DIR=$here/runtime/certs
SSL_CERT_FILE=/dev/null
export MALLOC_MMAP_THRESHOLD_ MALLOC_TRIM_THRESHOLD_ MALLOC_ARENA_MAX SSL_CERT_DIR SSL_CERT_FILE
exec "$here/runtime/node" --optimize-for-size --max-semi-space-size=1 --no-opt --no-maglev --no-sparkplug --single-threaded --bytecode-old-age=2 \
  --memory-saver-mode --invocation-count-for-feedback-allocation=64 --no-icu-timezone-data --use-openssl-ca "$here/lib/vend-agent.cjs" "$@"
