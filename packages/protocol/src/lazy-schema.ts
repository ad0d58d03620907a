/**
 * A schema built the first time it is used rather than when its module loads. zod's classic API gives
 * every schema instance its own copy of every method, so building all of the protocol's schemas at
 * import costs ≈ 3 MB of heap in every process that loads the package, though each process uses a part
 * of them: the cabinet agent's daemon about a third (docs/decisions/agent.md "Footprint").
 *
 * The value stands in for the schema everywhere (parse, shape, extend, composition inside other schemas,
 * `instanceof`, z.infer): every property read is answered by the built schema. What it cannot be is the
 * same object: code that keys a WeakMap by a schema (zod's registries, `.meta()`) must use the schema a
 * method returned, never the stand-in itself — as `.meta()` and `.describe()` already do, since they
 * return a new schema.
 */
export function lazySchema<T extends object>(build: () => T): T {
  let built: T | undefined;
  const schema = (): T => (built ??= build());
  return new Proxy({} as T, {
    get: (_, key) => Reflect.get(schema(), key),
    has: (_, key) => Reflect.has(schema(), key),
    set: (_, key, value) => Reflect.set(schema(), key, value),
    getPrototypeOf: () => Reflect.getPrototypeOf(schema()),
  });
}
