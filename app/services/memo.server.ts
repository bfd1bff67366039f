import type { AppConfig } from "./config.server";

/**
 * One value per configuration (cookies, keys): made on first use, then reused for the life of the
 * process — a server has one configuration; tests may make several.
 */
export function memoByConfig<T>(make: (config: AppConfig) => T): (config: AppConfig) => T {
  const values = new WeakMap<AppConfig, T>();
  return (config) => {
    let value = values.get(config);
    if (value === undefined) {
      value = make(config);
      values.set(config, value);
    }
    return value;
  };
}
