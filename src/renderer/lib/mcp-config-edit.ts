// Per-server changes to mcp.json made from the server list: the config the UI holds (secrets shown
// as "••••", which saving keeps) with one entry switched off, on, or taken out. Everything else in
// the file, including keys Folio does not know, is kept as it was.

type Config = { mcpServers: Record<string, Record<string, unknown>> } & Record<string, unknown>;

function parse(text: string, name: string): Config {
  const config = JSON.parse(text) as Config;
  if (typeof config !== 'object' || config === null || typeof config.mcpServers !== 'object' || config.mcpServers === null || !(name in config.mcpServers)) {
    throw new Error(`mcp.json has no server "${name}"`);
  }
  return config;
}

/** The config with `name` disabled (`"disabled": true`) or enabled (the key removed: enabled is the default). */
export function withServerDisabled(text: string, name: string, disabled: boolean): string {
  const config = parse(text, name);
  const { disabled: _previous, ...rest } = config.mcpServers[name];
  config.mcpServers[name] = disabled ? { ...rest, disabled: true } : rest;
  return JSON.stringify(config, null, 2);
}

/** The config without the server `name`. */
export function withoutServer(text: string, name: string): string {
  const config = parse(text, name);
  const { [name]: _removed, ...servers } = config.mcpServers;
  return JSON.stringify({ ...config, mcpServers: servers }, null, 2);
}
