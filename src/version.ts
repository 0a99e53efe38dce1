// The package version, read from package.json whether running from src/ or dist/src/.
import { existsSync, readFileSync } from 'node:fs';

function readVersion(): string {
  for (const rel of ['../package.json', '../../package.json']) {
    const url = new URL(rel, import.meta.url);
    if (!existsSync(url)) continue;
    const pkg = JSON.parse(readFileSync(url, 'utf8')) as { name?: string; version?: string };
    if (pkg.name === 'mnemo-memory' && pkg.version) return pkg.version;
  }
  return '0.0.0';
}

export const VERSION = readVersion();
