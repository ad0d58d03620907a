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
# by scripts/bench-agent.ts): a compact heap with a small young generation, and no optimising compilers
# (TurboFan, Maglev: their code and zones cost ≈ 7 MB; the agent waits on I/O, and the interpreter and
# Sparkplug run its JavaScript). WebAssembly still works (undici's parser, for downloads). No background
# threads for V8 (its collections of a ≈ 12 MB heap run on the main thread), and bytecode not run for two
# major collections is dropped (compiled again if ever called: start-up code, schema builders) — together
# ≈ 2 MB less resident. glibc's malloc keeps its mmap threshold fixed, so large start-up buffers go back to
# the system when freed, and keeps two arenas, not one per thread that ever allocated.
MALLOC_MMAP_THRESHOLD_=131072
MALLOC_ARENA_MAX=2
export MALLOC_MMAP_THRESHOLD_ MALLOC_ARENA_MAX
exec "$here/runtime/node" --optimize-for-size --max-semi-space-size=1 --no-opt --no-maglev --single-threaded --bytecode-old-age=2 "$here/lib/vend-agent.cjs" "$@"
