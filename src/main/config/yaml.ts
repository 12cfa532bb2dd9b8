// yaml (about 70 module files) is required when a profile or skill file is first read, not at
// start-up: `folio serve` answers its first request without it. Its Node build is CommonJS, so this
// and an `import` elsewhere (tests) share one module.
import { createRequire } from 'node:module';
import type * as YamlLib from 'yaml';

type Yaml = typeof YamlLib;
let yaml: Yaml | undefined;

export function yamlLib(): Yaml {
  yaml ??= createRequire(import.meta.url)('yaml') as Yaml;
  return yaml;
}
